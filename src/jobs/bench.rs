//! The benchmark job (`bitsolve bench`): one search of a one-player game,
//! or the retrograde analysis of a range of a two-player game's layers,
//! run on one CPU thread, on all threads and on the GPU. The runs must
//! agree (the first difference is an error) and each is timed whole, in the
//! manner of Tables 1-3 of Edelkamp, Messerschmidt, Sulewski and Yücel,
//! *Solving Games in Parallel with Linear-Time Perfect Hash Functions*
//! (2009). The shells print the runs; the job only runs and checks them.

use std::ops::RangeInclusive;
use std::time::Instant;

use super::threads::thread_pool;
use crate::backend::gpu::{GpuDevice, check_device_layer, gpu_program};
use crate::backend::{CpuBackend, GpuBackend};
use crate::error::{Error, Result};
use crate::games::TwoPlayerGame;
use crate::progress::Progress;
use crate::search::retro2::seam::RetroBackend;
use crate::search::retro2::{LayerReport, RetroOptions, solve_layer_range};
use crate::search::{Algorithm, SearchOptions, SearchReport};
use crate::space::Space;

/// Where a benchmark runs.
#[derive(Clone, Copy, Default)]
pub struct BenchPlan<'a> {
    /// Threads of the all-cores run (`None`: every core).
    pub threads: Option<usize>,
    /// Whether a run on one thread comes first (it takes as long as the
    /// others times the number of cores).
    pub single_thread: bool,
    /// The GPU, where a run on it comes last.
    pub device: Option<&'a GpuDevice>,
}

/// One timed run and what it gave: a [`SearchReport`], or the reports of
/// the layers a retrograde run timed.
#[derive(Clone, Debug)]
pub struct Run<R> {
    /// "cpu" or "gpu".
    pub backend: &'static str,
    /// The CPU run's threads; `None` on the GPU.
    pub threads: Option<usize>,
    /// The processor, by name.
    pub machine: String,
    /// The whole run: tables, passes, and on the GPU uploads and read-backs.
    pub seconds: f64,
    /// What the run found.
    pub result: R,
}

impl<R> Run<R> {
    /// "cpu, 1 thread", "cpu, 8 threads" or "gpu".
    pub fn label(&self) -> String {
        match self.threads {
            Some(1) => "cpu, 1 thread".to_string(),
            Some(threads) => format!("cpu, {threads} threads"),
            None => "gpu".to_string(),
        }
    }
}

impl Run<SearchReport> {
    /// States whose successors were generated (expanded, or checked for a
    /// parent, which generates every neighbour too) per second and per CPU
    /// thread: the per-core speed. `None` on the GPU.
    pub fn expanded_per_second_per_core(&self) -> Option<f64> {
        let threads = self.threads?;
        let generated = self.result.expanded + self.result.parent_checks;
        Some(generated as f64 / self.seconds / threads as f64)
    }
}

impl Run<Vec<LayerReport>> {
    /// The passes over every timed layer.
    pub fn passes(&self) -> usize {
        self.result.iter().map(LayerReport::passes).sum()
    }

    /// Seconds of the layers' pass 0 (every position judged); the rest of
    /// the passes phase is the later passes, which follow what the pass
    /// before decided.
    pub fn first_pass_seconds(&self) -> f64 {
        self.result
            .iter()
            .filter_map(|report| report.pass_log.first())
            .map(|pass| pass.seconds)
            .sum()
    }
}

/// The one-thread run's seconds, where there is one.
pub fn single_thread_seconds<R>(runs: &[Run<R>]) -> Option<f64> {
    runs.iter()
        .find(|run| run.threads == Some(1))
        .map(|run| run.seconds)
}

/// The seconds of the CPU run with the most threads.
pub fn all_cores_seconds<R>(runs: &[Run<R>]) -> f64 {
    runs.iter()
        .filter(|run| run.backend == "cpu")
        .max_by_key(|run| run.threads)
        .map(|run| run.seconds)
        .expect("a benchmark runs on the CPU")
}

/// The processor's name, from /proc/cpuinfo where there is one.
pub(crate) fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| "CPU".to_string())
}

/// The thread pools of the CPU runs: one thread first where asked, then
/// all threads.
fn pools(plan: &BenchPlan) -> Result<Vec<rayon::ThreadPool>> {
    let mut pools = Vec::new();
    if plan.single_thread {
        pools.push(thread_pool(Some(1))?);
    }
    pools.push(thread_pool(plan.threads)?);
    Ok(pools)
}

/// Runs `algorithm` over `space` (to layer `max_depth` where given) as
/// `plan` says, each run on the heap; the runs' layers (or reachable
/// counts) must agree.
pub fn bench_search<S: Space>(
    space: &S,
    algorithm: Algorithm,
    max_depth: Option<usize>,
    plan: &BenchPlan,
    progress: &dyn Progress,
) -> Result<Vec<Run<SearchReport>>> {
    // Found out before the CPU runs, not after them.
    if plan.device.is_some() {
        gpu_program(space)?;
    }
    let options = SearchOptions {
        progress,
        max_depth,
        ..SearchOptions::default()
    };
    let cpu = cpu_name();
    let mut runs = Vec::new();
    for pool in pools(plan)? {
        let threads = pool.current_num_threads();
        progress.note(&format!(
            "{} on {threads} CPU thread(s)",
            algorithm.describe()
        ));
        let started = Instant::now();
        let report = pool.install(|| algorithm.run(space, &CpuBackend, &options))?;
        runs.push(Run {
            backend: "cpu",
            threads: Some(threads),
            machine: cpu.clone(),
            seconds: started.elapsed().as_secs_f64(),
            result: report,
        });
    }
    if let Some(device) = plan.device {
        progress.note(&format!(
            "{} on {}",
            algorithm.describe(),
            device.describe()
        ));
        let started = Instant::now();
        let report = algorithm.run(space, &GpuBackend::new(device), &options)?;
        runs.push(Run {
            backend: "gpu",
            threads: None,
            machine: device.describe(),
            seconds: started.elapsed().as_secs_f64(),
            result: report,
        });
    }
    search_runs_agree(&runs)?;
    Ok(runs)
}

