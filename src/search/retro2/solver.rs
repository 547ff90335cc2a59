//! The layer-by-layer solver of two-bit retrograde analysis (see the module
//! documentation for the passes).

use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{LayeredGame, Player, Successor, Value};
use crate::backend::partition::job_size_in_store;
use crate::error::{Error, Result};
use crate::search::checkpoint::Checkpoint;
use crate::search::chunks::{Chunk, chunks_of};
use crate::search::identity::layer_identity;
use crate::search::{Progress, Silent};
use crate::space::Block;
use crate::table::storage::file_name_for;
use crate::table::{Backing, OneBitTable, TwoBitTable};

/// Bits per position while a layer is being solved: the value (2), the
/// frontier and the next frontier (1 each) and the candidates (1).
pub const BITS_PER_POSITION: u64 = 5;

pub struct RetroOptions<'a> {
    /// Where the layers' value tables live; a directory keeps them as the
    /// solved database, and lets a later run skip or resume layers.
    pub backing: Backing,
    pub progress: &'a dyn Progress,
    /// Called with each layer's report as soon as the layer is solved.
    pub on_layer: &'a (dyn Fn(&LayerReport) + Sync),
    /// How often a layer being solved in a store records its progress
    /// there (and when it is done): a layer's table is worked on in memory
    /// and written whole each time (2 GB for Fox-and-Geese g = 16), so a
    /// stopped run resumes from the last record and redoes at most this
    /// much. Zero records every pass.
    pub record_every: Duration,
}

/// The default of [`RetroOptions::record_every`].
pub const RECORD_EVERY: Duration = Duration::from_secs(300);

impl Default for RetroOptions<'_> {
    fn default() -> Self {
        RetroOptions {
            backing: Backing::Heap,
            progress: &Silent,
            on_layer: &|_| {},
            record_every: RECORD_EVERY,
        }
    }
}

/// One solved layer. Counts are of the whole layer, also when the table
/// stores representatives only.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerReport {
    pub layer: usize,
    pub states: u64,
    /// Positions in the layer's table (fewer than `states` when it stores
    /// representatives only).
    pub stored: u64,
    pub first_wins: u64,
    pub second_wins: u64,
    pub draws: u64,
    /// Positions examined in each pass: pass 0 looks at every position;
    /// later passes at the predecessors of what the pass before decided.
    pub examined: Vec<u64>,
    pub seconds: f64,
    /// The layer was already solved in the store and was not searched again.
    pub already_solved: bool,
}

impl LayerReport {
    pub fn passes(&self) -> usize {
        self.examined.len()
    }

    /// Positions Algorithm 4's repeated full scans would have visited:
    /// every position of the table, once per pass.
    pub fn full_scan_work(&self) -> u64 {
        self.stored * self.passes() as u64
    }
}

/// Solves layers `0..=top` in order (skipping those a store has solved) and
/// returns one report per layer. The value tables of every layer stay in the
/// store; on the heap only the last two are kept while solving.
pub fn solve_layers<G: LayeredGame>(
    game: &G,
    top: usize,
    options: &RetroOptions,
) -> Result<Vec<LayerReport>> {
    solve_layer_range(game, 0..=top, options)
}

/// Solves the layers of `layers` in order, one report each. Unless the
/// range starts at layer 0 or the game's layers are
/// [independent](LayeredGame::independent_layers), the layer below the
/// first is read from the store, where it must be solved.
pub fn solve_layer_range<G: LayeredGame>(
    game: &G,
    layers: RangeInclusive<usize>,
    options: &RetroOptions,
) -> Result<Vec<LayerReport>> {
    solve_range_keeping_top(game, layers, options).map(|(reports, _)| reports)
}

/// As [`solve_layers`], also handing back the value table of layer `top`.
pub fn solve_layers_keeping_top<G: LayeredGame>(
    game: &G,
    top: usize,
    options: &RetroOptions,
) -> Result<(Vec<LayerReport>, TwoBitTable)> {
    solve_range_keeping_top(game, 0..=top, options)
}

