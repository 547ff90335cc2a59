//! Jobs: whole requests run on the library's engines, the one layer every
//! shell calls — the command line, the explorer's server (`serve`) and the
//! Python package each turn their own input into a request here and a
//! report from here into their own output.
//!
//! A job picks its machine once ([`Machine`]: the CPU's cores, the GPU, a
//! table on disk or the processes of an MPI job), opens or resumes its
//! store, runs the driver (and, for retrograde analysis, the distances
//! phase), reports progress through a [`crate::progress::Progress`] and
//! returns a typed report that also reads as the JSON the command line's
//! `--json` prints.
//!
//! - [`bfs`]: breadth-first search of a one-player space.
//! - [`retro`]: retrograde analysis of a two-player game's layers.
//! - [`solve`]: an optimal move sequence from a position.
//! - [`query`]: a position's value and its moves' from a solved database.
//! - [`verify`]: a store's tables against their checksums.
//!
//! ```
//! use bitsolve::jobs::{BfsRequest, GameSpec, bfs::bfs};
//! use bitsolve::games::registry::GameOptions;
//! use bitsolve::progress::Silent;
//! // The 8-puzzle (3 x 3 sliding tiles): the reachable half of the
//! // permutations, layer by layer.
//! let options = GameOptions::default().with("width", 3).with("height", 3);
//! let game = GameSpec { name: "sliding-tile".into(), options };
//! let report = bfs(&game, BfsRequest::default(), &Silent, None).unwrap();
//! assert_eq!(report.total, 181_440);
//! assert_eq!(report.max_depth, Some(31));
//! ```

pub mod bench;
pub mod bfs;
mod cluster;
mod machine;
mod memory;
pub mod query;
pub mod retro;
pub mod solve;
mod spec;
mod threads;
pub mod verify;

pub use bfs::{BfsReport, BfsRequest};
pub use cluster::{Distributed, JobBackend, MpiJob};
pub use machine::{Machine, Processor, open_device};
pub use query::{PlacementsReport, QueryReport};
pub use retro::{RetroReport, RetroRequest};
pub use solve::{SolveReport, SolveRequest};
pub use spec::{GameSpec, TwoPlayerSpec};
pub use threads::{MAX_THREADS, check_threads, parse_size, thread_pool, threads_from_environment};
pub use verify::VerifyReport;

/// A job's report: a plain struct a caller reads field by field, whose
/// serialisation is the JSON object the command line's `--json` prints
/// (and the Python binding's dictionaries).
pub trait Report: serde::Serialize {
    /// The report as JSON (objects' keys in sorted order).
    fn to_json(&self) -> serde_json::Value {
        // A report holds numbers, strings, lists and string-keyed maps
        // only, which always serialise.
        serde_json::to_value(self).expect("a report serialises to JSON")
    }
}

/// Refuses a store given as an empty path, which would put its tables in
/// whatever directory the process runs in.
fn check_store(store: Option<&std::path::PathBuf>) -> crate::error::Result<()> {
    match store {
        Some(dir) if dir.as_os_str().is_empty() => Err(crate::error::Error::InvalidParameter(
            "--store names no directory (an empty path)".into(),
        )),
        _ => Ok(()),
    }
}
