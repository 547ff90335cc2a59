//! Puzzles read from definition files (`bitsolve … ksolve --file F`)
//! through the binary: the same layers on one thread, all threads, the GPU
//! (software Vulkan in CI) and a resumed store; `info`'s spaces; optimal
//! solutions from positions, scrambles and move sequences; one-line errors.
//! (`tests/ksolve_oracle.rs` checks the layers against a search written
//! without the library.)

use crate::common::{ScratchDir, bitsolve, bitsolve_json};

use std::path::{Path, PathBuf};

use serde_json::Value;

fn definition(name: &str) -> String {
    Path::new(crate::common::ROOT)
        .join("data/ksolve")
        .join(name)
        .display()
        .to_string()
}

/// The one error line of a refused command.
fn refusal(args: &[&str]) -> String {
    let output = bitsolve(args);
    assert!(!output.status.success(), "{args:?} was accepted");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    stderr
}

/// A path of this test's own, in a directory removed when the guard
/// returned with it is dropped.
fn scratch(name: &str) -> (ScratchDir, PathBuf) {
    let dir = ScratchDir::new("ksolve", name);
    let path = dir.join(name);
    (dir, path)
}

/// The layers of `file` searched on the GPU (to `max_depth` where given),
/// or none where the GPU backend does not run: it always runs in CI
/// (lavapipe), elsewhere only when an adapter opens.
fn gpu_layers(file: &str, max_depth: Option<usize>) -> Option<Value> {
    let depth = max_depth.map(|depth| depth.to_string());
    let mut args = vec![
        "bfs",
        "ksolve",
        "--file",
        file,
        "--backend",
        "gpu",
        "--json",
    ];
    if let Some(depth) = &depth {
        args.extend(["--max-depth", depth]);
    }
    let output = bitsolve(&args);
    if output.status.success() {
        return Some(serde_json::from_slice::<Value>(&output.stdout).unwrap()["layers"].clone());
    }
    let message = String::from_utf8_lossy(&output.stderr);
    crate::common::skip::skipping(&format!(
        "{} ({})",
        crate::common::skip::NO_VULKAN,
        message.trim()
    ));
    None
}

#[test]
fn threads_the_gpu_and_a_resumed_store_give_the_same_layers() {
    // The Skewb on the GPU to depth 8 (1.6 M of its 3.1 M positions): on
    // lavapipe its last three layers took 15 of the run's 19 seconds.
    for (name, gpu_depth) in [
        ("pocket-cube-fixed-corner.tws", None),
        ("pyraminx-no-tips.tws", None),
        ("skewb.tws", Some(8)),
        ("pocket-cube-two-colours.tws", None),
    ] {
        let file = definition(name);
        let one = bitsolve_json(&["bfs", "ksolve", "--file", &file, "--threads", "1", "--json"]);
        let all = bitsolve_json(&["bfs", "ksolve", "--file", &file, "--json"]);
        assert_eq!(one["layers"], all["layers"], "{name}");
        if let Some(gpu) = gpu_layers(&file, gpu_depth) {
            let layers = one["layers"].as_array().unwrap();
            let expected = &layers[..gpu_depth.map_or(layers.len(), |depth| depth + 1)];
            assert_eq!(gpu.as_array().unwrap(), expected, "{name} on the GPU");
        }
        let (_store_dir, store) = scratch(&format!("store-{name}"));
        let store_text = store.display().to_string();
        let stored_run = || {
            bitsolve_json(&[
                "bfs",
                "ksolve",
                "--file",
                &file,
                "--store",
                &store_text,
                "--json",
            ])
        };
        let stored = stored_run();
        assert_eq!(stored["layers"], one["layers"], "{name} stored");
        let again = stored_run();
        assert_eq!(again["layers"], one["layers"], "{name} from the store");
        assert!(!again["resumed_from"].is_null(), "{name}: {again}");
        // A reachability run agrees on the total.
        let reach = bitsolve_json(&[
            "bfs", "ksolve", "--file", &file, "--algo", "reach", "--json",
        ]);
        assert_eq!(reach["total"], one["total"], "{name} reach");
    }
}

