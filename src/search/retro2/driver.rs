//! The one driver of two-bit retrograde analysis: layers in order, each
//! solved by a backend's passes ([`super::seam`]) until a pass decides
//! nothing, then the undecided fill and the symmetric copy; resumable from
//! a store's records.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::phases::Phases;
use super::seam::{Below, LayerSweep, Opening, PassCount, RetroBackend, RetroPass, RetroPasses};
use crate::error::{Error, Result};
use crate::progress::check_stop;
use crate::search::checkpoint::Checkpoint;
use crate::search::identity::layer_identity;
use crate::search::{Progress, Silent};
use crate::space::LayeredGame;
use crate::table::storage::{available_memory, file_name_for};
use crate::table::{Backing, TableIdentity, TwoBitTable};

/// Bits per position while a layer is being solved on the host: the value
/// (2), the frontier and the next frontier (1 each) and the candidates (1).
pub const BITS_PER_POSITION: u64 = 5;

/// How a retrograde analysis runs: where its tables live, how it reports,
/// how often it records its progress.
pub struct RetroOptions<'a> {
    /// Where the layers' value tables live; a directory keeps them as the
    /// solved database, and lets a later run skip or resume layers.
    pub backing: Backing,
    /// Shows the analysis's progress and says when to stop.
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
    /// The layer.
    pub layer: usize,
    /// Positions in the layer.
    pub states: u64,
    /// Positions in the layer's table (fewer than `states` when it stores
    /// representatives only).
    pub stored: u64,
    /// Positions the first player wins.
    pub first_wins: u64,
    /// Positions the second player wins.
    pub second_wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions examined in each pass: pass 0 looks at every position;
    /// later passes at the predecessors of what the pass before decided
    /// (a backend that re-judges every unknown position counts those).
    pub examined: Vec<u64>,
    /// Wall time spent on the layer, in seconds.
    pub seconds: f64,
    /// Where that time went.
    pub phases: Phases,
    /// Each pass this process ran over a layer with moves inside it (not
    /// those of an earlier process that a resumed layer continues, nor an
    /// acyclic layer's sweep): which pass, its time and its counts.
    pub pass_log: Vec<PassLog>,
    /// The layer was already solved in the store and was not searched again.
    pub already_solved: bool,
}

/// One pass of a layer as this process ran it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassLog {
    /// The pass's number in the layer (0: the first look at every
    /// position).
    pub pass: usize,
    /// Its wall time, in seconds.
    pub seconds: f64,
    /// What it examined, judged and marked.
    pub count: PassCount,
}

/// `{"pass", "seconds", "examined", "judged", "frontier"}`: the positions
/// the pass examined, those of them it judged from their moves (the rest
/// reached as predecessors), and those it put into the next pass's
/// frontier.
impl serde::Serialize for PassLog {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(5))?;
        map.serialize_entry("pass", &self.pass)?;
        map.serialize_entry("seconds", &self.seconds)?;
        map.serialize_entry("examined", &self.count.examined)?;
        map.serialize_entry("judged", &self.count.judged)?;
        map.serialize_entry("frontier", &self.count.marked)?;
        map.end()
    }
}

impl LayerReport {
    /// Passes run on the layer: one per entry of `examined`.
    pub fn passes(&self) -> usize {
        self.examined.len()
    }

    /// Positions Algorithm 4's repeated full scans would have visited:
    /// every position of the table, once per pass.
    pub fn full_scan_work(&self) -> u64 {
        self.stored * self.passes() as u64
    }
}

/// Solves layers `0..=top` on `backend` in order (skipping those a store
/// has solved) and returns one report per layer.
pub fn solve_layers<G: LayeredGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    top: usize,
    options: &RetroOptions,
) -> Result<Vec<LayerReport>> {
    solve_layer_range(backend, game, 0..=top, options)
}

/// Solves the layers of `layers` on `backend` in order, one report each.
/// Unless the range starts at layer 0 or the game's layers are
/// [independent](crate::space::LayerLinks::independent_layers), the layer below the
/// first is read from the store, where it must be solved. Collective on a
/// backend of several processes: every process calls it alike.
pub fn solve_layer_range<G: LayeredGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    layers: RangeInclusive<usize>,
    options: &RetroOptions,
) -> Result<Vec<LayerReport>> {
    solve_range_keeping_top(backend, game, layers, options).map(|(reports, _)| reports)
}

