//! The moves of Fox-and-Geese (the fox's steps and captures, the geese's
//! steps), and the game as the two-bit retrograde analysis walks it
//! ([`LayeredGame`]): layers of the hash's blocks, successors and
//! predecessors, and the values the rules decide.

use super::{FoxGeese, FoxGeeseState, Unranked};
use crate::error::Result;
use crate::hash::BinomialRun;
use crate::kernel::Program;
use crate::space::{
    Block, ColourTwinHooks, GpuRules, LayerLinks, LayeredGame, MoveShortcuts, MoveWindow, Player,
    Successor, SymmetryHooks, Value,
};

impl FoxGeese {
    fn empty(&self, state: &FoxGeeseState, cell: usize) -> bool {
        cell != state.fox && state.geese >> cell & 1 == 0
    }

    /// The fox's captures (landing cell, captured goose) and steps, and the
    /// geese's steps (from, to), as the positions they lead to.
    pub fn moves(&self, state: &FoxGeeseState) -> Vec<FoxGeeseState> {
        let mut moves = Vec::new();
        self.for_each_move(state, |next| {
            moves.push(next);
            true
        });
        moves
    }

    /// A move's destination as the solver names it: its layer (the geese
    /// left) and rank.
    #[inline(always)]
    fn successor(&self, next: &FoxGeeseState) -> Successor {
        Successor {
            layer: next.geese.count_ones() as usize,
            rank: self.rank_of(next),
        }
    }