fn solve_range_keeping_top<G: LayeredGame>(
    game: &G,
    layers: RangeInclusive<usize>,
    options: &RetroOptions,
) -> Result<(Vec<LayerReport>, TwoBitTable)> {
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
        _ => Some(solved_lower_layer(game, first - 1, options)?),
    };
    let mut reports = Vec::with_capacity(layers.clone().count());
    for layer in layers {
        let (table, report) = solve_layer(game, layer, lower.as_ref(), options)?;
        (options.on_layer)(&report);
        reports.push(report);
        // The layer below is no longer needed: release it.
        lower = Some(table);
    }
    Ok((reports, lower.expect("a range holds a layer")))
}

/// Why a range of layers starting above `layer` cannot read it; `advice`
/// is added to what to do.
pub(crate) fn lower_layer_needed<G: LayeredGame>(
    game: &G,
    layer: usize,
    why: &str,
    advice: &str,
) -> Error {
    Error::InvalidParameter(format!(
        "solving from layer {} reads layer {layer} ({}), {why}: solve layers up to {layer} into the store first{advice}",
        layer + 1,
        game.layer_descriptor(layer)
    ))
}

/// The store a range of layers starting above `layer` reads it from.
pub(crate) fn lower_layer_store<'o, G: LayeredGame>(
    game: &G,
    layer: usize,
    options: &'o RetroOptions,
    advice: &str,
) -> Result<&'o std::path::PathBuf> {
    match &options.backing {
        Backing::Directory(dir) | Backing::ReadOnly(dir) => Ok(dir),
        Backing::Heap => Err(lower_layer_needed(
            game,
            layer,
            "and there is no store to read it from",
            advice,
        )),
    }
}

/// The solved table of `layer` from the store, read only: a range of
/// layers starting above it reads its values.
fn solved_lower_layer<G: LayeredGame>(
    game: &G,
    layer: usize,
    options: &RetroOptions,
) -> Result<TwoBitTable> {
    let needed = |why: &str| lower_layer_needed(game, layer, why, "");
    let dir = lower_layer_store(game, layer, options, "")?;
    let identity = layer_identity(game, layer, "retrograde values", 2);
    if !dir.join(file_name_for(&identity.descriptor)).exists() {
        if let Some(processes) = job_size_in_store(dir, &identity.descriptor) {
            // Solved across an MPI job: the layers above are solved there too.
            return Err(Error::InvalidParameter(format!(
                "{} holds layer {layer} ({}) split over {processes} MPI processes: solve the layers above it with the same job size (mpirun -np {processes} bitsolve retro …)",
                dir.display(),
                game.layer_descriptor(layer)
            )));
        }
        return Err(needed(&format!("which is not in {}", dir.display())));
    }
    let (mut table, checkpoint) = open_layer(
        game,
        layer,
        &Backing::ReadOnly(dir.clone()),
        options.progress,
    )?;
    // Read at random while the layer above is solved: in memory.
    table.storage_mut().stage()?;
    if !checkpoint.is_some_and(|c| c.complete) {
        return Err(needed(&format!(
            "which is not completely solved in {}",
            dir.display()
        )));
    }
    Ok(table)
}

/// Opens a layer's value table (solved or not) for reading values.
pub fn open_layer<G: LayeredGame>(
    game: &G,
    layer: usize,
    backing: &Backing,
    progress: &dyn Progress,
) -> Result<(TwoBitTable, Option<Checkpoint>)> {
    // Two bits per position are stored; the frontiers live on the heap.
    let identity = layer_identity(game, layer, "retrograde values", 2);
    let (table, record) = TwoBitTable::open(backing, identity, Value::Unknown as u8, progress)?;
    let checkpoint = Checkpoint::read(table.storage(), record)?;
    Ok((table, checkpoint))
}

