//! Bit-state searches over any [`Space`]: two-bit BFS (Algorithm 1), one-bit
//! reachability (Algorithm 2) and one-bit BFS (Algorithms 3 and 7) of
//! Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect Hash
//! Functions* (TZI report 52, Bremen, 2009), one driver each, on any
//! [`Backend`]; and the two-bit retrograde analysis of two-player games
//! ([`retro2`]).
//!
//! A driver knows no game and no device: it runs passes through the
//! backend's `backend` traits and gives the same counts on every backend
//! and with any number of threads.

pub(crate) mod backend;
pub(crate) mod checkpoint;
pub(crate) mod chunks;
pub mod identity;
pub(crate) mod ledger;
pub(crate) mod one_bit_bfs;
pub(crate) mod reachability;
pub mod retro2;
pub(crate) mod solve;
pub mod two_bit_bfs;

use std::path::PathBuf;

pub use backend::{Backend, OneBitPasses, Opened, Pass, TableRequest, TwoBitPasses};
pub use checkpoint::Checkpoint;
pub use chunks::Chunk;
pub use ledger::LayerCount;
pub use one_bit_bfs::one_bit_bfs;
pub use reachability::one_bit_reachability;
pub use solve::{DepthTable, Target};
pub use two_bit_bfs::{two_bit_bfs, two_bit_bfs_keeping_depths};

// Progress reporting lives below the tables (which report too); re-exported
// so `search::Progress` still names it.
pub use crate::progress::{Progress, Silent};

use crate::error::Result;
use crate::space::Space;
use crate::table::Backing;

/// A bit-state search over a [`Space`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Two-bit BFS (Algorithm 1): layer sizes, each state expanded once.
    TwoBitBfs,
    /// One-bit BFS (Algorithms 3 and 7): layer sizes, for spaces with a
    /// [`BlockLayering`](crate::space::BlockLayering).
    OneBitBfs,
    /// One-bit reachability (Algorithm 2): the reachable count, without layers.
    OneBitReachability,
}

impl Algorithm {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::TwoBitBfs => "two-bit",
            Algorithm::OneBitBfs => "one-bit",
            Algorithm::OneBitReachability => "reach",
        }
    }

    /// Bits of table per state: 2 or 1.
    pub fn bits_per_state(self) -> u64 {
        match self {
            Algorithm::TwoBitBfs => 2,
            Algorithm::OneBitBfs | Algorithm::OneBitReachability => 1,
        }
    }

    /// Runs this algorithm on `space`, its passes on `backend`.
    pub fn run<S: Space, B: Backend>(
        self,
        space: &S,
        backend: &B,
        options: &SearchOptions,
    ) -> Result<SearchReport> {
        match self {
            Algorithm::TwoBitBfs => two_bit_bfs(space, backend, options),
            Algorithm::OneBitBfs => one_bit_bfs(space, backend, options),
            Algorithm::OneBitReachability => one_bit_reachability(space, backend, options),
        }
    }

    /// The name used in report headers.
    pub fn describe(self) -> &'static str {
        match self {
            Algorithm::TwoBitBfs => "two-bit BFS",
            Algorithm::OneBitBfs => "one-bit BFS",
            Algorithm::OneBitReachability => "one-bit reachability",
        }
    }
}

/// How a search runs: where its table lives, how it reports, where it stops.
pub struct SearchOptions<'a> {
    /// Where the table lives; a store directory makes the run resumable.
    pub backing: Backing,
    /// Shows the search's progress and says when to stop.
    pub progress: &'a dyn Progress,
    /// Section 8.1's inversion: where the space maps its forward graph onto
    /// its backward graph (Peg Solitaire's complement), stop the one-bit BFS
    /// halfway to the goal and join the halves (see [`MeetReport`]).
    pub meet_in_middle: bool,
    /// Stop a BFS once this layer is complete (a later run without the
    /// limit resumes from a stored table).
    pub max_depth: Option<usize>,
}

impl Default for SearchOptions<'_> {
    fn default() -> Self {
        SearchOptions {
            backing: Backing::Heap,
            progress: &Silent,
            meet_in_middle: false,
            max_depth: None,
        }
    }
}

impl SearchOptions<'_> {
    /// True once `layers` layers (0..layers) are complete and the limit says stop.
    pub(crate) fn deep_enough(&self, layers: usize) -> bool {
        self.max_depth.is_some_and(|depth| layers > depth)
    }
}

/// The outcome of a search stopped halfway by [`SearchOptions::meet_in_middle`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MeetReport {
    /// The goal's layer g (its distance, when it is reachable).
    pub goal_layer: usize,
    /// Layer floor(g/2), whose states were checked.
    pub middle_layer: usize,
    /// States of the middle layer whose inverse lies in layer g - floor(g/2):
    /// the midpoints of start-to-goal paths; the goal is reachable exactly
    /// when there is one.
    pub midpoints: u64,
}

/// Whether (and when) a goal position of the space was reached.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GoalReport {
    /// The goal's rank.
    pub rank: u64,
    /// BFS layer of the goal (its distance from the start); `None` when not
    /// reached or when the algorithm (reachability) has no layers.
    pub distance: Option<usize>,
    /// Whether the search reached the goal.
    pub reached: bool,
}

