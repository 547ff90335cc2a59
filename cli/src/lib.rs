//! The `bitsolve` command line: argument parsing, and the commands that turn
//! a search report into a table for people or JSON for programs.

mod bench;
mod bfs;
mod device;
mod format;
mod games;
mod games_list;
mod info;
mod interrupt;
mod plot;
mod qbf;
mod qbf_suite;
mod query;
mod retro;
mod serve;
mod show;
mod solve;
mod traffic;
mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use bitsolve::error::{Error, Result, escape_controls};
use bitsolve::jobs::{MpiJob, threads_from_environment};

#[derive(Parser, Debug)]
#[command(
    name = "bitsolve",
    version,
    about = "Exhaustive game solving over one- and two-bit tables indexed by perfect hashes"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Breadth-first search of a whole state space: states per layer.
    Bfs(bfs::BfsArgs),
    /// Two-bit BFS on one CPU core, on all CPU cores and on the GPU:
    /// identical layers, and the time of each.
    Bench(bench::BenchArgs),
    /// Size of a game's state space and the memory a search of it needs.
    Info(info::InfoArgs),
    /// The games this build knows, their options and their commands.
    Games {
        /// Print one JSON object on stdout instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position given by its rank or as text, with its rank.
    Show(show::ShowArgs),
    /// An optimal move sequence from a position of a one-player game to its
    /// goal (or start), from a table of depths built first or kept in a store.
    Solve(solve::SolveArgs),
    /// Two-bit retrograde analysis of a two-player game, layer by layer.
    Retro(retro::RetroArgs),
    /// The value of a position and of every move from it, from a solved database.
    Query(query::QueryArgs),
    /// Play against the perfect player of a solved database in the terminal.
    Play(query::PlayArgs),
    /// A position explorer in the browser: an HTTP server (loopback by
    /// default) with a JSON API over the given stores and a page that draws
    /// positions and their moves' values.
    Serve(serve::ServeArgs),
    /// Check a store's table files (or one file) against their checksums:
    /// exit 0 only when every one is intact.
    Verify(verify::VerifyArgs),
    /// Positional games as quantified Boolean formulas.
    #[command(subcommand)]
    Qbf(qbf::QbfCommand),
}

/// Parses the arguments and runs the command; errors become one line on
/// stderr and a non-zero exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(error),
    };
    let job = match MpiJob::start() {
        Ok(job) => job,
        Err(error) => return fail(&MpiJob::none(), &error),
    };
    match run(cli.command, &job) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&job, &error),
    }
}

/// Prints `error` as one line on stderr and ends the run (the whole job, in
/// a job of several processes).
fn fail(job: &MpiJob, error: &Error) -> ExitCode {
    // Escaped: a file name or a solver's words may hold line breaks.
    eprintln!("bitsolve: error: {}", escape_controls(&error.to_string()));
    // Stopped by Ctrl-C or SIGTERM: the shells' 128 + the signal.
    job.fail(if matches!(error, Error::Interrupted) {
        interrupt::exit_code()
    } else {
        1
    })
}

impl Command {
    /// The command's name on the command line.
    fn name(&self) -> &'static str {
        match self {
            Command::Bfs(_) => "bfs",
            Command::Bench(_) => "bench",
            Command::Info(_) => "info",
            Command::Games { .. } => "games",
            Command::Show(_) => "show",
            Command::Solve(_) => "solve",
            Command::Retro(_) => "retro",
            Command::Query(_) => "query",
            Command::Play(_) => "play",
            Command::Serve(_) => "serve",
            Command::Verify(_) => "verify",
            Command::Qbf(_) => "qbf",
        }
    }
}

/// Runs `command`; only `bfs` and `retro` run across the processes of an
/// MPI job.
fn run(command: Command, job: &MpiJob) -> Result<()> {
    threads_from_environment()?;
    if !matches!(command, Command::Bfs(_) | Command::Retro(_)) {
        job.refuse_distributed(command.name())?;
    }
    match command {
        Command::Bfs(args) => bfs::run(args, job),
        Command::Bench(args) => bench::run(args),
        Command::Info(args) => info::run(args),
        Command::Games { json } => games_list::run(json),
        Command::Show(args) => show::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Retro(args) => retro::run_retro(args, job),
        Command::Query(args) => query::run_query(args),
        Command::Play(args) => query::run_play(args),
        Command::Serve(args) => serve::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Qbf(command) => {
            // A stopped `qbf` run leaves no solver and no formula file.
            bitsolve::qbf::cleanup::clean_up_on_signals();
            qbf::run(command)
        }
    }
}

/// Help and version go out as clap prints them; a usage error is cut to
/// its first line.
fn usage_error(error: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = error.print();
        return if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    // clap's message is its first paragraph (a list of missing arguments
    // continues on indented lines); usage and tips follow a blank line.
    let rendered = error.render().to_string();
    let message: Vec<&str> = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let message = escape_controls(&message.join(" "));
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    eprintln!(
        "bitsolve: error: {message} (see '{} --help')",
        command_of_usage(&rendered)
    );
    ExitCode::from(2)
}

/// The command whose usage a clap error shows ("bitsolve bfs pancake" from
/// "Usage: bitsolve bfs pancake [OPTIONS]"): its `--help` lists the flags
/// the error is about, where the top level's lists only the commands.
fn command_of_usage(rendered: &str) -> String {
    let words: Vec<&str> = rendered
        .lines()
        .find_map(|line| line.trim().strip_prefix("Usage:"))
        .map(|usage| {
            usage
                .split_whitespace()
                .take_while(|word| !word.starts_with(['[', '<', '-', '(']))
                .collect()
        })
        .unwrap_or_default();
    if words.first() == Some(&"bitsolve") {
        words.join(" ")
    } else {
        "bitsolve".to_string()
    }
}

/// A note on stderr: which of two flags wins, or why a flag changes nothing.
fn note(message: &str) {
    eprintln!("bitsolve: note: {message}");
}
