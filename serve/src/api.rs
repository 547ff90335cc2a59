//! The JSON API. Every endpoint is a function from the request's decoded
//! parameters to a JSON value or a [`Failure`]; games are opened by name
//! and options through the registry, tables through [`Stores`].
//!
//! - `GET /api/games`: the games and their options.
//! - `GET /api/stores`: the stores, the game each holds, and their table
//!   files.
//! - `GET /api/layers?store=S&table=FILE`: a finished BFS table's layers.
//! - `GET /api/start?game=G[&store=S][&size=N][&option=value...]`: a start
//!   position; with a store and no size, the deepest start it can answer.
//! - `GET /api/position?game=G&position=TEXT[&store=S][&option=value...]`
//!   (one-player games also take `rank=R` instead of a position): the
//!   position's diagram, value and distance, and every move with what it
//!   leads to ("not in the store" where the store lacks a layer, with the
//!   `retro` run that adds it). Positional games are solved per request
//!   ([`positional`]).

use serde_json::{Value as Json, json};

use super::definitions::Definitions;
use super::positional;
use super::request::{Failure, Parameters, flag, printable};
use super::stores::{Store, Stores};
use bitsolve::database::{Database, TableCache, describe};
use bitsolve::diagram::sketch;
use bitsolve::games::board::Board;
use bitsolve::games::registry::{self, GameKind, GameOptions, SpaceVisitor};
use bitsolve::games::{TwoPlayerGame, TwoPlayerVisitor};
use bitsolve::search::Target;
use bitsolve::space::{MoveFilter, Picture, Space};
use bitsolve::space::{Player, Value};

type Endpoint = fn(&Stores, &Parameters) -> Result<Json, Failure>;

/// The endpoint at `path`, if there is one.
pub fn endpoint(path: &str) -> Option<Endpoint> {
    let found: Endpoint = match path {
        "/api/games" => games,
        "/api/stores" => stores,
        "/api/layers" => layers,
        "/api/start" => start,
        "/api/position" => position,
        _ => return None,
    };
    Some(found)
}

/// Parameters an endpoint reads itself; every other one must be an
/// option of the game.
const RESERVED: [&str; 5] = ["game", "store", "position", "rank", "size"];

/// Refuses parameters an endpoint does not read (a misspelt option would
/// otherwise be silently ignored).
fn only(parameters: &Parameters, allowed: &[&str]) -> Result<(), Failure> {
    match parameters.iter().find(|(name, _)| !allowed.contains(name)) {
        Some((name, _)) if allowed.is_empty() => Err(Failure::bad_request(format!(
            "unknown parameter '{}' (this endpoint takes no parameters)",
            printable(name),
        ))),
        Some((name, _)) => Err(Failure::bad_request(format!(
            "unknown parameter '{}' (this endpoint takes: {})",
            printable(name),
            allowed.join(", ")
        ))),
        None => Ok(()),
    }
}

fn games(stores: &Stores, parameters: &Parameters) -> Result<Json, Failure> {
    only(parameters, &[])?;
    Ok(json!({
        "games": registry::catalog(),
        "boards": Board::built_in_names(),
        "definitions": stores.definitions.names(),
    }))
}

fn stores(stores: &Stores, parameters: &Parameters) -> Result<Json, Failure> {
    only(parameters, &[])?;
    let list: Vec<Json> = stores
        .list
        .iter()
        .enumerate()
        .map(|(id, store)| {
            let (listed, game) = store.listing(&stores.tables);
            json!({"id": id, "name": store.name, "game": game, "tables": listed})
        })
        .collect();
    let (held, limit) = stores.tables.memory();
    Ok(json!({
        "stores": list,
        "open_tables": stores.tables.open_tables(),
        "table_memory": {"held": held, "limit": limit},
    }))
}

fn layers(stores: &Stores, parameters: &Parameters) -> Result<Json, Failure> {
    only(parameters, &["store", "table"])?;
    let store = stores
        .chosen(parameters)?
        .ok_or_else(|| Failure::bad_request("give the parameter 'store'"))?;
    let file = parameters.required("table")?;
    // The name is looked up among the files the store lists, never joined
    // onto a path: "../x" or "%2e%2e/x" simply is not one of them.
    let table = store
        .listing(&stores.tables)
        .0
        .into_iter()
        .find(|t| t["file"] == file)
        .ok_or_else(|| {
            Failure::not_found(format!(
                "store {} has no table file '{}'",
                store.name,
                printable(file)
            ))
        })?;
    let Some(counts) = table["layers"].as_array() else {
        return Err(Failure::not_found(format!(
            "'{}' is not a finished BFS table: it has no layers",
            printable(file)
        )));
    };
    let total: u64 = counts.iter().filter_map(Json::as_u64).sum();
    Ok(json!({
        "store": store.name,
        "table": file,
        "descriptor": table["descriptor"],
        "layers": counts,
        "total": total,
        "depth": counts.len().saturating_sub(1),
    }))
}