fn solve_layer<G: LayeredGame>(
    game: &G,
    layer: usize,
    lower: Option<&TwoBitTable>,
    options: &RetroOptions,
) -> Result<(TwoBitTable, LayerReport)> {
    let started = Instant::now();
    let progress = options.progress;
    let (mut values, checkpoint) = open_layer(game, layer, &options.backing, progress)?;
    let size = game.layer_size(layer);
    if let Some(Checkpoint {
        complete: true,
        counts,
        ..
    }) = &checkpoint
    {
        let report = count_report(game, layer, &values, counts.clone(), 0.0, true);
        return Ok((values, report));
    }
    let mut examined = match checkpoint {
        Some(Checkpoint {
            counts,
            last_completed: Some(pass),
            ..
        }) => {
            progress.note(&format!("layer {layer}: resuming after pass {pass}"));
            counts
        }
        _ => Vec::new(),
    };
    values.storage().begin_writing()?;
    // Solved in memory, written to the store at each record.
    values.storage_mut().stage()?;
    let mut recorder = Recorder::new(options.record_every);

    let blocks = game.layer_blocks(layer);
    let chunks = chunks_of(&blocks);
    let chunk_refs: Vec<&Chunk> = chunks.iter().collect();
    let frontier = OneBitTable::scratch("frontier", size)?;
    let next_frontier = OneBitTable::scratch("next frontier", size)?;
    let candidates = OneBitTable::scratch("candidates", size)?;
    let recorded = recorded_value(game);
    let solver = LayerSolver {
        game,
        layer,
        values: &values,
        lower,
        recorded,
    };

    // Pass 0: every unknown position, the first player's and then the
    // second's, so the second sweep already sees what the first decided.
    progress.begin_pass(&format!("layer {layer} pass 0"), 2 * chunks.len() as u64);
    let mut initial = 0;
    let list_limit = size / LIST_DENSITY;
    let mut marked = Marks::new(list_limit);
    for sweep in [Player::First, Player::Second] {
        let (examined, marks) = chunk_refs
            .par_iter()
            .map(|chunk| {
                let mut marks = Marks::new(list_limit);
                let done = solver.initial_chunk(chunk, sweep, &frontier, &mut marks);
                progress.advance(1);
                (done, marks)
            })
            .reduce(
                || (0, Marks::new(list_limit)),
                |(a, m), (b, n)| (a + b, m.merge(n)),
            );
        initial += examined;
        marked = marked.merge(marks);
    }
    progress.end_pass();
    examined.push(initial);
    recorder.pass_done(&values, &examined)?;

    // Late passes decide few positions: while a pass's marks are fewer
    // than `list_limit` they are listed, and the next pass visits the list
    // instead of scanning the bit tables (Fox-and-Geese g = 11: 253
    // passes, most deciding a few thousand of 1.8 G positions).
    let (mut current, mut next) = (&frontier, &next_frontier);
    let mut frontier_list = marked.listed();
    while marked.count > 0 {
        let pass = examined.len();
        progress.begin_pass(
            &format!("layer {layer} pass {pass}"),
            2 * chunks.len() as u64,
        );
        let propagate = |ranks: RankSource| {
            let (mut next_marks, mut candidate_marks) =
                (Marks::new(list_limit), Marks::new(list_limit));
            let examined = Scratch::new(game.new_state()).in_batches(ranks, |scratch, batch| {
                solver.propagate_batch(
                    batch,
                    scratch,
                    next,
                    &candidates,
                    &mut next_marks,
                    &mut candidate_marks,
                )
            });
            (examined, next_marks, candidate_marks)
        };
        let merge3 = |(a, m, c): (u64, Marks, Marks), (b, n, d): (u64, Marks, Marks)| {
            (a + b, m.merge(n), c.merge(d))
        };
        let (triggered, won, mut candidate_marks) = over_ranks(
            frontier_list.as_deref(),
            current,
            &chunk_refs,
            progress,
            || (0, Marks::new(list_limit), Marks::new(list_limit)),
            propagate,
            merge3,
        );
        let check = |ranks: RankSource| {
            let mut marks = Marks::new(list_limit);
            let examined = Scratch::new(game.new_state()).in_batches(ranks, |scratch, batch| {
                solver.check_batch(batch, scratch, &candidates, next, &mut marks)
            });
            (examined, marks)
        };
        let merge2 = |(a, m): (u64, Marks), (b, n): (u64, Marks)| (a + b, m.merge(n));
        let (checked, lost) = over_ranks(
            candidate_marks.listed().as_deref(),
            &candidates,
            &chunk_refs,
            progress,
            || (0, Marks::new(list_limit)),
            check,
            merge2,
        );
        progress.end_pass();
        examined.push(triggered + checked);
        recorder.pass_done(&values, &examined)?;
        match &frontier_list {
            Some(list) => list.par_iter().for_each(|&rank| {
                current.clear(rank);
            }),
            None => current.clear_all()?,
        }
        std::mem::swap(&mut current, &mut next);
        marked = won.merge(lost);
        frontier_list = marked.listed();
    }

    values.fill_zero_cells(game.undecided_value() as u8);
    solver.fill_from_twins(&chunk_refs);
    record(&values, &examined, true)?;
    let report = count_report(
        game,
        layer,
        &values,
        examined,
        started.elapsed().as_secs_f64(),
        false,
    );
    Ok((values, report))
}

