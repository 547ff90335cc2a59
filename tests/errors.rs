//! A program that calls the library can tell its failures apart by
//! matching on [`Error`]'s variants, not by reading messages: bad input,
//! a space past what a rank can index, a file operation that failed (with
//! what was being done), a store that does not belong to the request, and
//! a run asked to stop.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use bitsolve::error::Error;
use bitsolve::games::registry::GameOptions;
use bitsolve::jobs::bfs::bfs_json;
use bitsolve::jobs::{BfsRequest, GameSpec};
use bitsolve::progress::Silent;

use crate::common;

fn pancake(n: i64) -> GameSpec {
    GameSpec {
        name: "pancake".into(),
        options: GameOptions::default().with("n", n),
    }
}

fn search(game: &GameSpec, store: Option<PathBuf>) -> Result<serde_json::Value, Error> {
    let request = BfsRequest {
        store,
        threads: Some(1),
        ..BfsRequest::default()
    };
    bfs_json(game, request, &Silent, None)
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
    let error = search(&pancake(5), Some(file)).unwrap_err();
    assert!(matches!(error, Error::Io { .. }), "{error:?}");
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
    let error = bfs_json(&pancake(9), request, &Silent, Some(&stop)).unwrap_err();
    assert!(matches!(error, Error::Interrupted), "{error:?}");
}
