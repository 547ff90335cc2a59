//! Ranking of n-bit vectors with exactly k ones onto `0..C(n,k)`
//! (Algorithms 8 and 9 of Edelkamp et al., *Solving Games in Parallel with
//! Linear-Time Perfect Hash Functions* (TZI report 52, Bremen, 2009)).
//!
//! A vector is a `u64` bit mask, bit i = cell i, so n is at most 64. Every
//! binomial with n <= 64 fits a u64 (the largest, C(64,32), is about 1.8e18),
//! and the whole table is built at compile time.

use crate::error::{Error, Result};
use crate::hash::check_rank;

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

/// Where chunk c's rows begin in [`CHUNK_RANKS`]: chunk c (bits 8c..8c+7)
/// has 256 rows of 8c + 1 entries, one per count of ones below it.
const fn chunk_starts() -> [usize; 9] {
    let mut starts = [0usize; 9];
    let mut c = 0;
    while c < 8 {
        starts[c + 1] = starts[c] + 256 * (8 * c + 1);
        c += 1;
    }
    starts
}

static CHUNK_STARTS: [usize; 9] = chunk_starts();

/// Entries of [`CHUNK_RANKS`]: 59,392 u64 (464 KiB, of which a 33-cell
/// board touches the first five chunks, 170 KiB).
const CHUNK_RANK_ENTRIES: usize = chunk_starts()[8];

const fn build_chunk_ranks() -> [u64; CHUNK_RANK_ENTRIES] {
    let binomials = build_binomials();
    let starts = chunk_starts();
    let mut table = [0u64; CHUNK_RANK_ENTRIES];
    let mut c = 0;
    while c < 8 {
        let below_max = 8 * c;
        let mut byte = 0;
        while byte < 256 {
            let mut below = 0;
            while below <= below_max {
                let mut sum = 0u64;
                let mut ones = below;
                let mut bit = 0;
                while bit < 8 {
                    if byte >> bit & 1 == 1 {
                        ones += 1;
                        sum += binomials[8 * c + bit][ones];
                    }
                    bit += 1;
                }
                table[starts[c] + byte * (below_max + 1) + below] = sum;
                below += 1;
            }
            byte += 1;
        }
        c += 1;
    }
    table
}

/// `CHUNK_RANKS[CHUNK_STARTS[c] + byte * (8c + 1) + below]`: what the ones
/// of `byte`, placed at bits 8c..8c+7 above `below` ones, add to a rank.
/// A rank is then one lookup per byte of the mask instead of one per one
/// (issue 11: Peg Solitaire ranks every successor of a 16-peg position).
static CHUNK_RANKS: [u64; CHUNK_RANK_ENTRIES] = build_chunk_ranks();

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

/// The positions an unrank decodes with one lookup of `LOW_MASKS`.
pub const LOW_BITS: usize = 16;

/// `LOW_MASK_STARTS[j]`: where the masks with j ones begin in [`LOW_MASKS`].
const LOW_MASK_STARTS: [usize; LOW_BITS + 2] = {
    let binomials = build_binomials();
    let mut starts = [0usize; LOW_BITS + 2];
    let mut j = 0;
    while j <= LOW_BITS {
        starts[j + 1] = starts[j] + binomials[LOW_BITS][j] as usize;
        j += 1;
    }
    starts
};

/// Every mask of [`LOW_BITS`] bits, by number of ones and then in rank
/// order (128 KiB). Rank order is colexicographic, so the masks below 2^L
/// with j ones come first among those with j ones, for any L <= 16: one
/// table serves every vector length.
static LOW_MASKS: [u16; 1 << LOW_BITS] = {
    let mut masks = [0u16; 1 << LOW_BITS];
    let mut j = 0;
    while j <= LOW_BITS {
        // Gosper's step gives the next mask with j ones in colex order.
        let mut mask: u32 = (1u32 << j) - 1;
        let mut index = LOW_MASK_STARTS[j];
        while index < LOW_MASK_STARTS[j + 1] {
            masks[index] = mask as u16;
            if mask != 0 {
                let lowest = mask & mask.wrapping_neg();
                let ripple = mask + lowest;
                mask = (((ripple ^ mask) >> 2) / lowest) | ripple;
            }
            index += 1;
        }
        j += 1;
    }
    masks
};

/// Consecutive ranks whose vectors differ only below [`LOW_BITS`]: `high`
/// holds the shared bits, and rank `start + i` has the i-th mask of its
/// count of low ones. The empty run (the default) holds no rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BinomialRun {
    start: u64,
    end: u64,
    high: u64,
    masks_at: u32,
}

impl BinomialRun {
    /// The vector of `rank`, when the run holds it.
    #[inline(always)]
    pub fn get(&self, rank: u64) -> Option<u64> {
        (rank.wrapping_sub(self.start) < self.end - self.start)
            .then(|| self.high | self.low_mask(rank))
    }

