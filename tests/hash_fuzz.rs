//! Property-based fuzzing of the hashes' checked forms: every ranker of
//! `bitsolve::hash`, built with random valid parameters, must unrank every
//! rank below its size to a vector that ranks back to it, refuse every rank
//! at or past the size, and refuse every vector that is not one of its own
//! (wrong length, a value out of range, a wrong multiset), with an error
//! and never a panic. Whole small spaces are walked exhaustively as well.
//!
//! The groups run through the shared harness (`common/fuzzing.rs`): a
//! fixed seed and case counts in the suite, a seed and a time budget in
//! `scripts/fuzz.sh`.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use bitsolve::Error;

use crate::common::fuzzing::fuzz;
use bitsolve::hash::binomial::BINOMIALS;
use bitsolve::hash::permutation::{self, is_odd, is_permutation};
use bitsolve::hash::prefix_lehmer;
use bitsolve::hash::{BinomialRanker, ColourSetRanker, MultinomialRanker, StoneRanker};

/// Cases a group tries in the suite's own run.
const CASES: u32 = 4_000;

/// A rank below `size` drawn from `raw` (`size` > 0).
fn inside(raw: u64, size: u64) -> u64 {
    raw % size
}

/// Ranks at and past `size`: just past it, a little further, the last.
fn outside(raw: u64, size: u64) -> Vec<u64> {
    [size, size.saturating_add(raw % 1000), u64::MAX]
        .into_iter()
        .filter(|&rank| rank >= size)
        .collect()
}

/// The arrangements of `counts`, or none when they pass a u64 (or their
/// cells pass 64).
fn multinomial(counts: &[u8]) -> Option<u64> {
    let mut total = 0usize;
    let mut product = 1u128;
    for &count in counts {
        total += count as usize;
        if total > 64 {
            return None;
        }
        product = product.checked_mul(BINOMIALS[total][count as usize] as u128)?;
    }
    u64::try_from(product).ok()
}

/// Colour counts: a few colours of up to 8 cells, or up to 64 colours of
/// up to 2 (where a table's index space passes usize).
fn colour_counts() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(0u8..=8, 2..=6),
        proptest::collection::vec(0u8..=2, 2..=64),
        proptest::collection::vec(0u8..=20, 2..=4),
    ]
}

fn counts_of(cells: &[u8], colours: usize) -> Vec<u8> {
    let mut counts = vec![0u8; colours];
    for &colour in cells {
        counts[colour as usize] += 1;
    }
    counts
}

/// Whether `bits` has no bit at n or above.
fn within(bits: u64, n: usize) -> bool {
    n == 64 || bits >> n == 0
}

/// Whether `cells` is an arrangement of `counts`.
fn is_arrangement(cells: &[u8], counts: &[u8]) -> bool {
    cells.iter().all(|&colour| (colour as usize) < counts.len())
        && counts_of(cells, counts.len()) == counts
}

#[test]
fn binomial_ranker() {
    let shape = (0usize..=64).prop_flat_map(|n| (Just(n), 0..=n));
    fuzz(
        "binomial",
        CASES,
        (shape, any::<u64>(), any::<u64>(), 0u32..64),
        |((n, ones), raw, mask, bit)| {
            let ranker = BinomialRanker::new(n, ones).map_err(fail)?;
            let size = ranker.size();
            prop_assert_eq!(size, BINOMIALS[n][ones]);
            let rank = inside(raw, size);
            let bits = ranker.try_unrank(rank).map_err(fail)?;
            prop_assert_eq!(bits.count_ones() as usize, ones);
            prop_assert!(within(bits, n), "bits past n");
            prop_assert_eq!(ranker.try_rank(bits).map_err(fail)?, rank);
            for past in outside(raw, size) {
                prop_assert!(ranker.try_unrank(past).is_err(), "rank {past} of {size}");
            }
            // One bit flipped changes the count of ones: never a vector.
            prop_assert!(ranker.try_rank(bits ^ 1 << bit).is_err());
            let fits = within(mask, n);
            match ranker.try_rank(mask) {
                Ok(rank) => {
                    prop_assert!(fits && mask.count_ones() as usize == ones);
                    prop_assert_eq!(ranker.try_unrank(rank).map_err(fail)?, mask);
                }
                Err(_) => prop_assert!(!fits || mask.count_ones() as usize != ones),
            }
            prop_assert!(BinomialRanker::new(n, n + 1).is_err());
            Ok(())
        },
    );
}

