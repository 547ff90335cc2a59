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

use super::chunks::{Chunk, chunks_of};
use super::ledger::Ledger;
use super::{Algorithm, BATCH, SearchOptions, SearchReport, Work, checked_start_ranks, has_parent};
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
    let mut ledger = Ledger::open(
        Algorithm::TwoBitBfs,
        table.storage(),
        checkpoint,
        options.progress,
        || {
            for rank in checked_start_ranks(space)? {
                table.set(rank, frontier_value(0));
            }
            Ok(table.count(frontier_value(0)))
        },
    )?;

    let chunks = chunks_of(&space.blocks());
    let all: Vec<&Chunk> = chunks.iter().collect();
    while !ledger.finished {
        let level = ledger.counts.len();
        let frontier = frontier_value(level - 1);
        let next = frontier_value(level);
        let unseen = space.size() - ledger.counts.iter().sum::<u64>();
        if space.reversible() && unseen < ledger.counts[level - 1] {
            ledger.pass(
                &format!("layer {level} (checking parents)"),
                &all,
                |chunk| check_parents(space, &table, chunk, frontier, next),
            );
            // The frontier had to stay intact until every check was done.
            table.clear_equal(frontier);
        } else {
            ledger.pass(&format!("layer {level}"), &all, |chunk| {
                expand_chunk(space, &table, chunk, frontier, next)
            });
        }
        let found = table.count(next);
        ledger.record((found > 0).then_some(found))?;
    }
    Ok(ledger.report())
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
