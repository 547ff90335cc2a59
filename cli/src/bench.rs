//! `bitsolve bench`: the same search (two-bit BFS by default, or one-bit
//! BFS or reachability; or the retrograde analysis of a two-player game)
//! on one CPU core, on all CPU cores and on the GPU; checks the layers are
//! identical and prints the times side by side, in the manner of Tables
//! 1-3 of Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect
//! Hash Functions* (TZI report 52, Bremen, 2009).

use std::time::Instant;

use clap::{Args, ValueEnum};
use serde_json::json;

use super::AlgorithmArg;
use super::device::DeviceArgs;
use super::format::{group_digits, si};
use super::games::AnyGameSpec;
use super::retro::parse_layers;
use bitsolve::backend::gpu::{GpuDevice, check_device_layer};
use bitsolve::backend::{CpuBackend, GpuBackend};
use bitsolve::error::{Error, Result};
use bitsolve::games::registry::{GameKind, SpaceVisitor};
use bitsolve::games::{TwoPlayerGame, TwoPlayerVisitor};
use bitsolve::jobs::TwoPlayerSpec;
use bitsolve::jobs::bfs::refuse_layer_flags;
use bitsolve::jobs::thread_pool;
use bitsolve::kernel::CPU_HINT;
use bitsolve::progress::terminal::Display;
use bitsolve::search::retro2::seam::RetroBackend;
use bitsolve::search::retro2::{LayerReport, Phases, RetroOptions, solve_layer_range};
use bitsolve::search::{Algorithm, Progress, SearchOptions, SearchReport};
use bitsolve::space::{Picture, Space};

/// What `bench` times: a search of a one-player game, or the retrograde
/// analysis of a two-player one.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchAlgorithm {
    /// Two-bit BFS (Algorithm 1): layer sizes, every state expanded once.
    TwoBit,
    /// One-bit BFS (Algorithms 3 and 7): needs a move-alternation property.
    OneBit,
    /// One-bit reachability (Algorithm 2): reachable count, no layers.
    Reach,
    /// Two-bit retrograde analysis of a two-player game (Fox-and-Geese,
    /// Dodgem) over --layers A..B.
    Retro,
}

impl BenchAlgorithm {
    /// The search of a one-player game, or None for retrograde analysis.
    fn search(self) -> Option<AlgorithmArg> {
        match self {
            BenchAlgorithm::TwoBit => Some(AlgorithmArg::TwoBit),
            BenchAlgorithm::OneBit => Some(AlgorithmArg::OneBit),
            BenchAlgorithm::Reach => Some(AlgorithmArg::Reach),
            BenchAlgorithm::Retro => None,
        }
    }
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    game: AnyGameSpec,
    /// Search algorithm, the same on every run.
    #[arg(long, value_enum, default_value = "two-bit", global = true)]
    algo: BenchAlgorithm,
    /// With --algo retro: the layers timed, A..B (both included). Layers
    /// below A are solved first in every run, untimed, unless the game's
    /// layers are independent (Fox-and-Geese with --capture-wins).
    #[arg(long, global = true, value_name = "A..B", value_parser = parse_layers)]
    layers: Option<(usize, usize)>,
    /// Threads of the all-cores run (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// Leave out the one-thread run (it takes as long as the others times
    /// the number of cores).
    #[arg(long, global = true)]
    no_single_thread: bool,
    /// Leave out the GPU run: time the CPU alone (one thread and all
    /// threads), without a Vulkan device.
    #[arg(long, global = true)]
    no_gpu: bool,
    #[command(flatten)]
    device: DeviceArgs,
    /// Stop every run once layer D is complete.
    #[arg(long, value_name = "D", global = true)]
    max_depth: Option<usize>,
    /// Print one JSON object on stdout instead of a table.
    #[arg(long, global = true)]
    json: bool,
}

