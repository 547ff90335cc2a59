//! `bitsolve retro`: two-bit retrograde analysis of a two-player game into
//! a database of solved layers (read by `query`, `play` and `serve` through
//! [`crate::database`]). Written once for every [`TwoPlayerGame`]; the
//! games' rules stay in their files.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use serde_json::json;

use super::device::DeviceArgs;
use super::format::{bytes, group_digits};
use super::games::TwoPlayerSpec;
use super::interrupt::{arm, stop_on_signals};
use super::memory::peak_rss;
use super::mpi_job::{Distributed, Job};
use super::progress::Display;
use super::{BackendArg, thread_pool};
use crate::backend::GpuBackend;
use crate::backend::gpu::{GpuDevice, check_device_layer};
use crate::error::{Error, Result};
use crate::games::two_player::{TwoPlayerGame, TwoPlayerVisitor};
use crate::progress::Stoppable;
use crate::search::backend::Backend;
use crate::search::retro2::distances::{
    LayerDistances, NO_DISTANCE, Values, read_distances, stored_layer_distances,
};
use crate::search::retro2::{
    BITS_PER_POSITION, LayerReport, Player, RECORD_EVERY, RetroOptions, Value, layers_read,
    open_layer, solve_layer_range,
};
use crate::search::{Progress, Silent};
use crate::table::{Backing, TwoBitTable};

#[derive(Args, Debug)]
pub struct RetroArgs {
    #[command(subcommand)]
    game: TwoPlayerSpec,
    /// Solve layers 1..=G (the same as --layers 1..G; for Fox-and-Geese,
    /// up to G geese).
    #[arg(long, global = true, value_name = "G", conflicts_with = "layers")]
    geese: Option<usize>,
    /// Solve layers A..B, both included (Fox-and-Geese: geese on the board,
    /// Dodgem: cars). Where layers are independent (Fox-and-Geese with
    /// --capture-wins) any range runs alone; otherwise the layer below A
    /// must be solved in the --store. Dodgem solves all its layers by
    /// default.
    #[arg(long, global = true, value_name = "A..B", value_parser = parse_layers)]
    layers: Option<(usize, usize)>,
    /// Keep each solved layer as a file in DIR; layers already solved there
    /// are skipped, an interrupted one is resumed.
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
    /// Where the passes run: the CPU's cores, or the GPU (the layer and
    /// the one below in device memory; the rules of Fox-and-Geese and
    /// Dodgem).
    #[arg(long, value_enum, default_value = "cpu", global = true)]
    backend: BackendArg,
    #[command(flatten)]
    device: DeviceArgs,
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// With --store: record a layer's progress there at most every SECONDS
    /// (0: after every pass). Each record writes the layer's whole table;
    /// a stopped run resumes from the last one.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = RECORD_EVERY.as_secs())]
    checkpoint_every: u64,
    /// With --store: also keep each layer's distances to the end under
    /// optimal play (plies; one byte a position, the few longer ones kept
    /// apart), which `query` prints and `play` follows.
    #[arg(long, global = true)]
    distances: bool,
    /// Print one JSON object on stdout instead of a table.
    #[arg(long, global = true)]
    json: bool,
    /// No progress bar (a library caller that did not ask for one).
    #[arg(skip)]
    silent: bool,
}

/// A `retro` run as a library call (the Python binding's `retro`): the
/// flags of `bitsolve retro` on the CPU, without `--json`; the report comes
/// back as the JSON object `bitsolve retro --json` prints.
pub struct RetroRequest {
    /// Layers A..B, both included (`--layers`); `None`: the game's default.
    pub layers: Option<(usize, usize)>,
    pub store: Option<PathBuf>,
    pub threads: Option<usize>,
    /// `--checkpoint-every`, in seconds.
    pub checkpoint_every: u64,
    pub distances: bool,
    /// Show the progress bar on a terminal's stderr, as the command does.
    pub progress: bool,
    /// Once set (by another thread), the run stops at its next chunk of
    /// work with [`Error::Interrupted`]; a stored run resumes later.
    pub stop: Option<Arc<AtomicBool>>,
}

/// Solves `request`'s layers of `game` in this process and returns what
/// `bitsolve retro --json` prints for them.
pub fn retro_json(game: TwoPlayerSpec, request: RetroRequest) -> Result<serde_json::Value> {
    let args = RetroArgs {
        game,
        geese: None,
        layers: request.layers,
        store: request.store,
        backend: BackendArg::Cpu,
        device: DeviceArgs::default(),
        threads: request.threads,
        checkpoint_every: request.checkpoint_every,
        distances: request.distances,
        json: true,
        silent: !request.progress,
    };
    let job = Job::none();
    let backend = job.backend(true);
    let json = args.game.visit(Retro {
        args: &args,
        device: None,
        distributed: backend.distributed(),
        stop: request.stop.as_deref(),
    })?;
    Ok(json.expect("a run with --json reports"))
}

