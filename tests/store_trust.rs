//! A resume never builds on bytes that no checksum vouches for: runs are
//! killed at spread-out instants, their table files damaged (zeroed or
//! overwritten, anywhere in the body), and run again. Every rerun either
//! refuses the table in one line or finishes with exactly the counts of an
//! undisturbed run.

use crate::common::{
    self, bitsolve, bitsolve_json, one_error_line, start_quietly, words, words_and,
};

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use serde_json::Value;

/// How a test puts something that is not a table in a table's place.
type Replacement = fn(&Path);

fn scratch(name: &str) -> PathBuf {
    common::scratch("damage", name)
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
    common::damage_file(table, |content| {
        let len = content.len() as u64;
        if len <= HEADER + bytes {
            return;
        }
        let at = HEADER + random.next(len - HEADER - bytes);
        let byte = if random.next(2) == 0 { 0 } else { 0xAA };
        content[at as usize..(at + bytes) as usize].fill(byte);
    });
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
    common::kill_after(args, delay);
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
        assert_eq!(rerun.status.code(), Some(1), "{args:?}: {stderr}");
        let error = one_error_line(&rerun);
        assert!(
            error.contains("damaged") || error.contains("cannot be trusted"),
            "{args:?}: {stderr}"
        );
        tally.refused += 1;
    }
    std::fs::remove_dir_all(store).unwrap();
}

/// Fifty [`trial`]s of `args` into a new store `name`, killed after 5 ms
/// and up to `spread` more, whose reruns must all be refused or give
/// `expected`; and both must happen. The first is killed at once, before
/// any table exists, so that a rerun over a store without one is always
/// among them: on a loaded machine a run killed after a few milliseconds
/// may already have made its table every time (CI once saw 50 refused).
fn trials(
    name: &str,
    args: &[&str],
    random: &mut Lcg,
    spread: u64,
    counts: &dyn Fn(&Value) -> Value,
    expected: &Value,
) {
    let store = scratch(name).display().to_string();
    let args = [args, &["--store", &store]].concat();
    let mut tally = Tally::default();
    for trial_number in 0..50 {
        let delay = match trial_number {
            0 => Duration::ZERO,
            _ => Duration::from_millis(5 + random.next(spread)),
        };
        let bytes = if random.next(2) == 0 { 4096 } else { 65536 };
        trial(&args, delay, random, bytes, counts, expected, &mut tally);
    }
    eprintln!("{name}: {tally:?}");
    assert!(tally.refused > 0 && tally.recomputed > 0, "{tally:?}");
}

#[test]
fn damage_before_a_bfs_resume_is_refused_or_recomputed_exactly() {
    let layers = |report: &Value| report["layers"].clone();
    let expected = layers(&bitsolve_json(&["bfs", "pancake", "--n", "10", "--json"]));
    let args = ["bfs", "pancake", "--n", "10", "--threads", "1"];
    trials("bfs", &args, &mut Lcg(1), 400, &layers, &expected);
}

#[test]
fn damage_before_a_retrograde_resume_is_refused_or_recomputed_exactly() {
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
    let expected = values(&bitsolve_json(&[
        "retro",
        "fox-geese",
        "--geese",
        "5",
        "--json",
    ]));
    let args = words("retro fox-geese --geese 5 --checkpoint-every 0");
    trials("retro", &args, &mut Lcg(2), 600, &values, &expected);
}

/// Runs `args`, failing the test if it is still running after `limit`
/// (a reader blocked on a FIFO would never end).
fn bitsolve_within(args: &[&str], limit: Duration) -> Output {
    let (output, ended) = common::output_within(&mut common::command(args), limit);
    assert!(ended, "{args:?} still running after {limit:?}");
    output
}

/// A new store `name` holding Fox-and-Geese layers `layers` (`A..B`), and
/// its path as an argument.
fn solved_store(name: &str, layers: &str) -> (PathBuf, String) {
    let dir = scratch(name);
    let store = dir.display().to_string();
    let solved = bitsolve(&["retro", "fox-geese", "--layers", layers, "--store", &store]);
    assert!(solved.status.success(), "{}", one_error_line(&solved));
    (dir, store)
}

