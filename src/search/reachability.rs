//! One-bit reachability (Algorithm 2 of `002_f83af64931234a7c.txt`).
//!
//! Scans expand every set bit until a scan sets nothing new. A successor
//! with a higher rank than its parent is usually reached later in the same
//! scan, so the number of scans is at most the number of BFS layers
//! (Theorem 2) and often far fewer. The scan does not separate layers, so
//! the report has the reachable count but no layer table.

use std::sync::atomic::{AtomicBool, Ordering};

use super::chunks::{Chunk, chunks_of};
use super::ledger::{Ledger, count_states};
use super::{Algorithm, BATCH, SearchOptions, SearchReport, Work, checked_start_ranks};
use crate::error::Result;
use crate::space::{MoveFilter, Space};
use crate::table::OneBitTable;

pub fn one_bit_reachability<S: Space>(space: &S, options: &SearchOptions) -> Result<SearchReport> {
    let descriptor = format!("{}; one-bit reachability", space.descriptor());
    let (table, checkpoint) =
        OneBitTable::open(&options.backing, &descriptor, space.size(), space.size())?;
    let chunks = chunks_of(&space.blocks());
    let all: Vec<&Chunk> = chunks.iter().collect();
    // The counts are the states reached after each completed scan.
    let count_reached = || {
        count_states(space, &all, table.count_ones(), |chunk, visit| {
            table.for_each_set(chunk.ranks.clone(), visit)
        })
    };
    let reached = |rank: u64| table.get(rank);
    let mut ledger = Ledger::open(
        Algorithm::OneBitReachability,
        table.storage(),
        checkpoint,
        options.progress,
        space.goal_ranks(),
        || {
            for rank in checked_start_ranks(space)? {
                table.set(rank);
            }
            Ok(count_reached())
        },
        reached,
    )?;

    while !ledger.finished {
        let scan = ledger.counts.len();
        let changed = AtomicBool::new(false);
        ledger.pass(&format!("scan {scan}"), &all, |chunk| {
            scan_chunk(space, &table, chunk, &changed)
        });
        let next = changed.load(Ordering::Relaxed).then(count_reached);
        ledger.record(next, reached)?;
    }
    Ok(ledger.report(Vec::new(), reached))
}

fn scan_chunk<S: Space>(
    space: &S,
    table: &OneBitTable,
    chunk: &Chunk,
    changed: &AtomicBool,
) -> Work {
    let mut state = space.new_state();
    let mut batch = Vec::with_capacity(BATCH + 64);
    let mut work = Work::default();
    let mut any_new = false;
    let flush = |batch: &mut Vec<u64>, work: &mut Work, any_new: &mut bool| {
        work.successors += batch.len() as u64;
        for &rank in batch.iter() {
            *any_new |= table.test_and_set(rank);
        }
        batch.clear();
    };
    table.for_each_set(chunk.ranks.clone(), |rank| {
        space.unrank(rank, &mut state);
        work.expanded += 1;
        space.expand(&state, MoveFilter::All, |successor| batch.push(successor));
        if batch.len() >= BATCH {
            flush(&mut batch, &mut work, &mut any_new);
        }
    });
    flush(&mut batch, &mut work, &mut any_new);
    if any_new {
        changed.store(true, Ordering::Relaxed);
    }
    work
}