pub(super) fn run(args: BenchArgs) -> Result<()> {
    let game = &args.game.0.name;
    match (args.algo.search(), args.game.kind()?) {
        (Some(algo), GameKind::OnePlayer) => {
            refuse_layer_flags(algo.into(), &[("--max-depth", args.max_depth.is_some())])?;
            if args.layers.is_some() {
                return Err(Error::Unsupported(
                    "--layers picks the layers of --algo retro; a search stops with --max-depth"
                        .into(),
                ));
            }
        }
        (Some(_), GameKind::TwoPlayer) => {
            return Err(Error::Unsupported(format!(
                "{game} is a two-player game: bench its retrograde analysis with --algo retro --layers A..B"
            )));
        }
        (None, GameKind::OnePlayer) => {
            return Err(Error::Unsupported(format!(
                "--algo retro solves two-player games, and {game} is a one-player game (bench it with --algo two-bit, one-bit or reach)"
            )));
        }
        (_, GameKind::Positional) => {
            return Err(Error::Unsupported(format!(
                "{game} is a positional game, which bench does not time"
            )));
        }
        (None, GameKind::TwoPlayer) => {
            if args.max_depth.is_some() {
                return Err(Error::Unsupported(
                    "--max-depth stops a search; --algo retro times --layers A..B".into(),
                ));
            }
        }
    }
    let device_opened = Instant::now();
    let device = if args.no_gpu {
        if args.device.device_memory.is_some() {
            return Err(Error::InvalidParameter(
                "--device-memory bounds the GPU's run, which --no-gpu leaves out".into(),
            ));
        }
        None
    } else {
        Some(GpuDevice::open(&args.device.options()?).map_err(for_bench)?)
    };
    let device_seconds = device
        .as_ref()
        .map(|_| device_opened.elapsed().as_secs_f64());
    let game = TwoPlayerSpec(args.game.0.clone());
    let benched = match args.algo.search() {
        Some(_) => args.game.0.visit(BenchCommand {
            args: &args,
            device: device.as_ref(),
            device_seconds,
        }),
        None => game.visit(RetroBench {
            args: &args,
            device: device.as_ref(),
            device_seconds,
        }),
    };
    benched.map_err(for_bench)
}

/// A GPU error's advice to run with `--backend cpu`, a flag `bench` does
/// not have, turned into advice that fits `bench`.
fn for_bench(error: Error) -> Error {
    let advise = |message: String| match message.strip_suffix(CPU_HINT) {
        Some(reason) => {
            format!("{reason}(bench runs the GPU too; time the CPU alone with --no-gpu)")
        }
        None => message,
    };
    match error {
        Error::Unsupported(message) => Error::Unsupported(advise(message)),
        Error::Gpu(message) => Error::Gpu(advise(message)),
        other => other,
    }
}

struct BenchCommand<'a> {
    args: &'a BenchArgs,
    /// None with `--no-gpu`.
    device: Option<&'a GpuDevice>,
    device_seconds: Option<f64>,
}

/// One timed run.
struct Run {
    backend: &'static str,
    threads: Option<usize>,
    machine: String,
    /// Whole call: table allocation, upload, kernels, read-backs.
    seconds: f64,
    report: SearchReport,
}

impl Run {
    /// States whose successors were generated (expanded, or checked for a
    /// parent, which generates every neighbour too) per second and per CPU
    /// thread: the per-core speed of issue 11. None for the GPU.
    fn expanded_per_second_per_core(&self) -> Option<f64> {
        let threads = self.threads?;
        let generated = self.report.expanded + self.report.parent_checks;
        Some(generated as f64 / self.seconds / threads as f64)
    }

    fn label(&self) -> String {
        match self.threads {
            Some(1) => "cpu, 1 thread".to_string(),
            Some(threads) => format!("cpu, {threads} threads"),
            None => "gpu".to_string(),
        }
    }
}

