//! A layer's distances held one byte a position: distances below the
//! table's near limit in the byte itself, the rare longer ones in a map.
//! Two bytes a position would not fit the largest Fox-and-Geese layers
//! (8.4 G stored positions in layer 16) beside the layer below.

use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use crate::table::WordStorage;

/// The distance of a position that has none (a draw, or a value by rule).
pub const NO_DISTANCE: u16 = u16::MAX;

/// The byte of a position without a distance.
pub(super) const NONE_BYTE: u8 = u8::MAX;
/// The byte of a position whose distance is in the map.
pub(super) const FAR_BYTE: u8 = u8::MAX - 1;
/// Distances below this are held in their byte.
pub const NEAR_LIMIT: u16 = FAR_BYTE as u16;

/// The distances of one layer's positions, by rank.
#[derive(Default)]
pub struct LayerDistances {
    words: Words,
    len: u64,
    far: HashMap<u64, u16>,
}

/// Eight positions a word, the lowest rank in the lowest byte (the stored
/// layout): in memory, or the store's table mapped read-only (a layer read
/// back for the layer above it leaves its pages to the page cache).
enum Words {
    Owned(Vec<u64>),
    Stored(Box<WordStorage>),
}

impl Default for Words {
    fn default() -> Self {
        Words::Owned(Vec::new())
    }
}

impl Words {
    fn get(&self, index: usize) -> u64 {
        match self {
            Words::Owned(words) => words[index],
            Words::Stored(table) => table.words()[index].load(Relaxed),
        }
    }

    fn len(&self) -> usize {
        match self {
            Words::Owned(words) => words.len(),
            Words::Stored(table) => table.words().len(),
        }
    }
}

impl LayerDistances {
    /// From the words of bytes and the map of longer distances, as the
    /// computation or a stored table leaves them.
    pub(super) fn from_parts(words: Vec<u64>, len: u64, far: HashMap<u64, u16>) -> Self {
        debug_assert_eq!(words.len() as u64, len.div_ceil(8));
        LayerDistances {
            words: Words::Owned(words),
            len,
            far,
        }
    }

    /// A store's table of `len` distances at one byte a position, read in
    /// place.
    pub(super) fn stored(table: WordStorage, len: u64) -> Self {
        debug_assert_eq!(table.words().len() as u64, len.div_ceil(8));
        LayerDistances {
            words: Words::Stored(Box::new(table)),
            len,
            far: HashMap::new(),
        }
    }

    /// From one distance a position ([`NO_DISTANCE`] for none).
    pub fn from_distances(distances: impl IntoIterator<Item = u16>) -> Self {
        let mut far = HashMap::new();
        let mut words = Vec::new();
        let mut len = 0u64;
        for d in distances {
            if len.is_multiple_of(8) {
                words.push(u64::MAX);
            }
            let byte = byte_of(d, len, &mut far) as u64;
            let shift = 8 * (len % 8);
            let word = words.last_mut().expect("pushed above");
            *word = *word & !(0xff << shift) | byte << shift;
            len += 1;
        }
        LayerDistances::from_parts(words, len, far)
    }

    /// Positions in the layer.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for a layer of no positions.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The byte of the position at `rank` (which must be in the layer).
    pub(super) fn byte(&self, rank: u64) -> u8 {
        (self.words.get((rank / 8) as usize) >> (8 * (rank % 8))) as u8
    }

    /// The distance of the position at `rank`; [`NO_DISTANCE`] for one
    /// without (or a rank past the layer).
    pub fn get(&self, rank: u64) -> u16 {
        if rank >= self.len {
            return NO_DISTANCE;
        }
        match self.byte(rank) {
            NONE_BYTE => NO_DISTANCE,
            FAR_BYTE => self.far[&rank],
            near => near as u16,
        }
    }

    /// Every position's distance in rank order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.len()).map(|rank| self.get(rank))
    }

    /// Bytes of memory it holds (about: the map's entries counted at 16).
    pub fn memory_bytes(&self) -> u64 {
        let owned = match &self.words {
            Words::Owned(words) => words.len(),
            Words::Stored(_) => 0,
        };
        8 * owned as u64 + 16 * self.far.len() as u64
    }

    /// The longest finite distance, if any position has one.
    pub fn longest(&self) -> Option<u16> {
        // Unused bytes past the layer's end are NONE_BYTE.
        let near = (0..self.words.len())
            .into_par_iter()
            .flat_map_iter(|index| self.words.get(index).to_le_bytes())
            .filter(|&b| b < FAR_BYTE)
            .max()
            .map(u16::from);
        near.max(self.far.values().copied().max())
    }

    /// True when some distance is past the near limit (the layer is then
    /// stored at two bytes a position).
    pub fn has_far(&self) -> bool {
        !self.far.is_empty()
    }

    /// Word `index` of bytes, [`FAR_BYTE`] where the map holds a
    /// distance.
    pub(super) fn word(&self, index: u64) -> u64 {
        self.words.get(index as usize)
    }
}

/// The byte of distance `d` at `rank`, entering it into `far` when it does
/// not fit.
fn byte_of(d: u16, rank: u64, far: &mut HashMap<u64, u16>) -> u8 {
    if d == NO_DISTANCE {
        NONE_BYTE
    } else if d < NEAR_LIMIT {
        d as u8
    } else {
        far.insert(rank, d);
        FAR_BYTE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_round_trip_near_far_and_none() {
        let given = [0, 5, NO_DISTANCE, 253, 254, 300, 65_534, 7];
        let table = LayerDistances::from_distances(given);
        assert_eq!(table.iter().collect::<Vec<_>>(), given);
        assert_eq!(table.get(100), NO_DISTANCE);
        assert_eq!(table.longest(), Some(65_534));
        assert!(table.has_far());
        assert_eq!(
            LayerDistances::from_distances([NO_DISTANCE; 3]).longest(),
            None
        );
        assert!(!LayerDistances::from_distances([1, 2]).has_far());
    }
}
