//! Boards of three colours (empty, black, white) held as two bit masks,
//! ranked onto `0..n!/(e! b! w!)` by the shared multinomial hash
//! ([`ColourSetRanker`], three colours), and the ranks of every board one
//! stone further by table steps.
//!
//! A board of n cells with k stones, b of them black, is the set of
//! occupied cells (one of C(n, k)) and, among the occupied cells packed
//! low, the set of black ones (one of C(k, b)): the colour sets' two
//! levels with empty, white and black as colours 0, 1 and 2. Its rank is
//! `occupied_rank · C(k, b) + black_rank`, both colexicographic binomial
//! ranks (Algorithm 8 of Edelkamp et al., *Solving Games in Parallel with
//! Linear-Time Perfect Hash Functions*, 2009).
//!
//! Placing one stone on free cell c changes the occupied set's rank by
//! table steps: the occupied cells below c keep their terms C(i, j), c adds
//! C(c, p + 1) (p occupied below it), the occupied cells above it move up
//! one in count, C(i, j) → C(i, j + 1). Walking the cells upwards keeps
//! both sums, so every placement's rank comes in O(1) after one O(n) walk
//! per board ([`StoneRanker::placements`]); the black set is updated the
//! same way among the occupied cells. This is what lets a positional
//! game's layer be swept at table speed: a board has up to n successors.

use crate::error::{Error, Result};
use crate::hash::binomial::BINOMIALS;
use crate::hash::bits::expand;
use crate::hash::colour_sets::{ColourSetRanker, MAX_COLOUR_CELLS};

/// Which colour a placement adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    /// A black stone.
    Black,
    /// A white stone.
    White,
}

/// Rank/unrank of the boards of `n` cells with `stones` stones of which
/// `black` are black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoneRanker {
    /// Empty, white and black cells: the levels are the occupied set and,
    /// among it, the black set.
    sets: ColourSetRanker,
    /// C(stones, black), the black level's radix: the black sets per
    /// occupied set, read on every placement.
    colourings: u64,
}

impl StoneRanker {
    /// A ranker for boards of `n` cells with `stones` stones, `black` of them
    /// black; refused when the counts make no board, beyond 64 cells, or when the
    /// boards do not fit a 64-bit rank.
    pub fn new(n: usize, stones: usize, black: usize) -> Result<Self> {
        if n > MAX_COLOUR_CELLS {
            return Err(Error::InvalidParameter(format!(
                "boards have at most {MAX_COLOUR_CELLS} cells, got {n}"
            )));
        }
        if black > stones || stones > n {
            return Err(Error::InvalidParameter(format!(
                "cannot place {stones} stones, {black} of them black, on {n} cells"
            )));
        }
        let sets = ColourSetRanker::new(&[(n - stones) as u8, (stones - black) as u8, black as u8])
            .map_err(|error| match error {
                Error::SpaceTooLarge(_) => Error::SpaceTooLarge(format!(
                    "{n} cells with {stones} stones, {black} black, do not fit a 64-bit rank"
                )),
                other => other,
            })?;
        Ok(StoneRanker {
            colourings: sets.level_size(1),
            sets,
        })
    }

    /// Number of boards.
    pub fn size(&self) -> u64 {
        self.sets.size()
    }

    /// Cells of a board, n.
    pub fn cells(&self) -> usize {
        self.sets.len()
    }

    /// Stones on a board, black and white.
    pub fn stones(&self) -> usize {
        self.sets.levels()[0].chosen
    }

    /// Black stones on a board.
    pub fn black_stones(&self) -> usize {
        self.sets.levels()[1].chosen
    }

    /// The rank of the board with stones on `occupied` and black ones on
    /// `black` (a subset of it); cells are the low n bits.
    ///
    /// # Panics
    ///
    /// Unchecked, for the sweeps: debug builds panic on a board that is
    /// not one of this ranker's, release builds return a meaningless rank.
    /// [`try_rank`](Self::try_rank) checks.
    #[inline]
    pub fn rank(&self, occupied: u64, black: u64) -> u64 {
        self.sets.rank_sets(&[occupied, black])
    }

    /// The board `(occupied, black)` of `rank < size`.
    ///
    /// # Panics
    ///
    /// Unchecked: a rank at or past the size panics (or, in release
    /// builds, may give a meaningless board); it never loops.
    /// [`try_unrank`](Self::try_unrank) checks.
    #[inline]
    pub fn unrank(&self, rank: u64) -> (u64, u64) {
        let mut sets = [0u64; 2];
        self.sets.unrank_sets(rank, &mut sets);
        (sets[0], sets[1])
    }

    /// The rank of a board given by a user: `occupied` must hold this
    /// ranker's count of stones among the n cells, and `black` its count
    /// of black ones among them.
    pub fn try_rank(&self, occupied: u64, black: u64) -> Result<u64> {
        self.sets.try_rank_sets(&[occupied, black])
    }