#[test]
fn colour_set_and_multinomial_rankers() {
    let cells = proptest::collection::vec(0u8..8, 0..=66);
    fuzz(
        "colour sets and multinomial",
        CASES,
        (colour_counts(), any::<u64>(), cells, any::<usize>()),
        |(counts, raw, random, at)| {
            let n: usize = counts.iter().map(|&c| c as usize).sum();
            let expected = multinomial(&counts);
            let rankers = (
                ColourSetRanker::new(&counts),
                MultinomialRanker::new(&counts),
                MultinomialRanker::without_table(&counts),
            );
            let (Ok(sets), Ok(table), Ok(fly)) = &rankers else {
                // Refused only when the space passes a u64 or 64 cells,
                // by all three alike.
                prop_assert!(expected.is_none(), "{:?} refused", counts);
                prop_assert!(matches!(rankers, (Err(_), Err(_), Err(_))));
                return Ok(());
            };
            let size = expected.expect("accepted counts fit");
            prop_assert_eq!((sets.size(), table.size(), fly.size()), (size, size, size));
            let rank = inside(raw, size);
            let mut cells = vec![0u8; n];
            sets.try_unrank(rank, &mut cells).map_err(fail)?;
            prop_assert!(is_arrangement(&cells, &counts));
            prop_assert_eq!(sets.try_rank(&cells).map_err(fail)?, rank);
            let mut above = vec![0u64; counts.len() - 1];
            sets.try_unrank_sets(rank, &mut above).map_err(fail)?;
            prop_assert_eq!(sets.try_rank_sets(&above).map_err(fail)?, rank);
            for ranker in [table, fly] {
                ranker.try_unrank(rank, &mut cells).map_err(fail)?;
                prop_assert!(is_arrangement(&cells, &counts));
                prop_assert_eq!(ranker.try_rank(&cells).map_err(fail)?, rank);
                // Both rank alike, with a table or without.
                prop_assert_eq!(table.try_rank(&cells).map_err(fail)?, rank);
                prop_assert_eq!(fly.try_rank(&cells).map_err(fail)?, rank);
            }
            for past in outside(raw, size) {
                prop_assert!(sets.try_unrank(past, &mut cells).is_err());
                prop_assert!(sets.try_unrank_sets(past, &mut above).is_err());
                prop_assert!(table.try_unrank(past, &mut cells).is_err());
                prop_assert!(fly.try_unrank(past, &mut cells).is_err());
            }
            prop_assert!(sets.try_unrank(rank, &mut vec![0u8; n + 1]).is_err());
            prop_assert!(table.try_unrank(rank, &mut vec![0u8; n + 1]).is_err());
            // A cell recoloured: a wrong multiset (or a colour past the last).
            if n > 0 {
                let mut recoloured = cells.clone();
                let cell = at % n;
                recoloured[cell] = (recoloured[cell] + 1 + (at / n % 3) as u8) % 67;
                prop_assert!(sets.try_rank(&recoloured).is_err());
                prop_assert!(table.try_rank(&recoloured).is_err());
                prop_assert!(fly.try_rank(&recoloured).is_err());
            }
            let valid = is_arrangement(&random, &counts);
            for outcome in [
                sets.try_rank(&random),
                table.try_rank(&random),
                fly.try_rank(&random),
            ] {
                prop_assert_eq!(outcome.is_ok(), valid, "{:?} of {:?}", random, counts);
            }
            Ok(())
        },
    );
}

