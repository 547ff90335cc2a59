//! One-bit reachability (Algorithm 2 of Edelkamp et al., *Solving Games in
//! Parallel with Linear-Time Perfect Hash Functions* (TZI report 52, Bremen,
//! 2009)), on any [`Backend`].
//!
//! Scans expand every set bit until a scan sets nothing new. A successor
//! with a higher rank than its parent is usually reached later in the same
//! scan, so the number of scans is at most the number of BFS layers
//! (Theorem 2) and often far fewer. The scan does not separate layers, so
//! the report has the reachable count but no layer table.

use super::backend::{Backend, Pass, TableRequest};
use super::ledger::Ledger;
use super::{Algorithm, SearchOptions, SearchReport, checked_start_ranks};
use crate::error::Result;
use crate::progress::check_stop;
use crate::space::{MoveFilter, Space};

/// One-bit reachability from the space's start states: scans until one sets
/// nothing new; the report has the reachable count but no layers.
pub fn one_bit_reachability<S: Space, B: Backend>(
    space: &S,
    backend: &B,
    options: &SearchOptions,
) -> Result<SearchReport> {
    let request = TableRequest {
        backing: &options.backing,
        identity: super::identity::space_identity(space, "one-bit reachability", 1),
        progress: options.progress,
        resident_cells: space.size(),
        max_depth: None,
    };
    let opened = backend.one_bit(space, &request)?;
    let mut table = opened.passes;
    let all: Vec<usize> = (0..space.blocks().len()).collect();
    let goals = space.goal_ranks();
    let mut ledger = Ledger::open(
        Algorithm::OneBitReachability,
        table.storage(),
        opened.progress,
        options.progress,
        goals.clone(),
    )?;
    let reached = |bits: Vec<bool>| {
        let goals = &goals;
        move |rank| {
            goals
                .iter()
                .position(|&g| g == rank)
                .is_some_and(|i| bits[i])
        }
    };
    // The counts are the states reached after each completed scan.
    if ledger.is_fresh() {
        table.set_bits(&checked_start_ranks(space)?)?;
        let first = table.count(&all)?;
        ledger.push(first, reached(table.bits(&goals)?));
        ledger.checkpoint(table.storage())?;
    }
    while !ledger.finished {
        // Between scans too: a GPU pass does not look within itself.
        check_stop(options.progress)?;
        let scan = ledger.counts.len();
        let pass = Pass {
            label: format!("scan {scan}"),
            scanned: all.clone(),
            touched: all.clone(),
            progress: options.progress,
        };
        let work = table.expand(&pass, MoveFilter::All)?;
        ledger.add_pass(work);
        if work.marked > 0 {
            let count = table.count(&all)?;
            ledger.push(count, reached(table.bits(&goals)?));
        } else {
            ledger.finished = true;
        }
        ledger.checkpoint(table.storage())?;
    }
    let bits = table.bits(&goals)?;
    Ok(ledger.report(Vec::new(), reached(bits), table.storage()))
}
