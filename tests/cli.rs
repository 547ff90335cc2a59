//! The command line as a user meets it: JSON output, error lines, and a run
//! killed with SIGKILL and started again.

use crate::common::{
    self, assert_clear_error, bitsolve, bitsolve_json, fox_geese_query, json_of, stderr_of,
    stdout_of, words, words_and,
};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

fn layers_of(json: &Value) -> Vec<u64> {
    json["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("cli", name)
}

/// Each command line (split as [`words`]) is bad input, refused as
/// [`assert_clear_error`] with its message.
fn assert_clear_errors(cases: &[(&str, &str)]) {
    for (line, expected) in cases {
        assert_clear_error(&words(line), expected);
    }
}

/// Fox-and-Geese solved with `geese` geese into `store`: the JSON report.
fn solve_geese(geese: &str, store: &str) -> Value {
    bitsolve_json(&[
        "retro",
        "fox-geese",
        "--geese",
        geese,
        "--store",
        store,
        "--json",
    ])
}

/// `bitsolve bfs peg-solitaire --board BOARD` and then `rest`.
fn peg_board<'a>(board: &'a Path, rest: &[&'a str]) -> Vec<&'a str> {
    [
        &words_and("bfs peg-solitaire --board", &[board.to_str().unwrap()]),
        rest,
    ]
    .concat()
}

#[test]
fn bfs_json_has_the_core_keys_and_threads_agree() {
    let pancake =
        |threads| bitsolve_json(&["bfs", "pancake", "--n", "8", "--json", "--threads", threads]);
    let (one, two) = (pancake("1"), pancake("2"));
    for key in ["game", "algo", "threads", "layers", "total", "seconds"] {
        assert!(one.get(key).is_some(), "missing key {key}");
    }
    assert_eq!(one["game"], "pancake n=8");
    assert_eq!(one["algo"], "two-bit");
    assert_eq!(one["threads"], 1);
    assert_eq!(two["threads"], 2);
    assert_eq!(one["total"], 40320);
    assert_eq!(
        layers_of(&one),
        vec![1, 7, 42, 251, 1191, 4281, 10561, 15011, 8520, 455]
    );
    assert_eq!(layers_of(&one), layers_of(&two));

    let tiles = |algo| {
        bitsolve_json(&words_and(
            "bfs sliding-tile --width 3 --height 3 --algo",
            &[algo, "--json"],
        ))
    };
    let reach = tiles("reach");
    assert_eq!(reach["total"], 181440);
    assert!(reach["layers"].is_null());
    let one_bit = tiles("one-bit");
    assert_eq!(one_bit["max_depth"], 31);
}

#[test]
fn a_run_without_a_terminal_prints_plain_progress_lines() {
    // Stderr to a pipe, as for a run in the background: no bar, plain
    // lines at the interval asked (every call here), and stdout as ever.
    let output = common::bitsolve_env(
        &["retro", "fox-geese", "--layers", "1..6", "--json"],
        &[("BITSOLVE_PROGRESS_EVERY", "0")],
    );
    let json = json_of(&output);
    assert_eq!(json["layers"].as_array().unwrap().len(), 6);
    // Each layer's phases: the passes run, and no phase or sum of them
    // beyond the layer's time.
    for layer in json["layers"].as_array().unwrap() {
        let phases = layer["phases"].as_object().unwrap();
        let total: f64 = phases.values().map(|s| s.as_f64().unwrap()).sum();
        assert!(layer["phases"]["passes"].as_f64().unwrap() > 0.0, "{layer}");
        assert!(
            total <= layer["seconds"].as_f64().unwrap() + 1e-3,
            "{layer}"
        );
        assert_eq!(layer["phases"]["sweep"], 0.0, "{layer}");
        // A row per pass, with the counts of "examined".
        let log = layer["pass_log"].as_array().unwrap();
        assert_eq!(log.len(), layer["passes"].as_u64().unwrap() as usize);
        for (number, (row, examined)) in log
            .iter()
            .zip(layer["examined"].as_array().unwrap())
            .enumerate()
        {
            assert_eq!(row["pass"], number, "{row}");
            assert_eq!(&row["examined"], examined, "{row}");
            assert!(row["judged"].as_u64().unwrap() <= examined.as_u64().unwrap());
            assert!(row["seconds"].as_f64().unwrap() >= 0.0, "{row}");
        }
        assert_eq!(log.last().unwrap()["frontier"], 0, "{layer}");
    }
    let stderr = String::from_utf8(output.stderr).unwrap();
    let line = stderr
        .lines()
        .find(|l| l.starts_with("bitsolve: layer 6 pass 0: "))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        line.contains(" of ") && line.contains("%), ") && line.ends_with(" s into the run"),
        "{line}"
    );
    assert!(!stderr.contains('\r'), "no bar drawn: {stderr}");
    // A line per layer as it finishes (the object comes only at the end),
    // with the object's figures.
    let group = |n: &serde_json::Value| {
        let digits = n.as_u64().unwrap().to_string();
        let mut grouped = String::new();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                grouped.push(',');
            }
            grouped.push(digit);
        }
        grouped
    };
    for layer in json["layers"].as_array().unwrap() {
        let start = format!(
            "bitsolve: layer {} solved: {} positions, won for fox {}, for geese {}, drawn {}; {} pass{}, ",
            layer["layer"],
            group(&layer["states"]),
            group(&layer["won_for_fox"]),
            group(&layer["won_for_geese"]),
            group(&layer["draws"]),
            layer["passes"],
            if layer["passes"] == 1 { "" } else { "es" }
        );
        assert!(
            stderr
                .lines()
                .any(|l| l.starts_with(&start) && l.contains(" s, peak RSS ")),
            "{start}\n{stderr}"
        );
    }
}

