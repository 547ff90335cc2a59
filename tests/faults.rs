//! Fault injection: runs killed with SIGKILL at seeded random instants and
//! resumed, random byte flips in finished stores, a full disk, concurrent
//! writers, and stale or read-only stores. The promise under test: a
//! finished table either verifies or is refused, and an interrupted run
//! loses nothing that was finished.
//!
//! The figures docs/reliability.md quotes come from here
//! (`cargo test --test suite faults:: -- --nocapture` prints them).

use crate::common::{self, bitsolve, start_quietly, store_files, text, words};

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Kill instants per kind of run (two kinds: BFS and retrograde).
const KILLS_PER_RUN: usize = 12;
/// Byte flips per kind of store (two kinds).
const FLIPS_PER_STORE: usize = 60;

fn scratch(name: &str) -> PathBuf {
    common::scratch("faults", name)
}

fn assert_success(output: &Output, what: &str) {
    assert!(output.status.success(), "{what}: {}", text(&output.stderr));
}

/// A refusal: non-zero exit, one `bitsolve: error:` line.
fn assert_refused(output: &Output, what: &str) -> String {
    let stderr = text(&output.stderr);
    assert!(!output.status.success(), "{what} was accepted");
    assert!(
        stderr.starts_with("bitsolve: error:") && stderr.trim_end().lines().count() == 1,
        "{what}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    stderr
}

/// xorshift64*: seeded, so every run of the suite injects the same faults.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The counts of a report that do not depend on how the run went:
/// layer sizes, and per retrograde layer its positions and values (not
/// its timing, nor the work a resumed layer redid).
fn counts(json: &serde_json::Value) -> serde_json::Value {
    let layers = json["layers"].as_array().expect("layers");
    let kept = layers
        .iter()
        .map(|layer| match layer.as_object() {
            None => layer.clone(),
            Some(fields) => ["states", "won_for_fox", "won_for_geese", "draws"]
                .iter()
                .map(|key| {
                    (
                        key.to_string(),
                        fields.get(*key).cloned().unwrap_or_default(),
                    )
                })
                .collect::<serde_json::Map<_, _>>()
                .into(),
        })
        .collect();
    serde_json::Value::Array(kept)
}

/// The tables of a store: each file's body and checksums, without the
/// header (whose progress record holds the work a resumed retrograde
/// layer redid).
fn tables(files: &[(String, Vec<u8>)]) -> Vec<(&str, &[u8])> {
    files
        .iter()
        .map(|(name, bytes)| (name.as_str(), &bytes[64 * 1024..]))
        .collect()
}

/// `args` into the store `path`, reporting in JSON.
fn into_store<'a>(args: &[&'a str], path: &'a str) -> Vec<&'a str> {
    [args, &["--store", path, "--json"]].concat()
}

