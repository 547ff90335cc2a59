//! The prefix Lehmer code: a ranking of permutations in which rearranging
//! the entries of a window of positions changes only that window's digits.
//!
//! Digit `c_p` counts the entries *before* position `p` that are larger than
//! the entry at `p` (so `0 <= c_p <= p`), and the rank is the factorial-base
//! number `sum c_p * p!`. The identity has rank 0. The digits of positions
//! after a window depend only on the *set* of entries before them, which a
//! rearrangement inside the window leaves alone, and the digits before it
//! do not see it at all; so a successor's rank is the parent's minus the
//! window's old digits plus its new ones. That makes the moves of the
//! permutation games cheap to rank (issue 11):
//!
//! - a Pancake flip of the top `k` rewrites `c_0..c_k` only: the rank changes
//!   below `k!`, so small flips land a few table words from their parent and
//!   only flips of nearly the whole stack reach far;
//! - a Top-Spin turn or a sliding-tile move rewrites the few digits of its
//!   window.
//!
//! Myrvold–Ruskey (`super::permutation`) stays the paper's hash and the one
//! the games that fold parity classes use; this one is a per-game choice
//! behind the same `Space` contract. Ranks agree with
//! `rank(unrank(r)) == r` on whole spaces (tests below, and each game's).

use super::permutation::{
    MAX_PERMUTATION_LEN, check_permutation, check_permutation_rank, divide_small,
};
use crate::error::Result;

/// `FACTORIALS[p] = p!` for every digit weight a u64 rank can have.
const FACTORIALS: [u64; MAX_PERMUTATION_LEN + 1] = {
    let mut table = [1u64; MAX_PERMUTATION_LEN + 1];
    let mut p = 1;
    while p <= MAX_PERMUTATION_LEN {
        table[p] = table[p - 1] * p as u64;
        p += 1;
    }
    table
};

/// 12! < 2^32: the digits of ranks below it come from 32-bit divisions by
/// multiplication.
const SMALL_DIGITS: usize = 12;

/// The rank of `perm` (a permutation of `0..perm.len()`).
///
/// # Panics
///
/// Unchecked, for the searches' hot paths: debug builds panic on more
/// than [`MAX_PERMUTATION_LEN`] entries; an entry of 32 or more panics
/// (a shift overflow) in debug builds and other input that is no
/// permutation gives a meaningless rank. [`try_rank`] checks.
#[inline]
pub fn rank(perm: &[u8]) -> u64 {
    debug_assert!(perm.len() <= MAX_PERMUTATION_LEN);
    let mut before = 0u32;
    let mut rank = 0u64;
    for (p, &value) in perm.iter().enumerate() {
        rank += larger_before(before, value) as u64 * FACTORIALS[p];
        before |= 1 << value;
    }
    rank
}

/// Number of entries in the set `before` that are larger than `value`.
#[inline(always)]
fn larger_before(before: u32, value: u8) -> u32 {
    // Two shifts: `value + 1` may be 32 for a full u32 set.
    (before >> value >> 1).count_ones()
}

/// Writes the permutation of rank `rank < n!` into `perm` (length n).
///
/// # Panics
///
/// Unchecked: panics beyond [`MAX_PERMUTATION_LEN`] entries (debug builds
/// also at a rank of n! or more, which release builds unrank to a
/// meaningless permutation or a panic). [`try_unrank`] checks.
#[inline]
pub fn unrank(rank: u64, perm: &mut [u8]) {
    let n = perm.len();
    debug_assert!(n <= MAX_PERMUTATION_LEN && (n < 2 || rank < FACTORIALS[n]));
    let digits = digits_of(rank, n);
    place(&digits, perm);
}

/// The folded rank (the n!/2 fold of Theorem 7 in
/// Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect Hash
/// Functions* (TZI report 52, Bremen, 2009), for this code): the digits count
/// inversions, so a permutation's parity is that of its digit sum; within one
/// parity class digit `c_1` (weight 1) follows from the others, and `rank / 2`
/// numbers the class as `0..n!/2`. Needs n >= 2.
///
/// # Panics
///
/// As [`rank`]; [`try_rank_folded`] checks.
#[inline]
pub fn rank_folded(perm: &[u8]) -> u64 {
    rank(perm) >> 1
}

