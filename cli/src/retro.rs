//! `bitsolve retro`: two-bit retrograde analysis of a two-player game into
//! a database of solved layers (read by `query`, `play` and `serve` through
//! [`bitsolve::database`]). Written once for every [`TwoPlayerGame`]; the
//! games' rules stay in their files.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::bfs::BackendArg;
use super::device::DeviceArgs;
use super::format::{bytes, group_digits};
use super::games::TwoPlayerArg;
use super::interrupt::{arm, stop_on_signals};
use super::traffic::print_traffic;
use bitsolve::error::Result;
use bitsolve::games::{TwoPlayerGame, TwoPlayerVisitor};
use bitsolve::jobs::retro::{Retro, RetroRequest, SolvedLayers, shown};
use bitsolve::jobs::{MpiJob, Report};
use bitsolve::progress::terminal::Display;
use bitsolve::search::retro2::{LayerReport, RECORD_EVERY};
use bitsolve::search::{Progress, Silent};
use bitsolve::space::Player;

#[derive(Args, Debug)]
pub struct RetroArgs {
    #[command(subcommand)]
    game: TwoPlayerArg,
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

pub(super) fn run_retro(args: RetroArgs, job: &MpiJob) -> Result<()> {
    let request = RetroRequest {
        layers: args.layers,
        top: args.geese,
        store: args.store.clone(),
        processor: args.backend.into(),
        device_memory: args.device.device_memory,
        threads: args.threads,
        checkpoint_every: args.checkpoint_every,
        distances: args.distances,
    };
    let retro = Retro::prepare(request, job)?;
    args.game.visit(RetroCommand {
        args: &args,
        retro: &retro,
        stop: stop_on_signals(job),
    })
}

/// The `retro` command on a game: a row printed as each layer is solved,
/// the distances where asked, then the report as a table or JSON.
struct RetroCommand<'a> {
    args: &'a RetroArgs,
    retro: &'a Retro<'a>,
    /// Asks the run to stop (Ctrl-C).
    stop: Option<&'a AtomicBool>,
}

impl TwoPlayerVisitor for RetroCommand<'_> {
    type Output = ();

    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<()> {
        // The game is read: a signal now stops the work, not the process.
        arm(self.stop);
        let (args, retro) = (self.args, self.retro);
        let layers = retro.layers(game)?;
        let top = *layers.end();
        let bits = retro.machine().retro_bits_per_position();
        let display = if args.json {
            Display::new(None, None)
        } else {
            Display::new(Some(table_header(game, top, &retro.describe(), bits)), None)
        };
        let reports = retro.distributed().reports();
        let print_layer = |report: &LayerReport, peak: Option<u64>| {
            if report.layer == 0 {
                return;
            }
            if !args.json {
                display.print_header();
                display.suspend(|| print_row(report, peak));
            } else if reports {
                // The object comes at the end: a line per layer on stderr
                // keeps each layer's figures in the log of a long run that
                // is stopped before it (and resumed by another process).
                display.suspend(|| eprintln!("bitsolve: {}", layer_line(game, report, peak)));
            }
        };
        let shown_progress: &dyn Progress = if reports { &display } else { &Silent };
        let solved = retro.solve(game, layers, shown_progress, &print_layer, self.stop);
        display.finish();
        let solved = solved?;
        let longest = retro.distances(game, args.game.name(), &solved, &display, self.stop);
        display.finish();
        let longest = longest?;
        display.print_header();
        if args.json {
            println!("{}", retro.report(game, top, &solved, &longest).to_json());
        } else {
            print_summary(game, retro, args, &solved, &longest);
        }
        Ok(())
    }
}

/// The lines under the table: the work against full scans, the store,
/// the MPI traffic and each layer's longest distance.
fn print_summary<G: TwoPlayerGame>(
    game: &G,
    retro: &Retro,
    args: &RetroArgs,
    solved: &SolvedLayers,
    longest: &BTreeMap<usize, u16>,
) {
    let examined: u64 = shown(solved).map(|r| r.examined.iter().sum::<u64>()).sum();
    let full: u64 = shown(solved).map(|r| r.full_scan_work()).sum();
    let seconds: f64 = shown(solved).map(|r| r.seconds).sum();
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
    if let Some(dir) = &args.store {
        println!("database in {}", dir.display());
    }
    print_traffic(retro.distributed());
    for (layer, plies) in longest {
        if *layer > 0 {
            println!(
                "distances of {}: the longest finite one is {plies} plies",
                game.layer_name(*layer)
            );
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