#[test]
fn stone_ranker() {
    let shape = (0usize..=64)
        .prop_flat_map(|n| (Just(n), 0..=n))
        .prop_flat_map(|(n, stones)| (Just(n), Just(stones), 0..=stones));
    fuzz(
        "stones",
        CASES,
        (shape, any::<u64>(), any::<u64>(), any::<u64>()),
        |((n, stones, black), raw, occupied, black_cells)| {
            let expected = multinomial(&[(n - stones) as u8, (stones - black) as u8, black as u8]);
            let ranker = match StoneRanker::new(n, stones, black) {
                Ok(ranker) => ranker,
                Err(error) => {
                    prop_assert!(expected.is_none(), "refused: {error}");
                    prop_assert!(matches!(error, Error::SpaceTooLarge(_)));
                    return Ok(());
                }
            };
            let size = expected.expect("accepted boards fit");
            prop_assert_eq!(ranker.size(), size);
            let rank = inside(raw, size);
            let (on, dark) = ranker.try_unrank(rank).map_err(fail)?;
            prop_assert_eq!(on.count_ones() as usize, stones);
            prop_assert_eq!(dark.count_ones() as usize, black);
            prop_assert_eq!(dark & !on, 0);
            prop_assert_eq!(ranker.try_rank(on, dark).map_err(fail)?, rank);
            for past in outside(raw, size) {
                prop_assert!(ranker.try_unrank(past).is_err());
            }
            let board = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            let valid = occupied & !board == 0
                && occupied.count_ones() as usize == stones
                && black_cells & !occupied == 0
                && black_cells.count_ones() as usize == black;
            prop_assert_eq!(ranker.try_rank(occupied, black_cells).is_ok(), valid);
            Ok(())
        },
    );
}

/// A checked unrank into a permutation, and the matching checked rank.
type Unrank = fn(u64, &mut [u8]) -> bitsolve::Result<()>;
type Rank = fn(&[u8]) -> bitsolve::Result<u64>;

/// A permutation of 0..n (n up to 22: past the hashes' 20) or a vector
/// that is most likely none.
fn permutations() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        (0u8..=22).prop_flat_map(|n| Just((0..n).collect::<Vec<u8>>()).prop_shuffle()),
        proptest::collection::vec(0u8..40, 0..=24),
        proptest::collection::vec(0u8..6, 0..=6),
    ]
}

#[test]
fn permutation_rankers() {
    fuzz(
        "permutations",
        CASES,
        (permutations(), any::<u64>(), any::<bool>()),
        |(perm, raw, odd)| {
            let n = perm.len();
            let valid = n <= 20 && is_permutation(&perm);
            let folds = valid && n >= 2;
            let checked = [
                permutation::try_rank_mr(&perm),
                permutation::try_rank_lex(&perm),
                prefix_lehmer::try_rank(&perm),
            ];
            for outcome in &checked {
                prop_assert_eq!(outcome.is_ok(), valid, "{:?}", perm);
            }
            prop_assert_eq!(permutation::try_rank_mr_folded(&perm).is_ok(), folds);
            prop_assert_eq!(prefix_lehmer::try_rank_folded(&perm).is_ok(), folds);
            let mut out = vec![0u8; n];
            if n > 20 {
                prop_assert!(permutation::try_unrank_mr(0, &mut out).is_err());
                prop_assert!(permutation::try_unrank_lex(0, &mut out).is_err());
                prop_assert!(prefix_lehmer::try_unrank(0, &mut out).is_err());
                prop_assert!(permutation::try_unrank_mr_folded(0, odd, &mut out).is_err());
                prop_assert!(prefix_lehmer::try_unrank_folded(0, odd, &mut out).is_err());
                return Ok(());
            }
            let size = permutation::factorial(n).map_err(fail)?;
            let rank = inside(raw, size);
            let round_trips: [(Unrank, Rank); 3] = [
                (
                    |r, p| permutation::try_unrank_mr(r, p).map(drop),
                    permutation::try_rank_mr,
                ),
                (
                    |r, p| permutation::try_unrank_lex(r, p).map(drop),
                    permutation::try_rank_lex,
                ),
                (prefix_lehmer::try_unrank, prefix_lehmer::try_rank),
            ];
            for (unrank, rank_of) in round_trips {
                unrank(rank, &mut out).map_err(fail)?;
                prop_assert!(is_permutation(&out));
                prop_assert_eq!(rank_of(&out).map_err(fail)?, rank);
                for past in outside(raw, size) {
                    prop_assert!(unrank(past, &mut out).is_err());
                }
            }
            if n >= 2 {
                let half = size / 2;
                let folded = inside(raw, half);
                permutation::try_unrank_mr_folded(folded, odd, &mut out).map_err(fail)?;
                prop_assert_eq!(is_odd(&out), odd);
                prop_assert_eq!(permutation::try_rank_mr_folded(&out).map_err(fail)?, folded);
                prefix_lehmer::try_unrank_folded(folded, odd, &mut out).map_err(fail)?;
                prop_assert_eq!(is_odd(&out), odd);
                prop_assert_eq!(prefix_lehmer::try_rank_folded(&out).map_err(fail)?, folded);
                for past in outside(raw, half) {
                    prop_assert!(permutation::try_unrank_mr_folded(past, odd, &mut out).is_err());
                    prop_assert!(prefix_lehmer::try_unrank_folded(past, odd, &mut out).is_err());
                }
            } else {
                prop_assert!(permutation::try_unrank_mr_folded(0, odd, &mut out).is_err());
                prop_assert!(prefix_lehmer::try_unrank_folded(0, odd, &mut out).is_err());
            }
            Ok(())
        },
    );
}

