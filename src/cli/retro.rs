//! `bitsolve retro`, `query` and `play`: two-bit retrograde analysis of
//! Fox-and-Geese into a database of solved layers, and what it knows.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;

use super::format::{bytes, group_digits};
use super::memory::peak_rss;
use super::progress::Display;
use super::thread_pool;
use crate::error::{Error, Result};
use crate::games::FoxGeese;
use crate::games::fox_geese::FoxGeeseState;
use crate::search::retro2::{
    BITS_PER_POSITION, LayerReport, LayeredGame, RECORD_EVERY, RetroOptions, Value, open_layer,
    solve_layer_range,
};
use crate::table::storage::file_name_for;
use crate::table::{Backing, TwoBitTable};

#[derive(Subcommand, Debug)]
pub enum RetroGame {
    /// Fox-and-Geese on the 33-point cross.
    FoxGeese(FoxGeeseArgs),
}

#[derive(Args, Debug, Clone)]
pub struct FoxGeeseArgs {
    /// Any capture counts as a win for the fox.
    #[arg(long, global = true)]
    capture_wins: bool,
    /// Solve only the blocks of fox cells that are least in their orbit under
    /// the board's 8 symmetries, and fill the others by mapping.
    #[arg(long, global = true)]
    symmetry: bool,
}

impl FoxGeeseArgs {
    fn game(&self) -> Result<FoxGeese> {
        FoxGeese::new(self.capture_wins, self.symmetry)
    }
}

#[derive(Args, Debug)]
pub struct RetroArgs {
    #[command(subcommand)]
    game: RetroGame,
    /// Solve the layers of 1..=G geese (the same as --layers 1..G).
    #[arg(long, global = true, value_name = "G", conflicts_with = "layers")]
    geese: Option<usize>,
    /// Solve the layers of A..B geese (both included). With --capture-wins
    /// every layer is independent; under the default rule the layer below A
    /// must be solved in the --store.
    #[arg(long, global = true, value_name = "A..B", value_parser = parse_layers)]
    layers: Option<(usize, usize)>,
    /// Keep each solved layer as a file in DIR; layers already solved there
    /// are skipped, an interrupted one is resumed.
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// With --store: record a layer's progress there at most every SECONDS
    /// (0: after every pass). Each record writes the layer's whole table;
    /// a stopped run resumes from the last one.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = RECORD_EVERY.as_secs())]
    checkpoint_every: u64,
    /// Print one JSON object on stdout instead of a table.
    #[arg(long, global = true)]
    json: bool,
}

