//! The games the command line knows, their options, and the dispatch from a
//! parsed game to code generic over [`Space`].

use clap::Subcommand;

use crate::backend::gpu::GpuRules;
use crate::error::{Error, Result};
use crate::games::{Board, FrogsToads, Pancake, PegSolitaire, SlidingTile, TopSpin};
use crate::space::{Picture, Space};

#[derive(Subcommand, Clone, Debug)]
pub enum GameSpec {
    /// n-Pancake: flip the top k of n pancakes until sorted.
    Pancake {
        /// Number of pancakes (1..=20, burned 1..=16).
        #[arg(long)]
        n: usize,
        /// Pancakes burned on one side, which must end down.
        #[arg(long)]
        burned: bool,
    },
    /// (n, k) Top-Spin: reverse k consecutive tokens of a ring of n.
    TopSpin {
        /// Number of tokens on the ring (3..=21).
        #[arg(long)]
        n: usize,
        /// Tokens reversed by one twist.
        #[arg(long, default_value_t = 4)]
        k: usize,
    },
    /// w x h sliding-tile puzzle, searched from the goal with the blank in the top-left corner.
    SlidingTile {
        /// Board width (columns).
        #[arg(long)]
        width: usize,
        /// Board height (rows).
        #[arg(long)]
        height: usize,
    },
    /// Peg Solitaire: jump a peg over a neighbour into a hole, removing the neighbour.
    PegSolitaire {
        /// Board: english (33 holes), french (37 holes), or a board file.
        #[arg(long, default_value = "english")]
        board: String,
        /// The empty hole of the start position (e.g. d4 or a cell number;
        /// default the centre).
        #[arg(long, value_name = "CELL")]
        start_hole: Option<String>,
        /// Store one position per class of board symmetries fixing the start
        /// (counts are still those of the full space).
        #[arg(long)]
        symmetry: bool,
    },
    /// Frogs-and-Toads: k x k squares of black and white pieces change
    /// places by sliding and jumping (k = 3 is Sam Loyd's Fore and Aft).
    FrogsToads {
        /// Size of the squares (2..=5); the standard board.
        #[arg(long, conflicts_with = "board", required_unless_present = "board")]
        k: Option<usize>,
        /// A board file with 'b' and 'w' pieces and one empty cell '_'.
        #[arg(long)]
        board: Option<String>,
    },
}

/// Code that runs on any space: the CLI's commands implement this once and
/// [`GameSpec::visit`] picks the concrete game.
pub trait SpaceVisitor {
    type Output;
    fn visit<S: Space + Picture + GpuRules>(self, space: &S) -> Result<Self::Output>;
}

impl GameSpec {
    pub fn visit<V: SpaceVisitor>(&self, visitor: V) -> Result<V::Output> {
        match self {
            GameSpec::Pancake { n, burned } => visitor.visit(&Pancake::new(*n, *burned)?),
            GameSpec::TopSpin { n, k } => visitor.visit(&TopSpin::new(*n, *k)?),
            GameSpec::SlidingTile { width, height } => {
                visitor.visit(&SlidingTile::new(*width, *height)?)
            }
            GameSpec::PegSolitaire {
                board,
                start_hole,
                symmetry,
            } => {
                let board = Board::load(board)?;
                let hole = match start_hole {
                    Some(cell) => board.parse_cell(cell)?,
                    None => board.centre().ok_or_else(|| {
                        Error::InvalidParameter(format!(
                            "{} has no centre cell: give --start-hole",
                            board.name()
                        ))
                    })?,
                };
                visitor.visit(&PegSolitaire::new(board, &[hole], *symmetry)?)
            }
            GameSpec::FrogsToads { k, board } => match (k, board) {
                (Some(k), _) => visitor.visit(&FrogsToads::standard(*k)?),
                (None, Some(board)) => visitor.visit(&FrogsToads::new(Board::load(board)?)?),
                (None, None) => Err(Error::InvalidParameter("give --k or --board".into())),
            },
        }
    }
}
