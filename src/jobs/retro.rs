//! Two-bit retrograde analysis of a two-player game into a database of
//! solved layers, as every shell runs it: the layers chosen and checked,
//! the machine chosen, the layers solved, their distances added where
//! asked, and the report (`bitsolve retro`, Python's `retro`).

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Serialize;

use super::Report;
use super::cluster::{Distributed, JobBackend, MpiJob};
use super::machine::{Machine, Processor, open_device};
use super::memory::peak_rss;
use super::spec::TwoPlayerSpec;
use super::threads::thread_pool;
use crate::backend::Traffic;
use crate::backend::gpu::{GpuDevice, check_device_layer};
use crate::error::{Error, Result};
use crate::games::{TwoPlayerGame, TwoPlayerVisitor};
use crate::progress::{Progress, Stoppable};
use crate::search::retro2::distances::store_layers_distances;
use crate::search::retro2::{LayerReport, PassLog, Phases, RECORD_EVERY, RetroOptions};
use crate::space::Player;
use crate::table::Backing;

/// Which layers to solve and where: the flags of `bitsolve retro` that are
/// not about its output.
#[derive(Clone, Debug)]
pub struct RetroRequest {
    /// Layers A..B, both included (`--layers`); `None`: `top` or the
    /// game's default.
    pub layers: Option<(usize, usize)>,
    /// Layers 1..=G (`--geese G`), where `layers` is not given.
    pub top: Option<usize>,
    /// Keep each solved layer as a file in this directory; layers solved
    /// there are skipped, an interrupted one is resumed.
    pub store: Option<PathBuf>,
    /// The CPU's cores or the GPU.
    pub processor: Processor,
    /// With the GPU: the device memory its tables may take.
    pub device_memory: Option<u64>,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// With a store: record a layer's progress there at most every so many
    /// seconds (0: after every pass).
    pub checkpoint_every: u64,
    /// With a store: also keep each layer's distances to the end under
    /// optimal play.
    pub distances: bool,
}

impl Default for RetroRequest {
    fn default() -> Self {
        RetroRequest {
            layers: None,
            top: None,
            store: None,
            processor: Processor::Cpu,
            device_memory: None,
            threads: None,
            checkpoint_every: RECORD_EVERY.as_secs(),
            distances: false,
        }
    }
}

/// The layers a run solved, with the process's peak resident memory when
/// each one finished (the peak is not reset between layers: a layer run
/// alone gives its own).
pub struct SolvedLayers {
    /// Each layer's report, lowest first (layer 0 included where solved).
    pub reports: Vec<LayerReport>,
    /// Peak resident memory, in bytes, when each layer finished.
    pub peaks: BTreeMap<usize, u64>,
}

/// A retrograde run ready to start: its GPU opened and its place in an MPI
/// job known.
pub struct Retro<'job> {
    request: RetroRequest,
    pool: rayon::ThreadPool,
    device: Option<GpuDevice>,
    backend: JobBackend<'job>,
}

impl<'job> Retro<'job> {
    /// Prepares `request`'s run in this process of `job`.
    pub fn prepare(request: RetroRequest, job: &'job MpiJob) -> Result<Retro<'job>> {
        super::check_store(request.store.as_ref())?;
        if request.layers.is_some() && request.top.is_some() {
            return Err(Error::InvalidParameter(
                "give the layers once, as a range (--layers A..B) or a top layer (--geese G), not both".into(),
            ));
        }
        let device = open_device(request.processor, request.device_memory, job)?;
        let backend = job.backend(device.is_none());
        let pool = thread_pool(request.threads)?;
        Ok(Retro {
            request,
            pool,
            device,
            backend,
        })
    }

    /// The request this run carries out.
    pub fn request(&self) -> &RetroRequest {
        &self.request
    }

    /// Where the passes run.
    pub fn machine(&self) -> Machine<'_> {
        Machine::choose(self.backend.distributed(), None, self.device.as_ref())
    }

    /// Where the passes run, for a report's header.
    pub fn describe(&self) -> String {
        self.machine().describe(&self.pool)
    }

