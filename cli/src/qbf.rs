//! `bitsolve qbf export|solve|check`: positional games as QBF.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};
use serde_json::json;

use super::bfs::BackendArg;
use super::device::DeviceArgs;
use super::format::group_digits;
use super::games::PositionalSpec;
use super::note;
use bitsolve::error::{Error, Result, quoted};
use bitsolve::games::positional::{PositionalGame, Query, Side, pg};
use bitsolve::games::registry::{ConnectionGoal, open_positional};
use bitsolve::games::text_file::read_text;
use bitsolve::jobs::{Machine, MpiJob, open_device};
use bitsolve::qbf::check::{Check, CheckOptions};
use bitsolve::qbf::encodings::{ALL, Encoding};
use bitsolve::qbf::runner::{DEFAULT_SOLVER, solve_with};
use bitsolve::qbf::{Formula, Preprocessing, prepare};

#[derive(Subcommand, Debug)]
pub enum QbfCommand {
    /// Write one encoding of the question to a file (QDIMACS or QCIR).
    Export(QbfArgs),
    /// Encode and run the QBF solver: does Black win within the depth?
    Solve(QbfArgs),
    /// Run encodings through the solver and the exhaustive solver, and compare.
    Check(QbfArgs),
    /// The cross-check at scale: generated instances (Hex puzzles' positions,
    /// Harary's animals, tic-tac-toe), every encoding and solver against
    /// exhaustive search, tallied.
    Suite(super::qbf_suite::SuiteArgs),
}

#[derive(Args, Debug)]
pub struct QbfArgs {
    #[command(subcommand)]
    game: PositionalSpec,
    /// A start position: one character per cell in cell order (X black, O
    /// white, . empty), whitespace ignored.
    #[arg(long, value_name = "FILE", global = true)]
    position: Option<PathBuf>,
    /// Number of moves (odd: Black moves first and last).
    #[arg(long, global = true, conflicts_with = "depths")]
    depth: Option<usize>,
    /// Iterative deepening over the odd depths of a range, e.g. 1..15 (check).
    #[arg(long, global = true, value_name = "FROM..TO")]
    depths: Option<String>,
    /// The encoding (export, solve).
    #[arg(long, global = true, value_parser = encoding_parser())]
    encoding: Option<Encoding>,
    /// Encodings for check: "all" (the default) or a comma-separated list.
    #[arg(long, global = true)]
    encodings: Option<String>,
    /// Output file (export).
    #[arg(short, long, global = true)]
    output: Option<PathBuf>,
    /// Export QCIR encodings as QDIMACS through the Tseitin translation.
    #[arg(long, global = true)]
    qdimacs: bool,
    /// QBF solver command; {file} stands for the QDIMACS file (default:
    /// "depqbf {file}").
    #[arg(long, global = true)]
    solver: Option<String>,
    /// Seconds the solver may take on one formula (default: 300).
    #[arg(long, global = true)]
    timeout: Option<u64>,
    /// Drop winning sets longer than Black's moves and non-minimal ones.
    #[arg(long, global = true)]
    prune: bool,
    /// Drop cells in no winning set (maker-breaker, explicit sets).
    #[arg(long, global = true)]
    drop_useless: bool,
    /// Restrict the game's first move to its symmetry-breaking cells.
    #[arg(long, global = true)]
    symmetry_breaking: bool,
    /// Where the exhaustive solve of a check sweeps its layers: all CPU
    /// cores, or the GPU (each layer on the device where its rules and
    /// tables fit).
    #[arg(long, value_enum, default_value = "cpu", global = true)]
    backend: BackendArg,
    #[command(flatten)]
    device: DeviceArgs,
    /// Print one JSON object on stdout.
    #[arg(long, global = true)]
    json: bool,
}

/// Seconds a solver may take when --timeout is not given.
const DEFAULT_TIMEOUT: u64 = 300;

