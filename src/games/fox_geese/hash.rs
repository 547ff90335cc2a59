//! The perfect hash of Fox-and-Geese positions, layer by layer: the fox's
//! stored cell (the block), the geese's binomial rank among the other 32
//! points, then the side to move; with `symmetry`, a position is ranked
//! through its canonical twin (section 8.1 of the paper).

use super::{FoxGeese, FoxGeeseState, Unranked};

/// Removes bit `gap` from `mask`, closing the gap.
#[inline(always)]
fn squeeze(mask: u64, gap: usize) -> u64 {
    let below = (1u64 << gap) - 1;
    (mask & below) | ((mask >> 1) & !below)
}

/// Inverse of [`squeeze`]: reopens the gap at `gap` with a zero.
#[inline(always)]
fn widen(mask: u64, gap: usize) -> u64 {
    let below = (1u64 << gap) - 1;
    (mask & below) | ((mask & !below) << 1)
}

impl FoxGeese {
    /// Positions per fox cell in layer g: both sides to move.
    pub(super) fn per_fox(&self, geese: usize) -> u64 {
        2 * self.rankers[geese].size()
    }

    /// The same position as a canonical one: the least image under the
    /// symmetries taking the fox to the least cell of its orbit.
    #[inline]
    pub fn canonical(&self, state: &FoxGeeseState) -> FoxGeeseState {
        if !self.symmetry {
            return *state;
        }
        let apply = |&g: &usize| self.symmetries[g].apply(state.geese);
        let geese = if self.canonical_cell[state.fox] == state.fox {
            // The identity is among the maps: no lookups for it (the
            // solver's moves mostly keep the fox on its stored cell).
            self.fixing[state.fox]
                .iter()
                .map(apply)
                .fold(state.geese, u64::min)
        } else {
            self.to_canonical[state.fox]
                .iter()
                .map(apply)
                .min()
                .unwrap()
        };
        FoxGeeseState {
            fox: self.canonical_cell[state.fox],
            geese,
            fox_to_move: state.fox_to_move,
        }
    }

    /// True when the fox cell is one whose block is stored and solved (all
    /// of them without symmetry).
    pub fn solves_block(&self, fox: usize) -> bool {
        self.block_of[fox].is_some()
    }

    /// The fox cells whose blocks a layer's table holds, in rank order.
    pub fn stored_cells(&self) -> &[usize] {
        &self.stored_cells
    }

    /// Rank of a position whose fox is on a stored cell, as it is (without
    /// mapping it to its canonical twin).
    #[inline]
    pub(super) fn raw_rank(&self, state: &FoxGeeseState) -> u64 {
        let geese = state.geese.count_ones() as usize;
        let block = self.block_of[state.fox].expect("the fox stands on a stored cell");
        block as u64 * self.per_fox(geese)
            + 2 * self.rankers[geese].rank(squeeze(state.geese, state.fox))
            + (!state.fox_to_move) as u64
    }

    /// Rank of a position in its layer, through the canonical form.
    #[inline]
    pub fn rank_of(&self, state: &FoxGeeseState) -> u64 {
        self.raw_rank(&self.canonical(state))
    }

    /// Unranks `rank` of layer `geese` into `state` (see
    /// [`LayeredGame::unrank`](crate::space::LayeredGame::unrank)).
    #[inline]
    pub(super) fn unrank_into(&self, geese: usize, rank: u64, state: &mut Unranked) {
        // Both sides of a position are neighbours (rank = 2 * pattern +
        // side in a block of even size), so the run is of rank / 2.
        let pattern = rank >> 1;
        let squeezed = match state.run.get(pattern).filter(|_| state.layer == geese) {
            Some(squeezed) => squeezed,
            None => {
                let per_fox = self.per_fox(geese);
                let block = rank / per_fox;
                state.position.fox = self.stored_cells[block as usize];
                state.layer = geese;
                let first_pattern = block * per_fox / 2;
                self.rankers[geese].unrank_into_run(pattern, first_pattern, &mut state.run)
            }
        };
        state.position.fox_to_move = rank & 1 == 0;
        state.position.geese = widen(squeezed, state.position.fox);
    }

    /// Whether `state` is the least of its images under the symmetries
    /// fixing the fox's cell (see
    /// [`SymmetryHooks::is_representative`](crate::space::SymmetryHooks::is_representative)).
    #[inline]
    pub(super) fn is_least_image(&self, state: &Unranked) -> bool {
        // The least of the images under the symmetries fixing the fox's
        // cell (a stored cell's `to_canonical`): no ranking needed, and
        // nothing to do where only the identity fixes the cell.
        self.fixing[state.fox]
            .iter()
            .all(|&g| self.symmetries[g].apply(state.geese) >= state.geese)
    }

    /// The ranks of `state`'s images in its block (see
    /// [`SymmetryHooks::images`](crate::space::SymmetryHooks::images)).
    pub(super) fn for_each_image(&self, state: &Unranked, mut emit: impl FnMut(u64)) {
        // Only images with the fox on the same cell are in the table.
        for (map, image) in self.symmetries.iter().zip(&self.cell_images) {
            if image[state.fox] == state.fox {
                let mapped = FoxGeeseState {
                    geese: map.apply(state.geese),
                    ..**state
                };
                emit(self.raw_rank(&mapped));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Rules;
    use super::*;
    use crate::space::{LayeredGame, SymmetryHooks};

    #[test]
    fn rank_and_unrank_agree_and_layer_sizes_match() {
        let game = FoxGeese::new(false, false).unwrap();
        let sizes: Vec<u64> = (1..=5).map(|g| game.layer_size(g)).collect();
        assert_eq!(sizes, vec![2_112, 32_736, 327_360, 2_373_360, 13_290_816]);
        let mut state = game.new_state();
        for rank in 0..game.layer_size(2) {
            game.unrank(2, rank, &mut state);
            assert_eq!(game.rank(2, &state), rank);
        }
    }

    const FORWARD: Rules = Rules::GEESE_FORWARD;

    #[test]
    fn representatives_are_the_positions_that_rank_to_themselves() {
        for rules in [Rules::default(), FORWARD] {
            let game = FoxGeese::with_rules(rules, true).unwrap();
            let mut state = game.new_state();
            for geese in [2, 7] {
                for rank in (0..game.layer_size(geese)).step_by(13) {
                    game.unrank(geese, rank, &mut state);
                    assert_eq!(
                        game.is_representative(geese, rank, &state),
                        game.rank(geese, &state) == rank,
                        "{rules:?} g {geese} rank {rank}"
                    );
                }
            }
        }
        let game = FoxGeese::new(false, true).unwrap();
        assert_eq!(game.stored_cells().len(), 7);
        let weights: u64 = (0..7).map(|b| game.block_weight(4, b)).sum();
        assert_eq!(weights, 33, "the stored cells' orbits cover the board");
    }

    #[test]
    fn symmetric_ranks_are_shared_by_mirror_images() {
        let game = FoxGeese::new(false, true).unwrap();
        let state = game
            .parse("..g ... ....... ...F... ....... ... ...:fox")
            .unwrap();
        let mirrored = FoxGeeseState {
            geese: 1 << game.board.parse_cell("c1").unwrap(),
            ..state
        };
        assert_ne!(mirrored, state);
        assert_eq!(game.rank_of(&state), game.rank_of(&mirrored));
        assert!(game.solves_block(game.canonical(&state).fox));
    }
}
