//! Optimal solutions (`bitsolve solve` and [`DepthTable`]): every position
//! of small spaces gets a legal move sequence as long as its distance from a
//! plain queue-based BFS, and the table of depths mod 3 behind them agrees
//! with the plain two-bit BFS, resumes after a crash, and is reused from a
//! store.

use crate::common;

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::process::Command;

use bitsolve::backend::CpuBackend;
use bitsolve::games::{Board, FrogsToads, Pancake, PegSolitaire, SlidingTile, TopSpin};
use bitsolve::search::{Algorithm, DepthTable, SearchOptions, Target, two_bit_bfs_keeping_depths};
use bitsolve::space::{MoveFilter, Picture, Space};
use bitsolve::table::Backing;

const UNREACHED: u32 = u32::MAX;

/// Distances from `sources` by a plain queue-based BFS over `expand`.
fn queue_bfs<S: Space>(space: &S, sources: &[u64]) -> Vec<u32> {
    let mut distance = vec![UNREACHED; space.size() as usize];
    let mut queue = VecDeque::new();
    for &source in sources {
        distance[source as usize] = 0;
        queue.push_back(source);
    }
    let mut state = space.new_state();
    while let Some(rank) = queue.pop_front() {
        space.unrank(rank, &mut state);
        let next = distance[rank as usize] + 1;
        space.expand(&state, MoveFilter::All, |successor| {
            if distance[successor as usize] == UNREACHED {
                distance[successor as usize] = next;
                queue.push_back(successor);
            }
        });
    }
    distance
}

fn successor_ranks<S: Space>(space: &S, state: &S::State) -> Vec<u64> {
    let mut ranks = Vec::new();
    space.expand(state, MoveFilter::All, |rank| ranks.push(rank));
    ranks
}

/// Solves every position with a finite `distance` and checks the sequence:
/// it starts at the position, each step is a move, it ends at `targets`,
/// and it is exactly `distance` moves long; positions without a distance
/// are refused.
fn every_solution_is_shortest<S: Space + Picture>(space: &S, distance: &[u32], targets: &[u64]) {
    let mut table = DepthTable::build(space, &CpuBackend, &SearchOptions::default()).unwrap();
    let mut state = space.new_state();
    let mut solved = 0;
    for rank in 0..space.size() {
        space.unrank(rank, &mut state);
        if space.rank(&state) != rank {
            continue;
        }
        let Some(&wanted) = distance.get(rank as usize).filter(|&&d| d != UNREACHED) else {
            let error = match table.solution(&state) {
                Ok(_) => panic!("{} has no solution", space.position_text(&state)),
                Err(error) => error.to_string(),
            };
            assert!(error.contains("cannot reach"), "{error}");
            continue;
        };
        let path = table.solution(&state).unwrap();
        assert_eq!(
            path.len() as u32,
            wanted + 1,
            "{}",
            space.position_text(&state)
        );
        assert_eq!(space.rank(&path[0]), rank);
        for step in path.windows(2) {
            let to = space.rank(&step[1]);
            assert!(
                successor_ranks(space, &step[0]).contains(&to),
                "an illegal step"
            );
        }
        assert!(targets.contains(&space.rank(path.last().unwrap())));
        solved += 1;
    }
    assert!(solved > 0);
}

#[test]
fn pancake_solutions_are_shortest_from_every_stack() {
    for (n, burned) in [(7, false), (4, true)] {
        let space = Pancake::new(n, burned).unwrap();
        let distance = queue_bfs(&space, &space.start_ranks());
        every_solution_is_shortest(&space, &distance, &space.start_ranks());
    }
}

#[test]
fn sliding_tile_and_top_spin_solutions_are_shortest_from_every_position() {
    let tiles = SlidingTile::new(3, 2).unwrap();
    let distance = queue_bfs(&tiles, &tiles.start_ranks());
    // The space holds the goal's parity class only (6!/2 boards): all reached.
    assert_eq!(distance.iter().filter(|&&d| d != UNREACHED).count(), 360);
    every_solution_is_shortest(&tiles, &distance, &tiles.start_ranks());
    let ring = TopSpin::new(7, 4).unwrap();
    let distance = queue_bfs(&ring, &ring.start_ranks());
    every_solution_is_shortest(&ring, &distance, &ring.start_ranks());
}

