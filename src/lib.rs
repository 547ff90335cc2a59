//! bitsolve: exhaustive game solving over bit tables indexed by perfect hashes.
//!
//! Data flows one way: game rules ([`games`]) implement a [`space::Space`]
//! (and, for the GPU, a [`kernel::Program`]); a driver per algorithm
//! ([`search`]) runs over any space, its passes on a [`backend`] (CPU or
//! GPU) that writes one- or two-bit [`table`]s; the CLI ([`cli`]) reports
//! what they found. [`games::registry`] opens a game by name, and
//! [`database`] reads what a solving run stored: the library calls every
//! shell (the CLI, the explorer, a binding) makes.

pub mod backend;
pub mod cli;
pub mod database;
pub mod diagram;
pub mod error;
pub mod games;
pub mod hash;
pub mod kernel;
pub mod progress;
pub mod qbf;
pub mod search;
pub mod space;
pub mod table;

pub use error::{Error, Result};
