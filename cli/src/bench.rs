//! `bitsolve bench`: the same search (two-bit BFS by default, or one-bit
//! BFS or reachability; or the retrograde analysis of a two-player game)
//! on one CPU core, on all CPU cores and on the GPU, run and checked by the
//! library's job ([`bitsolve::jobs::bench`]); here the flags, and the times
//! side by side as a table or JSON.

use std::time::Instant;

use clap::{Args, ValueEnum};
use serde_json::json;

use super::bfs::AlgorithmArg;
use super::device::DeviceArgs;
use super::format::{group_digits, si};
use super::games::AnyGameSpec;
use super::retro::parse_layers;
use bitsolve::backend::gpu::GpuDevice;
use bitsolve::error::{Error, Result};
use bitsolve::games::registry::{GameKind, SpaceVisitor};
use bitsolve::games::{TwoPlayerGame, TwoPlayerVisitor};
use bitsolve::jobs::bench::{
    BenchPlan, RetroBench, Run, all_cores_seconds, bench_retro, bench_search, single_thread_seconds,
};
use bitsolve::jobs::bfs::refuse_layer_flags;
use bitsolve::jobs::{MpiJob, Processor, TwoPlayerSpec, open_device};
use bitsolve::kernel::CPU_HINT;
use bitsolve::progress::terminal::Display;
use bitsolve::search::retro2::Phases;
use bitsolve::search::{Algorithm, SearchReport};
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
        open_device(Processor::Gpu, args.device.device_memory, &MpiJob::none())
            .map_err(for_bench)?
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
        None => game.visit(RetroBenchCommand {
            bench: BenchCommand {
                args: &args,
                device: device.as_ref(),
                device_seconds,
            },
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

impl SpaceVisitor for BenchCommand<'_> {
    type Output = ();

    fn visit<S: Space + Picture>(self, space: &S) -> Result<()> {
        let algorithm: Algorithm = self
            .args
            .algo
            .search()
            .expect("a one-player game is benched with a search")
            .into();
        let display = Display::new(None, None);
        let runs = bench_search(
            space,
            algorithm,
            self.args.max_depth,
            &self.plan(),
            &display,
        );
        display.finish();
        let runs = runs?;
        if self.args.json {
            println!("{}", self.to_json(space, &runs));
        } else {
            print_table(space, &runs, self.device);
        }
        Ok(())
    }
}

impl BenchCommand<'_> {
    /// Where the runs go: one thread (unless left out), all threads, and
    /// the GPU (unless `--no-gpu`).
    fn plan(&self) -> BenchPlan<'_> {
        BenchPlan {
            threads: self.args.threads,
            single_thread: !self.args.no_single_thread,
            device: self.device,
        }
    }

    fn to_json<S: Space>(&self, space: &S, runs: &[Run<SearchReport>]) -> serde_json::Value {
        let reference = &runs[0].result;
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
                "search_seconds": run.result.seconds,
                "states_per_second": run.result.reachable as f64 / run.seconds,
                "expanded_per_second_per_core": run.expanded_per_second_per_core(),
                "expanded": run.result.expanded,
                "successors": run.result.successors,
                "parent_checks": run.result.parent_checks,
                "speedup_vs_one_thread": single.map(|s| s / run.seconds),
                "speedup_vs_all_threads": all_cores / run.seconds,
            })).collect::<Vec<_>>(),
        })
    }
}

fn seconds(value: f64) -> String {
    if value >= 60.0 {
        format!("{}m {:04.1}s", (value / 60.0).floor() as u64, value % 60.0)
    } else {
        format!("{value:.2}s")
    }
}

fn print_table<S: Space>(space: &S, runs: &[Run<SearchReport>], device: Option<&GpuDevice>) {
    let reference = &runs[0].result;
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
            si(run.result.reachable as f64 / run.seconds),
            si(run.result.successors as f64 / run.seconds),
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
struct RetroBenchCommand<'a> {
    bench: BenchCommand<'a>,
}

impl TwoPlayerVisitor for RetroBenchCommand<'_> {
    type Output = ();

    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<()> {
        let args = self.bench.args;
        let display = Display::new(None, None);
        let bench = bench_retro(game, args.layers, &self.bench.plan(), &display);
        display.finish();
        let RetroBench {
            solved,
            timed,
            runs,
        } = bench?;
        let (first, last) = (*timed.start(), *timed.end());
        let states: u64 = runs[0].result.iter().map(|r| r.states).sum();
        let single = single_thread_seconds(&runs);
        let all_cores = all_cores_seconds(&runs);
        if args.json {
            let json = json!({
                "game": game.layer_descriptor(last),
                "algo": "retro",
                "layers": [first, last],
                "states": states,
                "counts": runs[0].result.iter().map(|r| json!({
                    "layer": r.layer,
                    "states": r.states,
                    "first_wins": r.first_wins,
                    "second_wins": r.second_wins,
                    "draws": r.draws,
                })).collect::<Vec<_>>(),
                "identical_values": true,
                "device_open_seconds": self.bench.device_seconds,
                "runs": runs.iter().map(|run| json!({
                    "backend": run.backend,
                    "threads": run.threads,
                    "device": run.machine,
                    "seconds": run.seconds,
                    "layer_seconds": run.result.iter().map(|r| r.seconds).collect::<Vec<_>>(),
                    "phases": run.result.iter().fold(Phases::default(), |all, r| all + r.phases),
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
        if self.bench.device.is_some_and(GpuDevice::is_software) {
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
