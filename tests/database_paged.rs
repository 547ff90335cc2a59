//! The database's paged tables: a table larger than a quarter of the
//! cache's limit is read a checked chunk at a time instead of whole (so a
//! store larger than memory is answered, not killed for memory). Here a
//! cache of 4 MiB pages Fox-and-Geese's layer 6 (3.2 MB of values, 12.8 MB
//! of distances with `--symmetry`): every answer must be the one a cache
//! that reads the layers whole gives, a damaged chunk must be refused as a
//! table read whole is, and a file cut short under the reader must be an
//! error, not a crash.

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use bitsolve::database::{Database, Examined, StoredDepths, TableCache};
use bitsolve::games::Pancake;
use bitsolve::games::TwoPlayerGame;
use bitsolve::games::fox_geese::{FoxGeese, Rules};
use bitsolve::hash::splitmix64;
use bitsolve::space::{LayeredGame, Space};
use bitsolve::table::header::HEADER_LEN;

const LAYER: usize = 6;
const SMALL_LIMIT: u64 = 4 << 20;

/// A fresh store directory named `name`, filled by running bitsolve with
/// `args` and then `--store DIR`.
fn store_from(name: &str, args: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitsolve-paged-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let output = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(args)
        .arg("--store")
        .arg(&dir)
        .output()
        .expect("run bitsolve");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    dir
}

/// A store of layers `layers` solved with `flags`, `--symmetry` and
/// `--distances`.
fn solved_store(name: &str, layers: &str, flags: &[&str]) -> PathBuf {
    let mut args = vec!["retro", "fox-geese", "--symmetry", "--layers", layers];
    args.extend_from_slice(flags);
    args.push("--distances");
    store_from(name, &args)
}

fn game(rules: Rules) -> FoxGeese {
    FoxGeese::with_rules(rules, true).unwrap()
}

/// Layer 6's values file; `rule` is the rule's part of its name.
fn values_file(dir: &Path, rule: &str) -> PathBuf {
    dir.join(format!(
        "fox-geese-g-6{rule}-symmetry-retrograde-values.bst"
    ))
}

const DEFAULT_RULE: Rules = Rules {
    capture_wins: false,
    geese_forward: false,
};

/// Positions of the layer at sampled ranks (every `step`-th, from a
/// scrambled start), for questions that take a position.
fn sampled_positions(game: &FoxGeese, step: u64) -> Vec<<FoxGeese as TwoPlayerGame>::Position> {
    let size = game.layer_size(LAYER);
    let mut state = game.new_state();
    (0..size / step)
        .map(|i| {
            let rank = (splitmix64(i) % step + i * step).min(size - 1);
            game.unrank(LAYER, rank, &mut state);
            game.position(&state)
        })
        .collect()
}

/// Under the default rule (captures lead to layer 5, and only the geese's
/// few wins have distances) and under `--capture-wins` (where the fox's
/// wins, most of the layer's, have them).
#[test]
fn paged_tables_answer_as_tables_read_whole() {
    let capture_wins = Rules {
        capture_wins: true,
        geese_forward: false,
    };
    compare_paged_with_whole(
        &solved_store("default", "1..6", &[]),
        DEFAULT_RULE,
        "",
        (257, 5),
    );
    compare_paged_with_whole(
        &solved_store("capture-wins", "5..6", &["--capture-wins"]),
        capture_wins,
        "-capture-wins",
        (1021, 1000),
    );
}

