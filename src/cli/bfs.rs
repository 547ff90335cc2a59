//! `bitsolve bfs`: run a search and report it.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde_json::json;

use super::format::{bytes, group_digits, si};
use super::interrupt::{arm, stop_on_signals};
use super::mpi_job::{Distributed, Job};
use super::plot::plot_layers;
use super::progress::{Display, RowFormat};
use super::{
    AlgorithmArg, BackendArg, BfsArgs, GameSpec, SpaceVisitor, note, refuse_layer_flags,
    thread_pool,
};
use crate::backend::gpu::GpuDevice;
use crate::backend::{CpuBackend, DiskBackend, GpuBackend};
use crate::error::{Error, Result};
use crate::progress::Stoppable;
use crate::search::{Algorithm, Backend, Progress, SearchOptions, SearchReport, Silent};
use crate::space::{Picture, Space};
use crate::table::Backing;

pub(super) fn run(args: BfsArgs, job: &Job) -> Result<()> {
    let stop = stop_on_signals(job);
    if let Some(json) = search(args, job, stop)? {
        println!("{json}");
    }
    Ok(())
}

/// A `bfs` run as a library call (the Python binding's `Game.bfs`): the
/// flags of `bitsolve bfs` without `--json` and `--plot`; the report comes
/// back as the JSON object `bitsolve bfs --json` prints. `progress` shows
/// the progress bar on a terminal's stderr as the command does.
pub struct BfsRequest {
    pub algo: AlgorithmArg,
    pub backend: BackendArg,
    pub threads: Option<usize>,
    pub store: Option<PathBuf>,
    pub max_depth: Option<usize>,
    /// Bytes of the table in memory, the rest on disk in `store` (`bfs
    /// --memory`).
    pub memory: Option<u64>,
    pub inversion: bool,
    pub progress: bool,
    /// Once set (by another thread), the search stops at its next chunk
    /// of work with [`Error::Interrupted`]; a stored run resumes later.
    pub stop: Option<Arc<AtomicBool>>,
}

/// Runs `request` on `game` in this process and returns what `bitsolve bfs
/// --json` prints for it.
pub fn bfs_json(game: GameSpec, request: BfsRequest) -> Result<serde_json::Value> {
    let args = BfsArgs {
        game,
        algo: request.algo,
        backend: request.backend,
        device: super::device::DeviceArgs::default(),
        threads: request.threads,
        store: request.store,
        json: true,
        plot: None,
        max_depth: request.max_depth,
        memory: request.memory,
        inversion: request.inversion,
        silent: !request.progress,
    };
    let json = search(args, &Job::none(), request.stop.as_deref())?;
    Ok(json.expect("a search in one process reports"))
}

/// Runs the search `args` ask for; with `--json`, returns the report's
/// JSON (in the process that reports) instead of printing it.
fn search(
    args: BfsArgs,
    job: &Job,
    stop: Option<&AtomicBool>,
) -> Result<Option<serde_json::Value>> {
    let pool = thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    refuse_layer_flags(
        args.algo,
        &[
            ("--max-depth", args.max_depth.is_some()),
            ("--plot", args.plot.is_some()),
        ],
    )?;
    if args.inversion && Algorithm::from(args.algo) != Algorithm::OneBitBfs {
        return Err(Error::Unsupported(
            "--inversion joins the halves of a one-bit BFS: add --algo one-bit".into(),
        ));
    }
    if let Some(path) = &args.plot {
        // Found out now, not after a long search whose output would be lost.
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(|e| Error::io(format!("cannot write --plot {}", path.display()), e))?;
    }
    if let Some(memory) = args.memory {
        refuse_disk_mode(&args, job)?;
        crate::backend::disk::DiskPlan::new(1, memory)?;
    }
    let device = args.device.open(args.backend, job)?;
    let backend = job.backend(device.is_none());
    args.game.visit(BfsCommand {
        args: &args,
        pool: &pool,
        threads,
        device: device.as_ref(),
        distributed: backend.distributed(),
        stop,
    })
}

/// `--memory` runs two-bit BFS in one process on the CPU, into a store.
fn refuse_disk_mode(args: &BfsArgs, job: &Job) -> Result<()> {
    let refusal = if Algorithm::from(args.algo) != Algorithm::TwoBitBfs {
        "--memory keeps a two-bit BFS table on disk: use it with --algo two-bit"
    } else if args.store.is_none() {
        "--memory keeps the table on disk: give --store DIR"
    } else if args.backend == BackendArg::Gpu {
        "--memory runs on the CPU with the table on disk: drop --backend gpu"
    } else if job.processes() > 1 {
        "--memory runs in one process: start it without mpirun"
    } else {
        return Ok(());
    };
    Err(Error::Unsupported(refusal.into()))
}

