//! `bitsolve solve`: an optimal move sequence from a position of a
//! one-player game, walked down a table of depths mod 3 (built first, or
//! read from a store that holds it).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Args;
use serde_json::json;

use super::format::{bytes, group_digits};
use super::interrupt::{arm, stop_on_signals};
use super::mpi_job::Job;
use super::progress::Display;
use super::{GameSpec, SpaceVisitor, thread_pool};
use crate::backend::CpuBackend;
use crate::error::{Error, Result};
use crate::progress::Stoppable;
use crate::search::{DepthTable, SearchOptions, Target};
use crate::space::{Picture, Space};
use crate::table::Backing;

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(subcommand)]
    game: GameSpec,
    /// The position to solve, in the game's text form (as for `show`); it
    /// may start with '-' (a burned pancake upside down).
    #[arg(long, global = true, allow_hyphen_values = true)]
    position: Option<String>,
    /// A puzzle read from a definition file: solve its Scramble block NAME.
    #[arg(long, value_name = "NAME", global = true, conflicts_with = "position")]
    scramble: Option<String>,
    /// A puzzle read from a definition file: solve the position these
    /// moves (e.g. "F R U'") make from the solved state.
    #[arg(long, value_name = "MOVES", global = true, allow_hyphen_values = true, conflicts_with_all = ["position", "scramble"])]
    moves: Option<String>,
    /// Keep the table of depths in DIR: a later `solve` of the same game
    /// answers from it at once, and an interrupted build resumes.
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
    /// Worker threads for building the table (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// Print one JSON object on stdout.
    #[arg(long, global = true)]
    json: bool,
}

pub(super) fn run(args: SolveArgs) -> Result<()> {
    // Ctrl-C stops the build of the table at its next chunk of work (a
    // stored table is left resumable) and the command exits 130.
    let stop = stop_on_signals(&Job::none());
    if let Some(json) = solve(args, stop)? {
        println!("{json}");
    }
    Ok(())
}

/// A `solve` run as a library call (the Python binding's `Game.solve`):
/// what `bitsolve solve GAME --position TEXT --json` prints. Once `stop`
/// is set (by another thread), the table's build stops at its next chunk
/// of work with [`Error::Interrupted`].
pub fn solve_json(
    game: GameSpec,
    position: &str,
    store: Option<PathBuf>,
    threads: Option<usize>,
    stop: Option<Arc<AtomicBool>>,
) -> Result<serde_json::Value> {
    let args = SolveArgs {
        game,
        position: Some(position.to_string()),
        scramble: None,
        moves: None,
        store,
        threads,
        json: true,
    };
    Ok(solve(args, stop.as_deref())?.expect("a solve with --json reports"))
}

/// Solves what `args` ask; with `--json`, returns the JSON instead of
/// printing it.
fn solve(mut args: SolveArgs, stop: Option<&AtomicBool>) -> Result<Option<serde_json::Value>> {
    // A definition file's scrambles and move names are positions in the
    // text form its puzzle reads.
    if args.scramble.is_some() || args.moves.is_some() {
        if args.game.name != "ksolve" {
            return Err(Error::InvalidParameter(format!(
                "--scramble and --moves name positions of puzzles read from definition files (bitsolve solve ksolve --file F); give {} a --position",
                args.game.name
            )));
        }
        args.position = match (args.scramble.take(), args.moves.take()) {
            (Some(name), _) => Some(format!("scramble {name}")),
            (None, Some(moves)) => Some(format!("moves {moves}")),
            (None, None) => unreachable!("one of them is given"),
        };
    }
    if args.position.is_none() {
        return Err(Error::InvalidParameter("give --position TEXT".into()));
    }
    let pool = thread_pool(args.threads)?;
    args.game.visit(SolveCommand {
        args: &args,
        pool: &pool,
        stop,
    })
}

struct SolveCommand<'a> {
    args: &'a SolveArgs,
    pool: &'a rayon::ThreadPool,
    stop: Option<&'a AtomicBool>,
}

impl SpaceVisitor for SolveCommand<'_> {
    type Output = Option<serde_json::Value>;

    fn visit<S: Space + Picture>(self, space: &S) -> Result<Option<serde_json::Value>> {
        // The game is read: a signal now stops the work, not the process.
        arm(self.stop);
        let text = self.args.position.as_deref().unwrap_or_default();
        let from = space.parse_position(text)?;
        // Refused before any table is built: the space has nothing to walk.
        Target::of(space)?;
        let display = Display::new(None, None);
        let mut stoppable = None;
        let progress = Stoppable::wrap(&display, self.stop, &mut stoppable);
        let options = SearchOptions {
            backing: match &self.args.store {
                Some(dir) => Backing::Directory(dir.clone()),
                None => Backing::Heap,
            },
            progress,
            ..SearchOptions::default()
        };
        let backend = CpuBackend;
        // The table lives in the pool's thread (it is not `Send`): the walk
        // runs there too.
        let (backend, options, display) = (&backend, &options, &display);
        let start = from.clone();
        let solved = self.pool.install(move || {
            let mut table = DepthTable::build(space, backend, options)?;
            let walk_started = Instant::now();
            let path = table.solution(&start)?;
            let walk_seconds = walk_started.elapsed().as_secs_f64();
            let target = table.target();
            Ok::<_, Error>((table.report, target, path, walk_seconds))
        });
        display.finish();
        let (report, target, path, walk_seconds) = solved?;
        let report = &report;
        let table_bytes = space.size().div_ceil(4);
        // A table reopened finished from the store did no pass in this run.
        let from_store = report.resumed_from.is_some() && report.passes == 0;
        let moves: Vec<(String, String)> = path
            .windows(2)
            .map(|step| {
                (
                    space.move_name(&step[0], &step[1]),
                    space.position_text(&step[1]),
                )
            })
            .collect();
        if self.args.json {
            let listed: Vec<serde_json::Value> = moves
                .iter()
                .map(|(name, position)| json!({"move": name, "position": position}))
                .collect();
            let output = json!({
                "game": space.descriptor(),
                "position": space.position_text(&from),
                "target": match target {
                    Target::Start => "start",
                    Target::Goal => "goal",
                },
                "length": moves.len(),
                "moves": listed,
                "table": {
                    "bytes": table_bytes,
                    "bits_per_state": 2,
                    "reachable": report.reachable,
                    "depth": report.max_depth(),
                    "from_store": from_store,
                    "seconds": report.seconds,
                    "store": report.store,
                },
                "solve_seconds": walk_seconds,
            });
            return Ok(Some(output));
        }
        println!(
            "{} · optimal solution to {}: {} move{}",
            space.descriptor(),
            target.label(space),
            moves.len(),
            if moves.len() == 1 { "" } else { "s" }
        );
        println!(
            "table of depths mod 3: {} states reachable, {} ({}), {}",
            group_digits(report.reachable),
            bytes(table_bytes),
            match &report.store {
                Some(path) => path.display().to_string(),
                None => "in memory".to_string(),
            },
            if from_store {
                "read from the store".to_string()
            } else {
                format!("built in {:.2} s", report.seconds)
            }
        );
        println!("position {}", space.position_text(&from));
        print!("{}", space.draw(&from));
        for (number, ((name, _), state)) in moves.iter().zip(&path[1..]).enumerate() {
            println!("{:>3}. {name}", number + 1);
            print!("{}", space.draw(state));
        }
        println!("solved in {:.3} ms", walk_seconds * 1e3);
        Ok(None)
    }
}