/// As [`solve_layers`], also handing back the values of layer `top`.
pub fn solve_layers_keeping_top<G: LayeredGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    top: usize,
    options: &RetroOptions,
) -> Result<(Vec<LayerReport>, B::Layer)> {
    solve_range_keeping_top(backend, game, 0..=top, options)
}

fn solve_range_keeping_top<G: LayeredGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    layers: RangeInclusive<usize>,
    options: &RetroOptions,
) -> Result<(Vec<LayerReport>, B::Layer)> {
    let first = *layers.start();
    if layers.is_empty() {
        return Err(Error::InvalidParameter(format!(
            "the range of layers {first}..{} is empty",
            layers.end()
        )));
    }
    // Reading the layers below, charged to the layer that reads them.
    let mut reading = Phases::default();
    let mut lower = match first {
        0 => None,
        _ if game.independent_layers() => None,
        // It reads the layers its moves reach itself.
        _ if reads_layers_itself(game, first) => None,
        _ => Some(reading.time(
            |p| &mut p.reading_below,
            || solved_lower_layer(backend, game, first - 1, options),
        )?),
    };
    let mut reports = Vec::with_capacity(layers.clone().count());
    let last = *layers.end();
    for layer in layers {
        if reads_layers_itself(game, layer) {
            // It reads what it needs from the store, this one included
            // (whose writing handle must be closed first).
            drop(lower.take());
        }
        let several = reading.time(
            |p| &mut p.reading_below,
            || {
                game.several_layers_below(layer)
                    .map(|reached| solved_layers_below(backend, game, layer, &reached, options))
                    .transpose()
            },
        )?;
        let below = match &several {
            Some(tables) => Below::Several(tables),
            None => Below::Next(lower.as_ref()),
        };
        let (values, mut report) = solve_layer(backend, game, layer, below, options)?;
        drop(several);
        report.phases.reading_below += reading.reading_below;
        report.seconds += reading.reading_below;
        reading = Phases::default();
        (options.on_layer)(&report);
        reports.push(report);
        // The layer below is no longer needed: release it. The layer just
        // solved is the next one's layer below; held as it was solved (in
        // memory) unless it is big, when it is read back from the store as
        // any first layer's is, in memory only if there is room beside the
        // next layer's values and pass marks.
        drop(lower.take());
        let reread = layer < last
            && matches!(options.backing, Backing::Directory(_))
            && backend.any(too_big_to_hold(game.layer_size(layer)));
        lower = Some(if reread {
            drop(values);
            reading.time(
                |p| &mut p.reading_below,
                || solved_lower_layer(backend, game, layer, options),
            )?
        } else {
            values
        });
    }
    Ok((reports, lower.expect("a range holds a layer")))
}

/// Whether `layer` reads the solved layers its moves reach from the store
/// rather than the layer below carried from the one solved before (an
/// acyclic layer whose moves all lead one layer down reads that one as
/// carried: a positional game's, solved in memory without a store).
fn reads_layers_itself<G: LayeredGame>(game: &G, layer: usize) -> bool {
    match game.acyclic_layer(layer) {
        Some(reached) => !only_the_next(layer, &reached),
        None => game.several_layers_below(layer).is_some(),
    }
}

/// Whether the layers `reached` from `layer` are at most the one below.
fn only_the_next(layer: usize, reached: &[usize]) -> bool {
    reached.iter().all(|&below| below + 1 == layer)
}

/// The layers whose solved values (and distances) the solving of `layer`
/// reads: every layer its moves reach when the game names them
/// ([`LayerLinks::acyclic_layer`](crate::space::LayerLinks::acyclic_layer),
/// [`LayerLinks::several_layers_below`](crate::space::LayerLinks::several_layers_below)),
/// else the one below; none for layer 0 and for layers solved alone.
pub(crate) fn layers_read<G: LayeredGame>(game: &G, layer: usize) -> Vec<usize> {
    match game
        .acyclic_layer(layer)
        .or_else(|| game.several_layers_below(layer))
    {
        Some(reached) => reached,
        None if layer == 0 || game.independent_layers() => Vec::new(),
        None => vec![layer - 1],
    }
}

