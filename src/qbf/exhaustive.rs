//! The exhaustive solver of positional games, the answer every formula is
//! checked against: the boards reachable in d moves, ranked per number of
//! stones placed by the three-colour stone hash over the free cells
//! ([`StoneRanker`]: every placement's rank by table steps), solved
//! backwards layer by layer by the generic two-bit retrograde analysis.
//! Layer r holds the boards with r moves left; every move goes one layer
//! down.

use crate::error::{Error, Result};
use crate::games::positional::{PositionalGame, Query, Side, connects_by, mask_of};
use crate::hash::bits::{compress, expand};
use crate::hash::{Stone, StoneRanker};
use crate::search::retro2::{RetroOptions, solve_layers_keeping_top};
use crate::space::{LayeredGame, Player, Successor, Value};

/// The outcome of a position under a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Black wins within the query's moves, whatever White does.
    BlackWins,
    /// Neither side wins within the query's moves (maker-maker games only).
    Draw,
    /// White wins first or, in a maker-breaker game, keeps Black from winning.
    WhiteWins,
}

/// What one exhaustive solve found and cost.
#[derive(Clone, Debug, PartialEq)]
pub struct ExhaustiveReport {
    /// The outcome of the game's position under the query.
    pub outcome: Outcome,
    /// Positions in all layers (the ranks the tables held).
    pub states: u64,
    /// Wall-clock seconds the solve took.
    pub seconds: f64,
}

/// Largest total number of positions the solver takes on (about 4 GiB of
/// two-bit tables); beyond it a clear error, not an out-of-memory crash.
pub const MAX_STATES: u64 = 1 << 34;

/// The winning sets that can be complete once k stones are placed: those
/// whose cells beyond the side's fixed stones are no more than it has
/// placed, clear of the other side's fixed stones (a 6×6 Hein puzzle lists
/// up to 1,806 sets; after 5 black placements 31 of them can be complete),
/// each as the free cells it still needs, packed as the rankers see them.
#[derive(Clone, Debug, Default)]
struct Sets {
    black: Vec<u64>,
    white: Vec<u64>,
}

/// A connection goal (Hex without listed sets): Black joins `start` to
/// `end` through its cells (board cells, not packed).
struct Connection {
    neighbours: Vec<u64>,
    start: u64,
    end: u64,
}

struct Layers<'a> {
    game: &'a PositionalGame,
    turns: Vec<Side>,
    /// The board's cells free at the start; the rankers, the sets and the
    /// states see them packed low (bit i = the i-th free cell).
    free: u64,
    /// By stones placed.
    rankers: Vec<StoneRanker>,
    sets: Vec<Sets>,
    connection: Option<Connection>,
    depth: usize,
    black_stones: u64,
    /// The cells the game's first move may take (symmetry breaking),
    /// packed.
    first_move: Option<u64>,
}

/// A board as the stones placed on the free cells (packed): which cells
/// are taken and which of those are black; with where the last unrank was
/// (a sweep unranks consecutive ranks, which share an occupied set C(k, b)
/// at a time).
#[derive(Clone, Copy, Debug)]
pub struct State {
    occupied: u64,
    black: u64,
    /// What the last unrank found: its layer's stones (`usize::MAX`:
    /// none yet), its rank, and the rank of its black set.
    cached_stones: usize,
    cached_rank: u64,
    cached_black_rank: u64,
}

impl State {
    fn stones(&self) -> usize {
        self.occupied.count_ones() as usize
    }
}

