//! The perfect hash of Morris positions, layer by layer: the paper's
//! multinomial hash of two colours on the 24 points — the white stones'
//! pattern, then the black stones' binomial rank among the points white
//! leaves, then the side to move — with the board's 16 symmetries folded
//! out of the white pattern when asked.
//!
//! With symmetry only one white pattern of each orbit (the least mask
//! among its images) is stored, and a position whose white stones lie
//! elsewhere is mapped there first; among the images that keep that
//! pattern (its stabilizer) the least black mask is the stored one. This
//! is the scheme Fox-and-Geese uses with its fox cells: every stored
//! position of a white pattern stands for as many positions as the
//! pattern's orbit has members, so a table's blocks are the patterns
//! grouped by orbit size and weighed by it.
//!
//! Layer t of the moving phase holds the positions with t stones on the
//! board, white and black counts (w, b) from 2 to the stones a side (a
//! side with two has lost, and its blocks are decided by the rules),
//! blocks in order of w, then of orbit size, largest first. Above them
//! come the opening's layers, one per count of stones still in hand (the
//! moving phase's top + h for h stones in hand): white places first, so
//! the count says each side's hand and who moves, and the rank has no
//! side bit; the board holds any counts up to the stones placed.
//!
//! Its parts: the board's symmetries as byte tables (`symmetry`), the
//! white patterns a table stores and where each pattern lies
//! (`patterns`), the ranks and unranks of positions (`rank`), and the
//! tables the GPU's rules read (`gpu_tables`). This file lays the layers
//! out: which counts of stones each holds, in which blocks.

mod gpu_tables;
mod patterns;
mod rank;
mod symmetry;

use std::sync::{Arc, OnceLock};

use super::board::POINTS;
use super::rules::{OpeningRule, Stones};
use crate::error::{Error, Result};
use crate::hash::BinomialRanker;
use patterns::{PatternGroup, Placement, pattern_groups};

pub use gpu_tables::GpuGameTables;
pub use patterns::StoredWhite;
pub use symmetry::SymmetryMaps;

/// Every point, a bit each.
const BOARD: u32 = (1 << POINTS) - 1;

/// The fewest stones a side has in a stored position.
pub const FEWEST_STORED: usize = 2;

/// Counts of one side's stones a layer's flat tables make room for: 0 up
/// to Morabaraba's 12.
const COUNTS: usize = 13;

/// Pattern groups a count of white stones has at most: one per orbit
/// size of the 16 symmetries (16, 8, 4, 2, 1).
const GROUPS: usize = 5;

/// Where a flat per-layer table keeps the block of `w` white and `b`
/// black stones whose white patterns are of group `group`.
#[inline]
fn count_slot(w: usize, b: usize, group: usize) -> usize {
    (w * COUNTS + b) * GROUPS + group
}

/// [`HashLayer::block_at`] where the layer has no such block.
const NO_BLOCK: u32 = u32::MAX;

/// One block of a layer: white count, black count, and a group of white
/// patterns of one orbit size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashBlock {
    /// White stones on the board.
    pub white: usize,
    /// Black stones on the board.
    pub black: usize,
    /// The group (orbit size) of its white patterns.
    pub group: usize,
    /// The rank of the block's first position in its layer.
    pub start: u64,
    /// The number of positions the block stores.
    pub len: u64,
    /// Positions each stored one stands for.
    pub weight: u64,
}

/// Where a move out of a layer of Lasker Morris's opening leads: a capture
/// by a stone moved on the board to one stone fewer on the board; a
/// placement to one stone fewer in the placer's hand and one more on the
/// board, or as many when it takes one. The GPU's rules number them so
/// (`morris.wgsl`'s MORRIS_TO_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MixedTarget {
    /// A stone moved on the board closed a mill and took a stone.
    MovedAndTook,
    /// White placed a stone and took none.
    WhitePlaced,
    /// White placed a stone that closed a mill and took one.
    WhitePlacedAndTook,
    /// Black placed a stone and took none.
    BlackPlaced,
    /// Black placed a stone that closed a mill and took one.
    BlackPlacedAndTook,
}

impl MixedTarget {
    /// Every kind, in the GPU rules' order.
    pub const ALL: [MixedTarget; 5] = [
        MixedTarget::MovedAndTook,
        MixedTarget::WhitePlaced,
        MixedTarget::WhitePlacedAndTook,
        MixedTarget::BlackPlaced,
        MixedTarget::BlackPlacedAndTook,
    ];
}

