//! The playable check of Fox-and-Geese (issue 31): from a won position of
//! the deepest layer a test can afford, the perfect player — the store's
//! `best_moves`, which is what `play` chooses among — wins, and within the
//! distance the store states, against an opponent who moves at random and
//! against one who delays as long as it can (then in exactly that many
//! plies). Under the default rule and `--geese-forward` the geese are the
//! winners with finite distances (the fox's wins there hold by the rule for
//! undecided positions, which has no distance); under `--capture-wins` the
//! fox is, by its first capture.

use std::path::Path;
use std::process::Command;
use std::sync::{LazyLock, Mutex, PoisonError};

use bitsolve::database::{Database, TableCache};
use bitsolve::games::TwoPlayerGame;
use bitsolve::games::fox_geese::{FoxGeese, Rules};
use bitsolve::hash::splitmix64;
use bitsolve::space::{LayeredGame, Player, Value};

/// The layer the positions are drawn from (6 geese); the store holds 1..6.
const LAYER: usize = 6;

fn solve_into(store: &Path, flags: &[&str]) {
    let output = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args([
            "retro",
            "fox-geese",
            "--layers",
            "1..6",
            "--distances",
            "--store",
        ])
        .arg(store)
        .args(flags)
        .output()
        .expect("run bitsolve");
    assert!(
        output.status.success(),
        "retro {flags:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Among sampled positions of the layer won for `winner` with a finite
/// distance, one with the longest, for each side to move.
fn longest_wins(
    game: &FoxGeese,
    database: &mut Database<FoxGeese>,
    winner: Player,
) -> Vec<(<FoxGeese as TwoPlayerGame>::Position, u16)> {
    let mut state = game.new_state();
    let mut best: [Option<(<FoxGeese as TwoPlayerGame>::Position, u16)>; 2] = [None, None];
    let size = game.layer_size(LAYER);
    for sample in 0..400_000u64 {
        game.unrank(LAYER, splitmix64(sample) % size, &mut state);
        let position = game.position(&state);
        if database.value(&position).unwrap() != Value::win_for(winner) {
            continue;
        }
        let Some(distance) = database.distance(&position).unwrap() else {
            continue;
        };
        let side = (game.side_to_move(&position) == winner) as usize;
        if best[side].as_ref().is_none_or(|(_, d)| distance > *d) {
            best[side] = Some((position, distance));
        }
    }
    best.into_iter().flatten().collect()
}

#[derive(Clone, Copy, Debug)]
enum Opponent {
    Random,
    Delaying,
}

/// Plays from `start` until the rules decide; returns the plies played and
/// asserts the end is a win for `winner`.
fn play_out(
    game: &FoxGeese,
    database: &mut Database<FoxGeese>,
    start: &<FoxGeese as TwoPlayerGame>::Position,
    winner: Player,
    opponent: Opponent,
    seed: u64,
) -> u16 {
    let mut position = *start;
    let mut seed = seed;
    for plies in 0..=u16::MAX {
        let value = database.value(&position).unwrap();
        assert_eq!(
            value,
            Value::win_for(winner),
            "after {plies} plies the position {} is no longer won",
            game.position_text(&position)
        );
        let decided = database.distance(&position).unwrap() == Some(0);
        let moves = database.moves(&position).unwrap();
        if decided || moves.is_empty() || game.locate(&position).0 == 0 {
            return plies;
        }
        seed = splitmix64(seed);
        let chosen = if game.side_to_move(&position) == winner {
            let choices = database.best_moves(&position).unwrap();
            choices[(seed % choices.len() as u64) as usize].position
        } else {
            match opponent {
                Opponent::Random => moves[(seed % moves.len() as u64) as usize].position,
                Opponent::Delaying => {
                    moves
                        .iter()
                        .max_by_key(|m| m.distance.unwrap_or(0))
                        .expect("moves")
                        .position
                }
            }
        };
        position = chosen;
    }
    unreachable!("a won game with a finite distance ends")
}

fn check_variant(flags: &[&str], rules: Rules, symmetry: bool, winner: Player) {
    let dir = std::env::temp_dir().join(format!(
        "bitsolve-fg-play-{}-{}",
        flags.join(""),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    solve_into(&dir, flags);
    let game = FoxGeese::with_rules(rules, symmetry).unwrap();
    let cache = TableCache::default();
    let mut database = Database::new(&game, "fox-geese", &dir, &cache);
    let starts = longest_wins(&game, &mut database, winner);
    assert_eq!(
        starts.len(),
        2,
        "{flags:?}: won positions for both sides to move"
    );
    for (start, distance) in &starts {
        assert!(*distance > 0);
        let text = game.position_text(start);
        println!("{flags:?}: {text}, won in {distance} plies");
        let delayed = play_out(&game, &mut database, start, winner, Opponent::Delaying, 1);
        assert_eq!(
            delayed, *distance,
            "{flags:?} {text}: against the longest defence the win takes its distance"
        );
        for seed in 0..8 {
            let plies = play_out(&game, &mut database, start, winner, Opponent::Random, seed);
            assert!(
                plies <= *distance,
                "{flags:?} {text}: {plies} plies against a random opponent, stated {distance}"
            );
        }
    }
    drop(database);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_geese_win_within_their_distance_under_the_default_rule() {
    let rules = Rules {
        capture_wins: false,
        geese_forward: false,
    };
    check_variant(&[], rules, false, Player::Second);
}

#[test]
fn the_geese_win_within_their_distance_when_they_may_not_retreat() {
    let rules = Rules {
        capture_wins: false,
        geese_forward: true,
    };
    check_variant(
        &["--geese-forward", "--symmetry"],
        rules,
        true,
        Player::Second,
    );
}

#[test]
fn the_fox_wins_within_its_distance_when_a_capture_wins() {
    let rules = Rules {
        capture_wins: true,
        geese_forward: false,
    };
    check_variant(
        &["--capture-wins", "--symmetry"],
        rules,
        true,
        Player::First,
    );
}

/// The playable check from a standard start, on a whole-game store named
/// by the environment variable `store` (`retro fox-geese [--geese-forward]
/// --symmetry --layers 1..G --distances --store DIR`: for the default rule
/// about an hour for G = 13 here, about eight more for 17; for
/// `--geese-forward`, 71 minutes for 13, whose play-out reads layers 13
/// and 12 with their distances, 29 GB of tables, paged by the database):
/// with the geese to move and with the fox to move, the geese win in
/// exactly the stated distance against the longest defence and within it
/// against random foxes. Run with
/// `BITSOLVE_FG_STORE=DIR BITSOLVE_FG_FORWARD_STORE=DIR2 cargo test
/// --release --test suite fox_geese_play:: -- --ignored --nocapture`.
fn the_geese_win_from_the_start_within_its_distance(rules: Rules, store: &str, geese: usize) {
    let dir = std::env::var_os(store)
        .unwrap_or_else(|| panic!("{store} names the store of layers 1..{geese} with distances"));
    // The layers' tables (up to 14 GB each with distances) are held in
    // memory or paged within one limit: the starts share one cache and
    // are played one at a time.
    static CACHE: LazyLock<TableCache> = LazyLock::new(TableCache::default);
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    let game = FoxGeese::with_rules(rules, true).unwrap();
    let mut database = Database::new(&game, "fox-geese", Path::new(&dir), &CACHE);
    let start = game.start_position(Some(geese)).unwrap();
    for mover in [Player::Second, Player::First] {
        let start = game.with_side_to_move(&start, mover);
        let text = game.position_text(&start);
        assert_eq!(database.value(&start).unwrap(), Value::SecondWins, "{text}");
        let distance = database
            .distance(&start)
            .unwrap()
            .expect("a geese win from the start has a distance");
        println!("{text}: won for the geese in {distance} plies");
        let delayed = play_out(
            &game,
            &mut database,
            &start,
            Player::Second,
            Opponent::Delaying,
            1,
        );
        assert_eq!(delayed, distance, "{text}: against the longest defence");
        for seed in 0..8 {
            let plies = play_out(
                &game,
                &mut database,
                &start,
                Player::Second,
                Opponent::Random,
                seed,
            );
            println!("  against random fox {seed}: {plies} plies");
            assert!(
                plies <= distance,
                "{text}: {plies} plies, stated {distance}"
            );
        }
    }
}

#[test]
#[ignore = "needs a store of the default rule's layers 1..13 with distances (BITSOLVE_FG_STORE)"]
fn the_geese_win_from_the_13_geese_start_within_its_distance() {
    the_geese_win_from_the_start_within_its_distance(Rules::default(), "BITSOLVE_FG_STORE", 13);
}

#[test]
#[ignore = "needs a store of the default rule's layers 1..17 with distances (BITSOLVE_FG_STORE)"]
fn the_geese_win_from_the_17_geese_start_within_its_distance() {
    the_geese_win_from_the_start_within_its_distance(Rules::default(), "BITSOLVE_FG_STORE", 17);
}

#[test]
#[ignore = "needs a store of the --geese-forward layers 1..13 with distances (BITSOLVE_FG_FORWARD_STORE)"]
fn forward_geese_win_from_the_13_geese_start_within_its_distance() {
    let rules = Rules {
        capture_wins: false,
        geese_forward: true,
    };
    the_geese_win_from_the_start_within_its_distance(rules, "BITSOLVE_FG_FORWARD_STORE", 13);
}