    /// The MPI job the layers are solved across, if any.
    pub fn distributed(&self) -> Distributed<'_> {
        self.backend.distributed()
    }

    /// The layers to solve, from `layers`, `top` (1..=G) or the game's
    /// default, checked (with the flags that name them) before any work:
    /// their range, distances (kept in one process, beside a store) and
    /// whether the GPU can solve each. Layer 0 (no pieces) is solved with
    /// any range that starts at 1 and needs the layer below.
    pub fn layers<G: TwoPlayerGame>(&self, game: &G) -> Result<RangeInclusive<usize>> {
        let layers = self.layer_range(game)?;
        self.check_distances()?;
        if self.device.is_some() {
            // Refused before any layer is solved, with the game's name.
            for layer in layers.clone() {
                check_device_layer(game, layer)?;
            }
        }
        Ok(layers)
    }

    fn layer_range<G: TwoPlayerGame>(&self, game: &G) -> Result<RangeInclusive<usize>> {
        let request = &self.request;
        let max = game.max_layer();
        let (first, last) = match (request.layers, request.top, game.default_layers()) {
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
        // --geese 0 asks for the empty range 1..0: refused as --layers 0..0
        // is, not run as a search of nothing.
        let from_top = request.layers.is_none() && request.top.is_some();
        if first > max || last > max || (first == 0 && request.layers.is_some()) || last < first {
            let given = if from_top {
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

    /// Refuses distances where they cannot be kept: across processes, or
    /// without a store.
    fn check_distances(&self) -> Result<()> {
        if !self.request.distances {
            return Ok(());
        }
        if self.distributed().processes() > 1 {
            return Err(Error::Unsupported(
                "--distances are computed in one process: solve the values across the job, then rerun with --distances in one process".into(),
            ));
        }
        if self.request.store.is_none() {
            return Err(Error::InvalidParameter(
                "--distances are kept beside the values: give --store DIR".into(),
            ));
        }
        Ok(())
    }

    /// Solves `layers` of `game`, calling `on_layer` with each layer's
    /// report and the peak resident memory when it finished (long runs
    /// show their progress); `stop`, once set, ends the run at its next
    /// chunk of work (a stored run resumes).
    pub fn solve<G: TwoPlayerGame>(
        &self,
        game: &G,
        layers: RangeInclusive<usize>,
        progress: &dyn Progress,
        on_layer: &(dyn Fn(&LayerReport, Option<u64>) + Sync),
        stop: Option<&AtomicBool>,
    ) -> Result<SolvedLayers> {
        let peaks = Mutex::new(BTreeMap::new());
        let record = |report: &LayerReport| {
            let peak = peak_rss();
            if let Some(peak) = peak {
                peaks.lock().unwrap().insert(report.layer, peak);
            }
            on_layer(report, peak);
        };
        let mut stoppable = None;
        let progress = Stoppable::wrap(progress, stop, &mut stoppable);
        let options = RetroOptions {
            backing: self
                .request
                .store
                .clone()
                .map(Backing::Directory)
                .unwrap_or(Backing::Heap),
            progress,
            on_layer: &record,
            record_every: Duration::from_secs(self.request.checkpoint_every),
        };
        let machine = self.machine();
        let reports = self
            .pool
            .install(|| machine.solve_layers(game, layers, &options))?;
        Ok(SolvedLayers {
            reports,
            peaks: peaks.into_inner().unwrap(),
        })
    }

    /// With `distances` asked for (and a store), computes (or finds) the
    /// distances of every layer `solved` holds and returns each one's
    /// longest finite distance; nothing otherwise. `name` is the game's
    /// registered name, for the command an error suggests.
    pub fn distances<G: TwoPlayerGame>(
        &self,
        game: &G,
        name: &str,
        solved: &SolvedLayers,
        progress: &dyn Progress,
        stop: Option<&AtomicBool>,
    ) -> Result<BTreeMap<usize, u16>> {
        let Some(dir) = self
            .request
            .store
            .as_ref()
            .filter(|_| self.request.distances)
        else {
            return Ok(BTreeMap::new());
        };
        let mut stoppable = None;
        let progress = Stoppable::wrap(progress, stop, &mut stoppable);
        let layers: Vec<usize> = solved.reports.iter().map(|r| r.layer).collect();
        let missing = |layer: usize, below: usize| {
            Error::InvalidParameter(format!(
                "distances of {} read those of {}, which {} lacks; run: bitsolve retro {name}{} --layers 1..{layer} --distances --store {}",
                game.layer_name(layer),
                game.layer_name(below),
                dir.display(),
                game.variant_flags(),
                dir.display()
            ))
        };
        let record_every = Duration::from_secs(self.request.checkpoint_every);
        self.pool.install(|| {
            store_layers_distances(game, &layers, dir, progress, record_every, &missing)
        })
    }

    /// The report of `solved`, the layers this retrograde analysis solved
    /// of `game` (with `longest`, their longest distances where computed);
    /// `top` is the highest layer asked for.
    pub fn report<G: TwoPlayerGame>(
        &self,
        game: &G,
        top: usize,
        solved: &SolvedLayers,
        longest: &BTreeMap<usize, u16>,
    ) -> RetroReport {
        let side = |player| game.side_name(player).to_string();
        let layers = shown(solved)
            .map(|r| RetroLayer {
                layer: r.layer,
                states: r.states,
                stored: r.stored,
                stored_bytes: r.stored.div_ceil(4),
                wins: Wins {
                    first: (side(Player::First), r.first_wins),
                    second: (side(Player::Second), r.second_wins),
                },
                draws: r.draws,
                passes: r.passes(),
                examined: r.examined.clone(),
                full_scan_work: r.full_scan_work(),
                seconds: r.seconds,
                phases: r.phases,
                pass_log: r.pass_log.clone(),
                already_solved: r.already_solved,
                peak_rss_bytes: solved.peaks.get(&r.layer).copied(),
                longest_distance: longest.get(&r.layer).copied(),
            })
            .collect();
        let machine = self.machine();
        let traffic = self.distributed().traffic();
        let device = machine.device();
        RetroReport {
            game: game.layer_descriptor(top),
            sides: [side(Player::First), side(Player::Second)],
            bits_per_position: machine.retro_bits_per_position(),
            layers,
            backend: match (&device, &traffic) {
                (Some(_), _) => Some("gpu"),
                (None, Some(_)) => Some("mpi"),
                (None, None) => None,
            },
            device: device.map(|d| d.describe()),
            mpi: traffic,
        }
    }
}

/// What a retrograde analysis job solved: the report of [`retro`] and
/// [`Retro::report`], whose [`Report::to_json`] is the object `bitsolve
/// retro --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RetroReport {
    /// The game and its highest layer asked for ("dodgem n=3 layer 4").
    pub game: String,
    /// The sides' names, the first player's first.
    pub sides: [String; 2],
    /// Bits the tables keep per position.
    pub bits_per_position: u64,
    /// Each layer solved above layer 0 (which the rules decide).
    pub layers: Vec<RetroLayer>,
    /// "gpu" or "mpi" where the passes ran there; absent on the CPU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<&'static str>,
    /// The GPU, where one ran the passes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    /// What each pass sent between the processes of an MPI job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mpi: Option<Traffic>,
}

/// One layer of a [`RetroReport`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RetroLayer {
    /// The layer.
    pub layer: usize,
    /// Positions in it.
    pub states: u64,
    /// Positions in its table (representatives only, with symmetry).
    pub stored: u64,
    /// Bytes of its two-bit table.
    pub stored_bytes: u64,
    /// Stored positions each side wins.
    #[serde(flatten)]
    pub wins: Wins,
    /// Stored positions drawn.
    pub draws: u64,
    /// Passes run on it.
    pub passes: usize,
    /// Positions examined in each pass.
    pub examined: Vec<u64>,
    /// Positions repeated full scans would have visited.
    pub full_scan_work: u64,
    /// Its wall time, seconds.
    pub seconds: f64,
    /// Where that time went.
    pub phases: Phases,
    /// Each pass this process ran over it.
    pub pass_log: Vec<PassLog>,
    /// It was already solved in the store.
    pub already_solved: bool,
    /// The process's peak memory once it was solved.
    pub peak_rss_bytes: Option<u64>,
    /// Its longest distance to the end, where distances were computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest_distance: Option<u16>,
}

/// Stored positions each side wins, with the side's name: serialised as
/// `won_for_<side>` keys (`won_for_white`, `won_for_black`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wins {
    /// The first player's name and wins.
    pub first: (String, u64),
    /// The second player's name and wins.
    pub second: (String, u64),
}

