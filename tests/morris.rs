//! Nine Men's Morris (and Morabaraba) through the generic two-bit
//! retrograde solver, against an independent solver written here from
//! the printed board: its own numbering of the points, its own mills and
//! moves, values by plain fixpoint iteration over every position of the
//! smallest stone counts (3–3, both sides flying; 4–3 and 3–4, one side
//! sliding), and for the whole game with three stones a side (its opening
//! by a memoized search from the empty board into the 3–3 values), then
//! the symmetric store against the full one, and the commands; Lasker
//! Morris's opening (place or move) with three stones a side against the
//! model's fixpoint over every one of its positions.

use crate::common::{self, bitsolve_with_input, words, words_and};

use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::sync::atomic::{AtomicU8, AtomicU16, Ordering};

use bitsolve::backend::CpuBackend;
use bitsolve::games::TwoPlayerGame;
use bitsolve::games::morris::rules::Stones;
use bitsolve::games::morris::{Morris, Variant};
use bitsolve::search::Silent;
use bitsolve::search::retro2::{RetroOptions, open_layer, solve_layers};
use bitsolve::space::{LayeredGame, Value};
use bitsolve::table::{Backing, TwoBitTable};
use rayon::prelude::*;

/// The points in alphabetical order: the model's numbering.
const NAMES: [&str; 24] = [
    "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3", "d5", "d6", "d7", "e3",
    "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7",
];

/// The lines of three as the rule books print them.
const LINES: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a7", "a4", "a1"],
    ["b6", "b4", "b2"],
    ["c5", "c4", "c3"],
    ["d7", "d6", "d5"],
    ["d3", "d2", "d1"],
    ["e5", "e4", "e3"],
    ["f6", "f4", "f2"],
    ["g7", "g4", "g1"],
];

const UNKNOWN: u8 = 0;
const WHITE_WINS: u8 = 1;
const BLACK_WINS: u8 = 2;

fn point(name: &str) -> usize {
    NAMES.iter().position(|n| *n == name).unwrap()
}

/// The model: masks over its own numbering, positions of one pair of
/// counts in a dense array indexed by the two patterns' places in the
/// list of patterns of their size.
struct Model {
    mills: Vec<u32>,
    adjacent: [u32; 24],
    /// `patterns[k]`: the masks with k bits, increasing.
    patterns: Vec<Vec<u32>>,
    /// `place[mask]`: its index in `patterns[popcount]`.
    place: Vec<u32>,
}

impl Model {
    fn new() -> Model {
        let mills: Vec<u32> = LINES
            .iter()
            .map(|line| line.iter().fold(0, |m, n| m | 1 << point(n)))
            .collect();
        let mut adjacent = [0u32; 24];
        for line in LINES {
            for pair in line.windows(2) {
                let (a, b) = (point(pair[0]), point(pair[1]));
                adjacent[a] |= 1 << b;
                adjacent[b] |= 1 << a;
            }
        }
        let mut patterns = vec![Vec::new(); 25];
        let mut place = vec![0u32; 1 << 24];
        for mask in 0u32..1 << 24 {
            let k = mask.count_ones() as usize;
            if k <= 5 {
                place[mask as usize] = patterns[k].len() as u32;
                patterns[k].push(mask);
            }
        }
        Model {
            mills,
            adjacent,
            patterns,
            place,
        }
    }

    fn in_mill(&self, stones: u32, at: usize) -> bool {
        self.mills
            .iter()
            .any(|&m| m >> at & 1 == 1 && stones & m == m)
    }

    /// The stones of `theirs` a mill may take: those in no mill, else any.
    fn takeable(&self, theirs: u32) -> u32 {
        let outside: u32 = (0..24)
            .filter(|&p| theirs >> p & 1 == 1 && !self.in_mill(theirs, p))
            .fold(0, |m, p| m | 1 << p);
        if outside == 0 { theirs } else { outside }
    }

    /// The opponent's stones after the mover's stones become `moved` by a
    /// stone arriving on `to`: each choice of one `takeable` stone taken
    /// when that closes a mill, else all of `theirs` kept.
    fn after_arrival(
        &self,
        moved: u32,
        to: usize,
        theirs: u32,
        takeable: u32,
    ) -> impl Iterator<Item = u32> {
        let closes = self.in_mill(moved, to) && theirs != 0;
        (0..24)
            .filter(move |&p| closes && takeable >> p & 1 == 1)
            .map(move |p| theirs & !(1 << p))
            .chain((!closes).then_some(theirs))
    }
}

/// The values of the positions with `white` and `black` stones.
struct Pair {
    white: usize,
    black: usize,
    values: Vec<AtomicU8>,
}

impl Pair {
    fn index(&self, model: &Model, white: u32, black: u32, white_to_move: bool) -> usize {
        let per_white = model.patterns[self.black].len();
        (model.place[white as usize] as usize * per_white + model.place[black as usize] as usize)
            * 2
            + usize::from(!white_to_move)
    }
}

