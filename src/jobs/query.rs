//! Questions to a solved database of a two-player game: a position's value
//! and distance and those of its moves, and where a lone piece is best
//! placed at the start (the `query` command, `serve`'s API and Python's
//! `Database` ask them).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::Report;
use crate::database::{Database, TableCache, describe};
use crate::error::{Error, Result, quoted};
use crate::games::TwoPlayerGame;
use crate::search::Progress;
use crate::space::{Player, Value};

/// The side `name` names in `game` (`fox`/`geese`, `blue`/`red`).
pub(crate) fn side_named<G: TwoPlayerGame>(game: &G, name: &str) -> Result<Player> {
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
pub fn chosen_start<G: TwoPlayerGame>(
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

/// The position `text` of `game` (registered as `name`) in store `dir`:
/// its value, distance and every move with its value and distance (what
/// `bitsolve query --json` prints). The tables are opened through `cache`,
/// so a caller that keeps one (the Python binding's database) opens and
/// checks each layer once; `progress` shows the check of a large layer.
pub fn query<G: TwoPlayerGame>(
    game: &G,
    name: &str,
    dir: &Path,
    cache: &TableCache,
    text: &str,
    progress: &dyn Progress,
) -> Result<QueryReport> {
    if let Ok(metadata) = std::fs::metadata(dir)
        && !metadata.is_dir()
    {
        return Err(not_a_store(dir, metadata.is_file()));
    }
    let mut database = Database::new(game, name, dir, cache).showing(progress);
    database_query(game, &mut database, text)
}

/// [`query`] over an open `database` of `game`, which a caller that
/// answers many queries keeps (its layers stay open between them).
pub fn database_query<G: TwoPlayerGame>(
    game: &G,
    database: &mut Database<'_, G>,
    text: &str,
) -> Result<QueryReport> {
    let position = game.parse_position(text)?;
    let value = database.value(&position)?;
    let distance = database.distance(&position)?;
    let moves = database.moves(&position)?;
    Ok(QueryReport {
        position: game.position_text(&position),
        to_move: game.side_name(game.side_to_move(&position)).to_string(),
        value: describe(game, value),
        distance,
        moves: moves
            .into_iter()
            .map(|m| QueryMove {
                name: m.name,
                value: describe(game, m.value),
                distance: m.distance,
            })
            .collect(),
    })
}

/// A position's value in a solved database and its moves': the report
/// of [`query`], whose [`Report::to_json`] is the object `bitsolve query
/// --json` prints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueryReport {
    /// The position, as text.
    pub position: String,
    /// The side to move.
    pub to_move: String,
    /// Its value for people ("white wins", "draw").
    pub value: String,
    /// Moves to the end with best play, where the database holds it.
    pub distance: Option<u16>,
    /// Every move, with the value and distance of where it leads.
    pub moves: Vec<QueryMove>,
}

/// One move of a [`QueryReport`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueryMove {
    /// The move's name.
    #[serde(rename = "move")]
    pub name: String,
    /// The value of the position it leads to.
    pub value: String,
    /// That position's distance.
    pub distance: Option<u16>,
}

impl Report for QueryReport {}

/// Where a lone piece is best placed: the report of [`placements`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlacementsReport {
    /// The start without the piece, as text.
    pub start: String,
    /// The side to move.
    pub to_move: String,
    /// The side whose piece is placed.
    pub piece: String,
    /// Every placement.
    pub placements: Vec<Placement>,
    /// The best placement for the piece's side (a win soonest, else a
    /// draw, else a loss latest).
    pub best: Option<Placement>,
    /// The worst.
    pub worst: Option<Placement>,
}

/// One placement of a [`PlacementsReport`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Placement {
    /// The point the piece stands on.
    pub point: String,
    /// The position, as text.
    pub position: String,
    /// Its value.
    pub value: String,
    /// Its distance.
    pub distance: Option<u16>,
}

impl Report for PlacementsReport {}

/// `start` with its lone piece on each free point: every placement's value
/// and distance, and the best and worst for that piece's side (by value,
/// then distance: a faster win, a slower loss).
pub fn placements<G: TwoPlayerGame>(
    game: &G,
    database: &mut Database<'_, G>,
    start: &G::Position,
) -> Result<PlacementsReport> {
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
    let listed =
        |(point, position, value, distance): &(String, &G::Position, Value, Option<u16>)| {
            Placement {
                point: point.clone(),
                position: game.position_text(position),
                value: describe(game, *value),
                distance: *distance,
            }
        };
    Ok(PlacementsReport {
        start: game.position_text(start),
        to_move: game.side_name(game.side_to_move(start)).to_string(),
        piece: game.side_name(lone).to_string(),
        placements: rows.iter().map(listed).collect(),
        best: best.map(listed),
        worst: worst.map(listed),
    })
}

/// The database directory `query` and `play` both need. A path that is
/// there but no directory is refused here: the database would look for
/// layer files under it and end up suggesting a `retro` run into it.
pub fn store_of(store: &Option<PathBuf>) -> Result<&PathBuf> {
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
