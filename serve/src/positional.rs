//! Positional games in the explorer (tic-tac-toe, Harary's tic-tac-toe,
//! Hex): they have no store; a position's value and each move's come from
//! the exhaustive solver (`bitsolve::qbf::exhaustive`) over the moves left,
//! which is quick for boards with few empty cells and refused beyond.

use serde_json::{Value as Json, json};

use super::request::{Failure, Parameters, flag, printable};
use bitsolve::diagram::{Cell, Diagram, MoveSketch, Style, sketch};
use bitsolve::games::positional::{PositionalGame, Query, Side};
use bitsolve::games::registry::{self, ConnectionGoal, GameKind, GameOptions};
use bitsolve::qbf::exhaustive::{Outcome, solve};

/// Most empty cells a position may have: each request solves the position
/// and every move to the end, and beyond this that takes seconds.
pub const MAX_EMPTY_CELLS: usize = 10;

/// Whether `name` is a registered positional game.
pub fn is_positional(name: &str) -> bool {
    registry::entry(name).is_ok_and(|entry| entry.kind == GameKind::Positional)
}

/// The game the parameters describe; every parameter but the endpoint's
/// own must be one of its options.
fn open(name: &str, parameters: &Parameters) -> Result<PositionalGame, Failure> {
    let entry = registry::entry(name)?;
    for (key, _) in parameters.iter() {
        if !["game", "position", "store"].contains(&key)
            && !entry.options.iter().any(|o| o.name == key)
        {
            return Err(Failure::bad_request(format!(
                "{name} has no option '{}'",
                printable(key)
            )));
        }
    }
    let mut options = GameOptions::default();
    for spec in entry.options {
        match (spec.value, parameters.get(spec.name)) {
            (_, None) => {}
            (None, Some(value)) => {
                if flag(spec.name, value)? {
                    options = options.with_flag(spec.name);
                }
            }
            (Some(_), Some(value)) => options = options.with(spec.name, value),
        }
    }
    // The explorer solves by exhaustive search, which reads Hex's graph:
    // listing its paths would only cost time.
    Ok(registry::open_positional(
        name,
        &options,
        ConnectionGoal::Graph,
    )?)
}

/// The board's columns and rows: its cells are named by column letter and
/// row number.
fn grid(game: &PositionalGame) -> Vec<(usize, usize)> {
    game.cells
        .iter()
        .map(|name| {
            let column = (name.as_bytes()[0] - b'a') as usize;
            let row: usize = name[1..].parse().unwrap_or(1);
            (row - 1, column)
        })
        .collect()
}

fn diagram(game: &PositionalGame, hexagonal: bool) -> Diagram {
    let cells = game
        .cells
        .iter()
        .zip(grid(game))
        .enumerate()
        .map(|(index, (name, (row, column)))| Cell {
            name: name.clone(),
            row,
            column,
            piece: if game.black_stones.contains(&index) {
                Some("X".into())
            } else if game.white_stones.contains(&index) {
                Some("O".into())
            } else {
                None
            },
        })
        .collect();
    Diagram::new(
        if hexagonal {
            Style::Hex
        } else {
            Style::Squares
        },
        cells,
    )
}

/// The rows of X, O and . separated by '/'.
fn position_text(game: &PositionalGame) -> String {
    let mut text = String::new();
    for (index, (row, _)) in grid(game).into_iter().enumerate() {
        if index > 0 && grid(game)[index - 1].0 != row {
            text.push('/');
        }
        text.push(if game.black_stones.contains(&index) {
            'X'
        } else if game.white_stones.contains(&index) {
            'O'
        } else {
            '.'
        });
    }
    text
}