impl QbfArgs {
    /// Refuses the flags `command` would ignore, each with why and what
    /// to give instead, rather than running without them.
    fn refuse_unused(&self, command: &str) -> Result<()> {
        let no_solver =
            "qbf export runs no solver (--solver and --timeout are for solve and check)";
        let no_file =
            format!("qbf {command} writes no formula file (-o and --qdimacs are for export)");
        let one_depth =
            format!("--depths deepens a qbf check; {command} takes one depth: give --depth D");
        let one_encoding = format!(
            "--encodings lists the encodings of a qbf check; {command} takes one: give --encoding E"
        );
        let unused: Vec<(bool, String)> = match command {
            "export" => vec![
                (self.depths.is_some(), one_depth),
                (self.encodings.is_some(), one_encoding),
                (self.solver.is_some(), no_solver.into()),
                (self.timeout.is_some(), no_solver.into()),
            ],
            "solve" => vec![
                (self.depths.is_some(), one_depth),
                (self.encodings.is_some(), one_encoding),
                (self.output.is_some(), no_file.clone()),
                (self.qdimacs, no_file),
            ],
            _ => vec![
                (
                    self.encoding.is_some(),
                    "qbf check runs --encodings (all by default), not --encoding: give --encodings E"
                        .into(),
                ),
                (self.output.is_some(), no_file.clone()),
                (self.qdimacs, no_file),
            ],
        };
        let no_exhaustive = format!(
            "qbf {command} runs no exhaustive solve (--backend gpu and --device-memory are for check)"
        );
        let exhaustive = [
            (
                command != "check" && self.backend == BackendArg::Gpu,
                no_exhaustive.clone(),
            ),
            (
                command != "check" && self.device.device_memory.is_some(),
                no_exhaustive,
            ),
        ];
        match unused
            .into_iter()
            .chain(exhaustive)
            .find(|(given, _)| *given)
        {
            Some((_, why)) => Err(Error::InvalidParameter(why)),
            None => Ok(()),
        }
    }

    /// Notes on preprocessing flags that change nothing for this game and
    /// query, so that a run without effect does not pass for one with it.
    fn note_idle_preprocessing(&self, game: &PositionalGame, query: &Query, notes: &mut Notes) {
        if self.symmetry_breaking {
            if game.first_move_restriction().is_none() {
                notes.push(format!(
                    "--symmetry-breaking changes nothing: {} has no symmetry-breaking cells (a .pg file lists them in #firstmoves; --position with stones drops them)",
                    game.name
                ));
            } else if query.turns.first() == Some(&Side::White) {
                notes.push("--symmetry-breaking changes nothing: White moves first, and only Black's opening can be restricted".into());
            }
        }
        if self.drop_useless && (game.is_maker_maker() || game.graph.is_some()) {
            notes.push(format!(
                "--drop-useless changes nothing: it drops cells from maker-breaker games with listed winning sets, and {} is {}",
                game.name,
                if game.is_maker_maker() {
                    "maker-maker"
                } else {
                    "a connection game"
                }
            ));
        }
    }

    fn game(&self, notes: &mut Notes) -> Result<(PositionalGame, Option<Query>)> {
        let (game, query) = match &self.game {
            // The explicit encodings read Hex's paths as winning sets; the
            // others read its graph and need no list of paths.
            PositionalSpec::Registered(spec) => (
                open_positional(&spec.name, &spec.options, self.connection_goal()?)?,
                None,
            ),
            PositionalSpec::Pg(file) => {
                let (game, query) = pg::read(file)?;
                (game, Some(query))
            }
        };
        let game = match &self.position {
            Some(file) => {
                let text = read_text(file).map_err(|e| Error::on_file("read", file, e))?;
                let stones = game.black_stones.len() + game.white_stones.len();
                if stones > 0 {
                    notes.push(format!(
                        "--position replaces the {stones} stones of the file's #blackinitials and #whiteinitials"
                    ));
                }
                game.with_position(&text).map_err(|e| e.in_file(file))?
            }
            None => game,
        };
        Ok((game, query))
    }

