//! Two-bit retrograde analysis across the processes of an MPI job: the
//! one driver of [`crate::search::retro2`] over this backend's passes, each
//! process holding its share of every block of a layer ([`Partition`])
//! and of the layer below, and judging positions with the shared
//! [`judge`](crate::search::retro2::judge) code.
//!
//! What a pass needs from another process's cells goes through bounded
//! exchange rounds ([`in_rounds`]), in two patterns:
//!
//! - **Questions** (pass 0, and the checks of candidates): the values of a
//!   position's moves held here are seen at once; the others — in this
//!   layer or, for captures, in the layer below — are asked of their
//!   owners, one byte per answer, and the position is judged when the
//!   answers are back. A position settled by what is held here (a move
//!   that wins) asks nothing.
//! - **Pushes** (propagation and the symmetric fill): a decided position
//!   sends each predecessor owned elsewhere its value and whether it wins
//!   for the predecessor's mover; the owner applies it as if it were its
//!   own (decide at once, or mark a candidate).
//!
//! Values only ever go from unknown to decided, and every position decided
//! in a pass enters the next frontier, so a question answered from a value
//! a little older than the single-process solver would have read delays a
//! decision by a pass at most: the fixpoint, and every value, are the same
//! (the tests compare every layer's cells with the single process).

use std::borrow::Cow;

use rayon::prelude::*;

use super::MpiBackend;
use super::exchange::Exchange;
use super::queries::Queries;
use super::rounds::in_rounds;
use super::share::{open_share, refuse_other_job_sizes, share_exists};
use crate::backend::partition::{Partition, Slice};
use crate::error::Result;
use crate::search::Progress;
use crate::search::backend::Backend;
use crate::search::checkpoint::Checkpoint;
use crate::search::retro2::judge::{
    CellRange, Decision, LayerJudge, Marks, NextLayer, PassTables, Place, Placement, Push, Remote,
    Scratch, Tally, Unit, Verdict, list_limit, recorded_value, units,
};
use crate::search::retro2::seam::{
    Below, HeldLayer, Opening, PassCount, RetroBackend, RetroPass, RetroPasses,
};
use crate::search::retro2::{lower_layer_needed, values_identity};
use crate::space::{LayeredGame, Player, Value};
use crate::table::{Backing, TwoBitTable};

/// One layer's values held by this process: its cells of every block.
pub struct Share {
    partition: Partition,
    values: TwoBitTable,
}

/// A share opens as this process's part of every block of the layer, in
/// its own file of the store.
impl HeldLayer<MpiBackend<'_>> for Share {
    /// A solved layer is refused where a process does not hold its share
    /// in the store, and staged in memory.
    fn open<G: LayeredGame>(
        backend: &MpiBackend<'_>,
        game: &G,
        layer: usize,
        opening: Opening<'_>,
        progress: &dyn Progress,
    ) -> Result<(Share, Option<Checkpoint>)> {
        let identity = values_identity(game, layer);
        let backing = match opening {
            Opening::ToSolve(backing) => Cow::Borrowed(backing),
            Opening::Solved(dir) => {
                let backing = Backing::ReadOnly(dir.to_path_buf());
                refuse_other_job_sizes(&backing, &identity.descriptor, backend.processes())?;
                if backend.any(!share_exists(backend, dir, &identity)) {
                    return Err(lower_layer_needed(
                        game,
                        layer,
                        &format!(
                            "which this job's processes do not all hold in {}",
                            dir.display()
                        ),
                        ", with the same number of MPI processes",
                    ));
                }
                Cow::Owned(backing)
            }
        };
        let partition = Partition::new(&game.layer_blocks(layer), backend.processes());
        let fill = Value::Unknown as u8;
        let (mut values, record) =
            open_share(backend, &backing, &identity, &partition, fill, progress)?;
        let checkpoint = Checkpoint::read(values.storage(), record)?;
        if let Opening::Solved(_) = opening {
            // Read at random while the layer above is solved: in memory.
            values.storage_mut().stage()?;
        }
        Ok((Share { partition, values }, checkpoint))
    }

    fn host_table(&self) -> &TwoBitTable {
        &self.values
    }

    fn host_table_mut(&mut self) -> &mut TwoBitTable {
        &mut self.values
    }
}

