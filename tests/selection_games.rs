//! Published numbers for the selection games of Edelkamp et al., *Solving
//! Games in Parallel with Linear-Time Perfect Hash Functions* (TZI report 52,
//! Bremen, 2009), section 7.2 and Tables 4-6: Peg Solitaire, Fore and Aft,
//! Frogs-and-Toads.

use std::collections::HashSet;

use crate::common::{layers, run, thread_counts};
use bitsolve::backend::CpuBackend;
use bitsolve::games::{Board, FrogsToads, PegSolitaire};
use bitsolve::search::Algorithm::{OneBitBfs, OneBitReachability, TwoBitBfs};
use bitsolve::search::{SearchOptions, SearchReport};
use bitsolve::space::Space;

/// Table 5 with its "Depth d" read as distance d - 1, and the two entries an
/// independent count corrects: distance 2 has 12 patterns (printed 13) and
/// distance 27 has 12,849 (printed 12,848); they cancel in the total.
const FORE_AND_AFT: [u64; 48] = [
    1, 8, 12, 14, 32, 58, 121, 178, 284, 494, 794, 1143, 1700, 2386, 3223, 4242, 5677, 7330, 8722,
    10084, 11501, 12879, 13997, 14804, 15433, 14981, 14015, 12849, 11666, 10439, 9334, 7858, 6075,
    4651, 3459, 2682, 1990, 1401, 914, 557, 348, 202, 137, 66, 32, 4, 11, 2,
];

/// English Peg Solitaire from the centre, by pegs 32 -> 1.
const ENGLISH: [u64; 32] = [
    1, 4, 12, 60, 296, 1338, 5648, 21842, 77559, 249690, 717788, 1834379, 4138302, 8171208,
    14020166, 20773236, 26482824, 28994876, 27286330, 22106348, 15425572, 9274496, 4792664,
    2120101, 800152, 255544, 68236, 14727, 2529, 334, 32, 5,
];

fn english(symmetry: bool) -> PegSolitaire {
    let board = Board::load("english").unwrap();
    let centre = board.centre().unwrap();
    PegSolitaire::new(board, &[centre], symmetry).unwrap()
}

fn run_with(
    space: &impl Space,
    algorithm: bitsolve::search::Algorithm,
    options: SearchOptions,
) -> SearchReport {
    algorithm.run(space, &CpuBackend, &options).unwrap()
}

#[test]
fn fore_and_aft_matches_table_5_as_corrected() {
    let game = FrogsToads::standard(3).unwrap();
    for threads in thread_counts() {
        let report = run(&game, TwoBitBfs, threads);
        assert_eq!(layers(&report), FORE_AND_AFT.to_vec(), "{threads} threads");
        assert_eq!(report.reachable, 218_790);
        assert_eq!(
            report.reachable,
            17 * 12_870,
            "17 * C(16, 8): every pattern"
        );
        assert_eq!(report.goals[0].distance, Some(46), "Dudeney's 46 moves");
        assert_eq!(report.max_depth(), Some(47));
        // The two patterns at 47: the reversed position with a far corner
        // piece moved into the centre.
        let reversed = game.reversed();
        let corner_to_centre = |corner: usize| {
            let mut state = reversed;
            let moved = reversed.black >> corner & 1;
            state.black = (reversed.black & !(1 << corner)) | (moved << reversed.empty);
            state.empty = corner;
            game.rank(&state)
        };
        let (first, last) = (0, game.board().cells() - 1);
        let mut expected = vec![corner_to_centre(first), corner_to_centre(last)];
        expected.sort();
        assert_eq!(report.deepest, expected);
    }
    assert_eq!(run(&game, OneBitReachability, 2).reachable, 218_790);
}