struct BfsCommand<'a> {
    args: &'a BfsArgs,
    pool: &'a rayon::ThreadPool,
    threads: usize,
    /// Set when the search runs on the GPU.
    device: Option<&'a GpuDevice>,
    /// The search runs across the processes of an MPI job.
    distributed: Distributed<'a>,
    /// Asks the search to stop (see [`BfsRequest::stop`]).
    stop: Option<&'a AtomicBool>,
}

impl BfsCommand<'_> {
    /// Where the search runs, for the header.
    fn machine(&self) -> String {
        if let Some(described) = self.pool.install(|| self.distributed.describe()) {
            return described;
        }
        if let Some(memory) = self.args.memory {
            return self.pool.install(|| DiskBackend { memory }.describe());
        }
        match self.device {
            Some(device) => GpuBackend::new(device).describe(),
            None => self.pool.install(|| CpuBackend.describe()),
        }
    }

    /// The backend's name for JSON.
    fn backend_name(&self) -> &'static str {
        #[cfg(feature = "mpi")]
        if let Some(mpi) = self.distributed.backend {
            return mpi.name();
        }
        if let Some(memory) = self.args.memory {
            return DiskBackend { memory }.name();
        }
        self.device
            .map_or(CpuBackend.name(), |d| GpuBackend::new(d).name())
    }

    /// Runs `algorithm` on the backend the command chose.
    fn search<S: Space>(
        &self,
        space: &S,
        algorithm: Algorithm,
        options: &SearchOptions,
    ) -> Result<SearchReport> {
        #[cfg(feature = "mpi")]
        if let Some(mpi) = self.distributed.backend {
            return algorithm.run(space, mpi, options);
        }
        if let Some(memory) = self.args.memory {
            return algorithm.run(space, &DiskBackend { memory }, options);
        }
        match self.device {
            Some(device) => algorithm.run(space, &GpuBackend::new(device), options),
            None => algorithm.run(space, &CpuBackend, options),
        }
    }
}

/// Ranks that can hold layer `layer`, when the layering pins layers to
/// blocks (Peg Solitaire's peg counts): the "bits" column of Table 4.
pub(super) fn layer_capacity<S: Space>(space: &S, layer: usize) -> Option<u64> {
    let layering = space.layering().filter(|l| l.exact)?;
    let blocks = space.blocks();
    let residue = layer as u64 % layering.modulus;
    Some(
        blocks
            .iter()
            .zip(&layering.residues)
            .filter(|&(_, &r)| r == residue)
            .map(|(block, _)| block.len)
            .sum(),
    )
}

/// The table's header line and its row format for `space`.
fn table_layout<'s, S: Space>(space: &'s S, algorithm: Algorithm) -> (String, RowFormat<'s>) {
    if algorithm == Algorithm::OneBitReachability {
        let header = format!("{:>7}  {:>17}", "scan", "reached");
        return (
            header,
            Box::new(|scan, reached| format!("{scan:>7}  {:>17}", group_digits(reached))),
        );
    }
    let named = space.layer_name(0).is_some();
    let sized = layer_capacity(space, 0).is_some();
    let mut header = format!("{:>7}", "layer");
    if named {
        header.push_str(&format!("  {:>10}", ""));
    }
    if sized {
        header.push_str(&format!("  {:>15}  {:>11}", "bits", "space"));
    }
    header.push_str(&format!("  {:>17}", "states"));
    let row = Box::new(move |layer: usize, states: u64| {
        let mut row = format!("{layer:>7}");
        if named {
            row.push_str(&format!(
                "  {:>10}",
                space.layer_name(layer).unwrap_or_default()
            ));
        }
        if let Some(bits) = layer_capacity(space, layer).filter(|_| sized) {
            row.push_str(&format!(
                "  {:>15}  {:>11}",
                group_digits(bits),
                bytes(bits.div_ceil(8))
            ));
        }
        row.push_str(&format!("  {:>17}", group_digits(states)));
        row
    });
    (header, row)
}

