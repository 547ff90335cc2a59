//! Game rules as [`Space`](crate::space::Space)s: one file per game (and its
//! WGSL expansion beside it), and the [`registry`] that opens them by name.

pub mod board;
pub mod dodgem;
pub mod dodgem_kit;
pub mod fox_geese;
pub mod frogs_toads;
pub mod kit;
pub mod ksolve;
pub mod morris;
pub mod mu_torere;
pub mod pancake;
pub mod peg_solitaire;
mod permutation_state;
pub mod pocket_cube;
pub mod positional;
pub mod registration;
pub mod registry;
pub mod sliding_tile;
pub mod text_file;
pub mod top_spin;
pub mod two_player_game;

pub use board::Board;
pub use dodgem::Dodgem;
pub use dodgem_kit::DodgemKit;
pub use fox_geese::FoxGeese;
pub use frogs_toads::FrogsToads;
pub use ksolve::Ksolve;
pub use mu_torere::MuTorere;
pub use pancake::Pancake;
pub use peg_solitaire::PegSolitaire;
pub use permutation_state::PermutationBuffer;
pub use pocket_cube::{CubeMetric, PocketCube};
pub use sliding_tile::SlidingTile;
pub use top_spin::TopSpin;
pub use two_player_game::{TwoPlayerGame, TwoPlayerVisitor};
