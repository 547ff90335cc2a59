//! An interrupted file-backed search, run again, ends with the same table as
//! an uninterrupted one, for every algorithm.

use crate::common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use bitsolve::backend::CpuBackend;
use bitsolve::games::{Board, FrogsToads, Pancake, PegSolitaire, SlidingTile};
use bitsolve::search::{Algorithm, SearchOptions};
use bitsolve::space::Space;
use bitsolve::table::Backing;

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitsolve-resume-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn interrupted_then_resumed<S: Space>(
    space: &S,
    algorithm: Algorithm,
    crash_after: u64,
    name: &str,
) {
    let expected = common::run(space, algorithm, 2);
    let dir = scratch_dir(name);
    let crash = common::Crash::after(crash_after);
    let options = SearchOptions {
        backing: Backing::Directory(dir.clone()),
        progress: &crash,
        ..Default::default()
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        algorithm.run(space, &CpuBackend, &options)
    }));
    assert!(
        outcome.is_err(),
        "{name}: the search finished before the simulated crash"
    );

    let options = SearchOptions {
        backing: Backing::Directory(dir.clone()),
        ..Default::default()
    };
    let resumed = algorithm.run(space, &CpuBackend, &options).unwrap();
    assert!(resumed.resumed_from.is_some(), "{name}: did not resume");
    assert_eq!(resumed.layers, expected.layers, "{name}");
    assert_eq!(resumed.reachable, expected.reachable, "{name}");
    assert_eq!(resumed.goals, expected.goals, "{name}");

    // A finished table answers again without searching.
    let again = algorithm.run(space, &CpuBackend, &options).unwrap();
    assert_eq!(again.layers, expected.layers);
    assert_eq!(again.passes, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_bit_bfs_resumes() {
    let space = Pancake::new(10, false).unwrap();
    // 3,628,800 states are 56 chunks a pass: crash in the middle of layer 4.
    interrupted_then_resumed(&space, Algorithm::TwoBitBfs, 56 * 3 + 20, "two-bit");
    // Crash inside a parent-checking pass (the last layers of pancake 10).
    interrupted_then_resumed(
        &space,
        Algorithm::TwoBitBfs,
        56 * 10 + 30,
        "two-bit-backward",
    );
}

#[test]
fn one_bit_bfs_resumes() {
    // The 8-puzzle's blocks are one chunk each; a pass expands 4 or 5.
    let space = SlidingTile::new(3, 3).unwrap();
    interrupted_then_resumed(&space, Algorithm::OneBitBfs, 4 * 9 + 2, "one-bit");
}

#[test]
fn frogs_and_toads_resumes() {
    // Fore and Aft: 17 blocks of one chunk; crash in layer 3.
    let space = FrogsToads::standard(3).unwrap();
    interrupted_then_resumed(&space, Algorithm::TwoBitBfs, 17 * 2 + 5, "frogs-toads");
}

#[test]
fn peg_solitaire_resumes_with_discarded_layers() {
    // A 4x4 board with a hole in a corner: exact layers, discarded as the
    // search passes them.
    let board = Board::parse("oooo\noooo\noooo\noooo\n", "square 4x4").unwrap();
    let space = PegSolitaire::new(board, &[0], false).unwrap();
    interrupted_then_resumed(&space, Algorithm::OneBitBfs, 5, "peg-solitaire");
}

#[test]
fn reachability_resumes() {
    let space = SlidingTile::new(3, 3).unwrap();
    interrupted_then_resumed(&space, Algorithm::OneBitReachability, 9 * 2 + 3, "reach");
}

#[test]
fn a_store_of_another_run_is_refused() {
    let dir = scratch_dir("mismatch");
    let options = SearchOptions {
        backing: Backing::Directory(dir.clone()),
        ..Default::default()
    };
    Algorithm::TwoBitBfs
        .run(&Pancake::new(6, false).unwrap(), &CpuBackend, &options)
        .unwrap();
    // Damage the header: the file is named for pancake n=6, so a rerun must
    // refuse it rather than trust it.
    let path = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 0xff;
    std::fs::write(&path, bytes).unwrap();
    let error = Algorithm::TwoBitBfs
        .run(&Pancake::new(6, false).unwrap(), &CpuBackend, &options)
        .unwrap_err();
    assert!(error.to_string().contains("checksum"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A store's identity sees the board's contents, not just its name: the
/// same file name, cell count and start hole with another layout differ,
/// and the difference names the board row.
#[test]
fn an_edited_board_changes_the_store_identity_and_says_where() {
    use bitsolve::search::identity::space_identity;
    let space = |text: &str| {
        let board = Board::parse(text, "b.txt").unwrap();
        PegSolitaire::new(board, &[6], false).unwrap()
    };
    let identity = |text: &str| space_identity(&space(text), "one-bit BFS", 1);
    let original = identity("ooo\nooo\nooo\n");
    assert_eq!(original, identity("ooo\nooo\nooo\n"));
    let edited = identity(".ooo\nooo\nooo\n");
    assert_eq!(original.descriptor, edited.descriptor);
    assert_ne!(original.hash(), edited.hash());
    let message = edited.difference(&original).unwrap_or_default();
    assert!(message.contains("board-row=.ooo"), "{message}");
}

/// A finished table in a store the run cannot write is read, as `retro`
/// reads its solved layers: the same report, no pass run. (Run as another
/// user where the tests run as root, whom permissions do not stop.)
#[test]
fn bfs_answers_from_a_finished_table_in_a_read_only_store() {
    let dir = common::ScratchDir::new("resume", "read-only");
    let store = dir.join("store");
    let store_arg = common::arg(&store);
    let args = [
        "bfs", "pancake", "--n", "7", "--json", "--store", &store_arg,
    ];
    let first = common::bitsolve_json(&args);
    let table = store.join("pancake-n-7-two-bit-bfs.bst");
    let mode = |path: &std::path::Path, mode| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    mode(&table, 0o444);
    mode(&store, 0o555);
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let mut command = if root {
        let mut command = std::process::Command::new("setpriv");
        command
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(common::BIN);
        command
    } else {
        std::process::Command::new(common::BIN)
    };
    let output = command.args(args).output().expect("run bitsolve");
    mode(&store, 0o755);
    assert!(output.status.success(), "{}", common::text(&output.stderr));
    let again = common::json_of(&output);
    assert_eq!(again["layers"], first["layers"]);
    assert_eq!(again["complete"], true);
    assert_eq!(again["expanded"], 0);
}