/// A pass lists the ranks it marks only while they are fewer than one in
/// `LIST_DENSITY` positions of the layer: 8 bytes a rank then stay below
/// the bit table's own size, and walking the list beats scanning the table.
const LIST_DENSITY: u64 = 64;

/// Calls its argument with each rank of a pass's source: a list's, or the
/// set bits of a chunk of a table.
type RankSource<'a> = &'a mut dyn FnMut(&mut dyn FnMut(u64));

/// Listed ranks per unit of parallel work.
const LIST_WORK: usize = 4096;

/// The ranks a pass marked in a bit table (each once): how many, and the
/// list of them while it holds no more than `limit` (then only the table
/// knows them, and the list's memory is never more than a bit table's).
struct Marks {
    count: u64,
    ranks: Vec<u64>,
    overflowed: bool,
    limit: usize,
}

impl Marks {
    fn new(limit: u64) -> Self {
        Marks {
            count: 0,
            ranks: Vec::new(),
            overflowed: false,
            limit: limit as usize,
        }
    }

    fn push(&mut self, rank: u64) {
        self.count += 1;
        if self.overflowed {
            return;
        }
        if self.ranks.len() < self.limit {
            self.ranks.push(rank);
        } else {
            self.overflow();
        }
    }

    fn overflow(&mut self) {
        self.overflowed = true;
        self.ranks = Vec::new();
    }

    fn merge(mut self, mut other: Marks) -> Marks {
        self.count += other.count;
        if self.overflowed || other.overflowed || self.ranks.len() + other.ranks.len() > self.limit
        {
            self.overflow();
        } else {
            if self.ranks.len() < other.ranks.len() {
                std::mem::swap(&mut self.ranks, &mut other.ranks);
            }
            self.ranks.extend_from_slice(&other.ranks);
        }
        self
    }

    /// The list of every mark, unless there were too many to list.
    fn listed(&mut self) -> Option<Vec<u64>> {
        (!self.overflowed).then(|| std::mem::take(&mut self.ranks))
    }
}

