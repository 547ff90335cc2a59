//! The passes of two-bit retrograde analysis on the CPU: the judging of
//! [`crate::search::retro2::judge`] with rayon over chunks of the host
//! table, or over the listed cells of a sparse pass.

use std::sync::atomic::AtomicU64;

use rayon::prelude::*;

use super::CpuBackend;
use crate::error::Result;
use crate::search::Progress;
use crate::search::chunks::{chunks_of, each_unit};
use crate::search::retro2::judge::{
    CellRange, LayerJudge, LowerLayers, Marks, NextLayer, PassTables, Remote, Scratch,
    SeveralLayers, Unit, WholeLayer, list_limit, recorded_value, units,
};
use crate::search::retro2::seam::{
    Below, LayerSweep, PassCount, RetroBackend, RetroPass, RetroPasses,
};
use crate::space::{LayeredGame, Player, Value};
use crate::table::TwoBitTable;

impl RetroBackend for CpuBackend {
    type Layer = TwoBitTable;

    fn sweep_acyclic<G: LayeredGame>(
        &self,
        game: &G,
        sweep: &LayerSweep<'_, TwoBitTable>,
        between_parts: &mut dyn FnMut() -> Result<()>,
    ) -> Result<u64> {
        super::acyclic::sweep_acyclic(game, sweep, between_parts)
    }

    /// A layer without predecessors is solved by value iteration here
    /// (`CpuRetro::iterate`).
    fn iterates_values(&self) -> bool {
        true
    }

    fn layer_passes<'a, G: LayeredGame>(
        &'a self,
        game: &'a G,
        layer: usize,
        values: &'a TwoBitTable,
        lower: Below<'a, TwoBitTable>,
    ) -> Result<Box<dyn RetroPasses + 'a>> {
        let chunks = chunks_of(&game.layer_blocks(layer));
        let ranges_where = |keep: &dyn Fn(usize) -> bool| -> Vec<CellRange> {
            chunks
                .iter()
                .filter(|chunk| keep(chunk.block))
                .map(|chunk| CellRange {
                    first_rank: chunk.ranks.start,
                    cells: chunk.ranks.clone(),
                })
                .collect()
        };
        let ranges = LayerRanges {
            all: ranges_where(&|_| true),
            with_twins: ranges_where(&|block| game.block_has_twins(layer, block)),
        };
        // One compiled judge per kind of lower layers (see `LowerLayers`).
        Ok(match lower {
            Below::Next(lower) => Box::new(CpuRetro::new(
                game,
                layer,
                values,
                NextLayer(lower),
                ranges,
            )?),
            Below::Several(tables) => Box::new(CpuRetro::new(
                game,
                layer,
                values,
                SeveralLayers(tables),
                ranges,
            )?),
        })
    }

    fn count<G: LayeredGame>(&self, game: &G, layer: usize, values: &TwoBitTable) -> [u64; 3] {
        let blocks = game.layer_blocks(layer);
        [Value::FirstWins, Value::SecondWins, Value::Draw].map(|value| {
            blocks
                .iter()
                .enumerate()
                .map(|(b, block)| {
                    game.block_weight(layer, b) * values.count_in(block.range(), value as u8)
                })
                .sum()
        })
    }
}

/// A layer's chunks as ranges of cells.
struct LayerRanges {
    /// Every chunk: the units of a scanning pass.
    all: Vec<CellRange>,
    /// The chunks of the blocks whose positions may have twins: the units
    /// of the copy to twins.
    with_twins: Vec<CellRange>,
}

/// One layer's passes on the CPU.
struct CpuRetro<'a, G, L> {
    judge: LayerJudge<'a, G, WholeLayer, L>,
    ranges: LayerRanges,
    tables: PassTables,
    list_limit: u64,
    /// The cells of the frontier, when the pass before listed them.
    frontier_list: Option<Vec<u64>>,
    /// The game gives no predecessors in this layer: the later passes
    /// iterate values (`CpuRetro::iterate`).
    iterating: bool,
}

/// A unit's work: positions examined and the marks it made.
type Done = (u64, Marks, Marks);

impl<'a, G: LayeredGame, L: LowerLayers> CpuRetro<'a, G, L> {
    fn new(
        game: &'a G,
        layer: usize,
        values: &'a TwoBitTable,
        lower: L,
        ranges: LayerRanges,
    ) -> Result<Self> {
        let iterating = !game.has_predecessors(layer);
        // Counts need every decision recorded: each counts down.
        let counted = game.counts_moves_within(layer) && recorded_value(game).is_none();
        Ok(CpuRetro {
            judge: LayerJudge {
                game,
                layer,
                values,
                lower,
                placement: &WholeLayer,
                recorded: recorded_value(game),
                // Twins are written as they propagate, so every decision
                // must: as it does where moves are counted (no candidate
                // check reads a twin before its propagation has written it).
                colour_twins: game.colour_twins(layer).filter(|_| counted),
            },
            ranges,
            // Open moves and counts serve the propagation to
            // predecessors, which value iteration does without.
            tables: PassTables::new(
                values.len(),
                !iterating,
                counted && !iterating,
                game.tags_open_moves(layer),
            )?,
            list_limit: list_limit(values.len()),
            frontier_list: None,
            iterating,
        })
    }

