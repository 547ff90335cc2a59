//! Reporting of long work: passes over a table, layers, notes for a person.
//! It sits below the tables so that creating or checking a table file can
//! report too; the searches above use the same trait.

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
}

/// A [`Progress`] that shows nothing.
pub struct Silent;

impl Progress for Silent {}
