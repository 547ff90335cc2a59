//! Bookkeeping shared by the searches: per-layer (or per-scan) counts,
//! resuming from a table file's checkpoint, recording one after every pass,
//! running a pass over chunks, and the final report.

use std::time::Instant;

use rayon::prelude::*;

use super::chunks::Chunk;
use super::{Algorithm, Progress, SearchReport, Work};
use crate::error::Result;
use crate::table::Checkpoint;
use crate::table::storage::WordStorage;

pub(crate) struct Ledger<'a> {
    algorithm: Algorithm,
    storage: &'a WordStorage,
    progress: &'a dyn Progress,
    started: Instant,
    /// States per layer (BFS) or states reached after each scan (reachability).
    pub counts: Vec<u64>,
    pub resumed_from: Option<u64>,
    pub finished: bool,
    pub work: Work,
    pub passes: u64,
}

impl<'a> Ledger<'a> {
    /// Continues from the checkpoint of a reopened table, or starts afresh:
    /// `start` marks the start states and returns the first count.
    pub fn open(
        algorithm: Algorithm,
        storage: &'a WordStorage,
        checkpoint: Option<Checkpoint>,
        progress: &'a dyn Progress,
        start: impl FnOnce() -> Result<u64>,
    ) -> Result<Self> {
        let started = Instant::now();
        let (counts, resumed_from, finished) = match checkpoint {
            Some(Checkpoint {
                last_completed: Some(last),
                counts,
                complete,
            }) => {
                progress.note(&format!(
                    "resuming after completed {} {last}",
                    Self::unit(algorithm)
                ));
                (counts, Some(last), complete)
            }
            _ => (vec![start()?], None, false),
        };
        let ledger = Ledger {
            algorithm,
            storage,
            progress,
            started,
            counts,
            resumed_from,
            finished,
            work: Work::default(),
            passes: 0,
        };
        if resumed_from.is_none() {
            ledger.checkpoint()?;
        }
        for (index, &count) in ledger.counts.iter().enumerate() {
            ledger.announce(index, count);
        }
        Ok(ledger)
    }

    fn unit(algorithm: Algorithm) -> &'static str {
        if algorithm == Algorithm::OneBitReachability {
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

    fn checkpoint(&self) -> Result<()> {
        self.storage.checkpoint(&Checkpoint {
            last_completed: Some(self.counts.len() as u64 - 1),
            counts: self.counts.clone(),
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

    /// Ends a pass: `next` is the new count, or `None` when the pass found
    /// nothing and the search is over. The checkpoint goes to disk either way.
    pub fn record(&mut self, next: Option<u64>) -> Result<()> {
        match next {
            Some(count) => {
                self.counts.push(count);
                self.announce(self.counts.len() - 1, count);
            }
            None => self.finished = true,
        }
        self.checkpoint()
    }

    pub fn report(self) -> SearchReport {
        let (layers, reachable) = if self.algorithm == Algorithm::OneBitReachability {
            (None, *self.counts.last().expect("the start population"))
        } else {
            let total = self.counts.iter().sum();
            (Some(self.counts), total)
        };
        SearchReport {
            algorithm: self.algorithm,
            layers,
            reachable,
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
