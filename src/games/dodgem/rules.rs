//! The moves of Dodgem (a car's steps and its exit off the far edge) and
//! their reverse, and the game as the two-bit retrograde analysis walks it
//! ([`LayeredGame`]).

use super::{BLUE_STEPS, Dodgem, DodgemState, RED_STEPS};
use crate::error::Result;
use crate::kernel::Program;
use crate::space::{
    Block, ColourTwinHooks, GpuRules, LayerLinks, LayeredGame, MoveShortcuts, MoveWindow, Player,
    Successor, SymmetryHooks, Value,
};

impl Dodgem {
    /// A move's destination as the solver names it: its layer and rank.
    #[inline(always)]
    fn successor(&self, next: &DodgemState) -> Successor {
        Successor {
            layer: self.layer_of(next),
            rank: self.rank_of(next),
        }
    }

    /// Every move of the side to move, exits (to the layer below) first,
    /// until `emit` returns false.
    pub fn for_each_move(&self, state: &DodgemState, mut emit: impl FnMut(DodgemState) -> bool) {
        let (mine, steps) = if state.blue_to_move {
            (state.blue, &BLUE_STEPS)
        } else {
            (state.red, &RED_STEPS)
        };
        let occupied = state.blue | state.red;
        let place = |mine_after: u64| {
            if state.blue_to_move {
                DodgemState {
                    blue: mine_after,
                    red: state.red,
                    blue_to_move: false,
                }
            } else {
                DodgemState {
                    blue: state.blue,
                    red: mine_after,
                    blue_to_move: true,
                }
            }
        };
        // Exits: a forward step off the far edge.
        let mut cars = mine;
        while cars != 0 {
            let car = cars.trailing_zeros() as usize;
            cars &= cars - 1;
            let (row, column) = self.row_column(car);
            let (dr, dc) = steps[0];
            if self.square(row + dr, column + dc).is_none() && !emit(place(mine & !(1 << car))) {
                return;
            }
        }
        let mut cars = mine;
        while cars != 0 {
            let car = cars.trailing_zeros() as usize;
            cars &= cars - 1;
            let (row, column) = self.row_column(car);
            for &(dr, dc) in steps {
                if let Some(to) = self.square(row + dr, column + dc)
                    && occupied >> to & 1 == 0
                    && !emit(place(mine & !(1 << car) | 1 << to))
                {
                    return;
                }
            }
        }
    }

    /// The positions of the same layer from which a move leads to `state`:
    /// the other side moved one of its cars there from an empty square.
    pub fn for_each_predecessor(&self, state: &DodgemState, mut emit: impl FnMut(DodgemState)) {
        // The side that moved last is the one not to move now.
        let blue_moved = !state.blue_to_move;
        let (theirs, steps) = if blue_moved {
            (state.blue, &BLUE_STEPS)
        } else {
            (state.red, &RED_STEPS)
        };
        let occupied = state.blue | state.red;
        let mut cars = theirs;
        while cars != 0 {
            let car = cars.trailing_zeros() as usize;
            cars &= cars - 1;
            let (row, column) = self.row_column(car);
            for &(dr, dc) in steps {
                if let Some(from) = self.square(row - dr, column - dc)
                    && occupied >> from & 1 == 0
                {
                    let before = theirs & !(1 << car) | 1 << from;
                    emit(if blue_moved {
                        DodgemState {
                            blue: before,
                            red: state.red,
                            blue_to_move: true,
                        }
                    } else {
                        DodgemState {
                            blue: state.blue,
                            red: before,
                            blue_to_move: false,
                        }
                    });
                }
            }
        }
    }
}

impl LayeredGame for Dodgem {
    type State = DodgemState;

    fn layer_descriptor(&self, layer: usize) -> String {
        format!("dodgem n={} cars={layer}", self.n)
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.blues_of_layer(layer)
            .map(|b| self.block_len(b, layer - b))
            .sum()
    }

