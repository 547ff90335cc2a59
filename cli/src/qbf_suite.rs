//! `bitsolve qbf suite`: the cross-check at scale. Flags to a suite of
//! generated instances (`bitsolve::qbf::instances`), its run
//! (`bitsolve::qbf::suite`), and the tallies as a table, JSON or a plot.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{Value, json};

use super::plot::{Series, plot_times_by_depth};
use bitsolve::error::{Error, Result};
use bitsolve::qbf::Preprocessing;
use bitsolve::qbf::encodings::Encoding;
use bitsolve::qbf::instances::{Bases, Family, Instance, generate};
use bitsolve::qbf::runner::DEFAULT_SOLVER;
use bitsolve::qbf::suite::{Solved, SuiteOptions, Summary, Verdict, probe_solver, run};

#[derive(Args, Debug)]
pub struct SuiteArgs {
    /// Instances to generate.
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// Seed of the generator: the same seed, the same instances.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Encodings: "all" (the default) or a comma-separated list.
    #[arg(long, default_value = "all")]
    encodings: String,
    /// A QBF solver command, {file} standing for the QDIMACS file; repeat
    /// the flag for several solvers (default: "depqbf {file}").
    #[arg(long = "solver", value_name = "CMD")]
    solvers: Vec<String>,
    /// Seconds a solver may take on one formula.
    #[arg(long, default_value_t = 20)]
    timeout: u64,
    /// The directory holding hex-hein/ and gttt-3x3/ (.pg files).
    #[arg(long, value_name = "DIR", default_value = "data/positional")]
    data: PathBuf,
    /// Draw solve time against depth (exhaustive search and each solver)
    /// to an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Print one JSON object on stdout.
    #[arg(long)]
    json: bool,
}

impl SuiteArgs {
    fn options(&self) -> Result<SuiteOptions> {
        if self.timeout == 0 {
            return Err(Error::InvalidParameter(
                "--timeout must be at least 1 second".into(),
            ));
        }
        let solvers = if self.solvers.is_empty() {
            vec![DEFAULT_SOLVER.to_string()]
        } else {
            self.solvers.clone()
        };
        if let Some(empty) = solvers.iter().find(|s| s.trim().is_empty()) {
            return Err(Error::InvalidParameter(format!(
                "--solver {empty:?} is empty: give a command, e.g. \"depqbf {{file}}\""
            )));
        }
        Ok(SuiteOptions {
            encodings: Encoding::parse_list(&self.encodings)?,
            solvers,
            timeout: Duration::from_secs(self.timeout),
            preprocessing: Preprocessing::default(),
        })
    }
}

/// The times behind `--plot`: per instance, its depth and exhaustive
/// seconds; per solver, every answered formula's depth and seconds.
struct Times {
    exhaustive: Vec<(usize, f64)>,
    solvers: Vec<Vec<(usize, f64)>>,
}

impl Times {
    fn add(&mut self, instance: &Instance, solved: &Solved) {
        let depth = instance.query.depth();
        self.exhaustive.push((depth, solved.exhaustive_seconds));
        for (times, rows) in self.solvers.iter_mut().zip(&solved.rows) {
            times.extend(
                rows.iter()
                    .filter(|row| matches!(Verdict::of(row), Verdict::Agrees | Verdict::Disagrees))
                    .map(|row| (depth, row.seconds)),
            );
        }
    }
}

/// Instances and Black's wins per family, in family order.
fn families(instances: &[Instance], answers: &[bool]) -> Vec<(Family, usize, usize)> {
    let mut counts: Vec<(Family, usize, usize)> = Vec::new();
    for (instance, &wins) in instances.iter().zip(answers) {
        match counts.iter_mut().find(|(f, _, _)| *f == instance.family) {
            Some(entry) => {
                entry.1 += 1;
                entry.2 += usize::from(wins);
            }
            None => counts.push((instance.family, 1, usize::from(wins))),
        }
    }
    counts.sort_by_key(|(family, _, _)| *family);
    counts
}

pub(super) fn run_suite(args: &SuiteArgs) -> Result<()> {
    if args.count == 0 {
        return Err(Error::InvalidParameter("--count must be at least 1".into()));
    }
    let options = args.options()?;
    if let Some(plot) = &args.plot
        && plot.extension().is_none_or(|e| e != "svg")
    {
        return Err(Error::InvalidParameter(format!(
            "--plot {} should name an .svg file",
            plot.display()
        )));
    }
    let instances = generate(&Bases::load(&args.data)?, args.count, args.seed)?;
    for solver in &options.solvers {
        probe_solver(solver, options.timeout)?;
    }
    let started = Instant::now();
    let mut last_report = Instant::now();
    let mut answers = Vec::with_capacity(instances.len());
    let mut times = Times {
        exhaustive: Vec::new(),
        solvers: vec![Vec::new(); options.solvers.len()],
    };
    let summary = run(&instances, &options, |index, instance, solved, summary| {
        answers.push(solved.black_wins);
        times.add(instance, solved);
        // Long runs say how far they are, every few seconds, on stderr.
        if last_report.elapsed() >= Duration::from_secs(5) && index + 1 < instances.len() {
            last_report = Instant::now();
            eprintln!(
                "bitsolve: qbf suite: {}/{} instances, {} disagreements, {} time-outs, {:.0} s",
                index + 1,
                instances.len(),
                summary.disagreements(),
                summary.timeouts(),
                started.elapsed().as_secs_f64()
            );
        }
    })?;
    let wall = started.elapsed().as_secs_f64();
    let families = families(&instances, &answers);
    if args.json {
        println!("{}", to_json(args, &options, &summary, &families, wall));
    } else {
        print_table(args, &options, &summary, &families, wall);
    }
    if let Some(path) = &args.plot {
        let mut series = vec![Series {
            name: "exhaustive search".into(),
            points: times.exhaustive,
        }];
        for (solver, points) in options.solvers.iter().zip(times.solvers) {
            series.push(Series {
                name: format!("{solver} (each formula)"),
                points,
            });
        }
        let title = format!(
            "qbf suite: {} instances, seed {}: seconds against depth",
            summary.instances, args.seed
        );
        plot_times_by_depth(path, &title, &series)?;
    }
    if summary.disagreements() > 0 {
        return Err(Error::Unsupported(format!(
            "{} encoding answer(s) disagree with exhaustive search (listed above)",
            summary.disagreements()
        )));
    }
    if summary.compared() == 0 {
        return Err(Error::Unsupported(
            "no formula's answer could be compared with exhaustive search (every one timed out, failed or did not apply)"
                .into(),
        ));
    }
    Ok(())
}

