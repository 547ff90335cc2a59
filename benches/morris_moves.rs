//! The Morris solver's inner step per core: positions of a layer unranked
//! in runs of consecutive ranks (as a sweep or a pass visits them) and
//! every move of each ranked (successors), or every quiet move into it
//! (predecessors). No table is read: this is the hash's share of a sweep.
//!
//! `cargo bench --bench morris_moves` prints one line per layer and kind
//! of move: the time a position and a move on one thread, best of five
//! runs (`-- TEXT`: only the lines that contain TEXT). Wall times drift
//! on a shared machine; `MORRIS_MOVES_ROUNDS=1 valgrind --tool=cachegrind`
//! on one line counts its instructions exactly, to compare two builds.

use std::hint::black_box;
use std::time::Instant;

use bitsolve::games::morris::rules;
use bitsolve::games::morris::{Morris, Variant};
use bitsolve::hash::splitmix64;
use bitsolve::space::LayeredGame;

/// Runs of consecutive ranks, and ranks a run.
const RUNS_OF_RANKS: usize = 256;
const RUN: u64 = 4096;
const ROUNDS: usize = 5;

/// Rounds to run: `ROUNDS`, or `MORRIS_MOVES_ROUNDS` (1 under a profiler
/// or an instruction counter).
fn rounds() -> usize {
    std::env::var("MORRIS_MOVES_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(ROUNDS)
}

/// What each position's moves go through.
#[derive(Clone, Copy, PartialEq)]
enum Step {
    /// The solver's successors, ranked.
    Successors,
    /// The solver's quiet predecessors, ranked.
    Predecessors,
    /// The rules' successors, not ranked.
    RulesOnly,
    /// The rules' successors, each ranked from its stones.
    RankedFromStones,
}

fn measure(game: &Morris, name: &str, layer: usize, step: Step) {
    let size = game.layer_size(layer);
    let starts: Vec<u64> = (0..RUNS_OF_RANKS as u64)
        .map(|i| splitmix64(i) % (size - RUN))
        .collect();
    let opening = game.variant().opening_rule();
    let mut best = f64::MAX;
    let mut moves = 0u64;
    for _ in 0..rounds() {
        let started = Instant::now();
        let mut state = game.new_state();
        let (mut checksum, mut count) = (0u64, 0u64);
        for &start in &starts {
            for rank in start..start + RUN {
                game.unrank(layer, rank, &mut state);
                match step {
                    Step::Predecessors => game.predecessors(layer, &state, |before| {
                        checksum = checksum.wrapping_add(before);
                        count += 1;
                    }),
                    Step::Successors => game.successors(layer, &state, |next| {
                        checksum = checksum.wrapping_add(next.rank);
                        count += 1;
                        true
                    }),
                    Step::RulesOnly | Step::RankedFromStones => {
                        rules::for_each_successor(game.board(), opening, &state, |next| {
                            checksum = checksum.wrapping_add(if step == Step::RulesOnly {
                                u64::from(next.black ^ next.white)
                            } else {
                                game.hash().rank(&next)
                            });
                            count += 1;
                            true
                        })
                    }
                }
            }
        }
        black_box(checksum);
        moves = count;
        best = best.min(started.elapsed().as_secs_f64());
    }
    let positions = (RUNS_OF_RANKS as u64 * RUN) as f64;
    println!(
        "{name:<62} {:>7.1} ns a position, {:>5.1} ns a move ({:.1} moves a position)",
        best * 1e9 / positions,
        best * 1e9 / moves as f64,
        moves as f64 / positions
    );
}

fn main() {
    // `cargo bench --bench morris_moves -- TEXT` runs the lines naming TEXT.
    let only = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    for symmetry in [true, false] {
        let game = Morris::new(Variant::NineMensMorris, symmetry).unwrap();
        let top = game.hash().moving_top();
        let sym = if symmetry { "symmetry" } else { "no symmetry" };
        let mut layers = vec![(12, "moving layer 12".to_string())];
        for in_hand in [6, 7] {
            let layer = top + in_hand;
            layers.push((layer, format!("opening {:?}", game.hash().in_hand(layer))));
        }
        for (layer, name) in layers {
            for (step, what) in [
                (Step::Successors, "successors"),
                (Step::RulesOnly, "the rules' successors, unranked"),
                (Step::RankedFromStones, "the rules' successors, ranked"),
                (Step::Predecessors, "predecessors"),
            ] {
                if step == Step::Predecessors && layer > top {
                    continue;
                }
                let line = format!("nine, {sym}, {name}: {what}");
                if only
                    .as_ref()
                    .is_none_or(|text| line.contains(text.as_str()))
                {
                    measure(&game, &line, layer, step);
                }
            }
        }
    }
}
