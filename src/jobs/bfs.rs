//! A breadth-first search of a whole one-player space, as every shell runs
//! it: the request checked, the machine chosen, the search run and its
//! report (`bitsolve bfs`, Python's `Game.bfs`).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::Report;
use super::cluster::{JobBackend, MpiJob};
use super::machine::{Machine, Processor, open_device};
use super::threads::thread_pool;
use crate::backend::Traffic;
use crate::backend::gpu::GpuDevice;
use crate::error::{Error, Result};
use crate::games::registry::SpaceVisitor;
use crate::progress::{Progress, Stoppable};
use crate::search::{Algorithm, GoalReport, LayerIo, MeetReport, SearchOptions, SearchReport};
use crate::space::{Picture, Space};
use crate::table::Backing;

/// What to search and where: the flags of `bitsolve bfs` that are not
/// about its output.
#[derive(Clone, Debug)]
pub struct BfsRequest {
    /// Two-bit BFS, one-bit BFS or one-bit reachability.
    pub algorithm: Algorithm,
    /// The CPU's cores or the GPU.
    pub processor: Processor,
    /// With the GPU: the device memory its tables may take.
    pub device_memory: Option<u64>,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// Keep the table in a memory-mapped file in this directory; the same
    /// request resumes an interrupted run.
    pub store: Option<PathBuf>,
    /// Stop once this layer is complete.
    pub max_depth: Option<usize>,
    /// Bytes of a two-bit table in memory, the rest on disk in `store`.
    pub memory: Option<u64>,
    /// Search to half the goal's depth and join the halves (one-bit BFS of
    /// a space with an inversion symmetry).
    pub inversion: bool,
}

impl Default for BfsRequest {
    fn default() -> Self {
        BfsRequest {
            algorithm: Algorithm::TwoBitBfs,
            processor: Processor::Cpu,
            device_memory: None,
            threads: None,
            store: None,
            max_depth: None,
            memory: None,
            inversion: false,
        }
    }
}

/// A BFS ready to run: its request checked, its threads started, its GPU
/// opened and its place in an MPI job known.
pub struct Bfs<'job> {
    request: BfsRequest,
    pool: rayon::ThreadPool,
    device: Option<GpuDevice>,
    backend: JobBackend<'job>,
}

impl<'job> Bfs<'job> {
    /// Checks `request` (flags that cannot go together are refused before
    /// any work) and prepares its run in this process of `job`.
    pub fn prepare(request: BfsRequest, job: &'job MpiJob) -> Result<Bfs<'job>> {
        super::check_store(request.store.as_ref())?;
        let pool = thread_pool(request.threads)?;
        refuse_layer_flags(
            request.algorithm,
            &[("--max-depth", request.max_depth.is_some())],
        )?;
        if request.inversion && request.algorithm != Algorithm::OneBitBfs {
            return Err(Error::Unsupported(
                "--inversion joins the halves of a one-bit BFS: add --algo one-bit".into(),
            ));
        }
        if let Some(memory) = request.memory {
            refuse_disk_mode(&request, job)?;
            crate::backend::disk::DiskPlan::new(1, memory)?;
        }
        let device = open_device(request.processor, request.device_memory, job)?;
        let backend = job.backend(device.is_none());
        Ok(Bfs {
            request,
            pool,
            device,
            backend,
        })
    }

    /// The request this run carries out.
    pub fn request(&self) -> &BfsRequest {
        &self.request
    }

    /// Where the passes run.
    pub fn machine(&self) -> Machine<'_> {
        Machine::choose(
            self.backend.distributed(),
            self.request.memory,
            self.device.as_ref(),
        )
    }

    /// Where the passes run, for a report's header.
    pub fn describe(&self) -> String {
        self.machine().describe(&self.pool)
    }

    /// Whether this process reports (in an MPI job only the first does).
    pub fn reports(&self) -> bool {
        self.backend.distributed().reports()
    }

