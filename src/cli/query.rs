//! `bitsolve query` and `play`: what a database of solved layers knows
//! about a position of a two-player game, and a game against its perfect
//! player in the terminal. Written once for every [`TwoPlayerGame`].

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use super::games::TwoPlayerSpec;
use super::progress::Display;
use crate::database::{Database, TableCache, describe, describe_with};
use crate::error::{Error, Result, quoted};
use crate::games::two_player::{TwoPlayerGame, TwoPlayerVisitor};
use crate::search::Progress;
use crate::search::retro2::Player;

#[derive(Args, Debug)]
pub struct QueryArgs {
    #[command(subcommand)]
    game: TwoPlayerSpec,
    /// The database directory written by `bitsolve retro --store`.
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
    /// The position in the game's text form (Fox-and-Geese: 33 points in
    /// cell order, 'F' fox, 'g' goose, '.' empty; Dodgem: rows from the
    /// top, 'B' blue, 'R' red, '.' empty, separated by '/'), then ':' and
    /// the side to move.
    #[arg(long, global = true)]
    position: Option<String>,
    /// Print one JSON object on stdout.
    #[arg(long, global = true)]
    json: bool,
}

struct Query<'a> {
    args: &'a QueryArgs,
}

pub(super) fn run_query(args: QueryArgs) -> Result<()> {
    args.game.visit(Query { args: &args })
}

impl TwoPlayerVisitor for Query<'_> {
    type Output = ();

    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<()> {
        let args = self.args;
        let dir = store_of(&args.store)?;
        let text = args
            .position
            .as_ref()
            .ok_or_else(|| Error::InvalidParameter("give --position".into()))?;
        let (cache, display) = (TableCache::default(), Display::new(None, None));
        if args.json {
            let json = query_json(game, args.game.name(), dir, &cache, text, &display);
            display.finish();
            println!("{}", json?);
            return Ok(());
        }
        let position = game.parse_position(text)?;
        let mut database = Database::new(game, args.game.name(), dir, &cache).showing(&display);
        let value = database.value(&position)?;
        let distance = database.distance(&position)?;
        let moves = database.moves(&position)?;
        display.finish();
        print!("{}", game.draw(&position));
        println!("value: {}", describe_with(game, value, distance));
        for answer in moves {
            println!(
                "  {:<8} {}",
                answer.name,
                describe_with(game, answer.value, answer.distance)
            );
        }
        Ok(())
    }
}

/// What `bitsolve query --json` prints for the position `text` of `game`
/// (registered as `name`) in store `dir`: its value, distance and every
/// move with its value and distance. The tables are opened through `cache`,
/// so a caller that keeps one (the Python binding's database) opens and
/// checks each layer once; `progress` shows the check of a large layer.
pub fn query_json<G: TwoPlayerGame>(
    game: &G,
    name: &str,
    dir: &Path,
    cache: &TableCache,
    text: &str,
    progress: &dyn Progress,
) -> Result<serde_json::Value> {
    if let Ok(metadata) = std::fs::metadata(dir)
        && !metadata.is_dir()
    {
        return Err(not_a_store(dir, metadata.is_file()));
    }
    let mut database = Database::new(game, name, dir, cache).showing(progress);
    database_query_json(game, &mut database, text)
}

/// [`query_json`] over an open `database` of `game`, which a caller that
/// answers many queries keeps (its layers stay open between them).
pub fn database_query_json<G: TwoPlayerGame>(
    game: &G,
    database: &mut Database<'_, G>,
    text: &str,
) -> Result<serde_json::Value> {
    let position = game.parse_position(text)?;
    let value = database.value(&position)?;
    let distance = database.distance(&position)?;
    let moves = database.moves(&position)?;
    let listed: Vec<serde_json::Value> = moves
        .iter()
        .map(|m| json!({"move": m.name, "value": describe(game, m.value), "distance": m.distance}))
        .collect();
    Ok(json!({
        "position": game.position_text(&position),
        "to_move": game.side_name(game.side_to_move(&position)),
        "value": describe(game, value),
        "distance": distance,
        "moves": listed,
    }))
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(subcommand)]
    game: TwoPlayerSpec,
    /// The database directory written by `bitsolve retro --store`.
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
    /// The side you play (fox or geese; blue or red); the program plays the
    /// other perfectly.
    #[arg(long, global = true)]
    side: Option<String>,
    /// Start position (default: the game's start; Fox-and-Geese: the fox in
    /// the centre and the geese on the points of the lowest rows they fill,
    /// the geese to move).
    #[arg(long, global = true)]
    position: Option<String>,
    /// Fox-and-Geese: the number of geese of the default start (8).
    #[arg(long, global = true, conflicts_with = "position")]
    geese: Option<usize>,
}