fn print_table(
    args: &SuiteArgs,
    options: &SuiteOptions,
    summary: &Summary,
    families: &[(Family, usize, usize)],
    wall: f64,
) {
    println!(
        "qbf suite, seed {}: {} instances; Black wins {}, does not win {}",
        args.seed,
        summary.instances,
        summary.black_wins,
        summary.instances - summary.black_wins
    );
    for (family, count, wins) in families {
        println!(
            "  {:<12} {count:>5} instances, Black wins {wins}, does not win {}",
            family.name(),
            count - wins
        );
    }
    println!(
        "exhaustive search: {:.2} s in all; timeout {} s per formula",
        summary.exhaustive_seconds, args.timeout
    );
    for (solver, tallies) in options.solvers.iter().zip(&summary.tallies) {
        println!();
        println!("solver: {solver}");
        println!(
            "{:<9} {:>7} {:>9} {:>9} {:>7} {:>13} {:>7} {:>10}",
            "encoding", "agree", "disagree", "time-out", "n/a", "inconclusive", "failed", "seconds"
        );
        for (encoding, t) in options.encodings.iter().zip(tallies) {
            println!(
                "{:<9} {:>7} {:>9} {:>9} {:>7} {:>13} {:>7} {:>10.2}",
                encoding.name(),
                t.agrees,
                t.disagrees,
                t.timed_out,
                t.not_applicable,
                t.inconclusive,
                t.failed,
                t.seconds
            );
        }
    }
    if !summary.problems.is_empty() {
        println!();
        for problem in &summary.problems {
            let what = match problem.verdict {
                Verdict::Disagrees => "DISAGREES",
                Verdict::TimedOut => "timed out",
                _ => "failed",
            };
            println!(
                "instance {} ({}, {} moves played, position {}, turns {}): {} with \"{}\" {what} (exhaustive: Black {}) {}",
                problem.instance,
                problem.source,
                problem.placed,
                problem.position,
                problem.turns,
                problem.encoding.name(),
                problem.solver,
                if problem.black_wins {
                    "wins"
                } else {
                    "does not win"
                },
                problem.note
            );
        }
    }
    println!();
    println!(
        "{} disagreements, {} time-outs; wall time {:.1} s",
        summary.disagreements(),
        summary.timeouts(),
        wall
    );
}

fn to_json(
    args: &SuiteArgs,
    options: &SuiteOptions,
    summary: &Summary,
    families: &[(Family, usize, usize)],
    wall: f64,
) -> Value {
    let solvers: Vec<Value> = options
        .solvers
        .iter()
        .zip(&summary.tallies)
        .map(|(solver, tallies)| {
            let encodings: Vec<Value> = options
                .encodings
                .iter()
                .zip(tallies)
                .map(|(encoding, t)| {
                    json!({
                        "name": encoding.name(),
                        "agrees": t.agrees,
                        "disagrees": t.disagrees,
                        "timeouts": t.timed_out,
                        "not_applicable": t.not_applicable,
                        "inconclusive": t.inconclusive,
                        "failed": t.failed,
                        "seconds": t.seconds,
                    })
                })
                .collect();
            json!({"command": solver, "encodings": encodings})
        })
        .collect();
    let families: Vec<Value> = families
        .iter()
        .map(|(family, count, wins)| {
            json!({"family": family.name(), "instances": count, "black_wins": wins})
        })
        .collect();
    let problems: Vec<Value> = summary
        .problems
        .iter()
        .map(|p| {
            json!({
                "instance": p.instance,
                "source": p.source,
                "position": p.position,
                "turns": p.turns,
                "placed": p.placed,
                "solver": p.solver,
                "encoding": p.encoding.name(),
                "verdict": match p.verdict {
                    Verdict::Disagrees => "disagrees",
                    Verdict::TimedOut => "timeout",
                    _ => "failed",
                },
                "black_wins": p.black_wins,
                "note": p.note,
            })
        })
        .collect();
    json!({
        "instances": summary.instances,
        "seed": args.seed,
        "timeout": args.timeout,
        "black_wins": summary.black_wins,
        "black_does_not_win": summary.instances - summary.black_wins,
        "families": families,
        "exhaustive_seconds": summary.exhaustive_seconds,
        "wall_seconds": wall,
        "disagreements": summary.disagreements(),
        "timeouts": summary.timeouts(),
        "solvers": solvers,
        "problems": problems,
    })
}