impl SpaceVisitor for BfsCommand<'_> {
    type Output = Option<serde_json::Value>;

    fn visit<S: Space + Picture>(self, space: &S) -> Result<Option<serde_json::Value>> {
        // The game is read: a signal now stops the work, not the process.
        arm(self.stop);
        let algorithm: Algorithm = self.args.algo.into();
        let table_bytes = space.size().div_ceil(64 / algorithm.bits_per_state()) * 8;
        let human = !self.args.json;
        let reports = self.distributed.reports();
        let (columns, row) = table_layout(space, algorithm);
        let header = format!(
            "{} · {} · {} · {} of {}\n{columns}",
            space.descriptor(),
            algorithm.describe(),
            self.machine(),
            match &self.args.store {
                Some(dir) if self.args.memory.is_some() =>
                    format!("table on disk in {}", dir.display()),
                Some(dir) => format!("file table in {}", dir.display()),
                None => "heap table".to_string(),
            },
            bytes(table_bytes)
        );
        let display = if human {
            Display::new(Some(header), Some(row))
        } else {
            Display::new(None, None)
        };
        let shown: &dyn Progress = if reports && !self.args.silent {
            &display
        } else {
            &Silent
        };
        let mut stoppable = None;
        let progress = Stoppable::wrap(shown, self.stop, &mut stoppable);
        let options = SearchOptions {
            backing: match &self.args.store {
                Some(dir) => Backing::Directory(dir.clone()),
                None => Backing::Heap,
            },
            progress,
            meet_in_middle: self.args.inversion,
            max_depth: self.args.max_depth,
        };
        let outcome = self
            .pool
            .install(|| self.search(space, algorithm, &options));
        display.finish();
        let report = outcome?;
        if !reports {
            return Ok(None);
        }
        // A stored table deeper than --max-depth is not cut back: it wins.
        if let (Some(limit), Some(stored)) = (self.args.max_depth, report.resumed_from)
            && stored > limit as u64
        {
            note(&format!(
                "--max-depth {limit} is below layer {stored}, which the store already holds; the report shows every stored layer"
            ));
        }
        display.print_header();
        if let (Some(path), Some(layers)) = (&self.args.plot, &report.layers) {
            plot_layers(
                path,
                &format!("{} · {}", space.descriptor(), algorithm.describe()),
                layers,
            )?;
        }
        if human {
            print_summary(space, &report);
            self.distributed.print_traffic();
        } else {
            let mut json = to_json(
                space,
                &report,
                self.threads,
                self.backend_name(),
                self.device,
            );
            json["mpi"] = self.distributed.traffic_json().into();
            return Ok(Some(json));
        }
        Ok(None)
    }
}

/// Draws the positions of `ranks`.
fn pictures<S: Space + Picture>(space: &S, ranks: &[u64]) -> Vec<String> {
    let mut state = space.new_state();
    ranks
        .iter()
        .map(|&rank| {
            space.unrank(rank, &mut state);
            space.draw(&state)
        })
        .collect()
}

/// How many deepest positions a human report draws.
const DEEPEST_DRAWN: usize = 4;

fn print_summary<S: Space + Picture>(space: &S, report: &SearchReport) {
    println!("{:>7}  {:>17}", "total", group_digits(report.reachable));
    if let Some(depth) = report.max_depth() {
        let deepest = report
            .layers
            .as_ref()
            .and_then(|l| l.last())
            .copied()
            .unwrap_or(0);
        println!(
            "max depth {depth} ({} positions there)",
            group_digits(deepest)
        );
    } else {
        println!("scans {}", report.passes);
    }
    if let Some(representatives) = &report.representatives {
        let stored: u64 = representatives.iter().sum();
        println!(
            "symmetry: {} positions stored for the {} counted",
            group_digits(stored),
            group_digits(report.reachable)
        );
    }
    if let Some(meet) = &report.meet {
        println!(
            "inversion: searched to layer {} of {}; {} positions of layer {} have their inverse in layer {}",
            meet.goal_layer - meet.middle_layer,
            meet.goal_layer,
            group_digits(meet.midpoints),
            meet.middle_layer,
            meet.goal_layer - meet.middle_layer
        );
    }
    for goal in &report.goals {
        let label = space.goal_label();
        match (goal.reached, goal.distance) {
            (true, Some(distance)) => println!("{label}: reached at distance {distance}"),
            (true, None) => println!("{label}: reachable"),
            (false, _) if report.complete => println!("{label}: not reachable"),
            (false, _) => println!(
                "{label}: not reached within {} moves (the search stopped at --max-depth; no verdict)",
                report.max_depth().unwrap_or(0)
            ),
        }
    }
    println!(
        "space {} ranks, {:.2}% reachable",
        group_digits(space.size()),
        100.0 * report.reachable as f64 / space.size() as f64
    );
    let mut work = format!(
        "time {:.2} s · {} states expanded · {} successor ranks ({}ranks/s)",
        report.seconds,
        group_digits(report.expanded),
        group_digits(report.successors),
        si(report.successors_per_second())
    );
    if report.parent_checks > 0 {
        work.push_str(&format!(
            " · {} parent checks",
            group_digits(report.parent_checks)
        ));
    }
    println!("{work}");
    if report.bytes_read + report.bytes_written > 0 {
        println!(
            "disk {} read · {} written (table windows, journal and waiting successors)",
            bytes(report.bytes_read),
            bytes(report.bytes_written)
        );
    }
    if let Some(from) = report.resumed_from {
        println!("resumed after layer {from} (time and work count this run only)");
    }
    if let Some(path) = &report.store {
        println!("table file {}", path.display());
    }
    let shown = &report.deepest[..report.deepest.len().min(DEEPEST_DRAWN)];
    if !shown.is_empty() && report.max_depth().is_some_and(|d| d > 0) {
        println!(
            "deepest positions{}:",
            if report.deepest.len() > shown.len() {
                " (first few)"
            } else {
                ""
            }
        );
        for (rank, picture) in shown.iter().zip(pictures(space, shown)) {
            println!("rank {rank}\n{picture}");
        }
    }
}

fn to_json<S: Space + Picture>(
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