/// The game's options from the parameters other than [`RESERVED`] ones:
/// `name=value`, or for a flag `name`, `name=1` or `name=true` (`0` and
/// `false` leave it off; [`flag`]). An option that names a file never takes a path
/// from the client: boards are built-in ones only, and a definition is
/// one the server was started with, by name.
fn game_options(
    name: &str,
    parameters: &Parameters,
    definitions: &Definitions,
) -> Result<GameOptions, Failure> {
    let entry = registry::entry(name).map_err(|e| Failure::not_found(e.to_string()))?;
    let mut options = GameOptions::default();
    for (key, value) in parameters.iter() {
        if RESERVED.contains(&key) {
            continue;
        }
        let Some(spec) = entry.options.iter().find(|o| o.name == key) else {
            let known: Vec<&str> = entry.options.iter().map(|o| o.name).collect();
            return Err(Failure::bad_request(format!(
                "{name} has no option '{}' (its options: {})",
                printable(key),
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        };
        match spec.value {
            None => {
                if flag(key, value)? {
                    options = options.with_flag(key);
                }
            }
            Some(_) if key == "board" && !Board::built_in_names().contains(&value) => {
                return Err(Failure::bad_request(format!(
                    "board '{}' is not a built-in board (the explorer reads no board files): {}",
                    printable(value),
                    Board::built_in_names().join(", ")
                )));
            }
            Some(_) if spec.names_file && key != "board" => {
                options = options.with(key, definitions.path(key, value)?);
            }
            Some(_) => options = options.with(key, value),
        }
    }
    Ok(options)
}

/// The game the parameters name, opened with their options, handed to a
/// one- or a two-player visitor.
fn visit_game<O>(
    stores: &Stores,
    parameters: &Parameters,
    one: impl SpaceVisitor<Output = O>,
    two: impl TwoPlayerVisitor<Output = O>,
) -> Result<O, Failure> {
    let name = parameters.required("game")?;
    let options = game_options(name, parameters, &stores.definitions)?;
    let found = match registry::entry(name).map_err(|e| Failure::not_found(e.to_string()))? {
        entry if entry.kind == GameKind::OnePlayer => registry::visit(name, &options, one),
        _ => registry::visit_two_player(name, &options, two),
    };
    found.map_err(Failure::from)
}

fn start(stores: &Stores, parameters: &Parameters) -> Result<Json, Failure> {
    let name = parameters.required("game")?;
    if positional::is_positional(name) {
        return positional::start(name, parameters);
    }
    let size = match parameters.get("size") {
        Some(text) => Some(text.parse::<usize>().map_err(|_| {
            Failure::bad_request(format!(
                "size must be a whole number, not '{}'",
                printable(text)
            ))
        })?),
        None => None,
    };
    let store = stores.chosen(parameters)?;
    let two = StartTwo {
        size,
        name,
        store: store.map(|store| (store, &stores.tables)),
    };
    visit_game(stores, parameters, StartOne { size }, two)
}

struct StartOne {
    size: Option<usize>,
}

impl SpaceVisitor for StartOne {
    type Output = Json;

    /// The space's first start state (the solved puzzle, or the game's
    /// opening position).
    fn visit<S: Space + Picture>(self, space: &S) -> bitsolve::Result<Json> {
        if self.size.is_some() {
            return Err(bitsolve::Error::InvalidParameter(
                "size is for two-player games' starts".into(),
            ));
        }
        let mut state = space.new_state();
        let rank = space.start_ranks().first().copied().unwrap_or(0);
        space.unrank(rank, &mut state);
        Ok(json!({"position": space.position_text(&state), "rank": rank}))
    }
}

struct StartTwo<'a> {
    size: Option<usize>,
    name: &'a str,
    /// The store to start inside, with the cache its tables are read
    /// through.
    store: Option<(&'a Store, &'a TableCache)>,
}

impl TwoPlayerVisitor for StartTwo<'_> {
    type Output = Json;

    /// The start of the size asked for; without one, the deepest start
    /// the store holds the layer of (the game's own start where it can),
    /// so that a newcomer's first position has a value.
    fn visit<G: TwoPlayerGame>(self, game: &G) -> bitsolve::Result<Json> {
        let inside = match (self.size, self.store) {
            (None, Some((store, cache))) => {
                Database::new(game, self.name, &store.dir, cache).deepest_start()
            }
            _ => None,
        };
        let start = match inside {
            Some(start) => start,
            None => game.start_position(self.size)?,
        };
        Ok(json!({"position": game.position_text(&start)}))
    }
}

fn position(stores: &Stores, parameters: &Parameters) -> Result<Json, Failure> {
    let store = stores.chosen(parameters)?;
    let name = parameters.required("game")?;
    if positional::is_positional(name) {
        return positional::position(name, parameters);
    }
    if parameters.get("size").is_some() {
        return Err(Failure::bad_request(
            "size is for /api/start; a position is given by 'position'",
        ));
    }
    let one = OnePlayerPosition {
        stores,
        store,
        parameters,
    };
    let two = TwoPlayerPosition {
        stores,
        store,
        name,
        parameters,
    };
    let mut answer = visit_game(stores, parameters, one, two)??;
    answer["game"] = name.into();
    answer["store"] = store.map(|s| s.name.clone()).into();
    Ok(answer)
}

/// A two-player position, its value and distance from the store (when one
/// is given), and every move with the value it leads to.
struct TwoPlayerPosition<'a> {
    stores: &'a Stores,
    store: Option<&'a Store>,
    name: &'a str,
    parameters: &'a Parameters,
}