impl<'a> Layers<'a> {
    fn new(game: &'a PositionalGame, query: &Query) -> Result<Self> {
        game.validate()?;
        let free_cells = game.free_cells();
        let free = mask_of(&free_cells);
        let depth = query.depth().min(free_cells.len());
        let turns = query.turns[..depth].to_vec();
        let blacks_after = |k: usize| turns[..k].iter().filter(|&&s| s == Side::Black).count();
        let rankers = (0..=depth)
            .map(|k| StoneRanker::new(free_cells.len(), k, blacks_after(k)))
            .collect::<Result<Vec<_>>>()?;
        let states = rankers
            .iter()
            .try_fold(0u64, |acc, r| acc.checked_add(r.size()));
        if states.is_none_or(|s| s > MAX_STATES) {
            return Err(Error::SpaceTooLarge(format!(
                "{}: {} free cells to depth {depth} is beyond the exhaustive solver ({} positions at most)",
                game.name,
                free_cells.len(),
                MAX_STATES
            )));
        }
        let black_stones = mask_of(&game.black_stones);
        let white_stones = mask_of(&game.white_stones);
        let black_sets: Vec<u64> = game.black_wins.iter().map(|s| mask_of(s)).collect();
        let white_sets: Vec<u64> = game.white_wins.iter().map(|s| mask_of(s)).collect();
        let sets = (0..=depth)
            .map(|k| {
                // A set can be complete after k placements only if its
                // free cells are no more than the side has placed and the
                // other side's fixed stones hold none of it.
                let possible = |sets: &[u64], placed: usize, blocked: u64| {
                    sets.iter()
                        .filter(|&&set| {
                            (set & free).count_ones() as usize <= placed && set & blocked == 0
                        })
                        .map(|&set| compress(set & free, free))
                        .collect()
                };
                Sets {
                    black: possible(&black_sets, blacks_after(k), white_stones),
                    white: possible(&white_sets, k - blacks_after(k), black_stones),
                }
            })
            .collect();
        let connection = match &game.graph {
            Some(graph) if game.black_wins.is_empty() => Some(Connection {
                neighbours: graph.neighbour_masks(),
                start: mask_of(&graph.start),
                end: mask_of(&graph.end),
            }),
            _ => None,
        };
        // The restriction is symmetry breaking for the game's first move,
        // whoever makes it (`.pg` #firstmoves); restricting Black's first
        // move after a White opening would not be sound.
        let first_move = game
            .first_moves
            .as_ref()
            .map(|cells| compress(mask_of(cells), free));
        Ok(Layers {
            game,
            depth,
            free,
            rankers,
            sets,
            connection,
            black_stones,
            turns,
            first_move,
        })
    }

    /// Black's cells (packed) complete one of its sets, or connect its
    /// borders.
    fn black_won(&self, stones: usize, black: u64) -> bool {
        match &self.connection {
            Some(goal) => connects_by(
                |cell| goal.neighbours[cell],
                self.black_stones | expand(black, self.free),
                goal.start,
                goal.end,
            ),
            None => self.sets[stones].black.iter().any(|&set| set & !black == 0),
        }
    }

    fn white_won(&self, stones: usize, white: u64) -> bool {
        self.sets[stones].white.iter().any(|&set| set & !white == 0)
    }

    fn decided(&self, state: &State) -> bool {
        let stones = state.stones();
        self.black_won(stones, state.black) || self.white_won(stones, state.occupied & !state.black)
    }
}

impl LayeredGame for Layers<'_> {
    type State = State;

    fn layer_descriptor(&self, layer: usize) -> String {
        format!("{} depth={} moves-left={layer}", self.game.name, self.depth)
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.rankers[self.depth - layer].size()
    }

    fn new_state(&self) -> State {
        State {
            occupied: 0,
            black: 0,
            cached_stones: usize::MAX,
            cached_rank: u64::MAX,
            cached_black_rank: 0,
        }
    }

    fn unrank(&self, layer: usize, rank: u64, state: &mut State) {
        let stones = self.depth - layer;
        let ranker = &self.rankers[stones];
        if state.cached_stones == stones && rank == state.cached_rank.wrapping_add(1) {
            // The next rank of a sweep: the next black set, or the next
            // occupied set's first (no division, no unrank of the set).
            state.cached_black_rank += 1;
            if state.cached_black_rank == ranker.colourings() {
                state.cached_black_rank = 0;
                state.occupied = StoneRanker::next_occupied(state.occupied);
            }
        } else {
            let (occupied_rank, black_rank) = ranker.split(rank);
            state.cached_stones = stones;
            state.cached_black_rank = black_rank;
            state.occupied = ranker.unrank_occupied(occupied_rank);
        }
        state.cached_rank = rank;
        state.black = ranker.unrank_black(state.occupied, state.cached_black_rank);
    }

    fn rank(&self, layer: usize, state: &State) -> u64 {
        self.rankers[self.depth - layer].rank(state.occupied, state.black)
    }

    fn mover(&self, state: &State) -> Player {
        match self.turns.get(state.stones()) {
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

    fn successors<F: FnMut(Successor) -> bool>(&self, layer: usize, state: &State, mut emit: F) {
        if layer == 0 || self.decided(state) {
            return;
        }
        let k = self.depth - layer;
        let stone = match self.turns[k] {
            Side::Black => Stone::Black,
            Side::White => Stone::White,
        };
        let cells = match self.first_move {
            Some(allowed) if k == 0 => allowed,
            _ => u64::MAX,
        };
        self.rankers[k + 1].placements(state.occupied, state.black, stone, cells, |_, rank| {
            emit(Successor {
                layer: layer - 1,
                rank,
            })
        });
    }

    fn predecessors<F: FnMut(u64)>(&self, _layer: usize, _state: &State, _emit: F) {}

    fn no_move_value(&self, state: &State) -> Value {
        let stones = state.stones();
        if self.black_won(stones, state.black) {
            Value::FirstWins
        } else if self.white_won(stones, state.occupied & !state.black) {
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