/// Runs `visit` over the ranks of a pass's source in parallel and joins
/// the results with `merge`: over `list` when the pass before listed its
/// marks, else over the set bits of `table`, chunk by chunk.
fn over_ranks<T: Send>(
    list: Option<&[u64]>,
    table: &OneBitTable,
    chunks: &[&Chunk],
    progress: &dyn Progress,
    identity: impl Fn() -> T + Sync + Send,
    visit: impl Fn(RankSource) -> T + Sync + Send,
    merge: impl Fn(T, T) -> T + Sync + Send,
) -> T {
    match list {
        Some(list) => list
            .par_chunks(LIST_WORK)
            .map(|part| visit(&mut |each| part.iter().for_each(|&r| each(r))))
            .reduce(identity, merge),
        None => chunks
            .par_iter()
            .map(|chunk| {
                let done = visit(&mut |each| table.for_each_set(chunk.ranks.clone(), &mut *each));
                progress.advance(1);
                done
            })
            .reduce(identity, merge),
    }
}

/// Records a layer's passes in its store once `every` has gone by since
/// the last record.
pub(crate) struct Recorder {
    every: Duration,
    last: Instant,
}

impl Recorder {
    pub(crate) fn new(every: Duration) -> Self {
        Recorder {
            every,
            last: Instant::now(),
        }
    }

    pub(crate) fn pass_done(&mut self, values: &TwoBitTable, examined: &[u64]) -> Result<()> {
        if self.last.elapsed() >= self.every {
            record(values, examined, false)?;
            self.last = Instant::now();
        }
        Ok(())
    }
}

pub(crate) fn record(values: &TwoBitTable, examined: &[u64], complete: bool) -> Result<()> {
    Checkpoint {
        last_completed: Some(examined.len() as u64 - 1),
        counts: examined.to_vec(),
        complete,
        ..Default::default()
    }
    .write(values.storage())
}

fn count_report<G: LayeredGame>(
    game: &G,
    layer: usize,
    values: &TwoBitTable,
    examined: Vec<u64>,
    seconds: f64,
    already_solved: bool,
) -> LayerReport {
    // Each block's counts times its weight: whole-layer counts.
    let blocks = game.layer_blocks(layer);
    let count = |value: Value| -> u64 {
        blocks
            .iter()
            .enumerate()
            .map(|(b, block)| {
                game.block_weight(layer, b) * values.count_in(block.range(), value as u8)
            })
            .sum()
    };
    let states = blocks
        .iter()
        .enumerate()
        .map(|(b, block)| game.block_weight(layer, b) * block.len)
        .sum();
    LayerReport {
        layer,
        states,
        stored: values.len(),
        first_wins: count(Value::FirstWins),
        second_wins: count(Value::SecondWins),
        draws: count(Value::Draw),
        examined,
        seconds,
        already_solved,
    }
}

struct LayerSolver<'a, G> {
    game: &'a G,
    layer: usize,
    values: &'a TwoBitTable,
    lower: Option<&'a TwoBitTable>,
    /// The only value recorded before the final fill, if not every value.
    recorded: Option<Value>,
}

/// The only value recorded before the final fill, when the rules make
/// undecided positions wins for one player (see [`LayerSolver::settle`]).
pub(crate) fn recorded_value<G: LayeredGame>(game: &G) -> Option<Value> {
    match game.undecided_value() {
        Value::FirstWins => Some(Value::SecondWins),
        Value::SecondWins => Some(Value::FirstWins),
        _ => None,
    }
}

/// The value to record for a verdict, when only `recorded` is (if any).
pub(crate) fn settle(recorded: Option<Value>, verdict: Verdict) -> Option<Value> {
    match verdict {
        Verdict::Decided(value) if recorded.is_none_or(|only| only == value) => Some(value),
        _ => None,
    }
}

/// What a position's moves show so far.
pub(crate) enum Verdict {
    Decided(Value),
    Open,
}

/// The values of a position's moves, seen one by one.
pub(crate) struct Tally {
    win: Value,
    loss: Value,
    /// In pass 0 a later (lower-layer) move may still win after an open one.
    lower_only: bool,
    moves: u64,
    draws: bool,
    open: bool,
    won: bool,
}

impl Tally {
    pub(crate) fn new(mover: Player, lower_only: bool) -> Self {
        Tally {
            win: Value::win_for(mover),
            loss: Value::win_for(mover.opponent()),
            lower_only,
            moves: 0,
            draws: false,
            open: false,
            won: false,
        }
    }

