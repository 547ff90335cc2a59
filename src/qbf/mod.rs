//! Bounded positional-game questions ("does Black win within d moves?")
//! as quantified Boolean formulas: the published encodings, QDIMACS and
//! QCIR writers, and a runner for an external solver.

pub(crate) mod builder;
pub mod check;
pub mod cleanup;
pub mod encodings;
pub mod exhaustive;
pub mod formula;
pub mod instances;
pub mod prepare;
pub mod runner;
pub mod suite;

pub use encodings::Encoding;
pub use formula::Formula;
pub use prepare::{Prepared, Preprocessing, prepare};
