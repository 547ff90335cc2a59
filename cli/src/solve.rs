//! `bitsolve solve`: an optimal move sequence from a position of a
//! one-player game, walked down a table of depths mod 3 (built first, or
//! read from a store that holds it).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::format::{bytes, group_digits};
use super::games::GameArg;
use super::interrupt::{arm, stop_on_signals};
use bitsolve::error::Result;
use bitsolve::games::registry::SpaceVisitor;
use bitsolve::jobs::MpiJob;
use bitsolve::jobs::Report;
use bitsolve::jobs::solve::{Solution, SolveRequest, solve_space};
use bitsolve::jobs::thread_pool;
use bitsolve::progress::terminal::Display;
use bitsolve::space::{Picture, Space};

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(subcommand)]
    game: GameArg,
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
    let stop = stop_on_signals(&MpiJob::none());
    let request = SolveRequest {
        position: args.position.clone(),
        scramble: args.scramble.clone(),
        moves: args.moves.clone(),
        store: args.store.clone(),
        threads: args.threads,
    };
    let text = request.position_text(&args.game.name)?;
    let pool = thread_pool(args.threads)?;
    args.game.visit(SolveCommand {
        args: &args,
        text: &text,
        pool: &pool,
        stop,
    })
}

struct SolveCommand<'a> {
    args: &'a SolveArgs,
    text: &'a str,
    pool: &'a rayon::ThreadPool,
    /// Asks the build of the table to stop (Ctrl-C).
    stop: Option<&'a AtomicBool>,
}

impl SpaceVisitor for SolveCommand<'_> {
    type Output = ();

    fn visit<S: Space + Picture>(self, space: &S) -> Result<()> {
        // The game is read: a signal now stops the work, not the process.
        arm(self.stop);
        let display = Display::new(None, None);
        let solved = solve_space(
            space,
            self.text,
            self.args.store.as_ref(),
            self.pool,
            &display,
            self.stop,
        );
        display.finish();
        let solution = solved?;
        if self.args.json {
            println!("{}", solution.report(space).to_json());
        } else {
            print_solution(space, &solution);
        }
        Ok(())
    }
}

/// The solution for people: the table, the position, then each move and
/// the position it leads to.
fn print_solution<S: Space + Picture>(space: &S, solution: &Solution<S>) {
    let moves = solution.moves(space);
    let report = &solution.table;
    let table_bytes = Solution::table_bytes(space);
    println!(
        "{} · optimal solution to {}: {} move{}",
        space.descriptor(),
        solution.target.label(space),
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
        if solution.from_store() {
            "read from the store".to_string()
        } else {
            format!("built in {:.2} s", report.seconds)
        }
    );
    println!("position {}", space.position_text(&solution.from));
    print!("{}", space.draw(&solution.from));
    for (number, ((name, _), state)) in moves.iter().zip(&solution.path[1..]).enumerate() {
        println!("{:>3}. {name}", number + 1);
        print!("{}", space.draw(state));
    }
    println!("solved in {:.3} ms", solution.walk_seconds * 1e3);
}