/// The permutation of parity `odd` (true = odd) whose folded rank is
/// `folded < n!/2`.
///
/// # Panics
///
/// As [`unrank`], and with fewer than two entries;
/// [`try_unrank_folded`] checks.
#[inline]
pub fn unrank_folded(folded: u64, odd: bool, perm: &mut [u8]) {
    let n = perm.len();
    debug_assert!(n >= 2 && folded < FACTORIALS[n] / 2);
    let mut digits = digits_of(folded << 1, n);
    digits[1] = odd as u8 ^ digit_sum_parity(&digits);
    place(&digits, perm);
}

/// [`rank`] of a permutation given by a user.
pub fn try_rank(perm: &[u8]) -> Result<u64> {
    check_permutation(perm, 0)?;
    Ok(rank(perm))
}

/// [`unrank`] of a rank given by a user: refused unless `perm` has at
/// most [`MAX_PERMUTATION_LEN`] entries and `rank` is below n!.
pub fn try_unrank(rank: u64, perm: &mut [u8]) -> Result<()> {
    check_permutation_rank(rank, perm.len(), false)?;
    unrank(rank, perm);
    Ok(())
}

/// [`rank_folded`] of a permutation given by a user (at least two entries).
pub fn try_rank_folded(perm: &[u8]) -> Result<u64> {
    check_permutation(perm, 2)?;
    Ok(rank_folded(perm))
}

/// [`unrank_folded`] of a rank given by a user: refused unless `perm` has
/// 2 to [`MAX_PERMUTATION_LEN`] entries and `folded` is below n!/2.
pub fn try_unrank_folded(folded: u64, odd: bool, perm: &mut [u8]) -> Result<()> {
    check_permutation_rank(folded, perm.len(), true)?;
    unrank_folded(folded, odd, perm);
    Ok(())
}

/// Whether the permutation of `rank` (length `n`) is odd: the digits count
/// inversions, so this is the parity of their sum, with no permutation
/// built.
///
/// # Panics
///
/// Panics beyond [`MAX_PERMUTATION_LEN`] entries.
#[inline]
pub fn is_odd_rank(rank: u64, n: usize) -> bool {
    debug_assert!(n <= MAX_PERMUTATION_LEN);
    digits_of(rank, n)[..n]
        .iter()
        .fold(0, |parity, &d| parity ^ d)
        & 1
        == 1
}

/// Parity of the digits' sum, `c_1` left out (it is 0 where this is used).
#[inline(always)]
fn digit_sum_parity(digits: &[u8; MAX_PERMUTATION_LEN]) -> u8 {
    digits.iter().skip(2).fold(0, |parity, &d| parity ^ d) & 1
}

/// The factorial-base digits of `rank`: digit p is `(rank / p!) mod (p + 1)`,
/// by repeated division by 2, 3, 4, ...
// Index loops on purpose: `enumerate().skip().take()` here compiled to calls
// of `Iterator::nth` and made Pancake-11 unranking twice as slow.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn digits_of(rank: u64, n: usize) -> [u8; MAX_PERMUTATION_LEN] {
    let mut digits = [0u8; MAX_PERMUTATION_LEN];
    let (mut high, low) = if n > SMALL_DIGITS {
        (
            rank / FACTORIALS[SMALL_DIGITS],
            (rank % FACTORIALS[SMALL_DIGITS]) as u32,
        )
    } else {
        (0, rank as u32)
    };
    let mut r = low;
    for p in 1..n.min(SMALL_DIGITS) {
        let (quotient, remainder) = divide_small(r, p + 1);
        digits[p] = remainder as u8;
        r = quotient;
    }
    for p in SMALL_DIGITS..n {
        digits[p] = (high % (p as u64 + 1)) as u8;
        high /= p as u64 + 1;
    }
    digits
}

/// The permutation whose digits are `digits`.
#[inline(always)]
fn place(digits: &[u8; MAX_PERMUTATION_LEN], perm: &mut [u8]) {
    if perm.len() <= 16 {
        place_from_bottom(digits, perm, 0);
    } else {
        unrank_digits_wide(digits, perm);
    }
}