impl Serialize for Wins {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_map(
            [&self.first, &self.second].map(|(side, wins)| (format!("won_for_{side}"), wins)),
        )
    }
}

impl Report for RetroReport {}

/// The layers a report shows: layer 0 (no pieces: decided by the rules) is
/// solved but not shown.
pub fn shown(solved: &SolvedLayers) -> impl Iterator<Item = &LayerReport> {
    solved.reports.iter().filter(|r| r.layer > 0)
}

/// Solves `request`'s layers of `game` in this process and returns their
/// report (what `bitsolve retro --json` prints, the Python binding's
/// `retro`).
///
/// ```
/// use bitsolve::games::registry::GameOptions;
/// use bitsolve::jobs::retro::retro;
/// use bitsolve::jobs::{GameSpec, RetroRequest, TwoPlayerSpec};
/// use bitsolve::progress::Silent;
/// // Dodgem on 3 x 3: every layer (cars on the board), none drawn.
/// let options = GameOptions::default().with("n", 3);
/// let game = TwoPlayerSpec(GameSpec { name: "dodgem".into(), options });
/// let report = retro(&game, RetroRequest::default(), &Silent, None)?;
/// assert_eq!(report.sides, ["blue", "red"]);
/// let top = &report.layers[3];
/// assert_eq!((top.layer, top.states, top.draws), (4, 1512, 0));
/// # Ok::<(), bitsolve::Error>(())
/// ```
pub fn retro(
    game: &TwoPlayerSpec,
    request: RetroRequest,
    progress: &dyn Progress,
    stop: Option<&AtomicBool>,
) -> Result<RetroReport> {
    let job = MpiJob::none();
    let retro = Retro::prepare(request, &job)?;
    game.visit(WholeRetro {
        retro: &retro,
        name: game.name(),
        progress,
        stop,
    })
}

struct WholeRetro<'a> {
    retro: &'a Retro<'a>,
    name: &'a str,
    progress: &'a dyn Progress,
    stop: Option<&'a AtomicBool>,
}

impl TwoPlayerVisitor for WholeRetro<'_> {
    type Output = RetroReport;

    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<RetroReport> {
        let retro = self.retro;
        let layers = retro.layers(game)?;
        let top = *layers.end();
        let solved = retro.solve(game, layers, self.progress, &|_, _| {}, self.stop)?;
        let longest = retro.distances(game, self.name, &solved, self.progress, self.stop)?;
        Ok(retro.report(game, top, &solved, &longest))
    }
}
