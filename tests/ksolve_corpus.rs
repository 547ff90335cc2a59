//! twsearch's own sample definitions (`samples/main/*.tws` of
//! rokicki/twsearch), read as twsearch reads them: each is searched with
//! the layer counts `twsearch -g` printed, read with an index past a
//! two-bit table of 2 GiB, refused as larger than a rank or a search can
//! index, or refused naming the feature bitsolve does not read — as
//! recorded, with the commit, in
//! `data/ksolve/twsearch-samples.tsv`.
//!
//! The files are twsearch's and stay out of this repository, so the test
//! is ignored unless asked for: give it the directory that holds them,
//!
//! ```text
//! git clone https://github.com/rokicki/twsearch
//! TWSEARCH_SAMPLES=twsearch/samples/main cargo test --release --test suite ksolve_corpus -- --ignored
//! ```
//!
//! Searches of more than [`SEARCHED_UP_TO`] positions are left to
//! `scripts/twsearch-corpus.sh`, which times both programs; here their
//! files are read and their index sizes checked.

use std::path::{Path, PathBuf};

use bitsolve::error::Error;
use bitsolve::games::ksolve::Ksolve;
use bitsolve::games::ksolve::definition::Metric;
use bitsolve::games::registry::GameOptions;
use bitsolve::jobs::bfs::bfs;
use bitsolve::jobs::{BfsRequest, GameSpec};
use bitsolve::progress::Silent;
use bitsolve::space::Space;

/// The largest reachable space the test searches (a few seconds each).
const SEARCHED_UP_TO: u64 = 300_000_000;

/// What twsearch's sample `file` gives, as recorded.
#[derive(Debug)]
enum Recorded {
    /// Read and searched: the index's size and the positions per layer.
    Layers { index: u64, layers: Vec<u64> },
    /// Read, its index past a two-bit table of 2 GiB: the index's size.
    Read { index: u64 },
    /// Read, but its space is past what bitsolve indexes; the message.
    TooLarge(String),
    /// Not read: the feature it uses, as the message names it.
    Refused(String),
}

fn recorded() -> Vec<(String, Recorded)> {
    let path = Path::new(crate::common::ROOT).join("data/ksolve/twsearch-samples.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let outcome = match fields[1] {
                "layers" => Recorded::Layers {
                    index: fields[2].parse().unwrap(),
                    layers: fields[3].split(',').map(|n| n.parse().unwrap()).collect(),
                },
                "read" => Recorded::Read {
                    index: fields[2].parse().unwrap(),
                },
                "too-large" => Recorded::TooLarge(fields[2].to_string()),
                "refused" => Recorded::Refused(fields[2].to_string()),
                other => panic!("{line}: unknown outcome {other}"),
            };
            (fields[0].to_string(), outcome)
        })
        .collect()
}

#[test]
fn the_recording_lists_every_sample_once_with_its_outcome() {
    let rows = recorded();
    let mut names: Vec<&str> = rows.iter().map(|(name, _)| name.as_str()).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(names.len(), before, "a file listed twice");
    assert_eq!(
        rows.len(),
        82,
        "twsearch's samples/main holds 82 definitions"
    );
    for (name, outcome) in &rows {
        if let Recorded::Layers { index, layers } = outcome {
            let reachable: u64 = layers.iter().sum();
            assert!(reachable <= *index, "{name}: {reachable} > {index}");
            assert_eq!(layers[0], 1, "{name}");
        }
    }
}

#[test]
#[ignore = "needs twsearch's samples: TWSEARCH_SAMPLES=DIR (see the module's comment)"]
fn every_twsearch_sample_reads_as_recorded_and_the_small_ones_search_to_its_layers() {
    let dir = PathBuf::from(
        std::env::var_os("TWSEARCH_SAMPLES")
            .expect("TWSEARCH_SAMPLES names the directory of twsearch's samples/main"),
    );
    for (name, outcome) in recorded() {
        let file = dir.join(&name);
        let read = Ksolve::from_file(&file, Metric::Powers);
        match (&outcome, read) {
            (Recorded::Layers { index, layers }, Ok(puzzle)) => {
                assert_eq!(puzzle.size(), *index, "{name}: the index");
                if layers.iter().sum::<u64>() > SEARCHED_UP_TO {
                    continue;
                }
                let game = GameSpec {
                    name: "ksolve".into(),
                    options: GameOptions::default().with("file", file.display()),
                };
                let report = bfs(&game, BfsRequest::default(), &Silent, None).unwrap();
                assert_eq!(report.layers.as_ref(), Some(layers), "{name}");
            }
            (Recorded::Read { index }, Ok(puzzle)) => {
                assert_eq!(puzzle.size(), *index, "{name}: the index");
            }
            (Recorded::TooLarge(message), Err(error @ Error::SpaceTooLarge(_)))
            | (Recorded::Refused(message), Err(error @ Error::BadFile { .. })) => {
                let text = error.to_string();
                assert!(text.contains(message.as_str()), "{name}: {text}");
            }
            (outcome, read) => panic!("{name}: recorded {outcome:?}, read {read:?}"),
        }
    }
}
