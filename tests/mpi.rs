//! `bitsolve bfs` and `bitsolve retro` across the processes of an MPI job
//! (`--features mpi`): every game gives the single-process layers with 1
//! to 4 processes, a killed job resumes, and a store cut for another job
//! size is refused.
//! Needs Open MPI's `mpirun` (the test script installs it).
#![cfg(feature = "mpi")]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_bitsolve");

/// `mpirun -np processes bitsolve args` (as root too, more processes than
/// cores allowed), one thread a process, with an Open MPI session
/// directory of its own, removed when the job is dropped (Open MPI leaves
/// it behind: a run of this file left 54 in the temporary directory).
fn mpirun(processes: usize) -> Mpirun {
    // Each job its own session directory: jobs started at once by the
    // tests' threads otherwise race to create Open MPI's shared one
    // ("mkdir ... File exists" under load).
    static JOBS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let job = JOBS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let session = std::env::temp_dir().join(format!("bitsolve-ompi-{}-{job}", std::process::id()));
    std::fs::create_dir_all(&session).unwrap();
    let mut command = Command::new("mpirun");
    command.env("OMPI_MCA_orte_tmpdir_base", &session);
    command.args([
        "--allow-run-as-root",
        "--oversubscribe",
        "-np",
        &processes.to_string(),
        BIN,
    ]);
    Mpirun { command, session }
}

/// An `mpirun` command and its session directory.
struct Mpirun {
    command: Command,
    session: PathBuf,
}

impl Mpirun {
    fn args<I: IntoIterator<Item = S>, S: AsRef<std::ffi::OsStr>>(mut self, args: I) -> Self {
        self.command.args(args);
        self
    }

    /// Runs the job to its end; its session directory goes with `self`.
    fn output(mut self) -> std::io::Result<Output> {
        self.command.output()
    }

    /// Starts the job without its output; the caller keeps `self` until
    /// the job has ended.
    fn spawn_quietly(&mut self) -> Child {
        self.command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    }
}

impl Drop for Mpirun {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.session);
    }
}

