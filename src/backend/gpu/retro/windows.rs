//! Where a retrograde layer's tables lie when its values and the layer
//! below do not fit the device together: both are cut into windows of
//! whole host words, and the layer's windows are judged one at a time.
//!
//! A position's moves reach any cell of its own layer and of the layer
//! below, so a window of the layer (the target) is judged in rounds: in
//! each, one other window (the source: another window of the layer, or one
//! of the layer below) lies on the device beside it, and the target's
//! unknown positions see the values of the moves that land in the two.
//! What the moves say is folded into a two-bit tally per position, a
//! lattice in which a move seen twice changes nothing (none < every move
//! lost < a draw < a move still open), so a move whose cell is in the
//! target is looked at in every round and each other move in exactly one.
//! A won move decides its position at once; after the last round the
//! tallies decide the rest. Values only go from unknown to decided, so a
//! source window copied from the host before the target's other windows
//! were judged still shows values of the fixpoint.

use std::ops::Range;

use crate::backend::gpu::pieces::Piece;

/// The smallest window of the layer worth streaming through: below it a
/// pass is thousands of rounds, each generating the moves of every
/// unknown position of its target.
pub(super) const MIN_WINDOW_BYTES: u64 = 4 << 10;

/// The low bit of every two-bit cell of a u32 word.
const ALL_CELLS: u32 = 0x5555_5555;

/// A range of u32 words of a table; both ends even (whole host words), so
/// no host word is shared by two windows.
pub(super) type Words = Range<u64>;

/// What lies beside the target window during a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Source {
    /// Nothing: the target's own moves only.
    Nothing,
    /// A window of the layer's own values.
    Own(Words),
    /// A window of the layer below.
    Lower(Words),
}

/// The windows of one layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct WindowPlan {
    /// The layer's windows, judged one at a time.
    pub targets: Vec<Words>,
    /// The layer below's windows.
    pub lower: Vec<Words>,
    /// u32 words of the device tables: a target window (its values and its
    /// tallies, each) and a source window.
    pub target_words: u64,
    pub source_words: u64,
}

impl WindowPlan {
    /// Windows for a layer of `values_words` u32 words above one of
    /// `lower_words` (0: none) in `budget_words` of device memory, no
    /// table larger than `max_table_words`; `None` when a target window
    /// would be smaller than [`MIN_WINDOW_BYTES`]. The layer's windows
    /// take a third of the budget each (values, tallies, and the same
    /// size again as a source), unless the whole layer takes less; the
    /// layer below's take what is left.
    pub fn new(
        values_words: u64,
        lower_words: u64,
        budget_words: u64,
        max_table_words: u64,
    ) -> Option<Self> {
        let even_down = |words: u64| words & !1;
        let target_words = even_down(values_words.min(budget_words / 3).min(max_table_words));
        if target_words * 4 < MIN_WINDOW_BYTES.min(values_words * 4) || target_words == 0 {
            return None;
        }
        let targets = windows(values_words, target_words);
        let room = even_down((budget_words - 2 * target_words).min(max_table_words));
        let lower_window = lower_words.min(room);
        if lower_words > 0 && lower_window * 4 < MIN_WINDOW_BYTES.min(lower_words * 4) {
            return None;
        }
        let lower = windows(lower_words, lower_window.max(2));
        let own_sources = if targets.len() > 1 { target_words } else { 0 };
        let source_words = own_sources.max(lower_window).max(2);
        Some(WindowPlan {
            targets,
            lower,
            target_words,
            source_words,
        })
    }

    /// The rounds that judge target `target`: each window of the layer
    /// below, then each other window of the layer; one round with nothing
    /// beside it when there is neither. The layer below comes first: its
    /// values are final, so the wins it gives (a capture into a lost
    /// position) are decided in the first rounds, and the positions they
    /// decide are not judged again in the later ones.
    pub fn rounds(&self, target: usize) -> Vec<Source> {
        let mut rounds: Vec<Source> = self.lower.iter().cloned().map(Source::Lower).collect();
        rounds.extend(self.own_rounds(target));
        if rounds.len() > 1 {
            rounds.retain(|r| *r != Source::Nothing);
        }
        rounds
    }

    /// The rounds that copy values from twins into target `target`: each
    /// other window of the layer (twins are in the layer), or nothing.
    pub fn own_rounds(&self, target: usize) -> Vec<Source> {
        let others: Vec<Source> = (0..self.targets.len())
            .filter(|&t| t != target)
            .map(|t| Source::Own(self.targets[t].clone()))
            .collect();
        if others.is_empty() {
            vec![Source::Nothing]
        } else {
            others
        }
    }
}

