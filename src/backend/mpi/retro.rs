//! Two-bit retrograde analysis across the processes of an MPI job: the
//! passes of [`crate::search::retro2`] (see its documentation), each
//! process working on its share of every block of a layer
//! ([`Partition`]) and keeping only that share's values, plus its share of
//! the layer below.
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
//!   for the predecessor's mover; the owner applies it as the single-
//!   process solver would (decide at once, or mark a candidate).
//!
//! Values only ever go from unknown to decided, and every position decided
//! in a pass enters the next frontier, so a question answered from a value
//! a little older than the single-process solver would have read delays a
//! decision by a pass at most: the fixpoint, and every value, are the same
//! (the tests compare every layer's counts with the single process).
//!
//! Unlike the single-process solver, late passes scan the frontier's bit
//! tables instead of listing their few marks: the tables are one process's
//! share only.

use std::ops::RangeInclusive;
use std::time::Instant;

use rayon::prelude::*;

use super::MpiBackend;
use super::exchange::Exchange;
use super::queries::Queries;
use super::rounds::{in_rounds, joined};
use super::share::{open_share, refuse_other_job_sizes, share_exists};
use crate::backend::partition::{Partition, Slice};
use crate::error::{Error, Result};
use crate::search::Progress;
use crate::search::checkpoint::Checkpoint;
use crate::search::identity::layer_identity;
use crate::search::retro2::{
    LayerReport, LayeredGame, Player, Recorder, RetroOptions, Successor, Tally, Value, Verdict,
    lower_layer_needed, lower_layer_store, record, recorded_value, settle,
};
use crate::table::{Backing, OneBitTable, TwoBitTable};

/// Solves `layers` in order across the job (collective: every process
/// calls it with the same arguments) and returns one report per layer, the
/// same on every process. Unless the range starts at layer 0 or the game's
/// layers are independent, the layer below the first is read from the
/// store, where a job of the same size must have solved it.
pub fn solve_layer_range<G: LayeredGame>(
    backend: &MpiBackend,
    game: &G,
    layers: RangeInclusive<usize>,
    options: &RetroOptions,
) -> Result<Vec<LayerReport>> {
    let first = *layers.start();
    if layers.is_empty() {
        return Err(Error::InvalidParameter(format!(
            "the range of layers {first}..{} is empty",
            layers.end()
        )));
    }
    let mut lower = match first {
        0 => None,
        _ if game.independent_layers() => None,
        _ => Some(solved_lower_share(backend, game, first - 1, options)?),
    };
    let mut reports = Vec::new();
    for layer in layers {
        let (share, report) = solve_layer(backend, game, layer, lower.as_ref(), options)?;
        (options.on_layer)(&report);
        reports.push(report);
        lower = Some(share);
    }
    Ok(reports)
}

/// One layer's values held by this process: its cells of every block.
struct Share {
    partition: Partition,
    values: TwoBitTable,
}

impl Share {
    /// Opens this process's share of `layer`'s values (collective).
    fn open<G: LayeredGame>(
        backend: &MpiBackend,
        game: &G,
        layer: usize,
        backing: &Backing,
        progress: &dyn Progress,
    ) -> Result<(Share, Option<Checkpoint>)> {
        let partition = Partition::new(&game.layer_blocks(layer), backend.processes());
        let identity = layer_identity(game, layer, "retrograde values", 2);
        let (values, record) = open_share(
            backend,
            backing,
            &identity,
            &partition,
            Value::Unknown as u8,
            progress,
        )?;
        let checkpoint = Checkpoint::read(values.storage(), record)?;
        Ok((Share { partition, values }, checkpoint))
    }
}