    fn layer_blocks(&self, layer: usize) -> Vec<Block> {
        let mut start = 0;
        self.blues_of_layer(layer)
            .map(|b| {
                let len = self.block_len(b, layer - b);
                start += len;
                Block {
                    start: start - len,
                    len,
                }
            })
            .collect()
    }

    fn new_state(&self) -> DodgemState {
        self.start()
    }

    fn unrank(&self, layer: usize, rank: u64, state: &mut DodgemState) {
        self.unrank_into(layer, rank, state);
    }

    fn rank(&self, _layer: usize, state: &DodgemState) -> u64 {
        self.rank_of(state)
    }

    fn mover(&self, state: &DodgemState) -> Player {
        Player::first_if(state.blue_to_move)
    }

    fn successors<F: FnMut(Successor) -> bool>(
        &self,
        _layer: usize,
        state: &DodgemState,
        mut emit: F,
    ) {
        self.for_each_move(state, |next| emit(self.successor(&next)));
    }

    fn predecessors<F: FnMut(u64)>(&self, _layer: usize, state: &DodgemState, mut emit: F) {
        self.for_each_predecessor(state, |previous| emit(self.rank_of(&previous)));
    }

    /// The side with no legal move on its turn wins.
    fn no_move_value(&self, state: &DodgemState) -> Value {
        Value::win_for(self.mover(state))
    }
}

impl SymmetryHooks for Dodgem {}
impl ColourTwinHooks for Dodgem {}
impl LayerLinks for Dodgem {}

impl MoveShortcuts for Dodgem {
    fn mover_of_rank(&self, _layer: usize, rank: u64) -> Option<Player> {
        // Every block has an even length: the side is the rank's last bit.
        Some(Player::of_rank_parity(rank))
    }

    /// Moves before the range are not ranked (see
    /// [`MoveShortcuts::successors_in`]).
    fn successors_in<F: FnMut(Successor)>(
        &self,
        _layer: usize,
        state: &DodgemState,
        moves: std::ops::Range<usize>,
        mut emit: F,
    ) -> bool {
        let mut window = MoveWindow::new(moves);
        self.for_each_move(state, |next| window.offer(|| emit(self.successor(&next))));
        window.more()
    }
}

impl GpuRules for Dodgem {
    fn retro_gpu_program(&self, layer: usize) -> Result<Program> {
        self.retro_program(layer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TwoPlayerGame;
    #[test]
    fn the_start_and_its_moves() {
        let game = Dodgem::new(3).unwrap();
        let start = game.start();
        assert_eq!(game.position_text(&start), "B../B../.RR:blue");
        let mut names = Vec::new();
        game.for_each_move(&start, |next| {
            names.push(game.move_name(&start, &next));
            true
        });
        assert_eq!(names, ["a2-b2", "a2-a1", "a3-b3"]);
        // A red car on the top row may leave.
        let red = game.parse_position("..R/B../B.R:red").unwrap();
        let mut names = Vec::new();
        game.for_each_move(&red, |next| {
            names.push(game.move_name(&red, &next));
            true
        });
        assert_eq!(names, ["c3-off", "c1-c2", "c1-b1", "c3-b3"]);
    }

    #[test]
    fn predecessors_are_exactly_the_positions_with_a_move_here() {
        let game = Dodgem::new(3).unwrap();
        let mut state = game.new_state();
        let mut previous = game.new_state();
        for layer in 1..=game.max_layer() {
            let mut found = Vec::new();
            for rank in 0..game.layer_size(layer) {
                game.unrank(layer, rank, &mut state);
                game.for_each_move(&state, |next| {
                    if game.layer_of(&next) == layer {
                        found.push((game.rank_of(&next), rank));
                    }
                    true
                });
            }
            let mut listed = Vec::new();
            for rank in 0..game.layer_size(layer) {
                game.unrank(layer, rank, &mut previous);
                game.for_each_predecessor(&previous, |p| listed.push((rank, game.rank_of(&p))));
            }
            found.sort_unstable();
            listed.sort_unstable();
            assert_eq!(found, listed, "layer {layer}");
        }
    }
}