/// `total` words cut into windows of `size` (the last shorter).
fn windows(total: u64, size: u64) -> Vec<Words> {
    (0..total.div_ceil(size))
        .map(|w| w * size..((w + 1) * size).min(total))
        .collect()
}

/// The parts of `pieces` (of the whole layer's table) that lie in
/// `window`, addressed from the window's first word.
pub(super) fn clip(pieces: &[Piece], window: &Words) -> Vec<Piece> {
    pieces
        .iter()
        .filter_map(|piece| {
            let first = piece.first_word as u64;
            let end = first + piece.words as u64;
            let (start, stop) = (first.max(window.start), end.min(window.end));
            if start >= stop {
                return None;
            }
            let skipped = (start - first) as u32;
            Some(Piece {
                block: piece.block,
                first_word: (start - window.start) as u32,
                words: (stop - start) as u32,
                local_base: piece.local_base.wrapping_add(16 * skipped),
                head_mask: if start == first {
                    piece.head_mask
                } else {
                    ALL_CELLS
                },
                tail_mask: if stop == end {
                    piece.tail_mask
                } else {
                    ALL_CELLS
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::gpu::pieces::pieces_of;
    use crate::space::Block;

    #[test]
    fn a_layer_that_fits_is_one_target_beside_the_windows_of_the_layer_below() {
        let plan = WindowPlan::new(1000, 10_000, 6000, u64::MAX).unwrap();
        assert_eq!(plan.targets, vec![0..1000]);
        // 6000 - 2 * 1000 words are left for the layer below.
        assert_eq!(plan.lower, [0..4000, 4000..8000, 8000..10_000]);
        assert_eq!(plan.source_words, 4000);
        assert_eq!(
            plan.rounds(0),
            [0..4000, 4000..8000, 8000..10_000].map(Source::Lower)
        );
        assert_eq!(plan.own_rounds(0), [Source::Nothing]);
    }

    #[test]
    fn a_large_layer_takes_a_third_of_the_budget_a_window() {
        let plan = WindowPlan::new(10_000, 1000, 9000, u64::MAX).unwrap();
        assert_eq!(plan.target_words, 3000);
        assert_eq!(
            plan.targets,
            [0..3000, 3000..6000, 6000..9000, 9000..10_000]
        );
        assert_eq!(plan.lower, vec![0..1000]);
        assert_eq!(plan.source_words, 3000);
        assert_eq!(
            plan.rounds(1),
            [
                Source::Lower(0..1000),
                Source::Own(0..3000),
                Source::Own(6000..9000),
                Source::Own(9000..10_000),
            ]
        );
        // Odd budgets and binding limits give even windows.
        let plan = WindowPlan::new(10_000, 0, 9001, 2501).unwrap();
        assert_eq!(plan.target_words, 2500);
        assert_eq!(plan.rounds(0).len(), 3);
        assert!(plan.lower.is_empty());
    }

    #[test]
    fn windows_below_the_smallest_are_refused() {
        let words = MIN_WINDOW_BYTES / 4;
        assert!(WindowPlan::new(10 * words, 0, 3 * words - 3, u64::MAX).is_none());
        assert!(WindowPlan::new(10 * words, 0, 3 * words, u64::MAX).is_some());
        // A small layer is its own window, however small.
        assert!(WindowPlan::new(8, 100 * words, 100, u64::MAX).is_none());
        assert!(WindowPlan::new(8, 4, 100, u64::MAX).is_some());
    }

    #[test]
    fn clipped_pieces_cover_each_cell_of_the_layer_once() {
        // Blocks that start and end inside words, cut into pieces of 5
        // words, then into windows of 6 words.
        let blocks = [
            Block { start: 0, len: 37 },
            Block {
                start: 37,
                len: 100,
            },
            Block {
                start: 137,
                len: 90,
            },
        ];
        let pieces: Vec<Piece> = blocks
            .iter()
            .enumerate()
            .flat_map(|(i, b)| pieces_of(i, b, 5, 2))
            .collect();
        let total = 227u64.div_ceil(16);
        let mut seen = vec![0u32; 227];
        for window in windows(total, 6) {
            for piece in clip(&pieces, &window) {
                for index in 0..piece.words {
                    let mut mask = ALL_CELLS;
                    if index == 0 {
                        mask &= piece.head_mask;
                    }
                    if index == piece.words - 1 {
                        mask &= piece.tail_mask;
                    }
                    for cell in 0..16u32 {
                        if mask >> (2 * cell) & 1 == 1 {
                            let global = (window.start + (piece.first_word + index) as u64) * 16
                                + cell as u64;
                            let local = (index * 16 + cell).wrapping_add(piece.local_base);
                            let block = &blocks[piece.block as usize];
                            assert_eq!(block.start + local as u64, global);
                            seen[global as usize] += 1;
                        }
                    }
                }
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
    }
}