/// Places positions `lowest..n` (n = `perm.len()` <= 16) from the bottom
/// up, each taking the `c_p`-th largest entry not yet placed, and returns
/// the entries left for positions `0..lowest`. They are 4-bit fields of
/// one register, largest first, so taking one out is two shifts and a mask.
#[inline(always)]
fn place_from_bottom(digits: &[u8; MAX_PERMUTATION_LEN], perm: &mut [u8], lowest: usize) -> u64 {
    let n = perm.len();
    let mut left = 0u64;
    for value in 0..n as u64 {
        left |= value << (4 * (n as u64 - 1 - value));
    }
    for p in (lowest..n).rev() {
        let shift = 4 * digits[p] as u32;
        perm[p] = ((left >> shift) & 15) as u8;
        let below = (1u64 << shift) - 1;
        left = (left & below) | ((left >> 4) & !below);
    }
    left
}

/// As [`place_from_bottom`] for stacks too tall for 4-bit fields.
fn unrank_digits_wide(digits: &[u8; MAX_PERMUTATION_LEN], perm: &mut [u8]) {
    let n = perm.len();
    let mut left: Vec<u8> = (0..n as u8).rev().collect();
    for p in (0..n).rev() {
        perm[p] = left.remove(digits[p] as usize);
    }
}

/// Positions whose entries a table decodes: the top [`TOP`], whose digits
/// make the rank modulo `TOP!`.
const TOP: usize = 6;
const TOP_RANKS: u64 = 720;

/// For each `r < 6!`: which of the six entries left for the top each of
/// positions 0..6 takes (4 bits per position, 0 = the largest), when the
/// rank is `r` modulo 6!; bit 31 is the parity of the digit sum of
/// positions 2..6.
const TOP_PATTERNS: [u32; TOP_RANKS as usize] = {
    let mut table = [0u32; TOP_RANKS as usize];
    let mut r = 0;
    while r < TOP_RANKS as usize {
        // Still free, in order: indices into the six entries, largest first.
        let mut free = [0u32, 1, 2, 3, 4, 5];
        let mut free_len = TOP;
        let mut pattern = 0u32;
        let mut p = TOP;
        while p > 0 {
            p -= 1;
            let digit = (r as u64 / FACTORIALS[p] % (p as u64 + 1)) as usize;
            pattern |= free[digit] << (4 * p);
            if p >= 2 {
                pattern ^= (digit as u32 & 1) << 31;
            }
            let mut i = digit;
            while i + 1 < free_len {
                free[i] = free[i + 1];
                i += 1;
            }
            free_len -= 1;
        }
        table[r] = pattern;
        r += 1;
    }
    table
};

/// What an [`unrank_cached`] leaves for the next call: the window
/// `rank / 6!` it decoded, the six entries that window leaves for the top
/// positions (4-bit fields, largest first), and the parity of the digit sum
/// of positions 6.. (for the folded hash).
#[derive(Clone, Debug)]
pub struct UnrankCache {
    window: u64,
    top_entries: u64,
    bottom_parity: u8,
}

impl Default for UnrankCache {
    fn default() -> Self {
        UnrankCache {
            window: u64::MAX,
            top_entries: 0,
            bottom_parity: 0,
        }
    }
}

/// [`unrank`] for a scan over increasing ranks: when `rank` lies in the
/// same window of 6! ranks as the last call's, positions 6.. are already in
/// `perm` and only the top six are decoded, by a table lookup. `cache` and
/// `perm` must be the pair the last call with this cache wrote (a fresh
/// [`UnrankCache`] for any other `perm`). A frontier scan mostly stays in
/// one window: at n = 11 unranking fell from 12% of a search to 3%.
#[inline]
pub fn unrank_cached(rank: u64, perm: &mut [u8], cache: &mut UnrankCache) {
    let n = perm.len();
    if n <= TOP || n > 16 {
        unrank(rank, perm);
        return;
    }
    let window = rank / TOP_RANKS;
    cache.enter(window, perm);
    cache.place_top(TOP_PATTERNS[(rank - window * TOP_RANKS) as usize], perm);
}