    fn marks(&self) -> Marks {
        Marks::new(self.list_limit)
    }

    /// A later pass of value iteration, for a layer whose game gives no
    /// predecessors: every undecided position (with symmetry, every
    /// undecided representative) is a candidate, judged again from its
    /// moves; what it decides is the frontier that keeps the passes going.
    /// A pass costs a look at every open position, where propagation looks
    /// only at the decided positions' predecessors.
    fn iterate(&mut self, pass: &RetroPass) -> Result<PassCount> {
        let (judge, tables) = (&self.judge, &self.tables);
        let (game, layer) = (judge.game, judge.layer);
        let symmetric = game.reduced_by_symmetry();
        let unknown = Value::Unknown as u8;
        self.ranges.all.par_iter().for_each(|range| {
            let mut state = game.new_state();
            // One process holds the layer: a cell is its rank.
            for cell in range.cells.clone() {
                if judge.values.get(cell) != unknown {
                    continue;
                }
                if symmetric {
                    game.unrank(layer, cell, &mut state);
                    if !game.is_representative(layer, cell, &state) {
                        continue;
                    }
                }
                tables.candidates.set(cell);
            }
        });
        let candidates = units(None, &self.ranges.all);
        let (checked, decided, _) =
            self.over_units(&candidates, pass.progress, |unit, scratch, decided, _| {
                let mut remote = Remote::default();
                let done = judge.check_unit(unit, scratch, tables, decided, &mut remote);
                nothing_remote(remote);
                done
            });
        self.tables.advance(self.frontier_list.as_deref())?;
        let mut marked = decided;
        self.frontier_list = marked.listed();
        Ok(PassCount {
            examined: checked,
            judged: checked,
            marked: marked.count(),
        })
    }

    /// The movers whose positions pass 0 judges, in order: the first
    /// player's, then the second's, so the second sweep already sees what
    /// the first decided; with colour twins, only the named player's.
    fn sweeps(&self) -> &'static [Player] {
        match self.judge.colour_twins {
            None => &[Player::First, Player::Second],
            Some(Player::First) => &[Player::First],
            Some(Player::Second) => &[Player::Second],
        }
    }

    /// Runs `visit` over `units` in parallel, joining what they did.
    fn over_units(
        &self,
        units: &[Unit],
        progress: &dyn Progress,
        visit: impl Fn(&Unit, &mut Scratch<G::State>, &mut Marks, &mut Marks) -> u64 + Sync,
    ) -> Done {
        let kept = (AtomicU64::new(0), AtomicU64::new(0));
        let done: Vec<(u64, Marks, Marks)> = each_unit(units)
            .map(|unit| {
                let (mut first, mut second) = (self.marks(), self.marks());
                // Asked to stop: the rest is skipped and the driver ends
                // the run after the pass, recording nothing of it.
                if progress.stop_requested() {
                    return (0, first, second);
                }
                let mut scratch = Scratch::new(self.judge.game.new_state());
                let examined = visit(unit, &mut scratch, &mut first, &mut second);
                if unit.is_scanned() {
                    progress.advance(1);
                }
                (
                    examined,
                    first.kept_within(&kept.0),
                    second.kept_within(&kept.1),
                )
            })
            .collect();
        (
            done.iter().map(|(examined, ..)| examined).sum(),
            Marks::join(done.iter().map(|(_, first, _)| first), self.list_limit),
            Marks::join(done.iter().map(|(_, _, second)| second), self.list_limit),
        )
    }
}

/// What a process holding the whole layer never has.
fn nothing_remote(remote: Remote) {
    debug_assert_eq!(remote.buffered(), 0, "one process holds every cell");
}

