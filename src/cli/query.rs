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
use crate::search::retro2::{Player, Value};

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
    /// Instead of --position: the game's start, with this many pieces
    /// where the game has several (Fox-and-Geese: geese; 13 and 17 are the
    /// traditional starts, the fox in the centre; Nine Men's Morris: the
    /// empty board, every stone in hand, with no count).
    #[arg(
        long,
        value_name = "PIECES",
        global = true,
        num_args = 0..=1,
        conflicts_with = "position"
    )]
    start: Option<Option<usize>>,
    /// With --start: the side to move first (default: the game's;
    /// Fox-and-Geese: the geese).
    #[arg(long, value_name = "SIDE", global = true, requires = "start")]
    to_move: Option<String>,
    /// With --start: the start with its lone piece (Fox-and-Geese's fox)
    /// on every free point instead, each point's value, and the best and
    /// worst of them for that piece.
    #[arg(long, global = true, requires = "start")]
    placements: bool,
    /// Print one JSON object on stdout.
    #[arg(long, global = true)]
    json: bool,
}

/// The side `name` names in `game` (`fox`/`geese`, `blue`/`red`).
fn side_named<G: TwoPlayerGame>(game: &G, name: &str) -> Result<Player> {
    let sides = [Player::First, Player::Second];
    sides
        .into_iter()
        .find(|&side| game.side_name(side) == name)
        .ok_or_else(|| {
            Error::InvalidParameter(format!(
                "the side is {} or {}, got {}",
                game.side_name(Player::First),
                game.side_name(Player::Second),
                quoted(name)
            ))
        })
}