/// [`unrank_folded`] with a cache, as [`unrank_cached`].
#[inline]
pub fn unrank_folded_cached(folded: u64, odd: bool, perm: &mut [u8], cache: &mut UnrankCache) {
    let n = perm.len();
    if n <= TOP || n > 16 {
        unrank_folded(folded, odd, perm);
        return;
    }
    // The full rank is 2 * folded + c_1, and 6! is even: the window is
    // folded / (6! / 2) whatever c_1 is.
    let window = folded / (TOP_RANKS / 2);
    cache.enter(window, perm);
    let low = 2 * (folded - window * (TOP_RANKS / 2)) as usize;
    let first_digit = (odd as u32) ^ cache.bottom_parity as u32 ^ (TOP_PATTERNS[low] >> 31);
    cache.place_top(TOP_PATTERNS[low + first_digit as usize], perm);
}

impl UnrankCache {
    /// Makes `window` the decoded one (positions 6.. of `perm`).
    #[inline(always)]
    fn enter(&mut self, window: u64, perm: &mut [u8]) {
        if window != self.window {
            (self.top_entries, self.bottom_parity) = unrank_bottom(window, perm);
            self.window = window;
        }
    }

    /// Writes positions 0..6 as `pattern` (a [`TOP_PATTERNS`] entry) says.
    #[inline(always)]
    fn place_top(&self, pattern: u32, perm: &mut [u8]) {
        for (p, slot) in perm.iter_mut().enumerate().take(TOP) {
            let index = (pattern >> (4 * p)) & 15;
            *slot = ((self.top_entries >> (4 * index)) & 15) as u8;
        }
    }
}

/// Writes positions `TOP..n` of the permutations whose rank divided by 6!
/// is `window` (`TOP < n <= 16`), and returns the six entries left for the
/// top as 4-bit fields, largest first, and the parity of those positions'
/// digit sum.
fn unrank_bottom(window: u64, perm: &mut [u8]) -> (u64, u8) {
    // The rank `window * 6!` has these positions' digits and zeros below.
    let digits = digits_of(window * TOP_RANKS, perm.len());
    let parity = digits[TOP..].iter().fold(0, |parity, &d| parity ^ d);
    (place_from_bottom(&digits, perm, TOP), parity & 1)
}

/// The full rank of a permutation whose folded rank is `folded`: digit
/// `c_1` (weight 1, whether the first entry is larger than the second) put
/// back. Needs at least 2 entries.
#[inline(always)]
pub fn unfold(folded: u64, perm: &[u8]) -> u64 {
    2 * folded + (perm[0] > perm[1]) as u64
}

/// The set of `entries`, as bits.
#[inline(always)]
pub(crate) fn set_of(entries: &[u8]) -> u32 {
    entries.iter().fold(0, |set, &value| set | 1 << value)
}

/// What entries `values`, placed at positions `start..` after the entries
/// of the set `before`, add to a rank: their digits times their weights.
#[inline(always)]
pub fn window_digits(mut before: u32, start: usize, values: impl Iterator<Item = u8>) -> u64 {
    let mut digits = 0u64;
    for (p, value) in (start..).zip(values) {
        digits += larger_before(before, value) as u64 * FACTORIALS[p];
        before |= 1 << value;
    }
    digits
}

/// The rank of `perm` with its `len` entries from position `start` replaced
/// by `window` (a rearrangement of them), given `rank`, the rank of `perm`:
/// only the window's digits change. No tables are built per state (a
/// per-state table of running sums cost a 168-byte copy on every state).
#[inline(always)]
pub fn rank_with_window(
    rank: u64,
    perm: &[u8],
    start: usize,
    len: usize,
    window: impl Iterator<Item = u8>,
) -> u64 {
    let before = set_of(&perm[..start]);
    let old = window_digits(before, start, perm[start..start + len].iter().copied());
    rank - old + window_digits(before, start, window)
}

/// A permutation's digits read from the top, for moves that rearrange
/// prefixes of growing length (Pancake flips of the top 2, 3, ... n).
#[derive(Clone, Copy, Debug, Default)]
pub struct PrefixWalk {
    low: u64,
    set: u32,
    at: usize,
}

impl PrefixWalk {
    /// The digits (times their weights) of positions `< k` of `perm`; `k`
    /// is at least the last call's.
    #[inline(always)]
    pub fn low_digits(&mut self, perm: &[u8], k: usize) -> u64 {
        while self.at < k {
            let value = perm[self.at];
            self.low += larger_before(self.set, value) as u64 * FACTORIALS[self.at];
            self.set |= 1 << value;
            self.at += 1;
        }
        self.low
    }

