//! The values positions pass to their twins: with colour twins, a
//! decided position's mirrored value to its twin within a later pass;
//! with symmetry reduction, a solved position's value to its symmetric
//! images at the end of a layer.

use super::layer::{LayerJudge, UNKNOWN};
use super::lower::LowerLayers;
use super::marks::Marks;
use super::placement::{CellRange, Place, Placement, Unit};
use super::remote::Remote;
use super::scratch::Scratch;
use super::tables::PassTables;
use crate::space::{LayeredGame, Value};

impl<G: LayeredGame, P: Placement, L: LowerLayers> LayerJudge<'_, G, P, L> {
    /// With colour twins, the first step of a later pass, over one unit
    /// of the frontier: each position of the judged player decided in the
    /// pass before writes its value's mirror at its colour twin and puts
    /// the twin into the frontier (marked in `marks`), where the second
    /// step, [`propagate_unit`](Self::propagate_unit), takes the twins to
    /// their predecessors in the order of their ranks: the predecessors of
    /// neighbouring twins lie near each other, where those of the
    /// positions' own twins, met in the positions' order, would be all
    /// over the table. The twins of a batch (64 positions, as the
    /// propagation's) are ranked and their words prefetched before any is
    /// written. Every cell is its rank here.
    /// Returns the positions examined.
    pub fn twins_unit(
        &self,
        unit: &Unit,
        scratch: &mut Scratch<G::State>,
        tables: &PassTables,
        marks: &mut Marks,
    ) -> u64 {
        let judged = self.colour_twins.expect("a layer of colour twins");
        scratch.in_batches(unit, &tables.current, self.placement, |scratch, batch| {
            let Scratch { state, twins, .. } = scratch;
            twins.clear();
            for &(cell, rank) in batch {
                // Unranked once: before the mover is known only where the
                // rank does not say it.
                let known_mover = self.game.mover_of_rank(self.layer, rank);
                if known_mover.is_none() {
                    self.game.unrank(self.layer, rank, state);
                }
                if known_mover.unwrap_or_else(|| self.game.mover(state)) != judged {
                    // A twin another unit has just marked.
                    continue;
                }
                if known_mover.is_some() {
                    self.game.unrank(self.layer, rank, state);
                }
                let twin = self.game.colour_twin_rank(self.layer, state);
                // A twin lies anywhere in the layer: its words load while
                // the batch's other twins are ranked instead of stalling
                // each write (those stalls were nearly half of
                // Morabaraba's layer 13's second pass).
                self.values.prefetch(twin);
                tables.current.prefetch(twin);
                let value = Value::from_bits(self.values.get(cell)).mirrored();
                twins.push((twin, value as u8));
            }
            for &(twin, value) in twins.iter() {
                self.values.compare_and_set(twin, UNKNOWN, value);
                if tables.current.test_and_set(twin) {
                    marks.push(twin);
                }
            }
            twins.len() as u64
        })
    }

    /// With symmetry reduction, the values of the positions of `range`
    /// go to their twins, here at once or to their owners. When one value
    /// was recorded (the others are the fill, already in place) only the
    /// positions holding it are copied, which are few; otherwise every
    /// representative's.
    pub fn copy_to_twins(&self, range: &CellRange, remote: &mut Remote) {
        let mut state = self.game.new_state();
        let mut copy = |cell: u64, require_representative: bool| {
            let rank = range.rank_of(cell);
            self.game.unrank(self.layer, rank, &mut state);
            if require_representative && !self.game.is_representative(self.layer, rank, &state) {
                return;
            }
            let value = self.values.get(cell);
            self.game.images(self.layer, &state, |image| {
                match self.placement.place(false, image) {
                    Place::Here(cell) => self.values.set(cell, value),
                    Place::Elsewhere { owner, cell } => remote.twins.push((owner, cell, value)),
                }
            });
        };
        match self.recorded {
            Some(value) => self
                .values
                .for_each_equal(range.cells.clone(), value as u8, |cell| copy(cell, false)),
            None => range.cells.clone().for_each(|cell| copy(cell, true)),
        }
    }
}
