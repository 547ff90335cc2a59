//! A program that calls the library can tell its failures apart by
//! matching on [`Error`]'s variants, not by reading messages: a bad
//! parameter, a position that names none (with its text), a file that is
//! no definition (with its path), a space past what a rank can index, a
//! file operation that failed (with the file), a store that does not
//! belong to the request, and a run asked to stop. And a job's report is a
//! struct whose serialisation is what the command line prints.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use bitsolve::error::Error;
use bitsolve::games::registry::GameOptions;
use bitsolve::jobs::bfs::bfs;
use bitsolve::jobs::solve::solve;
use bitsolve::jobs::{BfsReport, BfsRequest, GameSpec, Report, SolveRequest};
use bitsolve::progress::Silent;

use crate::common;

fn pancake(n: i64) -> GameSpec {
    GameSpec {
        name: "pancake".into(),
        options: GameOptions::default().with("n", n),
    }
}

fn search(game: &GameSpec, store: Option<PathBuf>) -> Result<BfsReport, Error> {
    let request = BfsRequest {
        store,
        threads: Some(1),
        ..BfsRequest::default()
    };
    bfs(game, request, &Silent, None)
}

#[test]
fn bad_input_is_an_invalid_parameter() {
    let error = search(&pancake(0), None).unwrap_err();
    assert!(matches!(error, Error::InvalidParameter(_)), "{error:?}");
    let unknown = GameSpec {
        name: "no-such-game".into(),
        options: GameOptions::default(),
    };
    let error = search(&unknown, None).unwrap_err();
    assert!(matches!(error, Error::InvalidParameter(_)), "{error:?}");
}

#[test]
fn a_space_past_u64_ranks_is_too_large() {
    // 21! > 2^64.
    let error = search(&pancake(21), None).unwrap_err();
    assert!(matches!(error, Error::SpaceTooLarge(_)), "{error:?}");
}

#[test]
fn a_store_that_is_a_file_is_an_io_error() {
    let dir = common::ScratchDir::new("errors", "store-is-a-file");
    let file = dir.join("not-a-directory");
    std::fs::write(&file, b"a file").unwrap();
    let error = search(&pancake(5), Some(file.clone())).unwrap_err();
    match error {
        Error::Io { path, .. } => assert_eq!(path, Some(file)),
        other => panic!("not an I/O error: {other:?}"),
    }
}

#[test]
fn a_damaged_table_is_a_bad_store_naming_its_file() {
    let scratch = common::ScratchDir::new("errors", "damaged-table");
    let dir = scratch.join("store");
    search(&pancake(6), Some(dir.clone())).unwrap();
    let tables: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "bst"))
        .collect();
    assert_eq!(tables.len(), 1, "{tables:?}");
    // The header's first bytes overwritten: no longer a table of this run.
    let mut bytes = std::fs::read(&tables[0]).unwrap();
    bytes[..8].copy_from_slice(b"garbage!");
    std::fs::write(&tables[0], &bytes).unwrap();
    match search(&pancake(6), Some(dir.clone())).unwrap_err() {
        Error::BadStore { path, .. } => assert_eq!(path, tables[0]),
        other => panic!("not a bad store: {other:?}"),
    }
}

#[test]
fn a_run_asked_to_stop_is_interrupted() {
    let stop = AtomicBool::new(true);
    let request = BfsRequest {
        threads: Some(1),
        ..BfsRequest::default()
    };
    let error = bfs(&pancake(9), request, &Silent, Some(&stop)).unwrap_err();
    assert!(matches!(error, Error::Interrupted), "{error:?}");
}

#[test]
fn a_position_that_names_none_is_a_bad_position_with_its_text() {
    let request = SolveRequest {
        position: Some("1,2,x,4,5".into()),
        threads: Some(1),
        ..SolveRequest::default()
    };
    let error = solve(&pancake(5), &request, &Silent, None).unwrap_err();
    match &error {
        Error::BadPosition { text, reason } => {
            assert_eq!(text, "1,2,x,4,5");
            assert!(reason.contains("x"), "{reason}");
        }
        other => panic!("not a bad position: {other:?}"),
    }
    assert!(
        error.to_string().starts_with("invalid position: "),
        "{error}"
    );
}

#[test]
fn a_definition_file_that_reads_as_none_is_a_bad_file_with_its_path() {
    let dir = common::ScratchDir::new("errors", "bad-definition");
    let file = dir.join("bad.tws");
    std::fs::write(&file, "Name Bad\nSet C 3 1\nSolved\nC\n1 2 4\nEnd\n").unwrap();
    let game = GameSpec {
        name: "ksolve".into(),
        options: GameOptions::default().with("file", file.display().to_string()),
    };
    match search(&game, None).unwrap_err() {
        Error::BadFile { path, reason } => {
            assert_eq!(path, file);
            assert!(reason.contains("bad.tws"), "{reason}");
        }
        other => panic!("not a bad file: {other:?}"),
    }
    let missing = GameSpec {
        name: "ksolve".into(),
        options: GameOptions::default().with("file", dir.join("none.tws").display().to_string()),
    };
    match search(&missing, None).unwrap_err() {
        Error::Io { path, .. } => assert_eq!(path, Some(dir.join("none.tws"))),
        other => panic!("not an I/O error: {other:?}"),
    }
}

/// The library's report, serialised, is the object `bitsolve bfs --json`
/// prints, but for the clock's figures.
#[test]
fn a_report_serialises_to_what_the_command_line_prints() {
    let report = search(&pancake(7), None).unwrap();
    assert_eq!((report.total, report.max_depth), (5040, Some(8)));
    assert_eq!(report.layers.as_ref().map(Vec::len), Some(9));
    let mut library = report.to_json();
    let mut printed =
        common::bitsolve_json(&["bfs", "pancake", "--n", "7", "--threads", "1", "--json"]);
    for json in [&mut library, &mut printed] {
        let object = json.as_object_mut().unwrap();
        for timed in ["seconds", "successors_per_second"] {
            assert!(object.remove(timed).is_some(), "{timed}");
        }
    }
    assert_eq!(library, printed);
}
