//! `bitsolve._bitsolve`: the Python binding's native module, a thin PyO3
//! layer over the library calls the command line makes. Reports cross the
//! boundary as the JSON text the CLI's `--json` prints (one builder for
//! both shells); bulk data (ranks, positions, values) as numpy arrays.
//! The Python package (`bitsolve/__init__.py`) wraps these in classes with
//! keyword arguments and docstrings.

mod hashes;
mod layer_space;
mod memory;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

use bitsolve::database::TableCache;
use bitsolve::error::{Error, escape_controls};
use bitsolve::games::registry::{self, GameOptions, SpaceVisitor};
use bitsolve::games::{TwoPlayerGame, TwoPlayerVisitor};
use bitsolve::jobs::Report;
use bitsolve::jobs::bfs::bfs;
use bitsolve::jobs::query::database_query;
use bitsolve::jobs::retro::retro as retro_game;
use bitsolve::jobs::solve::solve;
use bitsolve::jobs::verify::verify as verify_store;
use bitsolve::jobs::{
    BfsRequest, GameSpec, MAX_THREADS, Processor, RetroRequest, SolveRequest, TwoPlayerSpec,
    parse_size,
};
use bitsolve::progress::terminal::Display;
use bitsolve::progress::{Progress, Silent};
use bitsolve::search::Algorithm;
use bitsolve::search::retro2::RECORD_EVERY;
use bitsolve::space::{MoveFilter, Picture, Space};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyOSError, PyRuntimeError, PyValueError,
};
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::memory::{Failure, NoRoom, filled, with_room};

/// A library error as the Python exception a user expects, its message the
/// line the CLI prints after "bitsolve: error: ".
pub(crate) fn to_python(error: Error) -> PyErr {
    let message = escape_controls(&error.to_string());
    match &error {
        Error::InvalidParameter(_)
        | Error::BadPosition { .. }
        | Error::BadFile { .. }
        | Error::Unsupported(_)
        | Error::SpaceTooLarge(_)
        | Error::BadStore { .. } => PyValueError::new_err(message),
        Error::OutOfMemory { .. } => PyMemoryError::new_err(message),
        Error::Io { source, .. } => match source.raw_os_error() {
            Some(errno) => PyOSError::new_err((errno, message)),
            None => PyOSError::new_err(message),
        },
        Error::Solver(_) | Error::Gpu(_) => PyRuntimeError::new_err(message),
        Error::Interrupted => PyKeyboardInterrupt::new_err(message),
    }
}

/// How often the waiting Python thread looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` (a long search) on a thread of its own while this thread,
/// holding the GIL only for a moment every [`SIGNAL_POLL`], runs Python's
/// signal handlers: on `KeyboardInterrupt` (or any exception a handler
/// raises) the flag `work` was given is set, the search stops at its next
/// chunk of work as the command line's does on Ctrl-C (its store sealed as
/// far as it got, for a later run to resume), and the exception is raised
/// once the search has ended.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(Arc<AtomicBool>) -> bitsolve::Result<T> + Send,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let (done, finished) = channel();
        let flag = stop.clone();
        scope.spawn(move || {
            let _ = done.send(work(flag));
        });
        // The receiver goes into each wait and comes back out: a Receiver
        // may cross threads but not be shared by them.
        let mut finished = finished;
        loop {
            let (receiver, outcome) = py.detach(move || {
                let outcome = finished.recv_timeout(SIGNAL_POLL);
                (finished, outcome)
            });
            finished = receiver;
            match outcome {
                Ok(result) => return result.map_err(to_python),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(raised) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        let _ = py.detach(move || finished.recv());
                        return Err(raised);
                    }
                }
                // The worker panicked: the scope's end raises its panic.
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the search's thread has stopped"));
                }
            }
        }
    })
}

pub(crate) fn invalid(message: String) -> PyErr {
    to_python(Error::InvalidParameter(message))
}