/// Who wins with `first` to move and every empty cell to fill, or who has
/// won already.
fn value(game: &PositionalGame, first: Side) -> bitsolve::Result<Outcome> {
    let (black, white) = (
        bitsolve::games::positional::mask_of(&game.black_stones),
        bitsolve::games::positional::mask_of(&game.white_stones),
    );
    if game.black_has_won(black) {
        return Ok(Outcome::BlackWins);
    }
    if game.is_maker_maker() && game.white_has_won(white) {
        return Ok(Outcome::WhiteWins);
    }
    let empty = game.free_cells().len();
    if empty == 0 {
        return Ok(if game.is_maker_maker() {
            Outcome::Draw
        } else {
            Outcome::WhiteWins
        });
    }
    let turns = (0..empty)
        .map(|t| match (t % 2 == 0, first) {
            (true, side) => side,
            (false, Side::Black) => Side::White,
            (false, Side::White) => Side::Black,
        })
        .collect();
    Ok(solve(game, &Query { turns })?.outcome)
}

fn describe(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::BlackWins => "won for black",
        Outcome::WhiteWins => "won for white",
        Outcome::Draw => "drawn",
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

/// A position's answer: `{kind: "positional", position, to_move, value,
/// diagram, moves: [{move, position, value, outcome, sketch}]}`.
pub fn position(name: &str, parameters: &Parameters) -> Result<Json, Failure> {
    let empty_board = open(name, parameters)?;
    let text = parameters.required("position")?;
    let rows: String = text.chars().filter(|&c| c != '/').collect();
    let game = empty_board.with_position(&rows)?;
    let (black, white) = (game.black_stones.len(), game.white_stones.len());
    let to_move = match black.checked_sub(white) {
        Some(0) => Side::Black,
        Some(1) => Side::White,
        _ => {
            return Err(Failure::bad_request(format!(
                "black moves first: a position has as many black stones as white or one more, not {black} and {white}"
            )));
        }
    };
    let free = game.free_cells();
    if free.len() > MAX_EMPTY_CELLS {
        return Err(Failure::bad_request(format!(
            "this position has {} empty cells; the explorer solves positions with at most {MAX_EMPTY_CELLS} (place more stones)",
            free.len()
        )));
    }
    let hexagonal = name == "hex";
    let before = diagram(&game, hexagonal);
    let outcome = value(&game, to_move)?;
    let over = game.black_has_won(bitsolve::games::positional::mask_of(&game.black_stones))
        || (game.is_maker_maker()
            && game.white_has_won(bitsolve::games::positional::mask_of(&game.white_stones)));
    let mut moves = Vec::new();
    if !over {
        let next_side = match to_move {
            Side::Black => Side::White,
            Side::White => Side::Black,
        };
        for cell in free {
            let mut next = game.clone();
            // The empty board's symmetry breaking does not hold once a
            // stone is placed.
            next.first_moves = None;
            match to_move {
                Side::Black => next.black_stones.push(cell),
                Side::White => next.white_stones.push(cell),
            }
            let next_outcome = value(&next, next_side)?;
            let after = diagram(&next, hexagonal);
            let won = match to_move {
                Side::Black => Outcome::BlackWins,
                Side::White => Outcome::WhiteWins,
            };
            let sketched: MoveSketch = sketch(&before, &after);
            moves.push(json!({
                "move": game.cells[cell],
                "position": position_text(&next),
                "value": describe(next_outcome),
                "outcome": if next_outcome == won { "win" } else if next_outcome == Outcome::Draw { "draw" } else { "loss" },
                "distance": null,
                "sketch": sketched,
            }));
        }
    }
    let mover_wins = matches!(
        (outcome, to_move),
        (Outcome::BlackWins, Side::Black) | (Outcome::WhiteWins, Side::White)
    );
    Ok(json!({
        "kind": "positional",
        "position": position_text(&game),
        "sides": ["black", "white"],
        "to_move": side_name(to_move),
        "layer": black + white,
        "layer_name": format!("{} stones", black + white),
        "value": describe(outcome),
        "outcome": if mover_wins { "win" } else if outcome == Outcome::Draw { "draw" } else { "loss" },
        "distance": null,
        "diagram": before,
        "moves": moves,
    }))
}

/// The empty board of the game.
pub fn start(name: &str, parameters: &Parameters) -> Result<Json, Failure> {
    let game = open(name, parameters)?;
    Ok(json!({ "position": position_text(&game) }))
}
