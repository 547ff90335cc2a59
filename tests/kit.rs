//! The game kit: games written as board, pieces, layers and moves only,
//! solved without unmoves in every mode (the reverse graph, value
//! iteration), with and without symmetry. Mū tōrere against its
//! published values (Straffin, 1995: 1,180 positions reachable, 208 won,
//! 128 lost and 844 drawn by the side to move, the start a draw), and
//! Dodgem through the kit against the hand-written Dodgem, every stored
//! value of every layer. Kaooa and Quixo with GamesmanOne's rules against
//! what GamesmanOne's `analyze` counts among the positions reachable from
//! the start, by value and remoteness.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use bitsolve::backend::CpuBackend;
use bitsolve::games::dodgem::DodgemState;
use bitsolve::games::kit::{Kit, Position, Unmoves};
use bitsolve::games::{
    AllQueensChess, Dodgem, DodgemKit, Kaooa, MuTorere, Quixo, Teeko, TwoPlayerGame,
};
use bitsolve::search::Silent;
use bitsolve::search::retro2::distances::{LayerDistances, NO_DISTANCE, layer_distances};
use bitsolve::search::retro2::{RetroOptions, open_layer, solve_layers, solve_layers_keeping_top};
use bitsolve::space::{LayeredGame, Player, Value};
use bitsolve::table::{Backing, TwoBitTable};

use crate::common::{bitsolve_with_input, scratch};

const MODES: [Unmoves; 2] = [Unmoves::Graph, Unmoves::Iterate];

/// The value of `position` for its side to move: 'W', 'L' or 'D'.
fn for_the_mover(value: Value, position: &Position) -> char {
    match value {
        Value::Draw => 'D',
        value if value == Value::win_for(position.to_move()) => 'W',
        Value::Unknown => panic!("an unknown value after the fill"),
        _ => 'L',
    }
}

#[test]
fn mu_torere_has_its_published_values_in_every_mode() {
    for symmetry in [false, true] {
        for unmoves in MODES {
            let game = Kit::new(MuTorere::new().unwrap(), symmetry, unmoves).unwrap();
            let (_, values) =
                solve_layers_keeping_top(&CpuBackend, &game, 1, &RetroOptions::default()).unwrap();
            let start = game.start_position(None).unwrap();
            let mut reached = HashSet::from([start]);
            let mut open = vec![start];
            while let Some(position) = open.pop() {
                for next in game.moves(&position) {
                    if reached.insert(next) {
                        open.push(next);
                    }
                }
            }
            let mut counts = [0usize; 3];
            for position in &reached {
                let (layer, rank) = game.locate(position);
                assert_eq!(layer, 1);
                let value = Value::from_bits(values.get(rank));
                counts[match for_the_mover(value, position) {
                    'W' => 0,
                    'L' => 1,
                    _ => 2,
                }] += 1;
            }
            let mode = format!("symmetry {symmetry}, {unmoves:?}");
            assert_eq!(reached.len(), 1_180, "{mode}");
            assert_eq!(counts, [208, 128, 844], "{mode}");
            let (_, rank) = game.locate(&start);
            assert_eq!(Value::from_bits(values.get(rank)), Value::Draw, "{mode}");
        }
    }
}

/// Every layer of `game` solved into `dir`, opened for reading.
fn solved<G: LayeredGame + TwoPlayerGame>(game: &G, dir: &Path) -> Vec<TwoBitTable> {
    let options = RetroOptions {
        backing: Backing::Directory(dir.to_path_buf()),
        ..Default::default()
    };
    solve_layers(&CpuBackend, game, game.max_layer(), &options).unwrap();
    (0..=game.max_layer())
        .map(|layer| {
            open_layer(game, layer, &Backing::ReadOnly(dir.to_path_buf()), &Silent)
                .unwrap()
                .0
        })
        .collect()
}

/// Every layer's distances (plies to the end with best play), each
/// layer's read from its values and the distances of the layer below.
fn distances<G: LayeredGame>(game: &G, tables: &[TwoBitTable]) -> Vec<Vec<u16>> {
    let value = |layer: usize, rank: u64| Value::from_bits(tables[layer].get(rank));
    let mut found: Vec<Vec<u16>> = Vec::new();
    for layer in 0..tables.len() {
        let lower = match layer.checked_sub(1) {
            None => LayerDistances::default(),
            Some(below) => LayerDistances::from_distances(found[below].iter().copied()),
        };
        let distances = layer_distances(game, layer, &value, &lower).unwrap();
        found.push(distances.iter().collect());
    }
    found
}

