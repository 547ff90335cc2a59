//! A position a game accepts is the position it answers for: for every
//! registered game, a position's text, once parsed, ranked and unranked
//! again, is the text it was given (as the game writes it), or the
//! position is refused in one line. A rank that drops part of a position
//! (a set no move touches, a parity, an orientation that never changes)
//! would otherwise answer for another position, silently.
//!
//! The inputs are positions of the space (a random rank unranked and
//! written out) and the same texts damaged in ways that keep their shape:
//! two symbols swapped, one symbol copied over another, so that most of
//! them still parse and the check has something to check.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use bitsolve::games::registry::{self, GameOptions, SpaceVisitor};
use bitsolve::games::{TwoPlayerGame, TwoPlayerVisitor};
use bitsolve::space::{LayeredGame, Picture, Space};

use crate::common::ScratchDir;
use crate::common::fuzzing::{fuzz_share, one_line};

type CaseResult = Result<(), TestCaseError>;

/// A shape-keeping edit of a position's text, at character positions taken
/// modulo its length.
#[derive(Clone, Copy, Debug)]
enum Edit {
    Swap(usize, usize),
    Copy { from: usize, to: usize },
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(from, to)| Edit::Copy { from, to }),
    ];
    proptest::collection::vec(edit, 0..=3)
}

fn edited(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return String::new();
    }
    let n = chars.len();
    for edit in edits {
        match *edit {
            Edit::Swap(a, b) => chars.swap(a % n, b % n),
            Edit::Copy { from, to } => chars[to % n] = chars[from % n],
        }
    }
    chars.into_iter().collect()
}

/// A position's text as the games read it: white space and commas
/// separate numbers alike, a run of them is one separator, none is needed
/// beside a `;`, `/` or `:`, a run of `;` is one, and a number's leading
/// zeros are not written. Every other character counts, row
/// separators included.
fn normalised(text: &str) -> String {
    let mut text = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(",");
    for mark in [";", "/", ":"] {
        text = text
            .replace(&format!(",{mark}"), mark)
            .replace(&format!("{mark},"), mark);
    }
    // A definition's sets are separated by `;`, and an empty one between
    // two is skipped.
    while text.contains(";;") {
        text = text.replace(";;", ";");
    }
    // A number is read as a number: `02` is `2`.
    let mut out = String::with_capacity(text.len());
    let mut digits = String::new();
    for c in text.chars().chain(std::iter::once('\0')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            let trimmed = digits.trim_start_matches('0');
            out.push_str(if trimmed.is_empty() { "0" } else { trimmed });
            digits.clear();
        }
        if c != '\0' {
            out.push(c);
        }
    }
    out
}