/// Random 64-bit draws, checked where the others draw from a small range:
/// ranks near the size and words with many bits.
#[test]
fn ranks_near_the_size() {
    fuzz(
        "ranks near the size",
        CASES,
        (0usize..=64, any::<u64>(), 0u64..4),
        |(n, raw, near)| {
            let ranker = BinomialRanker::new(n, n / 2).map_err(fail)?;
            let size = ranker.size();
            let below = size.saturating_sub(1 + near);
            let bits = ranker.try_unrank(below).map_err(fail)?;
            prop_assert_eq!(ranker.try_rank(bits).map_err(fail)?, below);
            prop_assert!(ranker.try_unrank(size + near).is_err());
            let stones = StoneRanker::new(n, n / 2, n / 4);
            if let Ok(stones) = stones {
                let last = stones.size() - 1 - near.min(stones.size() - 1);
                let (on, dark) = stones.try_unrank(last).map_err(fail)?;
                prop_assert_eq!(stones.try_rank(on, dark).map_err(fail)?, last);
                prop_assert!(stones.try_unrank(stones.size() + (raw % 7)).is_err());
            }
            Ok(())
        },
    );
}

fn fail(error: Error) -> TestCaseError {
    TestCaseError::fail(error.to_string())
}

/// Every rank of whole small spaces round-trips through the checked
/// forms (so unrank is one-to-one), and the size itself is refused.
#[test]
fn whole_small_spaces_round_trip() {
    for n in 0..=12 {
        for ones in 0..=n {
            let ranker = BinomialRanker::new(n, ones).unwrap();
            for rank in 0..ranker.size() {
                let bits = ranker.try_unrank(rank).unwrap();
                assert_eq!(ranker.try_rank(bits).unwrap(), rank);
            }
            assert!(ranker.try_unrank(ranker.size()).is_err());
        }
    }
    for counts in [
        vec![3u8, 2, 2],
        vec![0, 0],
        vec![4, 0, 3],
        vec![1, 1, 1, 1, 1, 1, 1],
        vec![2, 1, 0, 2, 1],
    ] {
        let sets = ColourSetRanker::new(&counts).unwrap();
        let table = MultinomialRanker::new(&counts).unwrap();
        let fly = MultinomialRanker::without_table(&counts).unwrap();
        let mut cells = vec![0u8; sets.len()];
        for rank in 0..sets.size() {
            sets.try_unrank(rank, &mut cells).unwrap();
            assert_eq!(sets.try_rank(&cells).unwrap(), rank);
            for ranker in [&table, &fly] {
                ranker.try_unrank(rank, &mut cells).unwrap();
                assert_eq!(ranker.try_rank(&cells).unwrap(), rank);
            }
        }
        assert!(sets.try_unrank(sets.size(), &mut cells).is_err());
        assert!(fly.try_unrank(fly.size(), &mut cells).is_err());
    }
    for n in 0..=7 {
        for stones in 0..=n {
            for black in 0..=stones {
                let ranker = StoneRanker::new(n, stones, black).unwrap();
                for rank in 0..ranker.size() {
                    let (on, dark) = ranker.try_unrank(rank).unwrap();
                    assert_eq!(ranker.try_rank(on, dark).unwrap(), rank);
                }
                assert!(ranker.try_unrank(ranker.size()).is_err());
            }
        }
    }
    for n in 0..=7 {
        let size = permutation::factorial(n).unwrap();
        let mut perm = vec![0u8; n];
        for rank in 0..size {
            permutation::try_unrank_mr(rank, &mut perm).unwrap();
            assert_eq!(permutation::try_rank_mr(&perm).unwrap(), rank);
            permutation::try_unrank_lex(rank, &mut perm).unwrap();
            assert_eq!(permutation::try_rank_lex(&perm).unwrap(), rank);
            prefix_lehmer::try_unrank(rank, &mut perm).unwrap();
            assert_eq!(prefix_lehmer::try_rank(&perm).unwrap(), rank);
        }
        assert!(permutation::try_unrank_mr(size, &mut perm).is_err());
        assert!(prefix_lehmer::try_unrank(size, &mut perm).is_err());
        for rank in (0..size / 2).filter(|_| n >= 2) {
            for odd in [false, true] {
                permutation::try_unrank_mr_folded(rank, odd, &mut perm).unwrap();
                assert_eq!(permutation::try_rank_mr_folded(&perm).unwrap(), rank);
                prefix_lehmer::try_unrank_folded(rank, odd, &mut perm).unwrap();
                assert_eq!(prefix_lehmer::try_rank_folded(&perm).unwrap(), rank);
            }
        }
    }
}