struct Play<'a> {
    args: &'a PlayArgs,
}

pub(super) fn run_play(args: PlayArgs) -> Result<()> {
    args.game.visit(Play { args: &args })
}

impl TwoPlayerVisitor for Play<'_> {
    type Output = ();

    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<()> {
        let args = self.args;
        let dir = store_of(&args.store)?;
        let sides = [Player::First, Player::Second].map(|p| game.side_name(p));
        let human = match args.side.as_deref() {
            Some(name) if name == sides[0] => Player::First,
            Some(name) if name == sides[1] => Player::Second,
            _ => {
                return Err(Error::InvalidParameter(format!(
                    "give --side {}|{}",
                    sides[0], sides[1]
                )));
            }
        };
        let mut position = match &args.position {
            Some(text) => game.parse_position(text)?,
            None => game.start_position(args.geese)?,
        };
        let (cache, display) = (TableCache::default(), Display::new(None, None));
        let mut database = Database::new(game, args.game.name(), dir, &cache).showing(&display);
        // Check the database answers before the first move.
        database.value(&position)?;
        display.finish();
        let stdin = std::io::stdin();
        let mut lines = stdin.lock().lines();
        let mut seed = 0x2545_f491_4f6c_dd1du64 ^ game.locate(&position).1;
        loop {
            print!("{}", game.draw(&position));
            let value = database.value(&position)?;
            let distance = database.distance(&position)?;
            println!("value: {}", describe_with(game, value, distance));
            let moves = game.moves(&position);
            let mover = game.side_to_move(&position);
            // Without moves (or pieces) the rules have decided the
            // position, and its value says how.
            if moves.is_empty() {
                println!("no move left: {}", describe(game, value));
                return Ok(());
            }
            if game.locate(&position).0 == 0 {
                println!("no pieces left: {}", describe(game, value));
                return Ok(());
            }
            let next = if mover == human {
                let names: Vec<String> =
                    moves.iter().map(|m| game.move_name(&position, m)).collect();
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
                    Some(index) => moves[index].clone(),
                    None => {
                        println!("'{answer}' is not a legal move here");
                        continue;
                    }
                }
            } else {
                // One of the perfect player's moves; ties go by chance.
                let mut choices = database.best_moves(&position)?;
                seed = crate::hash::splitmix64(seed);
                let chosen = choices.swap_remove((seed % choices.len() as u64) as usize);
                println!("bitsolve plays {}", chosen.name);
                chosen.position
            };
            position = next;
        }
    }
}

/// The database directory `query` and `play` both need. A path that is
/// there but no directory is refused here: the database would look for
/// layer files under it and end up suggesting a `retro` run into it.
fn store_of(store: &Option<PathBuf>) -> Result<&PathBuf> {
    let dir = store
        .as_ref()
        .ok_or_else(|| Error::InvalidParameter("give --store DIR".into()))?;
    match std::fs::metadata(dir) {
        Ok(metadata) if !metadata.is_dir() => Err(not_a_store(dir, metadata.is_file())),
        _ => Ok(dir),
    }
}

/// Why `path`, which exists and is no directory, is not a store: a table
/// file's directory is the store to give.
fn not_a_store(path: &Path, is_file: bool) -> Error {
    let shown = quoted(&path.display().to_string());
    let what = if is_file { "a file" } else { "not a directory" };
    let mut message = format!(
        "--store names the directory that 'bitsolve retro --store' wrote, and {shown} is {what}"
    );
    let is_table = path.extension().is_some_and(|extension| extension == "bst");
    if is_file && is_table {
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        message.push_str(&format!(
            " (a table file; its store is its directory: --store {})",
            quoted(&parent.display().to_string())
        ));
    }
    Error::InvalidParameter(message)
}
