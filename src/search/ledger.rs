//! Bookkeeping shared by the searches: per-layer (or per-scan) counts,
//! goal distances, resuming from a table file's checkpoint, recording one
//! after every pass, running a pass over chunks, and the final report.

use std::time::Instant;

use rayon::prelude::*;

use super::chunks::Chunk;
use super::{Algorithm, GoalReport, Progress, SearchReport, Work};
use crate::error::Result;
use crate::space::Space;
use crate::table::Checkpoint;
use crate::table::storage::WordStorage;

/// The states a pass added: positions of the full space, and the stored
/// representatives they stand for (equal unless the space is reduced by
/// symmetry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LayerCount {
    pub states: u64,
    pub representatives: u64,
}

impl LayerCount {
    pub fn plain(states: u64) -> Self {
        LayerCount {
            states,
            representatives: states,
        }
    }
}

/// Counts the states visited by `visit_chunk` over `chunks`: with symmetry
/// reduction each stored state counts for its orbit, else `representatives`
/// (a population count the caller already has) is the answer.
pub(crate) fn count_states<S: Space>(
    space: &S,
    chunks: &[&Chunk],
    representatives: u64,
    visit_chunk: impl Fn(&Chunk, &mut dyn FnMut(u64)) + Sync,
) -> LayerCount {
    if !space.symmetry_reduced() {
        return LayerCount::plain(representatives);
    }
    let states = chunks
        .par_iter()
        .map(|chunk| {
            let mut state = space.new_state();
            let mut states = 0u64;
            visit_chunk(chunk, &mut |rank| {
                space.unrank(rank, &mut state);
                states += space.orbit_size(&state);
            });
            states
        })
        .sum();
    LayerCount {
        states,
        representatives,
    }
}

pub(crate) struct Ledger<'a> {
    algorithm: Algorithm,
    storage: &'a WordStorage,
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
}

impl<'a> Ledger<'a> {
    /// Continues from the checkpoint of a reopened table, or starts afresh:
    /// `start` marks the start states and returns their count. `reached`
    /// tells whether a rank is in the table (for goal distances).
    pub fn open(
        algorithm: Algorithm,
        storage: &'a WordStorage,
        checkpoint: Option<Checkpoint>,
        progress: &'a dyn Progress,
        goals: Vec<u64>,
        start: impl FnOnce() -> Result<LayerCount>,
        reached: impl Fn(u64) -> bool,
    ) -> Result<Self> {
        let mut ledger = Ledger {
            algorithm,
            storage,
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
        };
        match checkpoint {
            Some(Checkpoint {
                last_completed: Some(last),
                counts,
                representatives,
                goal_distances,
                complete,
            }) => {
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
            _ => {
                let first = start()?;
                ledger.push(first, &reached);
                ledger.checkpoint()?;
            }
        }
        Ok(ledger)
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

    fn push(&mut self, count: LayerCount, reached: &impl Fn(u64) -> bool) {
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

    fn checkpoint(&self) -> Result<()> {
        self.storage.checkpoint(&Checkpoint {
            last_completed: Some(self.counts.len() as u64 - 1),
            counts: self.counts.clone(),
            representatives: self.representatives.clone(),
            goal_distances: self.goal_distances.clone(),
            complete: self.finished,
        })
    }

    /// Runs one pass of `visit` over `chunks` in parallel, with progress.
    pub fn pass(&mut self, label: &str, chunks: &[&Chunk], visit: impl Fn(&Chunk) -> Work + Sync) {
        let progress = self.progress;
        progress.begin_pass(label, chunks.len() as u64);
        self.work += chunks
            .par_iter()
            .map(|chunk| {
                let done = visit(chunk);
                progress.advance(1);
                done
            })
            .reduce(Work::default, |a, b| a + b);
        progress.end_pass();
        self.passes += 1;
    }

    /// Accounts for a pass run elsewhere (on the GPU), which reported its
    /// progress itself.
    pub fn account_pass(&mut self, work: Work) {
        self.work += work;
        self.passes += 1;
    }

    pub fn progress(&self) -> &'a dyn Progress {
        self.progress
    }

    /// Ends a pass: `next` is what it added, or `None` when it found nothing
    /// and the search is over. The checkpoint goes to disk either way.
    pub fn record(
        &mut self,
        next: Option<LayerCount>,
        reached: impl Fn(u64) -> bool,
    ) -> Result<()> {
        match next {
            Some(count) => self.push(count, &reached),
            None => self.finished = true,
        }
        self.checkpoint()
    }

    /// The final report; `deepest` holds a few ranks of the last layer when
    /// the algorithm can tell them apart.
    pub fn report(self, deepest: Vec<u64>, reached: impl Fn(u64) -> bool) -> SearchReport {
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
            seconds: self.started.elapsed().as_secs_f64(),
            resumed_from: self.resumed_from,
            store: self.storage.path().map(|p| p.to_path_buf()),
        }
    }
}
