//! The exhaustive solver of positional games, the answer every formula is
//! checked against: the boards reachable in d moves, ranked per number of
//! stones placed by the three-colour stone hash over the free cells
//! ([`StoneRanker`]: every placement's rank by table steps), solved
//! backwards layer by layer by the generic two-bit retrograde analysis,
//! one sweep a layer (every move goes one layer down).
//!
//! The boards of the last move are the largest layer by far (C(n, d)
//! boards of d stones against C(n, d − 1) of d − 1, n free cells), and
//! their values are the rules': so the bottom table holds the boards with
//! one move left, valued by whether the mover completes a winning set (or
//! connects) with one stone, and the boards after the last move are never
//! written. Layer r holds the boards with r + 1 moves left (r moves left
//! when the query has no move at all).
//!
//! The same layers run on the GPU through the retro seam: `rules.wgsl`
//! holds the rules as bit masks, and `program.rs` the tables it reads.

use crate::error::{Error, Result};
use crate::games::positional::{PositionalGame, Query, Side, connects_by, mask_of, reached_by};
use crate::hash::bits::{compress, expand};
use crate::hash::{Stone, StoneRanker};
use crate::search::retro2::seam::RetroBackend;
use crate::search::retro2::{RetroOptions, solve_layers_keeping_top};
use crate::space::{
    Block, ColourTwinHooks, GpuRules, LayerLinks, LayeredGame, MoveShortcuts, Player, Successor,
    SymmetryHooks, Value,
};

mod program;

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
    /// Positions within the query's moves (boards of 0 to d stones
    /// placed), the boards after the last move included, which the rules
    /// value without a table.
    pub states: u64,
    /// Wall-clock seconds the solve took.
    pub seconds: f64,
}

/// Largest total number of positions the solver's tables hold (about
/// 4 GiB of two-bit tables); beyond it a clear error, not an
/// out-of-memory crash.
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

/// A query's boards as the layers of a two-player game, for the generic
/// retrograde driver on any backend: layer r holds the boards with r + 1
/// moves left (see the module's documentation), the top one the game's
/// position.
pub struct QueryLayers<'a> {
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
    /// 1 when the bottom layer holds the boards of the last move (valued by
    /// the rules), 0 when the query has no move.
    last_move: usize,
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

