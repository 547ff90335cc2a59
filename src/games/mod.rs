//! Game rules as [`Space`](crate::space::Space)s and two-player games: a
//! folder per game with its rules, hash, text and GPU program apart (a
//! small game, or one written through the [`kit`], is one file), and the
//! [`registry`] that opens them by name.

pub(crate) mod all_queens_chess;
pub mod board;
pub mod dodgem;
pub mod fox_geese;
pub(crate) mod frogs_toads;
pub(crate) mod kaooa;
pub mod kit;
pub mod ksolve;
pub mod morris;
pub(crate) mod mu_torere;
pub(crate) mod pancake;
pub(crate) mod peg_solitaire;
mod permutation_state;
pub(crate) mod pocket_cube;
pub mod positional;
pub(crate) mod quixo;
pub(crate) mod registration;
pub mod registry;
pub(crate) mod sliding_tile;
pub(crate) mod teeko;
pub mod text_file;
pub(crate) mod top_spin;
pub(crate) mod two_player_game;

pub use all_queens_chess::AllQueensChess;
pub use board::Board;
pub use dodgem::Dodgem;
pub use dodgem::kit::DodgemKit;
pub use fox_geese::FoxGeese;
pub use frogs_toads::FrogsToads;
pub use kaooa::Kaooa;
pub use ksolve::Ksolve;
pub use mu_torere::MuTorere;
pub use pancake::Pancake;
pub use peg_solitaire::PegSolitaire;
pub use permutation_state::PermutationBuffer;
pub use pocket_cube::{CubeMetric, PocketCube};
pub use quixo::Quixo;
pub use sliding_tile::SlidingTile;
pub use teeko::Teeko;
pub use top_spin::TopSpin;
pub use two_player_game::{TwoPlayerGame, TwoPlayerVisitor};
