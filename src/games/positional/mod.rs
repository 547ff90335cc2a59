//! Positional games: two players, Black and White, claim cells in turn;
//! Black wins by claiming all cells of one of its winning sets (and, in
//! maker-maker games, White by claiming one of its own first).
//!
//! A game is its cells, the winning sets, optionally a neighbour graph with
//! two borders for games whose goal is a connection (Hex: the sets are then
//! implicit, every path between the borders), the stones already on the
//! board, and optionally the cells Black's first move is restricted to
//! (symmetry breaking). A [`Query`] adds the turn order: which player moves
//! at each of the d time points.

pub mod builtins;
pub mod pg;

use crate::error::{Error, Result, quoted};

/// One of the two players of a positional game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Black, who moves first in the standard turn order.
    Black,
    /// White, Black's opponent.
    White,
}

/// A neighbour graph with Black's two borders: Black wins by connecting a
/// cell of `start` to a cell of `end` through black cells. For the
/// transversal goal (ET) the graph also names White's two borders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    /// Each cell's neighbours, by cell index.
    pub neighbours: Vec<Vec<usize>>,
    /// Black's first border.
    pub start: Vec<usize>,
    /// Black's second border.
    pub end: Vec<usize>,
    /// White's first border (the transversal goal).
    pub white_start: Vec<usize>,
    /// White's second border (the transversal goal).
    pub white_end: Vec<usize>,
}

impl Graph {
    /// Each cell's neighbours as a mask.
    pub fn neighbour_masks(&self) -> Vec<u64> {
        self.neighbours.iter().map(|cells| mask_of(cells)).collect()
    }
}

/// A positional game: its cells, winning sets, optional neighbour graph and stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionalGame {
    /// The game's name, for messages.
    pub name: String,
    /// The cells' names, in cell order.
    pub cells: Vec<String>,
    /// Black's winning sets, each as cell indices.
    pub black_wins: Vec<Vec<usize>>,
    /// Empty for maker-breaker games.
    pub white_wins: Vec<Vec<usize>>,
    /// The neighbour graph and borders of a connection game.
    pub graph: Option<Graph>,
    /// Cells holding a black stone.
    pub black_stones: Vec<usize>,
    /// Cells holding a white stone.
    pub white_stones: Vec<usize>,
    /// Cells the game's first move (at t1, whoever makes it) may take:
    /// symmetry breaking of the start position, if restricted.
    pub first_moves: Option<Vec<usize>>,
}

/// Who moves at each time point: `turns[t]` for t = 0..d.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The side to move at each time point.
    pub turns: Vec<Side>,
}

impl Query {
    /// Black first, alternating, d time points.
    pub fn alternating(depth: usize) -> Query {
        Query {
            turns: (0..depth)
                .map(|t| if t % 2 == 0 { Side::Black } else { Side::White })
                .collect(),
        }
    }

    /// The number of time points d.
    pub fn depth(&self) -> usize {
        self.turns.len()
    }

    /// True for Black first, strict alternation and Black moving last (odd
    /// d): the setting of the implicit-goal encodings.
    pub fn is_standard(&self) -> bool {
        self.turns.len() % 2 == 1 && *self == Query::alternating(self.turns.len())
    }

    /// The number of time points at which Black moves.
    pub fn black_moves(&self) -> usize {
        self.turns.iter().filter(|&&s| s == Side::Black).count()
    }
}

/// A cell set as a mask (boards have at most 64 cells).
pub fn mask_of(cells: &[usize]) -> u64 {
    cells.iter().fold(0u64, |acc, &c| acc | 1 << c)
}

impl PositionalGame {
    /// Checks the game is well formed: at most 64 cells, sets and stones on
    /// the board, no cell with two stones.
    pub fn validate(&self) -> Result<()> {
        let n = self.cells.len();
        let bad = |why: String| Err(Error::InvalidParameter(format!("{}: {why}", self.name)));
        if n == 0 || n > 64 {
            return bad(format!("a positional game needs 1 to 64 cells, got {n}"));
        }
        let in_board = |cells: &[usize]| cells.iter().all(|&c| c < n);
        if !self
            .black_wins
            .iter()
            .chain(&self.white_wins)
            .all(|set| in_board(set) && !set.is_empty())
        {
            return bad("a winning set is empty or names a cell outside the board".into());
        }
        if !in_board(&self.black_stones) || !in_board(&self.white_stones) {
            return bad("a stone lies outside the board".into());
        }
        if mask_of(&self.black_stones) & mask_of(&self.white_stones) != 0 {
            return bad("a cell holds both a black and a white stone".into());
        }
        if let Some(graph) = &self.graph
            && graph.neighbours.len() != n
        {
            return bad("the neighbour graph does not match the cells".into());
        }
        if self.black_wins.is_empty() && self.graph.is_none() {
            return bad("Black has no winning set".into());
        }
        Ok(())
    }

