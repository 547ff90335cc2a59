//! Game rules as [`Space`](crate::space::Space)s: one file per domain.

pub mod pancake;
mod permutation_state;
pub mod sliding_tile;
pub mod top_spin;

pub use pancake::Pancake;
pub use permutation_state::PermutationBuffer;
pub use sliding_tile::SlidingTile;
pub use top_spin::TopSpin;