/// What a layer holds, and so how it is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerKind {
    /// Every stone on the board (or lost); moves stay in the layer, a
    /// capture leads one layer down.
    Moving,
    /// The opening of a placing-only game: one count of stones in hand
    /// and its side to move; every move (a placement) leaves the layer.
    Placing,
    /// Lasker Morris's opening: one pair of hands and one count of stones
    /// on the board, either side to move; moves stay, placements and
    /// captures leave.
    PlacingOrMoving,
}

/// One layer's layout.
#[derive(Clone, Debug)]
struct HashLayer {
    kind: LayerKind,
    blocks: Vec<HashBlock>,
    /// At [`count_slot`]`(w, b, group)`: the block's index in the layer
    /// ([`NO_BLOCK`] where the layer has none) and its first rank. Flat,
    /// because the solver ranks every move it looks at: nested vectors
    /// cost it a chain of dependent loads a rank.
    block_at: Vec<u32>,
    block_start: Vec<u64>,
    /// 1 when a rank's last bit is the side to move (the moving phase),
    /// 0 when the stones in hand say who moves (the opening).
    side_bits: u32,
    /// The stones in hand of every position of the layer, white's and
    /// black's.
    in_hand: [u8; 2],
}

/// The ranks of every layer of a Morris game: the moving phase's layers
/// 0..=[`moving_top`](MorrisHash::moving_top) by stones on the board, then
/// the opening's, one per count of stones still in hand.
#[derive(Clone, Debug)]
pub struct MorrisHash {
    stones: usize,
    maps: Option<SymmetryMaps>,
    /// `groups[w]`: the stored white patterns of w stones.
    groups: Vec<Vec<PatternGroup>>,
    /// `whites[w]`: ranks of w white stones among the 24 points.
    whites: Vec<BinomialRanker>,
    /// With symmetry, `placements[w][rank]`: where the white pattern of
    /// that rank is stored.
    placements: Vec<Vec<Placement>>,
    /// `blacks[w][b]`: b black stones among the 24 − w points left.
    blacks: Vec<Vec<BinomialRanker>>,
    layers: Vec<HashLayer>,
    /// Under [`OpeningRule::PlacingOrMoving`], the layer of (white's hand,
    /// black's hand, stones on the board), `usize::MAX` where none.
    mixed_layers: Vec<usize>,
    /// [`gpu_game_tables`](Self::gpu_game_tables), once asked for.
    gpu_game_tables: OnceLock<Arc<GpuGameTables>>,
}

impl MorrisHash {
    /// The ranks for up to `stones` stones a side, folded by the board's
    /// symmetries when `symmetry` is set, with the opening's layers laid
    /// out for `opening`'s rule.
    pub fn new(stones: usize, symmetry: bool, opening: OpeningRule) -> Result<Self> {
        if !(3..=POINTS / 2).contains(&stones) {
            return Err(Error::InvalidParameter(format!(
                "a Morris side has 3 to {} stones, got {stones}",
                POINTS / 2
            )));
        }
        let maps = symmetry.then(SymmetryMaps::new);
        let (groups, placements) = (0..=stones)
            .map(|w| pattern_groups(w, maps.as_ref()))
            .collect::<Result<(Vec<_>, Vec<_>)>>()?;
        let whites = (0..=stones)
            .map(|w| BinomialRanker::new(POINTS, w))
            .collect::<Result<Vec<_>>>()?;
        let blacks = (0..=stones)
            .map(|w| {
                (0..=stones.min(POINTS - w))
                    .map(|b| BinomialRanker::new(POINTS - w, b))
                    .collect::<Result<Vec<_>>>()
            })
            .collect::<Result<Vec<_>>>()?;
        let mut hash = MorrisHash {
            stones,
            maps,
            groups,
            whites,
            placements,
            blacks,
            layers: Vec::new(),
            mixed_layers: Vec::new(),
            gpu_game_tables: OnceLock::new(),
        };
        for layer in 0..=hash.moving_top() {
            let counts = hash.moving_counts(layer);
            hash.layers
                .push(hash.layout(LayerKind::Moving, &counts, [0, 0]));
        }
        match opening {
            OpeningRule::Placing => hash.lay_out_placing(),
            OpeningRule::PlacingOrMoving => hash.lay_out_placing_or_moving(),
        }
        Ok(hash)
    }

    /// The opening's layers of a placing-only game: one per count of
    /// stones in hand, from one to all.
    fn lay_out_placing(&mut self) {
        let stones = self.stones;
        for held in 1..=2 * stones {
            // White places first: with white to move both hands are equal,
            // with black to move black's holds one more.
            let white = (held / 2) as u8;
            let in_hand = [white, held as u8 - white];
            let counts: Vec<(usize, usize)> = (0..=stones - in_hand[0] as usize)
                .flat_map(|w| (0..=stones - in_hand[1] as usize).map(move |b| (w, b)))
                .collect();
            self.layers
                .push(self.layout(LayerKind::Placing, &counts, in_hand));
        }
    }