/// The solved layer below a range, read from the store (collective): every
/// process needs its share there, completely solved.
fn solved_lower_share<G: LayeredGame>(
    backend: &MpiBackend,
    game: &G,
    layer: usize,
    options: &RetroOptions,
) -> Result<Share> {
    const ADVICE: &str = ", with the same number of MPI processes";
    let needed = |why: &str| lower_layer_needed(game, layer, why, ADVICE);
    let dir = lower_layer_store(game, layer, options, ADVICE)?;
    let identity = layer_identity(game, layer, "retrograde values", 2);
    refuse_other_job_sizes(&options.backing, &identity.descriptor, backend.processes())?;
    let missing = !share_exists(backend, dir, &identity);
    if backend.exchange().any(missing) {
        return Err(needed(&format!(
            "which this job's processes do not all hold in {}",
            dir.display()
        )));
    }
    let backing = Backing::ReadOnly(dir.clone());
    let (mut share, checkpoint) = Share::open(backend, game, layer, &backing, options.progress)?;
    // Read at random while the layer above is solved: in memory.
    share.values.storage_mut().stage()?;
    let unfinished = !checkpoint.is_some_and(|c| c.complete);
    if backend.exchange().any(unfinished) {
        return Err(needed(&format!(
            "which is not completely solved in {}",
            dir.display()
        )));
    }
    Ok(share)
}

fn solve_layer<G: LayeredGame>(
    backend: &MpiBackend,
    game: &G,
    layer: usize,
    lower: Option<&Share>,
    options: &RetroOptions,
) -> Result<(Share, LayerReport)> {
    let started = Instant::now();
    let progress = options.progress;
    let (mut share, checkpoint) = Share::open(backend, game, layer, &options.backing, progress)?;
    let mut exchange = backend.exchange();
    let complete = checkpoint.as_ref().is_some_and(|c| c.complete);
    let recorded_passes = agree_on_passes(&mut exchange, checkpoint);
    if !exchange.any(!complete) {
        let report = count_report(backend, game, layer, &share, recorded_passes, 0.0, true);
        return Ok((share, report));
    }
    // Processes record on their own clocks, and one may have finished the
    // layer while another was stopped before its last record: every
    // process goes on from what it holds. A value held is a value of the
    // fixpoint, and pass 0 puts every held value into the frontier, so
    // what the others decide from it is right too.
    let mut examined = recorded_passes;
    if !examined.is_empty() && backend.process() == 0 {
        progress.note(&format!(
            "layer {layer}: resuming after pass {}",
            examined.len() - 1
        ));
    }
    share.values.storage().begin_writing()?;
    share.values.storage_mut().stage()?;
    let mut recorder = Recorder::new(options.record_every);

    let me = backend.process();
    let cells = share.partition.cells(me);
    let all_blocks: Vec<usize> = (0..game.layer_blocks(layer).len()).collect();
    let chunks = share.partition.chunks(me, &all_blocks);
    let frontier = OneBitTable::scratch("frontier", cells)?;
    let next_frontier = OneBitTable::scratch("next frontier", cells)?;
    let candidates = OneBitTable::scratch("candidates", cells)?;
    let solver = LayerShare {
        game,
        layer,
        me,
        processes: backend.processes(),
        share: &share,
        lower,
        recorded: recorded_value(game),
    };

    // Pass 0: the first player's positions, then (once every process has
    // finished them) the second's, which may read the first's values.
    let label = format!("layer {layer} pass 0");
    progress.begin_pass(&label, 2 * chunks.len() as u64);
    let (mut counted, mut rounds) = ([0u64; 2], 0);
    for sweep in [Player::First, Player::Second] {
        rounds += solver.initial_sweep(
            &mut exchange,
            &chunks,
            sweep,
            &frontier,
            progress,
            &mut counted,
        );
    }
    progress.end_pass();
    let [initial, mut marked] = sum2(&mut exchange, counted);
    backend.log_pass(&mut exchange, &label, rounds);
    examined.push(initial);
    recorder.pass_done(&share.values, &examined)?;

    let (mut current, mut next) = (&frontier, &next_frontier);
    while marked > 0 {
        let label = format!("layer {layer} pass {}", examined.len());
        let mut exchange = backend.exchange();
        progress.begin_pass(&label, 2 * chunks.len() as u64);
        let mut counted = [0u64; 2];
        let mut rounds = solver.propagate(
            &mut exchange,
            &chunks,
            current,
            next,
            &candidates,
            progress,
            &mut counted,
        );
        rounds += solver.check(
            &mut exchange,
            &chunks,
            &candidates,
            next,
            progress,
            &mut counted,
        );
        progress.end_pass();
        let [work, decided] = sum2(&mut exchange, counted);
        backend.log_pass(&mut exchange, &label, rounds);
        examined.push(work);
        recorder.pass_done(&share.values, &examined)?;
        current.clear_all()?;
        std::mem::swap(&mut current, &mut next);
        marked = decided;
    }

    share.values.fill_zero_cells(game.undecided_value() as u8);
    let label = format!("layer {layer} symmetric fill");
    let mut exchange = backend.exchange();
    if game.reduced_by_symmetry() {
        let rounds = solver.fill_from_twins(&mut exchange, &chunks, progress);
        backend.log_pass(&mut exchange, &label, rounds);
    }
    // Every process's twins are in place before any records the layer done.
    exchange.barrier();
    record(&share.values, &examined, true)?;
    let seconds = started.elapsed().as_secs_f64();
    let report = count_report(backend, game, layer, &share, examined, seconds, false);
    Ok((share, report))
}

