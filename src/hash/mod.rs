//! Perfect, invertible hash functions (rank/unrank) onto dense u64 ranges.

pub mod binomial;
pub(crate) mod bits;
pub(crate) mod colour_sets;
pub(crate) mod multinomial;
pub mod permutation;
pub mod prefix_lehmer;
pub(crate) mod stones;

pub use binomial::{BinomialRanker, BinomialRun};
pub use colour_sets::ColourSetRanker;
pub use multinomial::MultinomialRanker;
pub use stones::{Stone, StoneRanker};

use crate::error::{Error, Result};

/// Whether `rank` numbers an element of a space of `size` elements: what
/// every checked unrank asks first.
pub(crate) fn check_rank(rank: u64, size: u64) -> Result<()> {
    if rank < size {
        return Ok(());
    }
    Err(Error::InvalidParameter(format!(
        "rank {rank} is outside the space of {size} elements (ranks 0..{size})"
    )))
}

/// Whether a caller's buffer has the `expected` length of the vectors a
/// ranker writes or reads.
pub(crate) fn check_len(what: &str, len: usize, expected: usize) -> Result<()> {
    if len == expected {
        return Ok(());
    }
    Err(Error::InvalidParameter(format!(
        "{what} has {len} cells, expected {expected}"
    )))
}

/// One step of the SplitMix64 generator: a tiny, dependency-free source of
/// sample ranks for tests and benchmarks.
#[inline]
pub fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
