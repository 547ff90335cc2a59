//! Retrograde analysis on a machine short of memory (pretended with
//! `BITSOLVE_AVAILABLE_MEMORY`): a solved layer too big to hold beside the
//! next is read back from the store, the layer below is read through its
//! mapped file, and a layer too big to stage is solved in its mapped file.
//! The values, counts and tables are those of a run with memory to
//! spare. In a game that keeps open moves' tags what a pass checks may
//! differ: a run short of memory goes without them, so it checks more
//! candidates, and one may be decided a pass sooner (the `examined`
//! counts and the passes, in the reports and the files' records);
//! Fox-and-Geese keeps none.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "bitsolve-retro-memory-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `retro fox-geese --symmetry --layers 1..7` into `store`: its JSON
/// report's layers (without times, memory, passes and the positions
/// examined) and its stderr.
fn solve(store: &Path, available: Option<&str>) -> (Vec<serde_json::Value>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bitsolve"));
    command
        .args([
            "retro",
            "fox-geese",
            "--symmetry",
            "--layers",
            "1..7",
            "--json",
            "--store",
        ])
        .arg(store);
    if let Some(bytes) = available {
        command.env("BITSOLVE_AVAILABLE_MEMORY", bytes);
    }
    let output = command.output().expect("run bitsolve");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(output.status.success(), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let layers = json["layers"]
        .as_array()
        .expect("layers")
        .iter()
        .map(|layer| {
            let mut layer = layer.clone();
            let fields = layer.as_object_mut().unwrap();
            fields.remove("seconds");
            fields.remove("phases");
            fields.remove("peak_rss_bytes");
            fields.remove("examined");
            fields.remove("pass_log");
            fields.remove("full_scan_work");
            fields.remove("passes");
            layer
        })
        .collect();
    (layers, stderr)
}

/// The store's tables: each file's name and its values (past the header,
/// whose record holds the positions examined).
fn table_files(store: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(store)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let bytes = std::fs::read(&path).unwrap();
            (name, bytes[bitsolve::table::header::HEADER_LEN..].to_vec())
        })
        .filter(|(name, _)| name.ends_with(".bst"))
        .collect();
    files.sort();
    files
}

#[test]
fn short_of_memory_the_layers_and_files_are_those_of_a_roomy_run() {
    let (roomy, short) = (scratch("roomy"), scratch("short"));
    let (expected, _) = solve(&roomy, None);
    // 16 MB: layer 6 (3.2 MB of values) is more than an eighth, so it is
    // read back from the store for layer 7 and read through its mapped
    // file; layer 7's 12 MB are more than half, so it is solved in its
    // mapped file.
    let (found, stderr) = solve(&short, Some("16000000"));
    assert_eq!(found, expected);
    assert!(stderr.contains("read through its mapped file"), "{stderr}");
    assert!(stderr.contains("worked on in its mapped file"), "{stderr}");
    let (a, b) = (table_files(&roomy), table_files(&short));
    assert_eq!(a.len(), 8, "layers 0..7");
    assert_eq!(a, b, "the same tables, byte for byte");
    let verify = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(["verify"])
        .arg(&short)
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );
    std::fs::remove_dir_all(&roomy).unwrap();
    std::fs::remove_dir_all(&short).unwrap();
}