/// "A..B" (or "A..=B", or one layer "A") as the inclusive range (A, B).
pub(super) fn parse_layers(text: &str) -> std::result::Result<(usize, usize), String> {
    let number = |part: &str| {
        part.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{text}' is not a range of layers like 27..31"))
    };
    let (first, last) = match text.split_once("..") {
        Some((first, last)) => (number(first)?, number(last.trim_start_matches('='))?),
        None => (number(text)?, number(text)?),
    };
    if first > last {
        return Err(format!(
            "the range {text} is empty (its first layer is above its last)"
        ));
    }
    Ok((first, last))
}

/// The layers to solve: from `--layers A..B`, `--geese G` (1..G) or the
/// game's default. Layer 0 (no pieces) is solved with any range that
/// starts at 1 and needs the layer below.
fn layer_range<G: TwoPlayerGame>(args: &RetroArgs, game: &G) -> Result<RangeInclusive<usize>> {
    let max = game.max_layer();
    let (first, last) = match (args.layers, args.geese, game.default_layers()) {
        (Some(range), _, _) => range,
        (None, Some(top), _) => (1, top),
        (None, None, Some(layers)) => (*layers.start(), *layers.end()),
        (None, None, None) => {
            return Err(Error::InvalidParameter(format!(
                "give --layers A..B: layers 1..{max} run from {} to {}",
                game.layer_name(1),
                game.layer_name(max)
            )));
        }
    };
    // --geese 0 asks for the empty range 1..0: refused as --layers 0..0 is,
    // not run as a search of nothing.
    let from_geese = args.layers.is_none() && args.geese.is_some();
    if first > max || last > max || (first == 0 && args.layers.is_some()) || last < first {
        let given = if from_geese {
            format!("--geese {last}")
        } else {
            format!("{first}..{last}")
        };
        return Err(Error::InvalidParameter(format!(
            "layers run from 1 to {max} ({}), got {given}",
            game.layer_name(max)
        )));
    }
    let first = if first <= 1 && !game.independent_layers() {
        0
    } else {
        first.max(1)
    };
    Ok(first..=last)
}

/// The `retro` command: solves a range of layers, as a table or JSON.
struct Retro<'a> {
    args: &'a RetroArgs,
    /// Set when the passes run on the GPU.
    device: Option<&'a GpuDevice>,
    /// The layers are solved across the processes of an MPI job.
    distributed: Distributed<'a>,
    /// Asks the run to stop (see [`RetroRequest::stop`]).
    stop: Option<&'a AtomicBool>,
}

pub(super) fn run_retro(args: RetroArgs, job: &Job) -> Result<()> {
    let device = args.device.open(args.backend, job)?;
    let backend = job.backend(device.is_none());
    let json = args.game.visit(Retro {
        args: &args,
        device: device.as_ref(),
        distributed: backend.distributed(),
        stop: stop_on_signals(job),
    })?;
    if let Some(json) = json {
        println!("{json}");
    }
    Ok(())
}

impl Retro<'_> {
    /// Solves `layers` in this process, or across the MPI job.
    fn solve<G: TwoPlayerGame>(
        &self,
        game: &G,
        layers: RangeInclusive<usize>,
        options: &RetroOptions,
    ) -> Result<Vec<LayerReport>> {
        if let Some(device) = self.device {
            return solve_layer_range(&GpuBackend::new(device), game, layers, options);
        }
        #[cfg(feature = "mpi")]
        if let Some(mpi) = self.distributed.backend {
            return solve_layer_range(mpi, game, layers, options);
        }
        solve_layer_range(&crate::backend::CpuBackend, game, layers, options)
    }

    /// The machine the passes run on, for the header.
    fn machine(&self, pool: &rayon::ThreadPool) -> String {
        if let Some(device) = self.device {
            return GpuBackend::new(device).describe();
        }
        pool.install(|| self.distributed.describe())
            .unwrap_or_else(|| format!("{} threads", pool.current_num_threads()))
    }

    /// Bits per position while a layer is solved: the GPU's passes keep
    /// the values and two one-bit mark tables on the device, and the values
    /// alone in the host copy.
    fn bits_per_position(&self) -> u64 {
        match self.device {
            Some(_) => 4,
            None => BITS_PER_POSITION,
        }
    }
}