/// The solved layers `reached` from the store, indexed by layer (the
/// others `None`), for a layer that reads several.
fn solved_layers_below<G: LayeredGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    layer: usize,
    reached: &[usize],
    options: &RetroOptions,
) -> Result<Vec<Option<B::Layer>>> {
    if matches!(options.backing, Backing::Heap) {
        return Err(Error::InvalidParameter(format!(
            "layer {layer} ({}) reads the solved layers its moves reach ({}) from a store: give --store DIR",
            game.layer_descriptor(layer),
            reached
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut lower: Vec<Option<B::Layer>> = (0..layer).map(|_| None).collect();
    for &below in reached {
        lower[below] = Some(solved_lower_layer(backend, game, below, options)?);
    }
    Ok(lower)
}

/// Whether a solved layer of `positions` two-bit cells is too big to keep
/// in memory while the layer above is solved (see
/// [`stage_read_only_if_room`](crate::table::WordStorage::stage_read_only_if_room)).
fn too_big_to_hold(positions: u64) -> bool {
    available_memory().is_some_and(|available| positions / 4 > available / 8)
}

/// The identity of `layer`'s table of values: the same on every backend,
/// so one resumes another's store (an MPI job's shares add the partition).
pub fn values_identity<G: LayeredGame>(game: &G, layer: usize) -> TableIdentity {
    layer_identity(game, layer, "retrograde values", 2)
}

/// Why a range of layers starting above `layer` cannot read it; `advice`
/// is added to what to do.
pub fn lower_layer_needed<G: LayeredGame>(
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
fn lower_layer_store<'o, G: LayeredGame>(
    game: &G,
    layer: usize,
    options: &'o RetroOptions,
) -> Result<&'o PathBuf> {
    match &options.backing {
        Backing::Directory(dir) | Backing::ReadOnly(dir) => Ok(dir),
        Backing::Heap => Err(lower_layer_needed(
            game,
            layer,
            "and there is no store to read it from",
            "",
        )),
    }
}

/// The solved values of `layer` from the store, read only: a range of
/// layers starting above it reads them.
fn solved_lower_layer<G: LayeredGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    layer: usize,
    options: &RetroOptions,
) -> Result<B::Layer> {
    let dir = lower_layer_store(game, layer, options)?;
    let (values, checkpoint) =
        backend.open_layer(game, layer, Opening::Solved(dir), options.progress)?;
    if backend.any(!checkpoint.is_some_and(|c| c.complete)) {
        return Err(lower_layer_needed(
            game,
            layer,
            &format!("which is not completely solved in {}", dir.display()),
            "",
        ));
    }
    Ok(values)
}

/// Opens a layer's whole table of values (solved or not) from `backing`,
/// with its record: how one process holds a layer.
pub fn open_layer<G: LayeredGame>(
    game: &G,
    layer: usize,
    backing: &Backing,
    progress: &dyn Progress,
) -> Result<(TwoBitTable, Option<Checkpoint>)> {
    // Two bits per position are stored; the passes' bit tables live on the heap.
    let (table, record) = TwoBitTable::open(
        backing,
        values_identity(game, layer),
        crate::space::Value::Unknown as u8,
        progress,
    )?;
    let checkpoint = Checkpoint::read(table.storage(), record)?;
    Ok((table, checkpoint))
}

/// Opens the whole solved table of `layer` in the store `dir` read only
/// and in memory, as the layer below a range (the single-process backends'
/// [`Opening::Solved`]). A layer an MPI job solved, split into
/// per-process shares, is refused with the job size to rerun with.
pub(crate) fn open_solved_layer<G: LayeredGame>(
    game: &G,
    layer: usize,
    dir: &Path,
    progress: &dyn Progress,
) -> Result<(TwoBitTable, Option<Checkpoint>)> {
    let identity = values_identity(game, layer);
    let path = dir.join(crate::table::storage::file_name_for(&identity.descriptor));
    if !crate::table::store_file::table_exists(&path)? {
        if let Some(processes) = crate::table::shares::job_size_in_store(dir, &identity.descriptor)
        {
            // Solved across an MPI job: the layers above are solved there too.
            return Err(Error::InvalidParameter(format!(
                "{} holds layer {layer} ({}) split over {processes} MPI processes: solve the layers above it with the same job size (mpirun -np {processes} bitsolve retro …)",
                dir.display(),
                game.layer_descriptor(layer)
            )));
        }
        return Err(lower_layer_needed(
            game,
            layer,
            &format!("which is not in {}", dir.display()),
            "",
        ));
    }
    let (mut table, checkpoint) =
        open_layer(game, layer, &Backing::ReadOnly(dir.to_path_buf()), progress)?;
    // Read at random while the layer above is solved: in memory when
    // there is room beside the layer above and its passes' bit tables.
    table.storage_mut().stage_read_only_if_room(progress)?;
    Ok((table, checkpoint))
}

fn solve_layer<G: LayeredGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    layer: usize,
    lower: Below<'_, B::Layer>,
    options: &RetroOptions,
) -> Result<(B::Layer, LayerReport)> {
    let started = Instant::now();
    let mut phases = Phases::default();
    let progress = options.progress;
    // A layer the store holds finished is read, not written: opened read
    // only (shared), so that `query` and `verify` can read it while the
    // layers above it are solved, and its file is left as it is.
    // (Every process of a job must agree: one whose copy is unfinished
    // takes the writing path with the others.)
    let finished = match &options.backing {
        Backing::Directory(dir) => {
            let descriptor = values_identity(game, layer).descriptor;
            Checkpoint::finished_on_disk(&dir.join(file_name_for(&descriptor))) == Some(true)
        }
        _ => false,
    };
    if !backend.any(!finished)
        && let Backing::Directory(dir) = &options.backing
    {
        let (values, checkpoint) =
            backend.open_layer(game, layer, Opening::Solved(dir), progress)?;
        if !backend.any(!checkpoint.as_ref().is_some_and(|c| c.complete)) {
            let examined = backend.agree_on_passes(checkpoint);
            let report = layer_report(backend, game, layer, &values, examined, None, phases);
            return Ok((values, report));
        }
    }
    let (mut values, checkpoint) = phases.time(
        |p| &mut p.setup,
        || backend.open_layer(game, layer, Opening::ToSolve(&options.backing), progress),
    )?;
    let complete = checkpoint.as_ref().is_some_and(|c| c.complete);
    // Processes record on their own clocks, and one may have finished the
    // layer while another was stopped before its last record: every
    // process goes on from what it holds. A value held is a value of the
    // fixpoint, and pass 0 puts every held value into the frontier.
    let mut examined = backend.agree_on_passes(checkpoint);
    if !backend.any(!complete) {
        let report = layer_report(backend, game, layer, &values, examined, None, phases);
        return Ok((values, report));
    }
    if let Some(last) = examined.len().checked_sub(1) {
        progress.note(&format!("layer {layer}: resuming after pass {last}"));
    }
    let table = backend.host_table_mut(&mut values);
    phases.time(
        |p| &mut p.setup,
        || -> Result<()> {
            table.storage().begin_writing()?;
            // Solved in memory, written to the store at each record, when
            // there is room; else in its mapped file.
            table.storage_mut().stage_if_room(progress)
        },
    )?;

    let pass_log = match game.acyclic_layer(layer) {
        Some(reached) => {
            let (swept_examined, swept) =
                sweep_acyclic_layer(backend, game, layer, &values, &reached, lower, options)?;
            phases = phases + swept;
            examined = swept_examined;
            Vec::new()
        }
        None => run_passes(
            backend,
            game,
            layer,
            &values,
            lower,
            options,
            &mut phases,
            &mut examined,
        )?,
    };
    let mut report = layer_report(
        backend,
        game,
        layer,
        &values,
        examined,
        Some(started),
        phases,
    );
    report.pass_log = pass_log;
    Ok((values, report))
}

/// Runs `layer`'s passes over `values` until one decides nothing, then
/// fills what is left undecided and copies values to twins; `examined`
/// gets each pass's count, `phases` their times. Returns the passes' log.
#[allow(clippy::too_many_arguments)]
fn run_passes<G: LayeredGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    layer: usize,
    values: &B::Layer,
    lower: Below<'_, B::Layer>,
    options: &RetroOptions,
    phases: &mut Phases,
    examined: &mut Vec<u64>,
) -> Result<Vec<PassLog>> {
    let progress = options.progress;
    if !backend.iterates_values() && !game.has_predecessors(layer) {
        return Err(Error::Unsupported(format!(
            "{}: the game gives no predecessors in this layer, and only the CPU backend solves such a layer (by value iteration): give --backend cpu",
            game.layer_descriptor(layer)
        )));
    }
    let mut passes = phases.time(
        |p| &mut p.setup,
        || backend.layer_passes(game, layer, values, lower),
    )?;
    // A device's share of that set-up, in phases of its own.
    let (upload, kernels) = passes.device_setup();
    phases.setup -= upload + kernels;
    phases.upload += upload;
    phases.kernels += kernels;
    let mut recorder = Recorder::new(options.record_every);
    let host = backend.host_table(values);
    // Pass 0 runs on a resumed layer too: it puts every value held into the
    // frontier, so what was decided before the stop reaches its predecessors.
    let pass = |initial: bool, number: usize, passes: &mut dyn RetroPasses| -> Result<PassCount> {
        let pass = RetroPass {
            label: format!("layer {layer} pass {number}"),
            progress,
        };
        progress.begin_pass(&pass.label, passes.units());
        let count = if initial {
            passes.initial(&pass)
        } else {
            passes.later(&pass)
        }?;
        progress.end_pass();
        // A pass cut short by a request to stop is not recorded: what it
        // decided stays in the table (every value held is final) and a
        // resumed run's pass 0 takes it up.
        check_stop(progress)?;
        Ok(count)
    };
    let mut initial = true;
    let mut pass_log = Vec::new();
    loop {
        let number = if initial { 0 } else { examined.len() };
        let passes_before = phases.passes;
        let count = phases.time(|p| &mut p.passes, || pass(initial, number, &mut *passes))?;
        pass_log.push(PassLog {
            pass: number,
            seconds: phases.passes - passes_before,
            count,
        });
        initial = false;
        examined.push(count.examined);
        phases.time(
            |p| &mut p.records,
            || recorder.pass_done(&mut *passes, host, examined),
        )?;
        if count.marked == 0 {
            break;
        }
    }
    phases.time(
        |p| &mut p.fill,
        || passes.fill_undecided(game.undecided_value()),
    )?;
    phases.time(
        |p| &mut p.twins,
        || {
            passes.fill_from_twins(&RetroPass {
                label: format!("layer {layer} symmetric fill"),
                progress,
            })
        },
    )?;
    phases.time(|p| &mut p.sync, || passes.sync())?;
    drop(passes);
    phases.time(|p| &mut p.records, || record(host, examined, true))?;
    Ok(pass_log)
}

