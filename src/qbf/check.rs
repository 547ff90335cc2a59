//! Cross-checking encodings: every encoding's formula through a QBF
//! solver, against the exhaustive solver's answer.

use std::path::PathBuf;
use std::time::Duration;

use super::encodings::Encoding;
use super::formula::Formula;
use super::prepare::{Preprocessing, prepare};
use super::runner::{is_timeout, solve_with};
use crate::error::Result;
use crate::games::positional::{PositionalGame, Query};
use crate::qbf::exhaustive::{Outcome, solve, solve_on};
use crate::search::retro2::seam::RetroBackend;

/// One encoding's row of a check.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The encoding the row is about.
    pub encoding: Encoding,
    /// Variables (and gates) and clauses (gates for QCIR), of the formula
    /// as written; `None` when the encoding does not apply.
    pub size: Option<(u64, u64)>,
    /// Seconds the solver ran (0 when the encoding does not apply).
    pub seconds: f64,
    /// The solver's answer to "does Black win within d moves?" (for the
    /// pairing encoding, the answer it implies, when it implies one).
    pub answer: Option<bool>,
    /// Whether that agrees with exhaustive search (`None`: nothing to compare).
    pub agrees: Option<bool>,
    /// Why there is no answer (not applicable, inconclusive, solver error).
    pub note: String,
    /// Whether the solver ran past the time limit (a suite counts time-outs
    /// apart from other failures).
    pub timed_out: bool,
}

/// How a check prepares the formulas and runs the solver.
pub struct CheckOptions {
    /// The preprocessing of the game before encoding.
    pub preprocessing: Preprocessing,
    /// The solver command, as [`solve_with`] takes it.
    pub solver: String,
    /// The time limit of each solver run.
    pub timeout: Duration,
}

/// The exhaustive answer, and the rows of the encodings.
pub struct Check {
    /// The exhaustive solver's answer: whether Black wins within d moves.
    pub black_wins: bool,
    /// Seconds the exhaustive solve took.
    pub exhaustive_seconds: f64,
    /// Positions the exhaustive solver's tables held.
    pub states: u64,
    /// One row per encoding, in the order given.
    pub rows: Vec<Row>,
}

fn scratch_file(encoding: Encoding) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "bitsolve-{}-{}-{unique}.qdimacs",
        std::process::id(),
        encoding.name()
    ))
}

/// Most free cells on which the pairing encoding's "Black cannot win" is
/// checked against the whole game, solved exhaustively (3^16 boards at
/// most, seconds); on larger boards (a 5x5 Harary board from the start:
/// 25 cells, beyond the exhaustive solver) against the depth's answer,
/// which it implies.
pub const WHOLE_GAME_CELLS: usize = 16;

/// Runs `encodings` on `game` under `query` and compares with the
/// exhaustive solver.
pub fn check(
    game: &PositionalGame,
    query: &Query,
    encodings: &[Encoding],
    options: &CheckOptions,
) -> Result<Check> {
    check_on(&crate::backend::CpuBackend, game, query, encodings, options)
}

/// [`check`] with the exhaustive solve's sweeps on `backend`.
pub fn check_on<B: RetroBackend>(
    backend: &B,
    game: &PositionalGame,
    query: &Query,
    encodings: &[Encoding],
    options: &CheckOptions,
) -> Result<Check> {
    let exhaustive = solve_on(backend, game, query)?;
    let black_wins = exhaustive.outcome == Outcome::BlackWins;
    let rows = compare(game, query, black_wins, encodings, options)?;
    Ok(Check {
        black_wins,
        exhaustive_seconds: exhaustive.seconds,
        states: exhaustive.states,
        rows,
    })
}

/// The rows of [`check`] against an exhaustive answer already known
/// (`black_wins`): a suite that runs several solvers on one instance
/// solves it exhaustively once.
pub fn compare(
    game: &PositionalGame,
    query: &Query,
    black_wins: bool,
    encodings: &[Encoding],
    options: &CheckOptions,
) -> Result<Vec<Row>> {
    let prepared = prepare(game, query, options.preprocessing)?;
    // The pairing encoding speaks of the whole maker-breaker game.
    let mut full_game: Option<bool> = None;
    let mut rows = Vec::new();
    for &encoding in encodings {
        let formula = match encoding.encode(&prepared) {
            Ok(formula) => formula,
            Err(error) => {
                rows.push(Row {
                    encoding,
                    size: None,
                    seconds: 0.0,
                    answer: None,
                    agrees: None,
                    note: error.to_string(),
                    timed_out: false,
                });
                continue;
            }
        };
        let size = Some(formula.size());
        let file = scratch_file(encoding);
        let started = std::time::Instant::now();
        let outcome = solve_with(&options.solver, &formula.to_cnf(), &file, options.timeout);
        let solved = match outcome {
            Ok(solved) => solved,
            Err(error) => {
                rows.push(Row {
                    encoding,
                    size,
                    seconds: started.elapsed().as_secs_f64(),
                    answer: None,
                    agrees: None,
                    timed_out: is_timeout(&error),
                    note: error.to_string(),
                });
                continue;
            }
        };
        let mut row = Row {
            encoding,
            size,
            seconds: solved.seconds,
            answer: None,
            agrees: None,
            note: String::new(),
            timed_out: false,
        };
        if encoding.is_complement() {
            let whole_game = prepared.depth() >= prepared.n();
            if !solved.answer && !whole_game {
                // Nothing to compare: the whole game is not solved for it
                // (on a 5x5 Hex board that would be billions of positions).
                row.note = "no pair paving within the depth: inconclusive".into();
                rows.push(row);
                continue;
            }
            let free = game.free_cells().len();
            if solved.answer && free > WHOLE_GAME_CELLS {
                // "Black cannot win at all" implies "not within d": checked
                // against the depth's answer, the whole game being too
                // large to solve here.
                row.answer = Some(false);
                row.agrees = Some(!black_wins);
                row.note = format!(
                    "blocking pair paving found; checked against depth {} only (the whole game's {free} free cells are more than {WHOLE_GAME_CELLS})",
                    query.depth()
                );
                rows.push(row);
                continue;
            }
            let full = match full_game {
                Some(full) => full,
                None => {
                    let mut breaker = game.clone();
                    breaker.white_wins.clear();
                    let whole = Query::alternating(game.free_cells().len());
                    let full = solve(&breaker, &whole)?.outcome == Outcome::BlackWins;
                    full_game = Some(full);
                    full
                }
            };
            if solved.answer {
                // A pair-paving blocking strategy: Black cannot win at all.
                row.answer = Some(false);
                row.agrees = Some(!full);
                row.note = "blocking pair paving found".into();
            } else {
                row.answer = Some(true);
                row.agrees = Some(full);
            }
        } else {
            row.answer = Some(solved.answer);
            row.agrees = Some(solved.answer == black_wins);
        }
        rows.push(row);
    }
    Ok(rows)
}

impl Formula {
    /// File extension of the formula's own format.
    pub fn extension(&self) -> &'static str {
        match self {
            Formula::Cnf(_) => "qdimacs",
            Formula::Circuit(_) => "qcir",
        }
    }
}