/// The processor's name, from /proc/cpuinfo where there is one.
fn cpu_name() -> String {
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

impl SpaceVisitor for BenchCommand<'_> {
    type Output = ();

    fn visit<S: Space + Picture>(self, space: &S) -> Result<()> {
        // Found out before the CPU runs, not after them.
        if self.device.is_some() {
            bitsolve::backend::gpu::gpu_program(space)?;
        }
        let human = !self.args.json;
        let all = thread_pool(self.args.threads)?;
        let mut pools = Vec::new();
        if !self.args.no_single_thread {
            pools.push(thread_pool(Some(1))?);
        }
        pools.push(all);
        let algorithm: Algorithm = self
            .args
            .algo
            .search()
            .expect("a one-player game is benched with a search")
            .into();
        let mut runs = Vec::new();
        let cpu = cpu_name();
        for pool in &pools {
            let threads = pool.current_num_threads();
            let display = Display::new(None, None);
            display.note(&format!(
                "{} on {threads} CPU thread(s)",
                algorithm.describe()
            ));
            let options = self.options(&display);
            let started = Instant::now();
            let report = pool.install(|| algorithm.run(space, &CpuBackend, &options));
            display.finish();
            runs.push(Run {
                backend: "cpu",
                threads: Some(threads),
                machine: cpu.clone(),
                seconds: started.elapsed().as_secs_f64(),
                report: report?,
            });
        }
        if let Some(device) = self.device {
            let display = Display::new(None, None);
            display.note(&format!(
                "{} on {}",
                algorithm.describe(),
                device.describe()
            ));
            let options = self.options(&display);
            let started = Instant::now();
            let report = algorithm.run(space, &GpuBackend::new(device), &options);
            display.finish();
            runs.push(Run {
                backend: "gpu",
                threads: None,
                machine: device.describe(),
                seconds: started.elapsed().as_secs_f64(),
                report: report?,
            });
        }
        check_agreement(&runs)?;
        if human {
            print_table(space, &runs, self.device);
        } else {
            println!("{}", self.to_json(space, &runs));
        }
        Ok(())
    }
}

impl BenchCommand<'_> {
    fn options<'d>(&self, display: &'d Display) -> SearchOptions<'d> {
        SearchOptions {
            progress: display,
            max_depth: self.args.max_depth,
            ..SearchOptions::default()
        }
    }

    fn to_json<S: Space>(&self, space: &S, runs: &[Run]) -> serde_json::Value {
        let reference = &runs[0].report;
        let single = single_thread_seconds(runs);
        let all_cores = all_cores_seconds(runs);
        json!({
            "game": space.descriptor(),
            "algo": reference.algorithm.name(),
            "layers": reference.layers,
            "total": reference.reachable,
            "max_depth": reference.max_depth(),
            "space_size": space.size(),
            "identical_layers": true,
            "device_open_seconds": self.device_seconds,
            "runs": runs.iter().map(|run| json!({
                "backend": run.backend,
                "threads": run.threads,
                "device": run.machine,
                "seconds": run.seconds,
                "search_seconds": run.report.seconds,
                "states_per_second": run.report.reachable as f64 / run.seconds,
                "expanded_per_second_per_core": run.expanded_per_second_per_core(),
                "expanded": run.report.expanded,
                "successors": run.report.successors,
                "parent_checks": run.report.parent_checks,
                "speedup_vs_one_thread": single.map(|s| s / run.seconds),
                "speedup_vs_all_threads": all_cores / run.seconds,
            })).collect::<Vec<_>>(),
        })
    }
}

fn single_thread_seconds(runs: &[Run]) -> Option<f64> {
    runs.iter()
        .find(|run| run.threads == Some(1))
        .map(|run| run.seconds)
}

/// The CPU run with the most threads.
fn all_cores_seconds(runs: &[Run]) -> f64 {
    runs.iter()
        .filter(|run| run.backend == "cpu")
        .max_by_key(|run| run.threads)
        .map(|run| run.seconds)
        .expect("a CPU run")
}