/// The options of game `name` from Python's keyword arguments, each as
/// (option name with `_` or `-`, value; `None` for a flag that is set),
/// checked against the registry and completed with the defaults the
/// command line would fill in.
pub(crate) fn game_options(
    name: &str,
    given: Vec<(String, Option<String>)>,
) -> PyResult<GameOptions> {
    let entry = registry::entry(name).map_err(to_python)?;
    let mut options = GameOptions::default();
    let mut named = Vec::new();
    for (key, value) in given {
        let key = key.replace('_', "-");
        let Some(spec) = entry.options.iter().find(|o| o.name == key) else {
            let known: Vec<String> = entry
                .options
                .iter()
                .map(|o| o.name.replace('-', "_"))
                .collect();
            return Err(invalid(format!(
                "unexpected argument '{}' for {name} (its options: {})",
                key.replace('-', "_"),
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        };
        match (spec.value, value) {
            (Some(_), Some(value)) => options = options.with(spec.name, value),
            (None, None) => options = options.with_flag(spec.name),
            (Some(placeholder), None) => {
                return Err(invalid(format!(
                    "--{} needs a value ({placeholder})",
                    spec.name
                )));
            }
            (None, Some(_)) => {
                return Err(invalid(format!(
                    "--{} is a flag: give True or False",
                    spec.name
                )));
            }
        }
        named.push(key);
    }
    for spec in entry.options {
        if let (Some(default), false) = (spec.default, named.iter().any(|n| n == spec.name)) {
            options = options.with(spec.name, default);
        }
    }
    Ok(options)
}

fn parse_algo(text: &str) -> PyResult<Algorithm> {
    match text {
        "two-bit" | "two_bit" => Ok(Algorithm::TwoBitBfs),
        "one-bit" | "one_bit" => Ok(Algorithm::OneBitBfs),
        "reach" => Ok(Algorithm::OneBitReachability),
        _ => Err(invalid(format!(
            "invalid value '{text}' for '--algo <ALGO>' [possible values: two-bit, one-bit, reach]"
        ))),
    }
}

fn parse_backend(text: &str) -> PyResult<Processor> {
    match text {
        "cpu" => Ok(Processor::Cpu),
        "gpu" => Ok(Processor::Gpu),
        _ => Err(invalid(format!(
            "invalid value '{text}' for '--backend <BACKEND>' [possible values: cpu, gpu]"
        ))),
    }
}

/// Refuses a thread count as the command line refuses `--threads` (0, or
/// more than [`MAX_THREADS`]), and a `RAYON_NUM_THREADS` above it: the
/// library's one check.
pub(crate) fn check_threads(threads: Option<usize>) -> PyResult<()> {
    bitsolve::jobs::check_threads(threads).map_err(to_python)
}

/// A rayon pool of `threads` workers (all cores when `None`), the count
/// checked by [`check_threads`].
pub(crate) fn pool(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
    bitsolve::jobs::thread_pool(threads).map_err(to_python)
}

/// Runs `work` with the progress bar on a terminal's stderr where `shown`,
/// with no progress otherwise; the bar is cleared when it ends.
fn showing<T>(shown: bool, work: impl FnOnce(&dyn Progress) -> T) -> T {
    if !shown {
        return work(&Silent);
    }
    let display = Display::new(None, None);
    let result = work(&display);
    display.finish();
    result
}

/// Positions as rows of numbers, read from and written into the game's
/// one-line text form: a position's row is the numbers of its text (the
/// permutation, with signs for burned pancakes), or for a board its cells
/// in text order coded by [`ALPHABETS`]. Its template is one position's
/// text, whose tokens a row replaces.
enum Codec {
    /// Tokens are (start, end) byte spans of the template's numbers.
    Numbers {
        template: String,
        spans: Vec<(usize, usize)>,
    },
    /// Tokens are the cells' characters; `symbols[code]` writes `code`.
    Cells {
        template: Vec<char>,
        cells: Vec<usize>,
        symbols: &'static [char],
    },
}

/// The board alphabets, code = index: Peg Solitaire's hole and peg;
/// Frogs-and-Toads' empty cell, black and white pieces.
const ALPHABETS: [&[char]; 2] = [&['.', 'o'], &['_', 'b', 'w']];

/// What separates cells in a board's text and is no cell.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == '/' || c == ':' || c == ','
}

/// The byte spans of the (optionally signed) whole numbers in `text`.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let signed = bytes[i] == b'-'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric());
        if bytes[i].is_ascii_digit() || signed {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

impl Codec {
    /// The codec of a game whose positions read as `texts` (the first is
    /// the template).
    fn new(texts: &[String]) -> bitsolve::Result<Codec> {
        let template = texts[0].clone();
        if template.bytes().any(|b| b.is_ascii_digit()) {
            let spans = number_spans(&template);
            return Ok(Codec::Numbers { template, spans });
        }
        let seen: Vec<char> = texts
            .iter()
            .flat_map(|t| t.chars())
            .filter(|&c| !is_separator(c))
            .collect();
        let symbols = ALPHABETS
            .iter()
            .find(|alphabet| seen.iter().all(|c| alphabet.contains(c)))
            .ok_or_else(|| {
                Error::Unsupported(format!(
                    "no array form for positions like '{template}' (use position_text and parse)"
                ))
            })?;
        let template: Vec<char> = template.chars().collect();
        let cells = (0..template.len())
            .filter(|&i| !is_separator(template[i]))
            .collect();
        Ok(Codec::Cells {
            template,
            cells,
            symbols,
        })
    }

    fn width(&self) -> usize {
        match self {
            Codec::Numbers { spans, .. } => spans.len(),
            Codec::Cells { cells, .. } => cells.len(),
        }
    }

    /// Writes the row of position text `text` into `row`.
    fn encode(&self, text: &str, row: &mut [i64]) {
        match self {
            Codec::Numbers { .. } => {
                for (value, (start, end)) in row.iter_mut().zip(number_spans(text)) {
                    *value = text[start..end].parse().unwrap_or(0);
                }
            }
            Codec::Cells { symbols, .. } => {
                let cells = text.chars().filter(|&c| !is_separator(c));
                for (value, c) in row.iter_mut().zip(cells) {
                    *value = symbols.iter().position(|&s| s == c).unwrap_or(0) as i64;
                }
            }
        }
    }

    /// The position text of `row`.
    fn decode(&self, row: &[i64]) -> bitsolve::Result<String> {
        match self {
            Codec::Numbers { template, spans } => {
                let mut text = String::with_capacity(template.len() + 8);
                let mut at = 0;
                for (value, &(start, end)) in row.iter().zip(spans) {
                    text.push_str(&template[at..start]);
                    text.push_str(&value.to_string());
                    at = end;
                }
                text.push_str(&template[at..]);
                Ok(text)
            }
            Codec::Cells {
                template,
                cells,
                symbols,
            } => {
                let mut text = template.clone();
                for (&value, &cell) in row.iter().zip(cells) {
                    text[cell] = *usize::try_from(value)
                        .ok()
                        .and_then(|code| symbols.get(code))
                        .ok_or_else(|| {
                            Error::InvalidParameter(format!(
                                "cell code {value} is not one of 0..{}",
                                symbols.len() - 1
                            ))
                        })?;
                }
                Ok(text.into_iter().collect())
            }
        }
    }
}

/// The codec of `space`: its template is rank 0's text, its alphabet
/// what rank 0 and the start positions show.
fn codec_of<S: Space + Picture>(space: &S) -> bitsolve::Result<Codec> {
    let mut state = space.new_state();
    let mut texts = Vec::new();
    for rank in std::iter::once(0).chain(space.start_ranks()) {
        space.unrank(rank, &mut state);
        texts.push(space.position_text(&state));
    }
    Codec::new(&texts)
}

/// Checks that every rank lies in the space.
pub(crate) fn check_ranks(ranks: &[u64], size: u64) -> bitsolve::Result<()> {
    match ranks.iter().position(|&r| r >= size) {
        Some(i) => Err(Error::InvalidParameter(format!(
            "rank {} (at index {i}) is not below the space's size {size}",
            ranks[i]
        ))),
        None => Ok(()),
    }
}

/// One call on a one-player game; [`GameOp::run`] opens the game and does it.
enum GameOp<'a> {
    Info,
    Unrank(&'a [u64]),
    Rank(&'a [i64], usize),
    Successors(u64),
    PositionText(u64),
    Draw(u64),
    Parse(&'a str),
}

enum GameOut {
    Info {
        descriptor: String,
        size: u64,
        start: Vec<u64>,
        goals: Vec<u64>,
        width: Option<usize>,
    },
    Rows(Vec<i64>, usize),
    Ranks(Vec<u64>),
    Text(String),
    Rank(u64),
}

struct Visit<'a>(GameOp<'a>);

impl SpaceVisitor for Visit<'_> {
    /// A call's answer, or why it has no room for it.
    type Output = Result<GameOut, NoRoom>;

    fn visit<S: Space + Picture>(self, space: &S) -> bitsolve::Result<Self::Output> {
        match self.visit_space(space) {
            Ok(out) => Ok(Ok(out)),
            Err(Failure::NoRoom(no_room)) => Ok(Err(no_room)),
            Err(Failure::Library(error)) => Err(error),
        }
    }
}

impl Visit<'_> {
    fn visit_space<S: Space + Picture>(self, space: &S) -> Result<GameOut, Failure> {
        let size = space.size();
        match self.0 {
            GameOp::Info => Ok(GameOut::Info {
                descriptor: space.descriptor(),
                size,
                start: space.start_ranks(),
                goals: space.goal_ranks(),
                width: codec_of(space).ok().map(|c| c.width()),
            }),
            GameOp::Unrank(ranks) => {
                let codec = codec_of(space)?;
                let width = codec.width();
                // Sized before anything is read or allocated.
                let cells = ranks.len().checked_mul(width).ok_or_else(|| {
                    NoRoom::new(format!(
                        "unrank's result ({} rows of {width} numbers) has more cells than an array may",
                        ranks.len()
                    ))
                })?;
                let mut rows = filled(cells, 0i64, &|| {
                    format!(
                        "unrank's result ({} rows of {width} int64 numbers)",
                        ranks.len()
                    )
                })?;
                check_ranks(ranks, size)?;
                // Chunks of rows, each with one reused state.
                const CHUNK: usize = 4096;
                rows.par_chunks_mut(CHUNK * width.max(1))
                    .zip(ranks.par_chunks(CHUNK))
                    .for_each(|(rows, ranks)| {
                        let mut state = space.new_state();
                        for (row, &rank) in rows.chunks_mut(width.max(1)).zip(ranks) {
                            space.unrank(rank, &mut state);
                            // Straight from the state where the game can
                            // (Pancake), else through its text.
                            if !space.write_numbers(&state, row) {
                                codec.encode(&space.position_text(&state), row);
                            }
                        }
                    });
                Ok(GameOut::Rows(rows, width))
            }
            GameOp::Rank(rows, width) => {
                let codec = codec_of(space)?;
                if width != codec.width() {
                    return Err(Error::InvalidParameter(format!(
                        "positions of {} are rows of {} numbers, got rows of {width}",
                        space.descriptor(),
                        codec.width()
                    ))
                    .into());
                }
                let count = rows.len().checked_div(width).unwrap_or(0);
                let mut ranks = filled(count, 0u64, &|| {
                    format!("rank's result ({count} uint64 ranks)")
                })?;
                let rank_of = |i: usize| -> bitsolve::Result<u64> {
                    let row = &rows[i * width..(i + 1) * width];
                    if let Some(state) = space.read_numbers(row) {
                        let state = state.map_err(|e| {
                            Error::InvalidParameter(format!(
                                "row {i} ({row:?}) is no position: {e}"
                            ))
                        })?;
                        return Ok(space.rank(&state));
                    }
                    let text = codec.decode(row)?;
                    let state = space.parse_position(&text).map_err(|e| {
                        Error::InvalidParameter(format!("row {i} ({text}) is no position: {e}"))
                    })?;
                    Ok(space.rank(&state))
                };
                // Blocks of rows per task, each row's rank written in place.
                const CHUNK: usize = 4096;
                ranks
                    .par_chunks_mut(CHUNK)
                    .enumerate()
                    .try_for_each(|(block, ranks)| {
                        for (i, out) in ranks.iter_mut().enumerate() {
                            *out = rank_of(block * CHUNK + i)?;
                        }
                        Ok::<(), Error>(())
                    })?;
                Ok(GameOut::Ranks(ranks))
            }
            GameOp::Successors(rank) => {
                check_ranks(&[rank], size)?;
                let mut state = space.new_state();
                space.unrank(rank, &mut state);
                let mut next = Vec::new();
                space.expand(&state, MoveFilter::All, |r| next.push(r));
                next.sort_unstable();
                next.dedup();
                Ok(GameOut::Ranks(next))
            }
            GameOp::PositionText(rank) | GameOp::Draw(rank) => {
                check_ranks(&[rank], size)?;
                let mut state = space.new_state();
                space.unrank(rank, &mut state);
                Ok(GameOut::Text(match self.0 {
                    GameOp::Draw(_) => space.draw(&state),
                    _ => space.position_text(&state),
                }))
            }
            GameOp::Parse(text) => Ok(GameOut::Rank(space.rank(&space.parse_position(text)?))),
        }
    }
}

/// A one-player game of the registry, opened by name and options.
#[pyclass(frozen, module = "bitsolve._bitsolve")]
struct Game {
    name: String,
    options: GameOptions,
    #[pyo3(get)]
    descriptor: String,
    #[pyo3(get)]
    size: u64,
    #[pyo3(get)]
    start_ranks: Vec<u64>,
    #[pyo3(get)]
    goal_ranks: Vec<u64>,
    /// Numbers per position row (`None`: positions have no array form).
    #[pyo3(get)]
    width: Option<usize>,
}

impl Game {
    fn spec(&self) -> GameSpec {
        GameSpec {
            name: self.name.clone(),
            options: self.options.clone(),
        }
    }

    fn run(&self, op: GameOp<'_>) -> PyResult<GameOut> {
        Ok(registry::visit(&self.name, &self.options, Visit(op)).map_err(to_python)??)
    }
}

#[pymethods]
impl Game {
    #[new]
    fn new(name: &str, options: Vec<(String, Option<String>)>) -> PyResult<Self> {
        let options = game_options(name, options)?;
        match registry::visit(name, &options, Visit(GameOp::Info)).map_err(to_python)?? {
            GameOut::Info {
                descriptor,
                size,
                start,
                goals,
                width,
            } => Ok(Game {
                name: name.to_string(),
                options,
                descriptor,
                size,
                start_ranks: start,
                goal_ranks: goals,
                width,
            }),
            _ => unreachable!("Info answers with info"),
        }
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The options as the command line would give them, name to value
    /// (`None` for a flag that is set).
    fn options(&self) -> Vec<(String, Option<String>)> {
        let entry = registry::entry(&self.name).expect("opened by name");
        entry
            .options
            .iter()
            .filter_map(|spec| match spec.value {
                Some(_) => self
                    .options
                    .get(spec.name)
                    .map(|v| (spec.name.to_string(), Some(v.to_string()))),
                None => self
                    .options
                    .flag(spec.name)
                    .then(|| (spec.name.to_string(), None)),
            })
            .collect()
    }

    #[pyo3(signature = (ranks, threads=None))]
    fn unrank<'py>(
        &self,
        py: Python<'py>,
        ranks: PyReadonlyArray1<'py, u64>,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let ranks = ranks.as_slice()?;
        let pool = pool(threads)?;
        let (rows, width) = match py.detach(|| pool.install(|| self.run(GameOp::Unrank(ranks))))? {
            GameOut::Rows(rows, width) => (rows, width),
            _ => unreachable!("Unrank answers with rows"),
        };
        let array = Array2::from_shape_vec((ranks.len(), width), rows).expect("rows x width");
        Ok(array.into_pyarray(py))
    }

    #[pyo3(signature = (states, threads=None))]
    fn rank<'py>(
        &self,
        py: Python<'py>,
        states: PyReadonlyArray2<'py, i64>,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let width = states.as_array().ncols();
        let rows = states.as_slice()?;
        let pool = pool(threads)?;
        match py.detach(|| pool.install(|| self.run(GameOp::Rank(rows, width))))? {
            GameOut::Ranks(ranks) => Ok(PyArray1::from_vec(py, ranks)),
            _ => unreachable!("Rank answers with ranks"),
        }
    }

    fn successors<'py>(&self, py: Python<'py>, rank: u64) -> PyResult<Bound<'py, PyArray1<u64>>> {
        match self.run(GameOp::Successors(rank))? {
            GameOut::Ranks(ranks) => Ok(PyArray1::from_vec(py, ranks)),
            _ => unreachable!("Successors answers with ranks"),
        }
    }

    fn position_text(&self, rank: u64) -> PyResult<String> {
        match self.run(GameOp::PositionText(rank))? {
            GameOut::Text(text) => Ok(text),
            _ => unreachable!("PositionText answers with text"),
        }
    }

    fn draw(&self, rank: u64) -> PyResult<String> {
        match self.run(GameOp::Draw(rank))? {
            GameOut::Text(text) => Ok(text),
            _ => unreachable!("Draw answers with text"),
        }
    }

    fn parse(&self, text: &str) -> PyResult<u64> {
        match self.run(GameOp::Parse(text))? {
            GameOut::Rank(rank) => Ok(rank),
            _ => unreachable!("Parse answers with a rank"),
        }
    }

    /// The `solve --json` object for position `text`, as JSON text.
    #[pyo3(signature = (text, store, threads))]
    fn solve(
        &self,
        py: Python<'_>,
        text: &str,
        store: Option<PathBuf>,
        threads: Option<usize>,
    ) -> PyResult<String> {
        check_threads(threads)?;
        let spec = self.spec();
        // On a thread of its own, so that Ctrl-C stops the table's build
        // at its next chunk of work, as the command line's does.
        let request = SolveRequest {
            position: Some(text.to_string()),
            store,
            threads,
            ..SolveRequest::default()
        };
        let json = interruptible(py, |stop| {
            showing(true, |progress| {
                solve(&spec, &request, progress, Some(&stop))
            })
        })?;
        Ok(json.to_json().to_string())
    }

    /// The `bfs --json` report as JSON text.
    #[pyo3(signature = (algo, backend, threads, store, max_depth, inversion, progress, memory=None))]
    #[allow(clippy::too_many_arguments)]
    fn bfs(
        &self,
        py: Python<'_>,
        algo: &str,
        backend: &str,
        threads: Option<usize>,
        store: Option<PathBuf>,
        max_depth: Option<usize>,
        inversion: bool,
        progress: bool,
        memory: Option<&str>,
    ) -> PyResult<String> {
        let (algorithm, processor) = (parse_algo(algo)?, parse_backend(backend)?);
        let memory = memory
            .map(parse_size)
            .transpose()
            .map_err(PyValueError::new_err)?;
        check_threads(threads)?;
        let spec = self.spec();
        let request = BfsRequest {
            algorithm,
            processor,
            device_memory: None,
            threads,
            store,
            max_depth,
            memory,
            inversion,
        };
        let json = interruptible(py, |stop| {
            showing(progress, |shown| bfs(&spec, request, shown, Some(&stop)))
        })?;
        Ok(json.to_json().to_string())
    }
}