/// Solves an acyclic layer
/// ([`LayerLinks::acyclic_layer`](crate::space::LayerLinks::acyclic_layer))
/// in one sweep that reads the solved layers `reached` from the store (the layer below
/// as carried, `next`, when it reaches no other), and records it
/// (unfinished when a stop cut the sweep short: a resumed sweep skips what
/// it decided). The positions examined, as the one pass's count, and
/// where the time went.
fn sweep_acyclic_layer<G: LayeredGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    layer: usize,
    values: &B::Layer,
    reached: &[usize],
    next: Below<'_, B::Layer>,
    options: &RetroOptions,
) -> Result<(Vec<u64>, Phases)> {
    let mut phases = Phases::default();
    let carried = match next {
        Below::Next(carried) if only_the_next(layer, reached) => Some(carried),
        _ => None,
    };
    let opened = phases.time(
        |p| &mut p.reading_below,
        || match carried {
            Some(_) => Ok(Vec::new()),
            None => solved_layers_below(backend, game, layer, reached, options),
        },
    )?;
    let lower: Vec<Option<&B::Layer>> = match carried {
        Some(carried) => {
            let mut lower = vec![None; layer];
            if let Some(below) = layer.checked_sub(1) {
                lower[below] = carried;
            }
            lower
        }
        None => opened.iter().map(Option::as_ref).collect(),
    };
    let pass = RetroPass {
        label: format!("layer {layer} sweep"),
        progress: options.progress,
    };
    let host = backend.host_table(values);
    let mut due = RecordDue::after(options.record_every);
    // The records taken while the sweep runs, apart from its time.
    let mut recording = 0.0;
    let mut record_when_due = || {
        if !due.reached() {
            return Ok(());
        }
        let started = Instant::now();
        record_unfinished_sweep(host)?;
        recording += started.elapsed().as_secs_f64();
        due = RecordDue::after(options.record_every);
        Ok(())
    };
    let sweep_started = Instant::now();
    let sweep = LayerSweep {
        layer,
        values,
        lower: &lower,
        pass: &pass,
    };
    let examined = backend.sweep_acyclic(game, &sweep, &mut record_when_due)?;
    phases.sweep += sweep_started.elapsed().as_secs_f64() - recording;
    phases.records += recording;
    drop(lower);
    drop(opened);
    if options.progress.stop_requested() {
        record_unfinished_sweep(host)?;
        check_stop(options.progress)?;
    }
    phases.time(|p| &mut p.records, || record(host, &[examined], true))?;
    check_stop(options.progress)?;
    Ok((vec![examined], phases))
}

