//! Two-bit breadth-first search (Algorithm 1 of Edelkamp et al., *Solving
//! Games in Parallel with Linear-Time Perfect Hash Functions* (TZI report 52,
//! Bremen, 2009)), on any [`Backend`].
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
//!
//! [`two_bit_bfs_keeping_depths`] runs Algorithm 1 as printed instead: a
//! state's cell keeps its depth mod 3 for good (no closing), so the finished
//! table tells every state's distance residue, which is enough to walk a
//! shortest path down to the start (`super::solve`). The price is the
//! re-expansion the closing avoids: layer l expands every cell holding
//! l mod 3, layers l-3, l-6, ... again (their successors are all seen, so the
//! counts do not change). A space with exact layers (Peg Solitaire) scans
//! only its layer's blocks and re-expands nothing.

use super::backend::{Backend, Pass, TableRequest, TwoBitPasses};
use super::ledger::Ledger;
use super::{
    Algorithm, DEEPEST_SAMPLE, LayerCount, SearchOptions, SearchReport, blocks_of_layer,
    checked_start_ranks, union,
};
use crate::error::Result;
use crate::progress::check_stop;
use crate::space::Space;

/// The value of a cell not reached yet, which every cell starts at.
pub const UNSEEN: u8 = 3;

/// What a table of kept depths is called in its identity (and so its file).
pub const KEEPING_DEPTHS: &str = "two-bit BFS keeping depth mod 3";

/// Value of the cells of layer `layer` while they wait to be expanded.
pub(crate) fn frontier_value(layer: usize) -> u8 {
    1 + (layer % 2) as u8
}

/// What the cells of a finished two-bit table tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cells {
    /// Seen (0) or not ([`UNSEEN`]): every expanded layer is closed.
    Seen,
    /// Each seen state's depth mod 3 (Algorithm 1 as printed).
    DepthMod3,
}

impl Cells {
    /// The value layer `layer`'s cells get when they are reached.
    fn layer_value(self, layer: usize) -> u8 {
        match self {
            Cells::Seen => frontier_value(layer),
            Cells::DepthMod3 => (layer % 3) as u8,
        }
    }
}

/// Two-bit BFS from the space's start states: layer sizes, every state
/// expanded once.
pub fn two_bit_bfs<S: Space, B: Backend>(
    space: &S,
    backend: &B,
    options: &SearchOptions,
) -> Result<SearchReport> {
    run(space, backend, options, Cells::Seen).map(|(report, _)| report)
}

/// Two-bit BFS whose finished table holds every reached state's depth mod 3
/// (3 for states never reached), returned with the report for lookups
/// through [`TwoBitPasses::cells`]. Its store file is its own (it cannot be
/// mistaken for a plain BFS table). Not for spaces reduced by symmetry: a
/// stored representative's successors are canonical ranks, so a walk over
/// them would not give the moves of the real position. `solve` runs it on
/// the CPU backend; the tests cover that backend only.
pub fn two_bit_bfs_keeping_depths<'a, S: Space, B: Backend>(
    space: &'a S,
    backend: &'a B,
    options: &SearchOptions,
) -> Result<(SearchReport, Box<dyn TwoBitPasses + 'a>)> {
    if space.symmetry_reduced() {
        return Err(crate::Error::Unsupported(format!(
            "{} stores one position per symmetry class; a table of depths needs the full space (drop --symmetry)",
            space.descriptor()
        )));
    }
    run(space, backend, options, Cells::DepthMod3)
}

fn run<'a, S: Space, B: Backend>(
    space: &'a S,
    backend: &'a B,
    options: &SearchOptions,
    cells: Cells,
) -> Result<(SearchReport, Box<dyn TwoBitPasses + 'a>)> {
    let label = match cells {
        Cells::Seen => "two-bit BFS",
        Cells::DepthMod3 => KEEPING_DEPTHS,
    };
    let request = TableRequest {
        backing: &options.backing,
        identity: super::identity::space_identity(space, label, 2),
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
        table.set_cells(&starts, cells.layer_value(0))?;
        let first = if space.symmetry_reduced() {
            table.count(&blocks_of_layer(space, 0), cells.layer_value(0))?
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
        let blocks = blocks_of_layer(space, level);
        let count = table.count(&blocks, cells.layer_value(level))?;
        // Kept depths: the layer's blocks also hold the earlier layers of the
        // same residue mod 3 whose blocks are the layer's (blocks of two
        // layers are the same or disjoint: they follow residues).
        let earlier: u64 = match cells {
            Cells::Seen => 0,
            Cells::DepthMod3 => (level % 3..level)
                .step_by(3)
                .filter(|&earlier| blocks_of_layer(space, earlier) == blocks)
                .map(|earlier| ledger.representatives[earlier])
                .sum(),
        };
        count.representatives - earlier
    } else {
        0
    };
    let mut deepest = Vec::new();
    while !ledger.finished && !options.deep_enough(ledger.counts.len()) {
        // Between layers too: a GPU pass does not look within itself.
        check_stop(options.progress)?;
        let level = ledger.counts.len();
        let frontier = cells.layer_value(level - 1);
        let next = cells.layer_value(level);
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
        if found.representatives == 0 && cells == Cells::Seen {
            // The frontier was the deepest layer: note a few of its states
            // before it closes. (Kept depths cannot tell them from earlier
            // layers of the same residue: no sample.)
            deepest = table.first_ranks(&frontier_blocks, frontier, DEEPEST_SAMPLE)?;
        }
        // Only now, with every successor in the store, may the frontier close.
        if cells == Cells::Seen {
            table.close(&frontier_blocks, frontier)?;
        }
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
    if deepest.is_empty() && !ledger.finished && cells == Cells::Seen {
        // Stopped at --max-depth: the last layer is still unexpanded.
        let last = ledger.counts.len() - 1;
        deepest = table.first_ranks(
            &blocks_of_layer(space, last),
            frontier_value(last),
            DEEPEST_SAMPLE,
        )?;
    }
    let report = ledger.report(deepest, reached(&goals, &goal_cells), table.storage());
    Ok((report, table))
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