    /// Lasker Morris's opening: a layer per pair of hands and count of
    /// stones on the board, by stones in hand and then on the board, so
    /// that what a move leaves to (a placement: one stone fewer in hand; a
    /// capture: one fewer on the board) is solved before. The board holds
    /// any counts up to the stones not in hand, each side keeping at least
    /// two in all (with two it has lost), not both at two.
    fn lay_out_placing_or_moving(&mut self) {
        let stones = self.stones;
        let on_board = 2 * stones;
        self.mixed_layers = vec![usize::MAX; (stones + 1) * (stones + 1) * (on_board + 1)];
        for held in 1..=2 * stones {
            for white_hand in held.saturating_sub(stones)..=held.min(stones) {
                let black_hand = held - white_hand;
                for total in 0..=on_board {
                    let counts: Vec<(usize, usize)> = (0..=stones - white_hand)
                        .filter_map(|w| {
                            let b = total.checked_sub(w)?;
                            let (white_left, black_left) = (w + white_hand, b + black_hand);
                            let fits = b + black_hand <= stones
                                && w + b <= POINTS
                                && white_left >= FEWEST_STORED
                                && black_left >= FEWEST_STORED
                                && white_left + black_left > 2 * FEWEST_STORED;
                            fits.then_some((w, b))
                        })
                        .collect();
                    if counts.is_empty() {
                        continue;
                    }
                    let in_hand = [white_hand as u8, black_hand as u8];
                    let index = self.mixed_index(in_hand, total);
                    self.mixed_layers[index] = self.layers.len();
                    self.layers
                        .push(self.layout(LayerKind::PlacingOrMoving, &counts, in_hand));
                }
            }
        }
    }

    #[inline]
    fn mixed_index(&self, in_hand: [u8; 2], on_board: usize) -> usize {
        let side = self.stones + 1;
        ((in_hand[0] as usize) * side + in_hand[1] as usize) * (2 * self.stones + 1) + on_board
    }

    /// Under Lasker Morris's rule, the layer of positions with `in_hand`
    /// and `on_board` stones on the board, if there is one.
    pub fn mixed_layer(&self, in_hand: [u8; 2], on_board: usize) -> Option<usize> {
        if in_hand[0] as usize > self.stones
            || in_hand[1] as usize > self.stones
            || on_board > 2 * self.stones
        {
            return None;
        }
        self.mixed_layers
            .get(self.mixed_index(in_hand, on_board))
            .copied()
            .filter(|&layer| layer != usize::MAX)
    }

    /// The blocks of a layer of the (white, black) counts `counts`.
    fn layout(&self, kind: LayerKind, counts: &[(usize, usize)], in_hand: [u8; 2]) -> HashLayer {
        // The side to move is a rank's last bit, except where the hands
        // say it (a placing-only opening).
        let side_bits = u32::from(kind != LayerKind::Placing);
        let mut blocks = Vec::new();
        let mut block_at = vec![NO_BLOCK; COUNTS * COUNTS * GROUPS];
        let mut block_start = vec![0; COUNTS * COUNTS * GROUPS];
        let mut start = 0;
        for &(white, black) in counts {
            let per_pattern = self.blacks[white][black].size() << side_bits;
            for (group, patterns) in self.groups[white].iter().enumerate() {
                let len = patterns.len() * per_pattern;
                block_at[count_slot(white, black, group)] = blocks.len() as u32;
                block_start[count_slot(white, black, group)] = start;
                blocks.push(HashBlock {
                    white,
                    black,
                    group,
                    start,
                    len,
                    weight: patterns.orbit,
                });
                start += len;
            }
        }
        HashLayer {
            kind,
            blocks,
            block_at,
            block_start,
            side_bits,
            in_hand,
        }
    }

    /// The most stones a side has.
    pub fn stones(&self) -> usize {
        self.stones
    }

    /// Whether only the least white pattern of each orbit under the board's symmetries is
    /// stored.
    pub fn symmetry(&self) -> bool {
        self.maps.is_some()
    }

    /// The symmetries' lookup tables, when the hash folds them out.
    pub fn maps(&self) -> Option<&SymmetryMaps> {
        self.maps.as_ref()
    }