#[test]
fn a_fifo_directory_or_link_loop_named_like_a_table_is_refused_without_blocking() {
    let (dir, store) = solved_store("not-files", "1..5");
    let table = dir.join("fox-geese-g-5-retrograde-values.bst");
    std::fs::remove_file(&table).unwrap();
    let position = format!("Fggggg{}:fox", ".".repeat(27));
    let query = common::fox_geese_query(&store, &["--position", &position]);
    let limit = Duration::from_secs(30);
    let replacements: [(&str, Replacement); 3] = [
        ("a FIFO", |path| {
            let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
            // SAFETY: mkfifo with a valid C string.
            assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        }),
        ("a directory", |path| std::fs::create_dir(path).unwrap()),
        ("Too many levels of symbolic links", |path| {
            std::os::unix::fs::symlink(path.file_name().unwrap(), path).unwrap()
        }),
    ];
    for (what, replace) in replacements {
        replace(&table);
        let error = one_error_line(&bitsolve_within(&query, limit));
        assert!(error.contains(what), "{what}: {error}");
        let verified = bitsolve_within(&["verify", &store], limit);
        let stdout = String::from_utf8_lossy(&verified.stdout).to_string();
        assert!(!verified.status.success());
        assert!(
            stdout.contains("unreadable") && stdout.contains(what),
            "{what}: {stdout}"
        );
        // A resume of the range refuses it too, instead of taking it for a
        // missing layer and writing past it.
        let resumed = bitsolve_within(
            &["retro", "fox-geese", "--layers", "1..5", "--store", &store],
            limit,
        );
        assert!(one_error_line(&resumed).contains(what));
        if table.is_dir() && !table.is_symlink() {
            std::fs::remove_dir(&table).unwrap();
        } else {
            std::fs::remove_file(&table).unwrap();
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_names_swapped_tables_misplaced_and_unfinished_ones_incomplete() {
    let (dir, store) = solved_store("verify", "1..5");
    let layer = |g: u32| dir.join(format!("fox-geese-g-{g}-retrograde-values.bst"));
    let swap = dir.join("swap");
    std::fs::rename(layer(4), &swap).unwrap();
    std::fs::rename(layer(5), layer(4)).unwrap();
    std::fs::rename(&swap, layer(5)).unwrap();
    let verified = bitsolve(&["verify", &store]);
    let stdout = String::from_utf8_lossy(&verified.stdout).to_string();
    assert!(!verified.status.success());
    let misplaced: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("misplaced"))
        .collect();
    assert_eq!(misplaced.len(), 2, "{stdout}");
    assert!(misplaced[0].contains("g-4") && misplaced[0].contains("'fox-geese g=5"));
    std::fs::remove_dir_all(&dir).unwrap();

    // A BFS stopped before it finished (here at --max-depth) left a sealed,
    // intact table that is not a result.
    let stopped = bitsolve(&words_and(
        "bfs pancake --n 8 --max-depth 3 --store",
        &[&store],
    ));
    assert!(stopped.status.success());
    let verified = bitsolve(&["verify", &store, "--json"]);
    assert!(!verified.status.success());
    let report: Value = serde_json::from_slice(&verified.stdout).unwrap();
    assert_eq!(report["intact"], false);
    assert_eq!(report["files"][0]["status"], "incomplete");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A rerun over layers the store holds finished reads them read only: their
/// files keep their bytes and times, and `query` answers from a finished
/// layer while a layer above it is being solved (a writer's lock on every
/// layer of the range refused it before).
#[test]
fn finished_layers_are_read_not_written_by_a_rerun_and_stay_queryable() {
    let (dir, store) = solved_store("finished", "1..7");
    let seven = dir.join("fox-geese-g-7-retrograde-values.bst");
    let times = |path: &Path| {
        let metadata = std::fs::metadata(path).unwrap();
        (metadata.modified().unwrap(), std::fs::read(path).unwrap())
    };
    let before = times(&seven);
    let mut child = start_quietly(&["retro", "fox-geese", "--layers", "1..8", "--store", &store]);
    // Once layer 8's file is there, its run holds layer 7 as the layer below.
    let eight = dir.join("fox-geese-g-8-retrograde-values.bst");
    common::wait_until(Duration::from_secs(120), "no layer 8", || {
        eight.exists() || child.try_wait().unwrap().is_some()
    });
    let position = format!("Fggggggg{}:fox", ".".repeat(25));
    let answered = bitsolve(&common::fox_geese_query(&store, &["--position", &position]));
    let running = child.try_wait().unwrap().is_none();
    assert!(child.wait().unwrap().success());
    assert!(
        answered.status.success(),
        "while layer 8 was solved ({running}): {}",
        one_error_line(&answered)
    );
    assert!(running, "the query came after the run: make layer 8 slower");
    assert!(before == times(&seven), "layer 7's file was written");
    let _ = std::fs::remove_dir_all(&dir);
}