/// Runs `args` (which end in `--store`) into `dir` uninterrupted, then
/// `kills` more times killed at a seeded instant and resumed to the end:
/// the stored tables (bodies and checksums) and the reported counts must
/// equal the uninterrupted run's every time. Returns the kills that landed
/// before the run ended.
fn kill_and_resume(args: &[&str], name: &str, kills: usize, seed: u64) -> usize {
    let reference_dir = scratch(&format!("{name}-reference"));
    let reference_path = reference_dir.display().to_string();
    let with_store = into_store(args, &reference_path);
    let started = Instant::now();
    let reference = bitsolve(&with_store);
    let duration = started.elapsed();
    assert_success(&reference, "the uninterrupted run");
    let reference_json: serde_json::Value = serde_json::from_slice(&reference.stdout).unwrap();
    let reference_files = store_files(&reference_dir);
    // A resumed run reports the same counts (a rerun of a finished store
    // reports them from its checkpoints too).
    let rerun: serde_json::Value = serde_json::from_slice(&bitsolve(&with_store).stdout).unwrap();
    assert_eq!(counts(&rerun), counts(&reference_json));
    assert_eq!(
        store_files(&reference_dir),
        reference_files,
        "a rerun wrote"
    );

    let mut random = Random(seed);
    let mut landed = 0;
    for kill in 0..kills {
        let dir = scratch(&format!("{name}-{kill}"));
        let dir_path = dir.display().to_string();
        let run = into_store(args, &dir_path);
        let instant = Duration::from_micros(random.below(duration.as_micros() as u64 + 1));
        if common::kill_after(&run, instant) {
            landed += 1;
        }
        let resumed = bitsolve(&run);
        assert_success(&resumed, &format!("resuming after a kill at {instant:?}"));
        let json: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
        assert_eq!(
            counts(&json),
            counts(&reference_json),
            "counts after a kill at {instant:?}"
        );
        assert!(
            tables(&store_files(&dir)) == tables(&reference_files),
            "table bytes differ after a kill at {instant:?}"
        );
        assert_success(&bitsolve(&["verify", &dir_path]), "verify after resuming");
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::remove_dir_all(&reference_dir).unwrap();
    landed
}

#[test]
fn runs_killed_at_random_instants_resume_to_identical_tables() {
    let bfs = kill_and_resume(
        &["bfs", "pancake", "--n", "10"],
        "bfs",
        KILLS_PER_RUN,
        0x5eed_0001,
    );
    // Recording after every pass, so that kills land between the records
    // inside a layer too (the default records every few minutes).
    let retro = kill_and_resume(
        &words("retro fox-geese --geese 5 --checkpoint-every 0"),
        "retro",
        KILLS_PER_RUN,
        0x5eed_0002,
    );
    // Layers solved by passes, then by one sweep each (the Morris
    // opening, which reads the moving phase's layers from the store).
    let sweeps = kill_and_resume(
        &[
            "retro",
            "nine-mens-morris",
            "--men",
            "4",
            "--symmetry",
            "--layers",
            "1..16",
            "--checkpoint-every",
            "0",
        ],
        "sweeps",
        KILLS_PER_RUN / 2,
        0x5eed_0003,
    );
    eprintln!(
        "faults: {} SIGKILLs ({bfs} BFS, {retro} retrograde, {sweeps} retrograde with sweeps landed mid-run) resumed to identical tables",
        2 * KILLS_PER_RUN + KILLS_PER_RUN / 2
    );
    assert!(
        bfs + retro + sweeps >= KILLS_PER_RUN,
        "too few kills landed mid-run: {bfs} + {retro} + {sweeps}"
    );
}

/// Flips one random bit in `flips` copies of each of `store`'s files in
/// turn (anywhere: header, body, trailer); `verify` and `reopen` (a resume
/// or a query) must refuse every one.
fn flip_and_refuse(
    store: &Path,
    flips: usize,
    seed: u64,
    reopen: &dyn Fn(&str) -> Output,
) -> usize {
    let files = store_files(store);
    let mut random = Random(seed);
    let copy = store.with_extension("flipped");
    for flip in 0..flips {
        let name = &files[flip % files.len()].0;
        let _ = std::fs::remove_dir_all(&copy);
        std::fs::create_dir_all(&copy).unwrap();
        for (other, other_bytes) in &files {
            std::fs::write(copy.join(other), other_bytes).unwrap();
        }
        let mut at = 0;
        common::damage_file(&copy.join(name), |bytes| {
            at = random.below(bytes.len() as u64) as usize;
            bytes[at] ^= 1 << random.below(8);
        });
        let copy_path = copy.display().to_string();
        let verified = bitsolve(&["verify", &copy_path]);
        assert!(
            !verified.status.success(),
            "verify accepted a flip at byte {at} of {name}"
        );
        assert!(
            text(&verified.stdout).contains(&format!("{name}:"))
                && !text(&verified.stdout).contains(&format!("intact    {copy_path}/{name}")),
            "verify did not name {name}: {}",
            text(&verified.stdout)
        );
        assert_refused(
            &reopen(&copy_path),
            &format!("a flip at byte {at} of {name}"),
        );
    }
    let _ = std::fs::remove_dir_all(&copy);
    flips
}

#[test]
fn every_flipped_byte_in_a_finished_store_is_detected_and_refused() {
    let bfs_store = scratch("flip-bfs");
    let bfs_path = bfs_store.display().to_string();
    let bfs_args = ["bfs", "pancake", "--n", "9", "--store", &bfs_path];
    assert_success(&bitsolve(&bfs_args), "the BFS");
    let bfs = flip_and_refuse(&bfs_store, FLIPS_PER_STORE, 0xf11b_0001, &|copy| {
        bitsolve(&["bfs", "pancake", "--n", "9", "--store", copy])
    });

    let retro_store = scratch("flip-retro");
    let retro_path = retro_store.display().to_string();
    assert_success(
        &bitsolve(&["retro", "fox-geese", "--geese", "3", "--store", &retro_path]),
        "the retrograde analysis",
    );
    // Three geese on their home points, the fox at the top, fox to move:
    // the query opens the layers of 3 and 2 geese.
    let retro = flip_and_refuse(&retro_store, FLIPS_PER_STORE, 0xf11b_0002, &|copy| {
        let output = bitsolve(&common::fox_geese_query(
            copy,
            &["--position", &three_geese_at_home()],
        ));
        if output.status.success() {
            // The query did not open the damaged layer: the resume must
            // refuse it.
            bitsolve(&["retro", "fox-geese", "--geese", "3", "--store", copy])
        } else {
            output
        }
    });
    eprintln!(
        "faults: {} byte flips detected by verify and refused",
        bfs + retro
    );
    std::fs::remove_dir_all(&bfs_store).unwrap();
    std::fs::remove_dir_all(&retro_store).unwrap();
}

/// Three geese on their home points, the fox at the top, fox to move.
fn three_geese_at_home() -> String {
    format!("F{}ggg:fox", ".".repeat(29))
}

/// A directory on a small file system: a tmpfs of `bytes` when this test
/// may mount one (root), else `None`.
fn small_file_system(name: &str, bytes: u64) -> Option<PathBuf> {
    let dir = scratch(name);
    std::fs::create_dir_all(&dir).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={bytes}")])
        .arg("tmpfs")
        .arg(&dir)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    mounted.then_some(dir)
}

fn unmount(dir: &Path) {
    let _ = Command::new("umount").arg(dir).status();
    let _ = std::fs::remove_dir_all(dir);
}

/// Nothing but table files in the store `dir`: a failed write left nothing
/// behind.
fn assert_only_tables(dir: &Path) {
    let leftovers: Vec<String> = store_files(dir)
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| !name.ends_with(".bst"))
        .collect();
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
}

