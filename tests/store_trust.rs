//! A resume never builds on bytes that no checksum vouches for: runs are
//! killed at spread-out instants, their table files damaged (zeroed or
//! overwritten, anywhere in the body), and run again. Every rerun either
//! refuses the table in one line or finishes with exactly the counts of an
//! undisturbed run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

fn bitsolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(args)
        .output()
        .expect("bitsolve runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitsolve-damage-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A small deterministic generator, so that a failing trial can be rerun.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below.max(1)
    }
}

/// The table file a run writes last (the highest layer of a retrograde
/// store; the one table of a BFS).
fn newest_table(dir: &Path) -> Option<PathBuf> {
    let mut tables: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "bst"))
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .collect();
    tables.sort();
    tables.pop().map(|(_, path)| path)
}

/// Damages `bytes` bytes of the body of `table` at a place `random` picks:
/// zeros or 0xAA.
fn damage(table: &Path, random: &mut Lcg, bytes: u64) {
    const HEADER: u64 = 64 * 1024;
    let mut content = std::fs::read(table).unwrap();
    let len = content.len() as u64;
    if len <= HEADER + bytes {
        return;
    }
    let at = HEADER + random.next(len - HEADER - bytes);
    let byte = if random.next(2) == 0 { 0 } else { 0xAA };
    content[at as usize..(at + bytes) as usize].fill(byte);
    std::fs::write(table, content).unwrap();
}

#[derive(Debug, Default)]
struct Tally {
    refused: u32,
    recomputed: u32,
}

/// Kills `args` after `delay`, damages its newest table, runs it again and
/// checks the outcome against `expected` (the undisturbed `--json` report
/// reduced by `counts`).
fn trial(
    args: &[&str],
    delay: Duration,
    random: &mut Lcg,
    bytes: u64,
    counts: &dyn Fn(&Value) -> Value,
    expected: &Value,
    tally: &mut Tally,
) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    let _ = child.kill();
    child.wait().unwrap();
    let store = args[args.iter().position(|&a| a == "--store").unwrap() + 1];
    if let Some(table) = newest_table(Path::new(store)) {
        damage(&table, random, bytes);
    }
    let mut again = args.to_vec();
    again.push("--json");
    let rerun = bitsolve(&again);
    let stderr = String::from_utf8_lossy(&rerun.stderr);
    if rerun.status.success() {
        let report: Value = serde_json::from_slice(&rerun.stdout).unwrap();
        assert_eq!(
            &counts(&report),
            expected,
            "{args:?} killed after {delay:?}, damaged, rerun: {stderr}"
        );
        tally.recomputed += 1;
    } else {
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("bitsolve: error"))
            .collect();
        assert_eq!(rerun.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
        assert!(
            errors[0].contains("damaged") || errors[0].contains("cannot be trusted"),
            "{args:?}: {stderr}"
        );
        tally.refused += 1;
    }
    std::fs::remove_dir_all(store).unwrap();
}

#[test]
fn damage_before_a_bfs_resume_is_refused_or_recomputed_exactly() {
    let dir = scratch("bfs");
    let store = dir.display().to_string();
    let args = [
        "bfs",
        "pancake",
        "--n",
        "10",
        "--threads",
        "1",
        "--store",
        &store,
    ];
    let layers = |report: &Value| report["layers"].clone();
    let expected = layers(
        &serde_json::from_slice(&bitsolve(&["bfs", "pancake", "--n", "10", "--json"]).stdout)
            .unwrap(),
    );
    let mut random = Lcg(1);
    let mut tally = Tally::default();
    for _ in 0..50 {
        let delay = Duration::from_millis(5 + random.next(400));
        let bytes = if random.next(2) == 0 { 4096 } else { 65536 };
        trial(
            &args,
            delay,
            &mut random,
            bytes,
            &layers,
            &expected,
            &mut tally,
        );
    }
    eprintln!("bfs: {tally:?}");
    assert!(tally.refused > 0 && tally.recomputed > 0, "{tally:?}");
}

#[test]
fn damage_before_a_retrograde_resume_is_refused_or_recomputed_exactly() {
    let dir = scratch("retro");
    let store = dir.display().to_string();
    let args = [
        "retro",
        "fox-geese",
        "--geese",
        "5",
        "--checkpoint-every",
        "0",
        "--store",
        &store,
    ];
    let values = |report: &Value| -> Value {
        report["layers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                serde_json::json!([l["layer"], l["won_for_fox"], l["won_for_geese"], l["draws"]])
            })
            .collect()
    };
    let expected = values(
        &serde_json::from_slice(
            &bitsolve(&["retro", "fox-geese", "--geese", "5", "--json"]).stdout,
        )
        .unwrap(),
    );
    let mut random = Lcg(2);
    let mut tally = Tally::default();
    for _ in 0..50 {
        let delay = Duration::from_millis(5 + random.next(600));
        let bytes = if random.next(2) == 0 { 4096 } else { 65536 };
        trial(
            &args,
            delay,
            &mut random,
            bytes,
            &values,
            &expected,
            &mut tally,
        );
    }
    eprintln!("retro: {tally:?}");
    assert!(tally.refused > 0 && tally.recomputed > 0, "{tally:?}");
}
