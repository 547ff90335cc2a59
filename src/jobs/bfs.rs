//! A breadth-first search of a whole one-player space, as every shell runs
//! it: the request checked, the machine chosen, the search run and its
//! report (`bitsolve bfs`, Python's `Game.bfs`).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use serde_json::json;

use super::cluster::{JobBackend, MpiJob};
use super::machine::{Machine, Processor, open_device};
use super::threads::thread_pool;
use crate::backend::gpu::GpuDevice;
use crate::error::{Error, Result};
use crate::games::registry::SpaceVisitor;
use crate::progress::{Progress, Stoppable};
use crate::search::{Algorithm, SearchOptions, SearchReport};
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

    /// The report as the JSON object `bitsolve bfs --json` prints.
    pub fn report_json<S: Space + Picture>(
        &self,
        space: &S,
        report: &SearchReport,
    ) -> serde_json::Value {
        let machine = self.machine();
        let mut json = report_json(
            space,
            report,
            self.pool.current_num_threads(),
            machine.name(),
            machine.device(),
        );
        json["mpi"] = self.backend.distributed().traffic_json().into();
        json
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

/// Runs `request` on `game` in this process and returns what `bitsolve bfs
/// --json` prints for it (the Python binding's `Game.bfs`).
///
/// ```
/// use bitsolve::games::registry::GameOptions;
/// use bitsolve::jobs::{BfsRequest, GameSpec, bfs::bfs_json};
/// use bitsolve::progress::Silent;
/// let game = GameSpec { name: "pancake".into(), options: GameOptions::default().with("n", "6") };
/// let report = bfs_json(&game, BfsRequest::default(), &Silent, None).unwrap();
/// assert_eq!(report["total"], 720);
/// assert_eq!(report["max_depth"], 7); // the pancake number of 6
/// ```
pub fn bfs_json(
    game: &super::GameSpec,
    request: BfsRequest,
    progress: &dyn Progress,
    stop: Option<&AtomicBool>,
) -> Result<serde_json::Value> {
    let job = MpiJob::none();
    let bfs = Bfs::prepare(request, &job)?;
    game.visit(BfsJson {
        bfs: &bfs,
        progress,
        stop,
    })
}

struct BfsJson<'a> {
    bfs: &'a Bfs<'a>,
    progress: &'a dyn Progress,
    stop: Option<&'a AtomicBool>,
}

impl SpaceVisitor for BfsJson<'_> {
    type Output = serde_json::Value;

    fn visit<S: Space + Picture>(self, space: &S) -> Result<serde_json::Value> {
        let report = self.bfs.run(space, self.progress, self.stop)?;
        Ok(self.bfs.report_json(space, &report))
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

fn report_json<S: Space + Picture>(
    space: &S,
    report: &SearchReport,
    threads: usize,
    backend: &str,
    device: Option<&GpuDevice>,
) -> serde_json::Value {
    let goals: Vec<serde_json::Value> = report
        .goals
        .iter()
        .map(|goal| {
            json!({
                "rank": goal.rank,
                "distance": goal.distance,
                "reached": goal.reached,
                // A goal not reached by a search stopped at --max-depth may
                // still be reachable.
                "decided": goal.reached || report.complete,
            })
        })
        .collect();
    json!({
        "game": space.descriptor(),
        "algo": report.algorithm.name(),
        "backend": backend,
        "device": device.map(|d| d.describe()),
        "threads": threads,
        "layers": report.layers,
        "representatives": report.representatives,
        "total": report.reachable,
        "max_depth": report.max_depth(),
        "goal_distance": report.goals.first().and_then(|goal| goal.distance),
        "goals": goals,
        "deepest": report.deepest,
        "meet": report.meet.as_ref().map(|meet| json!({
            "goal_layer": meet.goal_layer,
            "middle_layer": meet.middle_layer,
            "midpoints": meet.midpoints,
        })),
        "deepest_positions": pictures(space, &report.deepest),
        "space_size": space.size(),
        "complete": report.complete,
        "passes": report.passes,
        "expanded": report.expanded,
        "successors": report.successors,
        "parent_checks": report.parent_checks,
        "bytes_read": report.bytes_read,
        "bytes_written": report.bytes_written,
        "layer_io": report.layer_io.iter().map(|io| json!({
            "layer": io.layer,
            "bytes_read": io.bytes_read,
            "bytes_written": io.bytes_written,
        })).collect::<Vec<_>>(),
        "successors_per_second": report.successors_per_second(),
        "seconds": report.seconds,
        "resumed_from": report.resumed_from,
        "store": report.store.as_ref().map(|p| p.display().to_string()),
    })
}