    /// Counts a move leading to `value`; false once more moves cannot
    /// change the verdict (a win settles it; an open move leaves nothing
    /// to settle, except in pass 0).
    pub(crate) fn see(&mut self, value: Value) -> bool {
        self.moves += 1;
        match value {
            value if value == self.win => self.won = true,
            value if value == self.loss => {}
            Value::Draw => self.draws = true,
            _ => self.open = true,
        }
        !self.settled()
    }

    /// True once more moves cannot change the verdict.
    fn settled(&self) -> bool {
        self.won || self.open && !self.lower_only
    }

    /// True once a move wins for the mover.
    #[cfg(feature = "mpi")]
    pub(crate) fn won(&self) -> bool {
        self.won
    }

    /// True once a move leads to an unknown position (or, in pass 0, stays
    /// in the layer): only a win can decide the position then.
    #[cfg(feature = "mpi")]
    pub(crate) fn is_open(&self) -> bool {
        self.open
    }

    /// The value a win for the mover is.
    #[cfg(feature = "mpi")]
    pub(crate) fn win_value(&self) -> Value {
        self.win
    }

    /// In pass 0: the position also has a move within its layer, whose
    /// value is not known yet.
    pub(crate) fn stays_in_layer(&mut self) {
        self.open = true;
    }

    pub(crate) fn verdict(self, no_move_value: impl FnOnce() -> Value) -> Verdict {
        if self.won {
            Verdict::Decided(self.win)
        } else if self.open {
            Verdict::Open
        } else if self.moves == 0 {
            Verdict::Decided(no_move_value())
        } else if self.draws {
            Verdict::Decided(Value::Draw)
        } else {
            Verdict::Decided(self.loss)
        }
    }
}

/// Ranks of a pass's source handled together: the words of a batch's
/// ranks, and then of their predecessors or moves, are prefetched before
/// any is read, so that the cache misses of a batch overlap instead of
/// following one another. Big layers spend their time on these random
/// lookups into tables of gigabytes.
const BATCH: usize = 64;

/// A worker's buffers for the passes after the first.
struct Scratch<S> {
    state: S,
    batch: Vec<u64>,
    /// Propagation: each predecessor of the batch, with the value of the
    /// frontier position it moves to and whether that wins for it.
    predecessors: Vec<(u64, Value, bool)>,
    /// Checks: the moves of the batch's open candidates, in order.
    moves: Vec<Successor>,
    /// Checks: each candidate to judge, its mover and its moves' end in
    /// `moves`, or its verdict when known without them.
    candidates: Vec<(u64, Player, usize, Option<Verdict>)>,
}

impl<S> Scratch<S> {
    fn new(state: S) -> Self {
        Scratch {
            state,
            batch: Vec::with_capacity(BATCH),
            predecessors: Vec::new(),
            moves: Vec::new(),
            candidates: Vec::with_capacity(BATCH),
        }
    }