impl RetroBackend for MpiBackend<'_> {
    type Layer = Share;

    fn any(&self, flag: bool) -> bool {
        self.exchange().any(flag)
    }

    fn agree_on_passes(&self, checkpoint: Option<Checkpoint>) -> Vec<u64> {
        let mine = checkpoint.map(|c| c.counts).unwrap_or_default();
        // A process without a record sends an empty list: nothing to resume.
        let all = self.exchange().gather(&mine);
        all.into_iter().min_by_key(Vec::len).expect("a process")
    }

    fn layer_passes<'a, G: LayeredGame>(
        &'a self,
        game: &'a G,
        layer: usize,
        values: &'a Share,
        lower: Below<'a, Share>,
    ) -> Result<Box<dyn RetroPasses + 'a>> {
        let lower = lower.only_next(game, layer, Backend::name(self))?;
        let me = self.process();
        let all_blocks: Vec<usize> = (0..game.layer_blocks(layer).len()).collect();
        let ranges_of = |blocks: &[usize]| -> Vec<CellRange> {
            values
                .partition
                .chunks(me, blocks)
                .iter()
                .map(cell_range)
                .collect()
        };
        let ranges = ranges_of(&all_blocks);
        let twin_blocks: Vec<usize> = all_blocks
            .iter()
            .copied()
            .filter(|&block| game.block_has_twins(layer, block))
            .collect();
        let twin_ranges = ranges_of(&twin_blocks);
        let mut slices: Vec<CellRange> = values
            .partition
            .slices(me, &all_blocks)
            .map(|slice| cell_range(&slice))
            .collect();
        slices.sort_by_key(|slice| slice.cells.start);
        let cells = values.values.len();
        let placement = Box::new(SharePlacement {
            me,
            this: &values.partition,
            lower: lower.map(|share| &share.partition),
            slices,
        });
        Ok(Box::new(MpiRetro {
            backend: self,
            game,
            layer,
            values,
            lower,
            placement,
            ranges,
            twin_ranges,
            tables: PassTables::new(cells, false, false, false)?,
            list_limit: list_limit(cells),
            frontier_list: None,
        }))
    }

    fn count<G: LayeredGame>(&self, game: &G, layer: usize, share: &Share) -> [u64; 3] {
        let all: Vec<usize> = (0..game.layer_blocks(layer).len()).collect();
        let slices: Vec<Slice> = share.partition.slices(self.process(), &all).collect();
        let local = [Value::FirstWins, Value::SecondWins, Value::Draw].map(|value| {
            slices
                .par_iter()
                .map(|slice| {
                    game.block_weight(layer, slice.block)
                        * share.values.count_in(slice.local(), value as u8)
                })
                .sum::<u64>()
        });
        let total = self.exchange().sum(&local);
        [total[0], total[1], total[2]]
    }
}

/// A slice's cells here and their ranks.
fn cell_range(slice: &Slice) -> CellRange {
    CellRange {
        cells: slice.local(),
        first_rank: slice.ranks.start,
    }
}

/// Where the cells of a layer and of the layer below are in the job.
struct SharePlacement<'a> {
    me: usize,
    this: &'a Partition,
    lower: Option<&'a Partition>,
    /// This process's slices of the layer, by first cell.
    slices: Vec<CellRange>,
}

