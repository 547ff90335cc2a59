//! Bookkeeping shared by the search drivers: per-layer (or per-scan)
//! counts, goal distances, resuming from a table file's checkpoint,
//! recording one after every pass, and the final report.

use std::time::Instant;

use super::checkpoint::Checkpoint;
use super::{Algorithm, GoalReport, LayerIo, Progress, SearchReport, Work};
use crate::error::Result;
use crate::table::WordStorage;

/// The states a pass added: positions of the full space, and the stored
/// representatives they stand for (equal unless the space is reduced by
/// symmetry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerCount {
    /// States added, of the full space.
    pub states: u64,
    /// Stored representatives added.
    pub representatives: u64,
}

impl LayerCount {
    /// The count of a space without symmetry reduction: every state stored.
    pub fn plain(states: u64) -> Self {
        LayerCount {
            states,
            representatives: states,
        }
    }
}

pub(crate) struct Ledger<'a> {
    algorithm: Algorithm,
    progress: &'a dyn Progress,
    started: Instant,
    /// States per layer (BFS) or states reached after each scan (reachability).
    pub counts: Vec<u64>,
    pub representatives: Vec<u64>,
    goals: Vec<u64>,
    goal_distances: Vec<Option<u64>>,
    pub resumed_from: Option<u64>,
    pub finished: bool,
    pub work: Work,
    pub passes: u64,
    /// Disk I/O of each pass that read or wrote any (a table on disk).
    pub layer_io: Vec<LayerIo>,
}

impl<'a> Ledger<'a> {
    /// Continues from the checkpoint of a reopened table, or starts afresh
    /// (then the driver marks the start states and [`push`](Self::push)es
    /// their count).
    pub fn open(
        algorithm: Algorithm,
        storage: &WordStorage,
        record: Option<Vec<u8>>,
        progress: &'a dyn Progress,
        goals: Vec<u64>,
    ) -> Result<Self> {
        let checkpoint = Checkpoint::read(storage, record)?;
        let mut ledger = Ledger {
            algorithm,
            progress,
            started: Instant::now(),
            counts: Vec::new(),
            representatives: Vec::new(),
            goal_distances: vec![None; goals.len()],
            goals,
            resumed_from: None,
            finished: false,
            work: Work::default(),
            passes: 0,
            layer_io: Vec::new(),
        };
        if let Some(Checkpoint {
            last_completed: Some(last),
            counts,
            representatives,
            goal_distances,
            complete,
        }) = checkpoint
        {
            progress.note(&format!(
                "resuming after completed {} {last}",
                ledger.unit()
            ));
            ledger.counts = counts;
            ledger.representatives = representatives;
            if goal_distances.len() == ledger.goals.len() {
                ledger.goal_distances = goal_distances;
            }
            ledger.resumed_from = Some(last);
            ledger.finished = complete;
            for (index, &count) in ledger.counts.iter().enumerate() {
                ledger.announce(index, count);
            }
        }
        if !ledger.finished {
            // The run is about to change the table.
            storage.begin_writing()?;
        }
        Ok(ledger)
    }

    /// True when no layer is recorded yet: the start states are to be marked.
    pub fn is_fresh(&self) -> bool {
        self.counts.is_empty()
    }

    fn unit(&self) -> &'static str {
        if self.algorithm == Algorithm::OneBitReachability {
            "scan"
        } else {
            "layer"
        }
    }

    fn announce(&self, index: usize, count: u64) {
        if self.algorithm == Algorithm::OneBitReachability {
            self.progress.scan_done(index, count);
        } else {
            self.progress.layer_done(index, count);
        }
    }

    /// Records a completed layer (or scan); `reached` tells whether a goal
    /// rank is in the table now.
    pub fn push(&mut self, count: LayerCount, reached: impl Fn(u64) -> bool) {
        self.counts.push(count.states);
        self.representatives.push(count.representatives);
        let layer = self.counts.len() as u64 - 1;
        for (goal, distance) in self.goals.iter().zip(self.goal_distances.iter_mut()) {
            if distance.is_none() && reached(*goal) {
                *distance = Some(layer);
            }
        }
        self.announce(self.counts.len() - 1, count.states);
    }

    /// Writes the ledger into the store's header (a no-op on the heap).
    pub fn checkpoint(&self, storage: &WordStorage) -> Result<()> {
        Checkpoint {
            last_completed: Some(self.counts.len() as u64 - 1),
            counts: self.counts.clone(),
            representatives: self.representatives.clone(),
            goal_distances: self.goal_distances.clone(),
            complete: self.finished,
        }
        .write(storage)
    }

    /// Accounts for a pass a backend ran (it showed its progress itself).
    pub fn add_pass(&mut self, work: Work) {
        self.work += work;
        self.passes += 1;
        if work.bytes_read + work.bytes_written > 0 {
            self.layer_io.push(LayerIo {
                // The pass makes the layer after the last one recorded.
                layer: self.counts.len() as u64,
                bytes_read: work.bytes_read,
                bytes_written: work.bytes_written,
            });
        }
    }

    /// The final report; `deepest` holds a few ranks of the last layer when
    /// the algorithm can tell them apart.
    pub fn report(
        self,
        deepest: Vec<u64>,
        reached: impl Fn(u64) -> bool,
        storage: &WordStorage,
    ) -> SearchReport {
        let reachability = self.algorithm == Algorithm::OneBitReachability;
        let reached_goal = |goal: u64, distance: Option<u64>| distance.is_some() || reached(goal);
        let goals = self
            .goals
            .iter()
            .zip(&self.goal_distances)
            .map(|(&rank, &distance)| GoalReport {
                rank,
                distance: if reachability {
                    None
                } else {
                    distance.map(|d| d as usize)
                },
                reached: reached_goal(rank, distance),
            })
            .collect();
        let symmetric = self.representatives != self.counts;
        let (layers, reachable, representatives) = if reachability {
            (
                None,
                *self.counts.last().expect("the start population"),
                None,
            )
        } else {
            let total = self.counts.iter().sum();
            (
                Some(self.counts),
                total,
                symmetric.then_some(self.representatives),
            )
        };
        SearchReport {
            algorithm: self.algorithm,
            layers,
            representatives,
            reachable,
            goals,
            deepest,
            meet: None,
            passes: self.passes,
            expanded: self.work.expanded,
            successors: self.work.successors,
            parent_checks: self.work.parent_checks,
            bytes_read: self.work.bytes_read,
            bytes_written: self.work.bytes_written,
            layer_io: self.layer_io,
            seconds: self.started.elapsed().as_secs_f64(),
            resumed_from: self.resumed_from,
            complete: self.finished,
            store: storage.path().map(|p| p.to_path_buf()),
        }
    }
}