#[test]
fn the_fixed_corner_cube_is_the_built_in_pocket_cube_in_both_metrics() {
    let file = definition("pocket-cube-fixed-corner.tws");
    for (metric, cube_metric) in [("powers", "htm"), ("quarter", "qtm")] {
        let read = bitsolve_json(&[
            "bfs", "ksolve", "--file", &file, "--metric", metric, "--json",
        ]);
        let built_in = bitsolve_json(&["bfs", "pocket-cube", "--metric", cube_metric, "--json"]);
        assert_eq!(read["layers"], built_in["layers"], "{metric}");
        assert_eq!(read["space_size"], 3_674_160);
        assert_eq!(read["total"], 3_674_160);
    }
}

#[test]
fn info_tells_the_product_and_folded_spaces_and_the_moves() {
    let info = bitsolve_json(&[
        "info",
        "ksolve",
        "--file",
        &definition("pocket-cube.tws"),
        "--json",
    ]);
    let details = &info["details"];
    // 8! arrangements and 3^8 twists; the twist sum is kept (3^7).
    assert_eq!(info["states"], 88_179_840);
    assert_eq!(details["folded space"], "88179840");
    assert_eq!(details["product space"], "2.645e8");
    assert!(
        details["moves"].as_str().unwrap().starts_with("18 (powers"),
        "{details}"
    );
    let quarter = bitsolve_json(&[
        "info",
        "ksolve",
        "--file",
        &definition("pocket-cube.tws"),
        "--metric",
        "quarter",
        "--json",
    ]);
    assert!(
        quarter["details"]["moves"]
            .as_str()
            .unwrap()
            .starts_with("12 (quarter")
    );
    let text = String::from_utf8(
        bitsolve(&[
            "info",
            "ksolve",
            "--file",
            &definition("pyraminx-no-tips.tws"),
        ])
        .stdout,
    )
    .unwrap();
    assert!(text.contains("folded space  933120"), "{text}");
}

/// Applies `moves` (names) to the solved state by asking `solve` for the
/// position after each prefix: the last position must be the solved one.
#[test]
fn solve_walks_from_positions_scrambles_and_move_sequences_to_the_solved_state() {
    let file = definition("pocket-cube-fixed-corner.tws");
    let from_moves = bitsolve_json(&[
        "solve",
        "ksolve",
        "--file",
        &file,
        "--moves",
        "R U R' U' F2 U R",
        "--json",
    ]);
    let length = from_moves["length"].as_u64().unwrap();
    assert!(length <= 7, "{from_moves}");
    let solved = bitsolve_json(&["solve", "ksolve", "--file", &file, "--moves", "", "--json"]);
    assert_eq!(solved["length"], 0);
    let solved_text = solved["position"].as_str().unwrap().to_string();
    let steps = from_moves["moves"].as_array().unwrap();
    assert_eq!(steps.len() as u64, length);
    assert_eq!(steps.last().unwrap()["position"], solved_text);
    // The solution's moves, replayed from the start position, reach the
    // solved state, and the start position read back solves the same way.
    let replay: Vec<&str> = steps.iter().map(|s| s["move"].as_str().unwrap()).collect();
    let position = from_moves["position"].as_str().unwrap();
    let again = bitsolve_json(&[
        "solve",
        "ksolve",
        "--file",
        &file,
        "--position",
        position,
        "--json",
    ]);
    assert_eq!(again["length"], length);
    // Undoing the solution from the solved state gives back the position.
    let undone: Vec<String> = replay
        .iter()
        .rev()
        .map(|m| match m.strip_suffix('\'') {
            Some(base) => base.to_string(),
            None if m.ends_with('2') => m.to_string(),
            None => format!("{m}'"),
        })
        .collect();
    let back = bitsolve_json(&[
        "solve",
        "ksolve",
        "--file",
        &file,
        "--moves",
        &undone.join(" "),
        "--json",
    ]);
    assert_eq!(back["position"], position);
    // A Scramble block of the file.
    let scrambled = bitsolve_json(&[
        "solve",
        "ksolve",
        "--file",
        &definition("pyraminx-no-tips.tws"),
        "--scramble",
        "antipode",
        "--json",
    ]);
    assert_eq!(scrambled["length"], 11, "{scrambled}");
}