    fn query(
        &self,
        game: &PositionalGame,
        file_query: Option<Query>,
        notes: &mut Notes,
    ) -> Result<Query> {
        match (self.depth, file_query) {
            (Some(0), _) => Err(Error::InvalidParameter("--depth must be at least 1".into())),
            (Some(depth), file_query) => {
                check_depth(game, depth, "--depth")?;
                if let Some(file_query) = file_query.filter(|q| *q != Query::alternating(depth)) {
                    notes.push(format!(
                        "--depth {depth} replaces the file's #times ({} time points): Black first, alternating",
                        file_query.depth()
                    ));
                }
                Ok(Query::alternating(depth))
            }
            (None, Some(query)) => Ok(query),
            (None, None) => Err(Error::InvalidParameter("give --depth D".into())),
        }
    }

    /// Paths when an encoding this command runs reads winning sets.
    fn connection_goal(&self) -> Result<ConnectionGoal> {
        let encodings = match self.encoding {
            Some(encoding) => vec![encoding],
            None if self.encodings.is_some() => self.encodings()?,
            // solve encodes cor+ unless told; check runs all.
            None => vec![Encoding::CorPlus],
        };
        Ok(if encodings.iter().any(|e| e.reads_sets()) {
            ConnectionGoal::Paths
        } else {
            ConnectionGoal::Graph
        })
    }

    fn preprocessing(&self) -> Preprocessing {
        Preprocessing {
            prune_sets: self.prune,
            drop_useless_cells: self.drop_useless,
            symmetry_breaking: self.symmetry_breaking,
        }
    }

    fn encodings(&self) -> Result<Vec<Encoding>> {
        Encoding::parse_list(self.encodings.as_deref().unwrap_or("all"))
    }

    fn solver(&self) -> String {
        self.solver.clone().unwrap_or_else(|| DEFAULT_SOLVER.into())
    }

    fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout.unwrap_or(DEFAULT_TIMEOUT))
    }

    fn check_options(&self) -> CheckOptions {
        CheckOptions {
            preprocessing: self.preprocessing(),
            solver: self.solver(),
            timeout: self.timeout(),
        }
    }
}

/// A game on n free cells is over within n moves: a deeper question only
/// makes larger formulas (and, for absurd depths, allocations that fail).
fn check_depth(game: &PositionalGame, depth: usize, flag: &str) -> Result<()> {
    game.check_depth(depth, flag)
}

/// "1..15" -> the odd numbers in it, at most the game's free cells.
fn odd_depths(game: &PositionalGame, range: &str) -> Result<Vec<usize>> {
    let bad = || {
        Error::InvalidParameter(format!(
            "--depths wants FROM..TO, e.g. 1..15, got {}",
            quoted(range)
        ))
    };
    let (from, to) = range.split_once("..").ok_or_else(bad)?;
    let from: usize = from.trim().parse().map_err(|_| bad())?;
    let to: usize = to
        .trim()
        .trim_start_matches('=')
        .parse()
        .map_err(|_| bad())?;
    check_depth(game, to, "--depths ..")?;
    let depths: Vec<usize> = (from.max(1)..=to).filter(|d| d % 2 == 1).collect();
    if depths.is_empty() {
        return Err(bad());
    }
    Ok(depths)
}

/// Notes on flags that lost or changed nothing, for the end of a run.
type Notes = Vec<String>;

pub(super) fn run(command: QbfCommand) -> Result<()> {
    let mut notes = Notes::new();
    let outcome = match command {
        QbfCommand::Export(args) => {
            args.refuse_unused("export")?;
            export(&args, &mut notes)
        }
        QbfCommand::Solve(args) => {
            args.refuse_unused("solve")?;
            solve(&args, &mut notes)
        }
        QbfCommand::Check(args) => {
            args.refuse_unused("check")?;
            check_command(&args, &mut notes)
        }
        QbfCommand::Suite(args) => super::qbf_suite::run_suite(&args),
    };
    // The notes qualify an answer; a failed run keeps its one error line.
    if outcome.is_ok() {
        notes.iter().for_each(|message| note(message));
    }
    outcome
}