impl TwoPlayerVisitor for Retro<'_> {
    type Output = Option<serde_json::Value>;

    /// Checks the flags, solves the layers (a row printed as each
    /// finishes), adds their distances where asked, then reports: with
    /// `--json`, the report is returned for the caller to print.
    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<Option<serde_json::Value>> {
        // The game is read: a signal now stops the work, not the process.
        arm(self.stop);
        let args = self.args;
        let layers = layer_range(args, game)?;
        self.check_distance_flags()?;
        let top = *layers.end();
        if self.device.is_some() {
            // Refused before any layer is solved, with the game's name.
            for layer in layers.clone() {
                check_device_layer(game, layer)?;
            }
        }
        let pool = thread_pool(args.threads)?;
        let workers = self.machine(&pool);
        let bits = self.bits_per_position();
        let display = if args.json {
            Display::new(None, None)
        } else {
            Display::new(Some(table_header(game, top, &workers, bits)), None)
        };
        let (reports, peaks) = self.solve_printing_rows(game, layers, &pool, &display)?;
        let longest = match &args.store {
            Some(dir) if args.distances => {
                let shown: &dyn Progress = if args.silent { &Silent } else { &display };
                let mut stoppable = None;
                let progress = Stoppable::wrap(shown, self.stop, &mut stoppable);
                let record_every = Duration::from_secs(args.checkpoint_every);
                let result = pool.install(|| {
                    store_distances(
                        game,
                        &reports,
                        dir,
                        args.game.name(),
                        progress,
                        record_every,
                    )
                });
                display.finish();
                result?
            }
            _ => BTreeMap::new(),
        };
        display.print_header();
        // Layer 0 (no pieces: decided by the rules) is solved but not shown.
        let shown: Vec<&LayerReport> = reports.iter().filter(|r| r.layer > 0).collect();
        if args.json {
            return Ok(Some(self.json(game, top, &shown, &peaks, &longest)));
        }
        self.print_summary(game, &shown, &longest);
        Ok(None)
    }
}

