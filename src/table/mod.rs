//! Packed one-bit and two-bit tables with concurrent atomic updates, on the
//! heap or in a memory-mapped file with a resumable header.

pub mod one_bit;
pub mod storage;
pub mod two_bit;
mod words;

pub use one_bit::OneBitTable;
pub use storage::{Backing, TableIdentity, WordStorage};
pub use two_bit::TwoBitTable;