fn export(args: &QbfArgs, notes: &mut Notes) -> Result<()> {
    let (game, file_query) = args.game(notes)?;
    let query = args.query(&game, file_query, notes)?;
    args.note_idle_preprocessing(&game, &query, notes);
    let encoding = args
        .encoding
        .ok_or_else(|| Error::InvalidParameter("give --encoding".into()))?;
    let output = args
        .output
        .as_ref()
        .ok_or_else(|| Error::InvalidParameter("give -o FILE".into()))?;
    let mut formula = encoding.encode(&prepare(&game, &query, args.preprocessing())?)?;
    if args.qdimacs {
        formula = Formula::Cnf(formula.to_cnf());
    }
    std::fs::write(output, formula.write()).map_err(|e| Error::on_file("write", output, e))?;
    let (variables, clauses) = formula.size();
    let unit = if formula.extension() == "qcir" {
        "gates"
    } else {
        "clauses"
    };
    if args.json {
        println!(
            "{}",
            json!({"encoding": encoding.name(), "format": formula.extension(), "variables": variables, "clauses": clauses, "file": output.display().to_string()})
        );
    } else {
        println!(
            "{} depth {}: {} encoding, {} variables, {} {unit}, written to {} ({})",
            game.name,
            query.depth(),
            encoding.name(),
            group_digits(variables),
            group_digits(clauses),
            output.display(),
            formula.extension()
        );
    }
    Ok(())
}

fn solve(args: &QbfArgs, notes: &mut Notes) -> Result<()> {
    let (game, file_query) = args.game(notes)?;
    let query = args.query(&game, file_query, notes)?;
    args.note_idle_preprocessing(&game, &query, notes);
    let encoding = args.encoding.unwrap_or(Encoding::CorPlus);
    let formula = encoding.encode(&prepare(&game, &query, args.preprocessing())?)?;
    let file = std::env::temp_dir().join(format!("bitsolve-solve-{}.qdimacs", std::process::id()));
    // The runner removes the file on every way out.
    let solved = solve_with(&args.solver(), &formula.to_cnf(), &file, args.timeout())?;
    let black_wins = solved.answer != encoding.is_complement();
    if args.json {
        println!(
            "{}",
            json!({"encoding": encoding.name(), "formula": solved.answer, "black_wins": black_wins, "seconds": solved.seconds})
        );
    } else {
        let meaning = if encoding.is_complement() {
            if solved.answer {
                "White has a pair-paving blocking strategy: Black cannot win"
            } else {
                "no pair-paving blocking strategy within the depth"
            }
        } else if solved.answer {
            "Black wins"
        } else {
            "Black does not win"
        };
        println!(
            "{} depth {} ({}): formula {} in {:.3} s: {meaning}",
            game.name,
            query.depth(),
            encoding.name(),
            solved.answer,
            solved.seconds
        );
    }
    Ok(())
}

fn yes_no(value: Option<bool>) -> &'static str {
    match value {
        Some(true) => "yes",
        Some(false) => "NO",
        None => "-",
    }
}