/// Solves the pairs in order (each may read those before it) by plain
/// fixpoint iteration: a position is won for the mover if a move reaches
/// a position won for the mover, lost if every move reaches one won for
/// the opponent (or there is none); what stays undecided is drawn.
fn solve(model: &Model, counts: &[(usize, usize)]) -> Vec<Pair> {
    let mut solved: Vec<Pair> = Vec::new();
    for &(white, black) in counts {
        let len = model.patterns[white].len() * model.patterns[black].len() * 2;
        let pair = Pair {
            white,
            black,
            values: (0..len).map(|_| AtomicU8::new(UNKNOWN)).collect(),
        };
        let value_of = |w: u32, b: u32, white_to_move: bool| -> u8 {
            let (cw, cb) = (w.count_ones() as usize, b.count_ones() as usize);
            if cw < 3 {
                return BLACK_WINS;
            }
            if cb < 3 {
                return WHITE_WINS;
            }
            let table = if (cw, cb) == (white, black) {
                &pair
            } else {
                solved
                    .iter()
                    .find(|p| (p.white, p.black) == (cw, cb))
                    .unwrap()
            };
            table.values[table.index(model, w, b, white_to_move)].load(Ordering::Relaxed)
        };
        loop {
            let changed: usize = (0..len / 2)
                .into_par_iter()
                .map(|cell| {
                    let per_white = model.patterns[black].len();
                    let w = model.patterns[white][cell / per_white];
                    let b = model.patterns[black][cell % per_white];
                    if w & b != 0 {
                        return 0;
                    }
                    let mut changed = 0;
                    for white_to_move in [true, false] {
                        let index = pair.index(model, w, b, white_to_move);
                        if pair.values[index].load(Ordering::Relaxed) != UNKNOWN {
                            continue;
                        }
                        let (mine, theirs) = if white_to_move { (w, b) } else { (b, w) };
                        let (win, loss) = if white_to_move {
                            (WHITE_WINS, BLACK_WINS)
                        } else {
                            (BLACK_WINS, WHITE_WINS)
                        };
                        let empty = !(w | b) & 0xff_ffff;
                        let takeable = model.takeable(theirs);
                        let mut all_lost = true;
                        let mut won = false;
                        'moves: for from in (0..24).filter(|&p| mine >> p & 1 == 1) {
                            let targets = if mine.count_ones() == 3 {
                                empty
                            } else {
                                model.adjacent[from] & empty
                            };
                            for to in (0..24).filter(|&p| targets >> p & 1 == 1) {
                                let moved = mine & !(1 << from) | 1 << to;
                                for after in model.after_arrival(moved, to, theirs, takeable) {
                                    let next = if white_to_move {
                                        value_of(moved, after, false)
                                    } else {
                                        value_of(after, moved, true)
                                    };
                                    if next == win {
                                        won = true;
                                        break 'moves;
                                    }
                                    all_lost &= next == loss;
                                }
                            }
                        }
                        let value = if won {
                            win
                        } else if all_lost {
                            loss
                        } else {
                            continue;
                        };
                        pair.values[index].store(value, Ordering::Relaxed);
                        changed += 1;
                    }
                    changed
                })
                .sum();
            if changed == 0 {
                break;
            }
        }
        solved.push(pair);
    }
    solved
}

/// The model, built once for every test here.
static MODEL: LazyLock<Model> = LazyLock::new(Model::new);

/// The model's 3–3 values, which three tests read (the fixpoint takes
/// minutes in the test build): solved once.
static THREE_THREE: LazyLock<Pair> =
    LazyLock::new(|| solve(&MODEL, &[(3, 3)]).pop().expect("one pair"));

fn scratch(name: &str) -> PathBuf {
    common::scratch("morris", name)
}

/// Solves layers 0..=top into a store and opens them for reading.
fn solved_layers(game: &Morris, top: usize, dir: &Path) -> Vec<TwoBitTable> {
    let options = RetroOptions {
        backing: Backing::Directory(dir.to_path_buf()),
        ..Default::default()
    };
    solve_layers(&CpuBackend, game, top, &options).unwrap();
    (0..=top)
        .map(|layer| {
            open_layer(game, layer, &Backing::ReadOnly(dir.to_path_buf()), &Silent)
                .unwrap()
                .0
        })
        .collect()
}

/// The library's stones for the model's masks.
fn library_stones(white: u32, black: u32, white_to_move: bool) -> Stones {
    library_position(white, black, white_to_move, [0, 0])
}

/// The library's point for each of the model's, by name (looked up once:
/// by name per position, the comparisons took longer than the solving).
static LIBRARY_POINTS: LazyLock<[usize; 24]> = LazyLock::new(|| {
    NAMES.map(|name| bitsolve::games::morris::board::Board::point_named(name).unwrap())
});

fn library_position(white: u32, black: u32, white_to_move: bool, in_hand: [u8; 2]) -> Stones {
    let points = &*LIBRARY_POINTS;
    let map = |mask: u32| {
        (0..24)
            .filter(|&p| mask >> p & 1 == 1)
            .fold(0u32, |m, p| m | 1 << points[p])
    };
    Stones {
        white: map(white),
        black: map(black),
        white_to_move,
        in_hand,
    }
}