#[test]
fn human_output_is_a_layer_table() {
    let text = stdout_of(&["bfs", "top-spin", "--n", "7", "--k", "4"]);
    assert!(text.starts_with("top-spin n=7 k=4 · two-bit BFS"), "{text}");
    assert!(text.contains("  total                360"), "{text}");
}

#[test]
fn info_reports_size_and_memory() {
    let info = bitsolve_json(&words("info sliding-tile --width 4 --height 3 --json"));
    assert_eq!(info["states"], 239_500_800u64);
    assert_eq!(info["blocks"], 12);
    assert_eq!(info["table_bytes"]["two-bit"], 59_875_200u64);
    assert_eq!(info["table_bytes"]["one-bit"], 29_937_600u64);
    assert_eq!(info["gpu"], true);
    assert!(info["gpu_unavailable_because"].is_null());
    let info = json_of(&bitsolve(&["info", "pancake", "--n", "20", "--json"]));
    assert_eq!(info["states"], 2_432_902_008_176_640_000u64);
    assert_eq!(info["gpu"], false);
    assert!(
        info["gpu_unavailable_because"]
            .as_str()
            .unwrap()
            .contains("32-bit ranks")
    );
    assert!(
        info["algorithms"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a != "one-bit")
    );
}

#[test]
fn bad_input_gets_one_line_and_a_non_zero_exit() {
    assert_clear_errors(&[
        ("bfs chess", "unrecognized subcommand 'chess'"),
        ("bfs pancake", "--n"),
        ("bfs pancake --n 21", "do not fit a 64-bit rank"),
        ("bfs pancake --n 17 --burned", "do not fit a 64-bit rank"),
        (
            "bfs sliding-tile --width 5 --height 5",
            "do not fit a 64-bit rank",
        ),
        ("bfs pancake --n 6 --algo one-bit", "move-alternation"),
        ("bfs pancake --n 6 --threads 0", "--threads"),
        ("bfs pancake --n x", "invalid value 'x'"),
        ("bfs top-spin --n 8 --k 9", "between 2 and n"),
    ]);
    let file = scratch("not-a-dir");
    std::fs::write(&file, b"a file, not a directory").unwrap();
    let store = file.join("store");
    assert_clear_error(
        &words_and("bfs pancake --n 6 --store", &[store.to_str().unwrap()]),
        "cannot create store directory",
    );
    std::fs::remove_file(&file).unwrap();
}

/// Pancake 11 into the store `store`, in JSON: a run long enough to be
/// stopped part way.
fn pancake_11_into(store: &str) -> [&str; 7] {
    ["bfs", "pancake", "--n", "11", "--json", "--store", store]
}

