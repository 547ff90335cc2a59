//! Two-bit breadth-first search (Algorithm 1 of `002_f83af64931234a7c.txt`),
//! on any [`Backend`].
//!
//! Cell values: 3 = unseen, 0 = closed (expanded), and 1 / 2 alternate as
//! "frontier" and "next layer". Algorithm 1 as printed stores depth mod 3 and
//! so re-expands layer l-4, l-7, ... whenever its value comes round again;
//! here the frontier is closed (value -> 0) once its successors are in the
//! store. That expands every state exactly once, makes each layer's size a
//! plain count of the "next" value, and keeps a killed run resumable: a
//! frontier cell is closed only after its successors are written, so redoing
//! a half-finished layer is safe; a resumed layer first counts what the
//! interrupted run had marked.
//!
//! Once fewer states are unseen than sit in the frontier, a reversible space
//! switches to checking parents instead (the "backward" expansion of
//! Rokicki's two-bit searches): each unseen state looks for a neighbour in
//! the frontier and stops at the first one.

use super::backend::{Backend, Pass, TableRequest};
use super::ledger::Ledger;
use super::{
    Algorithm, DEEPEST_SAMPLE, LayerCount, SearchOptions, SearchReport, blocks_of_layer,
    checked_start_ranks, union,
};
use crate::error::Result;
use crate::space::Space;

pub const UNSEEN: u8 = 3;

/// Value of the cells of layer `layer` while they wait to be expanded.
pub fn frontier_value(layer: usize) -> u8 {
    1 + (layer % 2) as u8
}

pub fn two_bit_bfs<S: Space, B: Backend>(
    space: &S,
    backend: &B,
    options: &SearchOptions,
) -> Result<SearchReport> {
    let request = TableRequest {
        backing: &options.backing,
        identity: super::identity::space_identity(space, "two-bit BFS", 2),
        progress: options.progress,
        resident_cells: space.size(),
        max_depth: options.max_depth,
    };
    let opened = backend.two_bit(space, &request)?;
    let mut table = opened.passes;
    let goals = space.goal_ranks();
    let mut goal_cells = Vec::new();
    let mut ledger = Ledger::open(
        Algorithm::TwoBitBfs,
        table.storage(),
        opened.progress,
        options.progress,
        goals.clone(),
    )?;
    if ledger.is_fresh() {
        let mut starts = checked_start_ranks(space)?;
        table.set_cells(&starts, frontier_value(0))?;
        let first = if space.symmetry_reduced() {
            table.count(&blocks_of_layer(space, 0), frontier_value(0))?
        } else {
            starts.sort_unstable();
            starts.dedup();
            LayerCount::plain(starts.len() as u64)
        };
        goal_cells = table.cells(&goals)?;
        ledger.push(first, reached(&goals, &goal_cells));
        ledger.checkpoint(table.storage())?;
    }

    // Successors an interrupted run had marked in the layer it did not
    // finish: the passes count only the cells they change themselves.
    let mut marked_before = if ledger.resumed_from.is_some() && !ledger.finished {
        let level = ledger.counts.len();
        let count = table.count(&blocks_of_layer(space, level), frontier_value(level))?;
        count.representatives
    } else {
        0
    };
    let mut deepest = Vec::new();
    while !ledger.finished && !options.deep_enough(ledger.counts.len()) {
        let level = ledger.counts.len();
        let frontier = frontier_value(level - 1);
        let next = frontier_value(level);
        let frontier_blocks = blocks_of_layer(space, level - 1);
        let next_blocks = blocks_of_layer(space, level);
        let unseen = space.size() - ledger.representatives.iter().sum::<u64>();
        let backward = space.reversible() && unseen < ledger.representatives[level - 1];
        // Forward, the frontier's blocks are scanned; backward, the blocks
        // the next layer can fill.
        let (label, scanned) = if backward {
            (
                format!("layer {level} (checking parents)"),
                next_blocks.clone(),
            )
        } else {
            (format!("layer {level}"), frontier_blocks.clone())
        };
        let pass = Pass {
            label,
            scanned,
            touched: union(&frontier_blocks, &next_blocks),
            progress: options.progress,
        };
        let work = if backward {
            table.check_parents(&pass, frontier, next)?
        } else {
            table.expand(&pass, frontier, next)?
        };
        ledger.add_pass(work);
        // A pass counts the cells it lowers from unseen, exactly, so the
        // layer needs no recount (a full scan of the table) unless stored
        // states stand for orbits.
        let found = if space.symmetry_reduced() {
            table.count(&next_blocks, next)?
        } else {
            LayerCount::plain(work.marked + std::mem::take(&mut marked_before))
        };
        if found.representatives == 0 {
            // The frontier was the deepest layer: note a few of its states
            // before it closes.
            deepest = table.first_ranks(&frontier_blocks, frontier, DEEPEST_SAMPLE)?;
        }
        // Only now, with every successor in the store, may the frontier close.
        table.close(&frontier_blocks, frontier)?;
        goal_cells = table.cells(&goals)?;
        match (found.representatives > 0).then_some(found) {
            Some(found) => ledger.push(found, reached(&goals, &goal_cells)),
            None => ledger.finished = true,
        }
        ledger.checkpoint(table.storage())?;
    }
    if goal_cells.len() != goals.len() {
        goal_cells = table.cells(&goals)?;
    }
    if deepest.is_empty() && !ledger.finished {
        // Stopped at --max-depth: the last layer is still unexpanded.
        let last = ledger.counts.len() - 1;
        deepest = table.first_ranks(
            &blocks_of_layer(space, last),
            frontier_value(last),
            DEEPEST_SAMPLE,
        )?;
    }
    Ok(ledger.report(deepest, reached(&goals, &goal_cells), table.storage()))
}

/// Whether each goal's cell says it was reached.
fn reached<'g>(goals: &'g [u64], cells: &'g [u8]) -> impl Fn(u64) -> bool + 'g {
    move |rank| {
        goals
            .iter()
            .position(|&goal| goal == rank)
            .is_some_and(|i| cells[i] != UNSEEN)
    }
}
