//! The board's 16 symmetries as byte lookup tables ([`SymmetryMaps`]):
//! the image of a set of points, the symmetries that keep it, and its
//! least image, which the hash folds white patterns by.

use super::BOARD;
use crate::games::morris::board::{apply, symmetries};

/// The board's 16 symmetries as one small lookup table. A point's bit is
/// `8 * square + place`, and a symmetry turns and mirrors every square
/// alike (a quarter turn moves each place by two, a mirror takes place p
/// to 8 − p), then may exchange the inner and outer squares: so the image
/// of each square's byte comes from one table of 256 bytes for each of
/// the 8 turns and mirrors (2 KiB), and the exchange swaps the outer
/// bytes. Symmetry `index` is `8 * exchange + 4 * mirror + turn`, the
/// order of [`symmetries`].
///
/// It replaced a table of 32-bit images for each symmetry and byte (48
/// KiB, more than the 32 KiB first-level cache, where the profile found
/// ranks waiting on it): no faster beyond the machine's drift on Nine
/// Men's Morris's layer 11, but smaller. Shifts alone, without a table,
/// were slower in the move benchmark.
#[derive(Clone, Debug)]
pub struct SymmetryMaps {
    /// The image of a square's byte under each turn and mirror.
    squares: [[u8; 256]; TURNS_AND_MIRRORS],
    /// The turns and mirrors that keep a square's byte, a bit each.
    keeping: [u8; 256],
}

/// Symmetries of the board, the identity included.
const SYMMETRIES: usize = 16;

/// Symmetries that keep every square: the 8 of the square.
const TURNS_AND_MIRRORS: usize = 8;

impl SymmetryMaps {
    /// The lookup table of the board's 16 symmetries.
    pub fn new() -> Self {
        let all = symmetries();
        let squares = std::array::from_fn(|index| {
            std::array::from_fn(|bits| apply(&all[index], bits as u32) as u8)
        });
        let keeping = std::array::from_fn(|bits| {
            (0..TURNS_AND_MIRRORS)
                .filter(|&index| usize::from(squares[index][bits]) == bits)
                .fold(0, |mask, index| mask | 1 << index)
        });
        SymmetryMaps { squares, keeping }
    }

    /// The number of symmetries, the identity included.
    pub fn len(&self) -> usize {
        SYMMETRIES
    }

    /// Whether there are no symmetries.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The image of `stones` under symmetry `index` (0 is the identity).
    #[inline]
    pub fn apply(&self, index: usize, stones: u32) -> u32 {
        debug_assert!(index < SYMMETRIES && stones & !BOARD == 0);
        let square = &self.squares[index % TURNS_AND_MIRRORS];
        let image = u32::from(square[(stones & 0xff) as usize])
            | u32::from(square[(stones >> 8 & 0xff) as usize]) << 8
            | u32::from(square[(stones >> 16 & 0xff) as usize]) << 16;
        // The exchange of the inner and outer squares, without a branch:
        // the symmetries a rank tries vary from call to call.
        let exchanged = image.swap_bytes() >> 8;
        if index >= TURNS_AND_MIRRORS {
            exchanged
        } else {
            image
        }
    }

    /// The symmetries that keep `stones`, a bit each, the identity
    /// included: from a byte table a square, without the 16 images. A
    /// turn or mirror keeps the points if it keeps each square's byte; one
    /// that also exchanges the inner and outer squares, if it takes each
    /// of them to the other and keeps the middle one.
    #[inline]
    pub fn stabilizer_of(&self, stones: u32) -> u16 {
        let [inner, middle, outer, _] = stones.to_le_bytes();
        let keeps_middle = self.keeping[usize::from(middle)];
        let square_wise = u16::from(
            self.keeping[usize::from(inner)] & keeps_middle & self.keeping[usize::from(outer)],
        );
        if inner.count_ones() != outer.count_ones() {
            return square_wise;
        }
        let mut exchanging = 0u16;
        let mut rest = keeps_middle;
        while rest != 0 {
            let index = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let square = &self.squares[index];
            if square[usize::from(inner)] == outer && square[usize::from(outer)] == inner {
                exchanging |= 1 << (TURNS_AND_MIRRORS + index);
            }
        }
        square_wise | exchanging
    }

    /// The least image of `stones` and the symmetries that map it there, a
    /// bit each.
    #[inline]
    pub fn canonical(&self, stones: u32) -> (u32, u16) {
        let mut least = stones;
        let mut to_least = 1u16;
        for index in 1..SYMMETRIES {
            let image = self.apply(index, stones);
            if image < least {
                least = image;
                to_least = 1 << index;
            } else if image == least {
                to_least |= 1 << index;
            }
        }
        (least, to_least)
    }
}

impl Default for SymmetryMaps {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::morris::board::POINTS;
    use crate::hash::splitmix64;

    #[test]
    fn the_stabilizer_from_square_bytes_is_the_symmetries_that_keep_the_points() {
        let maps = SymmetryMaps::new();
        let by_images = |stones: u32| -> u16 {
            (0..SYMMETRIES)
                .filter(|&index| maps.apply(index, stones) == stones)
                .fold(0, |mask, index| mask | 1 << index)
        };
        let mut kept_by_more = 0;
        for seed in 0..200_000u64 {
            let r = splitmix64(seed);
            // Random points, and unions of the orbits of a few points (kept
            // by some symmetry far more often than random ones).
            let stones = if seed % 2 == 0 {
                (r & u64::from(BOARD)) as u32 & (splitmix64(r) as u32 | splitmix64(!r) as u32)
            } else {
                let mut stones = 0;
                for i in 0..1 + r % 3 {
                    let point = splitmix64(r ^ i) % POINTS as u64;
                    let symmetries = splitmix64(r ^ (i << 8)) as u16 | 1;
                    for index in (0..SYMMETRIES).filter(|&x| symmetries >> x & 1 == 1) {
                        stones |= maps.apply(index, 1 << point);
                    }
                }
                stones
            };
            let expected = by_images(stones);
            assert_eq!(maps.stabilizer_of(stones), expected, "{stones:024b}");
            kept_by_more += u32::from(expected != 1);
        }
        assert!(kept_by_more > 10_000, "{kept_by_more}");
    }

    #[test]
    fn the_lookup_maps_agree_with_the_point_maps() {
        let maps = SymmetryMaps::new();
        let all = symmetries();
        assert_eq!(maps.len(), all.len());
        // Every value of each square's byte, the other two at random.
        let each_byte = (0..3u32).flat_map(|byte| {
            (0..256u32).map(move |bits| {
                let rest = splitmix64(u64::from(byte << 8 | bits)) as u32 & !(0xff << (8 * byte));
                (rest | bits << (8 * byte)) & BOARD
            })
        });
        let random = (0..1000).map(|seed| splitmix64(seed) as u32 & BOARD);
        for stones in each_byte.chain(random) {
            for (index, symmetry) in all.iter().enumerate() {
                assert_eq!(maps.apply(index, stones), apply(symmetry, stones));
            }
        }
    }
}
