//! Retrograde analysis of a game that writes no unmoves. The engine needs
//! a decided position's predecessors (the positions of its layer with a
//! move to it); a kit game gives only its moves, so the kit offers two
//! ways:
//!
//! - [`Unmoves::Graph`]: the layer's reverse graph, built once from the
//!   moves of every position (a count of each position's predecessors,
//!   their offsets, then the predecessors themselves: 4 bytes a position
//!   and 4 a move). It is built only within half the memory the system
//!   has available then; a layer past that is solved as below.
//! - [`Unmoves::Iterate`]: value iteration. The engine's later passes
//!   re-judge every undecided position from its moves until a pass
//!   decides none ([`LayeredGame::has_predecessors`] false).
//!
//! Both give the same values; `docs/adding-a-game.md` compares their times.
//!
//! [`LayeredGame::has_predecessors`]: crate::space::LayeredGame::has_predecessors

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use crate::error::{Error, Result, quoted};

/// How a kit game's layers are solved without unmoves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unmoves {
    /// Each layer's reverse graph, built from the moves (within memory).
    Graph,
    /// Value iteration: passes re-judge every undecided position.
    Iterate,
}

impl Unmoves {
    /// The mode `--unmoves` names: `graph` or `iterate`.
    pub fn parse(text: &str) -> Result<Self> {
        match text.trim() {
            "graph" => Ok(Unmoves::Graph),
            "iterate" => Ok(Unmoves::Iterate),
            other => Err(Error::InvalidParameter(format!(
                "--unmoves is 'graph' (a reverse graph of each layer) or 'iterate' (value iteration), got {}",
                quoted(other)
            ))),
        }
    }
}

/// Ranks per unit of parallel work while building a graph.
const CHUNK: u64 = 1 << 14;

/// The predecessors of every position of one layer, grouped by position:
/// those of rank `r` are `sources[offsets[r]..offsets[r + 1]]`.
#[derive(Debug)]
pub struct ReverseGraph {
    offsets: Vec<u32>,
    sources: Vec<u32>,
}

impl ReverseGraph {
    /// The reverse graph of a layer of `size` ranks, whose position `r`
    /// (when `solved(r)`: with symmetry, a class's representative) has
    /// moves within the layer to the ranks `moves(r, emit)` emits; `None`
    /// when it would take more than `budget` bytes or does not fit 32-bit
    /// ranks.
    pub fn build(
        size: u64,
        budget: u64,
        moves: impl Fn(u64, &mut Vec<u64>) + Sync,
    ) -> Option<Self> {
        // The counts and the offsets first: 8 bytes a position.
        if size >= u64::from(u32::MAX) || size.saturating_mul(8) > budget {
            return None;
        }
        let counts: Vec<AtomicU32> = (0..size).map(|_| AtomicU32::new(0)).collect();
        let each_chunk = |visit: &(dyn Fn(u64, &[u64]) + Sync)| {
            (0..size.div_ceil(CHUNK)).into_par_iter().for_each(|chunk| {
                let mut targets = Vec::new();
                for rank in chunk * CHUNK..((chunk + 1) * CHUNK).min(size) {
                    targets.clear();
                    moves(rank, &mut targets);
                    // Two moves to one position make one predecessor.
                    targets.sort_unstable();
                    targets.dedup();
                    visit(rank, &targets);
                }
            })
        };
        each_chunk(&|_, targets| {
            for &target in targets {
                counts[target as usize].fetch_add(1, Ordering::Relaxed);
            }
        });
        let mut offsets = Vec::with_capacity(size as usize + 1);
        let mut total = 0u64;
        offsets.push(0u32);
        for count in &counts {
            total += u64::from(count.load(Ordering::Relaxed));
            if total > u64::from(u32::MAX) {
                return None;
            }
            offsets.push(total as u32);
        }
        if size
            .saturating_mul(8)
            .saturating_add(total.saturating_mul(4))
            > budget
        {
            return None;
        }
        let sources: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
        // Each position's count becomes the cursor that fills its part
        // from the end.
        each_chunk(&|rank, targets| {
            for &target in targets {
                let left = counts[target as usize].fetch_sub(1, Ordering::Relaxed) - 1;
                let at = offsets[target as usize] + left;
                sources[at as usize].store(rank as u32, Ordering::Relaxed);
            }
        });
        drop(counts);
        Some(ReverseGraph {
            offsets,
            sources: sources.into_iter().map(AtomicU32::into_inner).collect(),
        })
    }

    /// Emits the predecessors of the position of rank `rank`.
    #[inline]
    pub fn predecessors(&self, rank: u64, mut emit: impl FnMut(u64)) {
        let (start, end) = (
            self.offsets[rank as usize] as usize,
            self.offsets[rank as usize + 1] as usize,
        );
        for &source in &self.sources[start..end] {
            emit(u64::from(source));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graph_lists_each_position_that_moves_to_another_once() {
        // Rank r moves to (r + 1) % 7 and (r * 3) % 7, twice to the first.
        let moves = |rank: u64, targets: &mut Vec<u64>| {
            targets.extend([(rank + 1) % 7, (rank * 3) % 7, (rank + 1) % 7]);
        };
        let graph = ReverseGraph::build(7, 1 << 20, moves).unwrap();
        for target in 0..7u64 {
            let mut found = Vec::new();
            graph.predecessors(target, |source| found.push(source));
            found.sort_unstable();
            let mut expected: Vec<u64> = (0..7)
                .filter(|&source| (source + 1) % 7 == target || (source * 3) % 7 == target)
                .collect();
            expected.dedup();
            assert_eq!(found, expected, "target {target}");
        }
        assert!(
            ReverseGraph::build(7, 60, moves).is_none(),
            "over the budget"
        );
        assert_eq!(Unmoves::parse("iterate").unwrap(), Unmoves::Iterate);
        assert!(
            Unmoves::parse("both")
                .unwrap_err()
                .to_string()
                .contains("'both'")
        );
    }
}