#[test]
fn fore_and_aft_solutions_reach_the_reversed_position_in_46_moves_from_the_start() {
    let game = FrogsToads::standard(3).unwrap();
    assert_eq!(Target::of(&game).unwrap(), Target::Goal);
    // Moves can be undone: the distance to the goal is a BFS from it.
    let distance = queue_bfs(&game, &game.goal_ranks());
    every_solution_is_shortest(&game, &distance, &game.goal_ranks());
    let mut table = DepthTable::build(&game, &CpuBackend, &SearchOptions::default()).unwrap();
    let mut start = game.new_state();
    game.unrank(game.start_ranks()[0], &mut start);
    // Sam Loyd's Fore and Aft takes 46 moves.
    assert_eq!(table.solution(&start).unwrap().len(), 47);
}

#[test]
fn peg_solitaire_solutions_reach_the_goal_from_every_position_that_can() {
    // 3 x 5 holes, the start hole at c3 (cell 8): solvable in 13 jumps.
    let board = Board::parse("ooo\nooo\nooo\nooo\nooo\n", "3x5").unwrap();
    let game = PegSolitaire::new(board, &[8], false).unwrap();
    assert_eq!(Target::of(&game).unwrap(), Target::Goal);
    // Which positions can reach the goal, by recursion over fewer pegs:
    // every jump removes one, so the distance is the pegs left minus one.
    let goal = game.goal_ranks()[0];
    let mut order: Vec<u64> = (0..game.size()).collect();
    let mut state = game.new_state();
    let pegs = |rank: u64, state: &mut _| {
        game.unrank(rank, state);
        game.position_text(state).matches('o').count() as u32
    };
    order.sort_by_key(|&rank| pegs(rank, &mut state));
    let mut distance = vec![UNREACHED; game.size() as usize];
    for rank in order {
        game.unrank(rank, &mut state);
        let solvable = rank == goal
            || successor_ranks(&game, &state)
                .iter()
                .any(|&next| distance[next as usize] != UNREACHED);
        if solvable {
            distance[rank as usize] = pegs(rank, &mut state) - 1;
        }
    }
    let start = game.start_ranks()[0];
    assert_eq!(distance[start as usize], 13);
    every_solution_is_shortest(&game, &distance, &[goal]);
}