    /// Calls `visit` with every position a move leads to, captures first,
    /// until it returns false.
    fn for_each_move(&self, state: &FoxGeeseState, mut visit: impl FnMut(FoxGeeseState) -> bool) {
        if state.fox_to_move {
            if !self.for_each_capture(state, &mut visit) {
                return;
            }
            for line in &self.lines[state.fox] {
                if self.empty(state, line.next) {
                    let next = FoxGeeseState {
                        fox: line.next,
                        geese: state.geese,
                        fox_to_move: false,
                    };
                    if !visit(next) {
                        return;
                    }
                }
            }
        } else {
            let mut geese = state.geese;
            while geese != 0 {
                let from = geese.trailing_zeros() as usize;
                geese &= geese - 1;
                for &to in &self.goose_steps[from] {
                    if self.empty(state, to) {
                        let next = FoxGeeseState {
                            fox: state.fox,
                            geese: state.geese & !(1 << from) | 1 << to,
                            fox_to_move: true,
                        };
                        if !visit(next) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Calls `visit` with every position a capture by the fox (to move)
    /// leads to, until it returns false; false if it did.
    fn for_each_capture(
        &self,
        state: &FoxGeeseState,
        visit: &mut impl FnMut(FoxGeeseState) -> bool,
    ) -> bool {
        for line in &self.lines[state.fox] {
            let Some(beyond) = line.beyond else { continue };
            if state.geese >> line.next & 1 == 1 && self.empty(state, beyond) {
                let next = FoxGeeseState {
                    fox: beyond,
                    geese: state.geese & !(1 << line.next),
                    fox_to_move: false,
                };
                if !visit(next) {
                    return false;
                }
            }
        }
        true
    }
}

impl LayeredGame for FoxGeese {
    type State = Unranked;

    fn layer_descriptor(&self, geese: usize) -> String {
        // The default rule's names predate the other variants: unchanged.
        let capture = if self.rules.capture_wins {
            " capture-wins"
        } else {
            ""
        };
        let forward = if self.rules.geese_forward {
            " geese-forward"
        } else {
            ""
        };
        let symmetry = if self.symmetry { " symmetry" } else { "" };
        format!("fox-geese g={geese}{capture}{forward}{symmetry}")
    }

    fn layer_size(&self, geese: usize) -> u64 {
        self.stored_cells.len() as u64 * self.per_fox(geese)
    }

    fn layer_blocks(&self, geese: usize) -> Vec<Block> {
        let per_fox = self.per_fox(geese);
        (0..self.stored_cells.len() as u64)
            .map(|block| Block {
                start: block * per_fox,
                len: per_fox,
            })
            .collect()
    }

    fn new_state(&self) -> Unranked {
        Unranked {
            position: FoxGeeseState {
                fox: self.stored_cells[0],
                geese: 0,
                fox_to_move: true,
            },
            layer: 0,
            run: BinomialRun::default(),
        }
    }

    #[inline]
    fn unrank(&self, geese: usize, rank: u64, state: &mut Unranked) {
        self.unrank_into(geese, rank, state);
    }

    fn rank(&self, _geese: usize, state: &Unranked) -> u64 {
        self.rank_of(state)
    }

    fn mover(&self, state: &Unranked) -> Player {
        Player::first_if(state.fox_to_move)
    }

    #[inline]
    fn successors<F: FnMut(Successor) -> bool>(&self, geese: usize, state: &Unranked, mut emit: F) {
        self.for_each_move(state, |next| {
            let successor = self.successor(&next);
            debug_assert!(successor.layer == geese || successor.layer + 1 == geese);
            emit(successor)
        });
    }

    #[inline]
    fn predecessors<F: FnMut(u64)>(&self, _geese: usize, state: &Unranked, mut emit: F) {
        // The same-layer positions that lead here: the fox's steps are
        // reversible, a goose came from one of its cell's origins.
        let previous = FoxGeeseState {
            fox_to_move: !state.fox_to_move,
            ..**state
        };
        if previous.fox_to_move {
            for line in &self.lines[state.fox] {
                if self.empty(state, line.next) {
                    emit(self.rank_of(&FoxGeeseState {
                        fox: line.next,
                        ..previous
                    }));
                }
            }
        } else {
            let mut geese = state.geese;
            while geese != 0 {
                let at = geese.trailing_zeros() as usize;
                geese &= geese - 1;
                for &origin in &self.goose_origins[at] {
                    if self.empty(state, origin) {
                        let from = state.geese & !(1 << at) | 1 << origin;
                        emit(self.rank_of(&FoxGeeseState {
                            geese: from,
                            ..previous
                        }));
                    }
                }
            }
        }
    }

    fn no_move_value(&self, state: &Unranked) -> Value {
        // A trapped fox loses; so do geese without a move (never for g <= 8).
        if state.fox_to_move {
            Value::SecondWins
        } else {
            Value::FirstWins
        }
    }

    fn rule_value(&self, _geese: usize, state: &Unranked) -> Option<Value> {
        if !self.rules.capture_wins || !state.fox_to_move {
            return None;
        }
        let mut captures = false;
        self.for_each_move(state, |next| {
            captures = next.geese != state.geese;
            false
        });
        captures.then_some(Value::FirstWins)
    }

    fn undecided_value(&self) -> Value {
        Value::FirstWins
    }
}

impl SymmetryHooks for FoxGeese {
    fn block_weight(&self, _geese: usize, block: usize) -> u64 {
        // Each cell of the orbit has as many positions, with the same values.
        let cell = self.stored_cells[block];
        self.canonical_cell.iter().filter(|&&c| c == cell).count() as u64
    }

    fn reduced_by_symmetry(&self) -> bool {
        self.symmetry
    }

    fn block_has_twins(&self, _geese: usize, block: usize) -> bool {
        // Twins keep the fox on its cell: a cell only the identity fixes
        // leaves each position of its block alone.
        !self.fixing[self.stored_cells[block]].is_empty()
    }

    #[inline]
    fn is_representative(&self, _geese: usize, _rank: u64, state: &Unranked) -> bool {
        self.is_least_image(state)
    }

    fn images<F: FnMut(u64)>(&self, _geese: usize, state: &Unranked, emit: F) {
        self.for_each_image(state, emit);
    }
}

impl ColourTwinHooks for FoxGeese {}

impl LayerLinks for FoxGeese {
    fn independent_layers(&self) -> bool {
        // Captures are the only moves that leave a layer, and with
        // capture-wins a position with one is the fox's by rule.
        self.rules.capture_wins
    }
}

impl MoveShortcuts for FoxGeese {
    /// No tags: a check here ranks a handful of moves, and the tags
    /// cost the first pass more than they save the later ones (a step
    /// ranked to name it, under symmetry a canonical image, and a byte
    /// and a watch bit written, for each open position). On two cores,
    /// peak RSS and CPU time with tags and without: capture-wins
    /// `--symmetry --layers 9..9` 497 -> 217 MiB, 8.5 -> 6.1 s;
    /// `--layers 1..8` 1,218 -> 477 MiB, 35.7 -> 19.7 s.
    fn tags_open_moves(&self, _geese: usize) -> bool {
        false
    }

    fn mover_of_rank(&self, _geese: usize, rank: u64) -> Option<Player> {
        // Every block has an even size, so the side is the rank's last bit.
        Some(Player::of_rank_parity(rank))
    }

    /// Moves before the range are not ranked (see
    /// [`MoveShortcuts::successors_in`]).
    #[inline]
    fn successors_in<F: FnMut(Successor)>(
        &self,
        _geese: usize,
        state: &Unranked,
        moves: std::ops::Range<usize>,
        mut emit: F,
    ) -> bool {
        let mut window = MoveWindow::new(moves);
        self.for_each_move(state, |next| window.offer(|| emit(self.successor(&next))));
        window.more()
    }

    #[inline]
    fn lower_successors<F: FnMut(Successor) -> bool>(
        &self,
        geese: usize,
        state: &Unranked,
        mut emit: F,
    ) -> bool {
        // Captures leave the layer; steps stay in it and need no rank.
        if state.fox_to_move {
            self.for_each_capture(state, &mut |next| {
                let rank = self.rank_of(&next);
                emit(Successor {
                    layer: geese - 1,
                    rank,
                })
            });
            self.lines[state.fox]
                .iter()
                .any(|line| self.empty(state, line.next))
        } else {
            let mut geese_left = state.geese;
            while geese_left != 0 {
                let from = geese_left.trailing_zeros() as usize;
                geese_left &= geese_left - 1;
                if self.goose_steps[from]
                    .iter()
                    .any(|&to| self.empty(state, to))
                {
                    return true;
                }
            }
            false
        }
    }
}

impl GpuRules for FoxGeese {
    fn retro_gpu_program(&self, geese: usize) -> Result<Program> {
        self.retro_program(geese)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Rules;
    use super::*;
    use crate::games::TwoPlayerGame;
    use crate::space::WithinLayer;

    const FORWARD: Rules = Rules::GEESE_FORWARD;
    #[test]
    fn predecessors_are_exactly_the_positions_with_a_move_here() {
        for rules in [Rules::default(), FORWARD] {
            let game = FoxGeese::with_rules(rules, false).unwrap();
            let mut state = game.new_state();
            // Every position of layer 3 with a same-layer move to `rank`.
            let mut expected = vec![Vec::new(); game.layer_size(3) as usize];
            for rank in 0..game.layer_size(3) {
                game.unrank(3, rank, &mut state);
                game.successors(3, &state, |s| {
                    if s.layer == 3 {
                        expected[s.rank as usize].push(rank);
                    }
                    true
                });
            }
            for rank in (0..game.layer_size(3)).step_by(97) {
                game.unrank(3, rank, &mut state);
                let mut got = Vec::new();
                game.predecessors(3, &state, |predecessor| got.push(predecessor));
                got.sort_unstable();
                expected[rank as usize].sort_unstable();
                assert_eq!(got, expected[rank as usize], "{rules:?} rank {rank}");
            }
        }
    }

    #[test]
    fn forward_geese_never_step_down_and_keep_only_the_mirror() {
        let game = FoxGeese::with_rules(FORWARD, true).unwrap();
        let row = |cell: usize| game.board.position(cell).0;
        for (cell, steps) in game.goose_steps.iter().enumerate() {
            assert!(steps.iter().all(|&to| row(to) <= row(cell)));
            // Up, sideways and diagonally up: every line but the downward ones.
            let down = game.lines[cell].iter().filter(|l| row(l.next) > row(cell));
            assert_eq!(steps.len() + down.count(), game.lines[cell].len());
        }
        // At the start no goose has a point below it free: the same 10
        // moves up (straight, or diagonally from a5, c5, e5, g5) as by
        // default.
        let start = game.start_position(Some(13)).unwrap();
        let default = FoxGeese::new(false, true).unwrap();
        assert_eq!(game.moves(&start), default.moves(&start));
        assert_eq!(game.moves(&start).len(), 10);
        // A lone goose on d2 (a point with diagonals): 8 steps by default,
        // 5 forward (not to c3, d3, e3).
        let lone = game
            .parse("... .g. F...... ....... ....... ... ...:geese")
            .unwrap();
        assert_eq!(default.moves(&lone).len(), 8);
        assert_eq!(game.moves(&lone).len(), 5);
        // The identity and the mirror; the fox's cells of columns a..d stored.
        assert_eq!(game.symmetries.len(), 2);
        assert_eq!(game.stored_cells().len(), 20);
        let weights: u64 = (0..20).map(|b| game.block_weight(4, b)).sum();
        assert_eq!(weights, 33);
        assert_eq!(
            game.layer_descriptor(13),
            "fox-geese g=13 geese-forward symmetry"
        );
    }

    #[test]
    fn lower_successors_are_the_captures_and_say_whether_a_step_exists() {
        let both = Rules {
            capture_wins: true,
            geese_forward: true,
        };
        for (rules, symmetry) in [(Rules::default(), false), (FORWARD, true), (both, false)] {
            let game = FoxGeese::with_rules(rules, symmetry).unwrap();
            let mut state = game.new_state();
            for geese in [3, 9, 20, 31] {
                for rank in (0..game.layer_size(geese)).step_by(997) {
                    game.unrank(geese, rank, &mut state);
                    let (mut expected, mut stays) = (Vec::new(), false);
                    game.successors(geese, &state, |s| {
                        if s.layer == geese {
                            stays = true;
                        } else {
                            expected.push(s);
                        }
                        true
                    });
                    let mut got = Vec::new();
                    let got_stays = game.lower_successors(geese, &state, |s| {
                        got.push(s);
                        true
                    });
                    // The default naming walk: the same moves, and the
                    // first step named.
                    let mut named = Vec::new();
                    let within = game.lower_successors_naming(geese, &state, |s| {
                        named.push(s);
                        true
                    });
                    let mut first = None;
                    game.successors(geese, &state, |s| {
                        first = first.or((s.layer == geese).then_some(s.rank));
                        true
                    });
                    assert_eq!(named, expected, "g {geese} rank {rank}");
                    assert_eq!(
                        within,
                        first.map_or(WithinLayer::None, WithinLayer::First),
                        "g {geese} rank {rank}"
                    );
                    assert_eq!((got, got_stays), (expected, stays), "g {geese} rank {rank}");
                }
            }
        }
    }
}