/// The start `pieces` names, with `to_move` (a side's name) to move.
fn chosen_start<G: TwoPlayerGame>(
    game: &G,
    pieces: Option<usize>,
    to_move: Option<&str>,
) -> Result<G::Position> {
    let start = game.start_position(pieces)?;
    match to_move {
        Some(name) => {
            let turned = game.with_side_to_move(&start, side_named(game, name)?);
            // Read back through the game's own checks: a side may not be
            // free to move first (the Morris opening's hands say who
            // places), and such a start is refused, not answered.
            game.parse_position(&game.position_text(&turned))
        }
        None => Ok(start),
    }
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
        let (cache, display) = (TableCache::for_few_questions(), Display::new(None, None));
        let start = match args.start {
            Some(pieces) => Some(chosen_start(game, pieces, args.to_move.as_deref())?),
            None => None,
        };
        if args.placements {
            let start = start.expect("clap requires --start");
            let mut database = Database::new(game, args.game.name(), dir, &cache).showing(&display);
            let json = placements_json(game, &mut database, &start);
            display.finish();
            let json = json?;
            if args.json {
                println!("{json}");
            } else {
                print_placements(game, &start, &json);
            }
            return Ok(());
        }
        let start_text = start.map(|start| game.position_text(&start));
        let text = start_text
            .as_ref()
            .or(args.position.as_ref())
            .ok_or_else(|| Error::InvalidParameter("give --position or --start".into()))?;
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

/// `start` with its lone piece on each free point: every placement's value
/// and distance, and the best and worst for that piece's side (by value,
/// then distance: a faster win, a slower loss).
pub fn placements_json<G: TwoPlayerGame>(
    game: &G,
    database: &mut Database<'_, G>,
    start: &G::Position,
) -> Result<serde_json::Value> {
    let placements = game.placements(start)?;
    // The lone piece's side: the side whose piece moves between them.
    let lone = Player::First;
    let mut rows = Vec::with_capacity(placements.len());
    for (point, position) in &placements {
        let value = database.value(position)?;
        let distance = database.distance(position)?;
        rows.push((point.clone(), position, value, distance));
    }
    // Higher is better for the lone piece's side.
    let score = |value: Value, distance: Option<u16>| -> (i32, i32) {
        let plies = i32::from(distance.unwrap_or(0));
        match value {
            Value::FirstWins if lone == Player::First => (3, -plies),
            Value::SecondWins if lone == Player::Second => (3, -plies),
            Value::Draw => (2, 0),
            Value::Unknown => (1, 0),
            _ => (0, plies),
        }
    };
    let best = rows.iter().max_by_key(|row| score(row.2, row.3));
    let worst = rows.iter().min_by_key(|row| score(row.2, row.3));
    let listed: Vec<serde_json::Value> = rows
        .iter()
        .map(|(point, position, value, distance)| {
            json!({
                "point": point,
                "position": game.position_text(position),
                "value": describe(game, *value),
                "distance": distance,
            })
        })
        .collect();
    let named = |row: Option<&(String, &G::Position, Value, Option<u16>)>| {
        row.map(|(point, _, value, distance)| {
            json!({"point": point, "value": describe(game, *value), "distance": distance})
        })
    };
    Ok(json!({
        "start": game.position_text(start),
        "to_move": game.side_name(game.side_to_move(start)),
        "piece": game.side_name(lone),
        "placements": listed,
        "best": named(best),
        "worst": named(worst),
    }))
}

/// [`placements_json`] for people: one line a point, then the best and worst.
fn print_placements<G: TwoPlayerGame>(game: &G, start: &G::Position, json: &serde_json::Value) {
    print!("{}", game.draw(start));
    let piece = json["piece"].as_str().unwrap_or_default();
    let line = |row: &serde_json::Value| {
        let value = row["value"].as_str().unwrap_or_default();
        match row["distance"].as_u64() {
            Some(plies) => format!("{value} in {plies} plies"),
            None => value.to_string(),
        }
    };
    println!("the {piece} on each free point instead:");
    for row in json["placements"].as_array().into_iter().flatten() {
        println!(
            "  {:<4} {}",
            row["point"].as_str().unwrap_or_default(),
            line(row)
        );
    }
    let rows = json["placements"].as_array().cloned().unwrap_or_default();
    let alike = |row: &serde_json::Value| (row["value"].clone(), row["distance"].clone());
    if rows
        .windows(2)
        .all(|pair| alike(&pair[0]) == alike(&pair[1]))
    {
        if let Some(first) = rows.first() {
            println!("every placement: {}", line(first));
        }
        return;
    }
    for which in ["best", "worst"] {
        let row = &json[which];
        println!(
            "{which} for the {piece}: {} ({})",
            row["point"].as_str().unwrap_or_default(),
            line(row)
        );
    }
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
    /// Fox-and-Geese: the number of geese of the default start (8; 13
    /// and 17 are the traditional starts).
    #[arg(long, global = true, conflicts_with = "position")]
    geese: Option<usize>,
    /// The side to move at the start (default: the game's; Fox-and-Geese:
    /// the geese).
    #[arg(long, value_name = "SIDE", global = true, conflicts_with = "position")]
    to_move: Option<String>,
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
            None => chosen_start(game, args.geese, args.to_move.as_deref())?,
        };
        let (cache, display) = (TableCache::for_few_questions(), Display::new(None, None));
        let mut database = Database::new(game, args.game.name(), dir, &cache).showing(&display);
        // Check the database answers before the first move.
        database.value(&position)?;
        display.finish();
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
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
                let Some(line) = read_move_line(&mut input)? else {
                    return Ok(());
                };
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

/// Most bytes of one line of `play`'s input: the longest move name is a
/// few characters, and a line is held whole before it is read.
const MAX_MOVE_LINE: usize = 256;

/// The next line of `input` without its line end, or `None` at the end of
/// the input. A line longer than [`MAX_MOVE_LINE`] bytes (say, `/dev/zero`
/// piped in) is refused without reading on, so input never fills memory.
fn read_move_line<R: BufRead>(input: &mut R) -> Result<Option<String>> {
    let mut line = Vec::new();
    let limit = MAX_MOVE_LINE as u64 + 1;
    std::io::Read::take(input, limit)
        .read_until(b'\n', &mut line)
        .map_err(|e| Error::io("cannot read the move", e))?;
    if line.is_empty() {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    } else if line.len() as u64 == limit {
        return Err(Error::InvalidParameter(format!(
            "a move line longer than {MAX_MOVE_LINE} bytes: no move is that long"
        )));
    }
    String::from_utf8(line)
        .map(Some)
        .map_err(|_| Error::InvalidParameter("the move line is not UTF-8".into()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lines_are_read_whole_and_endless_ones_refused() {
        let mut input = std::io::Cursor::new(b"a1-b2\nquit".to_vec());
        assert_eq!(
            read_move_line(&mut input).unwrap().as_deref(),
            Some("a1-b2")
        );
        assert_eq!(read_move_line(&mut input).unwrap().as_deref(), Some("quit"));
        assert_eq!(read_move_line(&mut input).unwrap(), None);
        // A line of exactly the limit is still a line.
        let mut longest = vec![b'x'; MAX_MOVE_LINE];
        longest.push(b'\n');
        let mut input = std::io::Cursor::new(longest);
        assert_eq!(
            read_move_line(&mut input).unwrap().unwrap().len(),
            MAX_MOVE_LINE
        );
        // /dev/zero: refused after the limit, not read to the end.
        let mut zeros = std::io::BufReader::new(std::io::repeat(0));
        let message = read_move_line(&mut zeros).unwrap_err().to_string();
        assert!(message.contains("longer than 256 bytes"), "{message}");
        let mut input = std::io::Cursor::new(vec![0xff, b'\n']);
        assert!(read_move_line(&mut input).is_err());
    }
}
