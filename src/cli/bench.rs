//! `bitsolve bench`: the same search (two-bit BFS by default, or one-bit
//! BFS or reachability) on one CPU core, on all CPU cores and on the GPU;
//! checks the layers are identical and prints the times side by side, in
//! the manner of Tables 1-3 of `002_f83af64931234a7c.txt`.

use std::time::Instant;

use clap::Args;
use serde_json::json;

use super::format::{group_digits, si};
use super::games::GameSpec;
use super::progress::Display;
use super::{AlgorithmArg, refuse_layer_flags, thread_pool};
use crate::backend::gpu::{GpuDevice, GpuOptions};
use crate::backend::{CpuBackend, GpuBackend};
use crate::error::{Error, Result};
use crate::games::registry::SpaceVisitor;
use crate::kernel::CPU_HINT;
use crate::search::{Algorithm, Progress, SearchOptions, SearchReport};
use crate::space::{Picture, Space};

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    game: GameSpec,
    /// Search algorithm, the same on every run.
    #[arg(long, value_enum, default_value = "two-bit", global = true)]
    algo: AlgorithmArg,
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
    /// Stop every run once layer D is complete.
    #[arg(long, value_name = "D", global = true)]
    max_depth: Option<usize>,
    /// Print one JSON object on stdout instead of a table.
    #[arg(long, global = true)]
    json: bool,
}

pub(super) fn run(args: BenchArgs) -> Result<()> {
    refuse_layer_flags(args.algo, &[("--max-depth", args.max_depth.is_some())])?;
    let device_opened = Instant::now();
    let device = if args.no_gpu {
        None
    } else {
        Some(GpuDevice::open(&GpuOptions::default()).map_err(for_bench)?)
    };
    let device_seconds = device
        .as_ref()
        .map(|_| device_opened.elapsed().as_secs_f64());
    args.game
        .visit(BenchCommand {
            args: &args,
            device: device.as_ref(),
            device_seconds,
        })
        .map_err(for_bench)
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
            crate::backend::gpu::gpu_program(space)?;
        }
        let human = !self.args.json;
        let all = thread_pool(self.args.threads)?;
        let mut pools = Vec::new();
        if !self.args.no_single_thread {
            pools.push(thread_pool(Some(1))?);
        }
        pools.push(all);
        let algorithm: Algorithm = self.args.algo.into();
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