/// `bitsolve games --json`'s list, as JSON text.
#[pyfunction]
fn games_json() -> String {
    registry::catalog().to_string()
}

/// The `retro --json` report as JSON text.
#[pyfunction]
#[pyo3(signature = (name, options, layers, store, threads, checkpoint_every, distances, progress))]
#[allow(clippy::too_many_arguments)]
fn retro(
    py: Python<'_>,
    name: &str,
    options: Vec<(String, Option<String>)>,
    layers: Option<(usize, usize)>,
    store: Option<PathBuf>,
    threads: Option<usize>,
    checkpoint_every: Option<u64>,
    distances: bool,
    progress: bool,
) -> PyResult<String> {
    let options = game_options(name, options)?;
    if let Some((first, last)) = layers
        && first > last
    {
        return Err(invalid(format!(
            "the range {first}..{last} is empty (its first layer is above its last)"
        )));
    }
    check_threads(threads)?;
    let spec = TwoPlayerSpec(GameSpec {
        name: name.to_string(),
        options,
    });
    let request = RetroRequest {
        layers,
        store,
        threads,
        checkpoint_every: checkpoint_every.unwrap_or(RECORD_EVERY.as_secs()),
        distances,
        ..RetroRequest::default()
    };
    let json = interruptible(py, |stop| {
        showing(progress, |shown| {
            retro_game(&spec, request, shown, Some(&stop))
        })
    })?;
    Ok(json.to_json().to_string())
}