/// The searches must give the same layers (and reachable count); the first
/// difference is an error.
fn check_agreement(runs: &[Run]) -> Result<()> {
    let reference = &runs[0];
    for run in &runs[1..] {
        if run.report.reachable != reference.report.reachable {
            return Err(Error::InvalidParameter(format!(
                "backends disagree: {} states reached on {} and {} on {}",
                reference.report.reachable,
                reference.label(),
                run.report.reachable,
                run.label()
            )));
        }
        if run.report.layers != reference.report.layers {
            let (a, b) = (
                reference.report.layers.clone().unwrap_or_default(),
                run.report.layers.clone().unwrap_or_default(),
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

fn seconds(value: f64) -> String {
    if value >= 60.0 {
        format!("{}m {:04.1}s", (value / 60.0).floor() as u64, value % 60.0)
    } else {
        format!("{value:.2}s")
    }
}

fn print_table<S: Space>(space: &S, runs: &[Run], device: Option<&GpuDevice>) {
    let reference = &runs[0].report;
    let shape = match &reference.layers {
        Some(layers) => format!("{} layers · layers identical on every run", layers.len()),
        None => format!("{} scans · counts identical on every run", reference.passes),
    };
    println!(
        "{} · {} · {} states in {shape}",
        space.descriptor(),
        reference.algorithm.describe(),
        group_digits(reference.reachable),
    );
    if device.is_some_and(GpuDevice::is_software) {
        println!("(the GPU is a software rasteriser: its time measures correctness, not speed)");
    }
    println!(
        "{:<16}  {:>10}  {:>12}  {:>13}  {:>10}  {:>14}  {:>16}",
        "run", "time", "vs 1 thread", "vs all cores", "states/s", "successors/s", "expanded/s/core"
    );
    let single = single_thread_seconds(runs);
    let all_cores = all_cores_seconds(runs);
    for run in runs {
        println!(
            "{:<16}  {:>10}  {:>12}  {:>13}  {:>10}  {:>14}  {:>16}",
            run.label(),
            seconds(run.seconds),
            single.map_or("-".to_string(), |s| format!("{:.2}x", s / run.seconds)),
            format!("{:.2}x", all_cores / run.seconds),
            si(run.report.reachable as f64 / run.seconds),
            si(run.report.successors as f64 / run.seconds),
            run.expanded_per_second_per_core()
                .map_or("-".to_string(), si),
        );
    }
    for run in runs {
        println!("{}: {}", run.label(), run.machine);
    }
}

/// `bench --algo retro`: the same layers solved on one CPU thread, on all
/// threads and on the GPU, each run on the heap.
struct RetroBench<'a> {
    args: &'a BenchArgs,
    /// None with `--no-gpu`.
    device: Option<&'a GpuDevice>,
    device_seconds: Option<f64>,
}

/// One timed retrograde run.
struct RetroRun {
    backend: &'static str,
    threads: Option<usize>,
    machine: String,
    /// The layers timed, and their time (each layer's own).
    reports: Vec<LayerReport>,
    seconds: f64,
}

impl RetroRun {
    fn label(&self) -> String {
        match self.threads {
            Some(1) => "cpu, 1 thread".to_string(),
            Some(threads) => format!("cpu, {threads} threads"),
            None => "gpu".to_string(),
        }
    }

    fn passes(&self) -> usize {
        self.reports.iter().map(LayerReport::passes).sum()
    }

    /// Seconds of the layers' pass 0 (every position judged), the rest of
    /// the `passes` phase being the later passes (those that follow
    /// what the pass before decided).
    fn first_pass_seconds(&self) -> f64 {
        self.reports
            .iter()
            .filter_map(|report| report.pass_log.first())
            .map(|pass| pass.seconds)
            .sum()
    }
}

impl TwoPlayerVisitor for RetroBench<'_> {
    type Output = ();

    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<()> {
        let max = game.max_layer();
        let (first, last) = match (self.args.layers, game.default_layers()) {
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
        // Layers below the range are solved first (untimed) where the
        // range reads the one below it.
        let solved = if game.independent_layers() { first } else { 0 }..=last;
        if self.device.is_some() {
            // Found out before the CPU runs, not after them.
            for layer in solved.clone() {
                check_device_layer(game, layer)?;
            }
        }
        let mut pools = Vec::new();
        if !self.args.no_single_thread {
            pools.push(thread_pool(Some(1))?);
        }
        pools.push(thread_pool(self.args.threads)?);
        let cpu = cpu_name();
        let mut runs = Vec::new();
        for pool in &pools {
            let threads = pool.current_num_threads();
            let run = pool.install(|| self.run(&CpuBackend, game, &solved, first))?;
            runs.push(RetroRun {
                backend: "cpu",
                threads: Some(threads),
                machine: cpu.clone(),
                ..run
            });
        }
        if let Some(device) = self.device {
            let run = self.run(&GpuBackend::new(device), game, &solved, first)?;
            runs.push(RetroRun {
                backend: "gpu",
                threads: None,
                machine: device.describe(),
                ..run
            });
        }
        check_retro_agreement(&runs)?;
        let states: u64 = runs[0].reports.iter().map(|r| r.states).sum();
        let single = runs
            .iter()
            .find(|run| run.threads == Some(1))
            .map(|run| run.seconds);
        let all_cores = runs
            .iter()
            .filter(|run| run.backend == "cpu")
            .max_by_key(|run| run.threads)
            .map(|run| run.seconds)
            .expect("a CPU run");
        if self.args.json {
            let json = json!({
                "game": game.layer_descriptor(last),
                "algo": "retro",
                "layers": [first, last],
                "states": states,
                "counts": runs[0].reports.iter().map(|r| json!({
                    "layer": r.layer,
                    "states": r.states,
                    "first_wins": r.first_wins,
                    "second_wins": r.second_wins,
                    "draws": r.draws,
                })).collect::<Vec<_>>(),
                "identical_values": true,
                "device_open_seconds": self.device_seconds,
                "runs": runs.iter().map(|run| json!({
                    "backend": run.backend,
                    "threads": run.threads,
                    "device": run.machine,
                    "seconds": run.seconds,
                    "layer_seconds": run.reports.iter().map(|r| r.seconds).collect::<Vec<_>>(),
                    "phases": run.reports.iter().fold(Phases::default(), |all, r| all + r.phases).json(),
                    "passes": run.passes(),
                    "first_pass_seconds": run.first_pass_seconds(),
                    "states_per_second": states as f64 / run.seconds,
                    "speedup_vs_one_thread": single.map(|s| s / run.seconds),
                    "speedup_vs_all_threads": all_cores / run.seconds,
                })).collect::<Vec<_>>(),
            });
            println!("{json}");
            return Ok(());
        }
        println!(
            "{} · two-bit retrograde analysis · layers {first}..{last}: {} positions · counts identical on every run",
            game.layer_descriptor(last),
            group_digits(states),
        );
        if *solved.start() < first {
            println!(
                "(layers {}..{} solved first in every run, untimed)",
                solved.start(),
                first - 1
            );
        }
        if self.device.is_some_and(GpuDevice::is_software) {
            println!(
                "(the GPU is a software rasteriser: its time measures correctness, not speed)"
            );
        }
        println!(
            "{:<16}  {:>10}  {:>12}  {:>13}  {:>12}  {:>7}",
            "run", "time", "vs 1 thread", "vs all cores", "positions/s", "passes"
        );
        for run in &runs {
            println!(
                "{:<16}  {:>10}  {:>12}  {:>13}  {:>12}  {:>7}",
                run.label(),
                seconds(run.seconds),
                single.map_or("-".to_string(), |s| format!("{:.2}x", s / run.seconds)),
                format!("{:.2}x", all_cores / run.seconds),
                si(states as f64 / run.seconds),
                run.passes(),
            );
        }
        for run in &runs {
            println!("{}: {}", run.label(), run.machine);
        }
        Ok(())
    }
}

impl RetroBench<'_> {
    /// Solves `solved` on `backend`, timing the layers from `first`.
    fn run<G: TwoPlayerGame, B: RetroBackend>(
        &self,
        backend: &B,
        game: &G,
        solved: &std::ops::RangeInclusive<usize>,
        first: usize,
    ) -> Result<RetroRun> {
        let display = Display::new(None, None);
        display.note(&format!(
            "two-bit retrograde analysis of {} on {}",
            game.layer_descriptor(*solved.end()),
            backend.describe()
        ));
        let options = RetroOptions {
            progress: &display,
            ..RetroOptions::default()
        };
        let reports = solve_layer_range(backend, game, solved.clone(), &options);
        display.finish();
        let reports: Vec<LayerReport> = reports?.into_iter().filter(|r| r.layer >= first).collect();
        Ok(RetroRun {
            backend: "",
            threads: None,
            machine: String::new(),
            seconds: reports.iter().map(|r| r.seconds).sum(),
            reports,
        })
    }
}

/// Every run must give the same counts in every layer; the first
/// difference is an error.
fn check_retro_agreement(runs: &[RetroRun]) -> Result<()> {
    let reference = &runs[0];
    let counts = |r: &LayerReport| (r.first_wins, r.second_wins, r.draws);
    for run in &runs[1..] {
        for (a, b) in reference.reports.iter().zip(&run.reports) {
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