/// "A..B" (or "A..=B", or one layer "A") as the inclusive range (A, B).
fn parse_layers(text: &str) -> std::result::Result<(usize, usize), String> {
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

/// The layers to solve: from `--layers A..B` or `--geese G` (1..G). Layer
/// 0 (no geese: the fox simply wins) is solved with any range that starts
/// at 1 and needs the layer below.
fn layer_range(args: &RetroArgs, game: &FoxGeese) -> Result<RangeInclusive<usize>> {
    let (first, last) = match (args.layers, args.geese) {
        (Some(range), _) => range,
        (None, Some(top)) => (1, top),
        (None, None) => {
            return Err(Error::InvalidParameter(
                "give --geese G or --layers A..B".into(),
            ));
        }
    };
    let max = game.max_geese();
    if first == 0 || last > max {
        return Err(Error::InvalidParameter(format!(
            "layers run from 1 to {max} geese, got {first}..{last}"
        )));
    }
    let first = if first == 1 && !game.independent_layers() {
        0
    } else {
        first
    };
    Ok(first..=last)
}

pub(super) fn run_retro(args: RetroArgs) -> Result<()> {
    let RetroGame::FoxGeese(game_args) = &args.game;
    let game = game_args.game()?;
    let layers = layer_range(&args, &game)?;
    let top = *layers.end();
    let pool = thread_pool(args.threads)?;
    let header = format!(
        "{} · two-bit retrograde analysis · {} threads · {} bits per position while solving\n{:>5}  {:>15}  {:>10}  {:>6}  {:>15}  {:>15}  {:>9}  {:>10}",
        game.layer_descriptor(top),
        pool.current_num_threads(),
        BITS_PER_POSITION,
        "geese",
        "states",
        "stored",
        "passes",
        "won for geese",
        "examined",
        "time",
        "peak RSS"
    );
    let display = if args.json {
        Display::new(None, None)
    } else {
        Display::new(Some(header), None)
    };
    // The process's peak resident memory when each layer finishes. It is
    // not reset between layers (that would also reset what the system
    // reports of the whole run to timing tools): run one layer with
    // --layers G..G for its own peak.
    let peak_of_layer = Mutex::new(BTreeMap::new());
    // Rows are printed as layers finish: long runs show their progress.
    let print_layer = |report: &LayerReport| {
        let peak = peak_rss();
        if let Some(peak) = peak {
            peak_of_layer.lock().unwrap().insert(report.layer, peak);
        }
        if !args.json && report.layer > 0 {
            display.print_header();
            display.suspend(|| print_row(report, peak));
        }
    };
    let options = RetroOptions {
        backing: args
            .store
            .clone()
            .map(Backing::Directory)
            .unwrap_or(Backing::Heap),
        progress: &display,
        on_layer: &print_layer,
        record_every: Duration::from_secs(args.checkpoint_every),
    };
    let reports = pool.install(|| solve_layer_range(&game, layers, &options));
    display.finish();
    let reports = reports?;
    display.print_header();
    // Layer 0 (no geese: the fox simply wins) is solved but not shown.
    let shown: Vec<&LayerReport> = reports.iter().filter(|r| r.layer > 0).collect();
    let peaks = peak_of_layer.into_inner().unwrap();
    if args.json {
        let layers: Vec<serde_json::Value> = shown
            .iter()
            .map(|r| {
                json!({
                    "geese": r.layer,
                    "states": r.states,
                    "stored": r.stored,
                    "stored_bytes": r.stored.div_ceil(4),
                    "won_for_geese": r.second_wins,
                    "won_for_fox": r.first_wins,
                    "passes": r.passes(),
                    "examined": r.examined,
                    "full_scan_work": r.full_scan_work(),
                    "seconds": r.seconds,
                    "already_solved": r.already_solved,
                    "peak_rss_bytes": peaks.get(&r.layer),
                })
            })
            .collect();
        println!(
            "{}",
            json!({ "game": game.layer_descriptor(top), "bits_per_position": BITS_PER_POSITION, "layers": layers })
        );
        return Ok(());
    }
    let examined: u64 = shown.iter().map(|r| r.examined.iter().sum::<u64>()).sum();
    let full: u64 = shown.iter().map(|r| r.full_scan_work()).sum();
    let seconds: f64 = shown.iter().map(|r| r.seconds).sum();
    println!(
        "total {:.2} s; {} positions examined where repeated full scans (Algorithm 4) would visit {} ({:.1}x fewer)",
        seconds,
        group_digits(examined),
        group_digits(full),
        full as f64 / examined.max(1) as f64
    );
    if let Some(dir) = &args.store {
        println!("database in {}", dir.display());
    }
    Ok(())
}

fn print_row(report: &LayerReport, peak: Option<u64>) {
    let time = if report.already_solved {
        "stored".to_string()
    } else {
        format!("{:.2} s", report.seconds)
    };
    println!(
        "{:>5}  {:>15}  {:>10}  {:>6}  {:>15}  {:>15}  {:>9}  {:>10}",
        report.layer,
        group_digits(report.states),
        bytes(report.stored.div_ceil(4)),
        report.passes(),
        group_digits(report.second_wins),
        group_digits(report.examined.iter().sum()),
        time,
        peak.map_or("?".to_string(), bytes)
    );
}

/// The solved layers of a store, opened on demand for reading values.
/// Layers are opened read-only (a query never writes a store, and may read
/// one on read-only media) and each is checked against its checksums in
/// full when first opened.
struct Database<'a> {
    game: &'a FoxGeese,
    dir: &'a Path,
    layers: Vec<Option<TwoBitTable>>,
    progress: Display<'a>,
}

impl<'a> Database<'a> {
    fn new(game: &'a FoxGeese, dir: &'a Path) -> Self {
        Database {
            game,
            dir,
            layers: (0..=game.max_geese()).map(|_| None).collect(),
            progress: Display::new(None, None),
        }
    }

    /// The file of `game`'s layer `layer` in the store.
    fn layer_file(&self, game: &FoxGeese, layer: usize) -> PathBuf {
        let descriptor = format!("{}; retrograde values", game.layer_descriptor(layer));
        self.dir.join(file_name_for(&descriptor))
    }

    /// The `retro` command that solves `layer` for this game, with its
    /// variant's flags (a layer solved without them is another table).
    fn solve_command(&self, layer: usize) -> String {
        format!(
            "bitsolve retro fox-geese --geese {}{} --store {}",
            // Layer 0 is solved by every run; --geese starts at 1.
            layer.max(1),
            variant_flags(self.game.capture_wins(), self.game.symmetry()),
            self.dir.display()
        )
    }