impl Retro<'_> {
    /// Refuses `--distances` where they cannot be kept: across processes,
    /// or without a store.
    fn check_distance_flags(&self) -> Result<()> {
        let args = self.args;
        if !args.distances {
            return Ok(());
        }
        if self.distributed.processes() > 1 {
            return Err(Error::Unsupported(
                "--distances are computed in one process: solve the values across the job, then rerun with --distances in one process".into(),
            ));
        }
        if args.store.is_none() {
            return Err(Error::InvalidParameter(
                "--distances are kept beside the values: give --store DIR".into(),
            ));
        }
        Ok(())
    }

    /// Solves `layers` on `pool`, printing each layer's row on `display`
    /// as it finishes (long runs show their progress); returns the reports
    /// and the process's peak resident memory when each layer finished.
    fn solve_printing_rows<G: TwoPlayerGame>(
        &self,
        game: &G,
        layers: RangeInclusive<usize>,
        pool: &rayon::ThreadPool,
        display: &Display,
    ) -> Result<(Vec<LayerReport>, BTreeMap<usize, u64>)> {
        let args = self.args;
        // The peak is not reset between layers (that would also reset what
        // the system reports of the whole run to timing tools): run one
        // layer with --layers G..G for its own peak.
        let peak_of_layer = Mutex::new(BTreeMap::new());
        let print_layer = |report: &LayerReport| {
            let peak = peak_rss();
            if let Some(peak) = peak {
                peak_of_layer.lock().unwrap().insert(report.layer, peak);
            }
            if report.layer == 0 {
                return;
            }
            if !args.json {
                display.print_header();
                display.suspend(|| print_row(report, peak));
            } else if self.distributed.reports() && !args.silent {
                // The object comes at the end: a line per layer on stderr
                // keeps each layer's figures in the log of a long run that
                // is stopped before it (and resumed by another process).
                display.suspend(|| eprintln!("bitsolve: {}", layer_line(game, report, peak)));
            }
        };
        let shown: &dyn Progress = if self.distributed.reports() && !args.silent {
            display
        } else {
            &Silent
        };
        let mut stoppable = None;
        let progress = Stoppable::wrap(shown, self.stop, &mut stoppable);
        let options = RetroOptions {
            backing: args
                .store
                .clone()
                .map(Backing::Directory)
                .unwrap_or(Backing::Heap),
            progress,
            on_layer: &print_layer,
            record_every: Duration::from_secs(args.checkpoint_every),
        };
        let reports = pool.install(|| self.solve(game, layers, &options));
        display.finish();
        Ok((reports?, peak_of_layer.into_inner().unwrap()))
    }

    /// The report as one JSON object: a row per layer shown, with its peak
    /// memory and (where computed) its longest distance.
    fn json<G: TwoPlayerGame>(
        &self,
        game: &G,
        top: usize,
        shown: &[&LayerReport],
        peaks: &BTreeMap<usize, u64>,
        longest: &BTreeMap<usize, u16>,
    ) -> serde_json::Value {
        let (first, second) = (Player::First, Player::Second);
        let won = |player| format!("won_for_{}", game.side_name(player));
        let layers: Vec<serde_json::Value> = shown
            .iter()
            .map(|r| {
                let mut row = json!({
                    "layer": r.layer,
                    "states": r.states,
                    "stored": r.stored,
                    "stored_bytes": r.stored.div_ceil(4),
                    "draws": r.draws,
                    "passes": r.passes(),
                    "examined": r.examined,
                    "full_scan_work": r.full_scan_work(),
                    "seconds": r.seconds,
                    "already_solved": r.already_solved,
                    "peak_rss_bytes": peaks.get(&r.layer),
                });
                if let Some(longest) = longest.get(&r.layer) {
                    row["longest_distance"] = (*longest).into();
                }
                row[won(first)] = r.first_wins.into();
                row[won(second)] = r.second_wins.into();
                row
            })
            .collect();
        let mut json = json!({
            "game": game.layer_descriptor(top),
            "sides": [game.side_name(first), game.side_name(second)],
            "bits_per_position": self.bits_per_position(),
            "layers": layers,
        });
        if let Some(traffic) = self.distributed.traffic_json() {
            json["backend"] = "mpi".into();
            json["mpi"] = traffic;
        }
        if let Some(device) = self.device {
            json["backend"] = "gpu".into();
            json["device"] = device.describe().into();
        }
        json
    }

    /// The lines under the table: the work against full scans, the store,
    /// the MPI traffic and each layer's longest distance.
    fn print_summary<G: TwoPlayerGame>(
        &self,
        game: &G,
        shown: &[&LayerReport],
        longest: &BTreeMap<usize, u16>,
    ) {
        let examined: u64 = shown.iter().map(|r| r.examined.iter().sum::<u64>()).sum();
        let full: u64 = shown.iter().map(|r| r.full_scan_work()).sum();
        let seconds: f64 = shown.iter().map(|r| r.seconds).sum();
        // Sweeps of acyclic layers count the moves they read, so a run of
        // mostly such layers may examine more than the scans would visit.
        let ratio = if full >= examined {
            format!("{:.1}x fewer", full as f64 / examined.max(1) as f64)
        } else {
            format!("{:.1}x more", examined as f64 / full.max(1) as f64)
        };
        println!(
            "total {:.2} s; {} positions examined where repeated full scans (Algorithm 4) would visit {} ({ratio})",
            seconds,
            group_digits(examined),
            group_digits(full),
        );
        if let Some(dir) = &self.args.store {
            println!("database in {}", dir.display());
        }
        self.distributed.print_traffic();
        for (layer, plies) in longest {
            if *layer > 0 {
                println!(
                    "distances of {}: the longest finite one is {plies} plies",
                    game.layer_name(*layer)
                );
            }
        }
    }
}

/// The table's two header lines: the game and how it is solved, then the
/// columns [`print_row`] fills.
fn table_header<G: TwoPlayerGame>(game: &G, top: usize, workers: &str, bits: u64) -> String {
    format!(
        "{} · two-bit retrograde analysis · {} · {} bits per position while solving\n{:>5}  {:>15}  {:>10}  {:>6}  {:>15}  {:>15}  {:>13}  {:>15}  {:>9}  {:>10}",
        game.layer_descriptor(top),
        workers,
        bits,
        "layer",
        "states",
        "stored",
        "passes",
        format!("won for {}", game.side_name(Player::First)),
        format!("won for {}", game.side_name(Player::Second)),
        "drawn",
        "examined",
        "time",
        "peak RSS"
    )
}