impl Placement for SharePlacement<'_> {
    #[inline]
    fn place(&self, lower: bool, rank: u64) -> Place {
        let partition = match lower {
            false => self.this,
            true => self
                .lower
                .expect("a move to a lower layer needs that layer"),
        };
        match partition.locate(rank) {
            (owner, cell) if owner == self.me => Place::Here(cell),
            (owner, cell) => Place::Elsewhere { owner, cell },
        }
    }

    fn rank_of(&self, cell: u64) -> u64 {
        let slice = &self.slices[self.slices.partition_point(|s| s.cells.start <= cell) - 1];
        slice.first_rank + (cell - slice.cells.start)
    }
}

/// A question about a move's value: the cell at its owner, and whether it
/// is in the layer below.
fn question(cell: u64, lower: bool) -> u64 {
    cell << 1 | lower as u64
}

/// A pushed value for a predecessor: its cell at its owner, the value of
/// the position it moves to, and whether that wins for its mover.
fn push(cell: u64, value: Value, wins: bool) -> u64 {
    cell << 3 | (value as u64) << 1 | wins as u64
}

fn pushed(word: u64) -> (u64, Value, bool) {
    (
        word >> 3,
        Value::from_bits((word >> 1) as u8),
        word & 1 == 1,
    )
}

/// A value to set at a twin's cell.
fn twin_value(cell: u64, value: u8) -> u64 {
    cell << 2 | value as u64
}

/// What a unit of a pass did here: positions examined, the marks it made
/// (decided, candidates) and what it left for other processes.
type Done = (u64, Marks, Marks, Remote);

/// One layer's passes on this process of the job.
struct MpiRetro<'a, G> {
    backend: &'a MpiBackend<'a>,
    game: &'a G,
    layer: usize,
    values: &'a Share,
    lower: Option<&'a Share>,
    placement: Box<SharePlacement<'a>>,
    /// This process's chunks of the layer, the units of a scanning pass.
    ranges: Vec<CellRange>,
    /// Those of the blocks whose positions may have twins: the units of
    /// the copy to twins.
    twin_ranges: Vec<CellRange>,
    tables: PassTables,
    list_limit: u64,
    /// The cells of the frontier, when the pass before listed them.
    frontier_list: Option<Vec<u64>>,
}

