//! Ranking and unranking of permutations of `0..n`.
//!
//! The fast ordering is Myrvold and Ruskey's (their `rank1`/`unrank1`),
//! written without recursion as in Algorithms 5 and 6 of
//! Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect Hash
//! Functions* (TZI report 52, Bremen, 2009); unranking yields the
//! permutation's parity on the fly (Theorem 6), and the folded variant maps
//! one parity class onto `0..n!/2` (Theorem 7). The lexicographic ordering
//! (Definition 11, Theorem 5) is kept as a baseline for benchmarks.
//!
//! Permutations are slices of `u8`; `n` is at most [`MAX_PERMUTATION_LEN`]
//! so that `n!` fits a u64 rank.

use crate::error::{Error, Result};

/// 20! < 2^64 < 21!: the largest n whose permutations have u64 ranks.
pub const MAX_PERMUTATION_LEN: usize = 20;

/// Scratch arrays are fixed-size so the hot loops never allocate.
const SCRATCH: usize = 32;

/// `n!`, or an error when it does not fit a u64.
pub fn factorial(n: usize) -> Result<u64> {
    (1..=n as u64)
        .try_fold(1u64, |acc, m| acc.checked_mul(m))
        .ok_or_else(|| Error::SpaceTooLarge(format!("{n}! does not fit a 64-bit rank")))
}

/// Parity of a permutation by cycle decomposition: `true` when odd.
pub fn is_odd(perm: &[u8]) -> bool {
    let n = perm.len();
    let mut seen = [false; SCRATCH];
    let mut transpositions = 0usize;
    for start in 0..n {
        if seen[start] {
            continue;
        }
        let mut cycle_len = 0usize;
        let mut at = start;
        while !seen[at] {
            seen[at] = true;
            at = perm[at] as usize;
            cycle_len += 1;
        }
        transpositions += cycle_len - 1;
    }
    transpositions % 2 == 1
}

/// True when `perm` holds each of `0..perm.len()` exactly once.
pub fn is_permutation(perm: &[u8]) -> bool {
    let n = perm.len();
    if n > SCRATCH {
        return false;
    }
    let mut seen = 0u64;
    for &value in perm {
        if value as usize >= n || seen & (1 << value) != 0 {
            return false;
        }
        seen |= 1 << value;
    }
    true
}

/// Why `perm` is no permutation these hashes rank: longer than
/// [`MAX_PERMUTATION_LEN`], shorter than `min_len`, or not holding each of
/// `0..n` once.
pub(crate) fn check_permutation(perm: &[u8], min_len: usize) -> Result<()> {
    check_permutation_len(perm.len(), min_len)?;
    if !is_permutation(perm) {
        return Err(Error::InvalidParameter(format!(
            "{perm:?} is not a permutation of 0..{}",
            perm.len()
        )));
    }
    Ok(())
}

/// Why no permutation of `n` entries has a u64 rank (folded ranks need
/// `min_len` = 2).
fn check_permutation_len(n: usize, min_len: usize) -> Result<()> {
    if (min_len..=MAX_PERMUTATION_LEN).contains(&n) {
        return Ok(());
    }
    Err(Error::InvalidParameter(format!(
        "permutations of {n} entries have no rank here (from {min_len} to {MAX_PERMUTATION_LEN} entries)"
    )))
}

/// Whether `rank` numbers a permutation of `n` entries (of one parity
/// class, n!/2 of them, when `folded`), n within the hashes' bounds.
pub(crate) fn check_permutation_rank(rank: u64, n: usize, folded: bool) -> Result<()> {
    check_permutation_len(n, if folded { 2 } else { 0 })?;
    let size = factorial(n)?;
    super::check_rank(rank, if folded { size / 2 } else { size })
}

/// Myrvold–Ruskey rank (Algorithm 5): a number in `0..n!`.
///
/// # Panics
///
/// Unchecked, for the searches' hot paths: `perm` must be a permutation
/// of `0..n`, n at most [`MAX_PERMUTATION_LEN`]. Debug builds panic
/// otherwise, release builds panic on an entry (or a length) of 32 or
/// more and give a meaningless rank for other input. [`try_rank_mr`] checks.
#[inline]
pub fn rank_mr(perm: &[u8]) -> u64 {
    rank_mr_down_to(perm, 2)
}

/// Folded Myrvold–Ruskey rank (Theorem 7): a number in `0..n!/2`. A
/// permutation and its copy with the first two entries swapped get the same
/// folded rank, so within one parity class the map is a bijection.
///
/// # Panics
///
/// As [`rank_mr`]; [`try_rank_mr_folded`] checks.
#[inline]
pub fn rank_mr_folded(perm: &[u8]) -> u64 {
    rank_mr_down_to(perm, 3)
}