/// `bitsolve verify PATH --json`, as JSON text.
#[pyfunction]
fn verify(py: Python<'_>, path: PathBuf) -> PyResult<String> {
    let json = py
        .detach(|| showing(true, |progress| verify_store(&path, progress)))
        .map_err(to_python)?;
    Ok(json.to_json().to_string())
}

/// A request to a database's server thread, with where to answer.
enum Request {
    Query(String, Sender<bitsolve::Result<serde_json::Value>>),
    Values(Vec<u64>, usize, Sender<bitsolve::Result<Vec<u8>>>),
    LayerSize(usize, Sender<bitsolve::Result<u64>>),
}

/// A two-player game's store of solved layers. Opening a game can take
/// far longer than a lookup (Fox-and-Geese builds its tables), and the
/// registry lends a game only for the length of a call: so one thread
/// per database opens the game once and answers every request, each layer
/// file opened and checked once, on first use.
#[pyclass(frozen, module = "bitsolve._bitsolve")]
struct Database {
    name: String,
    store: PathBuf,
    requests: Sender<Request>,
}

/// What a database's thread runs inside the registry's visit.
struct Server {
    name: String,
    store: PathBuf,
    ready: Sender<bitsolve::Result<()>>,
    requests: Receiver<Request>,
}

impl TwoPlayerVisitor for Server {
    type Output = ();