impl<G: LayeredGame> MpiRetro<'_, G> {
    fn judge(&self) -> LayerJudge<'_, G, SharePlacement<'_>> {
        LayerJudge {
            game: self.game,
            layer: self.layer,
            values: &self.values.values,
            lower: NextLayer(self.lower.map(|share| &share.values)),
            placement: &self.placement,
            recorded: recorded_value(self.game),
            // A twin's cell may be another process's.
            colour_twins: None,
        }
    }

    fn marks(&self) -> Marks {
        Marks::new(self.list_limit)
    }

    /// Answers a question about a cell here.
    fn answer(&self, question: u64) -> u8 {
        let (cell, lower) = (question >> 1, question & 1 == 1);
        let share = match lower {
            false => self.values,
            true => self.lower.expect("asked about the layer below"),
        };
        share.values.get(cell)
    }

    /// Runs `visit` over `units` in exchange rounds; `round` exchanges what
    /// a round's units left for other processes and applies what comes
    /// back, adding to the marks. Returns the positions examined here, the
    /// marks, and the rounds.
    fn in_rounds<U: Sync>(
        &self,
        exchange: &mut Exchange,
        units: &[U],
        progress: &dyn Progress,
        visit: impl Fn(&U, &mut Scratch<G::State>, &mut Marks, &mut Marks, &mut Remote) -> u64 + Sync,
        mut round: impl FnMut(&mut Exchange, Vec<Remote>, &mut Marks, &mut Marks),
    ) -> (u64, Marks, Marks, u64) {
        let (mut examined, mut first, mut second) = (0, self.marks(), self.marks());
        let rounds = in_rounds(
            exchange,
            units,
            progress,
            |unit| -> Done {
                let (mut m, mut n) = (self.marks(), self.marks());
                let mut remote = Remote::default();
                let mut scratch = Scratch::new(self.game.new_state());
                let done = visit(unit, &mut scratch, &mut m, &mut n, &mut remote);
                (done, m, n, remote)
            },
            |(_, _, _, remote)| remote.buffered(),
            |exchange, results| {
                let mut remotes = Vec::with_capacity(results.len());
                for (done, m, n, remote) in results {
                    examined += done;
                    first = std::mem::replace(&mut first, Marks::new(0)).merge(m);
                    second = std::mem::replace(&mut second, Marks::new(0)).merge(n);
                    remotes.push(remote);
                }
                round(exchange, remotes, &mut first, &mut second);
            },
        );
        (examined, first, second, rounds)
    }

    /// Asks the questions of a round's positions and judges them when the
    /// answers are back; `decide` records a verdict.
    fn judge_round(
        &self,
        exchange: &mut Exchange,
        remotes: Vec<Remote>,
        mut decide: impl FnMut(u64, Verdict),
    ) {
        let mut queries: Queries<(u64, Tally)> = Queries::new(self.backend.processes());
        for remote in remotes {
            for (cell, tally, asked) in remote.pending {
                for q in &remote.questions[asked] {
                    queries.ask(q.owner, question(q.cell, q.lower));
                }
                queries.push((cell, tally));
            }
        }
        let me = self.backend.process();
        let (mut pending, answered) = queries.answered(exchange, me, |q| self.answer(q));
        for (asker, reply) in answered {
            pending[asker as usize].1.see(Value::from_bits(reply));
        }
        for (cell, tally) in pending {
            // A position asks only about moves, so it has some: the
            // no-move value is never needed here.
            decide(cell, tally.verdict(|| Value::Unknown));
        }
    }

    /// Sends each process the words `word` makes of what it is owed, and
    /// returns what this process received.
    fn exchanged<T>(
        &self,
        exchange: &mut Exchange,
        items: impl IntoIterator<Item = (usize, T)>,
        word: impl Fn(T) -> u64,
    ) -> Vec<u64> {
        let mut outgoing = vec![Vec::new(); self.backend.processes()];
        for (owner, item) in items {
            outgoing[owner].push(word(item));
        }
        let (received, _) = exchange.all_to_all(&outgoing);
        received
    }

    /// The sum over the job of what each process examined, judged (see
    /// [`PassCount`]) and marked.
    fn job_count(
        &self,
        exchange: &mut Exchange,
        examined: u64,
        judged: u64,
        marked: u64,
    ) -> PassCount {
        let total = exchange.sum(&[examined, judged, marked]);
        PassCount {
            examined: total[0],
            judged: total[1],
            marked: total[2],
        }
    }
}