fn json_of(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// The JSON report of `bitsolve bfs args` in one process.
fn single(args: &[&str]) -> Value {
    json_of(&Command::new(BIN).args(args).output().unwrap())
}

fn distributed(processes: usize, args: &[&str]) -> Value {
    json_of(&mpirun(processes).args(args).output().unwrap())
}

/// A small Peg Solitaire board: a plus of 21 holes.
fn small_peg_board(dir: &Path) -> String {
    let path = dir.join("plus.txt");
    std::fs::write(&path, ".ooo.\nooooo\nooooo\nooooo\n.ooo.\n").unwrap();
    path.display().to_string()
}

#[test]
fn every_game_gives_the_same_layers_on_one_to_four_processes() {
    let dir = tempfile_dir("games");
    let board = small_peg_board(&dir);
    let cube = Path::new(crate::common::ROOT)
        .join("data/ksolve/pocket-cube-fixed-corner.tws")
        .display()
        .to_string();
    let two_colours = Path::new(crate::common::ROOT)
        .join("data/ksolve/pocket-cube-two-colours.tws")
        .display()
        .to_string();
    let games: Vec<Vec<&str>> = vec![
        vec!["pancake", "--n", "8"],
        vec!["pancake", "--n", "5", "--burned"],
        vec!["top-spin", "--n", "9", "--k", "4"],
        vec!["sliding-tile", "--width", "3", "--height", "3"],
        vec!["peg-solitaire", "--board", &board, "--start-hole", "c3"],
        vec![
            "peg-solitaire",
            "--board",
            &board,
            "--start-hole",
            "c3",
            "--symmetry",
        ],
        vec!["frogs-toads", "--k", "3"],
        vec!["pocket-cube", "--metric", "qtm"],
        vec!["ksolve", "--file", &cube, "--metric", "quarter"],
        vec!["ksolve", "--file", &two_colours],
    ];
    for game in &games {
        let mut args = vec!["bfs"];
        args.extend(game);
        args.extend(["--json", "--threads", "1"]);
        let expected = single(&args);
        // Two and three processes: the cell-by-cell test below.
        for processes in [1, 4] {
            let report = distributed(processes, &args);
            for key in ["layers", "representatives", "total", "goals", "deepest"] {
                assert_eq!(
                    report[key], expected[key],
                    "{game:?} on {processes} processes: {key}"
                );
            }
            assert_eq!(report["backend"], "mpi");
            let traffic = &report["mpi"];
            assert_eq!(traffic["processes"], processes);
            let passes = traffic["passes"].as_array().unwrap();
            assert_eq!(passes.len() as u64, report["passes"].as_u64().unwrap());
            for pass in passes {
                assert_eq!(pass["bytes_sent"].as_array().unwrap().len(), processes);
            }
            if processes == 1 {
                // One process sends nothing.
                assert!(passes.iter().all(|p| p["bytes_sent"][0] == 0));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn several_threads_per_process_agree_and_people_get_a_traffic_table() {
    let args = ["bfs", "pancake", "--n", "9", "--threads", "2"];
    let expected = single(&[&args[..], &["--json"]].concat());
    let report = distributed(3, &[&args[..], &["--json"]].concat());
    assert_eq!(report["layers"], expected["layers"]);
    let sent: u64 = report["mpi"]["passes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["bytes_sent"].as_array().unwrap().clone())
        .map(|b| b.as_u64().unwrap())
        .sum();
    // Some successors belong to other processes (a flip of the top
    // pancakes mostly keeps the high digits of the rank: most stay home).
    assert!(sent > 0, "{sent}");
    let output = mpirun(3).args(args).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("3 MPI processes × 2 threads"), "{text}");
    assert!(text.contains("MPI traffic over 3 processes"), "{text}");
    // Only process 0 prints: one table.
    assert_eq!(text.matches("MPI traffic").count(), 1, "{text}");
}

/// Waits until `ready` (the job still running, two minutes at most), then
/// kills one of the job's processes as a crashed node would; mpirun ends
/// the others.
fn kill_one_process_once(mut job: std::process::Child, ready: impl Fn() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(
            job.try_wait().unwrap().is_none(),
            "finished before the kill"
        );
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    let children = Command::new("pgrep")
        .args(["-P", &job.id().to_string()])
        .output()
        .unwrap();
    let victim = String::from_utf8(children.stdout).unwrap();
    let victim = victim.lines().next().expect("a process of the job");
    Command::new("kill")
        .args(["-KILL", victim])
        .status()
        .unwrap();
    assert!(!job.wait().unwrap().success());
}

fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bitsolve-mpi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_killed_job_resumes_and_another_job_size_is_refused() {
    let dir = tempfile_dir("resume");
    let store = dir.display().to_string();
    let args = [
        "bfs",
        "pancake",
        "--n",
        "11",
        "--threads",
        "1",
        "--store",
        &store,
        "--json",
    ];
    let expected = single(&["bfs", "pancake", "--n", "11", "--json"]);

    // Kill one process (as a crashed node would) once both processes have
    // recorded layer 6; mpirun then ends the other.
    let mut job = mpirun(2).args(args);
    kill_one_process_once(job.spawn_quietly(), || {
        let layers = common::recorded_layers(&dir);
        layers.len() == 2 && layers.iter().all(|&l| l >= Some(6))
    });

    // Another job size cannot use the store.
    let refused = mpirun(3).args(args).output().unwrap();
    assert!(!refused.status.success());
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains("split over 2 MPI processes: rerun with 2 processes"),
        "{message}"
    );

    // The same command resumes and gives the single-process layers.
    let output = mpirun(2).args(args).output().unwrap();
    let report = json_of(&output);
    assert_eq!(report["layers"], expected["layers"]);
    assert!(report["resumed_from"].as_u64().unwrap() >= 6, "{report}");
    assert!(report["complete"].as_bool().unwrap());
    // Rerun once finished: nothing to do, the same answer.
    let again = json_of(&mpirun(2).args(args).output().unwrap());
    assert_eq!(again["layers"], expected["layers"]);
    assert_eq!(again["passes"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_and_other_commands_fail_with_one_line() {
    let output = mpirun(2)
        .args(["bfs", "pancake", "--n", "99", "--threads", "1"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bitsolve: error: "), "{stderr}");
    let opening_dir = tempfile_dir("opening");
    let opening_store = opening_dir.display().to_string();
    for args in [
        vec!["query", "dodgem", "--store", "/nonexistent"],
        vec!["bfs", "pancake", "--n", "6", "--algo", "reach"],
        vec!["retro", "dodgem", "--distances", "--store", "/nonexistent"],
        // The Morris opening's sweeps read the moving phase whole.
        vec![
            "retro",
            "nine-mens-morris",
            "--men",
            "3",
            "--layers",
            "1..7",
            "--store",
            &opening_store,
        ],
    ] {
        let output = mpirun(2).args(&args).output().unwrap();
        assert!(!output.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("bitsolve: error: ") && stderr.contains("one process"),
            "{args:?}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&opening_dir);
}

/// The counts of each solved layer in a `retro --json` report (the work
/// done, passes and times may differ between runs).
fn retro_counts(report: &Value) -> Vec<Value> {
    report["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|layer| {
            let mut counts = serde_json::Map::new();
            for (key, value) in layer.as_object().unwrap() {
                if key.starts_with("won_for_")
                    || ["layer", "states", "stored", "draws"].contains(&key.as_str())
                {
                    counts.insert(key.clone(), value.clone());
                }
            }
            Value::Object(counts)
        })
        .collect()
}

#[test]
fn retrograde_layers_are_the_single_process_ones_on_one_and_four_processes() {
    let games: Vec<Vec<&str>> = vec![
        // (Each rule without symmetry: the cell-by-cell test below.)
        vec!["fox-geese", "--layers", "1..6", "--symmetry"],
        vec![
            "fox-geese",
            "--layers",
            "1..6",
            "--capture-wins",
            "--symmetry",
        ],
        // Draws, and every value recorded (no rule fills the undecided).
        vec!["dodgem", "--n", "3"],
        vec!["dodgem", "--n", "4"],
        // Captures into the layer below, rule-decided blocks, symmetry
        // classes weighed by orbit.
        vec![
            "nine-mens-morris",
            "--variant",
            "morabaraba",
            "--layers",
            "1..7",
            "--symmetry",
        ],
    ];
    for game in &games {
        let mut args = vec!["retro"];
        args.extend(game);
        args.extend(["--json", "--threads", "1"]);
        let expected = single(&args);
        let counts = retro_counts(&expected);
        assert!(counts.len() >= 4, "{expected}");
        // Two and three processes: the cell-by-cell test below.
        for processes in [1, 4] {
            let report = distributed(processes, &args);
            assert_eq!(
                retro_counts(&report),
                counts,
                "{game:?} on {processes} processes"
            );
            assert_eq!(report["backend"], "mpi");
            let passes = report["mpi"]["passes"].as_array().unwrap();
            assert!(
                passes
                    .iter()
                    .all(|p| p["bytes_sent"].as_array().unwrap().len() == processes)
            );
            let sent: u64 = passes
                .iter()
                .flat_map(|p| p["bytes_sent"].as_array().unwrap().clone())
                .map(|b| b.as_u64().unwrap())
                .sum();
            // Moves and captures cross between the processes' shares.
            assert_eq!(
                sent > 0,
                processes > 1,
                "{game:?} on {processes}: {sent} bytes"
            );
        }
    }
}

/// The table files of layer `layer` of Fox-and-Geese in `dir`.
fn layer_files(dir: &Path, layer: usize) -> Vec<std::path::PathBuf> {
    let prefix = format!("fox-geese-g-{layer}-retrograde-values");
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&prefix)
        })
        .collect()
}

#[test]
fn a_killed_retrograde_job_resumes_reads_its_lower_layers_and_is_queried_in_one_process() {
    let dir = tempfile_dir("retro");
    let store = dir.display().to_string();
    let expected = retro_counts(&single(&[
        "retro",
        "fox-geese",
        "--layers",
        "1..7",
        "--json",
    ]));
    let args = |layers: &'static str| {
        vec![
            "retro",
            "fox-geese",
            "--layers",
            layers,
            "--threads",
            "1",
            "--store",
            &store,
            "--checkpoint-every",
            "0",
            "--json",
        ]
    };

    // Layers 1..5 first: a later range reads layer 5 from the store.
    let first = distributed(2, &args("1..5"));
    assert_eq!(retro_counts(&first), expected[..5]);

    // Kill one process once both have recorded a pass of layer 7, which
    // depends on 6, solved in the same run.
    let mut job = mpirun(2).args(args("6..7"));
    kill_one_process_once(job.spawn_quietly(), || {
        let files = layer_files(&dir, 7);
        files.len() == 2
            && files
                .iter()
                .all(|f| common::last_completed(f).is_some_and(|pass| pass >= 1))
    });

    // Another job size cannot use the store.
    let refused = mpirun(3).args(args("6..7")).output().unwrap();
    assert!(!refused.status.success());
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains("split over 2 MPI processes: rerun with 2 processes"),
        "{message}"
    );

    // The same command finishes the layers: the single-process values.
    let resumed = distributed(2, &args("6..7"));
    assert_eq!(retro_counts(&resumed), expected[5..]);
    assert!(!resumed["layers"][1]["already_solved"].as_bool().unwrap());
    // Once solved, every layer is found in the store.
    let again = distributed(2, &args("1..7"));
    assert_eq!(retro_counts(&again), expected);
    let layers = again["layers"].as_array().unwrap();
    assert!(
        layers.iter().all(|l| l["already_solved"] == true),
        "{again}"
    );

    // `query`, in one process, reads the shares as one table: the answers
    // of a store solved in one process.
    let whole = tempfile_dir("retro-whole");
    let whole_store = whole.display().to_string();
    single(&[
        "retro",
        "fox-geese",
        "--layers",
        "1..7",
        "--store",
        &whole_store,
        "--json",
    ]);
    let mut moves = 0;
    for position in [
        "Fgg gg. ..ggg.. ....... ....... ... ...:fox",
        "Fg. gg. ..ggg.. .g..... ....... ... ...:fox",
        "... ... ..g.g.. ...F... ..g.g.. ggg ...:geese",
        "Fg. gg. ..g.g.. ....... ....... ... ...:fox",
    ] {
        let query = |store: &str| {
            single(&[
                "query",
                "fox-geese",
                "--store",
                store,
                "--position",
                position,
                "--json",
            ])
        };
        let (from_shares, from_one) = (query(&store), query(&whole_store));
        assert_eq!(from_shares, from_one, "{position}");
        moves += from_one["moves"].as_array().unwrap().len();
    }
    // The moves' values came from the shares of other layers too.
    assert!(moves > 10, "{moves}");
    // One process does not go on from the job's shares: it says so.
    let alone = Command::new(BIN)
        .args(["retro", "fox-geese", "--layers", "8..8", "--store", &store])
        .output()
        .unwrap();
    assert!(!alone.status.success());
    let message = String::from_utf8_lossy(&alone.stderr);
    assert!(message.contains("split over 2 MPI processes"), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&whole);
}

/// Every cell of `layers` that a job of `processes` stored in `job_dir`
/// (each process's share, mapped back through the job's partition) equals
/// the cell a single process stored in `single_dir`.
fn assert_same_cells<G: bitsolve::space::LayeredGame>(
    game: &G,
    layers: std::ops::RangeInclusive<usize>,
    single_dir: &Path,
    job_dir: &Path,
    processes: usize,
) {
    use bitsolve::backend::partition::Partition;
    use bitsolve::search::Silent;
    use bitsolve::search::retro2::{open_layer, values_identity};
    use bitsolve::table::{Backing, TwoBitTable};
    for layer in layers {
        let single = Backing::ReadOnly(single_dir.to_path_buf());
        let (whole, _) = open_layer(game, layer, &single, &Silent).unwrap();
        let blocks = game.layer_blocks(layer);
        let all: Vec<usize> = (0..blocks.len()).collect();
        let partition = Partition::new(&blocks, processes);
        let mut compared = 0;
        for part in 0..processes {
            let identity = partition.share_identity(&values_identity(game, layer), part);
            let job = Backing::ReadOnly(job_dir.to_path_buf());
            let (share, _) = TwoBitTable::open(&job, identity, 0, &Silent).unwrap();
            for slice in partition.slices(part, &all) {
                for (offset, rank) in slice.ranks.clone().enumerate() {
                    let (here, there) = (
                        share.get(slice.local_start + offset as u64),
                        whole.get(rank),
                    );
                    assert_eq!(
                        here,
                        there,
                        "{} layer {layer} rank {rank}: process {part} of {processes} holds {here}, one process {there}",
                        game.layer_descriptor(layer)
                    );
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, game.layer_size(layer));
    }
}

#[test]
fn retrograde_values_are_the_single_process_cells_on_two_and_three_processes() {
    use bitsolve::games::FoxGeese;
    use bitsolve::games::dodgem::Dodgem;
    use bitsolve::games::morris::{Morris, Variant};
    let cases: Vec<(Vec<&str>, usize)> = vec![
        (vec!["fox-geese", "--layers", "1..6"], 6),
        (vec!["fox-geese", "--layers", "1..6", "--capture-wins"], 6),
        (vec!["fox-geese", "--layers", "1..7", "--symmetry"], 7),
        (
            vec![
                "fox-geese",
                "--layers",
                "1..7",
                "--capture-wins",
                "--symmetry",
            ],
            7,
        ),
        (vec!["dodgem", "--n", "3"], 0),
        (vec!["dodgem", "--n", "4"], 0),
        (
            vec!["nine-mens-morris", "--layers", "1..7", "--symmetry"],
            7,
        ),
    ];
    for (case, (game, top)) in cases.iter().enumerate() {
        // Two processes (an even split) and three (an uneven one) take
        // turns over the games; Morris, whose split has the most to get
        // wrong (symmetric twins across owners), runs on both.
        let process_counts: &[usize] = match (game[0], case % 2) {
            ("nine-mens-morris", _) => &[2, 3],
            (_, 0) => &[2],
            _ => &[3],
        };
        let single_dir = tempfile_dir("cells-single");
        let mut args = vec!["retro"];
        args.extend(game);
        args.extend(["--json", "--threads", "1", "--store"]);
        let store = |dir: &Path| {
            let mut all: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            all.push(dir.display().to_string());
            all
        };
        let single_args = store(&single_dir);
        single(&single_args.iter().map(String::as_str).collect::<Vec<_>>());
        for &processes in process_counts {
            let job_dir = tempfile_dir("cells-job");
            let job_args = store(&job_dir);
            distributed(
                processes,
                &job_args.iter().map(String::as_str).collect::<Vec<_>>(),
            );
            let symmetry = game.contains(&"--symmetry");
            let capture_wins = game.contains(&"--capture-wins");
            if game[0] == "nine-mens-morris" {
                let morris = Morris::new(Variant::NineMensMorris, symmetry).unwrap();
                assert_same_cells(&morris, 5..=*top, &single_dir, &job_dir, processes);
            } else if game[0] == "dodgem" {
                let n = game[2].parse().unwrap();
                let dodgem = Dodgem::new(n).unwrap();
                let max = bitsolve::games::TwoPlayerGame::max_layer(&dodgem);
                assert_same_cells(&dodgem, 0..=max, &single_dir, &job_dir, processes);
            } else {
                let fox_geese = FoxGeese::new(capture_wins, symmetry).unwrap();
                assert_same_cells(&fox_geese, 1..=*top, &single_dir, &job_dir, processes);
            }
            std::fs::remove_dir_all(&job_dir).unwrap();
        }
        std::fs::remove_dir_all(&single_dir).unwrap();
    }
}