/// Computes (or finds) the distances of every layer `reports` solved into
/// the store, lowest first, each reading the layers below it reaches;
/// returns each layer's longest finite distance.
fn store_distances<G: TwoPlayerGame>(
    game: &G,
    reports: &[LayerReport],
    dir: &Path,
    name: &str,
    progress: &dyn Progress,
    record_every: Duration,
) -> Result<BTreeMap<usize, u16>> {
    let backing = Backing::Directory(dir.to_path_buf());
    let read_only = Backing::ReadOnly(dir.to_path_buf());
    let silent = Display::new(None, None);
    let mut longest = BTreeMap::new();
    // Distances computed or read, kept while a later layer reads them.
    let mut held: BTreeMap<usize, LayerDistances> = BTreeMap::new();
    for (index, report) in reports.iter().enumerate() {
        let layer = report.layer;
        let reached = layers_read(game, layer);
        for &below in &reached {
            if held.contains_key(&below) {
                continue;
            }
            let Some(distances) = read_distances(game, below, dir)? else {
                return Err(Error::InvalidParameter(format!(
                    "distances of {} read those of {}, which {} lacks; run: bitsolve retro {name}{} --layers 1..{layer} --distances --store {}",
                    game.layer_name(layer),
                    game.layer_name(below),
                    dir.display(),
                    game.variant_flags(),
                    dir.display()
                )));
            };
            held.insert(below, distances);
        }
        let this = open_layer(game, layer, &read_only, &silent)?.0;
        let below_values = reached
            .iter()
            .map(|&below| Ok((below, open_layer(game, below, &read_only, &silent)?.0)))
            .collect::<Result<BTreeMap<_, _>>>()?;
        let value = StoredValues {
            layer,
            this: &this,
            below: &below_values,
        };
        let lower = |at: usize, rank: u64| {
            held.get(&at)
                .map_or(NO_DISTANCE, |distances| distances.get(rank))
        };
        let found = stored_layer_distances(
            game,
            layer,
            &backing,
            &value,
            &lower,
            progress,
            record_every,
        )?;
        longest.insert(layer, found.longest().unwrap_or(0));
        let later: Vec<usize> = reports[index + 1..]
            .iter()
            .flat_map(|later| layers_read(game, later.layer))
            .collect();
        held.retain(|kept, _| later.contains(kept));
        if later.contains(&layer) {
            // As the store holds it (mapped): a layer above then holds its
            // own bytes and only the pages of this one its moves read.
            held.insert(layer, found);
        }
    }
    Ok(longest)
}

/// The values a layer's distance pass reads: the layer's own table and
/// those of the layers below that its moves reach.
struct StoredValues<'t> {
    layer: usize,
    this: &'t TwoBitTable,
    below: &'t BTreeMap<usize, TwoBitTable>,
}

impl StoredValues<'_> {
    fn table(&self, at: usize) -> &TwoBitTable {
        if at == self.layer {
            self.this
        } else {
            self.below
                .get(&at)
                .expect("moves reach only the layers the game names")
        }
    }
}

impl Values for StoredValues<'_> {
    fn value(&self, at: usize, rank: u64) -> Value {
        Value::from_bits(self.table(at).get(rank))
    }

    fn prefetch(&self, at: usize, rank: u64) {
        self.table(at).prefetch(rank);
    }
}

/// "layer 7 solved: 77,527,296 positions, won for white 17,415,984, for
/// black 17,415,984, drawn 42,695,328; 12 passes, 1.56 s, peak RSS 16.10
/// MiB": a layer's row as a sentence, for a log.
fn layer_line<G: TwoPlayerGame>(game: &G, report: &LayerReport, peak: Option<u64>) -> String {
    let how = if report.already_solved {
        "read from the store".to_string()
    } else {
        let passes = report.passes();
        let plural = if passes == 1 { "" } else { "es" };
        format!("{passes} pass{plural}, {:.2} s", report.seconds)
    };
    format!(
        "layer {} {}: {} positions, won for {} {}, for {} {}, drawn {}; {how}, peak RSS {}",
        report.layer,
        if report.already_solved {
            "was solved"
        } else {
            "solved"
        },
        group_digits(report.states),
        game.side_name(Player::First),
        group_digits(report.first_wins),
        game.side_name(Player::Second),
        group_digits(report.second_wins),
        group_digits(report.draws),
        peak.map_or("?".to_string(), bytes)
    )
}

fn print_row(report: &LayerReport, peak: Option<u64>) {
    let time = if report.already_solved {
        "stored".to_string()
    } else {
        format!("{:.2} s", report.seconds)
    };
    println!(
        "{:>5}  {:>15}  {:>10}  {:>6}  {:>15}  {:>15}  {:>13}  {:>15}  {:>9}  {:>10}",
        report.layer,
        group_digits(report.states),
        bytes(report.stored.div_ceil(4)),
        report.passes(),
        group_digits(report.first_wins),
        group_digits(report.second_wins),
        group_digits(report.draws),
        group_digits(report.examined.iter().sum()),
        time,
        peak.map_or("?".to_string(), bytes)
    );
}
