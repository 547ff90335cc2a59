//! The identity a stored table is recognised by: the descriptor (which
//! names the file) plus everything else that defines the space, as
//! `key=value` lines. A store made for another board, other rules, another
//! rank layout or another format is refused with the first line that
//! differs, instead of being reused for a space it does not describe.
//!
//! Beyond what a game declares ([`Space::definition`]: a board's contents),
//! the lines hold fingerprints computed from the space itself: its block
//! layout, its start and goal ranks, and the successors of a fixed sample
//! of ranks. A change to a game's rules or hash between two builds thus
//! changes the identity too, even when no option changed.

use xxhash_rust::xxh3::Xxh3;

use crate::space::LayeredGame;
use crate::space::{MoveFilter, Space};
use crate::table::TableIdentity;

/// Ranks sampled for the move fingerprint: enough to see any rule or
/// layout change that touches more than a sliver of the space, cheap
/// enough (microseconds) to compute on every open.
const SAMPLES: u64 = 256;

/// Evenly spread ranks of `0..size`, the first and last included.
fn sample(size: u64) -> impl Iterator<Item = u64> {
    let step = (size / SAMPLES).max(1);
    (0..size)
        .step_by(step as usize)
        .take(SAMPLES as usize)
        .chain(size.checked_sub(1))
}

fn hash_u64s(values: impl IntoIterator<Item = u64>) -> u64 {
    let mut hasher = Xxh3::new();
    for value in values {
        hasher.update(&value.to_le_bytes());
    }
    hasher.digest()
}

/// The identity of `space`'s table for `algorithm_label` ("two-bit BFS").
pub fn space_identity<S: Space>(
    space: &S,
    algorithm_label: &str,
    bits_per_state: u32,
) -> TableIdentity {
    let blocks = space.blocks();
    let layout = hash_u64s(blocks.iter().flat_map(|b| [b.start, b.len]));
    let mut state = space.new_state();
    let mut moves = Xxh3::new();
    for rank in sample(space.size()) {
        space.unrank(rank, &mut state);
        moves.update(&space.rank(&state).to_le_bytes());
        space.expand(&state, MoveFilter::All, |successor| {
            moves.update(&successor.to_le_bytes())
        });
        moves.update(&[0xff]);
    }
    let definition = format!(
        "{}layout={} blocks={layout:016x}\nstarts={:016x}\ngoals={:016x}\nmoves={:016x}\n",
        space.definition(),
        blocks.len(),
        hash_u64s(space.start_ranks()),
        hash_u64s(space.goal_ranks()),
        moves.digest()
    );
    TableIdentity {
        descriptor: format!("{}; {algorithm_label}", space.descriptor()),
        definition,
        bits_per_state,
        states: space.size(),
    }
}

/// The descriptor of a table of `game`'s layer `layer` holding what
/// `algorithm_label` says: it names the table's file, so readers that only
/// look a file up build it without the identity's sampling of the moves.
pub fn layer_descriptor<G: LayeredGame>(game: &G, layer: usize, algorithm_label: &str) -> String {
    format!("{}; {algorithm_label}", game.layer_descriptor(layer))
}

/// The identity of the value table of one layer of a two-player game.
pub fn layer_identity<G: LayeredGame>(
    game: &G,
    layer: usize,
    algorithm_label: &str,
    bits_per_state: u32,
) -> TableIdentity {
    let size = game.layer_size(layer);
    let blocks = game.layer_blocks(layer);
    let layout = hash_u64s(blocks.iter().flat_map(|b| [b.start, b.len]));
    let mut state = game.new_state();
    let mut moves = Xxh3::new();
    let with_predecessors = game.predecessors_are_rules() && game.has_predecessors(layer);
    for rank in sample(size) {
        game.unrank(layer, rank, &mut state);
        moves.update(&game.rank(layer, &state).to_le_bytes());
        moves.update(&[game.mover(&state) as u8, game.no_move_value(&state) as u8]);
        let rule = game.rule_value(layer, &state).map_or(0xff, |v| v as u8);
        moves.update(&[rule]);
        game.successors(layer, &state, |successor| {
            moves.update(&(successor.layer as u64).to_le_bytes());
            moves.update(&successor.rank.to_le_bytes());
            true
        });
        moves.update(&[0xfe]);
        if with_predecessors {
            game.predecessors(layer, &state, |rank| moves.update(&rank.to_le_bytes()));
        }
        moves.update(&[0xff]);
    }
    let definition = format!(
        "layout={} blocks={layout:016x}\nsymmetry={}\nmoves={:016x}\n",
        blocks.len(),
        game.reduced_by_symmetry(),
        moves.digest()
    );
    TableIdentity {
        descriptor: layer_descriptor(game, layer, algorithm_label),
        definition,
        bits_per_state,
        states: size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_covers_both_ends_of_small_and_large_spaces() {
        assert_eq!(sample(3).collect::<Vec<_>>(), vec![0, 1, 2, 2]);
        let large: Vec<u64> = sample(1 << 40).collect();
        assert_eq!((large[0], *large.last().unwrap()), (0, (1 << 40) - 1));
        assert_eq!(large.len(), SAMPLES as usize + 1);
        assert_eq!(sample(0).count(), 0);
    }
}