impl<'a> QueryLayers<'a> {
    /// The layers of `query` from `game`'s position; refused when its
    /// tables would hold more than [`MAX_STATES`] positions.
    pub fn new(game: &'a PositionalGame, query: &Query) -> Result<Self> {
        game.validate()?;
        let free_cells = game.free_cells();
        let free = mask_of(&free_cells);
        let depth = query.depth().min(free_cells.len());
        let turns = query.turns[..depth].to_vec();
        let blacks_after = |k: usize| turns[..k].iter().filter(|&&s| s == Side::Black).count();
        let rankers = (0..=depth)
            .map(|k| StoneRanker::new(free_cells.len(), k, blacks_after(k)))
            .collect::<Result<Vec<_>>>()?;
        // The boards after the last move get no table (see the module's
        // documentation); their count must still fit the report.
        let tabled = &rankers[..rankers.len() - depth.min(1)];
        let states = rankers
            .iter()
            .try_fold(0u64, |acc, r| acc.checked_add(r.size()))
            .and_then(|_| {
                tabled
                    .iter()
                    .try_fold(0u64, |acc, r| acc.checked_add(r.size()))
            });
        if states.is_none_or(|s| s > MAX_STATES) {
            return Err(Error::SpaceTooLarge(format!(
                "{}: {} free cells to depth {depth} is beyond the exhaustive solver ({} positions in its tables at most)",
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
            .first_move_restriction()
            .map(|cells| compress(mask_of(cells), free))
            // Cells all taken by stones restrict nothing: some move is left.
            .filter(|&allowed| allowed != 0);
        Ok(QueryLayers {
            game,
            depth,
            last_move: depth.min(1),
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

    /// The stones placed on the boards of `layer`.
    fn stones_at(&self, layer: usize) -> usize {
        self.depth - self.last_move - layer
    }

    /// The top layer: the boards of the game's position.
    pub fn top(&self) -> usize {
        self.depth - self.last_move
    }

    /// The cells (packed) the move after `stones` placements may take.
    fn allowed(&self, stones: usize) -> u64 {
        match self.first_move {
            Some(allowed) if stones == 0 => allowed,
            _ => u64::MAX,
        }
    }

    /// The value of a board with one move left: a side that has won
    /// already keeps it; else the mover wins if one stone on an allowed
    /// free cell completes one of its sets (or connects), and otherwise
    /// the board after any move is valued as one without moves.
    fn last_move_value(&self, state: &State) -> Value {
        let stones = state.stones();
        let white = state.occupied & !state.black;
        if self.black_won(stones, state.black) {
            return Value::FirstWins;
        }
        if self.white_won(stones, white) {
            return Value::SecondWins;
        }
        let free = !state.occupied & crate::hash::binomial::low_bits(self.rankers[0].cells());
        let cells = free & self.allowed(stones);
        if cells == 0 {
            return self.no_move_value(state);
        }
        let wins = match self.turns[stones] {
            Side::Black => self.completes(&self.sets[stones + 1].black, state.black, cells),
            Side::White => self.completes(&self.sets[stones + 1].white, white, cells),
        } || (self.turns[stones] == Side::Black
            && self.connects_with_one(state.black, cells));
        match (wins, self.turns[stones]) {
            (true, Side::Black) => Value::FirstWins,
            (true, Side::White) => Value::SecondWins,
            // No move completes a set of the mover's, and none can
            // complete one of the other side's.
            (false, _) if self.game.is_maker_maker() => Value::Draw,
            (false, _) => Value::SecondWins,
        }
    }

    /// Whether one stone on one of `cells` (packed, free) completes one of
    /// `sets` beside the side's stones `own`.
    fn completes(&self, sets: &[u64], own: u64, cells: u64) -> bool {
        sets.iter().any(|&set| {
            let missing = set & !own;
            missing.is_power_of_two() && missing & cells != 0
        })
    }

    /// Whether one black stone on one of `cells` (packed, free) connects
    /// Black's borders (a connection goal; false without one): a cell
    /// does when it is, or touches, a black group on each border.
    fn connects_with_one(&self, black: u64, cells: u64) -> bool {
        let Some(goal) = &self.connection else {
            return false;
        };
        let owned = self.black_stones | expand(black, self.free);
        let neighbours = |cell: usize| goal.neighbours[cell];
        let touching = |groups: u64| {
            let mut near = 0u64;
            let mut rest = groups;
            while rest != 0 {
                near |= neighbours(rest.trailing_zeros() as usize);
                rest &= rest - 1;
            }
            near
        };
        let near_start = goal.start | touching(reached_by(neighbours, owned, goal.start));
        let near_end = goal.end | touching(reached_by(neighbours, owned, goal.end));
        expand(cells, self.free) & near_start & near_end != 0
    }
}

impl LayeredGame for QueryLayers<'_> {
    type State = State;

    fn layer_descriptor(&self, layer: usize) -> String {
        format!(
            "{} depth={} moves-left={}",
            self.game.name,
            self.depth,
            layer + self.last_move
        )
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.rankers[self.stones_at(layer)].size()
    }

    /// Runs of whole occupied sets, at most 2^31 positions each, so that
    /// a rank in a block fits the GPU kernels' 32 bits.
    fn layer_blocks(&self, layer: usize) -> Vec<Block> {
        program::blocks(&self.rankers[self.stones_at(layer)])
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
        let stones = self.stones_at(layer);
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
        self.rankers[self.stones_at(layer)].rank(state.occupied, state.black)
    }

    fn mover(&self, state: &State) -> Player {
        match self.turns.get(state.stones()) {
            Some(Side::White) => Player::Second,
            _ => Player::First,
        }
    }

    fn successors<F: FnMut(Successor) -> bool>(&self, layer: usize, state: &State, mut emit: F) {
        if layer == 0 || self.decided(state) {
            return;
        }
        let k = self.stones_at(layer);
        let stone = match self.turns[k] {
            Side::Black => Stone::Black,
            Side::White => Stone::White,
        };
        let cells = self.allowed(k);
        self.rankers[k + 1].placements(state.occupied, state.black, stone, cells, |_, rank| {
            emit(Successor {
                layer: layer - 1,
                rank,
            })
        });
    }

    fn predecessors<F: FnMut(u64)>(&self, _layer: usize, _state: &State, _emit: F) {}

    fn rule_value(&self, layer: usize, state: &State) -> Option<Value> {
        (layer == 0 && self.last_move == 1).then(|| self.last_move_value(state))
    }

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

impl SymmetryHooks for QueryLayers<'_> {}
impl ColourTwinHooks for QueryLayers<'_> {}

impl LayerLinks for QueryLayers<'_> {
    /// Every move places a stone: one layer down. So each layer is one
    /// sweep over the layer below, with no passes and no frontier.
    fn acyclic_layer(&self, layer: usize) -> Option<Vec<usize>> {
        Some(layer.checked_sub(1).into_iter().collect())
    }
}

impl MoveShortcuts for QueryLayers<'_> {
    fn mover_of_rank(&self, layer: usize, _rank: u64) -> Option<Player> {
        let k = self.stones_at(layer);
        Some(match self.turns.get(k) {
            Some(Side::White) => Player::Second,
            _ => Player::First,
        })
    }
}

impl GpuRules for QueryLayers<'_> {
    /// `rules.wgsl` over the layer's sets and rankers.
    fn retro_gpu_program(&self, layer: usize) -> Result<crate::kernel::Program> {
        self.gpu_program(layer)
    }
}

/// Solves `game` from its position under `query` (d moves, in turn order):
/// whether Black wins, White wins, or neither (a draw in a maker-maker
/// game; in a maker-breaker game Black not winning is a White win).
pub fn solve(game: &PositionalGame, query: &Query) -> Result<ExhaustiveReport> {
    solve_on(&crate::backend::CpuBackend, game, query)
}

/// [`solve`] with the layers' sweeps on `backend` (the GPU's sweeps a
/// layer on the device where its rules and tables fit).
pub fn solve_on<B: RetroBackend>(
    backend: &B,
    game: &PositionalGame,
    query: &Query,
) -> Result<ExhaustiveReport> {
    let started = std::time::Instant::now();
    let layers = QueryLayers::new(game, query)?;
    let (_, top) =
        solve_layers_keeping_top(backend, &layers, layers.top(), &RetroOptions::default())?;
    let start = layers.new_state();
    let value = backend
        .host_table(&top)
        .get(layers.rank(layers.top(), &start));
    let outcome = match Value::from_bits(value) {
        Value::FirstWins => Outcome::BlackWins,
        Value::SecondWins => Outcome::WhiteWins,
        _ => Outcome::Draw,
    };
    Ok(ExhaustiveReport {
        outcome,
        // The boards within d moves, the last move's too (valued without
        // a table of their own).
        states: layers.rankers.iter().map(StoneRanker::size).sum(),
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