#[test]
fn frogs_and_toads_k2_and_k3_agree_on_one_and_many_threads() {
    for k in [2, 3] {
        let game = FrogsToads::standard(k).unwrap();
        let [one, many] = thread_counts();
        let (a, b) = (run(&game, TwoBitBfs, one), run(&game, TwoBitBfs, many));
        assert_eq!(a.layers, b.layers, "k = {k}");
        assert_eq!(a.goals, b.goals, "k = {k}");
        assert_eq!(a.deepest, b.deepest, "k = {k}");
    }
    let small = run(&FrogsToads::standard(2).unwrap(), TwoBitBfs, 2);
    assert_eq!(small.reachable, 7 * 20, "7 * C(6, 3): every pattern");
    assert_eq!(small.goals[0].distance, Some(15));
}

#[test]
fn english_peg_solitaire_down_to_20_pegs_without_symmetry() {
    let options = SearchOptions {
        max_depth: Some(12),
        ..Default::default()
    };
    let report = run_with(&english(false), OneBitBfs, options);
    assert_eq!(layers(&report), ENGLISH[..13].to_vec());
}

#[test]
fn english_peg_solitaire_in_full_with_symmetry() {
    let report = run(&english(true), OneBitBfs, 2);
    assert_eq!(layers(&report), ENGLISH.to_vec());
    assert_eq!(
        report.reachable, 187_636_299,
        "the paper's Table 4 prints 187,636,298"
    );
    assert_eq!(ENGLISH[30], 32, "two-peg positions: the paper prints 33");
    assert_eq!(
        report.goals[0].distance,
        Some(31),
        "one peg can end in the centre"
    );
    let stored: u64 = report.representatives.as_ref().unwrap().iter().sum();
    assert!(
        stored * 7 < report.reachable,
        "about one position in eight is stored"
    );
}

/// Boards small enough for brute force, with start holes where the single
/// peg can and cannot finish.
fn small_games() -> Vec<PegSolitaire> {
    let square = Board::parse("oooo\noooo\noooo\noooo\n", "square 4x4").unwrap();
    let wide = Board::parse("ooooo\nooooo\nooooo\n", "3x5").unwrap();
    let mut games = Vec::new();
    for board in [square, wide] {
        for hole in 0..board.cells() {
            games.push(PegSolitaire::new(board.clone(), &[hole], false).unwrap());
        }
    }
    games
}

#[test]
fn one_bit_two_bit_symmetry_and_reachability_agree_on_small_boards() {
    for game in small_games() {
        let two = run(&game, TwoBitBfs, 2);
        let one = run(&game, OneBitBfs, 2);
        assert_eq!(one.layers, two.layers, "{}", game.descriptor());
        assert_eq!(one.goals, two.goals, "{}", game.descriptor());
        assert_eq!(run(&game, OneBitReachability, 2).reachable, two.reachable);
        let hole = (0..game.cells())
            .find(|&c| game.start() >> c & 1 == 0)
            .unwrap();
        let symmetric = PegSolitaire::new(game.board().clone(), &[hole], true).unwrap();
        let reduced = run(&symmetric, OneBitBfs, 2);
        assert_eq!(
            reduced.layers,
            two.layers,
            "{} with symmetry",
            game.descriptor()
        );
        assert_eq!(run(&symmetric, TwoBitBfs, 2).layers, two.layers);
    }
}

/// Forward sets by peg count, and the positions that can still finish with
/// one peg in `goal`, found by undoing jumps from the goal.
fn brute_force_midpoints(game: &PegSolitaire, middle_pegs: u32) -> u64 {
    let board = game.board();
    let jumps: Vec<(u64, u64, u64)> = (0..board.cells())
        .flat_map(|from| {
            bitsolve::games::board::ORTHOGONAL
                .iter()
                .filter_map(move |&d| {
                    Some((
                        1u64 << from,
                        1u64 << board.step(from, d, 1)?,
                        1u64 << board.step(from, d, 2)?,
                    ))
                })
        })
        .collect();
    let closure = |start: u64, forward: bool| {
        let mut seen = HashSet::from([start]);
        let mut frontier = vec![start];
        while let Some(position) = frontier.pop() {
            for &(from, over, to) in &jumps {
                let (full, empty) = if forward {
                    (from | over, to)
                } else {
                    (to, from | over)
                };
                if position & full == full && position & empty == 0 {
                    let next = position ^ (from | over | to);
                    if seen.insert(next) {
                        frontier.push(next);
                    }
                }
            }
        }
        seen
    };
    let hole = (0..game.cells())
        .find(|&c| game.start() >> c & 1 == 0)
        .unwrap();
    let reachable = closure(game.start(), true);
    let finishing = closure(1 << hole, false);
    reachable
        .iter()
        .filter(|p| p.count_ones() == middle_pegs && finishing.contains(p))
        .count() as u64
}