impl<G: LayeredGame, L: LowerLayers> RetroPasses for CpuRetro<'_, G, L> {
    fn units(&self) -> u64 {
        2 * self.ranges.all.len() as u64
    }

    fn initial(&mut self, pass: &RetroPass) -> Result<PassCount> {
        let mut done: Vec<(u64, Marks)> = Vec::new();
        let kept = AtomicU64::new(0);
        for &sweep in self.sweeps() {
            done.par_extend(each_unit(&self.ranges.all).map(|range| {
                let mut marks = self.marks();
                if pass.progress.stop_requested() {
                    return (0, marks);
                }
                let mut remote = Remote::default();
                let examined = self.judge.initial_range(
                    range,
                    sweep,
                    &self.tables.current,
                    self.tables.open_moves.as_ref(),
                    self.tables.move_counts.as_ref(),
                    &mut marks,
                    &mut remote,
                );
                nothing_remote(remote);
                pass.progress.advance(2 / self.sweeps().len() as u64);
                (examined, marks.kept_within(&kept))
            }));
        }
        let examined = done.iter().map(|(examined, _)| examined).sum();
        let mut marked = Marks::join(done.iter().map(|(_, marks)| marks), self.list_limit);
        self.frontier_list = marked.listed();
        Ok(PassCount {
            examined,
            judged: examined,
            marked: marked.count(),
        })
    }

    fn later(&mut self, pass: &RetroPass) -> Result<PassCount> {
        if self.iterating {
            return self.iterate(pass);
        }
        let judge = &self.judge;
        let tables = &self.tables;
        let mut frontier = units(self.frontier_list.as_deref(), &self.ranges.all);
        // With colour twins the frontier's positions go to their
        // predecessors through their twins, which join the frontier first.
        let mut twins_list = None;
        if judge.colour_twins.is_some() {
            let (_, mut twins, _) =
                self.over_units(&frontier, pass.progress, |unit, scratch, twins, _| {
                    judge.twins_unit(unit, scratch, tables, twins)
                });
            twins_list = twins.listed();
            if let Some(list) = &mut twins_list {
                list.par_sort_unstable();
            }
            frontier = units(twins_list.as_deref(), &self.ranges.all);
        }
        let (triggered, won, mut candidates) = self.over_units(
            &frontier,
            pass.progress,
            |unit, scratch, won, candidates| {
                let mut remote = Remote::default();
                let done =
                    judge.propagate_unit(unit, scratch, tables, (won, candidates), &mut remote);
                nothing_remote(remote);
                done
            },
        );
        let listed = candidates.listed();
        let candidates = units(listed.as_deref(), &self.ranges.all);
        let (checked, lost, _) =
            self.over_units(&candidates, pass.progress, |unit, scratch, lost, _| {
                let mut remote = Remote::default();
                let done = judge.check_unit(unit, scratch, tables, lost, &mut remote);
                nothing_remote(remote);
                done
            });
        // The twins' marks are cleared with the frontier's: one by one
        // where both were listed, else with the whole table.
        let cleared = match (&twins_list, judge.colour_twins) {
            (Some(twins), _) => {
                twins.par_iter().for_each(|&cell| {
                    tables.current.clear(cell);
                });
                self.frontier_list.as_deref()
            }
            (None, Some(_)) => None,
            (None, None) => self.frontier_list.as_deref(),
        };
        self.tables.advance(cleared)?;
        let mut marked = won.merge(lost);
        self.frontier_list = marked.listed();
        Ok(PassCount {
            examined: triggered + checked,
            judged: checked,
            marked: marked.count(),
        })
    }

    fn fill_undecided(&mut self, value: Value) -> Result<()> {
        self.judge.values.fill_zero_cells(value as u8);
        Ok(())
    }

    fn fill_from_twins(&mut self, _pass: &RetroPass) -> Result<()> {
        if !self.judge.game.reduced_by_symmetry() {
            return Ok(());
        }
        each_unit(&self.ranges.with_twins).for_each(|range| {
            let mut remote = Remote::default();
            self.judge.copy_to_twins(range, &mut remote);
            nothing_remote(remote);
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dodgem::Dodgem;
    use crate::games::fox_geese::FoxGeese;

    /// The passes' tables of `layer`: whether they hold open-move tags.
    fn tagged<G: LayeredGame>(game: &G, layer: usize) -> bool {
        let values = TwoBitTable::scratch("values", game.layer_size(layer), 0).unwrap();
        let ranges = LayerRanges {
            all: Vec::new(),
            with_twins: Vec::new(),
        };
        let passes = CpuRetro::new(game, layer, &values, NextLayer(None), ranges).unwrap();
        passes.tables.open_moves.is_some()
    }

    #[test]
    fn fox_and_geese_passes_keep_no_open_move_tags() {
        // A byte and a bit a position that cost Fox-and-Geese time as
        // well as memory (capture-wins `--symmetry` layer 9: 497 MiB
        // peak against 217 MiB without).
        for (capture_wins, symmetry) in [(false, false), (true, true)] {
            let game = FoxGeese::new(capture_wins, symmetry).unwrap();
            assert!(!tagged(&game, 4));
        }
        // A game that keeps the default still gets them.
        assert!(tagged(&Dodgem::new(3).unwrap(), 4));
    }
}
