//! The Morris family (Nine Men's Morris, Lasker Morris, Morabaraba): the
//! board ([`board`]: its points, lines, mills and symmetries), the moves
//! of the moving phase ([`rules`]), the perfect hash of the stones layer
//! by layer, folded by the board's symmetries when asked ([`hash`]), the
//! game the registry opens ([`game`]), and the sweep of a placing-only
//! opening's layer a white pattern at a time (`opening_sweep`).

pub mod board;
pub mod game;
pub mod hash;
mod opening_sweep;
pub mod rules;

pub use game::{Morris, Variant};
