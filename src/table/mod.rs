//! Packed one-bit and two-bit tables with concurrent atomic updates, on the
//! heap or in a memory-mapped file with a resumable, checksummed header.

pub mod checksums;
pub mod direct;
pub mod header;
pub mod one_bit;
pub mod shares;
pub mod storage;
pub mod store_file;
pub mod two_bit;
pub mod verify;
mod words;

pub(crate) use words::prefetch_address;
pub(crate) use words::prefetch_word;

pub use header::TableIdentity;
pub use one_bit::OneBitTable;
pub use storage::{Backing, WordStorage};
pub use two_bit::TwoBitTable;
pub use words::GatheredWrites;