/// Runs `args` with a file-size limit of `bytes` (SIGXFSZ ignored, so
/// writing past it fails with EFBIG instead of killing the process).
fn with_file_size_limit(args: &[&str], bytes: u64) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = common::command(args);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            Ok(())
        });
    }
    command.output().unwrap()
}

#[test]
fn a_full_disk_is_a_clear_error_and_leaves_earlier_layers_verifiable() {
    // Layers 0..=4 of Fox-and-Geese take about 1 MiB, layer 5 another 3.2.
    let mounted = small_file_system("disk-full", 2 << 20);
    let dir = mounted.clone().unwrap_or_else(|| scratch("disk-full"));
    let path = dir.display().to_string();
    let args = ["retro", "fox-geese", "--geese", "5", "--store", &path];
    let (output, how) = match mounted {
        Some(_) => (bitsolve(&args), "a 2 MiB tmpfs"),
        None => (
            with_file_size_limit(&args, 2 << 20),
            "RLIMIT_FSIZE of 2 MiB",
        ),
    };
    let stderr = assert_refused(&output, how);
    assert!(stderr.contains("fox-geese-g-5"), "{stderr}");
    let verified = bitsolve(&["verify", &path]);
    assert_success(
        &verified,
        "verify of the layers written before the disk filled",
    );
    assert_eq!(text(&verified.stdout).matches("intact").count(), 5);
    assert_only_tables(&dir);
    eprintln!("faults: disk full ({how}) refused cleanly: {stderr}");
    unmount(&dir);
}