/// The passes every process resumes with: the shortest record's (processes
/// record on their own clocks), or none.
fn agree_on_passes(exchange: &mut Exchange, checkpoint: Option<Checkpoint>) -> Vec<u64> {
    let mine = checkpoint.map(|c| c.counts).unwrap_or_default();
    // A process without a record sends an empty list: nothing to resume.
    let all = exchange.gather(&mine);
    all.into_iter().min_by_key(Vec::len).expect("a process")
}

/// Element-wise sums of two counters over the job.
fn sum2(exchange: &mut Exchange, counted: [u64; 2]) -> [u64; 2] {
    let total = exchange.sum(&counted);
    [total[0], total[1]]
}

/// Layer counts over the whole job, each block weighted (collective).
fn count_report<G: LayeredGame>(
    backend: &MpiBackend,
    game: &G,
    layer: usize,
    share: &Share,
    examined: Vec<u64>,
    seconds: f64,
    already_solved: bool,
) -> LayerReport {
    let blocks = game.layer_blocks(layer);
    let all: Vec<usize> = (0..blocks.len()).collect();
    let slices: Vec<Slice> = share.partition.slices(backend.process(), &all).collect();
    let values = [Value::FirstWins, Value::SecondWins, Value::Draw];
    let local: Vec<u64> = values
        .iter()
        .map(|&value| {
            slices
                .par_iter()
                .map(|slice| {
                    game.block_weight(layer, slice.block)
                        * share.values.count_in(slice.local(), value as u8)
                })
                .sum()
        })
        .collect();
    let total = backend.exchange().sum(&local);
    LayerReport {
        layer,
        states: blocks
            .iter()
            .enumerate()
            .map(|(b, block)| game.block_weight(layer, b) * block.len)
            .sum(),
        stored: game.layer_size(layer),
        first_wins: total[0],
        second_wins: total[1],
        draws: total[2],
        examined,
        seconds,
        already_solved,
    }
}

/// A position waiting for the values of its moves held elsewhere.
struct Pending {
    /// Its cell here.
    cell: u64,
    tally: Tally,
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

/// Adds the counts that come with each chunk's buffers to `counted` and
/// returns the buffers.
fn add_counts<B>(results: Vec<(B, [u64; 2])>, counted: &mut [u64; 2]) -> Vec<B> {
    results
        .into_iter()
        .map(|(buffers, [a, b])| {
            counted[0] += a;
            counted[1] += b;
            buffers
        })
        .collect()
}

/// A value to set at a twin's cell.
fn twin_value(cell: u64, value: u8) -> u64 {
    cell << 2 | value as u64
}

/// What one process knows while a layer is solved.
struct LayerShare<'a, G> {
    game: &'a G,
    layer: usize,
    me: usize,
    processes: usize,
    share: &'a Share,
    lower: Option<&'a Share>,
    /// The only value recorded before the final fill, if not every value.
    recorded: Option<Value>,
}

