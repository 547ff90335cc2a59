//! Two-bit BFS with its table on disk (`bfs --store DIR --memory SIZE`):
//! the same layers and the same table file as in memory, with a budget of
//! an eighth of the table so that windows really move; resumes in either
//! mode from the other's store, and after kills at random instants.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use bitsolve::backend::disk::MIN_MEMORY;
use bitsolve::backend::{CpuBackend, DiskBackend};
use bitsolve::games::{Pancake, SlidingTile};
use bitsolve::search::{Algorithm, Progress, SearchOptions, SearchReport};
use bitsolve::space::Space;
use bitsolve::table::Backing;
use bitsolve::table::header::HEADER_LEN;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitsolve-disk-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// An eighth of the space's two-bit table.
fn eighth<S: Space>(space: &S) -> u64 {
    (space.size().div_ceil(4) / 8).max(MIN_MEMORY)
}

fn stored<S: Space>(space: &S, dir: &Path, memory: Option<u64>) -> SearchReport {
    let options = SearchOptions {
        backing: Backing::Directory(dir.to_path_buf()),
        ..Default::default()
    };
    match memory {
        Some(memory) => Algorithm::TwoBitBfs.run(space, &DiskBackend { memory }, &options),
        None => Algorithm::TwoBitBfs.run(space, &CpuBackend, &options),
    }
    .unwrap()
}

/// The body and checksums of the store's only table file.
fn table_bytes(dir: &Path) -> Vec<u8> {
    let file = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .find(|e| e.path().extension().is_some_and(|x| x == "bst"))
        .expect("a table file")
        .path();
    std::fs::read(file).unwrap()[HEADER_LEN..].to_vec()
}

/// Disk mode with an eighth of the table in memory = the heap run, layer
/// for layer and byte for byte of the finished table.
fn same_as_in_memory<S: Space>(space: &S, name: &str) {
    let expected = common::run(space, Algorithm::TwoBitBfs, 2);
    let memory_dir = scratch(&format!("{name}-memory"));
    let disk_dir = scratch(&format!("{name}-disk"));
    let in_memory = stored(space, &memory_dir, None);
    let on_disk = stored(space, &disk_dir, Some(eighth(space)));
    assert_eq!(in_memory.layers, expected.layers, "{name}");
    assert_eq!(on_disk.layers, expected.layers, "{name}");
    assert_eq!(on_disk.goals, expected.goals, "{name}");
    // The late layers check parents on disk too (questions to other
    // windows answered by expanding the asker again, hence at least as
    // many checks), so the frontiers expanded are the in-memory run's.
    assert_eq!(on_disk.expanded, in_memory.expanded, "{name}");
    assert!(
        in_memory.parent_checks > 0 && on_disk.parent_checks >= in_memory.parent_checks,
        "{name}: {} parent checks on disk, {} in memory",
        on_disk.parent_checks,
        in_memory.parent_checks
    );
    assert!(
        on_disk.bytes_read > space.size() / 4 && on_disk.bytes_written > 0,
        "{name}: the windows moved ({} bytes read)",
        on_disk.bytes_read
    );
    // Per layer: one entry for each layer the passes made, adding up to
    // the totals; the in-memory run has none.
    let made: Vec<u64> = on_disk.layer_io.iter().map(|io| io.layer).collect();
    let layers = on_disk.layers.as_ref().unwrap().len() as u64;
    assert!(
        made.windows(2).all(|w| w[1] == w[0] + 1) && made.len() as u64 >= layers - 1,
        "{name}: layers with I/O {made:?}"
    );
    let read: u64 = on_disk.layer_io.iter().map(|io| io.bytes_read).sum();
    let written: u64 = on_disk.layer_io.iter().map(|io| io.bytes_written).sum();
    assert_eq!(
        (read, written),
        (on_disk.bytes_read, on_disk.bytes_written),
        "{name}"
    );
    assert!(in_memory.layer_io.is_empty());
    assert!(
        table_bytes(&memory_dir) == table_bytes(&disk_dir),
        "{name}: the finished tables differ"
    );
    // Either mode reads the other's finished store without searching.
    let again = stored(space, &memory_dir, Some(eighth(space)));
    assert_eq!((again.layers, again.passes), (expected.layers.clone(), 0));
    let again = stored(space, &disk_dir, None);
    assert_eq!((again.layers, again.passes), (expected.layers, 0));
    std::fs::remove_dir_all(&memory_dir).unwrap();
    std::fs::remove_dir_all(&disk_dir).unwrap();
}