/// [`rank_mr`] of a permutation given by a user.
pub fn try_rank_mr(perm: &[u8]) -> Result<u64> {
    check_permutation(perm, 0)?;
    Ok(rank_mr(perm))
}

/// [`rank_mr_folded`] of a permutation given by a user (at least two
/// entries: the fold halves n!).
pub fn try_rank_mr_folded(perm: &[u8]) -> Result<u64> {
    check_permutation(perm, 2)?;
    Ok(rank_mr_folded(perm))
}

/// [`unrank_mr`] of a rank given by a user: refused unless `perm` has at
/// most [`MAX_PERMUTATION_LEN`] entries and `rank` is below n!.
pub fn try_unrank_mr(rank: u64, perm: &mut [u8]) -> Result<bool> {
    check_permutation_rank(rank, perm.len(), false)?;
    Ok(unrank_mr(rank, perm))
}

/// [`unrank_mr_folded`] of a rank given by a user: refused unless `perm`
/// has 2 to [`MAX_PERMUTATION_LEN`] entries and `rank` is below n!/2.
pub fn try_unrank_mr_folded(rank: u64, odd: bool, perm: &mut [u8]) -> Result<()> {
    check_permutation_rank(rank, perm.len(), true)?;
    unrank_mr_folded(rank, odd, perm);
    Ok(())
}

/// [`rank_lex`] of a permutation given by a user.
pub fn try_rank_lex(perm: &[u8]) -> Result<u64> {
    check_permutation(perm, 0)?;
    Ok(rank_lex(perm))
}

/// [`unrank_lex`] of a rank given by a user, checked as [`try_unrank_mr`].
pub fn try_unrank_lex(rank: u64, perm: &mut [u8]) -> Result<bool> {
    check_permutation_rank(rank, perm.len(), false)?;
    Ok(unrank_lex(rank, perm))
}

/// Runs Algorithm 5 for the sizes `n, n-1, ..., last` and returns the mixed-radix
/// number of the digits seen. Stopping at 3 drops the top digit (whose weight
/// is n!/2), which is exactly the fold of Theorem 7.
///
/// (Holding the permutation and its inverse as 4-bit fields of two registers
/// was tried and measured 2x slower at n = 12: the chain of variable shifts
/// is longer than the store-to-load forwarding it replaces.)
#[inline(always)]
fn rank_mr_down_to(perm: &[u8], last: usize) -> u64 {
    let n = perm.len();
    debug_assert!(n <= MAX_PERMUTATION_LEN && is_permutation(perm));
    let mut p = [0u8; SCRATCH];
    let mut inverse = [0u8; SCRATCH];
    // One loop for both arrays: a variable-length copy_from_slice here became
    // a call to memmove, 18% of a sliding-tile run's profile.
    for (position, &value) in perm.iter().enumerate() {
        p[position] = value;
        inverse[value as usize] = position as u8;
    }
    let mut rank = 0u64;
    let mut weight = 1u64;
    let mut m = n;
    while m >= last {
        // Lines 2-5: the digit is the value at the top position; moving m-1
        // there is a swap, but positions >= m-1 are never read again, so only
        // the lower halves of both swaps are written.
        let digit = p[m - 1] as usize;
        let position_of_top = inverse[m - 1] as usize;
        p[position_of_top] = digit as u8;
        inverse[digit] = position_of_top as u8;
        rank += digit as u64 * weight;
        weight *= m as u64;
        m -= 1;
    }
    rank
}

/// ceil(2^64 / m) for m in 2..32: division of a u32 by m becomes two
/// multiplications (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019), exact for every u32 numerator.
const RECIPROCALS: [u64; SCRATCH + 1] = {
    let mut table = [0u64; SCRATCH + 1];
    let mut m = 2;
    while m <= SCRATCH {
        table[m] = u64::MAX / m as u64 + 1;
        m += 1;
    }
    table
};

/// (r / m, r % m) for 2 <= m <= 32 without a division instruction.
#[inline(always)]
pub(crate) fn divide_small(r: u32, m: usize) -> (u32, u32) {
    let reciprocal = RECIPROCALS[m];
    let quotient = ((reciprocal as u128 * r as u128) >> 64) as u32;
    (quotient, r - quotient * m as u32)
}