/// The value of a position whose layer the store lacks.
const NOT_IN_STORE: &str = "not in the store";

/// A move's value for the side that makes it.
fn outcome(value: Value, mover: Player) -> &'static str {
    match value {
        Value::Draw => "draw",
        Value::Unknown => "unknown",
        won if won == Value::win_for(mover) => "win",
        _ => "loss",
    }
}

impl TwoPlayerVisitor for TwoPlayerPosition<'_> {
    type Output = Result<Json, Failure>;

    fn visit<G: TwoPlayerGame>(self, game: &G) -> bitsolve::Result<Result<Json, Failure>> {
        if self.parameters.get("rank").is_some() {
            return Ok(Err(Failure::bad_request(
                "two-player positions are given as text ('position'), not by rank",
            )));
        }
        let text = match self.parameters.required("position") {
            Ok(text) => text,
            Err(failure) => return Ok(Err(failure)),
        };
        let position = game.parse_position(text)?;
        let mover = game.side_to_move(&position);
        let diagram = game.diagram(&position);
        let mut database = self
            .store
            .map(|store| Database::new(game, self.name, &store.dir, &self.stores.tables));
        // Without a store every value is unknown, and where the store lacks
        // a layer its positions are "not in the store": the position and
        // its moves are drawn all the same.
        let missing = database.as_ref().and_then(|d| d.missing(&position));
        let (value, distance) = match &mut database {
            Some(database) if missing.is_none() => (
                Some(database.value(&position)?),
                database.distance(&position)?,
            ),
            _ => (None, None),
        };
        let moves = match &mut database {
            Some(database) if missing.is_none() => database
                .moves(&position)?
                .into_iter()
                .map(|m| (m.name, m.position, Some(m.value), m.distance))
                .collect(),
            _ => {
                let mut unvalued = Vec::new();
                for next in game.moves(&position) {
                    // A capture may lead into a layer the store holds.
                    let (value, distance) = match &mut database {
                        Some(database) if database.missing(&next).is_none() => {
                            (Some(database.value(&next)?), database.distance(&next)?)
                        }
                        _ => (None, None),
                    };
                    unvalued.push((game.move_name(&position, &next), next, value, distance));
                }
                unvalued
            }
        };
        // The value for people: where the store has one, "not in the store"
        // where it lacks the layer, and `null` without a store.
        let words = |value: Option<Value>| match (self.store, value) {
            (None, _) => Json::Null,
            (Some(_), Some(value)) => describe(game, value).into(),
            (Some(_), None) => NOT_IN_STORE.into(),
        };
        let mut listed = Vec::new();
        for (name, next, value, distance) in &moves {
            listed.push(json!({
                "move": name,
                "position": game.position_text(next),
                "value": words(*value),
                "outcome": outcome(value.unwrap_or(Value::Unknown), mover),
                "distance": distance,
                "sketch": sketch(&diagram, &game.diagram(next)),
            }));
        }
        let (layer, rank) = game.locate(&position);
        Ok(Ok(json!({
            "kind": "two-player",
            "position": game.position_text(&position),
            "sides": [game.side_name(Player::First), game.side_name(Player::Second)],
            "to_move": game.side_name(mover),
            "layer": layer,
            "layer_name": game.layer_name(layer),
            "rank": rank,
            "value": words(value),
            "outcome": outcome(value.unwrap_or(Value::Unknown), mover),
            "distance": distance,
            "missing": missing,
            "diagram": diagram,
            "moves": listed,
        })))
    }
}

