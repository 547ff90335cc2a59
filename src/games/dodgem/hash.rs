//! The perfect hash of Dodgem positions, layer by layer: blocks by the
//! number of blue cars, and in a block the binomial ranks of the blue cars
//! and of the red cars among the squares blue leaves, then the side to
//! move.

use super::{Dodgem, DodgemState};
use crate::hash::bits::{compress, expand};

impl Dodgem {
    /// The numbers of blue cars layer `layer`'s blocks hold, in block order.
    pub(super) fn blues_of_layer(&self, layer: usize) -> std::ops::RangeInclusive<usize> {
        layer.saturating_sub(self.cars())..=layer.min(self.cars())
    }

    pub(super) fn block_len(&self, blue: usize, red: usize) -> u64 {
        2 * self.blue_rankers[blue].size() * self.red_rankers[blue][red].size()
    }

    /// The first rank of the block with `blue` blue cars in `layer`.
    fn block_start(&self, layer: usize, blue: usize) -> u64 {
        (*self.blues_of_layer(layer).start()..blue)
            .map(|b| self.block_len(b, layer - b))
            .sum()
    }

    /// The layer of a position: the number of cars, of both colours, on the board.
    pub fn layer_of(&self, state: &DodgemState) -> usize {
        (state.blue.count_ones() + state.red.count_ones()) as usize
    }

    /// The rank of `state` in its layer.
    pub fn rank_of(&self, state: &DodgemState) -> u64 {
        let blue = state.blue.count_ones() as usize;
        let red = state.red.count_ones() as usize;
        let free = self.all_squares() & !state.blue;
        let blue_rank = self.blue_rankers[blue].rank(state.blue);
        let red_rank = self.red_rankers[blue][red].rank(compress(state.red, free));
        let within = blue_rank * self.red_rankers[blue][red].size() + red_rank;
        self.block_start(blue + red, blue) + 2 * within + u64::from(!state.blue_to_move)
    }

    /// Unranks `rank` of layer `layer` into `state` (see
    /// [`LayeredGame::unrank`](crate::space::LayeredGame::unrank)).
    pub(super) fn unrank_into(&self, layer: usize, rank: u64, state: &mut DodgemState) {
        let mut start = 0;
        for blue in self.blues_of_layer(layer) {
            let red = layer - blue;
            let len = self.block_len(blue, red);
            if rank < start + len {
                let within = rank - start;
                let pattern = within >> 1;
                let reds = self.red_rankers[blue][red].size();
                state.blue = self.blue_rankers[blue].unrank(pattern / reds);
                let free = self.all_squares() & !state.blue;
                state.red = expand(self.red_rankers[blue][red].unrank(pattern % reds), free);
                state.blue_to_move = within & 1 == 0;
                return;
            }
            start += len;
        }
        panic!("rank {rank} is outside layer {layer}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TwoPlayerGame;
    use crate::space::LayeredGame;
    #[test]
    fn ranks_and_positions_round_trip_in_every_layer() {
        for n in [3, 4] {
            let game = Dodgem::new(n).unwrap();
            let mut state = game.new_state();
            for layer in 0..=game.max_layer() {
                let blocks = game.layer_blocks(layer);
                assert_eq!(blocks.last().unwrap().end(), game.layer_size(layer));
                for rank in (0..game.layer_size(layer)).step_by(7) {
                    game.unrank(layer, rank, &mut state);
                    assert_eq!(game.layer_of(&state), layer);
                    assert_eq!(game.rank_of(&state), rank);
                    let text = game.position_text(&state);
                    assert_eq!(game.parse_position(&text).unwrap(), state, "{text}");
                }
            }
        }
    }
}