/// Myrvold–Ruskey unrank (Algorithm 6): writes the permutation of rank
/// `rank < n!` into `perm` (whose length is n) and returns its parity
/// (`true` when odd, Theorem 6).
///
/// The digits come from a chain of divisions, which dominated the cost; once
/// the remaining rank is below 12! < 2^32 each division is done by
/// multiplication (2.3x faster unranking at n = 12, see benches/hashing.rs).
/// The paper's line 9 sits inside the `if`; the division belongs to every
/// step, as in Myrvold and Ruskey's unrank1.
///
/// # Panics
///
/// Unchecked, for the hot paths: debug builds panic beyond
/// [`MAX_PERMUTATION_LEN`] entries; a rank of n! or more gives a
/// meaningless permutation (it never loops). [`try_unrank_mr`] checks.
#[inline]
pub fn unrank_mr(rank: u64, perm: &mut [u8]) -> bool {
    let n = perm.len();
    debug_assert!(n <= MAX_PERMUTATION_LEN);
    for (position, slot) in perm.iter_mut().enumerate() {
        *slot = position as u8;
    }
    let mut odd = false;
    let mut m = n;
    let mut wide = rank;
    while m > 12 {
        let j = (wide % m as u64) as usize;
        wide /= m as u64;
        if j != m - 1 {
            odd = !odd;
            perm.swap(m - 1, j);
        }
        m -= 1;
    }
    let mut r = wide as u32;
    while m >= 2 {
        let (quotient, j) = divide_small(r, m);
        r = quotient;
        let j = j as usize;
        // Branch-free: swapping an entry with itself is harmless, and the
        // digits are random enough that a branch would mispredict often.
        odd ^= j != m - 1;
        perm.swap(m - 1, j);
        m -= 1;
    }
    odd
}

/// Folded unrank (Theorem 7): the permutation with folded rank `rank < n!/2`
/// and the requested parity. The two candidates differ only by swapping the
/// first two entries, so a wrong parity is fixed with one swap (Algorithm 7,
/// lines 15-17).
///
/// # Panics
///
/// Panics with fewer than two entries; otherwise as [`unrank_mr`].
/// [`try_unrank_mr_folded`] checks.
#[inline]
pub fn unrank_mr_folded(rank: u64, odd: bool, perm: &mut [u8]) {
    debug_assert!(perm.len() >= 2);
    let wrong_class = unrank_mr(rank, perm) != odd;
    // Branch-free select: the parity is a coin toss, a branch would mispredict.
    let (first, second) = (perm[0], perm[1]);
    perm[0] = if wrong_class { second } else { first };
    perm[1] = if wrong_class { first } else { second };
}

/// Lexicographic rank (Theorem 5): the factorial-base digits d_i count the
/// smaller values to the right of position i. A bit mask of unused values and
/// a population count make each digit O(1).
///
/// # Panics
///
/// As [`rank_mr`]; [`try_rank_lex`] checks.
pub fn rank_lex(perm: &[u8]) -> u64 {
    let n = perm.len();
    debug_assert!(n <= MAX_PERMUTATION_LEN && is_permutation(perm));
    let mut unused: u32 = (1u32 << n) - 1;
    let mut rank = 0u64;
    for (position, &value) in perm.iter().enumerate() {
        let smaller_unused = (unused & ((1u32 << value) - 1)).count_ones() as u64;
        // Horner's scheme over the factorial base: digit i has weight (n-1-i)!.
        rank = rank * (n - position) as u64 + smaller_unused;
        unused &= !(1u32 << value);
    }
    rank
}

