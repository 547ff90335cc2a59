//! bitsolve: exhaustive game solving over bit tables indexed by perfect hashes.
//!
//! Data flows one way: game rules ([`games`]) implement a [`space::Space`]
//! (and, for the GPU, a [`kernel::Program`]); a driver per algorithm
//! ([`search`]) runs over any space, its passes on a [`backend`] (CPU, GPU,
//! disk or MPI) that writes one- or two-bit [`table`]s. [`games::registry`]
//! opens a game by name, [`database`] reads what a solving run stored, and
//! [`jobs`] runs a whole request (a BFS, a retrograde analysis, a solution,
//! a question to a database) as every shell does: the command line
//! (`bitsolve-cli`), the explorer's server (`bitsolve-serve`) and the
//! Python package are crates of their own on top of it.
//!
//! ```
//! use bitsolve::games::registry::GameOptions;
//! use bitsolve::jobs::{BfsRequest, GameSpec, bfs::bfs};
//! use bitsolve::progress::Silent;
//!
//! let game = GameSpec { name: "pancake".into(), options: GameOptions::default().with("n", 7) };
//! let report = bfs(&game, BfsRequest::default(), &Silent, None)?;
//! assert_eq!(report.total, 5040);
//! assert_eq!(report.max_depth, Some(8)); // the pancake number of 7
//! # Ok::<(), bitsolve::Error>(())
//! ```

// The library is the product: every public item says what it is for.
#![warn(missing_docs)]

pub mod backend;
pub mod database;
pub mod diagram;
pub mod error;
pub mod games;
pub mod hash;
pub mod jobs;
pub mod kernel;
pub mod progress;
pub mod qbf;
pub mod search;
pub mod space;
pub mod table;

pub use error::{Error, Result};

/// The library chapter of the manual (docs/guide/library.md), whose Rust
/// examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/guide/library.md")]
pub struct LibraryGuide;
