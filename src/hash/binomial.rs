//! Ranking of n-bit vectors with exactly k ones onto `0..C(n,k)`
//! (Algorithms 8 and 9 of `002_f83af64931234a7c.txt`).
//!
//! A vector is a `u64` bit mask, bit i = cell i, so n is at most 64. Every
//! binomial with n <= 64 fits a u64 (the largest, C(64,32), is about 1.8e18),
//! and the whole table is built at compile time.

use crate::error::{Error, Result};

/// The largest vector length a u64 mask can hold.
pub const MAX_BINOMIAL_LEN: usize = 64;

const fn build_binomials() -> [[u64; 65]; 65] {
    let mut table = [[0u64; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
}

/// Pascal's triangle, `BINOMIALS[n][k] = C(n, k)`, zero for k > n.
pub static BINOMIALS: [[u64; 65]; 65] = build_binomials();

const fn build_zero_completions() -> [[u64; 66]; 65] {
    let binomials = build_binomials();
    let mut table = [[0u64; 66]; 65];
    let mut i = 0;
    while i <= 64 {
        let mut zeros = 1;
        while zeros <= 65 {
            table[i][zeros] = binomials[i][zeros - 1];
            zeros += 1;
        }
        i += 1;
    }
    table
}

/// `ZERO_COMPLETIONS[i][zeros]` = max{0, C(i, zeros-1)} of Algorithm 9: the
/// vectors that continue with a zero at position i. Column 0 holds the
/// paper's max{0, ...} case, so the unrank loop needs no test.
static ZERO_COMPLETIONS: [[u64; 66]; 65] = build_zero_completions();

/// C(n, k) with C(n, k) = 0 for k > n or k < 0 (callers pass k as i64 so the
/// paper's max{0, C(i, zeros-1)} needs no branch at the call site).
#[inline(always)]
pub fn binomial(n: usize, k: i64) -> u64 {
    if k < 0 || k as usize > n {
        0
    } else {
        BINOMIALS[n][k as usize]
    }
}

/// The mask with the low `n` bits set.
#[inline(always)]
pub const fn low_bits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// Rank/unrank of the n-bit vectors with k ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BinomialRanker {
    n: usize,
    ones: usize,
}

impl BinomialRanker {
    pub fn new(n: usize, ones: usize) -> Result<Self> {
        if n > MAX_BINOMIAL_LEN {
            return Err(Error::InvalidParameter(format!(
                "binomial hash supports at most {MAX_BINOMIAL_LEN} cells, got {n}"
            )));
        }
        if ones > n {
            return Err(Error::InvalidParameter(format!(
                "cannot place {ones} ones in {n} cells"
            )));
        }
        Ok(BinomialRanker { n, ones })
    }

    pub fn len(&self) -> usize {
        self.n
    }

    pub fn ones(&self) -> usize {
        self.ones
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Number of vectors, C(n, k).
    pub fn size(&self) -> u64 {
        BINOMIALS[self.n][self.ones]
    }

    /// Algorithm 8. Walking i from n-1 down, a one at position i adds
    /// C(i, zeros-1) where `zeros` counts the zeros still below i. With `j`
    /// ones below i that count is i - j, and C(i, i-j-1) = C(i, j+1), so the
    /// rank is a sum over the set bits only: we visit them from the bottom and
    /// skip the zeros entirely (same ranks as the paper's loop, k steps
    /// instead of n).
    #[inline]
    pub fn rank(&self, bits: u64) -> u64 {
        debug_assert!(bits & !low_bits(self.n) == 0);
        debug_assert_eq!(bits.count_ones() as usize, self.ones);
        let mut rank = 0u64;
        let mut remaining = bits;
        let mut ones_below = 0usize;
        while remaining != 0 {
            let position = remaining.trailing_zeros() as usize;
            remaining &= remaining - 1;
            ones_below += 1;
            // The table holds 0 for k > n, which covers a one with only ones below.
            rank += BINOMIALS[position][ones_below];
        }
        rank
    }

    /// Algorithm 9: rebuild the vector of rank `rank < C(n, k)`.
    ///
    /// Branch-free: whether a position holds a one is close to a coin toss,
    /// and a branch per position mispredicted often enough to dominate.
    #[inline]
    pub fn unrank(&self, rank: u64) -> u64 {
        debug_assert!(rank < self.size());
        let mut r = rank;
        let mut zeros = self.n - self.ones;
        let mut bits = 0u64;
        let mut i = self.n;
        while i > 0 {
            i -= 1;
            let value_zero = ZERO_COMPLETIONS[i][zeros];
            // Line 5: a zero when r < value_zero (never when no zeros are
            // left, as value_zero is then 0).
            let one = r >= value_zero;
            bits |= (one as u64) << i;
            r -= if one { value_zero } else { 0 };
            zeros -= !one as usize;
        }
        bits
    }

    /// Rank of a mask given by a user: checks length and number of ones.
    pub fn try_rank(&self, bits: u64) -> Result<u64> {
        if bits & !low_bits(self.n) != 0 || bits.count_ones() as usize != self.ones {
            return Err(Error::InvalidParameter(format!(
                "vector {bits:#b} is not a {}-bit vector with {} ones",
                self.n, self.ones
            )));
        }
        Ok(self.rank(bits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Algorithm 8 transcribed literally, to check the set-bit shortcut.
    fn rank_as_printed(n: usize, ones: usize, bits: u64) -> u64 {
        let mut r = 0u64;
        let mut i = n;
        let mut zeros = (n - ones) as i64;
        while i > 0 {
            i -= 1;
            if bits >> i & 1 == 0 {
                zeros -= 1;
            } else {
                r += binomial(i, zeros - 1);
            }
        }
        r
    }

    #[test]
    fn table_matches_num_integer() {
        for n in 0..=64u64 {
            for k in 0..=n {
                assert_eq!(
                    BINOMIALS[n as usize][k as usize],
                    num_integer::binomial(n, k)
                );
            }
        }
    }

    #[test]
    fn whole_small_spaces_round_trip_and_are_dense() {
        for n in 0..=16 {
            for ones in 0..=n {
                let ranker = BinomialRanker::new(n, ones).unwrap();
                let mut seen = vec![false; ranker.size() as usize];
                for bits in 0..(1u64 << n) {
                    if bits.count_ones() as usize != ones {
                        continue;
                    }
                    let r = ranker.rank(bits);
                    assert_eq!(r, rank_as_printed(n, ones, bits));
                    assert!(r < ranker.size());
                    assert!(!seen[r as usize], "rank {r} twice");
                    seen[r as usize] = true;
                    assert_eq!(ranker.unrank(r), bits);
                }
                assert!(seen.iter().all(|&s| s));
            }
        }
    }

    #[test]
    fn large_spaces_round_trip_on_samples() {
        let mut state = 7u64;
        for (n, ones) in [
            (33usize, 16usize),
            (64, 32),
            (64, 1),
            (64, 63),
            (64, 64),
            (40, 0),
        ] {
            let ranker = BinomialRanker::new(n, ones).unwrap();
            for _ in 0..5000 {
                state = crate::hash::splitmix64(state);
                let r = state % ranker.size();
                let bits = ranker.unrank(r);
                assert_eq!(bits.count_ones() as usize, ones);
                assert_eq!(ranker.rank(bits), r);
                assert_eq!(rank_as_printed(n, ones, bits), r);
            }
        }
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(BinomialRanker::new(65, 3).is_err());
        assert!(BinomialRanker::new(5, 6).is_err());
        let ranker = BinomialRanker::new(5, 2).unwrap();
        assert!(ranker.try_rank(0b111).is_err());
        assert!(ranker.try_rank(0b100001).is_err());
        assert_eq!(ranker.try_rank(0b11).unwrap(), ranker.rank(0b11));
    }
}