    /// The board of a rank given by a user: refused unless below the size.
    pub fn try_unrank(&self, rank: u64) -> Result<(u64, u64)> {
        let mut sets = [0u64; 2];
        self.sets.try_unrank_sets(rank, &mut sets)?;
        Ok((sets[0], sets[1]))
    }

    /// The occupied set of `rank`'s board alone, and the rank of its black
    /// set (for a caller that keeps the last occupied set: consecutive
    /// ranks share it C(k, b) at a time).
    #[inline]
    pub fn split(&self, rank: u64) -> (u64, u64) {
        (rank / self.colourings, rank % self.colourings)
    }

    /// The black sets per occupied set, C(k, b): consecutive ranks walk
    /// them before the occupied set changes.
    pub fn colourings(&self) -> u64 {
        self.colourings
    }

    /// The occupied set of the next occupied-set rank (colexicographic
    /// order is the order of the masks as numbers, so this is Gosper's
    /// next mask with as many ones); for a sweep over consecutive ranks.
    #[inline]
    pub fn next_occupied(occupied: u64) -> u64 {
        let lowest = occupied & occupied.wrapping_neg();
        let ripple = occupied.wrapping_add(lowest);
        (((ripple ^ occupied) >> 2) / lowest) | ripple
    }

    /// The occupied set of the occupied-set rank `occupied_rank`.
    #[inline]
    pub fn unrank_occupied(&self, occupied_rank: u64) -> u64 {
        self.sets.levels()[0].binomial().unrank(occupied_rank)
    }

    /// The black set, on the cells of `occupied`, of black-set rank `rank`.
    #[inline]
    pub fn unrank_black(&self, occupied: u64, rank: u64) -> u64 {
        expand(self.sets.levels()[1].binomial().unrank(rank), occupied)
    }

    /// Emits, for every free cell c of the board `(occupied, black)` in
    /// increasing order, c and the rank **in this ranker** of the board with
    /// a `stone` added on c, until `emit` returns false. This ranker is the
    /// one of the boards after the placement (one stone more, and one black
    /// more when `stone` is black); `cells` bounds the cells tried (a mask
    /// of free cells the caller allows, e.g. a restricted first move).
    #[inline]
    pub fn placements<F: FnMut(u32, u64) -> bool>(
        &self,
        occupied: u64,
        black: u64,
        stone: Stone,
        cells: u64,
        mut emit: F,
    ) {
        debug_assert_eq!(occupied.count_ones() as usize + 1, self.stones());
        let n = self.cells();
        let all = crate::hash::binomial::low_bits(n);
        let adds_black = (stone == Stone::Black) as usize;
        // The terms of the occupied cells once the new stone is below them
        // (count one up), and of the black ones (position one up among the
        // occupied, count one up when the new stone is black).
        let mut occupied_high = 0u64;
        let mut black_high = 0u64;
        let (mut count, mut black_count) = (0usize, 0usize);
        let mut rest = occupied;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            count += 1;
            occupied_high += BINOMIALS[cell][count + 1];
            if black >> cell & 1 == 1 {
                black_count += 1;
                black_high += BINOMIALS[count][black_count + adds_black];
            }
        }
        // Walking up: the terms of the cells passed move from the high sums
        // (shifted) to the low sums (as they are).
        let (mut occupied_low, mut black_low) = (0u64, 0u64);
        let (mut below, mut black_below) = (0usize, 0usize);
        let mut free = !occupied & all & cells;
        let mut passed = occupied;
        while free != 0 {
            let cell = free.trailing_zeros() as usize;
            free &= free - 1;
            // The occupied cells between the last free cell and this one.
            let mut between = passed & low_bits_below(cell);
            passed &= !between;
            while between != 0 {
                let at = between.trailing_zeros() as usize;
                between &= between - 1;
                below += 1;
                occupied_low += BINOMIALS[at][below];
                occupied_high -= BINOMIALS[at][below + 1];
                if black >> at & 1 == 1 {
                    black_below += 1;
                    black_low += BINOMIALS[below - 1][black_below];
                    black_high -= BINOMIALS[below][black_below + adds_black];
                }
            }
            let occupied_rank = occupied_low + BINOMIALS[cell][below + 1] + occupied_high;
            let black_rank = black_low
                + if adds_black == 1 {
                    BINOMIALS[below][black_below + 1]
                } else {
                    0
                }
                + black_high;
            if !emit(cell as u32, occupied_rank * self.colourings + black_rank) {
                return;
            }
        }
    }
}