    /// Why the store cannot answer for `layer`: which variants it holds
    /// the layer for instead, if any, and the command that would solve it.
    fn missing_layer(&self, layer: usize) -> String {
        let wanted = (self.game.capture_wins(), self.game.symmetry());
        let held: Vec<String> = [(false, false), (true, false), (false, true), (true, true)]
            .into_iter()
            .filter(|&variant| variant != wanted)
            .filter(|&(capture_wins, symmetry)| {
                FoxGeese::new(capture_wins, symmetry)
                    .is_ok_and(|other| self.layer_file(&other, layer).exists())
            })
            .map(
                |(capture_wins, symmetry)| match variant_flags(capture_wins, symmetry) {
                    flags if flags.is_empty() => "without flags".to_string(),
                    flags => format!("with{flags}"),
                },
            )
            .collect();
        let held = if held.is_empty() {
            String::new()
        } else {
            format!(
                " (it holds that layer solved {}, a different table)",
                held.join(" and ")
            )
        };
        format!(
            "the layer of {}{} is not in {}{held}; run: {}",
            geese(layer),
            match variant_flags(wanted.0, wanted.1) {
                flags if flags.is_empty() => String::new(),
                flags => format!(" solved with{flags}"),
            },
            self.dir.display(),
            self.solve_command(layer)
        )
    }

    fn value(&mut self, state: &FoxGeeseState) -> Result<Value> {
        let layer = state.geese.count_ones() as usize;
        if self.layers[layer].is_none() {
            if !self.layer_file(self.game, layer).exists() {
                return Err(Error::InvalidParameter(self.missing_layer(layer)));
            }
            let (table, checkpoint) = open_layer(
                self.game,
                layer,
                &Backing::ReadOnly(self.dir.to_path_buf()),
                &self.progress,
            )?;
            self.progress.finish();
            if !checkpoint.is_some_and(|c| c.complete) {
                return Err(Error::InvalidParameter(format!(
                    "the layer of {} in {} is not completely solved yet; finish it: {}",
                    geese(layer),
                    self.dir.display(),
                    self.solve_command(layer)
                )));
            }
            self.layers[layer] = Some(table);
        }
        let table = self.layers[layer].as_ref().unwrap();
        Ok(Value::from_bits(table.get(self.game.rank_of(state))))
    }
}

/// The flags of a Fox-and-Geese variant, each with a leading space.
fn variant_flags(capture_wins: bool, symmetry: bool) -> String {
    let mut flags = String::new();
    if capture_wins {
        flags.push_str(" --capture-wins");
    }
    if symmetry {
        flags.push_str(" --symmetry");
    }
    flags
}

/// "1 goose", "5 geese".
fn geese(count: usize) -> String {
    if count == 1 {
        "1 goose".to_string()
    } else {
        format!("{count} geese")
    }
}

fn describe(value: Value) -> &'static str {
    match value {
        Value::FirstWins => "won for the fox",
        Value::SecondWins => "won for the geese",
        Value::Draw => "drawn",
        Value::Unknown => "not solved",
    }
}

/// "d4-d5" for a move, "d4xd6" for a capture.
fn move_name(game: &FoxGeese, from: &FoxGeeseState, to: &FoxGeeseState) -> String {
    let board = game.board();
    if from.fox_to_move {
        let capture = to.geese != from.geese;
        format!(
            "{}{}{}",
            board.cell_name(from.fox),
            if capture { "x" } else { "-" },
            board.cell_name(to.fox)
        )
    } else {
        let left = (from.geese & !to.geese).trailing_zeros() as usize;
        let arrived = (to.geese & !from.geese).trailing_zeros() as usize;
        format!("{}-{}", board.cell_name(left), board.cell_name(arrived))
    }
}

#[derive(Args, Debug)]
pub struct QueryArgs {
    #[command(subcommand)]
    game: RetroGame,
    /// The database directory written by `bitsolve retro --store`.
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
    /// The position: 33 points in cell order ('F' fox, 'g' goose, '.' empty),
    /// then ':fox' or ':geese' for the side to move.
    #[arg(long, global = true)]
    position: Option<String>,
    /// Print one JSON object on stdout.
    #[arg(long, global = true)]
    json: bool,
}

/// The game and the database directory that `query` and `play` both need.
fn game_and_store<'a>(
    game: &RetroGame,
    store: &'a Option<PathBuf>,
) -> Result<(FoxGeese, &'a PathBuf)> {
    let RetroGame::FoxGeese(game_args) = game;
    let dir = store
        .as_ref()
        .ok_or_else(|| Error::InvalidParameter("give --store DIR".into()))?;
    Ok((game_args.game()?, dir))
}

