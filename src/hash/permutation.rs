//! Ranking and unranking of permutations of `0..n`.
//!
//! The fast ordering is Myrvold and Ruskey's (their `rank1`/`unrank1`),
//! written without recursion as in Algorithms 5 and 6 of
//! `002_f83af64931234a7c.txt`; unranking yields the permutation's parity on
//! the fly (Theorem 6), and the folded variant maps one parity class onto
//! `0..n!/2` (Theorem 7). The lexicographic ordering (Definition 11,
//! Theorem 5) is kept as a baseline for benchmarks.
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

/// Myrvold–Ruskey rank (Algorithm 5): a number in `0..n!`.
#[inline]
pub fn rank_mr(perm: &[u8]) -> u64 {
    rank_mr_down_to(perm, 2)
}

/// Folded Myrvold–Ruskey rank (Theorem 7): a number in `0..n!/2`. A
/// permutation and its copy with the first two entries swapped get the same
/// folded rank, so within one parity class the map is a bijection.
#[inline]
pub fn rank_mr_folded(perm: &[u8]) -> u64 {
    rank_mr_down_to(perm, 3)
}

/// Runs Algorithm 5 for the sizes `n, n-1, ..., last` and returns the mixed-radix
/// number of the digits seen. Stopping at 3 drops the top digit (whose weight
/// is n!/2), which is exactly the fold of Theorem 7.
#[inline(always)]
fn rank_mr_down_to(perm: &[u8], last: usize) -> u64 {
    let n = perm.len();
    debug_assert!(n <= MAX_PERMUTATION_LEN && is_permutation(perm));
    let mut p = [0u8; SCRATCH];
    let mut inverse = [0u8; SCRATCH];
    p[..n].copy_from_slice(perm);
    for (position, &value) in perm.iter().enumerate() {
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

/// Myrvold–Ruskey unrank (Algorithm 6): writes the permutation of rank
/// `rank < n!` into `perm` (whose length is n) and returns its parity
/// (`true` when odd, Theorem 6).
#[inline]
pub fn unrank_mr(rank: u64, perm: &mut [u8]) -> bool {
    let n = perm.len();
    debug_assert!(n <= MAX_PERMUTATION_LEN);
    for (position, slot) in perm.iter_mut().enumerate() {
        *slot = position as u8;
    }
    // For n <= 12 every rank fits a u32, and 32-bit division is several times
    // cheaper than 64-bit division on the CPUs we measured.
    if n <= 12 {
        let mut r = rank as u32;
        let mut odd = false;
        for m in (2..=n as u32).rev() {
            let j = (r % m) as usize;
            r /= m;
            let i = m as usize - 1;
            if i != j {
                odd = !odd;
                perm.swap(i, j);
            }
        }
        odd
    } else {
        let mut r = rank;
        let mut odd = false;
        for m in (2..=n as u64).rev() {
            let j = (r % m) as usize;
            r /= m;
            let i = m as usize - 1;
            if i != j {
                odd = !odd;
                perm.swap(i, j);
            }
        }
        odd
    }
}

/// Folded unrank (Theorem 7): the permutation with folded rank `rank < n!/2`
/// and the requested parity. The two candidates differ only by swapping the
/// first two entries, so a wrong parity is fixed with one swap (Algorithm 7,
/// lines 15-17).
#[inline]
pub fn unrank_mr_folded(rank: u64, odd: bool, perm: &mut [u8]) {
    debug_assert!(perm.len() >= 2);
    if unrank_mr(rank, perm) != odd {
        perm.swap(0, 1);
    }
}

/// Lexicographic rank (Theorem 5): the factorial-base digits d_i count the
/// smaller values to the right of position i. A bit mask of unused values and
/// a population count make each digit O(1).
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
    fn factorial_overflow_is_an_error() {
        assert_eq!(factorial(20).unwrap(), 2_432_902_008_176_640_000);
        assert!(factorial(21).is_err());
    }
}