    /// Refuses a question of `depth` moves (`what` names where it was
    /// asked: a flag, a file's #times) beyond the free cells: a game there
    /// is over within them, and a deeper question only makes larger
    /// formulas and tables.
    pub fn check_depth(&self, depth: usize, what: &str) -> Result<()> {
        let free = self.free_cells().len();
        if depth > free {
            return Err(Error::InvalidParameter(format!(
                "{what} {depth} is more moves than {} has free cells ({free}); a game there lasts at most {free} moves",
                self.name
            )));
        }
        Ok(())
    }

    /// The cells the game's first move is restricted to, if any: an empty
    /// list restricts nothing (no move at all would be no game).
    pub fn first_move_restriction(&self) -> Option<&[usize]> {
        self.first_moves
            .as_deref()
            .filter(|cells| !cells.is_empty())
    }

    /// Whether White has winning sets of its own (a maker-maker game).
    pub fn is_maker_maker(&self) -> bool {
        !self.white_wins.is_empty()
    }

    /// The index of the cell named `name`.
    pub fn cell_index(&self, name: &str) -> Result<usize> {
        self.cells.iter().position(|c| c == name).ok_or_else(|| {
            Error::InvalidParameter(format!("{}: there is no cell {}", self.name, quoted(name)))
        })
    }

    /// The free cells (no stone on them).
    pub fn free_cells(&self) -> Vec<usize> {
        let taken = mask_of(&self.black_stones) | mask_of(&self.white_stones);
        (0..self.cells.len())
            .filter(|&c| taken >> c & 1 == 0)
            .collect()
    }

    /// True when the black cells `black` contain a black winning set (or,
    /// with a graph, connect Black's borders).
    pub fn black_has_won(&self, black: u64) -> bool {
        if let Some(graph) = &self.graph {
            return connects(graph, black, &graph.start, &graph.end);
        }
        self.black_wins.iter().any(|set| mask_of(set) & !black == 0)
    }

    /// True when the white cells `white` contain a white winning set.
    pub fn white_has_won(&self, white: u64) -> bool {
        self.white_wins.iter().any(|set| mask_of(set) & !white == 0)
    }

    /// Places stones from a picture: rows of `X` (black), `O` (white) and
    /// `.` (empty), one character per cell in cell order; whitespace is
    /// ignored. Replaces the game's stones.
    pub fn with_position(mut self, picture: &str) -> Result<Self> {
        let symbols: Vec<char> = picture.chars().filter(|c| !c.is_whitespace()).collect();
        if symbols.len() != self.cells.len() {
            return Err(Error::InvalidParameter(format!(
                "{}: a position needs {} cells ('X' black, 'O' white, '.' empty), got {}",
                self.name,
                self.cells.len(),
                symbols.len()
            )));
        }
        self.black_stones.clear();
        self.white_stones.clear();
        // The symmetry-breaking cells belong to the empty board; with stones
        // placed the board's symmetries no longer hold.
        if symbols.iter().any(|c| !matches!(c, '.' | '-')) {
            self.first_moves = None;
        }
        for (cell, symbol) in symbols.into_iter().enumerate() {
            match symbol {
                'X' | 'x' | 'B' | 'b' => self.black_stones.push(cell),
                'O' | 'o' | 'W' | 'w' => self.white_stones.push(cell),
                '.' | '-' => {}
                other => {
                    return Err(Error::InvalidParameter(format!(
                        "{} at cell {}: expected X, O or .",
                        quoted(&other.to_string()),
                        self.cells[cell]
                    )));
                }
            }
        }
        Ok(self)
    }
}

/// True when `owned` connects a cell of `from` to a cell of `to` in the graph.
pub fn connects(graph: &Graph, owned: u64, from: &[usize], to: &[usize]) -> bool {
    connects_by(
        |cell| mask_of(&graph.neighbours[cell]),
        owned,
        mask_of(from),
        mask_of(to),
    )
}

/// [`connects`] with each cell's neighbours as a mask from `neighbours`
/// (a caller that tests many boards of one graph keeps them in a table).
pub fn connects_by(neighbours: impl Fn(usize) -> u64, owned: u64, from: u64, to: u64) -> bool {
    grow(neighbours, owned, from, to) & to != 0
}

/// The cells of `owned` joined to a cell of `from` through `owned` (the
/// owner's groups touching `from`), with neighbours as [`connects_by`]
/// takes them.
pub fn reached_by(neighbours: impl Fn(usize) -> u64, owned: u64, from: u64) -> u64 {
    grow(neighbours, owned, from, 0)
}

/// The cells of `owned` reached from `from & owned`, breadth first, or
/// fewer once one of `stop` is reached.
fn grow(neighbours: impl Fn(usize) -> u64, owned: u64, from: u64, stop: u64) -> u64 {
    let mut reached = from & owned;
    let mut frontier = reached;
    while frontier != 0 && reached & stop == 0 {
        let mut next = 0u64;
        let mut rest = frontier;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            next |= neighbours(cell);
        }
        frontier = next & owned & !reached;
        reached |= frontier;
    }
    reached
}
