//! Dodgem through the generic two-bit retrograde solver, against an
//! independent solver (its own board and move rules, values by plain
//! fixpoint iteration over the positions reachable from the start) and
//! against the published values: 3 x 3 is a first-player win (Winning
//! Ways), 4 x 4 a draw (des Jardins).

use crate::common::bitsolve_with_input;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use bitsolve::backend::CpuBackend;
use bitsolve::games::dodgem::DodgemState;
use bitsolve::games::{Dodgem, TwoPlayerGame};
use bitsolve::search::Silent;
use bitsolve::search::retro2::distances::{LayerDistances, NO_DISTANCE, layer_distances};
use bitsolve::search::retro2::{RetroOptions, open_layer, solve_layers};
use bitsolve::space::{LayeredGame, Value};
use bitsolve::table::{Backing, TwoBitTable};

/// A board as the independent solver sees it: `cells[row][column]` with
/// row 0 at the bottom; 0 empty, 1 blue, 2 red; and whether blue moves.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Board {
    cells: Vec<Vec<u8>>,
    blue_to_move: bool,
}

impl Board {
    fn start(n: usize) -> Board {
        let mut cells = vec![vec![0; n]; n];
        for row in cells.iter_mut().skip(1) {
            row[0] = 1;
        }
        cells[0][1..].fill(2);
        Board {
            cells,
            blue_to_move: true,
        }
    }

    /// Every position one move away: blue steps right, up or down and
    /// leaves past the right edge; red steps up, left or right and leaves
    /// past the top edge.
    fn moves(&self) -> Vec<Board> {
        let n = self.cells.len() as i32;
        let (car, steps) = if self.blue_to_move {
            (1, [(0, 1), (1, 0), (-1, 0)])
        } else {
            (2, [(1, 0), (0, -1), (0, 1)])
        };
        let mut found = Vec::new();
        for row in 0..n {
            for column in 0..n {
                if self.cells[row as usize][column as usize] != car {
                    continue;
                }
                for (index, (dr, dc)) in steps.into_iter().enumerate() {
                    let (r, c) = (row + dr, column + dc);
                    let inside = (0..n).contains(&r) && (0..n).contains(&c);
                    if !inside && index != 0 {
                        continue;
                    }
                    if inside && self.cells[r as usize][c as usize] != 0 {
                        continue;
                    }
                    let mut next = self.clone();
                    next.cells[row as usize][column as usize] = 0;
                    if inside {
                        next.cells[r as usize][c as usize] = car;
                    }
                    next.blue_to_move = !self.blue_to_move;
                    found.push(next);
                }
            }
        }
        found
    }

    fn library_state(&self) -> DodgemState {
        let n = self.cells.len();
        let mask = |car| {
            (0..n * n)
                .filter(|&s| self.cells[s / n][s % n] == car)
                .fold(0u64, |m, s| m | 1 << s)
        };
        DodgemState {
            blue: mask(1),
            red: mask(2),
            blue_to_move: self.blue_to_move,
        }
    }
}