#[inline(always)]
fn low_bits_below(cell: usize) -> u64 {
    (1u64 << cell) - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::splitmix64;

    /// Every board of a few small shapes: unrank is onto, rank inverts it.
    #[test]
    fn rank_and_unrank_are_inverse_over_whole_spaces() {
        for (n, stones, black) in [
            (0, 0, 0),
            (1, 1, 0),
            (5, 3, 1),
            (8, 4, 2),
            (9, 6, 3),
            (10, 7, 4),
        ] {
            let ranker = StoneRanker::new(n, stones, black).unwrap();
            let expected = BINOMIALS[n][stones] * BINOMIALS[stones][black];
            assert_eq!(ranker.size(), expected);
            let mut seen = std::collections::HashSet::new();
            for rank in 0..ranker.size() {
                let (occupied, blacks) = ranker.unrank(rank);
                assert_eq!(occupied.count_ones() as usize, stones);
                assert_eq!(blacks.count_ones() as usize, black);
                assert_eq!(blacks & !occupied, 0);
                assert!(occupied < 1 << n);
                assert!(seen.insert((occupied, blacks)));
                assert_eq!(ranker.rank(occupied, blacks), rank);
                let (occupied_rank, black_rank) = ranker.split(rank);
                let again = ranker.unrank_occupied(occupied_rank);
                assert_eq!(again, occupied);
                assert_eq!(ranker.unrank_black(again, black_rank), blacks);
                if stones > 0 && occupied_rank + 1 < BINOMIALS[n][stones] {
                    assert_eq!(
                        StoneRanker::next_occupied(occupied),
                        ranker.unrank_occupied(occupied_rank + 1)
                    );
                }
            }
        }
    }

    /// The placements' ranks are the ranks of the boards they make, on
    /// every board of small spaces and on random boards of 36 and 64 cells.
    #[test]
    fn placements_rank_as_the_boards_they_make() {
        let check = |n: usize, occupied: u64, black: u64, cells: u64| {
            let stones = occupied.count_ones() as usize;
            let blacks = black.count_ones() as usize;
            for stone in [Stone::Black, Stone::White] {
                let after =
                    StoneRanker::new(n, stones + 1, blacks + (stone == Stone::Black) as usize)
                        .unwrap();
                let mut expected = Vec::new();
                let free = !occupied & crate::hash::binomial::low_bits(n) & cells;
                for cell in 0..n as u32 {
                    if free >> cell & 1 == 1 {
                        let added = 1u64 << cell;
                        let next_black = if stone == Stone::Black {
                            black | added
                        } else {
                            black
                        };
                        expected.push((cell, after.rank(occupied | added, next_black)));
                    }
                }
                let mut got = Vec::new();
                after.placements(occupied, black, stone, cells, |cell, rank| {
                    got.push((cell, rank));
                    true
                });
                assert_eq!(
                    got, expected,
                    "n={n} occupied={occupied:#b} black={black:#b}"
                );
                // Stopping is honoured.
                let mut calls = 0;
                after.placements(occupied, black, stone, cells, |_, _| {
                    calls += 1;
                    false
                });
                assert_eq!(calls, expected.len().min(1));
            }
        };
        for (n, stones, black) in [(6, 0, 0), (6, 2, 1), (7, 3, 0), (7, 3, 3), (8, 4, 2)] {
            let ranker = StoneRanker::new(n, stones, black).unwrap();
            for rank in 0..ranker.size() {
                let (occupied, blacks) = ranker.unrank(rank);
                check(n, occupied, blacks, u64::MAX);
                check(n, occupied, blacks, 0b1010_1010);
            }
        }
        for n in [36usize, 48] {
            for seed in 0..300u64 {
                let sparse = if n > 40 {
                    splitmix64(seed ^ 0x5151)
                } else {
                    u64::MAX
                };
                let occupied =
                    splitmix64(seed) & splitmix64(seed ^ 0xabc) & sparse & ((1u64 << n) - 1);
                let black = occupied & splitmix64(seed.wrapping_mul(7));
                check(n, occupied, black, u64::MAX);
            }
        }
    }

    #[test]
    fn impossible_shapes_are_refused() {
        assert!(StoneRanker::new(5, 6, 0).is_err());
        assert!(StoneRanker::new(5, 2, 3).is_err());
        assert!(StoneRanker::new(65, 2, 1).is_err());
        // C(64, 32) · C(32, 16) overflows a u64.
        assert!(StoneRanker::new(64, 32, 16).is_err());
        let ranker = StoneRanker::new(5, 3, 1).unwrap();
        assert_eq!(
            ranker.try_unrank(u64::MAX).unwrap_err().to_string(),
            format!(
                "invalid parameter: rank {} is outside the space of 30 elements (ranks 0..30)",
                u64::MAX
            )
        );
        let (occupied, black) = ranker.try_unrank(29).unwrap();
        assert_eq!(ranker.try_rank(occupied, black).unwrap(), 29);
        assert!(
            ranker.try_rank(0b111, 0b1000).is_err(),
            "black off the stones"
        );
        assert!(ranker.try_rank(0b11, 0b1).is_err(), "too few stones");
        assert!(
            ranker.try_rank(0b100011, 0b1).is_err(),
            "a stone off the board"
        );
    }
}