    /// The job's MPI traffic, for people, where it ran across one.
    pub fn distributed(&self) -> super::Distributed<'_> {
        self.backend.distributed()
    }

    /// Bytes of the search's table over `space`.
    pub fn table_bytes<S: Space>(&self, space: &S) -> u64 {
        space
            .size()
            .div_ceil(64 / self.request.algorithm.bits_per_state())
            * 8
    }

    /// Runs the search over `space`, reporting to `progress`; once `stop`
    /// is set the search stops at its next chunk of work with
    /// [`Error::Interrupted`] (a stored run resumes later).
    pub fn run<S: Space>(
        &self,
        space: &S,
        progress: &dyn Progress,
        stop: Option<&AtomicBool>,
    ) -> Result<SearchReport> {
        let mut stoppable = None;
        let progress = Stoppable::wrap(progress, stop, &mut stoppable);
        let options = SearchOptions {
            backing: match &self.request.store {
                Some(dir) => Backing::Directory(dir.clone()),
                None => Backing::Heap,
            },
            progress,
            meet_in_middle: self.request.inversion,
            max_depth: self.request.max_depth,
        };
        let machine = self.machine();
        self.pool
            .install(|| machine.search(space, self.request.algorithm, &options))
    }

    /// The report of `search`, a run of this BFS on `space`.
    pub fn report<S: Space + Picture>(&self, space: &S, search: &SearchReport) -> BfsReport {
        let machine = self.machine();
        BfsReport::new(
            space,
            search,
            self.pool.current_num_threads(),
            machine.name(),
            machine.device(),
            self.backend.distributed().traffic(),
        )
    }
}

/// One-bit reachability has no layers: flags about layers (each named
/// with whether it was given) cannot apply.
pub fn refuse_layer_flags(algorithm: Algorithm, flags: &[(&str, bool)]) -> Result<()> {
    if algorithm != Algorithm::OneBitReachability {
        return Ok(());
    }
    match flags.iter().find(|(_, given)| *given) {
        Some((flag, _)) => Err(Error::Unsupported(format!(
            "{flag} needs BFS layers, and --algo reach has none (use --algo two-bit or one-bit)"
        ))),
        None => Ok(()),
    }
}

/// `--memory` runs two-bit BFS in one process on the CPU, into a store.
fn refuse_disk_mode(request: &BfsRequest, job: &MpiJob) -> Result<()> {
    let refusal = if request.algorithm != Algorithm::TwoBitBfs {
        "--memory keeps a two-bit BFS table on disk: use it with --algo two-bit"
    } else if request.store.is_none() {
        "--memory keeps the table on disk: give --store DIR"
    } else if request.processor == Processor::Gpu {
        "--memory runs on the CPU with the table on disk: drop --backend gpu"
    } else if job.processes() > 1 {
        "--memory runs in one process: start it without mpirun"
    } else {
        return Ok(());
    };
    Err(Error::Unsupported(refusal.into()))
}

/// What a breadth-first search job found and what it cost: the report of
/// [`bfs`] and [`Bfs::report`], whose [`Report::to_json`] is the object
/// `bitsolve bfs --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BfsReport {
    /// The space's descriptor ("pancake n=11").
    pub game: String,
    /// The algorithm's name ("two-bit").
    pub algo: &'static str,
    /// The machine that ran it ("cpu", "gpu", "disk", "mpi").
    pub backend: &'static str,
    /// The GPU, when one ran it.
    pub device: Option<String>,
    /// Worker threads of this process.
    pub threads: usize,
    /// Positions per layer (layer 0 the start); `None` for reachability.
    pub layers: Option<Vec<u64>>,
    /// Stored representatives per layer, for a space folded by symmetry.
    pub representatives: Option<Vec<u64>>,
    /// Reachable positions of the whole space.
    pub total: u64,
    /// The deepest layer (the space's radius from its start).
    pub max_depth: Option<usize>,
    /// The first goal's distance, when it was reached.
    pub goal_distance: Option<usize>,
    /// Each goal position: reached or not, and whether that is final.
    pub goals: Vec<BfsGoal>,
    /// Ranks of up to [`crate::search::DEEPEST_SAMPLE`] deepest positions.
    pub deepest: Vec<u64>,
    /// Set when the search stopped halfway (meet in the middle).
    pub meet: Option<MeetReport>,
    /// The deepest positions drawn, one string each.
    pub deepest_positions: Vec<String>,
    /// Ranks of the space's index (the table's length).
    pub space_size: u64,
    /// The search ran to its end (not stopped at a depth limit).
    pub complete: bool,
    /// Passes over the table this run made.
    pub passes: u64,
    /// Positions expanded by this process.
    pub expanded: u64,
    /// Successor ranks generated by this process.
    pub successors: u64,
    /// Unseen positions whose parents were checked instead.
    pub parent_checks: u64,
    /// Bytes this process read from disk (a table on disk).
    pub bytes_read: u64,
    /// Bytes this process wrote to disk (a table on disk).
    pub bytes_written: u64,
    /// The same per layer.
    pub layer_io: Vec<LayerIo>,
    /// Successor ranks generated per second.
    pub successors_per_second: f64,
    /// Wall time of the search, seconds.
    pub seconds: f64,
    /// The layer a previous run had completed, when this one resumed.
    pub resumed_from: Option<u64>,
    /// The file holding the table, for a stored run.
    pub store: Option<PathBuf>,
    /// What each pass sent between the processes of an MPI job.
    pub mpi: Option<Traffic>,
}