    /// The moving phase's (white, black) counts of layer `layer`: each
    /// side 2..=stones (not both at 2), on the board's 24 points.
    fn moving_counts(&self, layer: usize) -> Vec<(usize, usize)> {
        (FEWEST_STORED..=self.stones)
            .filter_map(|white| {
                let black = layer.checked_sub(white)?;
                let fits = (FEWEST_STORED..=self.stones).contains(&black)
                    && white + black <= POINTS
                    && white + black > 2 * FEWEST_STORED;
                fits.then_some((white, black))
            })
            .collect()
    }

    /// The (white, black) counts on the board of layer `layer`'s
    /// positions, in rank order.
    pub fn counts_of_layer(&self, layer: usize) -> Vec<(usize, usize)> {
        let mut counts: Vec<(usize, usize)> = self
            .blocks(layer)
            .iter()
            .map(|block| (block.white, block.black))
            .collect();
        counts.dedup();
        counts
    }

    /// The moving phase's highest layer: every stone on the board.
    pub fn moving_top(&self) -> usize {
        (2 * self.stones).min(POINTS)
    }

    /// The highest layer: the opening's start, every stone in hand (the
    /// moving phase's top without the opening).
    pub fn max_layer(&self) -> usize {
        self.layers.len() - 1
    }

    /// The stones on the board of every position of `layer`, where the
    /// layer fixes them (the moving phase, Lasker Morris's opening).
    pub fn on_board(&self, layer: usize) -> Option<usize> {
        match self.kind(layer) {
            LayerKind::Placing => None,
            _ => self
                .blocks(layer)
                .first()
                .map(|block| block.white + block.black),
        }
    }

    /// The layer of the positions with `in_hand` and `on_board` stones on
    /// the board, when one layer holds them all: a moving layer (hands
    /// empty) or one of Lasker Morris's opening; none where no position
    /// of those counts is stored.
    pub fn layer_holding(&self, in_hand: [u8; 2], on_board: usize) -> Option<usize> {
        if in_hand != [0, 0] {
            return self.mixed_layer(in_hand, on_board);
        }
        (on_board <= self.moving_top() && self.layer_size(on_board) > 0).then_some(on_board)
    }

    /// The layer a move of `target`'s kind leads to from `layer`, one of
    /// Lasker Morris's opening; None where no position is stored there
    /// (so no such move is made: a hand already empty, a board without a
    /// stone to take).
    pub fn mixed_target(&self, layer: usize, target: MixedTarget) -> Option<usize> {
        let in_hand = self.in_hand(layer);
        let on_board = self.on_board(layer)?;
        let placed = |side: usize, took: bool| {
            let mut hands = in_hand;
            hands[side] = hands[side].checked_sub(1)?;
            self.layer_holding(hands, on_board + usize::from(!took))
        };
        match target {
            MixedTarget::MovedAndTook => on_board
                .checked_sub(1)
                .and_then(|fewer| self.layer_holding(in_hand, fewer)),
            MixedTarget::WhitePlaced => placed(0, false),
            MixedTarget::WhitePlacedAndTook => placed(0, true),
            MixedTarget::BlackPlaced => placed(1, false),
            MixedTarget::BlackPlacedAndTook => placed(1, true),
        }
    }

    /// What `layer` holds.
    pub fn kind(&self, layer: usize) -> LayerKind {
        self.layers[layer].kind
    }

    /// The stones in hand, white's and black's, in `layer`.
    pub fn in_hand(&self, layer: usize) -> [u8; 2] {
        self.layers[layer].in_hand
    }

    /// 1 when the last bit of `layer`'s ranks is the side to move, 0 when
    /// the layer's positions all have the same side to move.
    #[inline]
    pub fn side_bits(&self, layer: usize) -> u32 {
        self.layers[layer].side_bits
    }

    /// The blocks of `layer` in rank order (none past the highest layer).
    pub fn blocks(&self, layer: usize) -> &[HashBlock] {
        self.layers.get(layer).map_or(&[], |l| l.blocks.as_slice())
    }

    /// The number of positions stored in `layer`.
    pub fn layer_size(&self, layer: usize) -> u64 {
        self.blocks(layer).last().map_or(0, |b| b.start + b.len)
    }

    /// The layer of a position: its stones on the board in the moving
    /// phase; in a placing-only opening, the layer above the moving
    /// phase's top by the stones in hand; in Lasker Morris's, the layer of
    /// its hands and stones on the board (`usize::MAX` if none: a position
    /// the hash does not hold).
    #[inline]
    pub fn layer_of(&self, stones: &Stones) -> usize {
        let on_board = (stones.white.count_ones() + stones.black.count_ones()) as usize;
        if !stones.placing() {
            on_board
        } else if self.mixed_layers.is_empty() {
            self.moving_top() + usize::from(stones.in_hand[0] + stones.in_hand[1])
        } else {
            self.mixed_layer(stones.in_hand, on_board)
                .unwrap_or(usize::MAX)
        }
    }

