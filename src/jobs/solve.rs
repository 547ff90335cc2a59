//! An optimal move sequence from a position of a one-player game, walked
//! down a table of depths mod 3 (built first, or read from a store that
//! holds it): `bitsolve solve`, Python's `Game.solve`.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde::Serialize;

use super::Report;
use super::threads::thread_pool;
use crate::backend::CpuBackend;
use crate::error::{Error, Result};
use crate::progress::{Progress, Stoppable};
use crate::search::{DepthTable, SearchOptions, SearchReport, Target};
use crate::space::{Picture, Space};
use crate::table::Backing;

/// A position to solve and where its table lives.
#[derive(Clone, Debug, Default)]
pub struct SolveRequest {
    /// The position as text (each game's format).
    pub position: Option<String>,
    /// A scramble of the definition file (puzzles read from one).
    pub scramble: Option<String>,
    /// Moves from the solved state (puzzles read from a definition file).
    pub moves: Option<String>,
    /// Keep the table of depths in this store (and read it from there).
    pub store: Option<PathBuf>,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
}

impl SolveRequest {
    /// The position's text once a scramble or move list is turned into
    /// one; refused where the game reads neither, or none is given.
    pub fn position_text(&self, game_name: &str) -> Result<String> {
        // A definition file's scrambles and move names are positions in the
        // text form its puzzle reads.
        if self.scramble.is_some() || self.moves.is_some() {
            if game_name != "ksolve" {
                return Err(Error::InvalidParameter(format!(
                    "--scramble and --moves name positions of puzzles read from definition files (bitsolve solve ksolve --file F); give {game_name} a --position"
                )));
            }
            return Ok(match (&self.scramble, &self.moves) {
                (Some(name), _) => format!("scramble {name}"),
                (None, Some(moves)) => format!("moves {moves}"),
                (None, None) => unreachable!("one of them is given"),
            });
        }
        self.position
            .clone()
            .ok_or_else(|| Error::InvalidParameter("give --position TEXT".into()))
    }
}

/// An optimal solution and the table it was walked down.
pub struct Solution<S: Space> {
    /// The position solved.
    pub from: S::State,
    /// The positions from `from` to the target, both included.
    pub path: Vec<S::State>,
    /// Where the walk ends: the goal, or the start of a space without one.
    pub target: Target,
    /// The build (or reading) of the table of depths.
    pub table: SearchReport,
    /// The walk's own time.
    pub walk_seconds: f64,
}

impl<S: Space + Picture> Solution<S> {
    /// Moves of the solution as (move name, position text after it).
    pub fn moves(&self, space: &S) -> Vec<(String, String)> {
        self.path
            .windows(2)
            .map(|step| {
                (
                    space.move_name(&step[0], &step[1]),
                    space.position_text(&step[1]),
                )
            })
            .collect()
    }

    /// Bytes of the table of depths (two bits a rank).
    pub fn table_bytes(space: &S) -> u64 {
        space.size().div_ceil(4)
    }

    /// Whether the table was read finished from the store (no pass in this
    /// run).
    pub fn from_store(&self) -> bool {
        self.table.resumed_from.is_some() && self.table.passes == 0
    }

    /// The solution's report (what `bitsolve solve --json` prints).
    pub fn report(&self, space: &S) -> SolveReport {
        let table = &self.table;
        let moves: Vec<SolveMove> = self
            .moves(space)
            .into_iter()
            .map(|(name, position)| SolveMove { name, position })
            .collect();
        SolveReport {
            game: space.descriptor(),
            position: space.position_text(&self.from),
            target: match self.target {
                Target::Start => "start",
                Target::Goal => "goal",
            },
            length: moves.len(),
            moves,
            table: SolveTable {
                bytes: Self::table_bytes(space),
                bits_per_state: 2,
                reachable: table.reachable,
                depth: table.max_depth(),
                from_store: self.from_store(),
                seconds: table.seconds,
                store: table.store.clone(),
            },
            solve_seconds: self.walk_seconds,
        }
    }
}

/// An optimal move sequence and what it cost: the report of [`solve`]
/// and [`Solution::report`], whose [`Report::to_json`] is the object
/// `bitsolve solve --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveReport {
    /// The space's descriptor.
    pub game: String,
    /// The position solved, as text.
    pub position: String,
    /// Where the moves lead: "goal", or "start" in a space without a goal.
    pub target: &'static str,
    /// Moves in the sequence.
    pub length: usize,
    /// The moves, each with the position after it.
    pub moves: Vec<SolveMove>,
    /// The table of depths the walk read.
    pub table: SolveTable,
    /// The walk's own time, seconds.
    pub solve_seconds: f64,
}

