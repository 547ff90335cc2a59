//! The exhaustive solver of positional games, the answer every formula is
//! checked against: the boards reachable in d
//! moves, ranked per number of stones placed with the multinomial hash over
//! the free cells (empty / black / white), solved backwards layer by layer
//! by the generic two-bit retrograde analysis. Layer r holds the boards
//! with r moves left; every move goes one layer down.

use crate::error::{Error, Result};
use crate::games::positional::{PositionalGame, Query, Side, mask_of};
use crate::hash::MultinomialRanker;
use crate::search::retro2::{
    LayeredGame, Player, RetroOptions, Successor, Value, solve_layers_keeping_top,
};

/// The outcome of a position under a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    BlackWins,
    Draw,
    WhiteWins,
}

/// What one exhaustive solve found and cost.
#[derive(Clone, Debug, PartialEq)]
pub struct ExhaustiveReport {
    pub outcome: Outcome,
    /// Positions in all layers (the ranks the tables held).
    pub states: u64,
    pub seconds: f64,
}

/// Largest total number of positions the solver takes on (about 4 GiB of
/// two-bit tables); beyond it a clear error, not an out-of-memory crash.
pub const MAX_STATES: u64 = 1 << 34;

struct Layers<'a> {
    game: &'a PositionalGame,
    turns: Vec<Side>,
    /// Board cell of each free index.
    free: Vec<usize>,
    rankers: Vec<MultinomialRanker>,
    depth: usize,
    black_sets: Vec<u64>,
    white_sets: Vec<u64>,
    black_stones: u64,
    white_stones: u64,
    /// The cells the game's first move may take (symmetry breaking).
    first_move: Option<u64>,
}

/// A board as the black and white masks of its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    black: u64,
    white: u64,
}

impl<'a> Layers<'a> {
    fn new(game: &'a PositionalGame, query: &Query) -> Result<Self> {
        game.validate()?;
        let free = game.free_cells();
        let depth = query.depth().min(free.len());
        let turns = query.turns[..depth].to_vec();
        let rankers = (0..=depth)
            .map(|k| {
                let black = turns[..k].iter().filter(|&&s| s == Side::Black).count();
                MultinomialRanker::new(&[(free.len() - k) as u8, black as u8, (k - black) as u8])
            })
            .collect::<Result<Vec<_>>>()?;
        let states = rankers
            .iter()
            .try_fold(0u64, |acc, r| acc.checked_add(r.size()));
        if states.is_none_or(|s| s > MAX_STATES) {
            return Err(Error::SpaceTooLarge(format!(
                "{}: {} free cells to depth {depth} is beyond the exhaustive solver ({} positions at most)",
                game.name,
                free.len(),
                MAX_STATES
            )));
        }
        // The restriction is symmetry breaking for the game's first move,
        // whoever makes it (`.pg` #firstmoves); restricting Black's first
        // move after a White opening would not be sound.
        let first_move = game.first_moves.as_ref().map(|cells| mask_of(cells));
        Ok(Layers {
            game,
            depth,
            free,
            rankers,
            black_sets: game.black_wins.iter().map(|s| mask_of(s)).collect(),
            white_sets: game.white_wins.iter().map(|s| mask_of(s)).collect(),
            black_stones: mask_of(&game.black_stones),
            white_stones: mask_of(&game.white_stones),
            turns,
            first_move,
        })
    }

    fn stones_placed(&self, board: &Board) -> usize {
        ((board.black | board.white).count_ones()
            - (self.black_stones | self.white_stones).count_ones()) as usize
    }

    fn black_won(&self, black: u64) -> bool {
        match &self.game.graph {
            Some(_) if self.black_sets.is_empty() => self.game.black_has_won(black),
            _ => self.black_sets.iter().any(|&set| set & !black == 0),
        }
    }

    fn white_won(&self, white: u64) -> bool {
        self.white_sets.iter().any(|&set| set & !white == 0)
    }

    fn colours(&self, board: &Board) -> [u8; 64] {
        let mut colours = [0u8; 64];
        for (i, &cell) in self.free.iter().enumerate() {
            colours[i] = if board.black >> cell & 1 == 1 {
                1
            } else if board.white >> cell & 1 == 1 {
                2
            } else {
                0
            };
        }
        colours
    }
}