impl<G: LayeredGame> LayerShare<'_, G> {
    fn values(&self) -> &TwoBitTable {
        &self.share.values
    }

    /// The share holding a move's destination.
    fn share_of(&self, successor: Successor) -> &Share {
        if successor.layer == self.layer {
            self.share
        } else {
            self.lower
                .expect("a move to a lower layer needs that layer solved")
        }
    }

    /// The global rank of a cell of `chunk`.
    fn rank_of(chunk: &Slice, cell: u64) -> u64 {
        chunk.ranks.start + (cell - chunk.local_start)
    }

    /// Answers a question about a cell here.
    fn answer(&self, question: u64) -> u8 {
        let (cell, lower) = (question >> 1, question & 1 == 1);
        let share = if lower {
            self.lower.expect("asked about the layer below")
        } else {
            self.share
        };
        share.values.get(cell)
    }

    /// Looks at the moves of `state` held here; the others go to `remote`
    /// as (owner, question). `lower_only`: pass 0, where moves within the
    /// layer are not looked at (see the single-process solver).
    fn look(&self, state: &G::State, lower_only: bool, remote: &mut Vec<(usize, u64)>) -> Tally {
        remote.clear();
        let mut tally = Tally::new(self.game.mover(state), lower_only);
        let mut see = |successor: Successor| {
            let share = self.share_of(successor);
            let (owner, cell) = share.partition.locate(successor.rank);
            if owner == self.me {
                tally.see(Value::from_bits(share.values.get(cell)))
            } else {
                remote.push((owner, question(cell, successor.layer != self.layer)));
                true
            }
        };
        if lower_only {
            if self.game.lower_successors(self.layer, state, &mut see) {
                tally.stays_in_layer();
            }
        } else {
            self.game.successors(self.layer, state, &mut see);
        }
        tally
    }

    /// Judges a position from its moves held here, or asks about the
    /// others: returns the verdict when no answer could change it (or
    /// change what is recorded). `initial`: pass 0, where `lower_only` may
    /// hold; the checks of later passes look at every move.
    #[allow(clippy::too_many_arguments)]
    fn judge(
        &self,
        cell: u64,
        state: &G::State,
        initial: bool,
        lower_only: bool,
        remote: &mut Vec<(usize, u64)>,
        queries: &mut Queries<Pending>,
    ) -> Option<Verdict> {
        if let Some(value) = self.game.rule_value(self.layer, state) {
            return Some(Verdict::Decided(value));
        }
        let tally = self.look(state, lower_only, remote);
        if tally.won() || remote.is_empty() {
            return Some(tally.verdict(|| self.game.no_move_value(state)));
        }
        if tally.is_open() {
            // Only a win can still decide the position. In pass 0 one of the
            // moves asked about may be it — a win through the layer below is
            // seen nowhere else, as lower layers are never a frontier — but
            // only a recorded value is worth the question. In later passes a
            // win arrives through the frontier, as in one process.
            let win = tally.win_value();
            if !initial || self.recorded.is_some_and(|only| only != win) {
                return Some(Verdict::Open);
            }
        }
        for &(owner, question) in remote.iter() {
            queries.ask(owner, question);
        }
        queries.push(Pending { cell, tally });
        None
    }

    /// Adds the chunks' counts of a round to `counted`, exchanges their
    /// questions and judges the positions that asked; `decide` records a
    /// verdict and says whether it went into the next frontier.
    fn judge_round(
        &self,
        exchange: &mut Exchange,
        results: Vec<(Queries<Pending>, [u64; 2])>,
        counted: &mut [u64; 2],
        decide: impl Fn(u64, Verdict) -> u64,
    ) {
        let mut all = Queries::new(self.processes);
        for queries in add_counts(results, counted) {
            all.append(queries);
        }
        let (mut pending, answered) = all.answered(exchange, self.me, |q| self.answer(q));
        for (asker, reply) in answered {
            pending[asker as usize].tally.see(Value::from_bits(reply));
        }
        for Pending { cell, tally } in pending {
            // A position asks only about moves, so it has some: the
            // no-move value is never needed here.
            counted[1] += decide(cell, tally.verdict(|| Value::Unknown));
        }
    }

    /// Pass 0 over the positions whose mover is `sweep` (see the single-
    /// process solver's `initial_chunk`). Adds the positions examined and
    /// those put into the frontier to `counted`; returns the rounds.
    fn initial_sweep(
        &self,
        exchange: &mut Exchange,
        chunks: &[Slice],
        sweep: Player,
        frontier: &OneBitTable,
        progress: &dyn Progress,
        counted: &mut [u64; 2],
    ) -> u64 {
        let values = self.values();
        let only_lower_wins =
            sweep == Player::First || self.recorded == Some(Value::win_for(sweep));
        let into_frontier = |value: Value| sweep == Player::Second || value == Value::SecondWins;
        let decide = |cell: u64, verdict: Verdict| -> u64 {
            match settle(self.recorded, verdict) {
                Some(value) => {
                    values.set(cell, value as u8);
                    (into_frontier(value) && frontier.test_and_set(cell)) as u64
                }
                None => 0,
            }
        };
        in_rounds(
            exchange,
            chunks,
            progress,
            |chunk| {
                let mut queries = Queries::new(self.processes);
                let mut state = self.game.new_state();
                let mut remote = Vec::new();
                let (mut seen, mut decided) = (0, 0);
                for cell in chunk.local() {
                    let rank = Self::rank_of(chunk, cell);
                    let mover = match self.game.mover_of_rank(self.layer, rank) {
                        Some(mover) => mover,
                        None => {
                            self.game.unrank(self.layer, rank, &mut state);
                            self.game.mover(&state)
                        }
                    };
                    if mover != sweep {
                        continue;
                    }
                    if values.get(cell) != Value::Unknown as u8 {
                        // Decided before (a resumed layer): into the frontier.
                        decided += frontier.test_and_set(cell) as u64;
                        continue;
                    }
                    self.game.unrank(self.layer, rank, &mut state);
                    if self.game.reduced_by_symmetry()
                        && !self.game.is_representative(self.layer, rank, &state)
                    {
                        continue;
                    }
                    seen += 1;
                    if let Some(verdict) = self.judge(
                        cell,
                        &state,
                        true,
                        only_lower_wins,
                        &mut remote,
                        &mut queries,
                    ) {
                        decided += decide(cell, verdict);
                    }
                }
                (queries, [seen, decided])
            },
            |(queries, _)| queries.asked(),
            |exchange, results| self.judge_round(exchange, results, counted, decide),
        )
    }

    /// Applies a frontier position's value to its predecessor at `cell`
    /// here: won at once (into the next frontier) if it wins for the
    /// predecessor's mover, a candidate otherwise. Returns whether it went
    /// into the next frontier.
    fn apply(
        &self,
        cell: u64,
        value: Value,
        wins: bool,
        next: &OneBitTable,
        candidates: &OneBitTable,
    ) -> bool {
        let values = self.values();
        let unknown = Value::Unknown as u8;
        if values.get(cell) != unknown {
            return false;
        }
        if wins {
            values.compare_and_set(cell, unknown, value as u8) && next.test_and_set(cell)
        } else {
            candidates.set(cell);
            false
        }
    }

    /// The first half of a later pass: every frontier position's value goes
    /// to its predecessors, here at once, elsewhere pushed to their owners.
    /// Adds the predecessors examined and those decided to `counted`.
    #[allow(clippy::too_many_arguments)]
    fn propagate(
        &self,
        exchange: &mut Exchange,
        chunks: &[Slice],
        current: &OneBitTable,
        next: &OneBitTable,
        candidates: &OneBitTable,
        progress: &dyn Progress,
        counted: &mut [u64; 2],
    ) -> u64 {
        let values = self.values();
        in_rounds(
            exchange,
            chunks,
            progress,
            |chunk| {
                let mut outgoing = vec![Vec::new(); self.processes];
                let mut state = self.game.new_state();
                let (mut examined, mut decided) = (0, 0);
                current.for_each_set(chunk.local(), |cell| {
                    let value = Value::from_bits(values.get(cell));
                    self.game
                        .unrank(self.layer, Self::rank_of(chunk, cell), &mut state);
                    let wins = value == Value::win_for(self.game.mover(&state).opponent());
                    self.game.predecessors(self.layer, &state, |predecessor| {
                        examined += 1;
                        let (owner, cell) = self.share.partition.locate(predecessor);
                        if owner == self.me {
                            decided += self.apply(cell, value, wins, next, candidates) as u64;
                        } else {
                            outgoing[owner].push(push(cell, value, wins));
                        }
                    });
                });
                (outgoing, [examined, decided])
            },
            |(outgoing, _)| outgoing.iter().map(Vec::len).sum(),
            |exchange, results| {
                let outgoing = joined(self.processes, add_counts(results, counted));
                let (received, _) = exchange.all_to_all(&outgoing);
                drop(outgoing);
                counted[1] += received
                    .par_iter()
                    .filter(|&&word| {
                        let (cell, value, wins) = pushed(word);
                        self.apply(cell, value, wins, next, candidates)
                    })
                    .count() as u64;
            },
        )
    }

    /// The second half of a later pass: a candidate whose moves now all
    /// lose (or all end and some draw) is decided, into the next frontier.
    /// Adds the candidates examined and those decided to `counted`.
    fn check(
        &self,
        exchange: &mut Exchange,
        chunks: &[Slice],
        candidates: &OneBitTable,
        next: &OneBitTable,
        progress: &dyn Progress,
        counted: &mut [u64; 2],
    ) -> u64 {
        let values = self.values();
        let unknown = Value::Unknown as u8;
        let decide = |cell: u64, verdict: Verdict| -> u64 {
            settle(self.recorded, verdict).is_some_and(|value| {
                values.compare_and_set(cell, unknown, value as u8) && next.test_and_set(cell)
            }) as u64
        };
        in_rounds(
            exchange,
            chunks,
            progress,
            |chunk| {
                let mut queries = Queries::new(self.processes);
                let mut state = self.game.new_state();
                let mut remote = Vec::new();
                let (mut examined, mut decided) = (0, 0);
                candidates.for_each_set(chunk.local(), |cell| {
                    candidates.clear(cell);
                    if values.get(cell) != unknown {
                        return;
                    }
                    self.game
                        .unrank(self.layer, Self::rank_of(chunk, cell), &mut state);
                    examined += 1;
                    if let Some(verdict) =
                        self.judge(cell, &state, false, false, &mut remote, &mut queries)
                    {
                        decided += decide(cell, verdict);
                    }
                });
                (queries, [examined, decided])
            },
            |(queries, _)| queries.asked(),
            |exchange, results| self.judge_round(exchange, results, counted, decide),
        )
    }

    /// With symmetry reduction: every solved position's value goes to its
    /// twins (here at once, elsewhere pushed to their owners). When one
    /// value was recorded (the others are the fill, already in place) only
    /// positions holding it are copied; otherwise every representative's.
    fn fill_from_twins(
        &self,
        exchange: &mut Exchange,
        chunks: &[Slice],
        progress: &dyn Progress,
    ) -> u64 {
        let values = self.values();
        let partition = &self.share.partition;
        in_rounds(
            exchange,
            chunks,
            progress,
            |chunk| {
                let mut outgoing = vec![Vec::new(); self.processes];
                let mut state = self.game.new_state();
                let mut copy = |cell: u64, state: &mut G::State, require_representative| {
                    let rank = Self::rank_of(chunk, cell);
                    self.game.unrank(self.layer, rank, state);
                    if require_representative
                        && !self.game.is_representative(self.layer, rank, state)
                    {
                        return;
                    }
                    let value = values.get(cell);
                    self.game
                        .images(self.layer, state, |image| match partition.locate(image) {
                            (owner, cell) if owner == self.me => values.set(cell, value),
                            (owner, cell) => outgoing[owner].push(twin_value(cell, value)),
                        });
                };
                match self.recorded {
                    Some(value) => values.for_each_equal(chunk.local(), value as u8, |cell| {
                        copy(cell, &mut state, false)
                    }),
                    None => chunk.local().for_each(|cell| copy(cell, &mut state, true)),
                }
                outgoing
            },
            |outgoing| outgoing.iter().map(Vec::len).sum(),
            |exchange, results| {
                let outgoing = joined(self.processes, results);
                let (received, _) = exchange.all_to_all(&outgoing);
                received
                    .par_iter()
                    .for_each(|&word| values.set(word >> 2, (word & 3) as u8));
            },
        )
    }
}
