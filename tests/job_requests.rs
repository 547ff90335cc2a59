//! The library checks a job's request itself, once for every shell: a
//! game's options, the store's path, flags that cannot go together, and
//! intervals too long for the clock.

use crate::common::{ScratchDir, arg, bitsolve};

use bitsolve::games::registry::GameOptions;
use bitsolve::jobs::solve::solve;
use bitsolve::jobs::{
    BfsReport, BfsRequest, GameSpec, RetroReport, RetroRequest, SolveRequest, TwoPlayerSpec,
};
use bitsolve::progress::Silent;

fn pancake(options: GameOptions) -> GameSpec {
    GameSpec {
        name: "pancake".into(),
        options: options.with("n", 5),
    }
}

fn bfs(game: &GameSpec, request: BfsRequest) -> Result<BfsReport, String> {
    bitsolve::jobs::bfs::bfs(game, request, &Silent, None).map_err(|e| e.to_string())
}

fn total(options: GameOptions) -> Result<u64, String> {
    bfs(&pancake(options), BfsRequest::default()).map(|report| report.total)
}

fn dodgem() -> TwoPlayerSpec {
    TwoPlayerSpec(GameSpec {
        name: "dodgem".into(),
        options: GameOptions::default().with("n", 3),
    })
}

fn retro(request: RetroRequest) -> Result<RetroReport, String> {
    bitsolve::jobs::retro::retro(&dodgem(), request, &Silent, None).map_err(|e| e.to_string())
}

#[test]
fn a_flag_given_as_a_value_is_read_or_refused_never_ignored() {
    let plain = GameOptions::default();
    assert_eq!(total(plain.clone().with_flag("burned")), Ok(3840));
    for on in ["true", "1"] {
        assert_eq!(total(plain.clone().with("burned", on)), Ok(3840));
    }
    assert_eq!(total(plain.clone().with("burned", true)), Ok(3840));
    for off in ["false", "0"] {
        assert_eq!(total(plain.clone().with("burned", off)), Ok(120));
    }
    assert_eq!(
        total(plain.clone().with("burned", "yes please")),
        Err("invalid parameter: --burned is a flag, on or off (true or false, 1 or 0), not 'yes please'".into())
    );
    let flag_only = GameSpec {
        name: "pancake".into(),
        options: plain.with_flag("n"),
    };
    assert_eq!(
        bfs(&flag_only, BfsRequest::default()),
        Err("invalid parameter: --n needs a value (N)".into())
    );
}

#[test]
fn an_option_the_game_does_not_have_is_refused_naming_those_it_has() {
    let expected = "invalid parameter: pancake has no option 'bogus' (its options: n, burned)";
    let bogus = GameOptions::default().with("bogus", 1);
    assert_eq!(total(bogus), Err(expected.into()));
    assert_eq!(
        total(GameOptions::default().with_flag("bogus")),
        Err(expected.into())
    );
    let mut two_player = dodgem();
    two_player.0.options = two_player.0.options.with("geese", 3);
    assert_eq!(
        bitsolve::jobs::retro::retro(&two_player, RetroRequest::default(), &Silent, None)
            .unwrap_err()
            .to_string(),
        "invalid parameter: dodgem has no option 'geese' (its options: n)"
    );
}

#[test]
fn an_empty_store_path_is_refused_before_any_work() {
    let refusal = "invalid parameter: --store names no directory (an empty path)";
    let empty = || Some(std::path::PathBuf::new());
    let request = BfsRequest {
        store: empty(),
        ..BfsRequest::default()
    };
    assert_eq!(
        bfs(&pancake(GameOptions::default()), request),
        Err(refusal.into())
    );
    let request = RetroRequest {
        store: empty(),
        ..RetroRequest::default()
    };
    assert_eq!(retro(request), Err(refusal.into()));
    let request = SolveRequest {
        position: Some("2 1 3 4 5".into()),
        store: empty(),
        ..SolveRequest::default()
    };
    let solved = solve(&pancake(GameOptions::default()), &request, &Silent, None);
    assert_eq!(solved.unwrap_err().to_string(), refusal);
}

#[test]
fn layers_given_both_as_a_range_and_a_top_are_refused() {
    let request = RetroRequest {
        layers: Some((1, 2)),
        top: Some(4),
        ..RetroRequest::default()
    };
    assert_eq!(
        retro(request),
        Err("invalid parameter: give the layers once, as a range (--layers A..B) or a top layer (--geese G), not both".into())
    );
}

/// An interval beyond what the clock can add means no record before the
/// end, in the values' passes and the distances alike.
#[test]
fn a_checkpoint_interval_too_long_for_the_clock_means_never() {
    let dir = ScratchDir::new("requests", "checkpoint");
    let baseline = retro(RetroRequest {
        store: Some(dir.join("baseline")),
        distances: true,
        ..RetroRequest::default()
    })
    .unwrap();
    for every in [i64::MAX as u64, u64::MAX] {
        let store = dir.join(&format!("every-{every}"));
        let report = retro(RetroRequest {
            store: Some(store),
            distances: true,
            checkpoint_every: every,
            ..RetroRequest::default()
        })
        .unwrap();
        let (rows, expected_rows) = (&report.layers, &baseline.layers);
        assert_eq!(rows.len(), 4);
        assert_eq!(expected_rows.len(), 4);
        for (row, expected) in rows.iter().zip(expected_rows) {
            assert_eq!(
                (row.layer, row.states, row.draws, row.longest_distance),
                (
                    expected.layer,
                    expected.states,
                    expected.draws,
                    expected.longest_distance
                )
            );
            assert!(row.longest_distance.is_some(), "{row:?}");
        }
    }
    let store = arg(&dir.join("cli"));
    let args = [
        "retro",
        "dodgem",
        "--n",
        "3",
        "--distances",
        "--store",
        &store,
        "--checkpoint-every",
        "9223372036854775807",
    ];
    let output = bitsolve(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