/// A goal position in a [`BfsReport`]: the search's record of it, and
/// whether that record is final.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BfsGoal {
    /// Its rank, its layer and whether the search reached it.
    #[serde(flatten)]
    pub goal: GoalReport,
    /// Whether `reached` is final: a goal not reached by a search stopped
    /// at its depth limit may still be reachable.
    pub decided: bool,
}

impl Report for BfsReport {}

impl BfsReport {
    /// The report of `search` on `space`, run by `backend` (on `device`) with
    /// `threads` threads.
    fn new<S: Space + Picture>(
        space: &S,
        search: &SearchReport,
        threads: usize,
        backend: &'static str,
        device: Option<&GpuDevice>,
        mpi: Option<Traffic>,
    ) -> BfsReport {
        BfsReport {
            game: space.descriptor(),
            algo: search.algorithm.name(),
            backend,
            device: device.map(|d| d.describe()),
            threads,
            layers: search.layers.clone(),
            representatives: search.representatives.clone(),
            total: search.reachable,
            max_depth: search.max_depth(),
            goal_distance: search.goals.first().and_then(|goal| goal.distance),
            goals: search
                .goals
                .iter()
                .map(|goal| BfsGoal {
                    goal: goal.clone(),
                    decided: goal.reached || search.complete,
                })
                .collect(),
            deepest: search.deepest.clone(),
            meet: search.meet.clone(),
            deepest_positions: pictures(space, &search.deepest),
            space_size: space.size(),
            complete: search.complete,
            passes: search.passes,
            expanded: search.expanded,
            successors: search.successors,
            parent_checks: search.parent_checks,
            bytes_read: search.bytes_read,
            bytes_written: search.bytes_written,
            layer_io: search.layer_io.clone(),
            successors_per_second: search.successors_per_second(),
            seconds: search.seconds,
            resumed_from: search.resumed_from,
            store: search.store.clone(),
            mpi,
        }
    }
}

/// Runs `request` on `game` in this process and returns its report (what
/// `bitsolve bfs --json` prints, the Python binding's `Game.bfs`).
///
/// ```
/// use bitsolve::games::registry::GameOptions;
/// use bitsolve::jobs::{BfsRequest, GameSpec, bfs::bfs};
/// use bitsolve::progress::Silent;
/// let game = GameSpec { name: "pancake".into(), options: GameOptions::default().with("n", "6") };
/// let report = bfs(&game, BfsRequest::default(), &Silent, None).unwrap();
/// assert_eq!(report.total, 720);
/// assert_eq!(report.max_depth, Some(7)); // the pancake number of 6
/// ```
pub fn bfs(
    game: &super::GameSpec,
    request: BfsRequest,
    progress: &dyn Progress,
    stop: Option<&AtomicBool>,
) -> Result<BfsReport> {
    let job = MpiJob::none();
    let bfs = Bfs::prepare(request, &job)?;
    game.visit(WholeBfs {
        bfs: &bfs,
        progress,
        stop,
    })
}

struct WholeBfs<'a> {
    bfs: &'a Bfs<'a>,
    progress: &'a dyn Progress,
    stop: Option<&'a AtomicBool>,
}

impl SpaceVisitor for WholeBfs<'_> {
    type Output = BfsReport;

    fn visit<S: Space + Picture>(self, space: &S) -> Result<BfsReport> {
        let search = self.bfs.run(space, self.progress, self.stop)?;
        Ok(self.bfs.report(space, &search))
    }
}

/// Draws the positions of `ranks`.
pub fn pictures<S: Space + Picture>(space: &S, ranks: &[u64]) -> Vec<String> {
    let mut state = space.new_state();
    ranks
        .iter()
        .map(|&rank| {
            space.unrank(rank, &mut state);
            space.draw(&state)
        })
        .collect()
}
