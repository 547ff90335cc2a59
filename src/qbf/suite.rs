//! The cross-check at scale (`qbf suite`): many generated instances
//! ([`super::instances`]), each solved once exhaustively and then through
//! every encoding and every solver by [`compare`], the answers tallied
//! per encoding and solver. A single disagreement is a bug in an encoding,
//! a solver or the exhaustive solver; time-outs and failures are counted
//! apart, so that a slow encoding does not pass for a wrong one.

use std::time::Duration;

use super::check::{CheckOptions, Row, compare};
use super::encodings::Encoding;
use super::exhaustive::{Outcome, solve};
use super::formula::{Cnf, Quantifier};
use super::instances::Instance;
use super::prepare::Preprocessing;
use super::runner::solve_with;
use crate::error::{Error, Result};

/// How a suite runs each instance.
#[derive(Clone, Debug)]
pub struct SuiteOptions {
    /// The encodings, in the order of the report.
    pub encodings: Vec<Encoding>,
    /// The solver commands, as [`solve_with`] takes them.
    pub solvers: Vec<String>,
    /// The time limit of each solver run.
    pub timeout: Duration,
    /// The preprocessing of each game before encoding.
    pub preprocessing: Preprocessing,
}

/// What became of one formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The solver's answer is the exhaustive one.
    Agrees,
    /// The solver's answer is not the exhaustive one.
    Disagrees,
    /// The solver ran past the time limit.
    TimedOut,
    /// The encoding does not apply to the game or turn order.
    NotApplicable,
    /// The formula's answer decides nothing here (the pairing encoding's
    /// "no pair paving" short of the whole game).
    Inconclusive,
    /// The solver failed otherwise (crashed, gave no answer).
    Failed,
}

impl Verdict {
    /// The verdict of a row of [`compare`].
    pub fn of(row: &Row) -> Verdict {
        match (row.agrees, row.size) {
            (Some(true), _) => Verdict::Agrees,
            (Some(false), _) => Verdict::Disagrees,
            (None, None) => Verdict::NotApplicable,
            (None, Some(_)) if row.timed_out => Verdict::TimedOut,
            (None, Some(_)) if row.answer.is_none() && row.note.contains("inconclusive") => {
                Verdict::Inconclusive
            }
            (None, Some(_)) => Verdict::Failed,
        }
    }
}

/// One instance, solved.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The exhaustive answer: whether Black wins within the depth.
    pub black_wins: bool,
    /// Seconds the exhaustive solve took.
    pub exhaustive_seconds: f64,
    /// Positions the exhaustive solver's tables held.
    pub states: u64,
    /// `rows[s][e]`: solver s on encoding e, in the options' orders.
    pub rows: Vec<Vec<Row>>,
}

/// Solves `instance` exhaustively, then every encoding with every solver.
pub(crate) fn run_instance(instance: &Instance, options: &SuiteOptions) -> Result<Solved> {
    let exhaustive = solve(&instance.game, &instance.query)?;
    let black_wins = exhaustive.outcome == Outcome::BlackWins;
    let rows = options
        .solvers
        .iter()
        .map(|solver| {
            let check = CheckOptions {
                preprocessing: options.preprocessing,
                solver: solver.clone(),
                timeout: options.timeout,
            };
            compare(
                &instance.game,
                &instance.query,
                black_wins,
                &options.encodings,
                &check,
            )
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Solved {
        black_wins,
        exhaustive_seconds: exhaustive.seconds,
        states: exhaustive.states,
        rows,
    })
}

/// The verdicts of one encoding with one solver, and the solver's time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Answers equal to the exhaustive one.
    pub agrees: u64,
    /// Answers that differ from it (must stay 0).
    pub disagrees: u64,
    /// Solver runs past the time limit.
    pub timed_out: u64,
    /// Instances the encoding does not apply to.
    pub not_applicable: u64,
    /// Answers that decide nothing (the pairing encoding short of the
    /// whole game).
    pub inconclusive: u64,
    /// Other solver failures.
    pub failed: u64,
    /// Seconds the solver ran, all formulas together.
    pub seconds: f64,
}

impl Tally {
    fn add(&mut self, row: &Row) {
        match Verdict::of(row) {
            Verdict::Agrees => self.agrees += 1,
            Verdict::Disagrees => self.disagrees += 1,
            Verdict::TimedOut => self.timed_out += 1,
            Verdict::NotApplicable => self.not_applicable += 1,
            Verdict::Inconclusive => self.inconclusive += 1,
            Verdict::Failed => self.failed += 1,
        }
        self.seconds += row.seconds;
    }
}

/// A formula that disagreed, failed or timed out, with what reproduces it.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The instance's index in the suite.
    pub instance: usize,
    /// The instance's game (a file's name or the built-in game's).
    pub source: String,
    /// The position, as `--position` reads it.
    pub position: String,
    /// The turn order, `B` and `W` per time point.
    pub turns: String,
    /// Moves played at random from the game's start.
    pub placed: usize,
    /// The solver command.
    pub solver: String,
    /// The encoding.
    pub encoding: Encoding,
    /// Disagrees, TimedOut or Failed.
    pub verdict: Verdict,
    /// The exhaustive answer.
    pub black_wins: bool,
    /// The row's note (the solver's error, for a failure).
    pub note: String,
}