/// The searches must give the same layers (and reachable count); the first
/// difference is an error.
fn search_runs_agree(runs: &[Run<SearchReport>]) -> Result<()> {
    let reference = &runs[0];
    for run in &runs[1..] {
        if run.result.reachable != reference.result.reachable {
            return Err(Error::InvalidParameter(format!(
                "backends disagree: {} states reached on {} and {} on {}",
                reference.result.reachable,
                reference.label(),
                run.result.reachable,
                run.label()
            )));
        }
        if run.result.layers != reference.result.layers {
            let (a, b) = (
                reference.result.layers.clone().unwrap_or_default(),
                run.result.layers.clone().unwrap_or_default(),
            );
            let layer = (0..a.len().max(b.len()))
                .find(|&i| a.get(i) != b.get(i))
                .unwrap_or(0);
            return Err(Error::InvalidParameter(format!(
                "backends disagree: layer {layer} has {:?} states on {} and {:?} on {}",
                a.get(layer),
                reference.label(),
                b.get(layer),
                run.label()
            )));
        }
    }
    Ok(())
}

/// A benchmark of retrograde analysis: the layers timed and the runs.
#[derive(Clone, Debug)]
pub struct RetroBench {
    /// The layers solved in every run: from `timed`'s first, or from 0
    /// where the timed layers read the ones below (solved untimed).
    pub solved: RangeInclusive<usize>,
    /// The layers timed.
    pub timed: RangeInclusive<usize>,
    /// Each run, with the reports of the timed layers.
    pub runs: Vec<Run<Vec<LayerReport>>>,
}

/// Solves `layers` of `game` (the game's default layers where `None`) as
/// `plan` says, each run on the heap; every run's counts must agree.
pub fn bench_retro<G: TwoPlayerGame>(
    game: &G,
    layers: Option<(usize, usize)>,
    plan: &BenchPlan,
    progress: &dyn Progress,
) -> Result<RetroBench> {
    let max = game.max_layer();
    let (first, last) = match (layers, game.default_layers()) {
        (Some(range), _) => range,
        (None, Some(layers)) => (*layers.start(), *layers.end()),
        (None, None) => {
            return Err(Error::InvalidParameter(format!(
                "--algo retro times --layers A..B (layers 0..{max})"
            )));
        }
    };
    if last > max {
        return Err(Error::InvalidParameter(format!(
            "layers run from 0 to {max}, got {first}..{last}"
        )));
    }
    // Layers below the range are solved first (untimed) where the range
    // reads the one below it.
    let solved = if game.independent_layers() { first } else { 0 }..=last;
    if plan.device.is_some() {
        // Found out before the CPU runs, not after them.
        for layer in solved.clone() {
            check_device_layer(game, layer)?;
        }
    }
    let cpu = cpu_name();
    let mut runs = Vec::new();
    for pool in pools(plan)? {
        let threads = pool.current_num_threads();
        let (reports, seconds) =
            pool.install(|| solve_timed(&CpuBackend, game, &solved, first, progress))?;
        runs.push(Run {
            backend: "cpu",
            threads: Some(threads),
            machine: cpu.clone(),
            seconds,
            result: reports,
        });
    }
    if let Some(device) = plan.device {
        let (reports, seconds) =
            solve_timed(&GpuBackend::new(device), game, &solved, first, progress)?;
        runs.push(Run {
            backend: "gpu",
            threads: None,
            machine: device.describe(),
            seconds,
            result: reports,
        });
    }
    retro_runs_agree(&runs)?;
    Ok(RetroBench {
        solved,
        timed: first..=last,
        runs,
    })
}

/// Solves `solved` on `backend`: the reports of the layers from `first`,
/// and their seconds (each layer's own).
fn solve_timed<G: TwoPlayerGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    solved: &RangeInclusive<usize>,
    first: usize,
    progress: &dyn Progress,
) -> Result<(Vec<LayerReport>, f64)> {
    progress.note(&format!(
        "two-bit retrograde analysis of {} on {}",
        game.layer_descriptor(*solved.end()),
        backend.describe()
    ));
    let options = RetroOptions {
        progress,
        ..RetroOptions::default()
    };
    let reports: Vec<LayerReport> = solve_layer_range(backend, game, solved.clone(), &options)?
        .into_iter()
        .filter(|r| r.layer >= first)
        .collect();
    let seconds = reports.iter().map(|r| r.seconds).sum();
    Ok((reports, seconds))
}

/// Every run must give the same counts in every layer; the first
/// difference is an error.
fn retro_runs_agree(runs: &[Run<Vec<LayerReport>>]) -> Result<()> {
    let reference = &runs[0];
    let counts = |r: &LayerReport| (r.first_wins, r.second_wins, r.draws);
    for run in &runs[1..] {
        for (a, b) in reference.result.iter().zip(&run.result) {
            if counts(a) != counts(b) {
                return Err(Error::InvalidParameter(format!(
                    "backends disagree: layer {} has (first wins, second wins, draws) {:?} on {} and {:?} on {}",
                    a.layer,
                    counts(a),
                    reference.label(),
                    counts(b),
                    run.label()
                )));
            }
        }
    }
    Ok(())
}