/// A definition's position may leave out a set's orientations when all
/// are 0.
fn definition_text(text: &str) -> String {
    normalised(text)
        .split(';')
        .map(|set| match set.rsplit_once('/') {
            Some((pieces, twists)) if twists.split(',').all(|t| t == "0") => pieces,
            _ => set,
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// Top-Spin reads its ring in any rotation: the ring from token 0.
fn ring_from_zero(text: &str) -> String {
    let text = normalised(text);
    let tokens: Vec<&str> = text.split(',').collect();
    match tokens.iter().position(|t| *t == "0") {
        Some(zero) => [&tokens[zero..], &tokens[..zero]].concat().join(","),
        None => text,
    }
}

/// Morris reads each colour's points as a set, in any order, and no
/// stones in hand as none written.
fn point_sets(text: &str) -> String {
    let text = normalised(text).replace(":hand=0,0", "");
    let (points, rest) = text.split_once(':').unwrap_or((&text, ""));
    let sets: Vec<String> = points
        .split('/')
        .map(|set| {
            let mut points: Vec<&str> = set.split(',').collect();
            points.sort_unstable();
            points.join(",")
        })
        .collect();
    format!("{}:{rest}", sets.join("/"))
}

/// Dodgem reads its cars in either case.
fn any_case(text: &str) -> String {
    normalised(text).to_uppercase()
}

/// How a game's texts compare: what the game documents as the same text.
type Normaliser = fn(&str) -> String;

// ------------------------------------------------------------ one player

/// Fuzzes one opened one-player game: `cases` positions, edited.
struct OnePlayerFuzz<'a> {
    group: &'a str,
    cases: u32,
    groups: usize,
    normalised: Normaliser,
}

impl SpaceVisitor for OnePlayerFuzz<'_> {
    type Output = ();

    fn visit<S: Space + Picture>(self, space: &S) -> bitsolve::Result<()> {
        // Every game opens and its first position round-trips: a test of
        // nothing would pass too.
        let normalised = self.normalised;
        one_player_round_trip(space, 0, &[], normalised)
            .unwrap_or_else(|e| panic!("{}: {e}", self.group));
        fuzz_share(
            self.group,
            self.cases,
            self.groups,
            (any::<u64>(), edits()),
            |(rank, edits)| one_player_round_trip(space, rank, &edits, normalised),
        );
        Ok(())
    }
}

fn one_player_round_trip<S: Space + Picture>(
    space: &S,
    rank: u64,
    edits: &[Edit],
    normalised: Normaliser,
) -> CaseResult {
    let mut state = space.new_state();
    space.unrank(rank % space.size(), &mut state);
    let written = space.position_text(&state);
    // The text the game writes reads back as the same rank, or is refused
    // (a rank no game reaches, which the parser knows to be no position).
    match space.parse_position(&written) {
        Ok(reread) => prop_assert_eq!(space.rank(&reread), space.rank(&state), "{:?}", written),
        Err(error) => return one_line(&error),
    }

    let text = edited(&written, edits);
    let parsed = match space.parse_position(&text) {
        Ok(parsed) => parsed,
        Err(error) => return one_line(&error),
    };
    let rank = space.rank(&parsed);
    prop_assert!(rank < space.size(), "{:?} ranks outside the space", text);
    let mut again = space.new_state();
    space.unrank(rank, &mut again);
    if space.symmetry_reduced() {
        // The rank names the orbit: the unranked position is one of its
        // images, which must name the same orbit.
        let image = space.parse_position(&space.position_text(&again));
        prop_assert_eq!(image.map(|s| space.rank(&s)).ok(), Some(rank), "{:?}", text);
    } else {
        let answered = space.position_text(&again);
        prop_assert_eq!(
            normalised(&answered),
            normalised(&text),
            "{:?} was accepted as another position, {:?}",
            text,
            answered
        );
    }
    Ok(())
}

/// Definition files written for this test: parts of a position that no
/// move changes, which a rank leaves out.
const DEFINITIONS: &[(&str, &str)] = &[
    // A set no move touches beside one that cycles.
    (
        "untouched-set.tws",
        "Set A 4 1\nSet B 2 1\nSolved\nA\n1 2 3 4\nB\n1 2\nEnd\nMove X\nA\n2 3 1 4\nEnd\n",
    ),
    // Alike pieces the moves only exchange within pairs.
    (
        "alike-pieces.tws",
        "Set K 4 1\nSolved\nK\n1 1 2 2\nEnd\nMove P\nK\n2 1 3 4\nEnd\nMove Q\nK\n1 2 4 3\nEnd\n",
    ),
    // Orientations one set's moves never change, beside a set they twist.
    (
        "fixed-twist.tws",
        "Set C 3 3\nSet E 2 2\nSolved\nC\n1 2 3\n0 0 0\nE\n1 2\n0 0\nEnd\n\
         Move R\nC\n2 3 1\n1 1 1\nE\n2 1\n0 0\nEnd\n",
    ),
];

#[test]
fn one_player_positions_round_trip_or_are_refused() {
    let dir = ScratchDir::new("round-trip", "definitions");
    let mut games: Vec<(String, GameOptions)> = vec![
        ("pancake".into(), GameOptions::default().with("n", 6)),
        (
            "pancake".into(),
            GameOptions::default().with("n", 4).with_flag("burned"),
        ),
        ("top-spin".into(), GameOptions::default().with("n", 7)),
        (
            "top-spin".into(),
            GameOptions::default().with("n", 6).with("k", 2),
        ),
        (
            "sliding-tile".into(),
            GameOptions::default().with("width", 3).with("height", 2),
        ),
        (
            "sliding-tile".into(),
            GameOptions::default().with("width", 3).with("height", 3),
        ),
        ("peg-solitaire".into(), GameOptions::default()),
        (
            "peg-solitaire".into(),
            GameOptions::default().with("board", "french"),
        ),
        ("frogs-toads".into(), GameOptions::default().with("k", 2)),
        ("frogs-toads".into(), GameOptions::default().with("k", 3)),
        ("pocket-cube".into(), GameOptions::default()),
    ];
    for file in std::fs::read_dir("data/ksolve").unwrap() {
        let path = file.unwrap().path();
        if path.extension().is_some_and(|e| e == "tws") {
            let options = GameOptions::default().with("file", path.to_str().unwrap());
            games.push(("ksolve".into(), options));
        }
    }
    for (name, text) in DEFINITIONS {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        games.push((
            "ksolve".into(),
            GameOptions::default().with("file", path.to_str().unwrap()),
        ));
    }
    for (name, options) in &games {
        let group = format!("{name} {options:?} positions round trip");
        let fuzz = OnePlayerFuzz {
            group: &group,
            cases: 300,
            groups: games.len(),
            normalised: match name.as_str() {
                "top-spin" => ring_from_zero,
                "ksolve" => definition_text,
                _ => normalised,
            },
        };
        registry::visit(name, options, fuzz).unwrap_or_else(|e| panic!("{group}: {e}"));
    }
}

// ------------------------------------------------------------ two players

/// Fuzzes one opened two-player game: `cases` positions of its layers,
/// edited.
struct TwoPlayerFuzz<'a> {
    group: &'a str,
    cases: u32,
    groups: usize,
    normalised: Normaliser,
}