/// The inputs that panicked, looped or answered garbage before the
/// checked forms, each refused now with the rank and the size or the
/// offending input named.
#[test]
fn regressions() {
    let message = |error: Error| error.to_string();
    assert_eq!(
        message(
            BinomialRanker::new(3, 1)
                .unwrap()
                .try_unrank(100)
                .unwrap_err()
        ),
        "invalid parameter: rank 100 is outside the space of 3 elements (ranks 0..3)"
    );
    let wide = BinomialRanker::new(64, 32).unwrap();
    assert_eq!(
        message(wide.try_unrank(wide.size()).unwrap_err()),
        "invalid parameter: rank 1832624140942590534 is outside the space of 1832624140942590534 elements (ranks 0..1832624140942590534)"
    );
    let mut cells = [9u8; 3];
    assert_eq!(
        message(
            ColourSetRanker::new(&[2, 1])
                .unwrap()
                .try_unrank(3, &mut cells)
                .unwrap_err()
        ),
        "invalid parameter: rank 3 is outside the space of 3 elements (ranks 0..3)"
    );
    assert_eq!(cells, [9, 9, 9], "nothing written for a refused rank");
    let fly = MultinomialRanker::without_table(&[2, 1]).unwrap();
    assert!(fly.try_unrank(u64::MAX, &mut cells).is_err());
    assert_eq!(
        message(
            StoneRanker::new(9, 4, 2)
                .unwrap()
                .try_unrank(u64::MAX)
                .unwrap_err()
        ),
        format!(
            "invalid parameter: rank {} is outside the space of 756 elements (ranks 0..756)",
            u64::MAX
        )
    );
    assert_eq!(
        message(
            MultinomialRanker::new(&[2, 1])
                .unwrap()
                .try_rank(&[0, 0, 9])
                .unwrap_err()
        ),
        "invalid parameter: colour 9 is not below 2"
    );
    assert_eq!(
        message(permutation::try_rank_mr(&[200]).unwrap_err()),
        "invalid parameter: [200] is not a permutation of 0..1"
    );
    assert_eq!(
        message(prefix_lehmer::try_unrank(0, &mut [0u8; 25]).unwrap_err()),
        "invalid parameter: permutations of 25 entries have no rank here (from 0 to 20 entries)"
    );
    // 64 colours, valid counts whose table's index space passes usize.
    let mut ends = [0u8; 64];
    (ends[0], ends[63]) = (1, 1);
    let mut last_two = [0u8; 64];
    (last_two[62], last_two[63]) = (2, 2);
    for (counts, size) in [(ends, 2), (last_two, 6)] {
        let table = MultinomialRanker::new(&counts).unwrap();
        assert_eq!(table.size(), size);
        assert_eq!(ColourSetRanker::new(&counts).unwrap().size(), size);
    }
    // A space of one element on 64 cells: rank 0 only.
    let single = BinomialRanker::new(64, 64).unwrap();
    assert_eq!(single.try_unrank(0).unwrap(), u64::MAX);
    assert!(single.try_unrank(1).is_err());
}
