//! Helpers shared by the integration tests.
#![allow(dead_code)]

use bitsolve::search::{Algorithm, SearchOptions, SearchReport};
use bitsolve::space::Space;

/// Runs `algorithm` on a pool of `threads` threads with a heap table.
pub fn run<S: Space>(space: &S, algorithm: Algorithm, threads: usize) -> SearchReport {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| algorithm.run(space, &SearchOptions::default()))
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
