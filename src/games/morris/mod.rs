//! The Morris family (Nine Men's Morris, Lasker Morris, Morabaraba): the
//! board ([`board`]: its points, lines, mills and symmetries), the moves
//! of the moving phase ([`rules`]), the perfect hash of the stones layer
//! by layer, folded by the board's symmetries when asked ([`hash`]), and
//! the game the registry opens ([`game`]), and the opening's sweep a
//! white pattern at a time (`opening_sweep`).

pub mod board;
pub mod game;
pub mod hash;
mod opening_sweep;
pub mod rules;

pub use game::{Morris, Variant};