    /// Feeds the ranks of `ranks` to `handle` a batch at a time.
    fn in_batches(
        &mut self,
        ranks: RankSource,
        mut handle: impl FnMut(&mut Self, &[u64]) -> u64,
    ) -> u64 {
        let mut examined = 0;
        let mut batch = std::mem::take(&mut self.batch);
        ranks(&mut |rank| {
            batch.push(rank);
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

impl<G: LayeredGame> LayerSolver<'_, G> {
    /// The value to record for a verdict. When undecided positions count as
    /// wins for one player, only the other player's wins are recorded: they
    /// never depend on the first player's wins, so leaving those unknown
    /// until the final fill saves most of the work (Fox-and-Geese decides
    /// the geese's wins only).
    fn settle(&self, verdict: Verdict) -> Option<Value> {
        settle(self.recorded, verdict)
    }

    fn table_of(&self, successor: Successor) -> &TwoBitTable {
        if successor.layer == self.layer {
            self.values
        } else {
            self.lower
                .expect("a move to a lower layer needs that layer solved")
        }
    }

    fn value_of(&self, successor: Successor) -> Value {
        Value::from_bits(self.table_of(successor).get(successor.rank))
    }

    /// Looks at the moves until the value is settled or cannot be yet.
    /// `lower_only`: in pass 0 the layer's own positions are all unknown, so
    /// once the moves reach it (lower layers come first) nothing more can be
    /// learned.
    fn evaluate(&self, state: &G::State, lower_only: bool) -> Verdict {
        if let Some(value) = self.game.rule_value(self.layer, state) {
            return Verdict::Decided(value);
        }
        let mut tally = Tally::new(self.game.mover(state), lower_only);
        let look = |successor: Successor| tally.see(self.value_of(successor));
        if lower_only {
            // A move within the layer leads to an unknown position.
            if self.game.lower_successors(self.layer, state, look) {
                tally.stays_in_layer();
            }
        } else {
            self.game.successors(self.layer, state, look);
        }
        tally.verdict(|| self.game.no_move_value(state))
    }

    /// With symmetry reduction: copies every position that is not its own
    /// canonical twin from that twin. When only one value was recorded (all
    /// others are the fill), it is enough to copy the positions holding it
    /// to their images, which are few.
    fn fill_from_twins(&self, chunks: &[&Chunk]) {
        if !self.game.reduced_by_symmetry() {
            return;
        }
        if let Some(value) = self.recorded {
            chunks.par_iter().for_each(|chunk| {
                let mut state = self.game.new_state();
                self.values
                    .for_each_equal(chunk.ranks.clone(), value as u8, |rank| {
                        self.game.unrank(self.layer, rank, &mut state);
                        self.game.images(self.layer, &state, |image| {
                            self.values.set(image, value as u8)
                        });
                    });
            });
            return;
        }
        let whole = chunks_of(&[Block {
            start: 0,
            len: self.values.len(),
        }]);
        whole.par_iter().for_each(|chunk| {
            let mut state = self.game.new_state();
            for rank in chunk.ranks.clone() {
                self.game.unrank(self.layer, rank, &mut state);
                let twin = self.game.rank(self.layer, &state);
                if twin != rank {
                    self.values.set(rank, self.values.get(twin));
                }
            }
        });
    }

    /// Pass 0 over the positions of a chunk whose mover is `sweep`: rules,
    /// positions without moves, wins and losses through lower layers, and
    /// (second sweep) losses through first-sweep positions. Into the
    /// frontier go the positions whose predecessors have not seen their
    /// value: every second-sweep decision, and first-sweep positions that
    /// win for the second player (their predecessors' evaluation may have
    /// stopped before reaching them). Positions already decided (a resumed
    /// layer) all join the frontier.
    fn initial_chunk(
        &self,
        chunk: &Chunk,
        sweep: Player,
        frontier: &OneBitTable,
        marks: &mut Marks,
    ) -> u64 {
        let mut state = self.game.new_state();
        let mut examined = 0;
        for rank in chunk.ranks.clone() {
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
            if self.values.get(rank) != Value::Unknown as u8 {
                if frontier.test_and_set(rank) {
                    marks.push(rank);
                }
                continue;
            }
            self.game.unrank(self.layer, rank, &mut state);
            if self.game.reduced_by_symmetry()
                && !self.game.is_representative(self.layer, rank, &state)
            {
                // Not canonical: copied from its twin at the end.
                continue;
            }
            examined += 1;
            // The second sweep needs the whole look only where it can learn
            // a loss from the first sweep's values; a win through the layer's
            // own positions arrives later through the frontier anyway.
            let only_lower_wins =
                sweep == Player::First || self.recorded == Some(Value::win_for(sweep));
            if let Some(value) = self.settle(self.evaluate(&state, only_lower_wins)) {
                self.values.set(rank, value as u8);
                if (sweep == Player::Second || value == Value::SecondWins)
                    && frontier.test_and_set(rank)
                {
                    marks.push(rank);
                }
            }
        }
        examined
    }

    /// The unknown predecessors of the frontier positions in `batch` are
    /// won if the position they move to is won for their mover (into the
    /// next frontier), and candidates for a loss or draw otherwise. Returns
    /// the predecessors examined.
    fn propagate_batch(
        &self,
        batch: &[u64],
        scratch: &mut Scratch<G::State>,
        next: &OneBitTable,
        candidates: &OneBitTable,
        next_marks: &mut Marks,
        candidate_marks: &mut Marks,
    ) -> u64 {
        for &rank in batch {
            self.values.prefetch(rank);
        }
        let Scratch {
            state,
            predecessors,
            ..
        } = scratch;
        predecessors.clear();
        for &rank in batch {
            let value = Value::from_bits(self.values.get(rank));
            self.game.unrank(self.layer, rank, state);
            let predecessor_mover = self.game.mover(state).opponent();
            let wins = value == Value::win_for(predecessor_mover);
            let marks = if wins { next } else { candidates };
            self.game.predecessors(self.layer, state, |predecessor| {
                self.values.prefetch(predecessor);
                marks.prefetch(predecessor);
                predecessors.push((predecessor, value, wins));
            });
        }
        let unknown = Value::Unknown as u8;
        for &(predecessor, value, wins) in predecessors.iter() {
            if self.values.get(predecessor) != unknown {
                continue;
            }
            if wins {
                if self
                    .values
                    .compare_and_set(predecessor, unknown, value as u8)
                    && next.test_and_set(predecessor)
                {
                    next_marks.push(predecessor);
                }
            } else if candidates.test_and_set(predecessor) {
                candidate_marks.push(predecessor);
            }
        }
        predecessors.len() as u64
    }

    /// A candidate of `batch` whose moves now all lose (or all end and some
    /// draw) is decided, into the next frontier. Returns the candidates
    /// examined (those still unknown).
    fn check_batch(
        &self,
        batch: &[u64],
        scratch: &mut Scratch<G::State>,
        candidates: &OneBitTable,
        next: &OneBitTable,
        next_marks: &mut Marks,
    ) -> u64 {
        for &rank in batch {
            self.values.prefetch(rank);
            candidates.prefetch(rank);
        }
        let Scratch {
            state,
            moves,
            candidates: open,
            ..
        } = scratch;
        moves.clear();
        open.clear();
        let unknown = Value::Unknown as u8;
        for &rank in batch {
            candidates.clear(rank);
            if self.values.get(rank) != unknown {
                continue;
            }
            self.game.unrank(self.layer, rank, state);
            let mover = self.game.mover(state);
            if let Some(value) = self.game.rule_value(self.layer, state) {
                open.push((rank, mover, moves.len(), Some(Verdict::Decided(value))));
                continue;
            }
            let first = moves.len();
            self.game.successors(self.layer, state, |successor| {
                self.table_of(successor).prefetch(successor.rank);
                moves.push(successor);
                true
            });
            let no_moves =
                (moves.len() == first).then(|| Verdict::Decided(self.game.no_move_value(state)));
            open.push((rank, mover, moves.len(), no_moves));
        }
        let examined = open.len() as u64;
        let mut start = 0;
        for (rank, mover, end, known) in open.drain(..) {
            let verdict = known.unwrap_or_else(|| {
                let mut tally = Tally::new(mover, false);
                for &successor in &moves[start..end] {
                    if !tally.see(self.value_of(successor)) {
                        break;
                    }
                }
                tally.verdict(|| unreachable!("a candidate without moves is judged when listed"))
            });
            start = end;
            if self
                .settle(verdict)
                .is_some_and(|v| self.values.compare_and_set(rank, unknown, v as u8))
                && next.test_and_set(rank)
            {
                next_marks.push(rank);
            }
        }
        examined
    }
}