    /// Whether this hash ranks `stones`: counts and stones in hand within
    /// its layers (the side to move matching the hands in the opening).
    pub fn holds(&self, stones: &Stones) -> bool {
        let layer = self.layer_of(stones);
        let Some(hash_layer) = self.layers.get(layer) else {
            return false;
        };
        let w = stones.white.count_ones() as usize;
        let b = stones.black.count_ones() as usize;
        let side_fits = hash_layer.side_bits == 1
            || stones.white_to_move == (hash_layer.in_hand[0] == hash_layer.in_hand[1]);
        hash_layer.in_hand == stones.in_hand
            && side_fits
            && w <= self.stones
            && b <= self.stones
            && hash_layer.block_at[count_slot(w, b, 0)] != NO_BLOCK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_cover_the_counts_of_stones() {
        let full = MorrisHash::new(9, false, OpeningRule::Placing).unwrap();
        assert!(full.counts_of_layer(4).is_empty());
        assert_eq!(full.counts_of_layer(5), vec![(2, 3), (3, 2)]);
        assert_eq!(full.counts_of_layer(18), vec![(9, 9)]);
        // 9-9: C(24, 9) · C(15, 9), both sides to move.
        assert_eq!(full.layer_size(18), 2 * 1_307_504 * 5_005);
        // The opening: the start alone on top, then hands (8, 9) with
        // black to place: a white stone or none on the board.
        assert_eq!(full.max_layer(), 36);
        assert_eq!(full.layer_size(36), 1);
        assert_eq!(full.in_hand(35), [8, 9]);
        assert_eq!(full.counts_of_layer(35), vec![(0, 0), (1, 0)]);
        assert_eq!(full.layer_size(35), 1 + 24);
        // The last placement: black's ninth, onto up to 9 white and 8 black.
        assert_eq!(full.in_hand(19), [0, 1]);
        assert_eq!(full.counts_of_layer(19).len(), 10 * 9);
        let morabaraba = MorrisHash::new(12, false, OpeningRule::Placing).unwrap();
        assert_eq!(morabaraba.moving_top(), 24);
        assert_eq!(morabaraba.max_layer(), 48);
        assert_eq!(morabaraba.layer_size(24), 2 * 2_704_156);
        // Lasker Morris: the moving phase as Nine Men's Morris's with ten
        // stones, then a layer per pair of hands and stones on the board.
        let lasker = MorrisHash::new(10, false, OpeningRule::PlacingOrMoving).unwrap();
        assert_eq!(lasker.moving_top(), 20);
        assert_eq!(lasker.counts_of_layer(20), vec![(10, 10)]);
        assert_eq!(lasker.kind(20), LayerKind::Moving);
        // The start, both sides to move, is the last layer.
        let start = lasker.mixed_layer([10, 10], 0).unwrap();
        assert_eq!((start, lasker.layer_size(start)), (lasker.max_layer(), 2));
        assert_eq!(lasker.kind(start), LayerKind::PlacingOrMoving);
        // Black's last stone in hand, 19 on the board: 10 white, 9 black.
        let last = lasker.mixed_layer([0, 1], 19).unwrap();
        assert_eq!(lasker.counts_of_layer(last), vec![(10, 9)]);
        assert_eq!(lasker.in_hand(last), [0, 1]);
        assert_eq!(lasker.layer_size(last), 2 * 1_961_256 * 2_002);
        // A side keeps two stones at least (with two it has lost), and
        // not both two.
        assert_eq!(lasker.mixed_layer([1, 0], 3), None);
        let low = lasker.mixed_layer([1, 0], 4).unwrap();
        assert_eq!(lasker.counts_of_layer(low), vec![(1, 3), (2, 2)]);
        assert_eq!(lasker.mixed_layer([1, 1], 2), None);
        assert_eq!(lasker.mixed_layer([11, 0], 2), None);
        // Layers come by stones in hand, then on the board: what a move
        // leaves to is solved before.
        for (hands, board) in [([3, 4], 6), ([1, 0], 5), ([5, 5], 1)] {
            let layer = lasker.mixed_layer(hands, board).unwrap();
            for below in [
                lasker.mixed_layer(hands, board - 1),
                lasker.mixed_layer([hands[0].saturating_sub(1), hands[1]], board + 1),
            ]
            .into_iter()
            .flatten()
            {
                assert!(below < layer);
            }
        }
        assert!(MorrisHash::new(13, false, OpeningRule::Placing).is_err());
        assert!(MorrisHash::new(2, false, OpeningRule::Placing).is_err());
    }
}