    #[inline(always)]
    fn low_mask(&self, rank: u64) -> u64 {
        LOW_MASKS[self.masks_at as usize + (rank - self.start) as usize] as u64
    }

    /// The same run with every rank moved up by `offset` (a block's first
    /// rank, for spaces made of several rankers).
    #[inline(always)]
    pub fn shifted(self, offset: u64) -> Self {
        BinomialRun {
            start: self.start + offset,
            end: self.end + offset,
            ..self
        }
    }
}

/// Rank/unrank of the n-bit vectors with k ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BinomialRanker {
    n: usize,
    ones: usize,
}

impl BinomialRanker {
    /// A ranker for `n`-bit vectors with `ones` ones; refused beyond
    /// [`MAX_BINOMIAL_LEN`] bits or with more ones than bits.
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

    /// Bits per vector, n.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Ones per vector, k.
    pub fn ones(&self) -> usize {
        self.ones
    }

    /// True when vectors have no bits (n = 0).
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
    /// instead of n). The ones of each byte then add a sum that depends
    /// only on the byte and the ones below it, so the rank is summed a byte
    /// at a time from `CHUNK_RANKS`.
    ///
    /// # Panics
    ///
    /// Unchecked, for the searches' hot paths: `bits` must be an n-bit
    /// vector with k ones. Debug builds panic otherwise; release builds
    /// return a meaningless rank. [`try_rank`](Self::try_rank) checks.
    #[inline]
    pub fn rank(&self, bits: u64) -> u64 {
        debug_assert_eq!(bits.count_ones() as usize, self.ones);
        Self::rank_of_bits(self.n, bits)
    }

    /// [`rank`](Self::rank) among `n` cells, of any count of ones (the
    /// sum does not depend on it): for a caller that knows both, so that
    /// no ranker need be loaded on its hot path.
    ///
    /// Always inlined: its callers rank a few sets per step (a Morris
    /// position, the levels of the colour-set hash), where a call is a
    /// fair part of the step.
    ///
    /// # Panics
    ///
    /// Debug builds panic when `bits` has a bit at n or above (or n
    /// exceeds 64); release builds ignore those bits.
    #[inline(always)]
    pub fn rank_of_bits(n: usize, bits: u64) -> u64 {
        debug_assert!(bits & !low_bits(n) == 0);
        let mut rank = 0u64;
        let mut below = 0usize;
        for c in 0..n.div_ceil(8) {
            let byte = (bits >> (8 * c)) as usize & 0xff;
            rank += CHUNK_RANKS[CHUNK_STARTS[c] + byte * (8 * c + 1) + below];
            below += byte.count_ones() as usize;
        }
        rank
    }