/// A one-player position, and where the store holds the game's table of
/// depths (`solve --store`), its distance to the target, an optimal next
/// move and each move's distance.
struct OnePlayerPosition<'a> {
    stores: &'a Stores,
    store: Option<&'a Store>,
    parameters: &'a Parameters,
}

impl SpaceVisitor for OnePlayerPosition<'_> {
    type Output = Result<Json, Failure>;

    fn visit<S: Space + Picture>(self, space: &S) -> bitsolve::Result<Result<Json, Failure>> {
        let state = match (self.parameters.get("position"), self.parameters.get("rank")) {
            (Some(_), Some(_)) => {
                return Ok(Err(Failure::bad_request(
                    "give 'position' or 'rank', not both",
                )));
            }
            (Some(text), None) => space.parse_position(text)?,
            (None, Some(text)) => {
                let rank = match text.parse::<u64>() {
                    Ok(rank) if rank < space.size() => rank,
                    _ => {
                        return Ok(Err(Failure::bad_request(format!(
                            "rank must be a whole number below {}, not '{}'",
                            space.size(),
                            printable(text)
                        ))));
                    }
                };
                let mut state = space.new_state();
                space.unrank(rank, &mut state);
                state
            }
            (None, None) => {
                return Ok(Err(Failure::bad_request(
                    "give the parameter 'position' (or 'rank')",
                )));
            }
        };
        let depths = match self.store {
            Some(store) => self.stores.tables.stored_depths(space, &store.dir)?,
            None => None,
        };
        let diagram = space.diagram(&state);
        // A position's distance: the length of an optimal walk from it;
        // `None` where it cannot reach the target.
        let walk = |from: &S::State| -> bitsolve::Result<Option<Vec<S::State>>> {
            match &depths {
                Some(depths) => depths.solution_if_reachable(space, from),
                None => Ok(None),
            }
        };
        let path = walk(&state)?;
        let distance = path.as_ref().map(|p| p.len() - 1);
        let mut successors = Vec::new();
        space.expand(&state, MoveFilter::All, |rank| successors.push(rank));
        let mut listed = Vec::new();
        let mut next = space.new_state();
        for rank in successors {
            space.unrank(rank, &mut next);
            let next_distance = walk(&next)?.map(|p| p.len() - 1);
            let optimal = matches!((distance, next_distance), (Some(d), Some(n)) if n + 1 == d);
            listed.push(json!({
                "move": space.move_name(&state, &next),
                "position": space.position_text(&next),
                "distance": next_distance,
                "outcome": match (distance, next_distance) {
                    _ if optimal => "win",
                    (Some(_), Some(_)) => "loss",
                    _ => "unknown",
                },
                "sketch": sketch(&diagram, &space.diagram(&next)),
            }));
        }
        let next_move = path.as_ref().and_then(|p| p.get(1)).map(|step| {
            json!({"move": space.move_name(&state, step), "position": space.position_text(step)})
        });
        let target = depths.as_ref().map(|d| match d.target() {
            Target::Start => "start",
            Target::Goal => "goal",
        });
        Ok(Ok(json!({
            "kind": "one-player",
            "descriptor": space.descriptor(),
            "position": space.position_text(&state),
            "rank": space.rank(&state),
            "size": space.size(),
            "target": target,
            "goal": target.map(|t| if t == "goal" { space.goal_label() } else { "the start position".into() }),
            "distance": distance,
            "next_move": next_move,
            "diagram": diagram,
            "moves": listed,
        })))
    }
}
