//! A store never writes through a symbolic link planted at a name its
//! writers use: the temporary name of each table (`*.bst.tmp`), a table
//! itself, the journal of a table on disk. Each is refused in one line
//! naming the link, and the file it points to is left as it was.

use crate::common::{ScratchDir, arg, bitsolve, one_error_line};

const VICTIM: &[u8] = b"precious, not a table\n";

/// The tables a clean run of `args` (with `--store` appended) leaves.
fn tables_of(group: &str, args: &[&str]) -> Vec<String> {
    let dir = ScratchDir::new("links", &format!("{group}-clean"));
    let store = arg(&dir.join("store"));
    let output = bitsolve(&[args, &["--store", &store]].concat());
    assert!(output.status.success(), "{args:?}");
    let mut names: Vec<String> = std::fs::read_dir(dir.join("store"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(!names.is_empty());
    names
}

/// Plants a link to a victim file at `name` in an empty store, runs `args`
/// on it and checks the refusal and that the victim is unchanged.
fn refused_through_link(group: &str, args: &[&str], name: &str) {
    let dir = ScratchDir::new("links", group);
    let store = dir.join("store");
    std::fs::create_dir(&store).unwrap();
    let victim = dir.join("victim");
    std::fs::write(&victim, VICTIM).unwrap();
    let link = store.join(name);
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let output = bitsolve(&[args, &["--store", &arg(&store)]].concat());
    let error = one_error_line(&output);
    assert_eq!(
        error,
        format!(
            "bitsolve: error: store file {}: is a symbolic link, which a store never follows (remove the link, or put the file itself in its place)",
            link.display()
        ),
        "{args:?} with {name}"
    );
    assert_eq!(std::fs::read(&victim).unwrap(), VICTIM, "{args:?} {name}");
    assert!(link.is_symlink(), "{name}");
}

/// Every table a run writes, under its temporary name and its own.
fn every_table_name_refused(group: &str, args: &[&str], extra: &[String]) {
    let tables = tables_of(group, args);
    let names = tables
        .iter()
        .flat_map(|table| [format!("{table}.tmp"), table.clone()])
        .chain(extra.iter().cloned());
    for name in names {
        refused_through_link(group, args, &name);
    }
}

#[test]
fn bfs_refuses_a_link_at_its_table_or_temporary_name() {
    every_table_name_refused("bfs", &["bfs", "pancake", "--n", "7"], &[]);
}

#[test]
fn solve_refuses_a_link_at_its_table_or_temporary_name() {
    let args = ["solve", "pancake", "--n", "5", "--position", "2 1 3 4 5"];
    every_table_name_refused("solve", &args, &[]);
}

#[test]
fn retro_refuses_a_link_at_any_layer_table_or_temporary_name() {
    every_table_name_refused("retro", &["retro", "dodgem", "--n", "3"], &[]);
}

#[test]
fn retro_distances_refuse_a_link_at_any_table_or_scheduled_name() {
    // The scheduled bits of a layer live in a table of their own while
    // its distances are worked out, and are removed after.
    let scheduled: Vec<String> = (0..=4)
        .map(|cars| format!("dodgem-n-3-cars-{cars}-retrograde-distances-scheduled.bst.tmp"))
        .collect();
    let args = ["retro", "dodgem", "--n", "3", "--distances"];
    every_table_name_refused("distances", &args, &scheduled);
}

#[test]
fn bfs_on_disk_refuses_a_link_at_its_journal() {
    let args = ["bfs", "pancake", "--n", "9", "--memory", "64K"];
    refused_through_link("journal", &args, "pancake-n-9-two-bit-bfs.bst.journal");
}

/// The directory of successors waiting for their window is the run's own:
/// a link there is removed, never followed into what it points to.
#[test]
fn bfs_on_disk_never_clears_a_directory_linked_at_its_waiting_place() {
    let dir = ScratchDir::new("links", "waiting");
    let store = dir.join("store");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("keep"), VICTIM).unwrap();
    let link = store.join("pancake-n-9-two-bit-bfs.bst.waiting");
    std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
    let args = ["bfs", "pancake", "--n", "9", "--memory", "64K", "--store"];
    let output = bitsolve(&[&args[..], &[&arg(&store)]].concat());
    assert!(output.status.success());
    assert_eq!(std::fs::read(elsewhere.join("keep")).unwrap(), VICTIM);
    assert!(
        std::fs::symlink_metadata(&link).is_err(),
        "the link is removed"
    );
}

/// A temporary file a stopped run left (a regular file, held by no run)
/// is redone, as before.
#[test]
fn a_leftover_temporary_table_is_redone() {
    let dir = ScratchDir::new("links", "leftover");
    let store = dir.join("store");
    std::fs::create_dir(&store).unwrap();
    std::fs::write(store.join("pancake-n-7-two-bit-bfs.bst.tmp"), VICTIM).unwrap();
    let output = bitsolve(&["bfs", "pancake", "--n", "7", "--store", &arg(&store)]);
    assert!(output.status.success());
    let names: Vec<String> = std::fs::read_dir(&store)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["pancake-n-7-two-bit-bfs.bst"]);
}