/// Compares every value of layer 6 and the values, distances and moves of
/// every `step`-th position (about); `distances` of them at least must
/// have one.
fn compare_paged_with_whole(dir: &Path, rules: Rules, rule: &str, (step, distances): (u64, usize)) {
    let game = game(rules);
    let whole = TableCache::default();
    let paged = TableCache::with_limit(SMALL_LIMIT);
    assert!(std::fs::metadata(values_file(dir, rule)).unwrap().len() > paged.paged_above());
    let mut reading = Database::new(&game, "fox-geese", dir, &whole);
    let mut paging = Database::new(&game, "fox-geese", dir, &paged);

    // Every value of the layer, in rank order.
    let ranks: Vec<u64> = (0..game.layer_size(LAYER)).collect();
    let expected = reading.values(LAYER, &ranks).unwrap();
    assert_eq!(paging.values(LAYER, &ranks).unwrap(), expected);
    assert!(expected.iter().any(|&bits| bits != expected[0]));
    // And in a scrambled order (a stride coprime to the layer's size).
    let size = game.layer_size(LAYER);
    let stride = (size / 3..)
        .find(|s| num_integer::gcd(*s, size) == 1)
        .unwrap();
    let scrambled: Vec<u64> = (0..size).map(|i| i * stride % size).collect();
    let values = paging.values(LAYER, &scrambled).unwrap();
    assert!(
        scrambled
            .iter()
            .zip(&values)
            .all(|(&r, &v)| expected[r as usize] == v)
    );

    // Values and distances of positions spread over the layer, and every
    // move (captures reach layer 5) of some of them and of each with a
    // distance.
    let mut found = 0;
    for (index, position) in sampled_positions(&game, step).iter().enumerate() {
        assert_eq!(
            paging.value(position).unwrap(),
            reading.value(position).unwrap()
        );
        let distance = reading.distance(position).unwrap();
        assert_eq!(paging.distance(position).unwrap(), distance);
        found += distance.is_some() as usize;
        if distance.is_none() && index % 16 != 0 {
            continue;
        }
        let (by_pages, read) = (
            paging.moves(position).unwrap(),
            reading.moves(position).unwrap(),
        );
        assert_eq!(by_pages.len(), read.len());
        for (a, b) in by_pages.iter().zip(&read) {
            assert_eq!(
                (&a.name, a.value, a.distance),
                (&b.name, b.value, b.distance)
            );
        }
    }
    assert!(found >= distances, "{found} positions with a distance");
    // The paged tables keep a quarter of the limit each at most.
    let (held, limit) = paged.memory();
    assert!(held <= limit, "{held} bytes held, limit {limit}");
    assert_eq!(
        paged.examined(&values_file(dir, rule)),
        Some(Examined::Paged)
    );
    assert_eq!(
        whole.examined(&values_file(dir, rule)),
        Some(Examined::Intact)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Overwrites 8 bytes of the values file's body in chunk `chunk`.
fn damage(file: &Path, chunk: u64) -> Vec<u8> {
    let original = std::fs::read(file).unwrap();
    let mut writer = std::fs::File::options().write(true).open(file).unwrap();
    let offset = HEADER_LEN as u64 + chunk * (1 << 20) + 4096;
    writer.seek(SeekFrom::Start(offset)).unwrap();
    let flipped: Vec<u8> = original[offset as usize..][..8]
        .iter()
        .map(|b| !b)
        .collect();
    writer.write_all(&flipped).unwrap();
    original
}

#[test]
fn a_damaged_chunk_refuses_the_paged_table_and_a_truncated_file_is_an_error() {
    let dir = solved_store("damage", "1..6", &[]);
    let game = game(DEFAULT_RULE);
    let file = values_file(&dir, "");
    let whole = TableCache::default();
    let expected = {
        let mut reading = Database::new(&game, "fox-geese", &dir, &whole);
        let ranks: Vec<u64> = (0..game.layer_size(LAYER)).collect();
        reading.values(LAYER, &ranks).unwrap()
    };
    // Chunk 0 holds ranks below 4 Mi (32 cells a word); chunk 2 from 8 Mi.
    let (early, late) = (1_000u64, (2u64 << 22) + 77);

    // Damaged before it was opened: opening checks only the header and
    // the trailer, so the first lookup in the damaged chunk refuses it,
    // and every later lookup, in any chunk, is refused the same way.
    let original = damage(&file, 2);
    let paged = TableCache::with_limit(SMALL_LIMIT);
    let mut paging = Database::new(&game, "fox-geese", &dir, &paged);
    assert_eq!(
        paging.values(LAYER, &[early]).unwrap(),
        vec![expected[early as usize]]
    );
    let error = paging.values(LAYER, &[late]).unwrap_err().to_string();
    assert!(
        error.contains("1 damaged chunk(s), the first holding ranks 8388608.."),
        "{error}"
    );
    assert_eq!(
        paging.values(LAYER, &[early]).unwrap_err().to_string(),
        error
    );
    assert!(
        paged.examined(&file) == Some(Examined::Refused(error.clone())),
        "{:?}",
        paged.examined(&file)
    );
    // The same bytes back: the file changed, so it is opened again and
    // answers as before.
    std::fs::write(&file, &original).unwrap();
    assert_eq!(
        paging.values(LAYER, &[early, late]).unwrap(),
        vec![expected[early as usize], expected[late as usize]]
    );

    // Cut short under the reader: a lookup in a chunk not yet read is an
    // error that says the file changed, and the process lives on.
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_len(HEADER_LEN as u64 + 65_536)
        .unwrap();
    let error = paging
        .values(LAYER, &[(3u64 << 22) + 5])
        .unwrap_err()
        .to_string();
    assert!(error.contains("changed on disk"), "{error}");
    std::fs::write(&file, &original).unwrap();
    assert_eq!(
        paging.values(LAYER, &[late]).unwrap(),
        vec![expected[late as usize]]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// One-player stores take the same path: Pancake with 11 pancakes keeps a
/// table of depths of 10 MB, paged under a limit of 4 MiB, and every
/// walk to the target from sampled stacks is the one the table read whole
/// gives.
#[test]
fn a_paged_table_of_depths_walks_as_one_read_whole() {
    let solve = ["solve", "pancake", "--n", "11", "--position"];
    let dir = store_from(
        "depths",
        &[&solve[..], &["11 10 9 8 7 6 5 4 3 2 1"]].concat(),
    );
    let space = Pancake::new(11, false).unwrap();
    let (whole, paged) = (TableCache::default(), TableCache::with_limit(SMALL_LIMIT));
    let read = whole.stored_depths(&space, &dir).unwrap().expect("kept");
    let by_pages = paged.stored_depths(&space, &dir).unwrap().expect("kept");
    let file = StoredDepths::file(&space, &dir);
    assert!(std::fs::metadata(&file).unwrap().len() > paged.paged_above());
    let mut state = space.new_state();
    let mut longest = 0;
    for sample in 0..300u64 {
        space.unrank(splitmix64(sample) % space.size(), &mut state);
        let ranks = |path: Option<Vec<_>>| {
            path.map(|states: Vec<_>| states.iter().map(|s| space.rank(s)).collect::<Vec<_>>())
        };
        let expected = ranks(read.solution_if_reachable(&space, &state).unwrap());
        let found = ranks(by_pages.solution_if_reachable(&space, &state).unwrap());
        assert_eq!(found, expected, "sample {sample}");
        longest = longest.max(expected.map_or(0, |path| path.len()));
    }
    assert!(longest > 8, "walks of up to {longest} states");
    let (held, limit) = paged.memory();
    assert!(held <= limit, "{held} bytes held, limit {limit}");
    assert_eq!(paged.examined(&file), Some(Examined::Paged));
    let _ = std::fs::remove_dir_all(&dir);
}