#[test]
fn meeting_in_the_middle_finds_exactly_the_solution_midpoints() {
    let mut solvable = 0;
    for game in small_games() {
        let options = SearchOptions {
            meet_in_middle: true,
            ..Default::default()
        };
        let report = run_with(&game, OneBitBfs, options);
        let meet = report.meet.clone().unwrap();
        let middle_pegs = (game.start_pegs() - meet.middle_layer) as u32;
        assert_eq!(
            meet.midpoints,
            brute_force_midpoints(&game, middle_pegs),
            "{}",
            game.descriptor()
        );
        let full = run(&game, OneBitBfs, 2);
        assert_eq!(
            report.goals[0].reached,
            full.goals[0].reached,
            "{}",
            game.descriptor()
        );
        solvable += full.goals[0].reached as usize;
    }
    assert!(
        solvable > 0,
        "some small boards must be solvable for the test to mean anything"
    );
}

/// The committed k = 4 layer table (`data/reference/frogs-toads-4.txt`).
fn reference_layers() -> Vec<u64> {
    let reference = std::fs::read_to_string("data/reference/frogs-toads-4.txt").unwrap();
    reference
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect()
}

/// The first layers of Frogs-and-Toads k = 4 recounted by a plain
/// breadth-first search over explicit positions (no hashing, no tables):
/// distance 2 has 16 patterns, where the paper's Table 6 prints 17 (its
/// total then exceeds the number of patterns by one).
#[test]
fn frogs_and_toads_k4_first_layers_by_an_independent_search() {
    let game = FrogsToads::standard(4).unwrap();
    let board = game.board();
    let start = game.start();
    let mut seen = HashSet::from([(start.empty, start.black)]);
    let mut frontier = vec![(start.empty, start.black)];
    let mut independent = vec![1u64];
    for _ in 0..6 {
        let mut next = Vec::new();
        for &(empty, black) in &frontier {
            for direction in bitsolve::games::board::ORTHOGONAL {
                for steps in 1..=2 {
                    if let Some(from) = board.step(empty, direction, steps) {
                        if steps == 2 && board.step(empty, direction, 1).is_none() {
                            continue;
                        }
                        let moved = (black >> from) & 1;
                        let position = (from, (black & !(1 << from)) | (moved << empty));
                        if seen.insert(position) {
                            next.push(position);
                        }
                    }
                }
            }
        }
        independent.push(next.len() as u64);
        frontier = next;
    }
    assert_eq!(independent, vec![1, 8, 16, 26, 46, 78, 169]);
    let options = SearchOptions {
        max_depth: Some(6),
        ..Default::default()
    };
    assert_eq!(layers(&run_with(&game, TwoBitBfs, options)), independent);
    let committed = reference_layers();
    assert_eq!(committed[..7], independent[..]);
    assert_eq!(committed.iter().sum::<u64>(), game.size());
}

/// The whole k = 4 search (about 11 minutes on two cores) against the
/// committed reference table: `cargo test --release -- --ignored frogs_toads_k4`.
#[test]
#[ignore]
fn frogs_toads_k4_full_search_matches_the_reference_table() {
    let game = FrogsToads::standard(4).unwrap();
    let report = run(&game, TwoBitBfs, 2);
    assert_eq!(layers(&report), reference_layers());
    assert_eq!(report.goals[0].distance, Some(115));
    assert_eq!(report.max_depth(), Some(117));
}
