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

use std::sync::Mutex;

use super::chunks::{Chunk, chunks_of};
use super::ledger::{Ledger, count_states};
use super::{
    Algorithm, BATCH, DEEPEST_SAMPLE, SearchOptions, SearchReport, Work, checked_start_ranks,
    has_parent,
};
use crate::error::Result;
use crate::space::{MoveFilter, Space};
use crate::table::TwoBitTable;

pub const UNSEEN: u8 = 3;

/// Value of the cells of layer `layer` while they wait to be expanded.
pub fn frontier_value(layer: usize) -> u8 {
    1 + (layer % 2) as u8
}

pub fn two_bit_bfs<S: Space>(space: &S, options: &SearchOptions) -> Result<SearchReport> {
    let descriptor = format!("{}; two-bit BFS", space.descriptor());
    let (table, checkpoint) =
        TwoBitTable::open(&options.backing, &descriptor, space.size(), UNSEEN)?;
    let chunks = chunks_of(&space.blocks());
    let all: Vec<&Chunk> = chunks.iter().collect();
    // The states holding `value`, counted for the full space.
    let count_value = |value: u8| {
        count_states(space, &all, table.count(value), |chunk, visit| {
            table.for_each_equal(chunk.ranks.clone(), value, visit)
        })
    };
    let reached = |rank: u64| table.get(rank) != UNSEEN;
    let mut ledger = Ledger::open(
        Algorithm::TwoBitBfs,
        table.storage(),
        checkpoint,
        options.progress,
        space.goal_ranks(),
        || {
            for rank in checked_start_ranks(space)? {
                table.set(rank, frontier_value(0));
            }
            Ok(count_value(frontier_value(0)))
        },
        reached,
    )?;

    // A few states of the layer being expanded; when a pass finds nothing,
    // they are the deepest layer's.
    let mut deepest = Vec::new();
    while !ledger.finished && !options.deep_enough(ledger.counts.len()) {
        let level = ledger.counts.len();
        let frontier = frontier_value(level - 1);
        let next = frontier_value(level);
        let unseen = space.size() - ledger.representatives.iter().sum::<u64>();
        let sample = Mutex::new(Vec::new());
        let backward = space.reversible() && unseen < ledger.representatives[level - 1];
        if backward {
            ledger.pass(
                &format!("layer {level} (checking parents)"),
                &all,
                |chunk| check_parents(space, &table, chunk, frontier, next),
            );
        } else {
            ledger.pass(&format!("layer {level}"), &all, |chunk| {
                expand_chunk(space, &table, chunk, frontier, next, &sample)
            });
        }
        let found = count_value(next);
        if backward {
            if found.representatives == 0 {
                *sample.lock().unwrap() = first_ranks_holding(&table, &chunks, frontier);
            }
            // The frontier had to stay intact until every check was done.
            table.clear_equal(frontier);
        }
        deepest = sample.into_inner().unwrap();
        deepest.sort_unstable();
        deepest.truncate(DEEPEST_SAMPLE);
        ledger.record((found.representatives > 0).then_some(found), reached)?;
    }
    Ok(ledger.report(deepest, reached))
}

/// The first few ranks (in rank order) whose cells hold `value`.
pub(crate) fn first_ranks_holding(table: &TwoBitTable, chunks: &[Chunk], value: u8) -> Vec<u64> {
    let mut ranks = Vec::new();
    for chunk in chunks {
        table.for_each_equal(chunk.ranks.clone(), value, |rank| ranks.push(rank));
        if ranks.len() >= DEEPEST_SAMPLE {
            break;
        }
    }
    ranks.truncate(DEEPEST_SAMPLE);
    ranks
}

/// Expands the frontier cells of one chunk, then closes them; the first few
/// expanded ranks go into `sample`.
fn expand_chunk<S: Space>(
    space: &S,
    table: &TwoBitTable,
    chunk: &Chunk,
    frontier: u8,
    next: u8,
    sample: &Mutex<Vec<u64>>,
) -> Work {
    let mut state = space.new_state();
    let mut sampled = Vec::new();
    let mut batch = Vec::with_capacity(BATCH + 64);
    let mut unseen = Vec::with_capacity(BATCH + 64);
    let mut work = Work::default();
    table.for_each_equal(chunk.ranks.clone(), frontier, |rank| {
        if sampled.len() < DEEPEST_SAMPLE {
            sampled.push(rank);
        }
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
    if !sampled.is_empty() {
        let mut sample = sample.lock().unwrap();
        if sample.len() < DEEPEST_SAMPLE {
            sample.extend(sampled);
        }
    }
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
    let mut scratch = (space.new_state(), Vec::with_capacity(64));
    let mut work = Work::default();
    table.for_each_equal(chunk.ranks.clone(), UNSEEN, |rank| {
        let is_parent = |neighbour| table.get(neighbour) == frontier;
        if has_parent(
            space,
            rank,
            MoveFilter::All,
            &mut scratch,
            &mut work,
            is_parent,
        ) {
            table.lower_from_three(rank, next);
        }
    });
    work
}
