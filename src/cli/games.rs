//! The games the command line knows, their options, and the dispatch from a
//! parsed game to code generic over [`Space`].

use clap::Subcommand;

use crate::error::Result;
use crate::games::{Pancake, SlidingTile, TopSpin};
use crate::space::Space;

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
}

/// Code that runs on any space: the CLI's commands implement this once and
/// [`GameSpec::visit`] picks the concrete game.
pub trait SpaceVisitor {
    type Output;
    fn visit<S: Space>(self, space: &S) -> Result<Self::Output>;
}

impl GameSpec {
    pub fn visit<V: SpaceVisitor>(&self, visitor: V) -> Result<V::Output> {
        match *self {
            GameSpec::Pancake { n, burned } => visitor.visit(&Pancake::new(n, burned)?),
            GameSpec::TopSpin { n, k } => visitor.visit(&TopSpin::new(n, k)?),
            GameSpec::SlidingTile { width, height } => {
                visitor.visit(&SlidingTile::new(width, height)?)
            }
        }
    }
}