impl LayeredGame for Layers<'_> {
    type State = Board;

    fn layer_descriptor(&self, layer: usize) -> String {
        format!("{} depth={} moves-left={layer}", self.game.name, self.depth)
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.rankers[self.depth - layer].size()
    }

    fn new_state(&self) -> Board {
        Board {
            black: self.black_stones,
            white: self.white_stones,
        }
    }

    fn unrank(&self, layer: usize, rank: u64, board: &mut Board) {
        let mut colours = [0u8; 64];
        self.rankers[self.depth - layer].unrank(rank, &mut colours[..self.free.len()]);
        board.black = self.black_stones;
        board.white = self.white_stones;
        for (i, &cell) in self.free.iter().enumerate() {
            match colours[i] {
                1 => board.black |= 1 << cell,
                2 => board.white |= 1 << cell,
                _ => {}
            }
        }
    }

    fn rank(&self, layer: usize, board: &Board) -> u64 {
        self.rankers[self.depth - layer].rank(&self.colours(board)[..self.free.len()])
    }

    fn mover(&self, board: &Board) -> Player {
        match self.turns.get(self.stones_placed(board)) {
            Some(Side::White) => Player::Second,
            _ => Player::First,
        }
    }

    fn mover_of_rank(&self, layer: usize, _rank: u64) -> Option<Player> {
        let k = self.depth - layer;
        Some(match self.turns.get(k) {
            Some(Side::White) => Player::Second,
            _ => Player::First,
        })
    }

    fn successors<F: FnMut(Successor) -> bool>(&self, layer: usize, board: &Board, mut emit: F) {
        if layer == 0 || self.black_won(board.black) || self.white_won(board.white) {
            return;
        }
        let k = self.depth - layer;
        let side = self.turns[k];
        let mut choices = !(board.black | board.white) & mask_of(&self.free);
        if let Some(allowed) = self.first_move
            && k == 0
        {
            choices &= allowed;
        }
        while choices != 0 {
            let cell = choices.trailing_zeros();
            choices &= choices - 1;
            let next = match side {
                Side::Black => Board {
                    black: board.black | 1 << cell,
                    ..*board
                },
                Side::White => Board {
                    white: board.white | 1 << cell,
                    ..*board
                },
            };
            if !emit(Successor {
                layer: layer - 1,
                rank: self.rank(layer - 1, &next),
            }) {
                return;
            }
        }
    }

    fn predecessors<F: FnMut(u64)>(&self, _layer: usize, _board: &Board, _emit: F) {}

    fn no_move_value(&self, board: &Board) -> Value {
        if self.black_won(board.black) {
            Value::FirstWins
        } else if self.white_won(board.white) {
            Value::SecondWins
        } else if self.game.is_maker_maker() {
            Value::Draw
        } else {
            // Maker-breaker: Black did not win within the moves.
            Value::SecondWins
        }
    }
}

/// Solves `game` from its position under `query` (d moves, in turn order):
/// whether Black wins, White wins, or neither (a draw in a maker-maker
/// game; in a maker-breaker game Black not winning is a White win).
pub fn solve(game: &PositionalGame, query: &Query) -> Result<ExhaustiveReport> {
    let started = std::time::Instant::now();
    let layers = Layers::new(game, query)?;
    let (reports, top) = solve_layers_keeping_top(
        &crate::backend::CpuBackend,
        &layers,
        layers.depth,
        &RetroOptions::default(),
    )?;
    let start = layers.new_state();
    let outcome = match Value::from_bits(top.get(layers.rank(layers.depth, &start))) {
        Value::FirstWins => Outcome::BlackWins,
        Value::SecondWins => Outcome::WhiteWins,
        _ => Outcome::Draw,
    };
    Ok(ExhaustiveReport {
        outcome,
        states: reports.iter().map(|r| r.states).sum(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Does Black win within d moves (Black first, alternating)?
pub fn black_wins_within(game: &PositionalGame, depth: usize) -> Result<bool> {
    Ok(solve(game, &Query::alternating(depth))?.outcome == Outcome::BlackWins)
}

/// The least odd depth at which Black wins (Black first, alternating), if
/// any within the free cells.
pub fn shortest_win(game: &PositionalGame) -> Result<Option<usize>> {
    let free = game.free_cells().len();
    for depth in (1..=free.max(1)).step_by(2) {
        if black_wins_within(game, depth)? {
            return Ok(Some(depth));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::positional::builtins::{hex, tic_tac_toe};

    #[test]
    fn tic_tac_toe_values() {
        let maker_maker = tic_tac_toe(3, 3, 3, true).unwrap();
        assert_eq!(
            solve(&maker_maker, &Query::alternating(9)).unwrap().outcome,
            Outcome::Draw
        );
        let maker_breaker = tic_tac_toe(3, 3, 3, false).unwrap();
        assert_eq!(shortest_win(&maker_breaker).unwrap(), Some(7));
    }

    #[test]
    fn black_wins_small_empty_hex_boards() {
        for (size, depth) in [(1, 1), (2, 3), (3, 5)] {
            let game = hex(size, false).unwrap();
            assert_eq!(
                shortest_win(&game).unwrap(),
                Some(depth),
                "hex {size}x{size}"
            );
        }
    }
}