impl<G: LayeredGame> RetroPasses for MpiRetro<'_, G> {
    fn units(&self) -> u64 {
        2 * self.ranges.len() as u64
    }

    fn initial(&mut self, pass: &RetroPass) -> Result<PassCount> {
        // The first player's positions, then (once every process has
        // finished them) the second's, which may read the first's values.
        let mut exchange = self.backend.exchange();
        let judge = self.judge();
        let frontier = &self.tables.current;
        let (mut examined, mut marked, mut rounds) = (0, self.marks(), 0);
        for sweep in [Player::First, Player::Second] {
            let (done, marks, _, sweep_rounds) = self.in_rounds(
                &mut exchange,
                &self.ranges,
                pass.progress,
                |range, _, marks, _, remote| {
                    judge.initial_range(range, sweep, frontier, None, None, marks, remote)
                },
                |exchange, remotes, marks, _| {
                    self.judge_round(exchange, remotes, |cell, verdict| {
                        judge.decide_initial(cell, verdict, sweep, false, frontier, marks)
                    })
                },
            );
            examined += done;
            marked = marked.merge(marks);
            rounds += sweep_rounds;
        }
        let count = self.job_count(&mut exchange, examined, examined, marked.count());
        self.backend.log_pass(&mut exchange, &pass.label, rounds);
        self.frontier_list = marked.listed();
        Ok(count)
    }

    fn later(&mut self, pass: &RetroPass) -> Result<PassCount> {
        let mut exchange = self.backend.exchange();
        let judge = self.judge();
        let tables = &self.tables;
        let frontier = units(self.frontier_list.as_deref(), &self.ranges);
        let (triggered, won, mut candidates, propagate_rounds) = self.in_rounds(
            &mut exchange,
            &frontier,
            pass.progress,
            |unit: &Unit, scratch, won, candidates, remote| {
                judge.propagate_unit(unit, scratch, tables, (won, candidates), remote)
            },
            |exchange, remotes, won, candidates| {
                let pushes = remotes.into_iter().flat_map(|remote| remote.pushes);
                let received = self.exchanged(exchange, pushes.map(|p: Push| (p.owner, p)), |p| {
                    push(p.cell, p.value, p.wins)
                });
                let (w, c) = received
                    .par_iter()
                    .fold(
                        || (self.marks(), self.marks()),
                        |(mut w, mut c), &word| {
                            let (cell, value, wins) = pushed(word);
                            // No tags cross processes (nor are kept here).
                            let decision = Decision {
                                value,
                                wins,
                                tag: 0,
                            };
                            judge.apply(cell, decision, tables, &mut w, &mut c);
                            (w, c)
                        },
                    )
                    .reduce(
                        || (self.marks(), self.marks()),
                        |(a, b), (c, d)| (a.merge(c), b.merge(d)),
                    );
                *won = std::mem::replace(won, Marks::new(0)).merge(w);
                *candidates = std::mem::replace(candidates, Marks::new(0)).merge(c);
            },
        );
        let listed = candidates.listed();
        let candidate_units = units(listed.as_deref(), &self.ranges);
        let (checked, lost, _, check_rounds) = self.in_rounds(
            &mut exchange,
            &candidate_units,
            pass.progress,
            |unit: &Unit, scratch, lost, _, remote| {
                judge.check_unit(unit, scratch, tables, lost, remote)
            },
            |exchange, remotes, lost, _| {
                self.judge_round(exchange, remotes, |cell, verdict| {
                    judge.decide_later(cell, verdict, &tables.next, lost)
                })
            },
        );
        let mut marked = won.merge(lost);
        let count = self.job_count(&mut exchange, triggered + checked, checked, marked.count());
        let rounds = propagate_rounds + check_rounds;
        self.backend.log_pass(&mut exchange, &pass.label, rounds);
        self.tables.advance(self.frontier_list.as_deref())?;
        self.frontier_list = marked.listed();
        Ok(count)
    }

    fn fill_undecided(&mut self, value: Value) -> Result<()> {
        self.values.values.fill_zero_cells(value as u8);
        Ok(())
    }

    fn fill_from_twins(&mut self, pass: &RetroPass) -> Result<()> {
        let mut exchange = self.backend.exchange();
        if self.game.reduced_by_symmetry() {
            let judge = self.judge();
            let values = &self.values.values;
            let (_, _, _, rounds) = self.in_rounds(
                &mut exchange,
                &self.twin_ranges,
                pass.progress,
                |range, _, _, _, remote| {
                    judge.copy_to_twins(range, remote);
                    0
                },
                |exchange, remotes, _, _| {
                    let twins = remotes.into_iter().flat_map(|remote| remote.twins);
                    let received = self.exchanged(
                        exchange,
                        twins.map(|(owner, cell, value)| (owner, (cell, value))),
                        |(cell, value)| twin_value(cell, value),
                    );
                    received
                        .par_iter()
                        .for_each(|&word| values.set(word >> 2, (word & 3) as u8));
                },
            );
            self.backend.log_pass(&mut exchange, &pass.label, rounds);
        }
        // Every process's twins are in place before any records the layer done.
        exchange.barrier();
        Ok(())
    }
}