/// Records a sweep cut short: no pass completed, so a resumed run sweeps
/// again, skipping the positions already decided.
fn record_unfinished_sweep(values: &TwoBitTable) -> Result<()> {
    Checkpoint::default().write(values.storage())
}

/// When the next record of a long pass is due: `every` from now, or never
/// when that lies beyond what the clock can count (an interval of
/// `u64::MAX` seconds means no record before the end).
#[derive(Clone, Copy)]
pub(super) struct RecordDue(Option<Instant>);

impl RecordDue {
    pub(super) fn after(every: Duration) -> Self {
        RecordDue(Instant::now().checked_add(every))
    }

    pub(super) fn reached(&self) -> bool {
        self.0.is_some_and(|due| Instant::now() >= due)
    }
}

/// Records a layer's passes in its store once `every` has gone by since
/// the last record.
struct Recorder {
    every: Duration,
    last: Instant,
}

impl Recorder {
    fn new(every: Duration) -> Self {
        Recorder {
            every,
            last: Instant::now(),
        }
    }

    fn pass_done(
        &mut self,
        passes: &mut dyn RetroPasses,
        host: &TwoBitTable,
        examined: &[u64],
    ) -> Result<()> {
        if self.last.elapsed() >= self.every {
            passes.sync()?;
            record(host, examined, false)?;
            self.last = Instant::now();
        }
        Ok(())
    }
}

fn record(values: &TwoBitTable, examined: &[u64], complete: bool) -> Result<()> {
    Checkpoint {
        last_completed: Some(examined.len() as u64 - 1),
        counts: examined.to_vec(),
        complete,
        ..Default::default()
    }
    .write(values.storage())
}

/// The report of `layer`: solved from `started` (None: found solved in
/// the store) with its `phases`, the count's added.
fn layer_report<G: LayeredGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    layer: usize,
    values: &B::Layer,
    examined: Vec<u64>,
    started: Option<Instant>,
    mut phases: Phases,
) -> LayerReport {
    let [first_wins, second_wins, draws] =
        phases.time(|p| &mut p.count, || backend.count(game, layer, values));
    // Each block counts for the positions its cells stand for.
    let states = game
        .layer_blocks(layer)
        .iter()
        .enumerate()
        .map(|(b, block)| game.block_weight(layer, b) * block.len)
        .sum();
    LayerReport {
        layer,
        states,
        stored: game.layer_size(layer),
        first_wins,
        second_wins,
        draws,
        examined,
        seconds: started.map_or(0.0, |t| t.elapsed().as_secs_f64()),
        phases,
        pass_log: Vec::new(),
        already_solved: started.is_none(),
    }
}
