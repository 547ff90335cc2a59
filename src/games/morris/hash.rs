//! The perfect hash of a Morris position's stones: `white` white and
//! `black` black stones on the 24 points, ranked as the paper's
//! multinomial hash does two colours — the white stones' binomial rank
//! among the 24 points, then the black stones' among the points left —
//! and the representative of a position under the board's 16 symmetries
//! (the image with the least rank), which lets a layer be solved on
//! representatives only, as Fox-and-Geese's is on its 8.

use super::board::{POINTS, apply, symmetries};
use crate::error::{Error, Result};
use crate::hash::BinomialRanker;
use crate::hash::bits::{compress, expand};

/// Every point, a bit each.
const BOARD: u64 = (1 << POINTS) - 1;

/// Ranks of the positions with given numbers of white and black stones.
#[derive(Clone, Debug)]
pub struct StoneHash {
    white: BinomialRanker,
    black: BinomialRanker,
    symmetries: Vec<[u8; POINTS]>,
}

impl StoneHash {
    pub fn new(white: usize, black: usize) -> Result<Self> {
        if white + black > POINTS {
            return Err(Error::InvalidParameter(format!(
                "{white} white and {black} black stones do not fit the board's {POINTS} points"
            )));
        }
        Ok(StoneHash {
            white: BinomialRanker::new(POINTS, white)?,
            black: BinomialRanker::new(POINTS - white, black)?,
            symmetries: symmetries(),
        })
    }

    /// Number of ranks: C(24, white) · C(24 − white, black).
    pub fn size(&self) -> u64 {
        self.white.size() * self.black.size()
    }

    /// The rank of the stones `white` and `black` (a bit per point, no
    /// point in both).
    #[inline]
    pub fn rank(&self, white: u32, black: u32) -> u64 {
        debug_assert_eq!(white & black, 0);
        let free = !white as u64 & BOARD;
        self.white.rank(white as u64) * self.black.size()
            + self.black.rank(compress(black as u64, free))
    }

    /// The stones (white, black) of rank `rank` (below [`size`](Self::size)).
    #[inline]
    pub fn unrank(&self, rank: u64) -> (u32, u32) {
        let (high, low) = (rank / self.black.size(), rank % self.black.size());
        let white = self.white.unrank(high);
        let black = expand(self.black.unrank(low), !white & BOARD);
        (white as u32, black as u32)
    }

    /// The rank of the position's representative (the least rank among its
    /// images under the 16 symmetries) and how many distinct positions its
    /// orbit holds.
    pub fn representative(&self, white: u32, black: u32) -> (u64, usize) {
        let mut images: Vec<u64> = self
            .symmetries
            .iter()
            .map(|s| self.rank(apply(s, white), apply(s, black)))
            .collect();
        images.sort_unstable();
        images.dedup();
        (images[0], images.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::splitmix64;
    use std::collections::HashSet;

    #[test]
    fn rank_inverts_unrank_over_whole_layers_and_samples() {
        for (white, black) in [(0, 0), (1, 0), (0, 3), (3, 3), (4, 2)] {
            let hash = StoneHash::new(white, black).unwrap();
            for rank in 0..hash.size() {
                let (w, b) = hash.unrank(rank);
                assert_eq!(
                    (w.count_ones() as usize, b.count_ones() as usize),
                    (white, black)
                );
                assert_eq!(w & b, 0);
                assert_eq!(hash.rank(w, b), rank);
            }
        }
        let hash = StoneHash::new(9, 9).unwrap();
        assert_eq!(hash.size(), 1_307_504 * 5_005);
        for i in 0..20_000 {
            let rank = splitmix64(i) % hash.size();
            let (w, b) = hash.unrank(rank);
            assert_eq!(hash.rank(w, b), rank);
        }
        assert!(StoneHash::new(13, 12).is_err());
    }

    #[test]
    fn representatives_count_the_orbits_as_burnside_does() {
        let all = symmetries();
        for (white, black) in [(3, 2), (3, 3), (4, 1)] {
            let hash = StoneHash::new(white, black).unwrap();
            let mut representatives = HashSet::new();
            let mut covered = 0u64;
            for rank in 0..hash.size() {
                let (w, b) = hash.unrank(rank);
                let (representative, orbit) = hash.representative(w, b);
                if representative == rank {
                    covered += orbit as u64;
                }
                representatives.insert(representative);
            }
            // Each orbit counted once, by its representative, covers the
            // layer.
            assert_eq!(covered, hash.size());
            // Burnside: the orbits are the average number of positions a
            // symmetry fixes.
            let fixed: u64 = all
                .iter()
                .map(|s| {
                    (0..hash.size())
                        .filter(|&r| {
                            let (w, b) = hash.unrank(r);
                            apply(s, w) == w && apply(s, b) == b
                        })
                        .count() as u64
                })
                .sum();
            assert_eq!(representatives.len() as u64 * all.len() as u64, fixed);
        }
    }
}