    fn visit<G: TwoPlayerGame>(self, game: &G) -> bitsolve::Result<()> {
        let cache = TableCache::default();
        let mut database = bitsolve::database::Database::new(game, &self.name, &self.store, &cache);
        if self.ready.send(Ok(())).is_err() {
            return Ok(());
        }
        // Ends when the Python object (the only sender) is gone.
        while let Ok(request) = self.requests.recv() {
            match request {
                Request::Query(text, answer) => {
                    let json = database_query(game, &mut database, &text).map(|r| r.to_json());
                    let _ = answer.send(json);
                }
                Request::Values(ranks, layer, answer) => {
                    // The library's reading: one table file or an MPI
                    // job's shares, checked, through the cache.
                    let _ = answer.send(database.values(layer, &ranks));
                }
                Request::LayerSize(layer, answer) => {
                    let _ = answer.send(check_layer(game, layer).map(|()| game.layer_size(layer)));
                }
            }
        }
        Ok(())
    }
}

fn check_layer<G: TwoPlayerGame>(game: &G, layer: usize) -> bitsolve::Result<()> {
    if layer > game.max_layer() {
        return Err(Error::InvalidParameter(format!(
            "layers run from 0 to {}, got {layer}",
            game.max_layer()
        )));
    }
    Ok(())
}