/// Values of every position reachable from the start: a mover without
/// moves wins; a position with a move to one lost for the opponent is won;
/// one whose moves all lead to the opponent's wins is lost; what the
/// fixpoint leaves is drawn. With each value, the distance to the end
/// under optimal play ([`NO_DISTANCE`] for draws).
fn independent_values(n: usize) -> HashMap<Board, (Value, u16)> {
    let mut reachable = vec![Board::start(n)];
    let mut index: HashMap<Board, usize> = HashMap::from([(Board::start(n), 0)]);
    let mut edges: Vec<Vec<usize>> = Vec::new();
    let mut next = 0;
    while next < reachable.len() {
        let mut targets = Vec::new();
        for successor in reachable[next].moves() {
            let id = *index.entry(successor.clone()).or_insert_with(|| {
                reachable.push(successor);
                reachable.len() - 1
            });
            targets.push(id);
        }
        edges.push(targets);
        next += 1;
    }
    let mover_wins = |board: &Board| {
        if board.blue_to_move {
            Value::FirstWins
        } else {
            Value::SecondWins
        }
    };
    let opponent_wins = |board: &Board| {
        if board.blue_to_move {
            Value::SecondWins
        } else {
            Value::FirstWins
        }
    };
    let mut values = vec![Value::Unknown; reachable.len()];
    loop {
        let mut changed = false;
        for (id, board) in reachable.iter().enumerate() {
            if values[id] != Value::Unknown {
                continue;
            }
            let moves = &edges[id];
            let value = if moves.is_empty() || moves.iter().any(|&m| values[m] == mover_wins(board))
            {
                mover_wins(board)
            } else if moves.iter().all(|&m| values[m] == opponent_wins(board)) {
                opponent_wins(board)
            } else {
                continue;
            };
            values[id] = value;
            changed = true;
        }
        if !changed {
            break;
        }
    }
    // Distances by plain relaxation from "unknown" until nothing changes:
    // a win takes its nearest move into a loss for the opponent, a loss its
    // farthest move, once every move has a distance.
    let mut distances = vec![NO_DISTANCE; reachable.len()];
    loop {
        let mut changed = false;
        for (id, board) in reachable.iter().enumerate() {
            let moves = &edges[id];
            let relaxed = if moves.is_empty() {
                0
            } else if values[id] == mover_wins(board) {
                moves
                    .iter()
                    .filter(|&&m| values[m] == mover_wins(board) && distances[m] != NO_DISTANCE)
                    .map(|&m| distances[m] + 1)
                    .min()
                    .unwrap_or(NO_DISTANCE)
            } else if values[id] == opponent_wins(board)
                && moves.iter().all(|&m| distances[m] != NO_DISTANCE)
            {
                moves.iter().map(|&m| distances[m] + 1).max().unwrap()
            } else {
                NO_DISTANCE
            };
            if relaxed != distances[id] {
                distances[id] = relaxed;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    reachable
        .into_iter()
        .zip(values)
        .zip(distances)
        .map(|((board, value), distance)| {
            let value = if value == Value::Unknown {
                Value::Draw
            } else {
                value
            };
            (board, (value, distance))
        })
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitsolve-dodgem-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Solves every layer into a store and opens them for reading.
fn solved_layers(game: &Dodgem, dir: &Path) -> Vec<TwoBitTable> {
    let options = RetroOptions {
        backing: Backing::Directory(dir.to_path_buf()),
        ..Default::default()
    };
    solve_layers(&CpuBackend, game, game.max_layer(), &options).unwrap();
    (0..=game.max_layer())
        .map(|layer| {
            open_layer(game, layer, &Backing::ReadOnly(dir.to_path_buf()), &Silent)
                .unwrap()
                .0
        })
        .collect()
}

fn check_against_independent_values(n: usize, expected_start: Value) {
    let game = Dodgem::new(n).unwrap();
    let dir = scratch(&format!("n{n}"));
    let tables = solved_layers(&game, &dir);
    let independent = independent_values(n);
    // Distances layer by layer, each reading the one below.
    let value = |layer: usize, rank: u64| Value::from_bits(tables[layer].get(rank));
    let mut distances: Vec<Vec<u16>> = Vec::new();
    for layer in 0..=game.max_layer() {
        let lower = if layer == 0 {
            LayerDistances::default()
        } else {
            LayerDistances::from_distances(distances[layer - 1].iter().copied())
        };
        let found = layer_distances(&game, layer, &value, &lower)
            .unwrap()
            .iter()
            .collect::<Vec<u16>>();
        distances.push(found);
    }
    let mut tally: HashMap<Value, usize> = HashMap::new();
    let mut longest = 0;
    for (board, &(expected, distance)) in &independent {
        let state = board.library_state();
        let layer = game.layer_of(&state);
        let rank = game.rank_of(&state);
        assert_eq!(
            value(layer, rank),
            expected,
            "{}",
            game.position_text(&state)
        );
        assert_eq!(
            distances[layer][rank as usize],
            distance,
            "{}",
            game.position_text(&state)
        );
        if distance != NO_DISTANCE {
            longest = longest.max(distance);
        }
        *tally.entry(expected).or_default() += 1;
    }
    println!("{n} x {n}: longest finite distance {longest} plies");
    let start = game.start();
    let start_value = Value::from_bits(tables[game.max_layer()].get(game.rank_of(&start)));
    assert_eq!(start_value, expected_start);
    if expected_start == Value::FirstWins {
        let plies = distances[game.max_layer()][game.rank_of(&start) as usize];
        println!("{n} x {n}: the start is won in {plies} plies");
    }
    println!(
        "{n} x {n}: {} reachable positions, {tally:?}",
        independent.len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn three_by_three_is_a_first_player_win_as_winning_ways_says() {
    check_against_independent_values(3, Value::FirstWins);
}

#[test]
fn four_by_four_is_a_draw_as_des_jardins_found() {
    check_against_independent_values(4, Value::Draw);
}

#[test]
fn threads_and_layers_agree() {
    let game = Dodgem::new(4).unwrap();
    let mut reports = Vec::new();
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let report = pool
            .install(|| {
                solve_layers(
                    &CpuBackend,
                    &game,
                    game.max_layer(),
                    &RetroOptions::default(),
                )
            })
            .unwrap();
        reports.push(
            report
                .iter()
                .map(|r| (r.layer, r.states, r.first_wins, r.second_wins, r.draws))
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(reports[0], reports[1]);
    // Layer sizes: 2 sides x blue cars among 16 squares x red among the rest.
    let sizes: Vec<u64> = reports[0].iter().map(|r| r.1).collect();
    assert_eq!(sizes[6], 2 * 560 * 286);
    assert_eq!(game.layer_size(6), sizes[6]);
}

#[test]
fn retro_query_and_play_run_dodgem_through_the_generic_commands() {
    let dir = scratch("cli");
    let store = dir.to_str().unwrap();
    // No range given: Dodgem solves every layer; --distances keeps the
    // distances to the end beside the values.
    let (ok, stdout, stderr) = bitsolve_with_input(
        &["retro", "dodgem", "--store", store, "--distances", "--json"],
        "",
    );
    assert!(ok, "{stderr}");
    let solved: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(solved["sides"], serde_json::json!(["blue", "red"]));
    let top = &solved["layers"][3];
    assert_eq!(
        (top["layer"].as_u64(), top["states"].as_u64()),
        (Some(4), Some(1_512))
    );
    assert_eq!(
        top["won_for_blue"].as_u64().unwrap() + top["won_for_red"].as_u64().unwrap(),
        1_512
    );
    assert_eq!(top["longest_distance"], 22);

    // The start is won for blue, by a3-b3 only.
    let start = "B../B../.RR:blue";
    let (ok, stdout, stderr) = bitsolve_with_input(
        &[
            "query",
            "dodgem",
            "--store",
            store,
            "--position",
            start,
            "--json",
        ],
        "",
    );
    assert!(ok, "{stderr}");
    let answer: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(answer["value"], "won for blue");
    assert_eq!(answer["to_move"], "blue");
    // Blue wins in 20 plies; its winning move leaves a position 19 from the end.
    assert_eq!(answer["distance"], 20);
    let best = &answer["moves"][2];
    assert_eq!(
        (best["move"].as_str(), best["distance"].as_u64()),
        (Some("a3-b3"), Some(19))
    );
    let winning: Vec<&str> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["value"] == "won for blue")
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(winning, ["a3-b3"]);

    // Playing red: the program opens with its only winning move, refuses
    // an illegal one, and 'quit' ends the game.
    let (ok, stdout, stderr) = bitsolve_with_input(
        &["play", "dodgem", "--store", store, "--side", "red"],
        "a1-a2\nquit\n",
    );
    assert!(ok, "{stderr}");
    assert!(stdout.contains("bitsolve plays a3-b3"), "{stdout}");
    assert!(
        stdout.contains("'a1-a2' is not a legal move here"),
        "{stdout}"
    );

    for (args, expected) in [
        (vec!["retro", "dodgem", "--distances"], "give --store"),
        (
            vec!["play", "dodgem", "--store", store, "--side", "fox"],
            "--side blue|red",
        ),
        (
            vec![
                "query",
                "dodgem",
                "--n",
                "4",
                "--store",
                store,
                "--position",
                "B.../B.../B.../.RRR:blue",
            ],
            "the layer of 6 cars solved with --n 4 is not in",
        ),
        (vec!["retro", "dodgem", "--n", "7"], "3 to 5 squares"),
        (
            vec![
                "query",
                "dodgem",
                "--store",
                store,
                "--position",
                "B../B../.RR",
            ],
            "':blue' or ':red'",
        ),
    ] {
        let (ok, stdout, stderr) = bitsolve_with_input(&args, "");
        assert!(!ok && stdout.is_empty(), "{args:?}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