/// How many ranks of the deepest layer a report lists.
pub const DEEPEST_SAMPLE: usize = 16;

/// What a search found and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// The algorithm that ran.
    pub algorithm: Algorithm,
    /// States per BFS layer, index 0 = the start layer; `None` for
    /// reachability, which does not separate layers.
    pub layers: Option<Vec<u64>>,
    /// For a space reduced by symmetry: the stored representatives per
    /// layer (`layers` counts the full space).
    pub representatives: Option<Vec<u64>>,
    /// Reachable states (of the full space).
    pub reachable: u64,
    /// The space's goal positions.
    pub goals: Vec<GoalReport>,
    /// Up to [`DEEPEST_SAMPLE`] ranks from the deepest layer (BFS).
    pub deepest: Vec<u64>,
    /// Set when the search stopped halfway (meet in the middle).
    pub meet: Option<MeetReport>,
    /// Passes over the table (BFS levels or reachability scans) run by this
    /// process, and in all including the resumed part.
    pub passes: u64,
    /// States expanded by this process (one-bit searches re-expand states).
    pub expanded: u64,
    /// Successor ranks generated by this process.
    pub successors: u64,
    /// Unseen states whose parents were checked instead (two-bit BFS only).
    pub parent_checks: u64,
    /// Bytes this process read from and wrote to disk itself (two-bit BFS
    /// with its table on disk); 0 otherwise.
    pub bytes_read: u64,
    /// Bytes this process wrote to disk itself, as `bytes_read`.
    pub bytes_written: u64,
    /// The same per layer this process made (empty for tables not on disk).
    pub layer_io: Vec<LayerIo>,
    /// Wall time of this process's work, seconds.
    pub seconds: f64,
    /// Layer (or scan) a previous run had completed, when this run resumed.
    pub resumed_from: Option<u64>,
    /// True when the search ran to its end (or a meet in the middle was
    /// joined): a goal not reached is then unreachable. False when it
    /// stopped at `max_depth`: a goal not reached is only not reached yet.
    pub complete: bool,
    /// File holding the table, for file-backed runs.
    pub store: Option<PathBuf>,
}

impl SearchReport {
    /// Deepest non-empty layer (the space's radius from the start).
    pub fn max_depth(&self) -> Option<usize> {
        self.layers
            .as_ref()
            .map(|layers| layers.len().saturating_sub(1))
    }

    /// Successor ranks generated per second.
    pub fn successors_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.successors as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Bytes a pass read from and wrote to disk: the pass that made BFS layer
/// `layer` (its sweeps and the waiting successors), and the close of the
/// old frontier that ran after the pass before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LayerIo {
    /// The BFS layer the pass made.
    pub layer: u64,
    /// Bytes read from disk.
    pub bytes_read: u64,
    /// Bytes written to disk.
    pub bytes_written: u64,
}

/// What a pass did, summed over its pieces of work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// States expanded.
    pub expanded: u64,
    /// Successor ranks generated.
    pub successors: u64,
    /// Unseen states whose parents were checked instead (two-bit BFS).
    pub parent_checks: u64,
    /// Cells or bits the pass changed (states it added).
    pub marked: u64,
    /// Bytes the pass read from and wrote to disk itself (a table kept on
    /// disk, `crate::backend::disk`; paging of mapped files is not counted).
    pub bytes_read: u64,
    /// Bytes the pass wrote to disk itself, as `bytes_read`.
    pub bytes_written: u64,
}

impl std::ops::Add for Work {
    type Output = Work;
    fn add(self, other: Work) -> Work {
        Work {
            expanded: self.expanded + other.expanded,
            successors: self.successors + other.successors,
            parent_checks: self.parent_checks + other.parent_checks,
            marked: self.marked + other.marked,
            bytes_read: self.bytes_read + other.bytes_read,
            bytes_written: self.bytes_written + other.bytes_written,
        }
    }
}

impl std::ops::AddAssign for Work {
    fn add_assign(&mut self, other: Work) {
        *self = *self + other;
    }
}

/// Blocks that can hold states of BFS layer `layer`: those whose residue
/// under the space's move-alternation layering matches (all without one).
pub fn blocks_of_layer<S: Space>(space: &S, layer: usize) -> Vec<usize> {
    let count = space.blocks().len();
    match space.layering() {
        Some(layering) => (0..count)
            .filter(|&b| layering.residues[b] == layer as u64 % layering.modulus)
            .collect(),
        None => (0..count).collect(),
    }
}

/// The blocks in either list, ascending.
pub fn union(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut both: Vec<usize> = a.iter().chain(b).copied().collect();
    both.sort_unstable();
    both.dedup();
    both
}

/// Checks every start rank lies in the space (a game bug otherwise).
pub(crate) fn checked_start_ranks<S: Space>(space: &S) -> Result<Vec<u64>> {
    let starts = space.start_ranks();
    if let Some(&bad) = starts.iter().find(|&&r| r >= space.size()) {
        return Err(crate::Error::InvalidParameter(format!(
            "start rank {bad} outside the space of {} states",
            space.size()
        )));
    }
    Ok(starts)
}
