//! Packed one-bit and two-bit tables with concurrent atomic updates, on the
//! heap or in a memory-mapped file with a resumable, checksummed header.

pub(crate) mod checksums;
pub(crate) mod direct;
pub mod header;
pub(crate) mod one_bit;
pub(crate) mod shares;
pub mod storage;
pub(crate) mod store_file;
pub(crate) mod two_bit;
pub mod verify;
mod words;

pub(crate) use words::prefetch_address;
pub(crate) use words::prefetch_word;

pub use header::TableIdentity;
pub use one_bit::OneBitTable;
pub use storage::{Backing, WordStorage};
pub use two_bit::TwoBitTable;
pub use words::GatheredWrites;