#[test]
fn the_table_of_depths_has_the_plain_bfs_layers_and_every_residue() {
    let board = Board::parse("ooo\nooo\nooo\nooo\nooo\n", "3x5").unwrap();
    let peg = PegSolitaire::new(board, &[8], false).unwrap();
    let tiles = SlidingTile::new(3, 3).unwrap();
    let pancake = Pancake::new(8, false).unwrap();
    fn check<S: Space>(space: &S) {
        let plain = common::run(space, Algorithm::TwoBitBfs, 1);
        let distance = queue_bfs(space, &space.start_ranks());
        for threads in common::thread_counts() {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let (report, mut table) =
                    two_bit_bfs_keeping_depths(space, &CpuBackend, &SearchOptions::default())
                        .unwrap();
                assert_eq!(report.layers, plain.layers, "{}", space.descriptor());
                assert_eq!(report.goals, plain.goals);
                let ranks: Vec<u64> = (0..space.size()).collect();
                let cells = table.cells(&ranks).unwrap();
                for (rank, &cell) in cells.iter().enumerate() {
                    let expected = match distance[rank] {
                        UNREACHED => 3,
                        d => (d % 3) as u8,
                    };
                    assert_eq!(cell, expected, "rank {rank}");
                }
            });
        }
    }
    check(&peg);
    check(&tiles);
    check(&pancake);
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitsolve-solve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_crashed_build_resumes_to_the_same_table_and_is_then_read_from_the_store() {
    // 3 x 3 tiles: a move-alternation layering, and a late switch to
    // checking parents; crashes land inside layers of both kinds.
    let space = SlidingTile::new(3, 3).unwrap();
    let (expected, mut fresh) =
        two_bit_bfs_keeping_depths(&space, &CpuBackend, &SearchOptions::default()).unwrap();
    let ranks: Vec<u64> = (0..space.size()).collect();
    let expected_cells = fresh.cells(&ranks).unwrap();
    for crash_after in [3, 40, 150] {
        let dir = scratch_dir(&format!("crash-{crash_after}"));
        let crash = common::Crash::after(crash_after);
        let crashing = SearchOptions {
            backing: Backing::Directory(dir.clone()),
            progress: &crash,
            ..Default::default()
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            two_bit_bfs_keeping_depths(&space, &CpuBackend, &crashing).map(|_| ())
        }));
        assert!(
            outcome.is_err(),
            "finished before the crash at {crash_after}"
        );
        let stored = SearchOptions {
            backing: Backing::Directory(dir.clone()),
            ..Default::default()
        };
        let (resumed, mut table) =
            two_bit_bfs_keeping_depths(&space, &CpuBackend, &stored).unwrap();
        assert!(resumed.resumed_from.is_some());
        assert_eq!(resumed.layers, expected.layers, "crash after {crash_after}");
        assert_eq!(table.cells(&ranks).unwrap(), expected_cells);
        drop(table);
        let (reread, _) = two_bit_bfs_keeping_depths(&space, &CpuBackend, &stored).unwrap();
        assert_eq!((reread.passes, reread.layers), (0, expected.layers.clone()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

fn bitsolve(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn the_command_prints_a_legal_optimal_sequence_as_json_and_reuses_its_store() {
    let dir = scratch_dir("cli");
    let store = dir.to_str().unwrap();
    let args = |position: &'static str| {
        vec![
            "solve",
            "pancake",
            "--n",
            "7",
            "--position",
            position,
            "--store",
            store,
            "--json",
        ]
    };
    let space = Pancake::new(7, false).unwrap();
    let distance = queue_bfs(&space, &space.start_ranks());
    let mut from_store = Vec::new();
    for position in ["3,1,2,7,5,4,6", "7,6,5,4,3,2,1", "1,2,3,4,5,6,7"] {
        let (ok, stdout, stderr) = bitsolve(&args(position));
        assert!(ok, "{stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let from = space.parse_position(position).unwrap();
        assert_eq!(json["position"], position);
        assert_eq!(json["target"], "start");
        let length = json["length"].as_u64().unwrap();
        assert_eq!(length, distance[space.rank(&from) as usize] as u64);
        let moves = json["moves"].as_array().unwrap();
        assert_eq!(moves.len() as u64, length);
        let mut state = from;
        for step in moves {
            let next = space
                .parse_position(step["position"].as_str().unwrap())
                .unwrap();
            assert!(successor_ranks(&space, &state).contains(&space.rank(&next)));
            assert_eq!(step["move"], space.move_name(&state, &next));
            state = next;
        }
        assert_eq!(space.rank(&state), 0);
        from_store.push(json["table"]["from_store"].as_bool().unwrap());
    }
    assert_eq!(from_store, [false, true, true]);
    // The person's form: the length, then each move with its board.
    let (ok, stdout, _) = bitsolve(&[
        "solve",
        "pancake",
        "--n",
        "7",
        "--position",
        "2,1,3,4,5,6,7",
    ]);
    assert!(ok);
    assert!(
        stdout.contains("optimal solution to the start position: 1 move\n"),
        "{stdout}"
    );
    assert!(stdout.contains("  1. flip 2\n"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn positions_and_games_it_cannot_solve_are_one_line_errors() {
    let english = "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo";
    let dir = scratch_dir("errors");
    std::fs::create_dir_all(&dir).unwrap();
    let board = dir.join("3x5.txt");
    std::fs::write(&board, "ooo\nooo\nooo\nooo\nooo\n").unwrap();
    let board = board.to_str().unwrap();
    for (args, expected) in [
        (vec!["solve", "pancake", "--n", "5"], "give --position"),
        (
            vec!["solve", "pancake", "--n", "5", "--position", "1,2,3"],
            "needs 5 sizes",
        ),
        (
            vec![
                "solve",
                "peg-solitaire",
                "--symmetry",
                "--position",
                english,
            ],
            "drop --symmetry",
        ),
        (
            // A full board: its inverse, the empty board, is never reached.
            vec![
                "solve",
                "peg-solitaire",
                "--board",
                board,
                "--start-hole",
                "c3",
                "--position",
                "ooo/ooo/ooo/ooo/ooo",
            ],
            "cannot reach the goal",
        ),
        (
            vec!["solve", "fox-geese", "--position", "x"],
            "unrecognized",
        ),
    ] {
        let (ok, stdout, stderr) = bitsolve(&args);
        assert!(!ok, "{args:?}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
