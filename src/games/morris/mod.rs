//! The Morris family (Nine Men's Morris, Lasker Morris, Morabaraba): the
//! board ([`board`]: its points, lines, mills and symmetries), the moves
//! of the moving phase ([`rules`]), the perfect hash of the stones layer
//! by layer, folded by the board's symmetries when asked (`hash`), the
//! game the registry opens (`game`), as the solver sees it
//! (`layered`), as people read and write it (`text`), its GPU program
//! (`gpu`, over `morris.wgsl`), and the sweep of a placing-only opening's
//! layer a white pattern at a time (`opening_sweep`).

pub mod board;
pub(crate) mod game;
mod gpu;
pub(crate) mod hash;
pub(crate) mod layered;
mod opening_sweep;
pub mod rules;
mod text;

pub use game::{Morris, Variant};