pub(super) fn run_query(args: QueryArgs) -> Result<()> {
    let (game, dir) = game_and_store(&args.game, &args.store)?;
    let text = args
        .position
        .as_ref()
        .ok_or_else(|| Error::InvalidParameter("give --position".into()))?;
    let state = game.parse(text)?;
    let mut database = Database::new(&game, dir);
    let value = database.value(&state)?;
    let mut moves = Vec::new();
    for next in game.moves(&state) {
        moves.push((move_name(&game, &state, &next), database.value(&next)?));
    }
    if args.json {
        let listed: Vec<serde_json::Value> = moves
            .iter()
            .map(|(name, v)| json!({"move": name, "value": describe(*v)}))
            .collect();
        println!("{}", json!({"value": describe(value), "moves": listed}));
        return Ok(());
    }
    print!("{}", game.draw(&state));
    println!("value: {}", describe(value));
    for (name, value) in moves {
        println!("  {name:<8} {}", describe(value));
    }
    Ok(())
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Fox,
    Geese,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(subcommand)]
    game: RetroGame,
    /// The database directory written by `bitsolve retro --store`.
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
    /// The side you play; the program plays the other perfectly.
    #[arg(long, value_enum, global = true)]
    side: Option<Side>,
    /// Start position (default: the fox in the centre and the geese on the
    /// points of the lowest rows they fill, the geese to move).
    #[arg(long, global = true)]
    position: Option<String>,
    /// Number of geese for the default start position.
    #[arg(long, global = true, default_value_t = 8, conflicts_with = "position")]
    geese: usize,
}

/// The fox on the centre and `geese` geese filling the board from the
/// bottom row up, the geese to move.
fn default_start(game: &FoxGeese, geese: usize) -> Result<FoxGeeseState> {
    let board = game.board();
    let fox = board.centre().expect("the cross has a centre");
    if geese == 0 || geese >= board.cells() - 1 {
        return Err(Error::InvalidParameter(format!(
            "--geese must be between 1 and {}",
            board.cells() - 2
        )));
    }
    let mut cells: Vec<usize> = (0..board.cells()).filter(|&c| c != fox).collect();
    cells.sort_by_key(|&c| std::cmp::Reverse(board.position(c)));
    let mask = cells[..geese].iter().fold(0u64, |acc, &c| acc | 1 << c);
    Ok(FoxGeeseState {
        fox,
        geese: mask,
        fox_to_move: false,
    })
}

pub(super) fn run_play(args: PlayArgs) -> Result<()> {
    let (game, dir) = game_and_store(&args.game, &args.store)?;
    let side = args
        .side
        .ok_or_else(|| Error::InvalidParameter("give --side fox|geese".into()))?;
    let mut state = match &args.position {
        Some(text) => game.parse(text)?,
        None => default_start(&game, args.geese)?,
    };
    let mut database = Database::new(&game, dir);
    // Check the database answers before the first move.
    database.value(&state)?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut seed = 0x2545_f491_4f6c_dd1du64 ^ state.geese;
    loop {
        print!("{}", game.draw(&state));
        let value = database.value(&state)?;
        println!("value: {}", describe(value));
        let moves = game.moves(&state);
        if moves.is_empty() {
            let winner = if state.fox_to_move {
                "the geese win"
            } else {
                "the fox wins"
            };
            println!("no move left: {winner}");
            return Ok(());
        }
        if state.geese.count_ones() == 0 {
            println!("the fox has taken every goose: the fox wins");
            return Ok(());
        }
        let human_moves = (side == Side::Fox) == state.fox_to_move;
        let next = if human_moves {
            let names: Vec<String> = moves.iter().map(|m| move_name(&game, &state, m)).collect();
            print!("your move ({}), or 'quit': ", names.join(" "));
            std::io::stdout().flush().ok();
            let Some(line) = lines.next() else {
                return Ok(());
            };
            let line = line.map_err(|e| Error::io("cannot read the move", e))?;
            let answer = line.trim().replace('X', "x");
            if answer == "quit" {
                return Ok(());
            }
            match names
                .iter()
                .position(|name| *name == answer || name.replace('x', "-") == answer)
            {
                Some(index) => moves[index],
                None => {
                    println!("'{answer}' is not a legal move here");
                    continue;
                }
            }
        } else {
            // A move that keeps the best value for the program's side; the
            // two-bit database has no distances, so ties go by chance.
            let me = if state.fox_to_move {
                Value::FirstWins
            } else {
                Value::SecondWins
            };
            let mut scored = Vec::new();
            for next in &moves {
                let v = database.value(next)?;
                let score = if v == me {
                    2
                } else if v == Value::Draw {
                    1
                } else {
                    0
                };
                scored.push((score, *next));
            }
            let best = scored.iter().map(|(s, _)| *s).max().unwrap();
            let choices: Vec<FoxGeeseState> = scored
                .into_iter()
                .filter(|(s, _)| *s == best)
                .map(|(_, m)| m)
                .collect();
            seed = crate::hash::splitmix64(seed);
            let chosen = choices[(seed % choices.len() as u64) as usize];
            println!("bitsolve plays {}", move_name(&game, &state, &chosen));
            chosen
        };
        state = next;
    }
}