#[test]
fn pancakes_10_and_11_on_disk_are_the_in_memory_layers() {
    same_as_in_memory(&Pancake::new(10, false).unwrap(), "pancake-10");
    same_as_in_memory(&Pancake::new(11, false).unwrap(), "pancake-11");
}

#[test]
fn burned_pancake_8_on_disk_is_the_in_memory_layers() {
    same_as_in_memory(&Pancake::new(8, true).unwrap(), "burned-8");
}

#[test]
fn the_8_puzzle_on_disk_is_the_in_memory_layers() {
    // Blocks by the blank's position: a pass scans some windows only.
    same_as_in_memory(&SlidingTile::new(3, 3).unwrap(), "tile-3x3");
}

/// Every pass's label, its units and the units it advanced.
#[derive(Default)]
struct Passes(Mutex<Vec<(String, u64, u64)>>);

impl Progress for Passes {
    fn begin_pass(&self, label: &str, units: u64) {
        self.0.lock().unwrap().push((label.to_string(), units, 0));
    }
    fn advance(&self, units: u64) {
        self.0.lock().unwrap().last_mut().expect("a pass").2 += units;
    }
}

#[test]
fn the_phases_after_a_sweep_show_their_progress_to_the_end() {
    // Pancake 10 with an eighth in memory: long flips leave a window, so
    // successors wait, and the late layers' parent checks ask questions.
    let space = Pancake::new(10, false).unwrap();
    let dir = scratch("phases");
    let passes = Passes::default();
    let options = SearchOptions {
        backing: Backing::Directory(dir.clone()),
        progress: &passes,
        ..Default::default()
    };
    let memory = eighth(&space);
    Algorithm::TwoBitBfs
        .run(&space, &DiskBackend { memory }, &options)
        .unwrap();
    let passes = passes.0.into_inner().unwrap();
    for phase in [
        "waiting successors",
        "answering questions",
        "marking askers",
    ] {
        let shown: Vec<_> = passes.iter().filter(|p| p.0.ends_with(phase)).collect();
        assert!(shown.iter().any(|p| p.1 > 0), "no {phase} in {passes:?}");
        for (label, units, advanced) in shown {
            assert_eq!(units, advanced, "{label}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Larger spaces: minutes in a debug build
/// (`cargo test --release --test suite disk_bfs:: -- --ignored`).
#[test]
#[ignore]
fn pancake_12_and_the_3x4_tile_on_disk_are_the_in_memory_layers() {
    same_as_in_memory(&Pancake::new(12, false).unwrap(), "pancake-12");
    same_as_in_memory(&SlidingTile::new(4, 3).unwrap(), "tile-4x3");
}

#[test]
fn a_store_begun_in_memory_goes_on_on_disk_and_back() {
    let space = Pancake::new(10, false).unwrap();
    let expected = common::run(&space, Algorithm::TwoBitBfs, 2);
    let dir = scratch("switch");
    let upto = |depth, memory: Option<u64>| {
        let options = SearchOptions {
            backing: Backing::Directory(dir.clone()),
            max_depth: Some(depth),
            ..Default::default()
        };
        match memory {
            Some(memory) => Algorithm::TwoBitBfs.run(&space, &DiskBackend { memory }, &options),
            None => Algorithm::TwoBitBfs.run(&space, &CpuBackend, &options),
        }
        .unwrap()
    };
    upto(4, None);
    let middle = upto(8, Some(eighth(&space)));
    assert_eq!(middle.resumed_from, Some(4));
    let end = upto(100, None);
    assert_eq!(end.resumed_from, Some(8));
    assert_eq!(end.layers, expected.layers);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn bitsolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_disk_run_killed_at_random_instants_resumes_to_the_same_table() {
    let reference = scratch("kill-reference");
    let budget = "113K";
    let args = |dir: &Path| -> Vec<String> {
        [
            "bfs", "pancake", "--n", "10", "--memory", budget, "--json", "--store",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([dir.display().to_string()])
        .collect()
    };
    let started = Instant::now();
    let run = bitsolve(
        &args(&reference)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let duration = started.elapsed();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let expected: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let mut seed = 0x5eed_d15cu64;
    let mut landed = 0;
    for kill in 0..6 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let instant = Duration::from_micros((seed >> 33) % (duration.as_micros() as u64 + 1));
        let dir = scratch(&format!("kill-{kill}"));
        let argv = args(&dir);
        let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
        let mut child = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
            .args(&argv)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(instant);
        if child.try_wait().unwrap().is_none() {
            landed += 1;
        }
        let _ = child.kill();
        child.wait().unwrap();
        let resumed = bitsolve(&argv);
        assert!(
            resumed.status.success(),
            "resuming after a kill at {instant:?}: {}",
            String::from_utf8_lossy(&resumed.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
        assert_eq!(
            json["layers"], expected["layers"],
            "after a kill at {instant:?}"
        );
        assert!(
            table_bytes(&dir) == table_bytes(&reference),
            "the table differs after a kill at {instant:?}"
        );
        let verify = bitsolve(&["verify", &dir.display().to_string()]);
        assert!(
            verify.status.success(),
            "verify after a kill at {instant:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(
        landed >= 3,
        "only {landed} kills landed before the run ended"
    );
    std::fs::remove_dir_all(&reference).unwrap();
}

#[test]
fn the_disk_mode_refuses_what_it_cannot_do_in_one_line() {
    let dir = scratch("refusals");
    let store = dir.display().to_string();
    for (args, says) in [
        (
            vec!["bfs", "pancake", "--n", "6", "--memory", "1M"],
            "give --store DIR",
        ),
        (
            vec![
                "bfs", "pancake", "--n", "6", "--memory", "1M", "--store", &store, "--algo",
                "reach",
            ],
            "--algo two-bit",
        ),
        (
            vec![
                "bfs",
                "pancake",
                "--n",
                "6",
                "--memory",
                "1M",
                "--store",
                &store,
                "--backend",
                "gpu",
            ],
            "drop --backend gpu",
        ),
        (
            vec![
                "bfs", "pancake", "--n", "6", "--memory", "1K", "--store", &store,
            ],
            "smallest budget",
        ),
        (
            vec![
                "bfs", "pancake", "--n", "6", "--memory", "12X", "--store", &store,
            ],
            "not a size",
        ),
        // Pancake 15's table is 304 GiB: a window of a terabyte's budget
        // cannot be held, and --store, given already, is no advice.
        (
            vec![
                "bfs", "pancake", "--n", "15", "--memory", "1T", "--store", &store,
            ],
            "give a smaller --memory",
        ),
    ] {
        let output = bitsolve(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} was accepted");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        if args.contains(&"--store") {
            assert!(!stderr.contains("use --store"), "{args:?}: {stderr}");
        }
        assert_eq!(
            stderr
                .lines()
                .filter(|l| l.starts_with("bitsolve: error"))
                .count(),
            1,
            "{args:?}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A budget near the top of u64 (8388608T = 2^63 bytes) keeps the whole
/// table in one window, as any budget above the table does; it wrapped to
/// windows of one work unit and wrote the table over and over.
#[test]
fn a_budget_near_the_top_of_u64_writes_what_any_larger_budget_writes() {
    let written = |budget: &str| {
        let dir = scratch(&format!("budget-{budget}"));
        let store = dir.display().to_string();
        let args = [
            "bfs", "pancake", "--n", "9", "--memory", budget, "--json", "--store", &store,
        ];
        let report = common::bitsolve_json(&args);
        let _ = std::fs::remove_dir_all(&dir);
        (report["layers"].clone(), report["bytes_written"].clone())
    };
    let one_gib = written("1G");
    assert_eq!(written("8388608T"), one_gib);
    assert_eq!(written("16777215T"), one_gib);
    let refused = common::bitsolve(&["bfs", "pancake", "--n", "9", "--memory", "16777216T"]);
    assert!(!refused.status.success());
    assert!(common::text(&refused.stderr).contains("'16777216T' is too large"));
}