/// Lexicographic unrank; returns the parity (`true` when odd), which is the
/// parity of the digit sum (Theorem 5).
///
/// # Panics
///
/// Panics beyond 32 entries (debug builds: beyond
/// [`MAX_PERMUTATION_LEN`]); a rank of n! or more gives a meaningless
/// permutation. [`try_unrank_lex`] checks.
pub fn unrank_lex(rank: u64, perm: &mut [u8]) -> bool {
    let n = perm.len();
    debug_assert!(n <= MAX_PERMUTATION_LEN);
    // Digits come out least significant first; store them, then place values.
    let mut digits = [0u8; SCRATCH];
    let mut r = rank;
    for m in 1..=n as u64 {
        digits[n - m as usize] = (r % m) as u8;
        r /= m;
    }
    let mut unused: u32 = (1u32 << n) - 1;
    let mut digit_sum = 0u32;
    for (position, slot) in perm.iter_mut().enumerate() {
        let d = digits[position] as u32;
        digit_sum += d;
        // Select the d-th (0-based) set bit of `unused`.
        let mut candidates = unused;
        for _ in 0..d {
            candidates &= candidates - 1;
        }
        let value = candidates.trailing_zeros();
        *slot = value as u8;
        unused &= !(1u32 << value);
    }
    digit_sum % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_ranks_round_trip(n: usize) {
        let size = factorial(n).unwrap();
        let mut perm = vec![0u8; n];
        let mut seen = vec![false; size as usize];
        for r in 0..size {
            let odd = unrank_mr(r, &mut perm);
            assert!(is_permutation(&perm));
            assert_eq!(odd, is_odd(&perm), "parity of MR rank {r} (n={n})");
            let back = rank_mr(&perm);
            assert_eq!(back, r);
            assert!(!seen[back as usize]);
            seen[back as usize] = true;

            let odd_lex = unrank_lex(r, &mut perm);
            assert_eq!(odd_lex, is_odd(&perm));
            assert_eq!(rank_lex(&perm), r);
        }
    }

    #[test]
    fn myrvold_ruskey_and_lexicographic_are_bijections_up_to_8() {
        for n in 1..=8 {
            all_ranks_round_trip(n);
        }
    }

    #[test]
    fn lexicographic_order_is_lexicographic() {
        let mut previous = vec![0u8; 5];
        unrank_lex(0, &mut previous);
        let mut current = vec![0u8; 5];
        for r in 1..120 {
            unrank_lex(r, &mut current);
            assert!(previous < current);
            previous.copy_from_slice(&current);
        }
    }

    #[test]
    fn theorem_7_rank_and_rank_plus_half_differ_by_first_swap() {
        for n in 2..=7 {
            let half = factorial(n).unwrap() / 2;
            let mut a = vec![0u8; n];
            let mut b = vec![0u8; n];
            for r in 0..half {
                let odd_a = unrank_mr(r, &mut a);
                let odd_b = unrank_mr(r + half, &mut b);
                assert_ne!(odd_a, odd_b);
                b.swap(0, 1);
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn folded_rank_is_a_bijection_on_each_parity_class() {
        for n in 2..=8 {
            let half = factorial(n).unwrap() / 2;
            let mut perm = vec![0u8; n];
            for odd in [false, true] {
                for r in 0..half {
                    unrank_mr_folded(r, odd, &mut perm);
                    assert_eq!(is_odd(&perm), odd);
                    assert_eq!(rank_mr_folded(&perm), r);
                }
            }
        }
    }

    #[test]
    fn large_ranks_round_trip() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for n in [12usize, 13, 16, 20] {
            let size = factorial(n).unwrap();
            let mut perm = vec![0u8; n];
            for _ in 0..2000 {
                state = crate::hash::splitmix64(state);
                let r = state % size;
                let odd = unrank_mr(r, &mut perm);
                assert_eq!(odd, is_odd(&perm));
                assert_eq!(rank_mr(&perm), r);
                assert_eq!(unrank_lex(r, &mut perm), is_odd(&perm));
                assert_eq!(rank_lex(&perm), r);
            }
        }
    }

    #[test]
    fn division_by_multiplication_is_exact() {
        let mut state = 1u64;
        for m in 2..=SCRATCH {
            for r in [
                0u32,
                1,
                m as u32 - 1,
                m as u32,
                u32::MAX,
                u32::MAX - 1,
                479_001_599,
            ] {
                assert_eq!(
                    divide_small(r, m),
                    (r / m as u32, r % m as u32),
                    "{r} / {m}"
                );
            }
            for _ in 0..10_000 {
                state = crate::hash::splitmix64(state);
                let r = state as u32;
                assert_eq!(
                    divide_small(r, m),
                    (r / m as u32, r % m as u32),
                    "{r} / {m}"
                );
            }
        }
    }

    #[test]
    fn checked_forms_refuse_what_the_hashes_cannot_rank() {
        assert_eq!(
            try_rank_mr(&[200]).unwrap_err().to_string(),
            "invalid parameter: [200] is not a permutation of 0..1"
        );
        assert!(try_rank_mr(&[0, 0]).is_err());
        assert!(try_rank_lex(&[1, 2]).is_err());
        let long: Vec<u8> = (0..21).collect();
        assert!(try_rank_mr(&long).is_err());
        assert!(try_rank_mr_folded(&[0]).is_err());
        assert_eq!(try_rank_mr(&[2, 0, 1]).unwrap(), rank_mr(&[2, 0, 1]));
        let mut perm = [0u8; 3];
        assert_eq!(
            try_unrank_mr(6, &mut perm).unwrap_err().to_string(),
            "invalid parameter: rank 6 is outside the space of 6 elements (ranks 0..6)"
        );
        assert!(try_unrank_lex(u64::MAX, &mut perm).is_err());
        assert!(try_unrank_mr_folded(3, false, &mut perm).is_err());
        assert!(try_unrank_mr(0, &mut [0u8; 21]).is_err());
        try_unrank_mr_folded(2, true, &mut perm).unwrap();
        assert_eq!(try_rank_mr_folded(&perm).unwrap(), 2);
        assert!(is_odd(&perm));
    }

    #[test]
    fn factorial_overflow_is_an_error() {
        assert_eq!(factorial(20).unwrap(), 2_432_902_008_176_640_000);
        assert!(factorial(21).is_err());
    }
}