impl Database {
    /// Sends a request made with `make` and waits for its answer.
    fn ask<T>(
        &self,
        py: Python<'_>,
        make: impl FnOnce(Sender<bitsolve::Result<T>>) -> Request,
    ) -> PyResult<T>
    where
        T: Send,
    {
        let (answer, answered) = channel();
        self.requests
            .send(make(answer))
            .map_err(|_| PyRuntimeError::new_err("the database's thread has stopped"))?;
        py.detach(move || answered.recv())
            .map_err(|_| PyRuntimeError::new_err("the database's thread has stopped"))?
            .map_err(to_python)
    }
}

#[pymethods]
impl Database {
    #[new]
    fn new(
        py: Python<'_>,
        name: &str,
        options: Vec<(String, Option<String>)>,
        store: PathBuf,
    ) -> PyResult<Self> {
        let options = game_options(name, options)?;
        if let Ok(metadata) = std::fs::metadata(&store)
            && !metadata.is_dir()
        {
            return Err(invalid(format!(
                "--store names the directory that 'bitsolve retro --store' wrote, and '{}' is not a directory",
                store.display()
            )));
        }
        let (requests, received) = channel();
        let (ready, readied) = channel();
        let server = Server {
            name: name.to_string(),
            store: store.clone(),
            ready: ready.clone(),
            requests: received,
        };
        let game = name.to_string();
        std::thread::Builder::new()
            .name(format!("bitsolve database {name}"))
            .spawn(move || {
                if let Err(error) = registry::visit_two_player(&game, &options, server) {
                    let _ = ready.send(Err(error));
                }
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        py.detach(move || readied.recv())
            .map_err(|_| PyRuntimeError::new_err("the database's thread has stopped"))?
            .map_err(to_python)?;
        Ok(Database {
            name: name.to_string(),
            store,
            requests,
        })
    }

    #[getter]
    fn store(&self) -> PathBuf {
        self.store.clone()
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The `query --json` object for position `text`, as JSON text.
    fn query(&self, py: Python<'_>, text: &str) -> PyResult<String> {
        let text = text.to_string();
        self.ask(py, |answer| Request::Query(text, answer))
            .map(|json| json.to_string())
    }

    /// The stored values (0 unknown, 1 first player wins, 2 second player
    /// wins, 3 draw) of `ranks` in `layer`.
    fn values<'py>(
        &self,
        py: Python<'py>,
        ranks: PyReadonlyArray1<'py, u64>,
        layer: usize,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let ranks = ranks.as_slice()?;
        // The copy the database's thread reads, and the values it answers.
        let what = || format!("values of {} ranks", ranks.len());
        memory::room_for(ranks.len() as u128 * 9, &what)?;
        let mut copy = with_room(ranks.len(), 0, &what)?;
        copy.extend_from_slice(ranks);
        let values = self.ask(py, |answer| Request::Values(copy, layer, answer))?;
        Ok(PyArray1::from_vec(py, values))
    }

    /// The size of `layer` (its ranks are 0..size).
    fn layer_size(&self, py: Python<'_>, layer: usize) -> PyResult<u64> {
        self.ask(py, |answer| Request::LayerSize(layer, answer))
    }
}

#[pymodule]
fn _bitsolve(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<Database>()?;
    m.add_class::<layer_space::TwoPlayer>()?;
    m.add_function(wrap_pyfunction!(games_json, m)?)?;
    m.add_function(wrap_pyfunction!(hashes::permutation_unrank, m)?)?;
    m.add_function(wrap_pyfunction!(hashes::permutation_rank, m)?)?;
    m.add_function(wrap_pyfunction!(hashes::binomial_unrank, m)?)?;
    m.add_function(wrap_pyfunction!(hashes::binomial_rank, m)?)?;
    m.add_function(wrap_pyfunction!(hashes::multinomial_unrank, m)?)?;
    m.add_function(wrap_pyfunction!(hashes::multinomial_rank, m)?)?;
    m.add_function(wrap_pyfunction!(retro, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    Ok(())
}
