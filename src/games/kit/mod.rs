//! The game kit: a two-player board game written as what only it knows —
//! its board, its kinds of pieces, its layers, its start, its moves as
//! edits of the board and the value of a position the rules end — and
//! solved, queried, played and served like the hand-built games.
//!
//! A game implements [`BoardGame`] (six required functions, the rest
//! defaulted) and registers `Kit<TheGame>` in the registry. [`Kit`]
//! supplies the rest of [`LayeredGame`](crate::space::LayeredGame) and
//! [`TwoPlayerGame`](super::TwoPlayerGame):
//!
//! - the rank and unrank of a layer by the shared colour-set hash
//!   ([`ColourSetRanker`](crate::hash::ColourSetRanker)) over the counts
//!   of pieces each of the layer's blocks fixes (`layers`);
//! - symmetry from the board's cell permutations (`symmetry`): a
//!   position's rank is its least twin's, and the engine solves one
//!   position a class and copies its value to the others;
//! - a position's text, picture and move names from the board's grid
//!   (`text`);
//! - retrograde analysis without unmoves (`unmoves`): a game gives no
//!   predecessor generator; the kit builds each layer's reverse graph from
//!   the moves, within a memory budget, or the engine re-judges the
//!   undecided positions pass after pass (value iteration);
//! - registration for `retro`, `query`, `play`, `serve` and Python.
//!
//! `docs/adding-a-game.md` builds a game with it from an empty file.

mod adapter;
pub(crate) mod layers;
pub(crate) mod position;
pub(crate) mod symmetry;
mod text;
pub(crate) mod unmoves;

pub use adapter::Kit;
pub use layers::Contents;
pub use position::{EMPTY, Moves, Outcome, Piece, Position, one_kind_a_side};
pub use unmoves::Unmoves;

use super::board::Board;
use super::registration::{GameOptions, OptionSpec};
use crate::error::Result;
use crate::space::Player;

/// The option every kit game with symmetries may take: `--symmetry`
/// solves one position of each class of twins.
pub const SYMMETRY_OPTION: OptionSpec = OptionSpec::flag(
    "symmetry",
    "Solve one position of each class of twins under the board's symmetries",
);

/// The option that picks how a kit game's layers are solved without
/// unmoves ([`Unmoves`]).
pub const UNMOVES_OPTION: OptionSpec = OptionSpec::value(
    "unmoves",
    "MODE",
    "How retro finds a position's predecessors: graph (a reverse graph of each layer, built from the moves) or iterate (value iteration: passes re-judge every undecided position)",
)
.with_default("graph");

/// A two-player board game as the kit takes it. Moves alternate; a
/// position belongs to the layer its [`Contents`] are listed in, and a
/// move stays in its layer or goes to a layer listed before it (lower
/// layers are solved first).
pub trait BoardGame: Clone + Send + Sync + Sized + 'static {
    /// The name on the command line.
    const NAME: &'static str;
    /// One line for `--help` and `bitsolve games`.
    const SUMMARY: &'static str;
    /// The options the game takes; [`SYMMETRY_OPTION`] and
    /// [`UNMOVES_OPTION`] are read by the kit where listed.
    const OPTIONS: &'static [OptionSpec] = &[UNMOVES_OPTION];
    /// The kinds of pieces; on a cell, kind `k` is written `k + 1`
    /// ([`one_kind_a_side`] for most games).
    const PIECES: &'static [Piece];
    /// The names of the sides, the first player's first.
    const SIDE_NAMES: [&'static str; 2] = ["first", "second"];

    /// The game these options describe, or a one-line error.
    fn from_options(options: &GameOptions) -> Result<Self>;

    /// The board: its cells, their grid (for text and pictures) and names.
    fn board(&self) -> &Board;

    /// The blocks of layers 1, 2, ... in order, the lowest first; layer 0
    /// is the empty board, which the kit adds unless a layer here lists
    /// it (a game whose first move fills an empty board).
    fn layers(&self) -> Vec<Vec<Contents>>;

    /// Where play starts.
    fn start(&self) -> Position;

    /// Every move of the side to move, into `moves`.
    fn moves(&self, position: &Position, moves: &mut Moves);

    /// The value the rules give a position before its moves (a line
    /// made), for the side to move; `None` (the default) where play goes on.
    fn outcome(&self, position: &Position) -> Option<Outcome> {
        let _ = position;
        None
    }

    /// The value of a position whose side to move has no move: a loss
    /// by default.
    fn no_moves(&self, position: &Position) -> Outcome {
        let _ = position;
        Outcome::Loss
    }

    /// The board's symmetries as cell permutations (`image[cell]`), the
    /// identity among them, when the game is opened with `--symmetry`:
    /// by default those of the board's grid.
    fn symmetries(&self) -> Vec<Vec<usize>> {
        self.board().symmetries()
    }

    /// The lower layers a move of `layer` may reach: by default the layer
    /// just below.
    fn layers_below(&self, layer: usize) -> Vec<usize> {
        layer.checked_sub(1).into_iter().collect()
    }

    /// True when no move stays in `layer` (a placement phase): the layer
    /// is solved in one sweep over the layers below.
    fn acyclic(&self, layer: usize) -> bool {
        let _ = layer;
        false
    }

    /// What layer `layer` holds, for people.
    fn layer_name(&self, layer: usize) -> String {
        format!("layer {layer}")
    }

    /// The game's parameters as words for its tables' names ("n=4").
    fn parameters(&self) -> String {
        String::new()
    }

    /// The flags that select this variant after the game's name, each
    /// with a leading space (" --n 4").
    fn variant_flags(&self) -> String {
        String::new()
    }

    /// The side whose piece stands on a cell holding `what`, if any.
    fn side_of(&self, what: u8) -> Option<Player> {
        (what != EMPTY).then(|| Self::PIECES[what as usize - 1].side)
    }
}