/// The tallies of a suite so far.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Instances solved.
    pub instances: usize,
    /// Of them, those Black wins within the depth.
    pub black_wins: usize,
    /// Seconds of exhaustive solving, all instances together.
    pub exhaustive_seconds: f64,
    /// `tallies[s][e]`: solver s on encoding e.
    pub tallies: Vec<Vec<Tally>>,
    /// Every disagreement, time-out and failure, in the order met.
    pub problems: Vec<Problem>,
}

impl Summary {
    /// An empty summary for `options`' solvers and encodings.
    pub fn new(options: &SuiteOptions) -> Self {
        Summary {
            instances: 0,
            black_wins: 0,
            exhaustive_seconds: 0.0,
            tallies: vec![vec![Tally::default(); options.encodings.len()]; options.solvers.len()],
            problems: Vec::new(),
        }
    }

    /// Counts `solved`, instance number `index` of the suite.
    pub fn add(
        &mut self,
        index: usize,
        instance: &Instance,
        solved: &Solved,
        options: &SuiteOptions,
    ) {
        self.instances += 1;
        self.black_wins += usize::from(solved.black_wins);
        self.exhaustive_seconds += solved.exhaustive_seconds;
        for (s, rows) in solved.rows.iter().enumerate() {
            for (e, row) in rows.iter().enumerate() {
                self.tallies[s][e].add(row);
                let verdict = Verdict::of(row);
                if matches!(
                    verdict,
                    Verdict::Disagrees | Verdict::TimedOut | Verdict::Failed
                ) {
                    self.problems.push(Problem {
                        instance: index,
                        source: instance.source.clone(),
                        position: instance.picture(),
                        turns: instance.turns(),
                        placed: instance.placed,
                        solver: options.solvers[s].clone(),
                        encoding: row.encoding,
                        verdict,
                        black_wins: solved.black_wins,
                        note: row.note.clone(),
                    });
                }
            }
        }
    }

    /// Disagreements over every encoding and solver.
    pub fn disagreements(&self) -> u64 {
        self.tallies.iter().flatten().map(|t| t.disagrees).sum()
    }

    /// Time-outs over every encoding and solver.
    pub fn timeouts(&self) -> u64 {
        self.tallies.iter().flatten().map(|t| t.timed_out).sum()
    }

    /// Answers compared with exhaustive search, agreeing or not.
    pub fn compared(&self) -> u64 {
        self.tallies
            .iter()
            .flatten()
            .map(|t| t.agrees + t.disagrees)
            .sum()
    }
}

/// Runs every instance, calling `each` after each one (for progress and
/// plots), and returns the tallies.
pub fn run(
    instances: &[Instance],
    options: &SuiteOptions,
    mut each: impl FnMut(usize, &Instance, &Solved, &Summary),
) -> Result<Summary> {
    let mut summary = Summary::new(options);
    for (index, instance) in instances.iter().enumerate() {
        let solved = run_instance(instance, options).map_err(|error| {
            // Name the instance: an error here is the suite's, not the user's.
            Error::Unsupported(format!(
                "instance {index} ({} position {} turns {}): {error}",
                instance.source,
                instance.picture(),
                instance.turns()
            ))
        })?;
        summary.add(index, instance, &solved, options);
        each(index, instance, &solved, &summary);
    }
    Ok(summary)
}

/// Checks that `solver` runs and answers two tiny formulas right, so that
/// a wrong command fails once, with the solver's own message, instead of
/// once per formula.
pub fn probe_solver(solver: &str, timeout: Duration) -> Result<()> {
    // forall x exists y. y = x (true); exists y forall x. y = x (false).
    let equal = vec![vec![1, -2], vec![-1, 2]];
    let formulas = [
        (
            true,
            vec![(Quantifier::Forall, vec![1]), (Quantifier::Exists, vec![2])],
        ),
        (
            false,
            vec![(Quantifier::Exists, vec![2]), (Quantifier::Forall, vec![1])],
        ),
    ];
    for (expected, prefix) in formulas {
        let cnf = Cnf {
            variables: 2,
            prefix,
            clauses: equal.clone(),
        };
        let file = std::env::temp_dir().join(format!(
            "bitsolve-probe-{}-{expected}.qdimacs",
            std::process::id()
        ));
        let answer = solve_with(solver, &cnf, &file, timeout).map_err(|error| {
            Error::Solver(format!("solver \"{solver}\" does not work: {error}"))
        })?;
        if answer.answer != expected {
            return Err(Error::Solver(format!(
                "solver \"{solver}\" calls a {expected} two-variable formula {}",
                answer.answer
            )));
        }
    }
    Ok(())
}
