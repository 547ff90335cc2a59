//! bitsolve: exhaustive game solving over bit tables indexed by perfect hashes.
//!
//! Data flows one way: game rules ([`games`]) implement a [`space::Space`];
//! algorithms ([`search`]) run over any space and write one- or two-bit
//! [`table`]s; the CLI ([`cli`]) reports what they found.

pub mod backend;
pub mod cli;
pub mod error;
pub mod games;
pub mod hash;
pub mod qbf;
pub mod search;
pub mod space;
pub mod table;

pub use error::{Error, Result};
