//! Reporting of long work: passes over a table, layers, notes for a person.
//! It sits below the tables so that creating or checking a table file can
//! report too; the searches above use the same trait. It also carries the
//! one way back from the caller to a running search: a request to stop.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

/// A progress bar on a terminal's stderr, and a table streamed to stdout
/// as its rows complete: what the shells show of a long run.
#[cfg(feature = "progress-bar")]
pub mod terminal;

/// Receives progress from a running search; every method has a silent default.
pub trait Progress: Sync {
    /// A pass over the table begins (`units` chunks of work).
    fn begin_pass(&self, _label: &str, _units: u64) {}
    /// Work before the search proper begins (creating or checking a table
    /// file), shown like a pass.
    fn begin_setup(&self, label: &str, units: u64) {
        self.begin_pass(label, units);
    }
    /// `units` more chunks are done.
    fn advance(&self, _units: u64) {}
    /// The pass ended.
    fn end_pass(&self) {}
    /// Layer `layer` is complete with `states` states (BFS only).
    fn layer_done(&self, _layer: usize, _states: u64) {}
    /// Reachability scan `scan` ended with `reached` states set.
    fn scan_done(&self, _scan: usize, _reached: u64) {}
    /// A message worth showing a person (resumption, switches of strategy).
    fn note(&self, _message: &str) {}
    /// True once the run has been asked to stop (Ctrl-C). Passes look
    /// between chunks of work and drivers between passes; the run then ends
    /// with [`Error::Interrupted`] before it records anything more, so its
    /// store is left as by any other error: resumable from its last record.
    fn stop_requested(&self) -> bool {
        false
    }
}

/// `Err(Error::Interrupted)` once `progress` says stop.
pub fn check_stop(progress: &dyn Progress) -> Result<()> {
    if progress.stop_requested() {
        Err(Error::Interrupted)
    } else {
        Ok(())
    }
}

/// A [`Progress`] that shows what `inner` shows and asks the run to stop
/// once `stop` is set (by a signal handler, or by the Python binding's
/// waiting thread on `KeyboardInterrupt`).
pub struct Stoppable<'a> {
    /// The progress that shows the run.
    pub inner: &'a dyn Progress,
    /// Set to ask the run to stop.
    pub stop: &'a AtomicBool,
}

impl<'a> Stoppable<'a> {
    /// `inner`, asking the search to stop once `stop` is set (as it is,
    /// without a flag); `slot` holds the wrapper the answer points to.
    pub fn wrap(
        inner: &'a dyn Progress,
        stop: Option<&'a AtomicBool>,
        slot: &'a mut Option<Stoppable<'a>>,
    ) -> &'a dyn Progress {
        match stop {
            Some(stop) => slot.insert(Stoppable { inner, stop }),
            None => inner,
        }
    }
}

impl Progress for Stoppable<'_> {
    fn begin_pass(&self, label: &str, units: u64) {
        self.inner.begin_pass(label, units);
    }
    fn begin_setup(&self, label: &str, units: u64) {
        self.inner.begin_setup(label, units);
    }
    fn advance(&self, units: u64) {
        self.inner.advance(units);
    }
    fn end_pass(&self) {
        self.inner.end_pass();
    }
    fn layer_done(&self, layer: usize, states: u64) {
        self.inner.layer_done(layer, states);
    }
    fn scan_done(&self, scan: usize, reached: u64) {
        self.inner.scan_done(scan, reached);
    }
    fn note(&self, message: &str) {
        self.inner.note(message);
    }
    fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.inner.stop_requested()
    }
}

/// A [`Progress`] that shows nothing.
pub struct Silent;

impl Progress for Silent {}
