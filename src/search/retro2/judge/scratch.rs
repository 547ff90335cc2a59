//! A worker's buffers for a pass ([`Scratch`]), reused from batch to
//! batch, and the batching of a unit's cells that lets the cache misses of
//! a batch overlap.

use super::placement::{Place, Placement, Unit};
use super::remote::{Decision, Question};
use crate::search::retro2::open_moves::PendingWatches;
use crate::space::Player;
use crate::space::tally::{Tally, Verdict};
use crate::table::OneBitTable;

/// Ranks of a pass's source handled together: the words of a batch's
/// cells, and then of their predecessors or moves, are prefetched before
/// any is read, so that the cache misses of a batch overlap instead of
/// following one another. Big layers spend their time on these random
/// lookups into tables of gigabytes.
const BATCH: usize = 64;

/// A candidate of a check, its first wave of moves ranked.
pub(super) struct Candidate {
    pub(super) cell: u64,
    pub(super) rank: u64,
    pub(super) mover: Player,
    /// The end of its moves in the scratch's `moves`.
    pub(super) moves_end: usize,
    /// Its verdict, when known without its moves (a rule, or no move).
    pub(super) known: Option<Verdict>,
    /// Whether it has moves past the first wave.
    pub(super) more: bool,
}

/// A worker's buffers for a pass.
pub struct Scratch<S> {
    pub(super) state: S,
    /// Checks: the state the second wave's candidates unrank into, apart
    /// from `state`, whose unranking goes on from rank to rank.
    pub(super) second_wave_state: S,
    pub(super) batch: Vec<(u64, u64)>,
    /// Propagation: each predecessor of the batch held here, with what the
    /// frontier position it moves to brings it.
    pub(super) predecessors: Vec<(u64, Decision)>,
    /// Checks: the moves of the batch's open candidates, in order.
    pub(super) moves: Vec<(Place, usize)>,
    /// Checks: each candidate to judge.
    pub(super) candidates: Vec<Candidate>,
    /// Checks: `(cell, rank, tally, moves' end)` of the candidates that the
    /// first wave of their moves left unsettled.
    pub(super) unsettled: Vec<(u64, u64, Tally, usize)>,
    /// Questions of the position being judged.
    pub(super) asked: Vec<Question>,
    /// Checks: the open moves recorded, their watches not yet set.
    pub(super) watches: PendingWatches,
    /// Colour twins: each twin of the batch with its value, written once
    /// the batch's twins are ranked.
    pub(super) twins: Vec<(u64, u8)>,
}

impl<S: Clone> Scratch<S> {
    /// Empty buffers, with `state` to unrank positions into.
    pub fn new(state: S) -> Self {
        Scratch {
            second_wave_state: state.clone(),
            state,
            batch: Vec::with_capacity(BATCH),
            predecessors: Vec::new(),
            moves: Vec::new(),
            candidates: Vec::with_capacity(BATCH),
            unsettled: Vec::with_capacity(BATCH),
            asked: Vec::new(),
            watches: PendingWatches::default(),
            twins: Vec::with_capacity(BATCH),
        }
    }

    /// Feeds the (cell, rank) pairs of `unit` to `handle` a batch at a time.
    pub(super) fn in_batches(
        &mut self,
        unit: &Unit,
        table: &OneBitTable,
        placement: &impl Placement,
        mut handle: impl FnMut(&mut Self, &[(u64, u64)]) -> u64,
    ) -> u64 {
        let mut examined = 0;
        let mut batch = std::mem::take(&mut self.batch);
        unit.for_each(table, placement, |cell, rank| {
            batch.push((cell, rank));
            if batch.len() == BATCH {
                examined += handle(self, &batch);
                batch.clear();
            }
        });
        examined += handle(self, &batch);
        batch.clear();
        self.batch = batch;
        examined
    }
}