/// The positions reachable from the start (a position the rules end is
/// not played on), counted by their value for the side to move ('W', 'L',
/// 'D') and remoteness (0 for a draw): the table GamesmanOne's `analyze`
/// prints.
fn reachable_by_value<G>(
    game: &G,
    tables: &[TwoBitTable],
    distances: &[Vec<u16>],
) -> BTreeMap<(char, u16), usize>
where
    G: LayeredGame<State = Position> + TwoPlayerGame<Position = Position>,
{
    let start = game.start_position(None).unwrap();
    let mut reached = HashSet::from([start]);
    let mut open = vec![start];
    let mut counts = BTreeMap::new();
    while let Some(position) = open.pop() {
        let (layer, rank) = game.locate(&position);
        let value = for_the_mover(Value::from_bits(tables[layer].get(rank)), &position);
        let distance = distances[layer][rank as usize];
        assert_eq!(distance == NO_DISTANCE, value == 'D');
        let remoteness = if value == 'D' { 0 } else { distance };
        *counts.entry((value, remoteness)).or_default() += 1;
        if game.rule_value(layer, &position).is_some() {
            continue;
        }
        for next in game.moves(&position) {
            if reached.insert(next) {
                open.push(next);
            }
        }
    }
    counts
}

#[test]
fn kaooa_has_gamesman_ones_values_and_remoteness() {
    // GamesmanOne 1.3.0's `analyze mkaooa 0`: the 21,696 positions reachable
    // from the start by value and remoteness (the start a draw).
    let expected = BTreeMap::from([
        (('D', 0), 18_081),
        (('L', 0), 1_130),
        (('W', 1), 1_470),
        (('L', 2), 85),
        (('W', 3), 130),
        (('L', 4), 105),
        (('W', 5), 255),
        (('L', 6), 30),
        (('W', 7), 110),
        (('L', 8), 65),
        (('W', 9), 205),
        (('L', 10), 5),
        (('W', 11), 25),
    ]);
    let dir = scratch("kit", "kaooa");
    for symmetry in [false, true] {
        let game = Kit::new(Kaooa::new().unwrap(), symmetry, Unmoves::Graph).unwrap();
        let tables = solved(&game, &dir.join(format!("{symmetry}")));
        let counts = reachable_by_value(&game, &tables, &distances(&game, &tables));
        assert_eq!(counts, expected, "symmetry {symmetry}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn quixo_3_has_gamesman_ones_values_and_remoteness() {
    // GamesmanOne 1.3.0 on `quixo 2` (3 x 3): of the 32,027 positions
    // reachable from the start, 20,247 are won for the side to move and
    // 11,780 lost, 5,080 of the wins made by the other side's push; the
    // start is won in 7 plies.
    let dir = scratch("kit", "quixo-3");
    let game = Kit::new(Quixo::new(3).unwrap(), true, Unmoves::Graph).unwrap();
    let tables = solved(&game, &dir);
    let distances = distances(&game, &tables);
    let counts = reachable_by_value(&game, &tables, &distances);
    let total = |value: char| -> usize {
        counts
            .iter()
            .filter(|((v, _), _)| *v == value)
            .map(|(_, n)| n)
            .sum()
    };
    assert_eq!((total('W'), total('L'), total('D')), (20_247, 11_780, 0));
    assert_eq!(counts[&('W', 0)], 5_080);
    let (layer, rank) = game.locate(&game.start_position(None).unwrap());
    assert_eq!(Value::from_bits(tables[layer].get(rank)), Value::FirstWins);
    assert_eq!(distances[layer][rank as usize], 7);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn teeko_has_gamesman_ones_patterns_and_tiers() {
    assert_eq!(Teeko::new(false).unwrap().patterns(), 44);
    assert_eq!(Teeko::new(true).unwrap().patterns(), 58);
    let game = Kit::new(Teeko::new(false).unwrap(), false, Unmoves::Graph).unwrap();
    // GamesmanOne's tiers 0 to 7 (stones dropped) hold one side to move,
    // the kit's layers both; tier 8 (moving) holds both too.
    let dropping = [1u64, 25, 600, 6_900, 75_900, 531_300, 3_542_000, 16_824_500];
    assert_eq!(game.max_layer(), 9);
    assert_eq!(game.layer_size(1), 151_420_500);
    for (down, &tier) in dropping.iter().enumerate() {
        assert_eq!(game.layer_size(9 - down), 2 * tier, "{down} stones down");
    }
    let start = game.start_position(None).unwrap();
    assert_eq!(game.locate(&start).0, 9);
    assert_eq!(game.moves(&start).len(), 25);
    // A block holds both sides to move, though the drops alternate: the
    // side out of turn has no move (its drop would lead where no layer
    // lists), the side in turn drops; every position of the smaller drop
    // layers is placed so.
    let mut position = game.new_state();
    for layer in 5..=9 {
        for rank in 0..game.layer_size(layer) {
            game.unrank(layer, rank, &mut position);
            let (x, o) = (position.hand(Player::First), position.hand(Player::Second));
            let in_turn = match position.to_move() {
                Player::First => x == o,
                Player::Second => o == x + 1,
            };
            let moves = game.moves(&position);
            assert_eq!(moves.is_empty(), !in_turn, "layer {layer} rank {rank}");
            game.successors(layer, &position, |next| {
                assert_eq!(next.layer, layer - 1);
                true
            });
        }
    }
}

#[test]
fn all_queens_chess_has_gamesman_ones_positions() {
    // GamesmanOne's one context: 13 empty squares, 6 W and 6 B queens,
    // either side to move.
    let size = |queens| {
        Kit::new(AllQueensChess::new(queens).unwrap(), false, Unmoves::Graph)
            .unwrap()
            .layer_size(1)
    };
    assert_eq!(size(6), 9_610_154_400);
    assert_eq!(size(4), 151_420_500);
    let game = Kit::new(AllQueensChess::new(6).unwrap(), true, Unmoves::Graph).unwrap();
    let start = game.start_position(None).unwrap();
    assert_eq!(
        game.position_text(&start),
        "WBWBW/...../B...W/...../BWBWB:white"
    );
    assert_eq!(game.moves(&start).len(), 34);
}

/// All Queens Chess with four queens a side (151,420,500 positions):
/// every position's value the same solved with and without symmetry;
/// wins, losses and draws all present. Minutes.
#[test]
#[ignore]
fn all_queens_chess_4_has_one_value_with_and_without_symmetry() {
    let game =
        |symmetry| Kit::new(AllQueensChess::new(4).unwrap(), symmetry, Unmoves::Graph).unwrap();
    let (plain, reduced) = (game(false), game(true));
    let dir = scratch("kit", "all-queens-chess");
    let expected = solved(&plain, &dir.join("plain"));
    let tables = solved(&reduced, &dir.join("symmetry"));
    let mut position = plain.new_state();
    let mut counts = BTreeMap::new();
    for rank in 0..plain.layer_size(1) {
        plain.unrank(1, rank, &mut position);
        let value = for_the_mover(Value::from_bits(expected[1].get(rank)), &position);
        *counts.entry(value).or_insert(0usize) += 1;
        let (layer, at) = reduced.locate(&position);
        assert_eq!(
            tables[layer].get(at),
            expected[1].get(rank),
            "{}",
            plain.position_text(&position)
        );
    }
    assert_eq!(counts.len(), 3, "{counts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The hand-written game's position for a kit position: the kit numbers
/// cells row by row from the top, Dodgem from the bottom.
fn hand_written(position: &Position, n: usize) -> DodgemState {
    let mut state = DodgemState {
        blue: 0,
        red: 0,
        blue_to_move: position.to_move() == Player::First,
    };
    for cell in 0..n * n {
        let square = (n - 1 - cell / n) * n + cell % n;
        match position.at(cell) {
            1 => state.blue |= 1 << square,
            2 => state.red |= 1 << square,
            _ => {}
        }
    }
    state
}

/// Every value the kit's Dodgem stores equals the hand-written Dodgem's
/// for the same position, in each mode; the layers hold the same numbers
/// of positions.
fn assert_dodgem_through_the_kit_is_dodgem(n: usize) {
    let hand = Dodgem::new(n).unwrap();
    let dir = scratch("kit", &format!("dodgem-{n}"));
    let expected = solved(&hand, &dir.join("hand"));
    for unmoves in MODES {
        let kit = Kit::new(DodgemKit::new(n).unwrap(), false, unmoves).unwrap();
        let tables = solved(&kit, &dir.join(format!("{unmoves:?}")));
        assert_eq!(kit.max_layer(), hand.max_layer());
        let mut position = kit.new_state();
        for layer in 0..=kit.max_layer() {
            assert_eq!(kit.layer_size(layer), hand.layer_size(layer));
            for rank in 0..kit.layer_size(layer) {
                kit.unrank(layer, rank, &mut position);
                let state = hand_written(&position, n);
                assert_eq!(
                    tables[layer].get(rank),
                    expected[layer].get(hand.rank_of(&state)),
                    "n {n} {unmoves:?} layer {layer}: {}",
                    kit.position_text(&position)
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dodgem_through_the_kit_stores_the_hand_written_values_3_and_4() {
    assert_dodgem_through_the_kit_is_dodgem(3);
    assert_dodgem_through_the_kit_is_dodgem(4);
}

/// 5 x 5: 151 M positions in the top layer (minutes on two cores).
#[test]
#[ignore]
fn dodgem_through_the_kit_stores_the_hand_written_values_5() {
    assert_dodgem_through_the_kit_is_dodgem(5);
}

/// A kit table's identity samples the moves, not the predecessors the
/// kit derives from them: the reverse graph's order depends on the
/// threads that built it (a store solved on one thread count was refused
/// by a query on another), and opening a table must not build it. So a
/// table solved from the graph and one solved by value iteration are one
/// table.
#[test]
fn a_kit_table_is_the_same_table_whichever_way_predecessors_are_found() {
    use bitsolve::search::retro2::values_identity;
    for symmetry in [false, true] {
        let game = |unmoves| Kit::new(Quixo::new(3).unwrap(), symmetry, unmoves).unwrap();
        let (graph, iterate) = (game(Unmoves::Graph), game(Unmoves::Iterate));
        for layer in 1..=graph.max_layer() {
            assert_eq!(
                values_identity(&graph, layer),
                values_identity(&iterate, layer),
                "symmetry {symmetry}, layer {layer}"
            );
        }
    }
}

#[test]
fn kit_positions_read_back_and_refuse_bad_text_in_one_line() {
    let game = Kit::new(MuTorere::new().unwrap(), true, Unmoves::Graph).unwrap();
    let start = game.start_position(None).unwrap();
    assert_eq!(game.position_text(&start), "BBB/W.B/WWW:black");
    let mut position = game.new_state();
    for rank in 0..game.layer_size(1) {
        game.unrank(1, rank, &mut position);
        let text = game.position_text(&position);
        assert_eq!(game.parse_position(&text).unwrap(), position, "{text}");
    }
    let names: Vec<String> = game
        .moves(&start)
        .iter()
        .map(|next| game.move_name(&start, next))
        .collect();
    // The two black pieces beside a white one may enter the centre.
    assert_eq!(names, ["a1-b2", "c2-b2"]);
    for (text, expected) in [
        ("BBB/W.B/WWW", "then ':black' or ':white'"),
        ("BBB/W.B/WWW:red", "'black' or 'white', got 'red'"),
        ("BBB/WxB/WWW:black", "'x' at b2 is not one of 'B' black"),
        ("BBB/WBB/WWW:black", "holds 5 'B' and 4 'W'"),
        ("BBBW/.B/WWW:black", "rows of 4/2/3 points"),
    ] {
        let message = game.parse_position(text).unwrap_err().to_string();
        assert!(message.contains(expected), "{text}: {message}");
        assert!(!message.contains('\n'), "{text}: {message}");
    }
}

#[test]
fn retro_query_and_play_run_kit_games_through_the_commands() {
    let dir = scratch("kit", "cli");
    let store = dir.to_str().unwrap();
    let (ok, stdout, stderr) = bitsolve_with_input(
        &[
            "retro",
            "mu-torere",
            "--symmetry",
            "--store",
            store,
            "--distances",
            "--json",
        ],
        "",
    );
    assert!(ok, "{stderr}");
    let solved: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(solved["sides"], serde_json::json!(["black", "white"]));
    let layer = &solved["layers"][0];
    assert_eq!(
        (layer["states"].as_u64(), layer["draws"].as_u64()),
        (Some(1_260), Some(892))
    );
    let (ok, stdout, stderr) = bitsolve_with_input(
        &[
            "query",
            "mu-torere",
            "--symmetry",
            "--store",
            store,
            "--start",
            "--json",
        ],
        "",
    );
    assert!(ok, "{stderr}");
    let answer: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(answer["value"], "drawn");
    let moves: Vec<(&str, &str)> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap(), m["value"].as_str().unwrap()))
        .collect();
    assert_eq!(moves, [("a1-b2", "drawn"), ("c2-b2", "drawn")]);
    // The program opens with a drawing move; 'quit' ends the game.
    let (ok, stdout, stderr) = bitsolve_with_input(
        &[
            "play",
            "mu-torere",
            "--symmetry",
            "--store",
            store,
            "--side",
            "white",
        ],
        "quit\n",
    );
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("bitsolve plays a1-b2") || stdout.contains("bitsolve plays c2-b2"),
        "{stdout}"
    );
    // Value iteration has no predecessors to find distances from.
    let (ok, _, stderr) = bitsolve_with_input(
        &[
            "retro",
            "mu-torere",
            "--unmoves",
            "iterate",
            "--store",
            dir.join("iterate").to_str().unwrap(),
            "--distances",
        ],
        "",
    );
    assert!(!ok);
    assert!(stderr.contains("give --unmoves graph"), "{stderr}");
    let (ok, _, stderr) = bitsolve_with_input(&["retro", "mu-torere", "--unmoves", "both"], "");
    assert!(!ok && stderr.contains("--unmoves is 'graph'"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
