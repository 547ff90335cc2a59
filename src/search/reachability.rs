//! One-bit reachability (Algorithm 2 of `002_f83af64931234a7c.txt`).
//!
//! Scans expand every set bit until a scan sets nothing new. A successor
//! with a higher rank than its parent is usually reached later in the same
//! scan, so the number of scans is at most the number of BFS layers
//! (Theorem 2) and often far fewer. The scan does not separate layers, so
//! the report has the reachable count but no layer table.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::chunks::{Chunk, chunks_of};
use super::{BATCH, RunClock, SearchOptions, SearchReport, Work, checked_start_ranks};
use crate::error::Result;
use crate::space::{MoveFilter, Space};
use crate::table::{Checkpoint, OneBitTable};

pub fn one_bit_reachability<S: Space>(space: &S, options: &SearchOptions) -> Result<SearchReport> {
    let clock = RunClock::start();
    let progress = options.progress;
    let descriptor = format!("{}; one-bit reachability", space.descriptor());
    let (table, checkpoint) = OneBitTable::open(&options.backing, &descriptor, space.size())?;

    // Counts hold the population after each completed scan.
    let (mut populations, resumed_from, complete) = match checkpoint {
        Some(Checkpoint {
            last_completed: Some(last),
            counts,
            complete,
        }) => {
            progress.note(&format!("resuming after scan {last}"));
            (counts, Some(last), complete)
        }
        _ => {
            for rank in checked_start_ranks(space)? {
                table.set(rank);
            }
            let population = table.count_ones();
            table.checkpoint(&Checkpoint {
                last_completed: Some(0),
                counts: vec![population],
                complete: false,
            })?;
            (vec![population], None, false)
        }
    };

    for (scan, &reached) in populations.iter().enumerate() {
        progress.scan_done(scan, reached);
    }

    let chunks = chunks_of(&space.blocks());
    let mut work = Work::default();
    let mut passes = 0;
    let mut finished = complete;
    while !finished {
        let scan = populations.len();
        let changed = AtomicBool::new(false);
        progress.begin_pass(&format!("scan {scan}"), chunks.len() as u64);
        work += chunks
            .par_iter()
            .map(|chunk| {
                let done = scan_chunk(space, &table, chunk, &changed);
                progress.advance(1);
                done
            })
            .reduce(Work::default, |a, b| a + b);
        progress.end_pass();
        passes += 1;
        finished = !changed.load(Ordering::Relaxed);
        if !finished {
            populations.push(table.count_ones());
            progress.scan_done(scan, populations[scan]);
        }
        table.checkpoint(&Checkpoint {
            last_completed: Some(populations.len() as u64 - 1),
            counts: populations.clone(),
            complete: finished,
        })?;
    }

    Ok(SearchReport {
        algorithm: super::Algorithm::OneBitReachability,
        layers: None,
        reachable: *populations.last().expect("at least the start population"),
        passes,
        expanded: work.expanded,
        successors: work.successors,
        parent_checks: 0,
        seconds: clock.seconds(),
        resumed_from,
        store: table.storage().path().map(|p| p.to_path_buf()),
    })
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