impl TwoPlayerVisitor for TwoPlayerFuzz<'_> {
    type Output = ();

    fn visit<G: TwoPlayerGame>(self, game: &G) -> bitsolve::Result<()> {
        let normalised = self.normalised;
        two_player_round_trip(game, 0, 0, &[], normalised)
            .unwrap_or_else(|e| panic!("{}: {e}", self.group));
        fuzz_share(
            self.group,
            self.cases,
            self.groups,
            (any::<usize>(), any::<u64>(), edits()),
            |(layer, rank, edits)| two_player_round_trip(game, layer, rank, &edits, normalised),
        );
        Ok(())
    }
}

fn position_at<G: TwoPlayerGame>(game: &G, layer: usize, rank: u64) -> G::Position {
    let mut state = LayeredGame::new_state(game);
    LayeredGame::unrank(game, layer, rank, &mut state);
    game.position(&state)
}

fn two_player_round_trip<G: TwoPlayerGame>(
    game: &G,
    layer: usize,
    rank: u64,
    edits: &[Edit],
    normalised: Normaliser,
) -> CaseResult {
    let layer = layer % (game.max_layer() + 1);
    let size = game.layer_size(layer);
    if size == 0 {
        return Ok(());
    }
    let position = position_at(game, layer, rank % size);
    let written = game.position_text(&position);
    // Refused only where the rank is of no position the game reaches (a
    // side left with two stones, whose game had ended).
    match TwoPlayerGame::parse_position(game, &written) {
        Ok(reread) => prop_assert_eq!(
            game.locate(&reread),
            game.locate(&position),
            "{:?}",
            written
        ),
        Err(error) => return one_line(&error),
    }

    let text = edited(&written, edits);
    let parsed = match TwoPlayerGame::parse_position(game, &text) {
        Ok(parsed) => parsed,
        Err(error) => return one_line(&error),
    };
    let (layer, rank) = game.locate(&parsed);
    prop_assert!(layer <= game.max_layer(), "{:?} is in no layer", text);
    prop_assert!(
        rank < game.layer_size(layer),
        "{:?} ranks outside its layer",
        text
    );
    let again = position_at(game, layer, rank);
    if game.reduced_by_symmetry() {
        prop_assert_eq!(game.locate(&again), (layer, rank), "{:?}", text);
    } else {
        let answered = game.position_text(&again);
        prop_assert_eq!(
            normalised(&answered),
            normalised(&text),
            "{:?} was accepted as another position, {:?}",
            text,
            answered
        );
    }
    Ok(())
}

#[test]
fn two_player_positions_round_trip_or_are_refused() {
    let games: Vec<(&str, GameOptions)> = vec![
        ("fox-geese", GameOptions::default()),
        ("fox-geese", GameOptions::default().with_flag("symmetry")),
        (
            "fox-geese",
            GameOptions::default().with_flag("geese-forward"),
        ),
        ("dodgem", GameOptions::default().with("n", 3)),
        ("dodgem", GameOptions::default().with("n", 4)),
        ("nine-mens-morris", GameOptions::default()),
        (
            "nine-mens-morris",
            GameOptions::default().with_flag("symmetry"),
        ),
        (
            "nine-mens-morris",
            GameOptions::default().with("variant", "lasker"),
        ),
        (
            "nine-mens-morris",
            GameOptions::default().with("variant", "morabaraba"),
        ),
        ("nine-mens-morris", GameOptions::default().with("men", 4)),
    ];
    for (name, options) in &games {
        let group = format!("{name} {options:?} positions round trip");
        let fuzz = TwoPlayerFuzz {
            group: &group,
            cases: 400,
            groups: games.len(),
            normalised: match *name {
                "dodgem" => any_case,
                "nine-mens-morris" => point_sets,
                _ => normalised,
            },
        };
        registry::visit_two_player(name, options, fuzz).unwrap_or_else(|e| panic!("{group}: {e}"));
    }
}
