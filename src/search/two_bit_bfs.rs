//! Two-bit breadth-first search (Algorithm 1 of `002_f83af64931234a7c.txt`).
//!
//! Cell values: 3 = unseen, 0 = closed (expanded), and 1 / 2 alternate as
//! "frontier" and "next layer". Algorithm 1 as printed stores depth mod 3 and
//! so re-expands layer l-4, l-7, ... whenever its value comes round again; a
//! chunk here instead closes its frontier cells (value -> 0) as soon as their
//! successors are written. That costs no extra pass, expands every state
//! exactly once, makes each layer's size a plain count of the "next" value,
//! and keeps a killed run resumable: a frontier cell is closed only after its
//! successors are in the table, so redoing a half-finished level is safe.
//!
//! Once fewer states are unseen than sit in the frontier, a reversible space
//! switches to checking parents instead (the "backward" expansion of
//! Rokicki's two-bit searches): each unseen state looks for a neighbour in
//! the frontier and stops at the first one.

use rayon::prelude::*;

use super::chunks::{Chunk, chunks_of};
use super::{BATCH, RunClock, SearchOptions, SearchReport, Work, checked_start_ranks};
use crate::error::Result;
use crate::space::{MoveFilter, Space};
use crate::table::{Checkpoint, TwoBitTable};

pub const UNSEEN: u8 = 3;

/// Value of the cells of layer `layer` while they wait to be expanded.
pub fn frontier_value(layer: usize) -> u8 {
    1 + (layer % 2) as u8
}

pub fn two_bit_bfs<S: Space>(space: &S, options: &SearchOptions) -> Result<SearchReport> {
    let clock = RunClock::start();
    let progress = options.progress;
    let descriptor = format!("{}; two-bit BFS", space.descriptor());
    let (table, checkpoint) =
        TwoBitTable::open(&options.backing, &descriptor, space.size(), UNSEEN)?;

    let (mut layers, resumed_from, complete) = match checkpoint {
        Some(Checkpoint {
            last_completed: Some(last),
            counts,
            complete,
        }) => {
            progress.note(&format!("resuming from completed layer {last}"));
            (counts, Some(last), complete)
        }
        _ => {
            let starts = checked_start_ranks(space)?;
            for &rank in &starts {
                table.set(rank, frontier_value(0));
            }
            let layer_zero = table.count(frontier_value(0));
            table.storage().checkpoint(&Checkpoint {
                last_completed: Some(0),
                counts: vec![layer_zero],
                complete: false,
            })?;
            (vec![layer_zero], None, false)
        }
    };
    for (layer, &states) in layers.iter().enumerate() {
        progress.layer_done(layer, states);
    }

    let chunks = chunks_of(&space.blocks());
    let mut work = Work::default();
    let mut passes = 0;
    let mut finished = complete;
    while !finished {
        let level = layers.len();
        let frontier = frontier_value(level - 1);
        let next = frontier_value(level);
        let seen: u64 = layers.iter().sum();
        let unseen = space.size() - seen;
        let backward = space.reversible() && unseen < layers[level - 1];

        if backward {
            progress.begin_pass(
                &format!("layer {level} (checking parents)"),
                chunks.len() as u64,
            );
            work += chunks
                .par_iter()
                .map(|chunk| {
                    let done = check_parents(space, &table, chunk, frontier, next);
                    progress.advance(1);
                    done
                })
                .reduce(Work::default, |a, b| a + b);
            // The frontier had to stay intact until every check was done.
            table.clear_equal(frontier);
        } else {
            progress.begin_pass(&format!("layer {level}"), chunks.len() as u64);
            work += chunks
                .par_iter()
                .map(|chunk| {
                    let done = expand_chunk(space, &table, chunk, frontier, next);
                    progress.advance(1);
                    done
                })
                .reduce(Work::default, |a, b| a + b);
        }
        progress.end_pass();
        passes += 1;

        let found = table.count(next);
        finished = found == 0;
        if !finished {
            layers.push(found);
            progress.layer_done(level, found);
        }
        table.storage().checkpoint(&Checkpoint {
            last_completed: Some(layers.len() as u64 - 1),
            counts: layers.clone(),
            complete: finished,
        })?;
    }

    Ok(SearchReport {
        algorithm: super::Algorithm::TwoBitBfs,
        reachable: layers.iter().sum(),
        layers: Some(layers),
        passes,
        expanded: work.expanded,
        successors: work.successors,
        parent_checks: work.parent_checks,
        seconds: clock.seconds(),
        resumed_from,
        store: table.storage().path().map(|p| p.to_path_buf()),
    })
}

/// Expands the frontier cells of one chunk, then closes them.
fn expand_chunk<S: Space>(
    space: &S,
    table: &TwoBitTable,
    chunk: &Chunk,
    frontier: u8,
    next: u8,
) -> Work {
    let mut state = space.new_state();
    let mut batch = Vec::with_capacity(BATCH + 64);
    let mut unseen = Vec::with_capacity(BATCH + 64);
    let mut work = Work::default();
    table.for_each_equal(chunk.ranks.clone(), frontier, |rank| {
        space.unrank(rank, &mut state);
        work.expanded += 1;
        space.expand(&state, MoveFilter::All, |successor| batch.push(successor));
        if batch.len() >= BATCH {
            work.successors += batch.len() as u64;
            mark_batch(table, &mut batch, &mut unseen, next);
        }
    });
    work.successors += batch.len() as u64;
    mark_batch(table, &mut batch, &mut unseen, next);
    // Only now, with every successor written, may the frontier cells close.
    table.clear_equal_in(chunk.ranks.clone(), frontier);
    work
}

/// Writes `next` into the unseen cells among `batch`, then empties it.
#[inline]
fn mark_batch(table: &TwoBitTable, batch: &mut Vec<u64>, unseen: &mut Vec<u64>, next: u8) {
    unseen.clear();
    unseen.extend(
        batch
            .iter()
            .copied()
            .filter(|&rank| table.get(rank) == UNSEEN),
    );
    for &rank in unseen.iter() {
        table.lower_from_three(rank, next);
    }
    batch.clear();
}

/// Backward step: every unseen state of the chunk with a neighbour in the
/// frontier joins the next layer.
fn check_parents<S: Space>(
    space: &S,
    table: &TwoBitTable,
    chunk: &Chunk,
    frontier: u8,
    next: u8,
) -> Work {
    let mut state = space.new_state();
    let mut work = Work::default();
    let mut neighbours = Vec::with_capacity(64);
    table.for_each_equal(chunk.ranks.clone(), UNSEEN, |rank| {
        space.unrank(rank, &mut state);
        work.parent_checks += 1;
        neighbours.clear();
        space.expand(&state, MoveFilter::All, |neighbour| {
            neighbours.push(neighbour)
        });
        work.successors += neighbours.len() as u64;
        if neighbours.iter().any(|&n| table.get(n) == frontier) {
            table.lower_from_three(rank, next);
        }
    });
    work
}
