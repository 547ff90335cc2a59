//! Helpers shared by the integration tests.
#![allow(dead_code)]

mod command;
pub mod fuzzing;
pub mod gpu;
pub mod http;
pub mod mutate;
pub mod skip;
pub mod webdriver;

pub use command::*;

use std::path::Path;
use std::time::Duration;

use bitsolve::backend::CpuBackend;
use bitsolve::search::{Algorithm, Checkpoint, Progress, SearchOptions, SearchReport};
use bitsolve::space::Space;
use bitsolve::table::header::{HEADER_LEN, Header};

/// The repository's root (the suite belongs to the command line's package,
/// in `cli/`), where the suite runs and its data files are.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// Runs `algorithm` on a pool of `threads` threads with a heap table.
pub fn run<S: Space>(space: &S, algorithm: Algorithm, threads: usize) -> SearchReport {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| algorithm.run(space, &CpuBackend, &SearchOptions::default()))
        .unwrap()
}

/// Thread counts to compare: one, and all the machine has (at least two).
pub fn thread_counts() -> [usize; 2] {
    let all = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    [1, all.max(2)]
}

pub fn layers(report: &SearchReport) -> Vec<u64> {
    report.layers.clone().expect("a BFS reports layers")
}

/// The last completed layer recorded in the store's only table file.
pub fn recorded_layer(dir: &Path) -> Option<u64> {
    recorded_layers(dir).into_iter().next().flatten()
}

/// The last completed layer recorded in each table file of the store (an
/// MPI run keeps one per process), `None` for a file without one yet.
pub fn recorded_layers(dir: &Path) -> Vec<Option<u64>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "bst"))
        .map(|e| last_completed(&e.path()))
        .collect()
}

/// The last completed layer (a BFS) or pass (a retrograde layer) recorded
/// in a table file, `None` without a record.
pub fn last_completed(path: &Path) -> Option<u64> {
    let bytes = std::fs::read(path).ok()?;
    let header = Header::decode(bytes.get(..HEADER_LEN)?).ok()?;
    Checkpoint::decode(&header.progress).ok()?.last_completed
}

/// Starts `bitsolve args` (a run with `--store dir`), kills it with SIGKILL
/// once it has recorded layer `layer`, and returns the last layer recorded.
pub fn kill_after_layer(args: &[&str], dir: &Path, layer: u64, patience: Duration) -> u64 {
    let mut child = start_quietly(args);
    wait_until(patience, "no progress recorded", || {
        if recorded_layer(dir).is_some_and(|recorded| recorded >= layer) {
            return true;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "finished before it could be killed"
        );
        false
    });
    child.kill().unwrap();
    child.wait().unwrap();
    recorded_layer(dir).unwrap()
}

/// Aborts a search (as a crash would) once `limit` chunks of work are done.
pub struct Crash {
    limit: u64,
    chunks_done: std::sync::atomic::AtomicU64,
}

impl Crash {
    pub fn after(limit: u64) -> Crash {
        Crash {
            limit,
            chunks_done: std::sync::atomic::AtomicU64::new(0),
        }
    }
}

impl Progress for Crash {
    fn advance(&self, units: u64) {
        use std::sync::atomic::Ordering::SeqCst;
        if self.chunks_done.fetch_add(units, SeqCst) + units >= self.limit {
            panic!("simulated crash");
        }
    }
}

/// With symmetry reduction, over `layers` of `game`: a block said to have
/// no twins holds only positions whose one image is themselves (the copy
/// to twins passes those blocks by), and a block said to have them holds
/// at least one position with another image (the flag is not merely
/// cautious). Both kinds must occur, or the check says nothing.
pub fn assert_blocks_say_which_have_twins<G: bitsolve::space::LayeredGame>(
    game: &G,
    layers: std::ops::RangeInclusive<usize>,
) {
    assert!(game.reduced_by_symmetry());
    let mut state = game.new_state();
    let mut kinds = [0usize; 2];
    for layer in layers {
        for (block, range) in game.layer_blocks(layer).iter().enumerate() {
            let has_twins = game.block_has_twins(layer, block);
            kinds[usize::from(has_twins)] += 1;
            let mut twinned = false;
            for rank in range.range() {
                game.unrank(layer, rank, &mut state);
                let mut images = Vec::new();
                game.images(layer, &state, |image| images.push(image));
                let alone = images.iter().all(|&image| image == rank);
                assert!(
                    has_twins || alone,
                    "layer {layer} block {block}: rank {rank} has images {images:?}"
                );
                twinned |= !alone;
            }
            assert_eq!(twinned, has_twins, "layer {layer} block {block}");
        }
    }
    assert!(
        kinds.iter().all(|&k| k > 0),
        "blocks without/with twins: {kinds:?}"
    );
}
