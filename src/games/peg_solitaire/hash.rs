//! The perfect hash of Peg Solitaire positions: one block per peg count,
//! ranked by the binomial hash among the board's cells (Algorithms 8 and
//! 9), with the least image under the symmetries fixing the start stored
//! when they are in use.

use super::{PegSolitaire, Pegs};
use crate::error::Result;

impl PegSolitaire {
    /// Number of ranks holding positions with `pegs` pegs.
    pub fn positions_with(&self, pegs: usize) -> u64 {
        self.rankers[pegs].size()
    }

    /// The position stored for `pegs`: the least of its images.
    #[inline]
    pub fn canonical(&self, pegs: u64) -> u64 {
        self.symmetries
            .iter()
            .map(|map| map.apply(pegs))
            .min()
            .unwrap_or(pegs)
    }

    #[inline]
    pub(super) fn rank_mask(&self, pegs: u64) -> u64 {
        let count = pegs.count_ones() as usize;
        self.offsets[count] + self.rankers[count].rank(pegs)
    }

    /// Rank of a position given as a mask, checked.
    pub fn rank_of(&self, pegs: u64) -> Result<u64> {
        let count = pegs.count_ones() as usize;
        Ok(self.offsets[count] + self.rankers[count].try_rank(pegs)?)
    }

    /// The peg mask of a rank.
    pub fn mask_of(&self, rank: u64) -> u64 {
        let count = self.offsets.partition_point(|&offset| offset <= rank) - 1;
        self.rankers[count].unrank(rank - self.offsets[count])
    }

    /// Unranks `rank` into `state` (see
    /// [`Space::unrank`](crate::space::Space::unrank)).
    #[inline]
    pub(super) fn unrank_into(&self, rank: u64, state: &mut Pegs) {
        state.mask = match state.run.get(rank) {
            Some(mask) => mask,
            None => {
                let count = self.offsets.partition_point(|&offset| offset <= rank) - 1;
                let offset = self.offsets[count];
                self.rankers[count].unrank_into_run(rank, offset, &mut state.run)
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::english;
    use super::*;
    use crate::space::Space;
    #[test]
    fn the_space_is_every_subset_of_the_board() {
        let game = english(false);
        assert_eq!(game.size(), 1u64 << 33);
        assert_eq!(game.blocks().len(), 34);
        assert_eq!(game.positions_with(16), 1_166_803_110);
        let mut state = game.new_state();
        for rank in [0, 1, 5_000_000_000, (1u64 << 33) - 1] {
            game.unrank(rank, &mut state);
            assert_eq!(game.rank(&state), rank);
        }
    }

    #[test]
    fn one_reused_position_unranks_a_scan_across_blocks_and_jumps_back() {
        // Ranks in increasing order cross runs and blocks (peg counts); a
        // smaller rank after them must not be answered from the last run.
        let game = english(false);
        let mut state = game.new_state();
        let mut seed = 11u64;
        let mut rank = game.offsets[15] - 70_000;
        let check = |rank: u64, state: &mut Pegs| {
            game.unrank(rank, state);
            assert_eq!(state.mask, game.mask_of(rank), "rank {rank}");
            assert_eq!(game.rank(state), rank);
        };
        while rank < game.offsets[15] + 200_000 {
            check(rank, &mut state);
            seed = crate::hash::splitmix64(seed);
            rank += 1 + seed % 300;
        }
        for rank in [
            5,
            game.offsets[15] + 10,
            game.offsets[15] + 9,
            game.size() - 1,
            0,
        ] {
            check(rank, &mut state);
        }
    }
}