/// The model's 3–3 values against every layer up to 3–3 solved by the
/// library, with symmetry or without, position by position.
fn assert_model_agrees(symmetry: bool) {
    let model = &*MODEL;
    let pairs = std::slice::from_ref(&*THREE_THREE);
    let top = 6;
    let game = Morris::new(Variant::NineMensMorris, symmetry).unwrap();
    let dir = scratch(&format!("model-{top}-{symmetry}"));
    let tables = solved_layers(&game, top, &dir);
    for pair in pairs {
        let mut tally = [0u64; 4];
        let per_white = model.patterns[pair.black].len();
        for cell in 0..pair.values.len() / 2 {
            let w = model.patterns[pair.white][cell / per_white];
            let b = model.patterns[pair.black][cell % per_white];
            if w & b != 0 {
                continue;
            }
            for white_to_move in [true, false] {
                let expected = match pair.values[pair.index(model, w, b, white_to_move)]
                    .load(Ordering::Relaxed)
                {
                    WHITE_WINS => Value::FirstWins,
                    BLACK_WINS => Value::SecondWins,
                    _ => Value::Draw,
                };
                let stones = library_stones(w, b, white_to_move);
                let (layer, rank) = game.locate(&stones);
                let got = Value::from_bits(tables[layer].get(rank));
                assert_eq!(
                    got,
                    expected,
                    "symmetry {symmetry}: {}",
                    game.position_text(&stones)
                );
                tally[expected as usize] += 1;
            }
        }
        println!(
            "{}-{}: white wins {}, black wins {}, drawn {}",
            pair.white, pair.black, tally[1], tally[2], tally[3]
        );
        // Every kind of value occurs.
        assert!(tally[1..].iter().all(|&n| n > 0), "{tally:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With symmetry; the symmetric store equals the full one position by
/// position in the tests further down, and the full one against the
/// model is the ignored test below.
#[test]
fn three_three_equals_an_independent_fixpoint_solver() {
    assert_model_agrees(true);
}

#[test]
#[ignore = "the same without symmetry: about a minute more on 2 cores"]
fn three_three_without_symmetry_equals_an_independent_fixpoint_solver() {
    assert_model_agrees(false);
}

/// An opening position of the model: masks, stones in hand (white's,
/// black's), who places.
type Opening = (u32, u32, [u8; 2], bool);

/// A value and the distance to the end under optimal play (the winner
/// hurries, the loser delays; none for a draw).
type Solution = (u8, Option<u16>);

/// The model's value and distance of an opening position with three
/// stones a side, by memoized search: a stone in hand goes on any empty
/// point; a mill it closes takes a stone as in the moving phase (nothing
/// when the opponent has none on the board); a side with fewer than three
/// stones on the board and in hand has lost; with both hands empty
/// `moving` answers (the 3–3 fixpoint's value, the library's distance).
fn opening_solution(
    model: &Model,
    moving: &dyn Fn(u32, u32) -> Solution,
    position: Opening,
    memo: &mut std::collections::HashMap<Opening, Solution>,
) -> Solution {
    let (w, b, hand, white_to_move) = position;
    if w.count_ones() + u32::from(hand[0]) < 3 {
        return (BLACK_WINS, Some(0));
    }
    if b.count_ones() + u32::from(hand[1]) < 3 {
        return (WHITE_WINS, Some(0));
    }
    if hand == [0, 0] {
        return moving(w, b);
    }
    if let Some(&known) = memo.get(&position) {
        return known;
    }
    let (mine, theirs) = if white_to_move { (w, b) } else { (b, w) };
    let (win, loss) = if white_to_move {
        (WHITE_WINS, BLACK_WINS)
    } else {
        (BLACK_WINS, WHITE_WINS)
    };
    let takeable = model.takeable(theirs);
    let mut next_hand = hand;
    next_hand[usize::from(!white_to_move)] -= 1;
    let mut children = Vec::new();
    let empty = !(w | b) & 0xff_ffff;
    for to in (0..24).filter(|&p| empty >> p & 1 == 1) {
        let placed = mine | 1 << to;
        for after in model.after_arrival(placed, to, theirs, takeable) {
            let next = if white_to_move {
                (placed, after, next_hand, false)
            } else {
                (after, placed, next_hand, true)
            };
            children.push(opening_solution(model, moving, next, memo));
        }
    }
    let solution = if children.iter().any(|c| c.0 == win) {
        let nearest = children
            .iter()
            .filter(|c| c.0 == win)
            .filter_map(|c| c.1)
            .min();
        (win, nearest.map(|d| d + 1))
    } else if children.iter().all(|c| c.0 == loss) {
        let farthest = children.iter().map(|c| c.1).collect::<Option<Vec<u16>>>();
        (loss, farthest.map(|d| d.into_iter().max().unwrap() + 1))
    } else {
        (3, None)
    };
    memo.insert(position, solution);
    solution
}

/// With symmetry; without it in the ignored test below (the symmetric
/// store equals the full one over this whole game further down).
#[test]
fn the_whole_game_with_three_stones_a_side_equals_an_independent_solver() {
    assert_whole_game_with_three_stones_equals_the_model(true);
}

#[test]
#[ignore = "the same without symmetry: about two minutes more on 2 cores"]
fn the_whole_game_with_three_stones_a_side_without_symmetry_equals_an_independent_solver() {
    assert_whole_game_with_three_stones_equals_the_model(false);
}

fn assert_whole_game_with_three_stones_equals_the_model(symmetry: bool) {
    use bitsolve::search::retro2::distances::NO_DISTANCE;
    let model = &*MODEL;
    let pair = &*THREE_THREE;
    let game = Morris::with_men(Variant::NineMensMorris, 3, symmetry).unwrap();
    let dir = solved_by_the_command_line(
        &format!("opening-3-{symmetry}"),
        "retro nine-mens-morris --men 3 --layers 1..12 --distances --store",
        symmetry,
        &[],
    );
    let tables = stored_tables(&game, &dir);
    let distances = stored_distances(&game, &dir);
    // The moving phase's values from the model, its distances from
    // the library: what is checked here is the opening.
    let moving = |w: u32, b: u32| -> Solution {
        let value = pair.values[pair.index(model, w, b, true)].load(Ordering::Relaxed);
        let (layer, rank) = game.locate(&library_stones(w, b, true));
        let d = distances[layer][rank as usize];
        match value {
            UNKNOWN => (3, None),
            _ => (value, (d != NO_DISTANCE).then_some(d)),
        }
    };
    let mut memo = std::collections::HashMap::new();
    let start = opening_solution(model, &moving, (0, 0, [3, 3], true), &mut memo);
    let mut tally = [0u64; 4];
    for (&(w, b, hand, white_to_move), &(value, distance)) in &memo {
        let stones = library_position(w, b, white_to_move, hand);
        let (layer, rank) = game.locate(&stones);
        // Written out only for a failure's message.
        let text = || game.position_text(&stones);
        assert_eq!(
            tables[layer].get(rank),
            value,
            "symmetry {symmetry}: {}",
            text()
        );
        let got = distances[layer][rank as usize];
        assert_eq!(
            (got != NO_DISTANCE).then_some(got),
            distance,
            "symmetry {symmetry}: distance of {}",
            text()
        );
        tally[value as usize] += 1;
    }
    let (layer, rank) = game.locate(&game.start_position(None).unwrap());
    assert_eq!(tables[layer].get(rank), start.0);
    println!(
        "opening positions reached from the start: white wins {}, black wins {}, drawn {}; the start: {start:?}",
        tally[1], tally[2], tally[3]
    );
    assert!(tally[1..].iter().all(|&n| n > 0), "{tally:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every stored position of the symmetric store against the full store,
/// and the layers' counts (the symmetric ones weighed by orbit).
fn assert_symmetric_equals_full(variant: Variant, men: usize, top: usize) {
    let full = Morris::with_men(variant, men, false).unwrap();
    let folded = Morris::with_men(variant, men, true).unwrap();
    let (full_dir, folded_dir) = (
        scratch(&format!("full-{}-{men}", variant.name())),
        scratch(&format!("folded-{}-{men}", variant.name())),
    );
    let options = |dir: &Path| RetroOptions {
        backing: Backing::Directory(dir.to_path_buf()),
        ..Default::default()
    };
    let full_reports = solve_layers(&CpuBackend, &full, top, &options(&full_dir)).unwrap();
    let folded_reports = solve_layers(&CpuBackend, &folded, top, &options(&folded_dir)).unwrap();
    for (a, b) in full_reports.iter().zip(&folded_reports) {
        assert_eq!(
            (a.states, a.first_wins, a.second_wins, a.draws),
            (b.states, b.first_wins, b.second_wins, b.draws),
            "layer {}",
            a.layer
        );
    }
    let mut state = folded.new_state();
    for layer in 5..=top {
        let read = |game: &Morris, dir: &Path| {
            open_layer(game, layer, &Backing::ReadOnly(dir.to_path_buf()), &Silent)
                .unwrap()
                .0
        };
        let (full_table, folded_table) = (read(&full, &full_dir), read(&folded, &folded_dir));
        for rank in 0..folded.layer_size(layer) {
            folded.unrank(layer, rank, &mut state);
            let (_, full_rank) = full.locate(&folded.position(&state));
            assert_eq!(
                folded_table.get(rank),
                full_table.get(full_rank),
                "layer {layer}: {}",
                folded.position_text(&folded.position(&state))
            );
        }
    }
    std::fs::remove_dir_all(&full_dir).unwrap();
    std::fs::remove_dir_all(&folded_dir).unwrap();
}

#[test]
fn only_blocks_of_patterns_a_symmetry_keeps_have_twins() {
    for variant in [Variant::NineMensMorris, Variant::Morabaraba] {
        let game = Morris::new(variant, true).unwrap();
        common::assert_blocks_say_which_have_twins(&game, 4..=7);
    }
}

#[test]
fn the_symmetric_store_equals_the_full_one_to_seven_stones() {
    assert_symmetric_equals_full(Variant::NineMensMorris, 9, 7);
}

#[test]
fn the_symmetric_store_equals_the_full_one_over_the_whole_game_with_three_stones() {
    let game = Morris::with_men(Variant::NineMensMorris, 3, false).unwrap();
    assert_symmetric_equals_full(Variant::NineMensMorris, 3, game.max_layer());
}

#[test]
fn morabaraba_symmetric_store_equals_the_full_one_over_the_whole_game_with_three_stones() {
    // Layers to 6 (3-3), then the opening's six.
    let game = Morris::with_men(Variant::Morabaraba, 3, false).unwrap();
    assert_eq!(game.max_layer(), 12);
    assert_symmetric_equals_full(Variant::Morabaraba, 3, 12);
}

#[test]
#[ignore = "the same with four stones a side: about two minutes on 2 cores"]
fn morabaraba_symmetric_store_equals_the_full_one_over_the_whole_game_with_four_stones() {
    // Layers to 8 (4-4), then the opening's eight.
    let game = Morris::with_men(Variant::Morabaraba, 4, false).unwrap();
    assert_eq!(game.max_layer(), 16);
    assert_symmetric_equals_full(Variant::Morabaraba, 4, 16);
}

#[test]
#[ignore = "Morabaraba's symmetric store against the full one over its whole three-stone game runs in CI; to seven stones, about 80 s more on 2 cores"]
fn morabaraba_symmetric_store_equals_the_full_one_to_seven_stones() {
    assert_symmetric_equals_full(Variant::Morabaraba, 12, 7);
}

#[test]
#[ignore = "the full layer 8 (4-4) is 350 M positions: about 2 minutes on 2 cores"]
fn the_symmetric_store_equals_the_full_one_to_four_four() {
    assert_symmetric_equals_full(Variant::NineMensMorris, 9, 8);
}

#[test]
fn retro_query_and_play_run_morris_through_the_generic_commands() {
    let dir = scratch("cli");
    let store = dir.to_str().unwrap();
    let (ok, stdout, stderr) = bitsolve_with_input(
        &words_and(
            "retro nine-mens-morris --symmetry --layers 1..7 --store",
            &[store, "--json"],
        ),
        "",
    );
    assert!(ok, "{stderr}");
    let solved: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // `command` on the symmetric game over the store, then `rest`.
    let run = |command: &str, rest: &[&str]| {
        run_on_store(command, &["nine-mens-morris", "--symmetry"], store, rest)
    };
    assert_eq!(solved["sides"], serde_json::json!(["white", "black"]));
    let three_three = solved["layers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["layer"] == 6)
        .unwrap();
    assert_eq!(three_three["states"], 13_459_600);

    // A game of hours without --layers is the user's call: one line
    // naming the layers.
    let (ok, _, stderr) = bitsolve_with_input(&["retro", "nine-mens-morris", "--men", "5"], "");
    assert!(!ok);
    assert_eq!(
        stderr.trim(),
        "bitsolve: error: invalid parameter: give --layers A..B: layers 1..20 run from 1 stone to opening, 10 in hand"
    );

    // White to move closes a mill by flying to g7: a win.
    let position = "a7,d7,b4/g1,g4,d2:white";
    let answer: serde_json::Value =
        serde_json::from_str(&run("query", &["--position", position, "--json"])).unwrap();
    assert_eq!(answer["value"], "won for white", "{answer}");
    let winning: Vec<&str> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["value"] == "won for white")
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert!(winning.iter().any(|m| m.starts_with("b4-g7x")), "{answer}");

    // The perfect player as white opens with a winning move (without
    // distances, any of them; play reads black's replies from stdin).
    let stdout = run("play", &["--position", position, "--side", "black"]);
    let played = stdout
        .split("bitsolve plays ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(winning.contains(&played), "{played}: {stdout}");

    // Bad input: one line, non-zero exit.
    let query = |rest: &[&'static str]| {
        [&words_and("query nine-mens-morris --store", &[store]), rest].concat()
    };
    for args in [
        words("retro nine-mens-morris --variant twelve --layers 1..6"),
        query(&["--position", "a1/b2"]),
        words_and("play nine-mens-morris --store", &[store]),
        words("query nine-mens-morris --variant lasker --start"),
        query(&["--start", "--to-move", "black"]),
        words("retro nine-mens-morris --men 10 --layers 1..6"),
        query(&["--position", "a1/:white:hand=8,9"]),
    ] {
        let (ok, _, stderr) = bitsolve_with_input(&args, "");
        assert!(!ok, "{args:?}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A new store `name` solved by the `retro` command `line` (which ends in
/// `--store`), with `--symmetry` if `symmetry` and then `more`.
fn solved_by_the_command_line(name: &str, line: &str, symmetry: bool, more: &[&str]) -> PathBuf {
    let dir = scratch(name);
    let mut args = words_and(line, &[dir.to_str().unwrap()]);
    if symmetry {
        args.push("--symmetry");
    }
    args.extend(more);
    let (ok, _, stderr) = bitsolve_with_input(&args, "");
    assert!(ok, "{stderr}");
    dir
}

/// Every layer's table of values in the store `dir`, read only.
fn stored_tables(game: &Morris, dir: &Path) -> Vec<TwoBitTable> {
    (0..=game.max_layer())
        .map(|layer| {
            open_layer(game, layer, &Backing::ReadOnly(dir.to_path_buf()), &Silent)
                .unwrap()
                .0
        })
        .collect()
}

/// Every layer's distances in the store `dir`, by rank.
fn stored_distances(game: &Morris, dir: &Path) -> Vec<Vec<u16>> {
    (0..=game.max_layer())
        .map(|layer| {
            bitsolve::search::retro2::distances::read_distances(game, layer, dir)
                .unwrap()
                .unwrap()
                .iter()
                .collect()
        })
        .collect()
}

/// Runs `command` on `game` (its name and options) over the store
/// `store`, then `rest`; asserts that it succeeds and returns its output.
fn run_on_store(command: &str, game: &[&str], store: &str, rest: &[&str]) -> String {
    let args: Vec<&str> = [command]
        .into_iter()
        .chain(game.iter().copied())
        .chain(["--store", store])
        .chain(rest.iter().copied())
        .collect();
    let (ok, stdout, stderr) = bitsolve_with_input(&args, "");
    assert!(ok, "{args:?}: {stderr}");
    stdout
}

#[test]
fn the_opening_is_solved_queried_and_played_from_the_empty_board() {
    let dir = scratch("cli-opening");
    let store = dir.to_str().unwrap();
    let game = ["nine-mens-morris", "--men", "3", "--symmetry"];
    let run = |command: &str, rest: &[&str]| run_on_store(command, &game, store, rest);
    let solved: serde_json::Value =
        serde_json::from_str(&run("retro", &["--layers", "1..12", "--json"])).unwrap();
    let layers = solved["layers"].as_array().unwrap();
    // The moving phase (to 3-3), then one sweep per count in hand, the
    // start (six in hand) on top with its single position.
    assert_eq!(layers.len(), 12);
    assert!(layers[6..].iter().all(|l| l["passes"] == 1), "{solved}");
    assert_eq!(layers[11]["states"], 1);
    let answer: serde_json::Value =
        serde_json::from_str(&run("query", &["--start", "--json"])).unwrap();
    assert_eq!(answer["position"], "/:white:hand=3,3", "{answer}");
    // (The independent solver's answer, in the test above.)
    assert_eq!(answer["value"], "won for white", "{answer}");
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 24);
    assert!(moves.iter().all(|m| m["move"].as_str().unwrap().len() == 2));
    // The perfect player as white opens with a placement that wins.
    let played = run("play", &["--side", "black"]);
    let first = played
        .split("bitsolve plays ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("{played}"));
    assert!(
        moves
            .iter()
            .any(|m| m["move"] == first && m["value"] == "won for white"),
        "{first}: {played}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A position of Lasker Morris's opening in the model: masks of up to
/// three stones a side, hands, who moves.
#[derive(Clone, Copy)]
struct LaskerCell {
    white: u32,
    black: u32,
    hands: [usize; 2],
    white_to_move: bool,
}

/// The model's positions of Lasker Morris's opening with three stones a
/// side: for each pair of hands (not both empty), every pair of masks of
/// up to the stones not in hand, both sides to move, in one dense array.
struct LaskerModel {
    /// `offset[k]`: masks of fewer than k bits, ordered by bits then place.
    offset: [usize; 5],
    /// `starts[hw][hb]`: where that pair of hands' cells begin.
    starts: [[usize; 4]; 4],
    len: usize,
}

impl LaskerModel {
    fn new(model: &Model) -> LaskerModel {
        let mut offset = [0; 5];
        for k in 0..4 {
            offset[k + 1] = offset[k] + model.patterns[k].len();
        }
        let mut starts = [[0; 4]; 4];
        let mut len = 0;
        for (hw, row) in starts.iter_mut().enumerate() {
            for (hb, start) in row.iter_mut().enumerate() {
                *start = len;
                if (hw, hb) != (0, 0) {
                    len += offset[4 - hw] * offset[4 - hb] * 2;
                }
            }
        }
        LaskerModel {
            offset,
            starts,
            len,
        }
    }

    fn index(&self, model: &Model, cell: &LaskerCell) -> usize {
        let [hw, hb] = cell.hands;
        let place = |mask: u32| {
            self.offset[mask.count_ones() as usize] + model.place[mask as usize] as usize
        };
        self.starts[hw][hb]
            + (place(cell.white) * self.offset[4 - hb] + place(cell.black)) * 2
            + usize::from(!cell.white_to_move)
    }

    /// Every cell, valid or not (masks may overlap).
    fn cells<'m>(&'m self, model: &'m Model) -> impl Iterator<Item = LaskerCell> + 'm {
        let masks =
            move |most: usize| (0..=most).flat_map(move |k| model.patterns[k].iter().copied());
        (0..4usize)
            .flat_map(move |hw| (0..4usize).map(move |hb| [hw, hb]))
            .filter(|&hands| hands != [0, 0])
            .flat_map(move |hands| {
                masks(3 - hands[0]).flat_map(move |white| {
                    masks(3 - hands[1]).flat_map(move |black| {
                        [true, false].map(|white_to_move| LaskerCell {
                            white,
                            black,
                            hands,
                            white_to_move,
                        })
                    })
                })
            })
    }
}

/// The model's rule for Lasker Morris: a side with fewer than three
/// stones, on the board and in hand, has lost.
fn lasker_rule(c: &LaskerCell) -> Option<u8> {
    if c.white.count_ones() as usize + c.hands[0] < 3 {
        Some(BLACK_WINS)
    } else if c.black.count_ones() as usize + c.hands[1] < 3 {
        Some(WHITE_WINS)
    } else {
        None
    }
}

/// The model's moves in Lasker Morris's opening: a mover with stones in
/// hand places one on any empty point or moves a stone on the board along
/// a line; a stone flies only with three on the board and none in hand; a
/// mill takes as in the moving phase (nothing when the opponent has no
/// stone on the board). Every position reached, once per way.
fn lasker_children(model: &Model, c: &LaskerCell) -> Vec<LaskerCell> {
    let me = usize::from(!c.white_to_move);
    let (mine, theirs) = if c.white_to_move {
        (c.white, c.black)
    } else {
        (c.black, c.white)
    };
    let empty = !(c.white | c.black) & 0xff_ffff;
    let takeable = model.takeable(theirs);
    // (the mover's stones after, the point arrived at, the hands after)
    let mut arrivals: Vec<(u32, usize, [usize; 2])> = Vec::new();
    if c.hands[me] > 0 {
        let mut hands = c.hands;
        hands[me] -= 1;
        arrivals.extend(
            (0..24)
                .filter(|&p| empty >> p & 1 == 1)
                .map(|to| (mine | 1 << to, to, hands)),
        );
    }
    let flies = mine.count_ones() == 3 && c.hands[me] == 0;
    for from in (0..24).filter(|&p| mine >> p & 1 == 1) {
        let targets = if flies {
            empty
        } else {
            model.adjacent[from] & empty
        };
        arrivals.extend(
            (0..24)
                .filter(|&p| targets >> p & 1 == 1)
                .map(|to| (mine & !(1 << from) | 1 << to, to, c.hands)),
        );
    }
    let mut children = Vec::new();
    for (after_mine, to, hands) in arrivals {
        for left in model.after_arrival(after_mine, to, theirs, takeable) {
            let (white, black) = if c.white_to_move {
                (after_mine, left)
            } else {
                (left, after_mine)
            };
            children.push(LaskerCell {
                white,
                black,
                hands,
                white_to_move: !c.white_to_move,
            });
        }
    }
    children
}

/// The model's values of Lasker Morris's opening with three stones a side
/// by plain fixpoint iteration over every position at once
/// ([`lasker_rule`], [`lasker_children`]); with both hands empty the 3–3
/// fixpoint `moving` answers.
fn solve_lasker_opening(model: &Model, moving: &Pair) -> (LaskerModel, Vec<AtomicU8>) {
    let lasker = LaskerModel::new(model);
    let values: Vec<AtomicU8> = (0..lasker.len).map(|_| AtomicU8::new(UNKNOWN)).collect();
    let cells: Vec<LaskerCell> = lasker
        .cells(model)
        .filter(|c| c.white & c.black == 0)
        .collect();
    let value_of = |c: &LaskerCell| -> u8 {
        if let Some(value) = lasker_rule(c) {
            return value;
        }
        if c.hands == [0, 0] {
            return moving.values[moving.index(model, c.white, c.black, c.white_to_move)]
                .load(Ordering::Relaxed);
        }
        values[lasker.index(model, c)].load(Ordering::Relaxed)
    };
    loop {
        let changed: usize = cells
            .par_iter()
            .filter(|c| values[lasker.index(model, c)].load(Ordering::Relaxed) == UNKNOWN)
            .map(|c| {
                let value = match lasker_rule(c) {
                    Some(value) => value,
                    None => {
                        let (win, loss) = if c.white_to_move {
                            (WHITE_WINS, BLACK_WINS)
                        } else {
                            (BLACK_WINS, WHITE_WINS)
                        };
                        let children: Vec<u8> =
                            lasker_children(model, c).iter().map(&value_of).collect();
                        if children.contains(&win) {
                            win
                        } else if children.iter().all(|&v| v == loss) {
                            loss
                        } else {
                            return 0;
                        }
                    }
                };
                values[lasker.index(model, c)].store(value, Ordering::Relaxed);
                1
            })
            .sum();
        if changed == 0 {
            break;
        }
    }
    (lasker, values)
}

/// No distance: a draw, or not reached yet.
const FAR: u16 = u16::MAX;

/// The model's distances to the end under optimal play of the decided
/// positions of Lasker Morris's opening, level by level: the rules' ends
/// and positions without a move at 0; a win at k when a move reaches a
/// loss of the opponent at k − 1 (and none nearer); a loss at k when every
/// move reaches a win of the opponent, the farthest at k − 1. With both
/// hands empty `moving` answers (value and distance in the moving phase,
/// the distance from the library: what is checked here is the opening).
fn lasker_opening_distances(
    model: &Model,
    lasker: &LaskerModel,
    values: &[AtomicU8],
    moving: &(dyn Fn(&LaskerCell) -> (u8, u16) + Sync),
) -> Vec<AtomicU16> {
    let distances: Vec<AtomicU16> = (0..lasker.len).map(|_| AtomicU16::new(FAR)).collect();
    let solution_of = |c: &LaskerCell| -> (u8, u16) {
        if let Some(value) = lasker_rule(c) {
            (value, 0)
        } else if c.hands == [0, 0] {
            moving(c)
        } else {
            let index = lasker.index(model, c);
            (
                values[index].load(Ordering::Relaxed),
                distances[index].load(Ordering::Relaxed),
            )
        }
    };
    let mut left: Vec<LaskerCell> = lasker
        .cells(model)
        .filter(|c| c.white & c.black == 0)
        .filter(|c| values[lasker.index(model, c)].load(Ordering::Relaxed) != UNKNOWN)
        .collect();
    for level in 0u16.. {
        if left.is_empty() {
            break;
        }
        assert!(level < 1000, "{} positions reach no distance", left.len());
        let reached: Vec<usize> = left
            .par_iter()
            .filter(|c| {
                if lasker_rule(c).is_some() {
                    return level == 0;
                }
                let win = if c.white_to_move {
                    WHITE_WINS
                } else {
                    BLACK_WINS
                };
                let children = lasker_children(model, c);
                if values[lasker.index(model, c)].load(Ordering::Relaxed) == win {
                    children.iter().any(|child| {
                        let (value, distance) = solution_of(child);
                        value == win && distance.checked_add(1) == Some(level)
                    })
                } else {
                    let distances: Vec<u16> =
                        children.iter().map(|child| solution_of(child).1).collect();
                    !distances.contains(&FAR)
                        && distances.iter().max().map_or(0, |&d| d + 1) == level
                }
            })
            .map(|c| lasker.index(model, c))
            .collect();
        for index in reached {
            distances[index].store(level, Ordering::Relaxed);
        }
        left.retain(|c| distances[lasker.index(model, c)].load(Ordering::Relaxed) == FAR);
    }
    distances
}

#[test]
fn the_lasker_opening_with_three_stones_a_side_equals_an_independent_fixpoint_solver() {
    // The symmetric store, every opening position looked up through its
    // canonical twin; the full store in the ignored test below.
    assert_lasker_opening_equals_the_model(&[true], false);
}

#[test]
#[ignore = "the full store and the model's distances, level by level: about 5 minutes on 2 cores"]
fn the_lasker_opening_distances_with_three_stones_a_side_equal_the_models() {
    assert_lasker_opening_equals_the_model(&[false, true], true);
}

/// Solves Lasker Morris with three stones a side, full or symmetric as
/// `symmetries` say, and compares every opening position's value with the
/// model's, and with `with_distances` its distance too.
fn assert_lasker_opening_equals_the_model(symmetries: &[bool], with_distances: bool) {
    use bitsolve::search::retro2::distances::NO_DISTANCE;
    let model = &*MODEL;
    let moving = &*THREE_THREE;
    let (lasker, values) = solve_lasker_opening(model, moving);
    let mut model_distances = None;
    for &symmetry in symmetries {
        let game = Morris::with_men(Variant::Lasker, 3, symmetry).unwrap();
        let dir = solved_by_the_command_line(
            &format!("lasker-3-{symmetry}"),
            "retro nine-mens-morris --variant lasker --men 3 --store",
            symmetry,
            if with_distances {
                &["--distances"]
            } else {
                &[]
            },
        );
        let tables = stored_tables(&game, &dir);
        let library_distances = if with_distances {
            stored_distances(&game, &dir)
        } else {
            Vec::new()
        };
        let library_distance = |stones: &Stones| {
            let (layer, rank) = game.locate(stones);
            library_distances[layer][rank as usize]
        };
        // The opening's distances by the model's levels, reading the
        // moving phase's from the full store.
        let distances = with_distances.then(|| {
            &*model_distances.get_or_insert_with(|| {
                let moving = |c: &LaskerCell| {
                    let value = moving.values
                        [moving.index(model, c.white, c.black, c.white_to_move)]
                    .load(Ordering::Relaxed);
                    let d = library_distance(&library_stones(c.white, c.black, c.white_to_move));
                    (value, if d == NO_DISTANCE { FAR } else { d })
                };
                lasker_opening_distances(model, &lasker, &values, &moving)
            })
        });
        let mut tally = [0u64; 4];
        let mut longest = 0;
        for cell in lasker.cells(model).filter(|c| c.white & c.black == 0) {
            let hands = cell.hands.map(|h| h as u8);
            let stones = library_position(cell.white, cell.black, cell.white_to_move, hands);
            if !game.hash().holds(&stones) {
                // Over before it could arise: a side below two stones in
                // all, or both at two.
                assert!(
                    cell.white.count_ones() as usize + cell.hands[0] < 2
                        || cell.black.count_ones() as usize + cell.hands[1] < 2
                        || cell.white.count_ones() as usize + cell.hands[0] == 2
                            && cell.black.count_ones() as usize + cell.hands[1] == 2
                );
                continue;
            }
            let index = lasker.index(model, &cell);
            let expected = match values[index].load(Ordering::Relaxed) {
                UNKNOWN => Value::Draw,
                known => Value::from_bits(known),
            };
            let (layer, rank) = game.locate(&stones);
            // Written out only for a failure's message.
            let text = || game.position_text(&stones);
            let got = Value::from_bits(tables[layer].get(rank));
            assert_eq!(got, expected, "symmetry {symmetry}: {}", text());
            if let Some(distances) = distances {
                let distance = distances[index].load(Ordering::Relaxed);
                let expected_distance = if distance == FAR {
                    NO_DISTANCE
                } else {
                    distance
                };
                assert_eq!(
                    library_distance(&stones),
                    expected_distance,
                    "symmetry {symmetry}: distance of {}",
                    text()
                );
                if distance != FAR {
                    longest = longest.max(distance);
                }
            }
            tally[expected as usize] += 1;
        }
        println!(
            "Lasker Morris's opening with three stones: white wins {}, black wins {}, drawn {}; longest distance {longest}",
            tally[1], tally[2], tally[3]
        );
        assert!(tally[1..].iter().all(|&n| n > 0), "{tally:?}");
        assert!(!with_distances || longest > 20, "{longest}");
        let start = game.start_position(None).unwrap();
        let (layer, rank) = game.locate(&start);
        let start_cell = LaskerCell {
            white: 0,
            black: 0,
            hands: [3, 3],
            white_to_move: true,
        };
        // (The start is won for white, as with three stones placed only.)
        assert_eq!(
            values[lasker.index(model, &start_cell)].load(Ordering::Relaxed),
            WHITE_WINS
        );
        assert_eq!(tables[layer].get(rank), WHITE_WINS);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn lasker_morris_is_solved_queried_and_played_from_the_empty_board() {
    let dir = scratch("cli-lasker");
    let store = dir.to_str().unwrap();
    let game = words("nine-mens-morris --variant lasker --men 3 --symmetry");
    let run = |command: &str, rest: &[&str]| run_on_store(command, &game, store, rest);
    // The whole game by default (three stones a side), with distances.
    let solved: serde_json::Value =
        serde_json::from_str(&run("retro", &["--distances", "--json"])).unwrap();
    let layers = solved["layers"].as_array().unwrap();
    // Above the moving phase, layers where a stone may move before all
    // are placed take passes, not one sweep.
    assert!(
        layers
            .iter()
            .filter(|l| l["layer"].as_u64().unwrap() > 6)
            .any(|l| l["passes"].as_u64().unwrap() > 2),
        "{solved}"
    );
    let answer: serde_json::Value =
        serde_json::from_str(&run("query", &["--start", "--json"])).unwrap();
    assert_eq!(answer["position"], "/:white:hand=3,3", "{answer}");
    // (The independent solver's value, in the test above.)
    assert_eq!(answer["value"], "won for white", "{answer}");
    assert_eq!(answer["moves"].as_array().unwrap().len(), 24);
    // With stones in hand and on the board: placements and moves.
    let position = "a1,d2/g7:white:hand=1,2";
    let answer: serde_json::Value =
        serde_json::from_str(&run("query", &["--position", position, "--json"])).unwrap();
    let moves = answer["moves"].as_array().unwrap();
    let names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    // 21 empty points to place on; a1 slides to a4 or d1, d2 to b2, f2, d1, d3.
    assert_eq!(names.len(), 21 + 6, "{names:?}");
    for name in ["a4", "a1-a4", "a1-d1", "d2-d3"] {
        assert!(names.contains(&name), "{name}: {names:?}");
    }
    // The value is the best move's, the distance one more than its.
    let plies = |m: &serde_json::Value| m["distance"].as_u64();
    let fastest = moves
        .iter()
        .filter(|m| m["value"] == answer["value"])
        .filter_map(plies)
        .min()
        .unwrap();
    assert_eq!(answer["distance"].as_u64(), Some(fastest + 1), "{answer}");
    // The perfect player as white opens with a placement that wins.
    let played = run("play", &["--side", "black"]);
    assert!(played.contains("bitsolve plays "), "{played}");
    // The opening on the GPU (lavapipe in CI), over a moving phase the
    // CPU solved: the CPU's counts, and the start's value.
    if common::gpu::available() {
        let on_gpu = scratch("cli-lasker-gpu");
        let gpu_store = on_gpu.to_str().unwrap();
        let top = layers.last().unwrap()["layer"].as_u64().unwrap();
        run_on_store("retro", &game, gpu_store, &["--layers", "1..6"]);
        let opening = format!("7..{top}");
        let args = ["--layers", &opening, "--backend", "gpu", "--json"];
        let on_device: serde_json::Value =
            serde_json::from_str(&run_on_store("retro", &game, gpu_store, &args)).unwrap();
        let counts = |layers: &[serde_json::Value]| -> Vec<String> {
            let fields = ["layer", "won_for_white", "won_for_black", "draws"];
            layers
                .iter()
                .filter(|l| l["layer"].as_u64().unwrap() > 6)
                .map(|l| fields.map(|f| l[f].to_string()).join(" "))
                .collect()
        };
        let device_layers = on_device["layers"].as_array().unwrap();
        assert_eq!(counts(device_layers), counts(layers));
        // Each layer's tables went to the device: none was left to the host.
        for layer in device_layers {
            assert!(layer["phases"]["upload"].as_f64().unwrap() > 0.0, "{layer}");
        }
        let answer: serde_json::Value = serde_json::from_str(&run_on_store(
            "query",
            &game,
            gpu_store,
            &["--start", "--json"],
        ))
        .unwrap();
        assert_eq!(answer["value"], "won for white", "{answer}");
        std::fs::remove_dir_all(&on_gpu).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