    /// The entries of the positions read so far, as a set.
    #[inline(always)]
    pub fn set(&self) -> u32 {
        self.set
    }
}

/// The rank after reversing the first `k` entries of `perm`, whose rank is
/// `rank`; `walk` has read `perm` up to at most `k` (a Pancake flip: the
/// digits of positions >= k stay, so the rank changes below k!).
#[inline(always)]
pub fn rank_with_prefix_reversed(rank: u64, perm: &[u8], k: usize, walk: &mut PrefixWalk) -> u64 {
    rank - walk.low_digits(perm, k) + window_digits(0, 0, perm[..k].iter().rev().copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::splitmix64;

    fn factorial(n: usize) -> u64 {
        FACTORIALS[n]
    }

    #[test]
    fn rank_inverts_unrank_on_whole_spaces_up_to_9() {
        for n in 0..=9 {
            let mut perm = vec![0u8; n];
            let mut seen = vec![false; factorial(n) as usize];
            for r in 0..factorial(n) {
                unrank(r, &mut perm);
                assert!(crate::hash::permutation::is_permutation(&perm));
                let back = rank(&perm);
                assert_eq!(back, r, "n = {n}");
                assert!(!seen[back as usize]);
                seen[back as usize] = true;
            }
        }
    }

    #[test]
    fn parity_of_a_rank_is_its_permutations_on_whole_spaces_and_samples() {
        for n in 0..=8 {
            let mut perm = vec![0u8; n];
            for r in 0..factorial(n) {
                unrank(r, &mut perm);
                assert_eq!(is_odd_rank(r, n), crate::hash::permutation::is_odd(&perm));
            }
        }
        for n in [12, 13, 17, 20] {
            let mut perm = vec![0u8; n];
            for i in 0..2000u64 {
                let r = splitmix64(i) % factorial(n);
                unrank(r, &mut perm);
                assert_eq!(
                    is_odd_rank(r, n),
                    crate::hash::permutation::is_odd(&perm),
                    "n = {n}"
                );
            }
        }
    }

    #[test]
    fn cached_unrank_matches_unrank_in_any_order() {
        for n in [7, 9, 12, 13, 16] {
            let mut cache = UnrankCache::default();
            let mut cached = vec![0u8; n];
            let mut plain = vec![0u8; n];
            let mut seed = n as u64;
            let mut r = 0u64;
            for step in 0..20_000u64 {
                // Runs of nearby ranks (cache hits) and jumps (misses).
                seed = splitmix64(seed);
                r = if step % 50 == 0 { seed } else { r + seed % 40 } % factorial(n);
                unrank_cached(r, &mut cached, &mut cache);
                unrank(r, &mut plain);
                assert_eq!(cached, plain, "n = {n}, rank {r}");
            }
        }
        let mut cache = UnrankCache::default();
        let mut perm = vec![0u8; 8];
        for r in 0..factorial(8) {
            unrank_cached(r, &mut perm, &mut cache);
            assert_eq!(rank(&perm), r);
        }
    }

    #[test]
    fn folded_rank_is_a_bijection_on_each_parity_class() {
        for n in 2..=8 {
            let half = factorial(n) / 2;
            for odd in [false, true] {
                let mut perm = vec![0u8; n];
                let mut cached = vec![0u8; n];
                let mut cache = UnrankCache::default();
                for folded in 0..half {
                    unrank_folded(folded, odd, &mut perm);
                    assert!(crate::hash::permutation::is_permutation(&perm));
                    assert_eq!(crate::hash::permutation::is_odd(&perm), odd);
                    assert_eq!(rank_folded(&perm), folded, "n = {n}");
                    unrank_folded_cached(folded, odd, &mut cached, &mut cache);
                    assert_eq!(cached, perm);
                }
            }
        }
        for n in [11, 12, 13, 16] {
            let half = factorial(n) / 2;
            let (mut perm, mut cached) = (vec![0u8; n], vec![0u8; n]);
            let mut cache = UnrankCache::default();
            let mut seed = n as u64;
            let mut folded = 0;
            for step in 0..20_000u64 {
                seed = splitmix64(seed);
                folded = if step % 50 == 0 {
                    seed
                } else {
                    folded + seed % 40
                } % half;
                let odd = seed >> 63 == 1;
                unrank_folded(folded, odd, &mut perm);
                assert_eq!(crate::hash::permutation::is_odd(&perm), odd);
                assert_eq!(rank_folded(&perm), folded);
                unrank_folded_cached(folded, odd, &mut cached, &mut cache);
                assert_eq!(cached, perm, "n = {n}");
            }
        }
    }

    #[test]
    fn checked_forms_refuse_what_cannot_be_ranked() {
        assert_eq!(
            try_unrank(0, &mut [0u8; 25]).unwrap_err().to_string(),
            "invalid parameter: permutations of 25 entries have no rank here (from 0 to 20 entries)"
        );
        let mut perm = [0u8; 4];
        assert!(try_unrank(24, &mut perm).is_err());
        assert!(try_unrank_folded(12, true, &mut perm).is_err());
        assert!(try_unrank_folded(0, true, &mut [0u8; 1]).is_err());
        assert!(try_rank(&[0, 3]).is_err());
        assert!(try_rank(&[40]).is_err());
        assert!(try_rank_folded(&[0]).is_err());
        try_unrank(23, &mut perm).unwrap();
        assert_eq!(perm, [3, 2, 1, 0]);
        assert_eq!(try_rank(&perm).unwrap(), 23);
        try_unrank_folded(11, false, &mut perm).unwrap();
        assert_eq!(try_rank_folded(&perm).unwrap(), 11);
    }

    #[test]
    fn identity_is_rank_zero_and_reversal_is_the_last() {
        for n in 1..=20 {
            let identity: Vec<u8> = (0..n as u8).collect();
            let reversed: Vec<u8> = identity.iter().rev().copied().collect();
            assert_eq!(rank(&identity), 0);
            assert_eq!(rank(&reversed), factorial(n) - 1);
        }
    }

    #[test]
    fn large_ranks_round_trip_on_both_unrank_paths() {
        for n in [12, 13, 16, 17, 20] {
            let mut perm = vec![0u8; n];
            let mut seed = n as u64;
            for _ in 0..2000 {
                seed = splitmix64(seed);
                let r = seed % factorial(n);
                unrank(r, &mut perm);
                assert!(crate::hash::permutation::is_permutation(&perm));
                assert_eq!(rank(&perm), r, "n = {n}");
            }
            unrank(factorial(n) - 1, &mut perm);
            assert_eq!(rank(&perm), factorial(n) - 1);
        }
    }

    #[test]
    fn window_rearrangements_match_ranking_from_scratch() {
        // Every window of every permutation of 0..7, reversed and rotated.
        let n = 7;
        let mut perm = [0u8; 32];
        for r in 0..factorial(n) {
            unrank(r, &mut perm[..n]);
            let parent = &perm[..n];
            let mut walk = PrefixWalk::default();
            for start in 0..n {
                for end in start..=n {
                    let len = end - start;
                    let mut reversed = perm;
                    reversed[start..end].reverse();
                    let window = reversed[start..end].iter().copied();
                    assert_eq!(
                        rank_with_window(r, parent, start, len, window),
                        rank(&reversed[..n])
                    );
                    let mut rotated = perm;
                    rotated[start..end].rotate_left(1.min(len));
                    let window = rotated[start..end].iter().copied();
                    assert_eq!(
                        rank_with_window(r, parent, start, len, window),
                        rank(&rotated[..n])
                    );
                }
                let mut flipped = perm;
                flipped[..start].reverse();
                assert_eq!(
                    rank_with_prefix_reversed(r, parent, start, &mut walk),
                    rank(&flipped[..n])
                );
            }
        }
    }

    #[test]
    fn a_prefix_rearrangement_changes_the_rank_below_k_factorial() {
        let n = 12;
        let mut perm = [0u8; 32];
        let mut seed = 7u64;
        for _ in 0..500 {
            seed = splitmix64(seed);
            let r = seed % factorial(n);
            unrank(r, &mut perm[..n]);
            let mut walk = PrefixWalk::default();
            for k in 1..=n {
                let flipped = rank_with_prefix_reversed(r, &perm[..n], k, &mut walk);
                assert_eq!(flipped / factorial(k), r / factorial(k));
            }
        }
    }
}