/// One move of a [`SolveReport`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SolveMove {
    /// The move's name.
    #[serde(rename = "move")]
    pub name: String,
    /// The position after it, as text.
    pub position: String,
}

/// The table of depths behind a [`SolveReport`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveTable {
    /// Its bytes.
    pub bytes: u64,
    /// Bits it keeps per state.
    pub bits_per_state: u32,
    /// Reachable states.
    pub reachable: u64,
    /// The deepest layer.
    pub depth: Option<usize>,
    /// It was read finished from the store.
    pub from_store: bool,
    /// Seconds to build (or read) it.
    pub seconds: f64,
    /// Its file, for a stored table.
    pub store: Option<PathBuf>,
}

impl Report for SolveReport {}

/// Solves the position `text` of `space`: builds (or reads from `store`)
/// the table of depths on `pool`'s cores, then walks it. `stop`, once set,
/// ends the build at its next chunk of work (a stored table resumes).
pub fn solve_space<S: Space + Picture>(
    space: &S,
    text: &str,
    store: Option<&PathBuf>,
    pool: &rayon::ThreadPool,
    progress: &dyn Progress,
    stop: Option<&AtomicBool>,
) -> Result<Solution<S>> {
    super::check_store(store)?;
    let from = space.parse_position(text)?;
    // Refused before any table is built: the space has nothing to walk.
    Target::of(space)?;
    let mut stoppable = None;
    let progress = Stoppable::wrap(progress, stop, &mut stoppable);
    let options = SearchOptions {
        backing: match store {
            Some(dir) => Backing::Directory(dir.clone()),
            None => Backing::Heap,
        },
        progress,
        ..SearchOptions::default()
    };
    let backend = CpuBackend;
    // The table lives in the pool's thread (it is not `Send`): the walk
    // runs there too.
    let (backend, options) = (&backend, &options);
    let start = from.clone();
    let (table, target, path, walk_seconds) = pool.install(move || {
        let mut table = DepthTable::build(space, backend, options)?;
        let walk_started = Instant::now();
        let path = table.solution(&start)?;
        let walk_seconds = walk_started.elapsed().as_secs_f64();
        let target = table.target();
        Ok::<_, Error>((table.report, target, path, walk_seconds))
    })?;
    Ok(Solution {
        from,
        path,
        target,
        table,
        walk_seconds,
    })
}

/// Solves `request` for `game` and returns the solution's report (what
/// `bitsolve solve --json` prints, the Python binding's `Game.solve`).
///
/// ```
/// use bitsolve::games::registry::GameOptions;
/// use bitsolve::jobs::solve::solve;
/// use bitsolve::jobs::{GameSpec, SolveRequest};
/// use bitsolve::progress::Silent;
/// let game = GameSpec { name: "pancake".into(), options: GameOptions::default().with("n", 6) };
/// let request = SolveRequest { position: Some("6,5,4,3,2,1".into()), ..SolveRequest::default() };
/// let solution = solve(&game, &request, &Silent, None)?;
/// assert_eq!(solution.length, 1); // one flip of the whole stack
/// assert_eq!(solution.moves[0].position, "1,2,3,4,5,6");
/// # Ok::<(), bitsolve::Error>(())
/// ```
pub fn solve(
    game: &super::GameSpec,
    request: &SolveRequest,
    progress: &dyn Progress,
    stop: Option<&AtomicBool>,
) -> Result<SolveReport> {
    let text = request.position_text(&game.name)?;
    let pool = thread_pool(request.threads)?;
    game.visit(WholeSolve {
        text: &text,
        request,
        pool: &pool,
        progress,
        stop,
    })
}

struct WholeSolve<'a> {
    text: &'a str,
    request: &'a SolveRequest,
    pool: &'a rayon::ThreadPool,
    progress: &'a dyn Progress,
    stop: Option<&'a AtomicBool>,
}

impl crate::games::registry::SpaceVisitor for WholeSolve<'_> {
    type Output = SolveReport;

    fn visit<S: Space + Picture>(self, space: &S) -> Result<SolveReport> {
        let solution = solve_space(
            space,
            self.text,
            self.request.store.as_ref(),
            self.pool,
            self.progress,
            self.stop,
        )?;
        Ok(solution.report(space))
    }
}