#[test]
fn a_run_killed_mid_search_resumes_to_the_same_table() {
    let dir = scratch("kill");
    let args = pancake_11_into(dir.to_str().unwrap());
    // Layers 9-11 of pancake 11 hold 83% of its states: kill during them.
    let killed_at = common::kill_after_layer(&args, &dir, 8, Duration::from_secs(120));
    assert!(killed_at < 13, "killed after the search had finished");

    let resumed = json_of(&bitsolve(&args));
    assert_eq!(resumed["resumed_from"].as_u64(), Some(killed_at));
    let uninterrupted = json_of(&bitsolve(&["bfs", "pancake", "--n", "11", "--json"]));
    assert_eq!(layers_of(&resumed), layers_of(&uninterrupted));
    assert_eq!(resumed["total"], 39_916_800);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_stopped_by_ctrl_c_seals_its_store_and_resumes() {
    let dir = scratch("ctrl-c");
    let store = dir.to_str().unwrap();
    let args = pancake_11_into(store);
    let child = common::command(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    common::wait_until(Duration::from_secs(120), "no progress", || {
        common::recorded_layer(&dir).is_some_and(|recorded| recorded >= 8)
    });
    // SAFETY: signalling our own child, which has not been waited for.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let stopped = child.wait_with_output().unwrap();
    assert_eq!(stopped.status.code(), Some(130), "exit of a stopped run");
    assert_eq!(
        String::from_utf8_lossy(&stopped.stderr).trim_end(),
        "bitsolve: error: interrupted (a run with a store resumes from it when started again)"
    );
    // Sealed as far as it got: a killed run would leave it "unsealed".
    let verify = bitsolve(&["verify", store, "--json"]);
    let verified: Value = serde_json::from_slice(&verify.stdout).unwrap();
    assert_eq!(verified["files"][0]["status"], "incomplete", "{verified}");

    let stopped_at = common::recorded_layer(&dir).unwrap();
    let resumed = json_of(&bitsolve(&args));
    assert_eq!(resumed["resumed_from"].as_u64(), Some(stopped_at));
    assert_eq!(
        layers_of(&resumed),
        [
            1, 10, 90, 809, 6429, 43891, 252737, 1174766, 4126515, 9981073, 14250471, 9123648,
            956354, 6
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn selection_games_report_goals_and_draw_positions() {
    let fore = bitsolve_json(&words("bfs frogs-toads --k 3 --json"));
    assert_eq!(fore["goal_distance"], 46);
    assert_eq!(fore["total"], 218_790);
    assert_eq!(fore["max_depth"], 47);
    assert_eq!(fore["deepest_positions"].as_array().unwrap().len(), 2);

    let dir = scratch("plot");
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("layers.svg");
    let peg = bitsolve_json(&words_and(
        "bfs peg-solitaire --algo one-bit --max-depth 6 --json --plot",
        &[svg.to_str().unwrap()],
    ));
    assert_eq!(layers_of(&peg), vec![1, 4, 12, 60, 296, 1338, 5648]);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();

    let text = stdout_of(&[
        "show",
        "peg-solitaire",
        "--position",
        "ooo ooo ooooooo ooo.ooo ooooooo ooo ooo",
    ]);
    assert!(text.contains("4 moves"), "{text}");
    assert!(text.contains("  4 o o o . o o o"), "{text}");
    // The 8-puzzle shown by its position, then by its rank.
    let show = |by: &str, which: &str| {
        let args = words_and("show sliding-tile --width 3 --height 3", &[by, which]);
        String::from_utf8(bitsolve(&args).stdout).unwrap()
    };
    let text = show("--position", "0,1,2,3,4,5,6,7,8");
    assert!(text.contains("  .   1   2\n  3   4   5\n"), "{text}");
    let rank: String = text
        .lines()
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(show("--rank", &rank), text);
}

#[test]
fn bad_boards_and_positions_get_one_line() {
    let dir = scratch("board");
    let board = common::write_file(&dir, "bad.txt", "ooo\no#o\n");
    assert_clear_error(&peg_board(&board, &[]), "line 2, column 2");
    assert_clear_errors(&[
        (
            "bfs peg-solitaire --board nowhere",
            "neither a built-in board",
        ),
        ("bfs peg-solitaire --start-hole a1", "not a cell"),
        ("bfs frogs-toads --k 7", "2 <= k <= 5"),
        ("bfs frogs-toads", "--k"),
        ("show frogs-toads --k 3 --position bbb", "needs 17 cells"),
        ("show pancake --n 4 --position 1,2,2,3", "exactly once"),
        ("show pancake --n 4 --rank 24", "outside the space"),
        (
            "bfs pancake --n 4 --inversion --algo one-bit",
            "move-alternation",
        ),
        (
            "bfs frogs-toads --k 3 --inversion --algo one-bit",
            "move-alternation",
        ),
        ("bfs peg-solitaire --inversion", "--algo one-bit"),
        // The GPU's memory bound, where there is no GPU run to bound
        // (refused before any device is opened), or no room at all.
        ("retro fox-geese --device-memory 4M", "add --backend gpu"),
        ("bfs pancake --n 8 --device-memory 1G", "add --backend gpu"),
        (
            "bench pancake --n 8 --no-gpu --device-memory 1G",
            "--no-gpu leaves out",
        ),
        ("retro fox-geese --backend gpu --device-memory 0", "no room"),
        ("retro fox-geese --device-memory 3Q", "not a size"),
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn retro_layer_ranges_report_stored_size_and_peak_memory() {
    // Capture-wins layers stand alone: 30..31 with symmetry stores 7 of
    // the 33 fox cells' blocks and counts the whole layers.
    let solved = bitsolve_json(&words(
        "retro fox-geese --capture-wins --symmetry --layers 30..31 --json",
    ));
    let layers = solved["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 2);
    assert_eq!(layers[0]["layer"], 30);
    assert_eq!(layers[0]["states"], 2 * 33 * 496);
    assert_eq!(layers[0]["stored"], 2 * 7 * 496);
    assert!(layers[1]["peak_rss_bytes"].as_u64().unwrap() > 0);
    assert_clear_errors(&[
        ("retro fox-geese --layers 5..3", "is empty"),
        (
            "retro fox-geese --layers 0..40",
            "layers run from 1 to 32 (32 geese)",
        ),
        ("retro fox-geese --layers x", "27..31"),
        // Under the default rule a range above layer 1 needs the one below.
        ("retro fox-geese --layers 4..5", "reads layer 3"),
    ]);
}

#[test]
fn fox_and_geese_database_answers_queries_and_plays() {
    let dir = scratch("fox-geese");
    let store = dir.to_str().unwrap();
    let solved = solve_geese("6", store);
    let won: Vec<u64> = solved["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["won_for_geese"].as_u64().unwrap())
        .collect();
    assert_eq!(won, vec![0, 0, 0, 40, 1_280, 21_380]);
    // A second run finds every layer in the store.
    let again = solve_geese("6", store);
    assert!(
        again["layers"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["already_solved"] == true)
    );
    // `query fox-geese --store STORE`, then `rest` and `--json`.
    let query = |rest: &[&str]| {
        let args = fox_geese_query(store, rest);
        bitsolve_json(&[&args[..], &["--json"]].concat())
    };

    // The fox on c1, hemmed in by six geese: the geese have won.
    let trapped = "Fgg gg. ..g.g.. ....... ....... ... ...:fox";
    let answer = query(&["--position", trapped]);
    assert_eq!(answer["value"], "won for the geese");
    assert!(answer["moves"].as_array().unwrap().is_empty());
    // One goose less on e1: the fox captures or escapes.
    let open = "Fg. gg. ..g.g.. ....... ....... ... ...:fox";
    let answer = query(&["--position", open]);
    let moves = answer["moves"].as_array().unwrap();
    assert!(moves.iter().any(|m| m["move"] == "c1xe1"), "{answer}");
    assert_eq!(answer["value"], "won for the fox");

    // Play as the fox from a position with the geese to move: the program
    // moves, a wrong move is refused, and 'quit' ends the game.
    let (ok, text, stderr) = common::bitsolve_with_input(
        &words_and(
            "play fox-geese --store",
            &[
                store,
                "--side",
                "fox",
                "--position",
                "... ... ....... ...F... ....... ggg .g.:geese",
            ],
        ),
        "z9-z9\nquit\n",
    );
    assert!(ok, "{stderr}");
    assert!(text.contains("bitsolve plays"), "{text}");
    assert!(text.contains("'z9-z9' is not a legal move here"), "{text}");

    // The start with six geese, as --start names it: the same answer as
    // its text; --to-move fox turns it over.
    let start = query(&["--start", "6"]);
    assert_eq!(
        start["position"],
        ".../.../......./...F.../......./ggg/ggg:geese"
    );
    let by_text = query(&["--position", start["position"].as_str().unwrap()]);
    assert_eq!(start, by_text);
    let fox_first = query(&["--start", "6", "--to-move", "fox"]);
    assert_eq!(fox_first["to_move"], "fox");
    // The fox on every free point of the six-geese start: 27 placements,
    // each the value `query` gives its position, and the best and worst
    // among them for the fox.
    let placed = query(&["--start", "6", "--placements"]);
    let placements = placed["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 27);
    for placement in placements.iter().step_by(5) {
        let alone = query(&["--position", placement["position"].as_str().unwrap()]);
        assert_eq!(alone["value"], placement["value"], "{placement}");
    }
    let values: Vec<&str> = placements
        .iter()
        .map(|p| p["value"].as_str().unwrap())
        .collect();
    if values.contains(&"won for the fox") {
        assert_eq!(placed["best"]["value"], "won for the fox");
    }
    if values.contains(&"won for the geese") {
        assert_eq!(placed["worst"]["value"], "won for the geese");
    }
    assert_clear_error(
        &fox_geese_query(store, &["--start", "6", "--to-move", "owl"]),
        "the side is fox or geese",
    );
    assert_clear_error(
        &fox_geese_query(store, &["--position", "F:fox"]),
        "33 points",
    );
    let missing = scratch("empty-store");
    let position = "Fgg gg. ..g.g.. ....... ....... ... ...:fox";
    assert_clear_error(
        &fox_geese_query(missing.to_str().unwrap(), &["--position", position]),
        "not in",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_lists_every_kind_with_the_explorers_words() {
    let json = json_of(&bitsolve(&["games", "--json"]));
    let kinds: Vec<(&str, &str)> = json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["name"].as_str().unwrap(), g["kind"].as_str().unwrap()))
        .collect();
    for listed in [
        ("pancake", "one-player"),
        ("fox-geese", "two-player"),
        ("dodgem", "two-player"),
        ("tic-tac-toe", "positional"),
        ("harary", "positional"),
        ("hex", "positional"),
    ] {
        assert!(kinds.contains(&listed), "{kinds:?}");
    }
    let hex = common::game_named(&json, "hex").unwrap();
    assert_eq!(hex["options"][0]["name"], "size");
    assert_eq!(hex["options"][0]["default"], "3");
    let people = String::from_utf8(bitsolve(&["games"]).stdout).unwrap();
    assert!(
        people
            .lines()
            .any(|l| l.starts_with("tic-tac-toe") && l.contains("positional")),
        "{people}"
    );
}

#[test]
fn qbf_check_deepens_to_the_shortest_win_in_json() {
    if !common::skip::depqbf() {
        return;
    }
    let json = bitsolve_json(&words(
        "qbf check hex --size 3 --depths 1..9 --encodings cor+,ea,en,et,sn --json",
    ));
    assert_eq!(json["shortest_depth"], 5);
    assert_eq!(json["answer"], true);
    let rows = json["encodings"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    for row in rows {
        assert_eq!(row["agrees"], true, "{row}");
        assert!(row["variables"].as_u64().unwrap() > 0);
    }
}

#[test]
fn qbf_check_on_the_gpu_gives_the_cpu_answer() {
    if !common::gpu::available() {
        return;
    }
    let pg = "data/positional/hex-hein/hein_09_4x4-07.pg";
    let check = |backend| {
        bitsolve_json(&words_and(
            "qbf check pg --encodings en --json --backend",
            &[backend, pg],
        ))
    };
    let (cpu, gpu) = (check("cpu"), check("gpu"));
    assert_eq!(gpu["answer"], true, "{gpu}");
    assert_eq!(gpu["answer"], cpu["answer"]);
    assert_eq!(gpu["states"], cpu["states"]);
    assert_eq!(gpu["encodings"][0]["agrees"], true, "{gpu}");
}

#[test]
fn qbf_export_writes_a_file_that_parses_back() {
    let dir = scratch("qbf-export");
    std::fs::create_dir_all(&dir).unwrap();
    for (encoding, qdimacs) in [("sn", false), ("sn", true), ("ea", false)] {
        let file = dir.join(format!("hex-{encoding}-{qdimacs}"));
        let mut args = words_and(
            "qbf export hex --size 3 --depth 5 --encoding",
            &[encoding, "-o", file.to_str().unwrap(), "--json"],
        );
        if qdimacs {
            args.push("--qdimacs");
        }
        let json = json_of(&bitsolve(&args));
        let text = std::fs::read_to_string(&file).unwrap();
        let (variables, clauses) = if json["format"] == "qcir" {
            let circuit = bitsolve::qbf::formula::parse_qcir(&text).unwrap();
            let inputs: usize = circuit.prefix.iter().map(|(_, v)| v.len()).sum();
            (inputs + circuit.gates.len(), circuit.gates.len())
        } else {
            let cnf = bitsolve::qbf::formula::parse_qdimacs(&text).unwrap();
            (cnf.variables as usize, cnf.clauses.len())
        };
        assert_eq!(json["variables"], variables as u64);
        assert_eq!(json["clauses"], clauses as u64);
        assert_eq!(
            json["format"],
            if encoding == "sn" && !qdimacs {
                "qcir"
            } else {
                "qdimacs"
            }
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn qbf_bad_input_gets_one_line_and_a_non_zero_exit() {
    assert_clear_errors(&[
        ("qbf check harary --size 4 --shape blob --depth 3", "blob"),
        ("qbf check hex --size 3", "--depth"),
        ("qbf check hex --size 3 --depth 0", "at least 1"),
        (
            "qbf check pg data/positional/no-such-file.pg",
            "no-such-file.pg",
        ),
        ("qbf export hex --size 3 --depth 3 --encoding ea", "-o FILE"),
        (
            "qbf solve hex --size 3 --depth 3 --encoding ea --backend gpu",
            "--backend gpu and --device-memory are for check",
        ),
        (
            "qbf check hex --size 3 --depth 3 --device-memory 1G",
            "add --backend gpu",
        ),
    ]);
    assert_clear_error(
        &words_and(
            "qbf solve hex --size 3 --depth 3 --solver",
            &["no-such-qbf-solver {file}"],
        ),
        "not installed",
    );
}

#[test]
fn qbf_suite_tallies_every_encoding_in_json_and_draws_its_plot() {
    if !common::skip::depqbf() {
        return;
    }
    let dir = scratch("qbf-suite");
    std::fs::create_dir_all(&dir).unwrap();
    let plot = dir.join("times.svg");
    let json = bitsolve_json(&words_and(
        "qbf suite --count 9 --seed 3 --encodings cor+,ea,pairing --json --plot",
        &[plot.to_str().unwrap()],
    ));
    assert_eq!(json["instances"], 9);
    assert_eq!(json["disagreements"], 0);
    let wins = json["black_wins"].as_u64().unwrap();
    assert_eq!(wins + json["black_does_not_win"].as_u64().unwrap(), 9);
    let families = json["families"].as_array().unwrap();
    assert_eq!(families.len(), 3, "{json}");
    let encodings = json["solvers"][0]["encodings"].as_array().unwrap();
    assert_eq!(json["solvers"][0]["command"], "depqbf {file}");
    assert_eq!(encodings.len(), 3);
    for row in encodings {
        let counted: u64 = [
            "agrees",
            "disagrees",
            "timeouts",
            "not_applicable",
            "inconclusive",
            "failed",
        ]
        .iter()
        .map(|key| row[key].as_u64().unwrap())
        .sum();
        assert_eq!(counted, 9, "{row}");
    }
    assert!(encodings[0]["agrees"].as_u64().unwrap() > 0, "{json}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("<svg") && svg.contains("exhaustive search"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn qbf_suite_bad_input_gets_one_line() {
    assert_clear_errors(&[
        ("qbf suite --count 0", "--count must be at least 1"),
        (
            "qbf suite --count 2 --encodings ea,blob",
            "unknown encoding 'blob'",
        ),
        ("qbf suite --count 2 --timeout 0", "--timeout"),
        ("qbf suite --count 2 --data no-such-dir", "no-such-dir"),
        ("qbf suite --count 2 --plot times.png", ".svg"),
    ]);
    assert_clear_error(
        &words_and(
            "qbf suite --count 2 --solver",
            &["no-such-qbf-solver {file}"],
        ),
        "not installed",
    );
    // A solver that runs but answers nothing QBF-like.
    assert_clear_error(
        &words_and("qbf suite --count 2 --solver", &["true {file}"]),
        "gave no answer",
    );
}

#[test]
fn a_search_stopped_at_max_depth_gives_no_false_verdict() {
    // Fore and Aft's reversal lies at distance 46: ten layers decide nothing.
    let capped = ["bfs", "frogs-toads", "--k", "3", "--max-depth", "10"];
    let text = stdout_of(&capped);
    assert!(text.contains("not reached within 10 moves"), "{text}");
    assert!(!text.contains("not reachable"), "{text}");
    let json = json_of(&bitsolve(&[&capped[..], &["--json"]].concat()));
    assert_eq!(json["complete"], false);
    assert_eq!(json["goals"][0]["reached"], false);
    assert_eq!(json["goals"][0]["decided"], false);
    let whole = json_of(&bitsolve(&["bfs", "frogs-toads", "--k", "3", "--json"]));
    assert_eq!(whole["complete"], true);
    assert_eq!(whole["goals"][0]["decided"], true);

    // Meeting in the middle stopped before the halfway layer: no join, no verdict.
    let capped = words("bfs peg-solitaire --algo one-bit --inversion --max-depth 3");
    let text = stdout_of(&capped);
    assert!(!text.contains("inversion:"), "{text}");
    assert!(text.contains("no verdict"), "{text}");
    let json = json_of(&bitsolve(&[&capped[..], &["--json"]].concat()));
    assert!(json["meet"].is_null());
    assert_eq!(json["goals"][0]["decided"], false);
}

#[test]
fn extreme_numbers_and_hyphenated_positions_are_handled() {
    assert_clear_errors(&[
        ("bfs pancake --n 5 --threads 100000", "--threads 100000"),
        (
            "qbf solve tic-tac-toe --depth 100000000000",
            "free cells (9)",
        ),
        (
            "qbf check tic-tac-toe --depths 1..100000000000",
            "free cells (9)",
        ),
    ]);
    let json = bitsolve_json(&words(
        "bfs pancake --n 5 --max-depth 18446744073709551615 --json",
    ));
    assert_eq!(json["total"], 120);
    assert_eq!(json["complete"], true);
    // A burned pancake upside down on top starts the position with '-'.
    let text = stdout_of(&words("show pancake --n 3 --burned --position -3,1,2"));
    assert!(text.contains("rank"), "{text}");
}

#[test]
fn peg_boards_take_their_start_holes_from_underscores() {
    let dir = scratch("peg-boards");
    let marked = common::write_file(&dir, "marked.txt", "oooo\no_oo\noooo\n");
    let plain = common::write_file(&dir, "plain.txt", "oooo\noooo\noooo\n");
    let by_mark = bitsolve_json(&peg_board(&marked, &["--json"]));
    let by_flag = bitsolve_json(&peg_board(&plain, &["--start-hole", "b2", "--json"]));
    assert_eq!(by_mark["layers"], by_flag["layers"]);
    let centre_less = bitsolve_json(&peg_board(&plain, &["--start-hole", "a1", "--json"]));
    assert_ne!(by_mark["layers"], centre_less["layers"]);
    assert_clear_error(&peg_board(&marked, &["--start-hole", "a1"]), "not both");
    let pieces = common::write_file(&dir, "pieces.txt", "oooo\nob_o\noooo\n");
    assert_clear_error(&peg_board(&pieces, &[]), "not 'b' or 'w'");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_plot_path_fails_before_the_search_and_an_empty_check_fails() {
    assert_clear_error(
        &words("bfs pancake --n 9 --plot /nonexistent-bitsolve-dir/layers.svg"),
        "cannot write --plot",
    );
    // Every encoding either refused (maker-breaker encodings on a
    // maker-maker game) or failed: nothing was compared, so no pass.
    let output = bitsolve(&words_and(
        "qbf check tic-tac-toe --depth 3 --solver",
        &["sh -c false {file}"],
    ));
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no encoding could be checked"), "{stderr}");
}

#[test]
fn pg_files_naming_a_cell_or_time_twice_are_refused() {
    if !common::skip::depqbf() {
        return;
    }
    let dir = scratch("pg-duplicates");
    // Black takes one cell, White one, and Black's second completes a pair.
    let good =
        "#times\nt1 t2 t3\n#blackturns\nt1 t3\n#positions\na b c\n#blackwins\na b\na c\nb c\n";
    let file = common::write_file(&dir, "good.pg", good);
    fn solve(file: &Path) -> Vec<&str> {
        words_and("qbf solve pg", &[file.to_str().unwrap()])
    }
    assert!(stdout_of(&solve(&file)).contains("Black wins"));
    for (name, text, expected) in [
        (
            "cells.pg",
            good.replace("#positions\na b c", "#positions\na b c\nb"),
            "line 7: duplicate cell 'b'",
        ),
        (
            "times.pg",
            good.replace("t1 t2 t3", "t1 t2 t1"),
            "line 2: duplicate time 't1'",
        ),
    ] {
        let file = common::write_file(&dir, name, text);
        assert_clear_error(&solve(&file), expected);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn conflicting_flags_are_refused_naming_both() {
    // Reachability has no layers: a depth limit or a plot of layers would
    // be ignored.
    let plot = scratch("reach-plot.svg");
    let reach = ["bfs", "pancake", "--n", "5", "--algo", "reach"];
    for (flag, value) in [("--max-depth", "2"), ("--plot", plot.to_str().unwrap())] {
        let args = [&reach[..], &[flag, value]].concat();
        assert_clear_error(&args, &format!("{flag} needs BFS layers"));
        assert_clear_error(&args, "--algo reach");
    }
    assert!(!plot.exists(), "the refused run created its plot file");
    assert_clear_error(
        &words("bench pancake --n 5 --algo reach --max-depth 2"),
        "--max-depth needs BFS layers, and --algo reach",
    );
    // Purely syntactic: clap names both.
    let both = assert_clear_error(&words("qbf check hex --size 3 --depth 3 --depths 1..3"), "");
    assert!(
        both.contains("--depth ") && both.contains("--depths"),
        "{both}"
    );
    let both = assert_clear_error(
        &words("play fox-geese --store nowhere --side fox --geese 3 --position F:fox"),
        "",
    );
    assert!(
        both.contains("--geese") && both.contains("--position"),
        "{both}"
    );
    // Flags of one qbf command given to another.
    let hex = ["hex", "--size", "3", "--depth", "3"];
    for (command, extra, expected) in [
        (
            "export",
            &["--encoding", "ea", "--solver", "x {file}"][..],
            "qbf export runs no solver (--solver and --timeout",
        ),
        (
            "export",
            &["--encoding", "ea", "--timeout", "5"],
            "--timeout are for solve and check",
        ),
        (
            "export",
            &["--encodings", "ea"],
            "--encodings lists the encodings of a qbf check; export takes one: give --encoding",
        ),
        (
            "solve",
            &["-o", "x.qdimacs"],
            "qbf solve writes no formula file (-o and --qdimacs",
        ),
        ("solve", &["--qdimacs"], "(-o and --qdimacs are for export)"),
        (
            "solve",
            &["--encodings", "ea"],
            "solve takes one: give --encoding",
        ),
        (
            "check",
            &["--encoding", "ea"],
            "qbf check runs --encodings (all by default), not --encoding",
        ),
        (
            "check",
            &["-o", "x.qdimacs"],
            "qbf check writes no formula file",
        ),
    ] {
        let args = [&["qbf", command][..], &hex, extra].concat();
        assert_clear_error(&args, expected);
    }
}

#[test]
fn a_flag_that_loses_says_so_on_stderr() {
    let dir = scratch("notes");
    std::fs::create_dir_all(&dir).unwrap();
    let formula = dir.join("f.qdimacs");
    let formula = formula.to_str().unwrap();
    // --depth replaces a .pg file's own time points.
    let pg = "data/positional/hex-hein/hein_04_3x3-05.pg";
    let export = ["qbf", "export", "pg", pg, "--encoding", "ea", "-o", formula];
    let noted = stderr_of(&[&export[..], &["--depth", "3"]].concat());
    assert!(
        noted.contains("note: --depth 3 replaces the file's #times (5 time points)"),
        "{noted}"
    );
    assert!(stderr_of(&export).is_empty());
    // --position replaces the file's stones.
    let picture = common::write_file(&dir, "empty.txt", ".........\n");
    let noted = stderr_of(&[&export[..], &["--position", picture.to_str().unwrap()]].concat());
    assert!(
        noted.contains("--position replaces the 3 stones of the file's #blackinitials"),
        "{noted}"
    );
    // Tic-tac-toe to depth 3 exported in `encoding`, and then `rest`.
    let tic_tac_toe = |encoding, rest: &[&'static str]| {
        let export = "qbf export tic-tac-toe --depth 3 --encoding";
        [&words_and(export, &[encoding, "-o", formula]), rest].concat()
    };
    // Preprocessing that has nothing to work on.
    let noted = stderr_of(&tic_tac_toe(
        "cor+",
        &["--symmetry-breaking", "--drop-useless"],
    ));
    assert!(
        noted.contains("--symmetry-breaking changes nothing"),
        "{noted}"
    );
    assert!(noted.contains("--drop-useless changes nothing"), "{noted}");
    assert!(noted.contains("maker-maker"), "{noted}");
    // A run that fails prints its error alone: the notes qualify answers.
    assert_clear_error(
        &tic_tac_toe("ea", &["--symmetry-breaking"]),
        "a maker-breaker encoding",
    );
    // A stored table deeper than --max-depth is reported whole.
    let store = dir.join("store");
    let store = store.to_str().unwrap();
    let run = ["bfs", "pancake", "--n", "6", "--store", store, "--json"];
    stderr_of(&run);
    let noted = stderr_of(&[&run[..], &["--max-depth", "2"]].concat());
    assert!(
        noted.contains("--max-depth 2 is below layer 7, which the store already holds"),
        "{noted}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_peg_board_of_64_cells_is_refused_before_any_table() {
    let dir = scratch("peg-64");
    let board = common::write_file(&dir, "square.txt", "oooooooo\n".repeat(8));
    let board = board.to_str().unwrap();
    for command in ["bfs", "info"] {
        assert_clear_error(
            &[
                command,
                "peg-solitaire",
                "--board",
                board,
                "--start-hole",
                "a1",
            ],
            "a board of 64 cells has 2^64 positions",
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn messages_point_to_what_would_help() {
    // A usage error points to the help that lists the flag.
    assert_clear_errors(&[
        ("bfs pancake --nn 5", "(see 'bitsolve bfs pancake --help')"),
        (
            "qbf check hex --sise 3",
            "(see 'bitsolve qbf check hex --help')",
        ),
    ]);
    // Installing DepQBF does not help a user whose own solver is missing.
    let missing = assert_clear_error(
        &words_and(
            "qbf solve hex --size 3 --depth 3 --solver",
            &["no-such-qbf-solver {file}"],
        ),
        "",
    );
    assert!(!missing.contains("apt install depqbf"), "{missing}");
    assert!(missing.contains("check --solver"), "{missing}");

    // A database solved without --symmetry: the hint names the flags the
    // layer needs and says what the store holds instead.
    let dir = scratch("hint");
    let store = dir.to_str().unwrap();
    solve_geese("2", store);
    let hint = assert_clear_error(
        &words_and(
            "query fox-geese --symmetry --store",
            &[
                store,
                "--position",
                "Fg. g.. ..... .. ....... ....... ... ...:fox",
            ],
        ),
        "",
    );
    assert!(
        hint.contains("the layer of 2 geese solved with --symmetry"),
        "{hint}"
    );
    assert!(
        hint.contains("solved without flags, a different table"),
        "{hint}"
    );
    assert!(
        hint.contains(&format!(
            "run: bitsolve retro fox-geese --symmetry --layers 1..2 --store {store}"
        )),
        "{hint}"
    );
    // Layer 0 is solved by every run; ranges start at 1.
    let hint = assert_clear_error(
        &words_and(
            "query fox-geese --capture-wins --store",
            &[
                store,
                "--position",
                "F.. ... ..... .. ....... ....... ... ...:fox",
            ],
        ),
        "",
    );
    assert!(hint.contains("--capture-wins --layers 1..1"), "{hint}");
    std::fs::remove_dir_all(&dir).unwrap();

    // bench has no --backend: a game the GPU cannot run gets advice that
    // fits bench (checked before the CPU runs).
    let output = bitsolve(&["bench", "peg-solitaire", "--symmetry", "--max-depth", "1"]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!output.status.success());
    assert!(!stderr.contains("--backend cpu"), "{stderr}");
    assert!(stderr.contains("--no-gpu"), "{stderr}");
    // ... and with that advice taken, bench times the CPU alone.
    let report = bitsolve_json(&words(
        "bench peg-solitaire --symmetry --max-depth 3 --no-gpu --json",
    ));
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2, "one thread and all threads, no GPU");
    assert!(runs.iter().all(|run| run["backend"] == "cpu"));
    assert!(runs[0]["expanded_per_second_per_core"].as_f64().unwrap() > 0.0);
    assert_eq!(report["layers"], serde_json::json!([1, 4, 12, 60]));
}

/// Bytes of memory the kernel reports as available.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

#[test]
fn a_table_refused_under_an_address_space_limit_blames_the_limit() {
    // Pancake 13's two-bit table is 1.45 GiB; the process may map 1 GB.
    if available_memory().is_none_or(|bytes| bytes < 4 << 30) {
        return; // memory really is short here: the other message is right
    }
    let output = Command::new("sh")
        .args(["-c", "ulimit -v 1000000 && exec \"$0\" \"$@\""])
        .arg(common::BIN)
        .args(words("bfs pancake --n 13 --max-depth 0 --threads 1"))
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!output.status.success(), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("refused to map it"), "{stderr}");
    assert!(stderr.contains("ulimit -v"), "{stderr}");
    assert!(!stderr.contains("but only"), "{stderr}");
}

/// `bitsolve args` with `variable=value` in its environment, killed after
/// 60 s (a run that starts tens of thousands of threads never ends).
fn bitsolve_with_env(args: &[&str], variable: &str, value: &str) -> Output {
    let mut command = common::command(args);
    common::output_within(command.env(variable, value), Duration::from_secs(60)).0
}

#[test]
fn rayon_num_threads_is_held_to_the_limit_of_threads() {
    let args = ["bfs", "pancake", "--n", "4"];
    // Just over the limit first: before the limit held here, it ran.
    for (variable, value) in [
        ("RAYON_NUM_THREADS", "1025"),
        ("RAYON_NUM_THREADS", "100000"),
        ("RAYON_RS_NUM_CPUS", "100000"),
    ] {
        let output = bitsolve_with_env(&args, variable, value);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{variable}={value} ran");
        assert_eq!(
            output.status.code(),
            Some(1),
            "{variable}={value}: {stderr}"
        );
        assert!(output.stdout.is_empty(), "{variable}={value} printed");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!(
                "{variable}={value} is more than the 1024 a run may use"
            )),
            "{stderr}"
        );
    }
    // The same words as for --threads.
    assert_clear_error(
        &["bfs", "pancake", "--n", "4", "--threads", "1025"],
        "--threads 1025 is more than the 1024 a run may use",
    );
    // Within the limit, or not a number (rayon ignores it): the run goes on.
    for value in ["2", "0", "many"] {
        let output = bitsolve_with_env(&args, "RAYON_NUM_THREADS", value);
        assert!(output.status.success(), "RAYON_NUM_THREADS={value}");
    }
}

#[test]
fn retro_with_no_geese_is_refused_like_an_empty_range() {
    assert_clear_errors(&[
        (
            "retro fox-geese --geese 0",
            "layers run from 1 to 32 (32 geese), got --geese 0",
        ),
        (
            "retro fox-geese --layers 0..0",
            "layers run from 1 to 32 (32 geese), got 0..0",
        ),
        (
            "retro fox-geese --geese 33",
            "layers run from 1 to 32 (32 geese), got --geese 33",
        ),
    ]);
}

#[test]
fn fox_and_geese_positions_take_only_the_symbols_shown() {
    let query = |position: &str, expected: &str| {
        assert_clear_error(
            &fox_geese_query("/nonexistent", &["--position", position]),
            expected,
        )
    };
    query(
        "F.. ... ...F... ....... ....... ... ...:fox",
        "'F' at d3: a second fox (a position has one)",
    );
    query(
        "f.. ... ....... ....... ....... ... ...:fox",
        "'f' at c1: the fox is written 'F'",
    );
    query(
        "Fg. G.. ....... ....... ....... ... ...:fox",
        "'G' at c2: a goose is written 'g'",
    );
    query(
        "Fg. o.. ....... ....... ....... ... ...:fox",
        "'o' at c2: a goose is written 'g'",
    );
    query(
        "Fx. ... ....... ....... ....... ... ...:fox",
        "'x' at d1: expected 'F' (the fox), 'g' (a goose) or '.' (empty)",
    );
}

#[test]
fn a_store_given_as_a_file_is_refused_naming_its_directory() {
    let dir = scratch("store-file");
    let store = dir.to_str().unwrap();
    solve_geese("1", store);
    let table = dir.join("fox-geese-g-1-retrograde-values.bst");
    assert!(table.is_file());
    let table = table.to_str().unwrap();
    let position = "Fg. ... ....... ....... ....... ... ...:fox";
    // The store itself answers.
    bitsolve_json(&fox_geese_query(store, &["--position", position, "--json"]));
    for args in [
        fox_geese_query(table, &["--position", position]),
        vec!["play", "fox-geese", "--store", table, "--side", "fox"],
    ] {
        let error = assert_clear_error(&args, "");
        assert!(error.contains(&format!("'{table}' is a file")), "{error}");
        assert!(error.contains(&format!("--store '{store}'")), "{error}");
        assert!(!error.contains("run: bitsolve retro"), "{error}");
    }
    // Another file: no table, so no directory to suggest.
    let other = common::write_file(&dir, "notes.txt", "not a store");
    let error = assert_clear_error(
        &fox_geese_query(other.to_str().unwrap(), &["--position", position]),
        "",
    );
    assert!(error.contains("--store names the directory"), "{error}");
    assert!(error.contains("is a file"), "{error}");
    assert!(!error.contains("run: bitsolve retro"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}
