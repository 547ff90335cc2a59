//! bitsolve: exhaustive game solving over bit tables indexed by perfect hashes.

pub mod error;
pub mod hash;

pub use error::{Error, Result};