#[test]
fn a_file_size_limit_set_in_a_shell_is_a_clear_error_not_a_signal() {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    // Layers 0..=3 of Fox-and-Geese fit in 500 KiB each, layer 4 does not.
    let dir = scratch("ulimit-f");
    let script = format!(
        "ulimit -f 1000; exec '{}' retro fox-geese --geese 4 --store '{}'",
        common::BIN,
        dir.display()
    );
    let mut command = Command::new("sh");
    command.args(["-c", &script]);
    // SAFETY: only async-signal-safe calls between fork and exec. SIGXFSZ
    // gets its default action (death) whatever this test process has:
    // bitsolve itself must be the one that ignores it.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
            Ok(())
        });
    }
    let output = command.output().unwrap();
    assert_eq!(
        output.status.signal(),
        None,
        "killed by a signal: {:?}",
        output.status
    );
    let stderr = assert_refused(&output, "a run past ulimit -f");
    assert!(
        stderr.contains("fox-geese-g-4") && stderr.contains("file size limit"),
        "{stderr}"
    );
    assert_only_tables(&dir);
    let verified = bitsolve(&["verify", &dir.display().to_string()]);
    assert_success(&verified, "verify of the layers written before the limit");
    eprintln!("faults: ulimit -f refused cleanly: {stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Pancake 11 on one thread into the store `path`: a run long enough to
/// be caught running.
fn pancake_11_into(path: &str) -> [&str; 8] {
    [
        "bfs",
        "pancake",
        "--n",
        "11",
        "--store",
        path,
        "--threads",
        "1",
    ]
}

/// The table file of [`pancake_11_into`].
const PANCAKE_11_TABLE: &str = "pancake-n-11-two-bit-bfs.bst";

/// Starts [`pancake_11_into`] a new store `name`: the store, its path as
/// an argument, and the run.
fn pancake_11_started(name: &str) -> (PathBuf, String, Child) {
    let dir = scratch(name);
    let path = dir.display().to_string();
    let child = start_quietly(&pancake_11_into(&path));
    (dir, path, child)
}

#[test]
fn a_second_writer_is_refused_while_the_first_runs() {
    let (dir, path, mut first) = pancake_11_started("two-writers");
    // Wait until the first run has made its table.
    let table = dir.join(PANCAKE_11_TABLE);
    common::wait_until(Duration::from_secs(60), "no table made", || table.exists());
    let second = bitsolve(&pancake_11_into(&path));
    let reader = bitsolve(&["verify", &path]);
    let _ = first.kill();
    first.wait().unwrap();
    let stderr = assert_refused(&second, "a second writer");
    assert!(
        stderr.contains(PANCAKE_11_TABLE) && stderr.contains("another bitsolve run"),
        "{stderr}"
    );
    assert_refused(&reader, "verify of a store being written");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Peg Solitaire on the board of the file `board`, into the store `store`.
fn solve_board(board: &Path, store: &Path) -> Output {
    let (board, store) = (common::arg(board), common::arg(store));
    bitsolve(&["bfs", "peg-solitaire", "--board", &board, "--store", &store])
}

#[test]
fn a_store_made_for_another_board_is_refused_naming_the_difference() {
    let dir = scratch("stale");
    let board = common::write_file(&dir, "board.txt", "ooo\nooo\n_oo\n");
    let store = dir.join("store");
    let run = || solve_board(&board, &store);
    assert_success(&run(), "the first board");
    // Same file name, same cell count, same start hole: another board.
    std::fs::write(&board, ".ooo\nooo\n_oo\n").unwrap();
    let stderr = assert_refused(&run(), "the edited board");
    assert!(stderr.contains("board-row=.ooo"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_board_with_a_long_path_is_stored() {
    let dir = scratch("long-path");
    let deep = (0..12).fold(dir.clone(), |path, i| {
        path.join(format!("directory-{i:02}-{}", "x".repeat(20)))
    });
    let board = common::write_file(&deep, "board.txt", "ooo\nooo\n_oo\n");
    assert!(board.display().to_string().len() > 300);
    let store = dir.join("store");
    assert_success(&solve_board(&board, &store), "a board with a long path");
    assert_success(&solve_board(&board, &store), "resuming it");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_read_only_database_is_queried_without_being_written() {
    let dir = scratch("read-only");
    let store = dir.display().to_string();
    assert_success(
        &bitsolve(&["retro", "fox-geese", "--geese", "3", "--store", &store]),
        "the retrograde analysis",
    );
    let before = store_files(&dir);
    let modified = |d: &Path| {
        std::fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.metadata().unwrap().modified().unwrap())
            .collect::<Vec<_>>()
    };
    let times = modified(&dir);
    let mut permissions = std::fs::metadata(&dir).unwrap().permissions();
    for (name, _) in &before {
        let mut file_permissions = permissions.clone();
        std::os::unix::fs::PermissionsExt::set_mode(&mut file_permissions, 0o444);
        std::fs::set_permissions(dir.join(name), file_permissions).unwrap();
    }
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o555);
    std::fs::set_permissions(&dir, permissions.clone()).unwrap();
    let position = three_geese_at_home();
    let query = common::fox_geese_query(&store, &["--position", &position]);
    // Root ignores file modes: then run the query as nobody.
    let output = if unsafe { libc::geteuid() } == 0 {
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(common::BIN)
            .args(query)
            .output()
            .unwrap()
    } else {
        bitsolve(&query)
    };
    assert_success(&output, "a query of a read-only store");
    assert!(
        text(&output.stdout).contains("value: won for the fox"),
        "{}",
        text(&output.stdout)
    );
    assert_eq!(store_files(&dir), before);
    assert_eq!(modified(&dir), times);
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&dir, permissions).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The last finished layer the progress record in a table file's header
/// names (the header's layout: `src/table/header.rs`; the record's:
/// `src/search/checkpoint.rs`), once the header says the file is sealed.
fn recorded_layer(table: &Path) -> Option<u64> {
    let bytes = std::fs::read(table).ok()?;
    let field = |at: usize| -> Option<u64> {
        Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
    };
    let sealed = bytes.get(32) == Some(&1);
    let last = field(20488)?;
    (sealed && field(20480)? > 0 && last != u64::MAX).then_some(last)
}

#[test]
fn an_interrupted_store_is_reported_incomplete_until_resumed() {
    let (dir, path, mut child) = pancake_11_started("incomplete");
    let args = pancake_11_into(&path);
    let table = dir.join(PANCAKE_11_TABLE);
    // Kill once a layer past the first is recorded, the file sealed: the
    // table is worked on in memory, and its file sealed at every record.
    common::kill_when(
        &mut child,
        Duration::from_secs(60),
        "never recorded a layer",
        || recorded_layer(&table).is_some_and(|last| last >= 2),
    );
    let verified = bitsolve(&["verify", &path]);
    assert!(!verified.status.success());
    assert!(
        text(&verified.stdout).starts_with("incomplete"),
        "{}",
        text(&verified.stdout)
    );
    let resumed = bitsolve(&args);
    assert_success(&resumed, "the resumed run");
    assert!(
        text(&resumed.stderr).contains("resuming after completed layer"),
        "{}",
        text(&resumed.stderr)
    );
    assert_success(&bitsolve(&["verify", &path]), "verify after resuming");
    std::fs::remove_dir_all(&dir).unwrap();
}
