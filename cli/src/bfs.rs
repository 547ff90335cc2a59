//! `bitsolve bfs`: run a search and report it.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::{Args, ValueEnum};

use super::device::DeviceArgs;
use super::format::{bytes, group_digits, si};
use super::games::GameArg;
use super::interrupt::{arm, stop_on_signals};
use super::note;
use super::plot::plot_layers;
use super::traffic::print_traffic;
use bitsolve::error::{Error, Result};
use bitsolve::games::registry::SpaceVisitor;
use bitsolve::jobs::bfs::{Bfs, BfsRequest, pictures, refuse_layer_flags};
use bitsolve::jobs::{MpiJob, Processor, Report, parse_size};
use bitsolve::progress::Progress;
use bitsolve::progress::terminal::{Display, RowFormat};
use bitsolve::search::{Algorithm, SearchReport, Silent};
use bitsolve::space::{Picture, Space};

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlgorithmArg {
    /// Two-bit BFS (Algorithm 1): layer sizes, every state expanded once.
    TwoBit,
    /// One-bit BFS (Algorithms 3 and 7): needs a move-alternation property.
    OneBit,
    /// One-bit reachability (Algorithm 2): reachable count, no layers.
    Reach,
}

/// Where a search runs.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendArg {
    /// All CPU cores (or --threads).
    Cpu,
    /// The GPU, through Vulkan.
    Gpu,
}

impl From<BackendArg> for Processor {
    fn from(arg: BackendArg) -> Processor {
        match arg {
            BackendArg::Cpu => Processor::Cpu,
            BackendArg::Gpu => Processor::Gpu,
        }
    }
}

impl From<AlgorithmArg> for Algorithm {
    fn from(arg: AlgorithmArg) -> Algorithm {
        match arg {
            AlgorithmArg::TwoBit => Algorithm::TwoBitBfs,
            AlgorithmArg::OneBit => Algorithm::OneBitBfs,
            AlgorithmArg::Reach => Algorithm::OneBitReachability,
        }
    }
}

/// `bitsolve bfs`'s arguments.
#[derive(Args, Debug)]
pub struct BfsArgs {
    #[command(subcommand)]
    game: GameArg,
    /// Search algorithm.
    #[arg(long, value_enum, default_value = "two-bit", global = true)]
    algo: AlgorithmArg,
    /// Where the search's passes run.
    #[arg(long, value_enum, default_value = "cpu", global = true)]
    backend: BackendArg,
    #[command(flatten)]
    device: DeviceArgs,
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// Keep the table in a memory-mapped file in DIR; rerunning the same
    /// command resumes an interrupted run.
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
    /// Print one JSON object on stdout instead of a table.
    #[arg(long, global = true)]
    json: bool,
    /// Draw the layer sizes as a bar chart into this SVG file.
    #[arg(long, value_name = "FILE.svg", global = true)]
    plot: Option<PathBuf>,
    /// Stop the BFS once layer D is complete.
    #[arg(long, value_name = "D", global = true)]
    max_depth: Option<usize>,
    /// Keep the two-bit BFS table on disk in --store DIR with at most SIZE
    /// of it in memory (bytes, or with a K, M or G suffix: 512M), a window
    /// of ranks at a time: searches past the machine's memory.
    #[arg(long, value_name = "SIZE", value_parser = parse_size, global = true)]
    memory: Option<u64>,
    /// Use the game's inversion symmetry (section 8.1; Peg Solitaire, with
    /// one-bit BFS): search only to half the goal's depth and join the
    /// halves, deciding whether the goal is reachable.
    #[arg(long, global = true)]
    inversion: bool,
}

pub(super) fn run(args: BfsArgs, job: &MpiJob) -> Result<()> {
    let stop = stop_on_signals(job);
    let algorithm: Algorithm = args.algo.into();
    refuse_layer_flags(
        algorithm,
        &[
            ("--max-depth", args.max_depth.is_some()),
            ("--plot", args.plot.is_some()),
        ],
    )?;
    if let Some(path) = &args.plot {
        // Found out now, not after a long search whose output would be lost.
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(|e| Error::on_file("write --plot", path, e))?;
    }
    let request = BfsRequest {
        algorithm,
        processor: args.backend.into(),
        device_memory: args.device.device_memory,
        threads: args.threads,
        store: args.store.clone(),
        max_depth: args.max_depth,
        memory: args.memory,
        inversion: args.inversion,
    };
    let bfs = Bfs::prepare(request, job)?;
    args.game.visit(BfsCommand {
        args: &args,
        bfs: &bfs,
        stop,
    })
}

/// The `bfs` command on a game: the search, shown as it runs, then its
/// report as a table or JSON.
struct BfsCommand<'a> {
    args: &'a BfsArgs,
    bfs: &'a Bfs<'a>,
    /// Asks the search to stop (Ctrl-C).
    stop: Option<&'a AtomicBool>,
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
    type Output = ();

    fn visit<S: Space + Picture>(self, space: &S) -> Result<()> {
        // The game is read: a signal now stops the work, not the process.
        arm(self.stop);
        let bfs = self.bfs;
        let algorithm = bfs.request().algorithm;
        let human = !self.args.json;
        let reports = bfs.reports();
        let (columns, row) = table_layout(space, algorithm);
        let header = format!(
            "{} · {} · {} · {} of {}\n{columns}",
            space.descriptor(),
            algorithm.describe(),
            bfs.describe(),
            match &self.args.store {
                Some(dir) if self.args.memory.is_some() =>
                    format!("table on disk in {}", dir.display()),
                Some(dir) => format!("file table in {}", dir.display()),
                None => "heap table".to_string(),
            },
            bytes(bfs.table_bytes(space))
        );
        let display = if human {
            Display::new(Some(header), Some(row))
        } else {
            Display::new(None, None)
        };
        let shown: &dyn Progress = if reports { &display } else { &Silent };
        let outcome = bfs.run(space, shown, self.stop);
        display.finish();
        let report = outcome?;
        if !reports {
            return Ok(());
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
            print_traffic(bfs.distributed());
        } else {
            println!("{}", bfs.report(space, &report).to_json());
        }
        Ok(())
    }
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