#[test]
fn bad_files_options_and_positions_are_one_line_errors() {
    let (_bad_dir, bad) = scratch("bad.tws");
    std::fs::write(
        &bad,
        "Name Bad\nSet C 3 1\nSolved\nC\n1 2 3\nEnd\nIllegal\nEnd\n",
    )
    .unwrap();
    let bad = bad.display().to_string();
    let cube = definition("pocket-cube-fixed-corner.tws");
    for (args, expected) in [
        (vec!["bfs", "ksolve"], "ksolve needs --file PUZZLE.tws"),
        (
            vec!["bfs", "ksolve", "--file", "/nonexistent.tws"],
            "cannot read the definition '/nonexistent.tws'",
        ),
        (
            vec!["bfs", "ksolve", "--file", "/"],
            "cannot read the definition '/'",
        ),
        (
            vec!["info", "ksolve", "--file", &bad],
            ":7: Illegal (piece placements twsearch's solver prunes) is not read",
        ),
        (
            vec!["bfs", "ksolve", "--file", &cube, "--metric", "half"],
            "the ksolve metric is powers",
        ),
        (
            vec!["solve", "ksolve", "--file", &cube, "--scramble", "none"],
            "has no scramble 'none'",
        ),
        (
            vec!["solve", "ksolve", "--file", &cube, "--moves", "U Q"],
            "'Q' is not a move of",
        ),
        (
            vec![
                "solve",
                "ksolve",
                "--file",
                &cube,
                "--position",
                "CORNERS 1 2",
            ],
            "the position gives 2 pieces",
        ),
        (
            vec!["solve", "pancake", "--n", "5", "--moves", "U"],
            "--scramble and --moves name positions of puzzles read from definition files",
        ),
    ] {
        let message = refusal(&args);
        assert!(message.contains(expected), "{args:?}: {message}");
    }
}

/// What a position holds where the index keeps nothing (a set no move
/// touches, alike pieces the moves only swap among themselves, an
/// orientation no move changes) is checked, not rewritten: before, the
/// scramble of the untouched set solved in "0 moves" and `show` took a
/// position that is not even a permutation, as rank 0.
#[test]
fn positions_unlike_every_reachable_one_where_no_coordinate_looks_are_refused() {
    let (_dir, untouched) = scratch("untouched.tws");
    std::fs::write(
        &untouched,
        "Set A 4 1\nSet B 2 1\nSolved\nA\n1 2 3 4\nEnd\nMove X\nA\n2 3 1 4\nEnd\nScramble s\nB\n2 1\nEnd\n",
    )
    .unwrap();
    let (_alike_dir, alike) = scratch("alike.tws");
    std::fs::write(
        &alike,
        "Set K 4 1\nSet C 2 3\nSolved\nK\n1 1 2 2\nEnd\nMove X\nK\n2 1 4 3\nEnd\nMove Y\nK\n1 2 4 3\nC\n1 2\n0 1\nEnd\n",
    )
    .unwrap();
    let (untouched, alike) = (untouched.display().to_string(), alike.display().to_string());
    let says = "no move sequence reaches this position: ";
    for (args, expected) in [
        (
            vec!["solve", "ksolve", "--file", &untouched, "--scramble", "s"],
            "set 'B' holds 2 1 where every reachable position holds 1 2",
        ),
        (
            vec![
                "show",
                "ksolve",
                "--file",
                &untouched,
                "--position",
                "A 1 2 3 4; B 1 1",
            ],
            "set 'B' holds 1 1 where every reachable position holds 1 2",
        ),
        (
            vec![
                "show",
                "ksolve",
                "--file",
                &alike,
                "--position",
                "K 2 2 1 1; C 1 2 / 0 0",
            ],
            "set 'K' holds 2 2 1 1 where every reachable position holds 1 1 2 2",
        ),
        (
            vec![
                "show",
                "ksolve",
                "--file",
                &alike,
                "--position",
                "K 1 1 2 2; C 1 2 / 2 1",
            ],
            "slot 1 of set 'C' holds 1 / 2 where every reachable position holds 1 / 0",
        ),
    ] {
        let message = refusal(&args);
        assert!(
            message.contains(&format!("{says}{expected}")),
            "{args:?}: {message}"
        );
    }
    // What the moves reach is taken and shown as given.
    let output = bitsolve(&[
        "show",
        "ksolve",
        "--file",
        &alike,
        "--position",
        "K 1 1 2 2; C 1 2 / 0 2",
    ]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("position K 1 1 2 2; C 1 2 / 0 2\n"),
        "{stdout}"
    );
}
