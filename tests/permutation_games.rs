//! Published numbers for the permutation games of Edelkamp et al., *Solving
//! Games in Parallel with Linear-Time Perfect Hash Functions* (TZI report 52,
//! Bremen, 2009), section 4 and Tables 1-3, and the pancake numbers.

use crate::common::{layers, run, thread_counts};
use bitsolve::backend::CpuBackend;
use bitsolve::games::{Pancake, SlidingTile, TopSpin};
use bitsolve::hash::permutation::factorial;
use bitsolve::search::Algorithm::{OneBitBfs, OneBitReachability, TwoBitBfs};
use bitsolve::space::Space;

#[test]
fn pancake_numbers_for_1_to_10_and_every_stack_reachable() {
    let pancake_numbers = [0, 1, 3, 4, 5, 7, 8, 9, 10, 11];
    for (n, &expected_depth) in (1..=10).zip(&pancake_numbers) {
        let space = Pancake::new(n, false).unwrap();
        let report = run(&space, TwoBitBfs, 2);
        assert_eq!(report.max_depth(), Some(expected_depth), "pancake n={n}");
        assert_eq!(report.reachable, factorial(n).unwrap());
    }
}

#[test]
fn pancake_10_layers_match_the_published_table() {
    let expected = vec![
        1, 9, 72, 575, 3963, 22825, 106461, 377863, 919365, 1309756, 814678, 73232,
    ];
    let space = Pancake::new(10, false).unwrap();
    for threads in thread_counts() {
        let report = run(&space, TwoBitBfs, threads);
        assert_eq!(layers(&report), expected, "{threads} threads");
        assert_eq!(report.reachable, 3_628_800);
    }
    let reach = run(&space, OneBitReachability, 2);
    assert_eq!(reach.reachable, 3_628_800);
}

#[test]
fn burned_pancake_numbers_for_1_to_6() {
    for (n, expected_depth) in (1..=6).zip([1, 4, 6, 8, 10, 12]) {
        let space = Pancake::new(n, true).unwrap();
        let report = run(&space, TwoBitBfs, 2);
        assert_eq!(
            report.max_depth(),
            Some(expected_depth),
            "burned pancake n={n}"
        );
        // Every signed permutation is reachable.
        assert_eq!(report.reachable, space.size());
    }
}

#[test]
fn top_spin_k4_reachable_states_match_table_2() {
    let expected = [120u64, 360, 5040, 20160, 362880, 1814400];
    for (n, &states) in (6..=11).zip(&expected) {
        let space = TopSpin::new(n, 4).unwrap();
        let report = run(&space, TwoBitBfs, 2);
        assert_eq!(report.reachable, states, "top-spin ({n}, 4)");
        assert_eq!(run(&space, OneBitReachability, 2).reachable, states);
    }
}

#[test]
fn sliding_tile_spaces_and_depths_with_all_three_algorithms() {
    for (width, height, states, depth) in [
        (2, 3, 360, 21),
        (3, 2, 360, 21),
        (2, 4, 20160, 36),
        (3, 3, 181440, 31),
    ] {
        let space = SlidingTile::new(width, height).unwrap();
        let two_bit = run(&space, TwoBitBfs, 2);
        assert_eq!(two_bit.reachable, states, "{width}x{height}");
        assert_eq!(two_bit.max_depth(), Some(depth), "{width}x{height}");
        let one_bit = run(&space, OneBitBfs, 2);
        assert_eq!(
            one_bit.layers, two_bit.layers,
            "{width}x{height}: one-bit BFS"
        );
        let reach = run(&space, OneBitReachability, 2);
        assert_eq!(reach.reachable, states, "{width}x{height}: reachability");
        if (width, height) == (3, 3) {
            assert_eq!(
                *layers(&two_bit).last().unwrap(),
                2,
                "two 8-puzzle states at depth 31"
            );
        }
    }
}

#[test]
fn one_and_many_threads_agree_for_every_algorithm() {
    let tile = SlidingTile::new(3, 3).unwrap();
    let pancake = Pancake::new(8, true).unwrap();
    let spin = TopSpin::new(9, 4).unwrap();
    let [one, many] = thread_counts();
    for algorithm in [TwoBitBfs, OneBitBfs, OneBitReachability] {
        let (a, b) = (run(&tile, algorithm, one), run(&tile, algorithm, many));
        assert_eq!(
            (a.layers, a.reachable),
            (b.layers, b.reachable),
            "{algorithm:?}"
        );
    }
    for algorithm in [TwoBitBfs, OneBitReachability] {
        let (a, b) = (
            run(&pancake, algorithm, one),
            run(&pancake, algorithm, many),
        );
        assert_eq!(
            (a.layers, a.reachable),
            (b.layers, b.reachable),
            "{algorithm:?}"
        );
        let (a, b) = (run(&spin, algorithm, one), run(&spin, algorithm, many));
        assert_eq!(
            (a.layers, a.reachable),
            (b.layers, b.reachable),
            "{algorithm:?}"
        );
    }
}

#[test]
fn one_bit_bfs_without_alternation_is_a_clear_error() {
    let space = Pancake::new(5, false).unwrap();
    let options = bitsolve::search::SearchOptions::default();
    let error = OneBitBfs
        .run(&space, &CpuBackend, &options)
        .unwrap_err()
        .to_string();
    assert!(error.contains("move-alternation"), "{error}");
}
