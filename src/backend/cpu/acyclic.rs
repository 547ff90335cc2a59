//! The one sweep that solves an acyclic layer on the CPU (a layer whose
//! moves all lead to solved layers below it, see
//! [`LayerLinks::acyclic_layer`](crate::space::LayerLinks::acyclic_layer)):
//! rayon over chunks of the layer, each position judged from its moves'
//! stored values with the judge's [`Tally`], its symmetric twins given the
//! same value.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::search::chunks::{Chunk, chunks_of, each_unit};
use crate::search::retro2::judge::{Tally, Verdict};
use crate::search::retro2::seam::LayerSweep;
use crate::space::{AcyclicSweep, LayeredGame, Player, Successor, SweepCount, Value};
use crate::table::TwoBitTable;

/// Positions whose moves are ranked (and their cells prefetched) before
/// any is looked up, so that the lookups of a batch overlap in memory: a
/// move that changes the mover's pattern lands anywhere in a table of
/// hundreds of megabytes.
const BATCH: usize = 32;

/// A position whose moves wait for their values.
struct Pending {
    mover: Player,
    no_move: Value,
    /// Its moves in [`Batch::moves`]; `no_move` is only meaningful when
    /// there are none.
    moves: Range<usize>,
    /// Its rank and its twins' in [`Batch::twins`].
    twins: Range<usize>,
}

#[derive(Default)]
struct Batch {
    pending: Vec<Pending>,
    moves: Vec<Successor>,
    twins: Vec<u64>,
}

impl Batch {
    /// Judges every pending position from its moves' values and writes
    /// the verdict to it and its twins; empties the batch. Returns the
    /// positions left open (a move into an undecided cell) and a layer
    /// reached that `lower` does not hold, if any.
    fn settle(
        &mut self,
        values: &TwoBitTable,
        lower: &[Option<&TwoBitTable>],
    ) -> (u64, Option<usize>) {
        let (mut open, mut beyond) = (0, None);
        for pending in &self.pending {
            let mut tally = Tally::new(pending.mover, false);
            for next in &self.moves[pending.moves.clone()] {
                let Some(Some(table)) = lower.get(next.layer) else {
                    beyond = Some(next.layer);
                    break;
                };
                if !tally.see(Value::from_bits(table.get(next.rank))) {
                    break;
                }
            }
            match tally.verdict(|| pending.no_move) {
                Verdict::Decided(value) => {
                    for &twin in &self.twins[pending.twins.clone()] {
                        values.set(twin, value as u8);
                    }
                }
                Verdict::Open => open += 1,
            }
        }
        self.pending.clear();
        self.moves.clear();
        self.twins.clear();
        (open, beyond)
    }
}

/// Chunks swept between two calls of the record hook: a few seconds'
/// work on a few threads.
const CHUNKS_PER_PART: usize = 256;

/// Sweeps `layer` into `values` (see
/// [`RetroBackend::sweep_acyclic`](crate::search::retro2::seam::RetroBackend::sweep_acyclic));
/// host tables, so the GPU backend runs it too.
pub(crate) fn sweep_acyclic<G: LayeredGame>(
    game: &G,
    sweep: &LayerSweep<'_, TwoBitTable>,
    between_parts: &mut dyn FnMut() -> Result<()>,
) -> Result<u64> {
    let (layer, values, lower, pass) = (sweep.layer, sweep.values, sweep.lower, sweep.pass);
    let chunks = chunks_of(&game.layer_blocks(layer));
    let examined = AtomicU64::new(0);
    // A move into a position its layer does not decide: the layer below
    // is not what the game says it is (a bug, not a user's error).
    let unknown = AtomicU64::new(0);
    let missing = AtomicU64::new(u64::MAX);
    pass.progress.begin_pass(&pass.label, chunks.len() as u64);
    let sweep = AcyclicSweep { values, lower };
    // The generic sweep of `ranks`: every position unranked, its moves
    // generated and ranked by the game's rules, looked up in batches.
    let sweep_generic = |ranks: Range<u64>| {
        let mut state = game.new_state();
        let mut batch = Batch::default();
        let mut count = SweepCount::default();
        let settle = |batch: &mut Batch, count: &mut SweepCount| {
            let (open, beyond) = batch.settle(values, lower);
            count.open += open;
            if let Some(layer) = beyond {
                missing.fetch_min(layer as u64, Ordering::Relaxed);
            }
        };
        for rank in ranks {
            if values.get(rank) != Value::Unknown as u8 {
                continue;
            }
            game.unrank(layer, rank, &mut state);
            if game.reduced_by_symmetry() && !game.is_representative(layer, rank, &state) {
                continue;
            }
            count.examined += 1;
            let twins_start = batch.twins.len();
            batch.twins.push(rank);
            if game.reduced_by_symmetry() {
                game.images(layer, &state, |twin| batch.twins.push(twin));
            }
            let twins = twins_start..batch.twins.len();
            if let Some(value) = game.rule_value(layer, &state) {
                for &twin in &batch.twins[twins.clone()] {
                    values.set(twin, value as u8);
                }
                batch.twins.truncate(twins_start);
                continue;
            }
            let moves_start = batch.moves.len();
            game.successors(layer, &state, |next| {
                if let Some(Some(table)) = lower.get(next.layer) {
                    table.prefetch(next.rank);
                }
                batch.moves.push(next);
                true
            });
            // The value without moves is read only when there are none
            // (a positional game tests its winning sets for it).
            let no_move = if batch.moves.len() == moves_start {
                game.no_move_value(&state)
            } else {
                Value::Unknown
            };
            batch.pending.push(Pending {
                mover: game.mover(&state),
                no_move,
                moves: moves_start..batch.moves.len(),
                twins,
            });
            if batch.pending.len() == BATCH {
                settle(&mut batch, &mut count);
            }
        }
        settle(&mut batch, &mut count);
        count
    };
    let sweep_chunk = |chunk: &Chunk| {
        if pass.progress.stop_requested() {
            return;
        }
        let mut generic = |ranks: Range<u64>| sweep_generic(ranks);
        let count = game
            .sweep_acyclic_ranks(layer, chunk.ranks.clone(), &sweep, &mut generic)
            .unwrap_or_else(|| sweep_generic(chunk.ranks.clone()));
        examined.fetch_add(count.examined, Ordering::Relaxed);
        unknown.fetch_add(count.open, Ordering::Relaxed);
        pass.progress.advance(1);
    };
    for part in chunks.chunks(CHUNKS_PER_PART) {
        each_unit(part).for_each(sweep_chunk);
        if pass.progress.stop_requested() {
            break;
        }
        between_parts()?;
    }
    pass.progress.end_pass();
    let missing = missing.into_inner();
    if missing != u64::MAX {
        return Err(Error::InvalidParameter(format!(
            "layer {layer} ({}) has moves into layer {missing}, which was not opened for it",
            game.layer_descriptor(layer)
        )));
    }
    let unknown = unknown.into_inner();
    if unknown > 0 {
        return Err(Error::InvalidParameter(format!(
            "{unknown} positions of layer {layer} ({}) move to positions their layers leave undecided: the layers below are not solved",
            game.layer_descriptor(layer)
        )));
    }
    Ok(examined.into_inner())
}