    /// The same rank one set bit at a time (the reference for the byte-wise
    /// [`rank`](Self::rank)).
    ///
    /// # Panics
    ///
    /// As [`rank`](Self::rank): debug builds panic on a vector that is not
    /// one of this ranker's.
    pub fn rank_bitwise(&self, bits: u64) -> u64 {
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
    /// Each position waits on a table load that depends on the one above,
    /// so only the positions from [`LOW_BITS`] up are decided one by one;
    /// the low ones come whole from `LOW_MASKS` (33 cells: 78 → 47 ns).
    ///
    /// # Panics
    ///
    /// Unchecked, for the searches' hot paths: `rank` must be below
    /// [`size`](Self::size). Beyond it the call panics (an index or, in
    /// debug builds, an overflow); it never loops.
    /// [`try_unrank`](Self::try_unrank) checks.
    #[inline]
    pub fn unrank(&self, rank: u64) -> u64 {
        let run = self.unrank_run(rank);
        run.high | run.low_mask(rank)
    }

    /// Algorithm 9 as written: every position one by one (the reference for
    /// [`unrank`](Self::unrank)).
    ///
    /// # Panics
    ///
    /// Debug builds panic when `rank` is not below [`size`](Self::size);
    /// release builds return a meaningless vector.
    pub fn unrank_bitwise(&self, rank: u64) -> u64 {
        self.unrank_above(rank, 0).0
    }

    /// Decides positions n-1 down to `floor` (Algorithm 9, lines 3-8): the
    /// high bits, with the rank left for the positions below `floor`.
    #[inline(always)]
    fn unrank_above(&self, rank: u64, floor: usize) -> (u64, u64) {
        debug_assert!(rank < self.size());
        let mut r = rank;
        let mut zeros = self.n - self.ones;
        let mut bits = 0u64;
        let mut i = self.n;
        while i > floor {
            i -= 1;
            let value_zero = ZERO_COMPLETIONS[i][zeros];
            // Line 5: a zero when r < value_zero (never when no zeros are
            // left, as value_zero is then 0).
            let one = r >= value_zero;
            bits |= (one as u64) << i;
            r -= if one { value_zero } else { 0 };
            zeros -= !one as usize;
        }
        (bits, r)
    }

    /// The run of ranks around `rank` whose vectors share every bit from
    /// [`LOW_BITS`] up: its ranks are consecutive (the order is
    /// colexicographic), so a scan over increasing ranks unranks the others
    /// of the run with one lookup each ([`BinomialRun::get`]).
    ///
    /// # Panics
    ///
    /// As [`unrank`](Self::unrank), when `rank` is not below the size.
    #[inline]
    pub fn unrank_run(&self, rank: u64) -> BinomialRun {
        let low_len = self.n.min(LOW_BITS);
        let (high, low_rank) = self.unrank_above(rank, low_len);
        let low_ones = self.ones - high.count_ones() as usize;
        let start = rank - low_rank;
        BinomialRun {
            start,
            end: start + BINOMIALS[low_len][low_ones],
            high,
            masks_at: LOW_MASK_STARTS[low_ones] as u32,
        }
    }
    /// Unranks `rank` of a space in which this ranker's vectors start at
    /// rank `offset`, and leaves in `run` the run around it (in the
    /// space's ranks) for the ranks that follow in a scan.
    ///
    /// # Panics
    ///
    /// As [`unrank`](Self::unrank), when `rank - offset` is not a rank of
    /// this ranker.
    #[inline]
    pub fn unrank_into_run(&self, rank: u64, offset: u64, run: &mut BinomialRun) -> u64 {
        *run = self.unrank_run(rank - offset).shifted(offset);
        run.get(rank).expect("a run holds the rank it was made for")
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

    /// The vector of a rank given by a user: refused unless below the
    /// size, C(n, k).
    pub fn try_unrank(&self, rank: u64) -> Result<u64> {
        check_rank(rank, self.size())?;
        Ok(self.unrank(rank))
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
                    assert_eq!(r, ranker.rank_bitwise(bits));
                    assert!(r < ranker.size());
                    assert!(!seen[r as usize], "rank {r} twice");
                    seen[r as usize] = true;
                    assert_eq!(ranker.unrank(r), bits);
                    assert_eq!(ranker.unrank_bitwise(r), bits);
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
            (37, 18),
            (17, 9),
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
                assert_eq!(ranker.rank_bitwise(bits), r);
                assert_eq!(ranker.unrank_bitwise(r), bits);
            }
        }
    }

    #[test]
    fn runs_unrank_every_rank_they_hold() {
        for (n, ones) in [(20usize, 9usize), (18, 3), (17, 16), (12, 5), (33, 2)] {
            let ranker = BinomialRanker::new(n, ones).unwrap();
            let mut run = BinomialRun::default();
            let mut runs = 0;
            for r in 0..ranker.size() {
                let bits = match run.get(r) {
                    Some(bits) => bits,
                    None => {
                        runs += 1;
                        run = ranker.unrank_run(r);
                        assert_eq!(run.start, r, "a run starts where the last one ended");
                        run.get(r).unwrap()
                    }
                };
                assert_eq!(bits, ranker.unrank_bitwise(r), "n {n} ones {ones} rank {r}");
            }
            // One run per pattern of the bits above the low sixteen.
            let high = n.saturating_sub(LOW_BITS);
            let patterns: u64 = (0..=high.min(ones))
                .filter(|&h| ones - h <= n - high)
                .map(|h| BINOMIALS[high][h])
                .sum();
            assert_eq!(runs, patterns, "n {n} ones {ones}");
            let shifted = ranker.unrank_run(ranker.size() - 1).shifted(1000);
            assert_eq!(
                shifted.get(999 + ranker.size()),
                Some(ranker.unrank(ranker.size() - 1))
            );
            assert_eq!(shifted.get(ranker.size() + 1000), None);
        }
        assert_eq!(BinomialRun::default().get(0), None);
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(BinomialRanker::new(65, 3).is_err());
        assert!(BinomialRanker::new(5, 6).is_err());
        let ranker = BinomialRanker::new(5, 2).unwrap();
        assert!(ranker.try_rank(0b111).is_err());
        assert!(ranker.try_rank(0b100001).is_err());
        assert_eq!(ranker.try_rank(0b11).unwrap(), ranker.rank(0b11));
        assert_eq!(ranker.try_unrank(9).unwrap(), 0b11000);
        // Ranks at and past the size: refused, naming both.
        let message = BinomialRanker::new(3, 1)
            .unwrap()
            .try_unrank(100)
            .unwrap_err();
        assert_eq!(
            message.to_string(),
            "invalid parameter: rank 100 is outside the space of 3 elements (ranks 0..3)"
        );
        let wide = BinomialRanker::new(64, 32).unwrap();
        assert!(wide.try_unrank(wide.size()).is_err());
        assert!(wide.try_unrank(u64::MAX).is_err());
        assert_eq!(
            wide.try_rank(wide.try_unrank(wide.size() - 1).unwrap())
                .unwrap(),
            wide.size() - 1
        );
    }
}