fn print_check(name: &str, depth: usize, result: &Check) {
    println!(
        "{name} depth {depth}: exhaustive search says Black {} ({} positions, {:.3} s)",
        if result.black_wins {
            "wins"
        } else {
            "does not win"
        },
        group_digits(result.states),
        result.exhaustive_seconds
    );
    println!(
        "{:<9} {:>10} {:>12} {:>10} {:>7} {:>7}",
        "encoding", "variables", "clauses", "seconds", "answer", "agrees"
    );
    for row in &result.rows {
        match row.size {
            Some((variables, clauses)) => println!(
                "{:<9} {:>10} {:>12} {:>10.3} {:>7} {:>7}  {}",
                row.encoding.name(),
                group_digits(variables),
                group_digits(clauses),
                row.seconds,
                row.answer.map_or("-", |a| if a { "true" } else { "false" }),
                yes_no(row.agrees),
                row.note
            ),
            None => println!(
                "{:<9} {:>10} {:>12} {:>10} {:>7} {:>7}  {}",
                row.encoding.name(),
                "-",
                "-",
                "-",
                "-",
                "-",
                row.note
            ),
        }
    }
}

fn check_command(args: &QbfArgs, notes: &mut Notes) -> Result<()> {
    let (game, file_query) = args.game(notes)?;
    let encodings = args.encodings()?;
    let options = args.check_options();
    let depths: Vec<Query> = match &args.depths {
        Some(range) => {
            if let Some(file_query) = file_query {
                // Deepening always replaces the file's turn order.
                notes.push(format!(
                    "--depths {range} replaces the file's #times ({} time points): Black first, alternating",
                    file_query.depth()
                ));
            }
            odd_depths(&game, range)?
                .into_iter()
                .map(Query::alternating)
                .collect()
        }
        None => vec![args.query(&game, file_query, notes)?],
    };
    args.note_idle_preprocessing(&game, &depths[0], notes);
    let deepening = args.depths.is_some();
    let mut shortest = None;
    let mut last = None;
    let mut disagreements = 0;
    let mut compared = 0;
    let device = open_device(
        args.backend.into(),
        args.device.device_memory,
        &MpiJob::none(),
    )?;
    let machine = device.as_ref().map_or(Machine::Cpu, Machine::Gpu);
    for query in depths {
        let result = machine.check_qbf(&game, &query, &encodings, &options)?;
        disagreements += result
            .rows
            .iter()
            .filter(|r| r.agrees == Some(false))
            .count();
        compared += result.rows.iter().filter(|r| r.agrees.is_some()).count();
        if !args.json {
            print_check(&game.name, query.depth(), &result);
        }
        let won = result.black_wins;
        last = Some((query.depth(), result));
        if won && deepening {
            shortest = Some(query.depth());
            break;
        }
    }
    let (depth, result) = last.expect("at least one depth");
    if args.json {
        let rows: Vec<serde_json::Value> = result
            .rows
            .iter()
            .map(|row| {
                json!({
                    "name": row.encoding.name(),
                    "variables": row.size.map(|s| s.0),
                    "clauses": row.size.map(|s| s.1),
                    "seconds": row.seconds,
                    "answer": row.answer,
                    "agrees": row.agrees,
                    "note": row.note,
                })
            })
            .collect();
        println!(
            "{}",
            json!({"game": game.name, "depth": depth, "answer": result.black_wins, "shortest_depth": shortest, "exhaustive_seconds": result.exhaustive_seconds, "states": result.states, "encodings": rows})
        );
    } else if deepening {
        match shortest {
            Some(depth) => println!("shortest winning depth: {depth}"),
            None => println!("Black does not win within the depths checked"),
        }
    }
    if disagreements > 0 {
        return Err(Error::Unsupported(format!(
            "{disagreements} encoding answer(s) disagree with exhaustive search"
        )));
    }
    if compared == 0 {
        // A check that compared nothing has not passed.
        return Err(Error::Unsupported(
            "no encoding could be checked against exhaustive search (see each encoding's note)"
                .into(),
        ));
    }
    Ok(())
}

/// `--encoding`'s values: the library's encodings by name, each with its
/// line of help.
fn encoding_parser() -> impl clap::builder::TypedValueParser<Value = Encoding> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(ALL.map(|e| PossibleValue::new(e.name()).help(e.summary())))
        .map(|name| Encoding::named(&name).expect("clap admits only the encodings' names"))
}
