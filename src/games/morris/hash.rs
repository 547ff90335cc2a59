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

use std::sync::{Arc, OnceLock};

use super::board::{POINTS, apply, symmetries};
use super::rules::{OpeningRule, Stones};
use crate::error::{Error, Result};
use crate::hash::binomial::BINOMIALS;
use crate::hash::bits::{compress, expand};
use crate::hash::{BinomialRanker, BinomialRun};

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

/// The board's 16 symmetries as one small lookup table. A point's bit is
/// `8 * square + place`, and a symmetry turns and mirrors every square
/// alike (a quarter turn moves each place by two, a mirror takes place p
/// to 8 − p), then may exchange the inner and outer squares: so the image
/// of each square's byte comes from one table of 256 bytes for each of
/// the 8 turns and mirrors (2 KiB), and the exchange swaps the outer
/// bytes. Symmetry `index` is `8 * exchange + 4 * mirror + turn`, the
/// order of [`symmetries`].
///
/// It replaced a table of 32-bit images for each symmetry and byte (48
/// KiB, more than the 32 KiB first-level cache, where the profile found
/// ranks waiting on it): no faster beyond the machine's drift on Nine
/// Men's Morris's layer 11, but smaller. Shifts alone, without a table,
/// were slower in the move benchmark.
#[derive(Clone, Debug)]
pub struct SymmetryMaps {
    /// The image of a square's byte under each turn and mirror.
    squares: [[u8; 256]; TURNS_AND_MIRRORS],
    /// The turns and mirrors that keep a square's byte, a bit each.
    keeping: [u8; 256],
}

/// Symmetries of the board, the identity included.
const SYMMETRIES: usize = 16;

/// Symmetries that keep every square: the 8 of the square.
const TURNS_AND_MIRRORS: usize = 8;

impl SymmetryMaps {
    /// The lookup table of the board's 16 symmetries.
    pub fn new() -> Self {
        let all = symmetries();
        let squares = std::array::from_fn(|index| {
            std::array::from_fn(|bits| apply(&all[index], bits as u32) as u8)
        });
        let keeping = std::array::from_fn(|bits| {
            (0..TURNS_AND_MIRRORS)
                .filter(|&index| usize::from(squares[index][bits]) == bits)
                .fold(0, |mask, index| mask | 1 << index)
        });
        SymmetryMaps { squares, keeping }
    }

    /// The number of symmetries, the identity included.
    pub fn len(&self) -> usize {
        SYMMETRIES
    }

    /// Whether there are no symmetries.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The image of `stones` under symmetry `index` (0 is the identity).
    #[inline]
    pub fn apply(&self, index: usize, stones: u32) -> u32 {
        debug_assert!(index < SYMMETRIES && stones & !BOARD == 0);
        let square = &self.squares[index % TURNS_AND_MIRRORS];
        let image = u32::from(square[(stones & 0xff) as usize])
            | u32::from(square[(stones >> 8 & 0xff) as usize]) << 8
            | u32::from(square[(stones >> 16 & 0xff) as usize]) << 16;
        // The exchange of the inner and outer squares, without a branch:
        // the symmetries a rank tries vary from call to call.
        let exchanged = image.swap_bytes() >> 8;
        if index >= TURNS_AND_MIRRORS {
            exchanged
        } else {
            image
        }
    }

    /// The symmetries that keep `stones`, a bit each, the identity
    /// included: from a byte table a square, without the 16 images. A
    /// turn or mirror keeps the points if it keeps each square's byte; one
    /// that also exchanges the inner and outer squares, if it takes each
    /// of them to the other and keeps the middle one.
    #[inline]
    pub fn stabilizer_of(&self, stones: u32) -> u16 {
        let [inner, middle, outer, _] = stones.to_le_bytes();
        let keeps_middle = self.keeping[usize::from(middle)];
        let square_wise = u16::from(
            self.keeping[usize::from(inner)] & keeps_middle & self.keeping[usize::from(outer)],
        );
        if inner.count_ones() != outer.count_ones() {
            return square_wise;
        }
        let mut exchanging = 0u16;
        let mut rest = keeps_middle;
        while rest != 0 {
            let index = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let square = &self.squares[index];
            if square[usize::from(inner)] == outer && square[usize::from(outer)] == inner {
                exchanging |= 1 << (TURNS_AND_MIRRORS + index);
            }
        }
        square_wise | exchanging
    }

    /// The least image of `stones` and the symmetries that map it there, a
    /// bit each.
    #[inline]
    pub fn canonical(&self, stones: u32) -> (u32, u16) {
        let mut least = stones;
        let mut to_least = 1u16;
        for index in 1..SYMMETRIES {
            let image = self.apply(index, stones);
            if image < least {
                least = image;
                to_least = 1 << index;
            } else if image == least {
                to_least |= 1 << index;
            }
        }
        (least, to_least)
    }
}

impl Default for SymmetryMaps {
    fn default() -> Self {
        Self::new()
    }
}

/// The white patterns of one count that a table stores, with the same
/// orbit size: every pattern (without symmetry), or the least of each
/// orbit of that size, in increasing order.
#[derive(Clone, Debug)]
enum Patterns {
    Every(BinomialRanker),
    Least(Vec<u32>),
}

#[derive(Clone, Debug)]
struct PatternGroup {
    /// Positions each stored one stands for: the orbit's size (1 without
    /// symmetry).
    orbit: u64,
    patterns: Patterns,
}

impl PatternGroup {
    fn len(&self) -> u64 {
        match &self.patterns {
            Patterns::Every(ranker) => ranker.size(),
            Patterns::Least(list) => list.len() as u64,
        }
    }

    #[inline]
    fn pattern(&self, index: u64) -> u32 {
        match &self.patterns {
            Patterns::Every(ranker) => ranker.unrank(index) as u32,
            Patterns::Least(list) => list[index as usize],
        }
    }
}

/// Where a white pattern is stored, packed in a word: its stored
/// pattern's index in its group (bits 24..), the group (16..24) and the
/// symmetries that map it to the stored pattern (0..16, a bit each).
#[derive(Clone, Copy, Debug)]
struct Placement(u64);

impl Placement {
    fn new(index: u64, group: usize, to_least: u16) -> Self {
        Placement(index << 24 | (group as u64) << 16 | to_least as u64)
    }

    #[inline]
    fn index(self) -> u64 {
        self.0 >> 24
    }

    #[inline]
    fn group(self) -> usize {
        (self.0 >> 16 & 0xff) as usize
    }

    #[inline]
    fn to_least(self) -> u16 {
        self.0 as u16
    }
}

/// The stored white patterns of `count` stones, grouped by orbit size
/// (largest first), and with symmetry where each pattern is stored, by
/// the pattern's binomial rank: one lookup instead of the 16 images and a
/// search on every rank (the solver ranks every move it looks at).
fn pattern_groups(
    count: usize,
    maps: Option<&SymmetryMaps>,
) -> Result<(Vec<PatternGroup>, Vec<Placement>)> {
    let ranker = BinomialRanker::new(POINTS, count)?;
    let Some(maps) = maps else {
        let every = PatternGroup {
            orbit: 1,
            patterns: Patterns::Every(ranker),
        };
        return Ok((vec![every], Vec::new()));
    };
    let mut by_orbit: Vec<(u64, Vec<u32>)> = Vec::new();
    let mut canonical = Vec::with_capacity(ranker.size() as usize);
    for rank in 0..ranker.size() {
        let pattern = ranker.unrank(rank) as u32;
        let (least, to_least) = maps.canonical(pattern);
        canonical.push((least, to_least));
        if least != pattern {
            continue;
        }
        // The symmetries mapping a least pattern to itself are its
        // stabilizer; the orbit has 16 / |stabilizer| members.
        let orbit = (maps.len() / to_least.count_ones() as usize) as u64;
        match by_orbit.iter_mut().find(|(o, _)| *o == orbit) {
            Some((_, list)) => list.push(pattern),
            None => by_orbit.push((orbit, vec![pattern])),
        }
    }
    by_orbit.sort_by_key(|(orbit, _)| std::cmp::Reverse(*orbit));
    // Ranks ascend with masks (colex order), so each list is sorted.
    let placements = canonical
        .iter()
        .map(|&(least, to_least)| {
            let orbit = (maps.len() / to_least.count_ones() as usize) as u64;
            let group = by_orbit.iter().position(|(o, _)| *o == orbit).unwrap();
            let index = by_orbit[group].1.binary_search(&least).unwrap();
            Placement::new(index as u64, group, to_least)
        })
        .collect();
    let groups = by_orbit
        .into_iter()
        .map(|(orbit, patterns)| PatternGroup {
            orbit,
            patterns: Patterns::Least(patterns),
        })
        .collect();
    Ok((groups, placements))
}

/// Where a white pattern is stored ([`MorrisHash::stored_white`]): the
/// stored pattern, its group and index, the symmetry that maps the
/// pattern there and the others that do too (their least black image is
/// the stored one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredWhite {
    /// The stored pattern.
    pub stored: u32,
    /// Its group (orbit size) among the patterns of its count.
    pub group: usize,
    /// Its index in that group.
    pub index: u64,
    /// The first symmetry mapping the pattern to the stored one.
    pub symmetry: usize,
    /// The other symmetries that do, a bit each.
    pub also: u16,
}

impl StoredWhite {
    /// The stored black stones of a position with this white pattern and
    /// `black`: the least image under the symmetries that store the
    /// pattern (as [`MorrisHash::stored`] finds them).
    #[inline(always)]
    pub fn black_image(&self, maps: Option<&SymmetryMaps>, black: u32) -> u32 {
        let Some(maps) = maps else {
            return black;
        };
        let mut image = maps.apply(self.symmetry, black);
        let mut rest = self.also;
        while rest != 0 {
            let index = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            image = image.min(maps.apply(index, black));
        }
        image
    }
}

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

/// One layer's part of the hash as the GPU's rules read it
/// ([`MorrisHash::gpu_layer_tables`]). Every table has the same length in
/// every layer, so that the rules' text, where the tables' offsets are
/// constants, is the same and its kernels are compiled once.
#[derive(Clone, Debug, Default)]
pub struct GpuLayerTables {
    /// `(white, black, group)` of each block of the layer, three words a
    /// block, padded to the most blocks a layer can have.
    pub blocks: Vec<u32>,
    /// The block index in the layer at each `(w * 13 + b) * 5 + group`
    /// slot; `u32::MAX` where there is none.
    pub block_of: Vec<u32>,
    /// The same for the layers the moves reach, their blocks numbered one
    /// after another (`LayersBelow`): apart from `block_of`, since an
    /// opening layer and the one below can hold the same counts. One
    /// table per kind of move out of the layer, in [`MixedTarget`] order:
    /// in Lasker Morris's opening two reached layers can hold the same
    /// counts; elsewhere their counts are disjoint and the first table
    /// holds them all.
    pub below_block_of: Vec<u32>,
}

/// The game's part of the hash as the GPU's rules read it, the same for
/// every layer ([`MorrisHash::gpu_game_tables`]): with symmetry, where
/// every white pattern is stored (empty without).
#[derive(Clone, Debug, Default)]
pub struct GpuGameTables {
    /// Three 256-entry byte maps per symmetry.
    pub symmetries: Vec<u32>,
    /// Where each white count's placements begin in `placements`.
    pub placement_starts: Vec<u32>,
    /// Two words per white pattern, by binomial rank: its stored pattern's
    /// index, and its group (bits 16..) with the symmetries mapping it
    /// there (bits 0..16).
    pub placements: Vec<u32>,
    /// Where each white count's and group's stored patterns begin in
    /// `patterns`, at `5 * w + group`.
    pub pattern_starts: Vec<u32>,
    /// The stored white patterns, as masks of points.
    pub patterns: Vec<u32>,
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

    /// The rank of the stored position `stones` (white's pattern is the
    /// stored one of index `index` in group `group`) in its layer.
    ///
    /// Always inlined, as is [`stored`](Self::stored): the solver ranks
    /// every move it looks at, and as calls their positions and results
    /// went through the stack (an opening layer's sweep took a fifth
    /// longer).
    #[inline(always)]
    pub fn stored_rank(&self, group: usize, index: u64, stones: &Stones) -> u64 {
        let w = stones.white.count_ones() as usize;
        let b = stones.black.count_ones() as usize;
        let layer = &self.layers[self.layer_of(stones)];
        let start = layer.block_start[count_slot(w, b, group)];
        // The black stones' ranker of (w, b) is C(24 − w, b): computed
        // here rather than loaded from `blacks`, a load less on each rank.
        let free_points = POINTS - w;
        let patterns_of_black = BINOMIALS[free_points][b];
        let free = (!stones.white & BOARD) as u64;
        let pattern = index * patterns_of_black
            + BinomialRanker::rank_of_bits(free_points, compress(stones.black as u64, free));
        // The side's bit is masked off where the layer fixes the side.
        let side = u64::from(!stones.white_to_move) & u64::from(layer.side_bits);
        start + (pattern << layer.side_bits) + side
    }

    /// The stored position that stands for `stones`, with its white
    /// pattern's group and index there.
    #[inline(always)]
    pub fn stored(&self, stones: &Stones) -> (Stones, usize, u64) {
        let place = self.stored_white(stones.white);
        let stored = Stones {
            white: place.stored,
            black: place.black_image(self.maps.as_ref(), stones.black),
            ..*stones
        };
        (stored, place.group, place.index)
    }

    /// The stored white pattern of index `index` in group `group` of the
    /// patterns of `w` stones.
    pub fn stored_pattern(&self, w: usize, group: usize, index: u64) -> u32 {
        self.groups[w][group].pattern(index)
    }

    /// The `b` black stones of rank `rank` among the 24 − `w` points
    /// white leaves, packed into the low 24 − `w` bits.
    pub fn black_pattern(&self, w: usize, b: usize, rank: u64) -> u64 {
        self.blacks[w][b].unrank(rank)
    }

    /// Where a white pattern of any shape is stored ([`StoredWhite`]):
    /// [`stored`](Self::stored) finds it for each position it ranks, the
    /// opening's sweep once for the positions that share the pattern.
    #[inline(always)]
    pub fn stored_white(&self, white: u32) -> StoredWhite {
        let w = white.count_ones() as usize;
        let white_rank = self.whites[w].rank(white as u64);
        let Some(maps) = &self.maps else {
            return StoredWhite {
                stored: white,
                group: 0,
                index: white_rank,
                symmetry: 0,
                also: 0,
            };
        };
        let placement = self.placements[w][white_rank as usize];
        let to_least = placement.to_least();
        let symmetry = to_least.trailing_zeros() as usize;
        StoredWhite {
            stored: maps.apply(symmetry, white),
            group: placement.group(),
            index: placement.index(),
            symmetry,
            also: to_least & (to_least - 1),
        }
    }

    /// The rank in `layer` of the first position whose white pattern is
    /// the stored one of `index` in group `group`, with `w` white and `b`
    /// black stones (the black stones' rank, shifted past the side's bit,
    /// is added to it); `None` where the layer holds no such block.
    pub fn pattern_base(
        &self,
        layer: usize,
        (w, b): (usize, usize),
        group: usize,
        index: u64,
    ) -> Option<u64> {
        let hash_layer = self.layers.get(layer)?;
        let slot = count_slot(w, b, group);
        if w >= COUNTS || b >= COUNTS || hash_layer.block_at[slot] == NO_BLOCK {
            return None;
        }
        let patterns_of_black = BINOMIALS[POINTS - w][b];
        Some(hash_layer.block_start[slot] + ((index * patterns_of_black) << hash_layer.side_bits))
    }

    /// Where the ranks of the stored white pattern `white` lie: its
    /// group and index (as [`stored`](Self::stored) finds them).
    #[inline]
    pub fn white_place(&self, white: u32) -> (usize, u64) {
        let w = white.count_ones() as usize;
        let white_rank = self.whites[w].rank(white as u64);
        match &self.maps {
            None => (0, white_rank),
            Some(_) => {
                let placement = self.placements[w][white_rank as usize];
                (placement.group(), placement.index())
            }
        }
    }

    /// [`rank`](Self::rank) of a position whose white pattern is a stored
    /// one, of place `place` ([`white_place`](Self::white_place)) and
    /// stabilizer `stabilizer`, without looking the pattern up again: the
    /// symmetries that keep it are those that bring it to its least image.
    /// A move of black's, or a placement, keeps white's pattern, and its
    /// place is the position's.
    #[inline]
    pub fn rank_with_stored_white(
        &self,
        place: (usize, u64),
        stabilizer: u16,
        stones: &Stones,
    ) -> u64 {
        let mut black = stones.black;
        if let Some(maps) = &self.maps {
            let mut rest = stabilizer;
            while rest != 0 {
                let index = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                black = black.min(maps.apply(index, stones.black));
            }
        }
        self.stored_rank(place.0, place.1, &Stones { black, ..*stones })
    }

    /// The rank of any position of the stored counts in its layer.
    #[inline]
    pub fn rank(&self, stones: &Stones) -> u64 {
        let (stored, group, index) = self.stored(stones);
        self.stored_rank(group, index, &stored)
    }

    /// The stored position at `rank` of layer `layer`.
    #[inline]
    pub fn unrank(&self, layer: usize, rank: u64) -> Stones {
        self.unrank_into_run(layer, rank, &mut BinomialRun::default())
    }

    /// [`unrank`](Self::unrank), leaving in `run` the black patterns of
    /// the ranks that follow with the same white pattern, keyed by
    /// `rank >> side_bits(layer)` (in the moving phase both sides of a
    /// position are neighbours): a scan then unranks them with a lookup
    /// and [`expand`].
    #[inline]
    pub fn unrank_into_run(&self, layer: usize, rank: u64, run: &mut BinomialRun) -> Stones {
        let hash_layer = &self.layers[layer];
        let blocks = &hash_layer.blocks;
        let shift = hash_layer.side_bits;
        let block = &blocks[blocks.partition_point(|b| b.start + b.len <= rank)];
        let within = rank - block.start;
        let blacks = &self.blacks[block.white][block.black];
        let index = (within >> shift) / blacks.size();
        let white = self.groups[block.white][block.group].pattern(index);
        let first = (block.start >> shift) + index * blacks.size();
        let packed = blacks.unrank_into_run(rank >> shift, first, run);
        let white_to_move = if shift == 1 {
            within & 1 == 0
        } else {
            hash_layer.in_hand[0] == hash_layer.in_hand[1]
        };
        Stones {
            white,
            black: expand(packed, (!white & BOARD) as u64) as u32,
            white_to_move,
            in_hand: hash_layer.in_hand,
        }
    }

    /// The tables the GPU's rules read for layer `layer` (see
    /// `morris.wgsl`): its blocks, and the index of every block of `layer`
    /// and of the layers its moves reach (`below`, in the order their
    /// blocks follow one another: `LayersBelow`) by (w, b, group).
    pub fn gpu_layer_tables(&self, layer: usize, below: &[usize]) -> GpuLayerTables {
        let slots = COUNTS * COUNTS * GROUPS;
        let mut blocks: Vec<u32> = self
            .blocks(layer)
            .iter()
            .flat_map(|b| [b.white as u32, b.black as u32, b.group as u32])
            .collect();
        blocks.resize(3 * slots, 0);
        // Each reached layer's first block in the one table.
        let first_blocks: Vec<u32> = below
            .iter()
            .scan(0, |first, &reached| {
                let at = *first;
                *first += self.layers[reached].blocks.len() as u32;
                Some(at)
            })
            .collect();
        let numbered = |to: &mut [u32], reached: usize, first: u32| {
            for (slot, &index) in self.layers[reached].block_at.iter().enumerate() {
                if index != NO_BLOCK {
                    debug_assert_eq!(to[slot], NO_BLOCK, "disjoint counts");
                    to[slot] = first + index;
                }
            }
        };
        let mut below_block_of = vec![NO_BLOCK; MixedTarget::ALL.len() * slots];
        if self.kind(layer) == LayerKind::PlacingOrMoving {
            let tables = below_block_of.chunks_mut(slots);
            for (target, table) in MixedTarget::ALL.iter().zip(tables) {
                let reached = self.mixed_target(layer, *target);
                if let Some(at) = below.iter().position(|&l| Some(l) == reached) {
                    numbered(table, below[at], first_blocks[at]);
                }
            }
        } else {
            for (&reached, &first) in below.iter().zip(&first_blocks) {
                numbered(&mut below_block_of[..slots], reached, first);
            }
        }
        GpuLayerTables {
            blocks,
            block_of: self.layers[layer].block_at.clone(),
            below_block_of,
        }
    }

    /// The tables the GPU's rules read in every layer (see `morris.wgsl`):
    /// with symmetry the byte maps, and the placements and stored
    /// patterns of every white count (from none: the opening's boards may
    /// hold fewer than two). Built once: with twelve stones a side they
    /// are 80 MB.
    pub fn gpu_game_tables(&self) -> &GpuGameTables {
        self.gpu_game_tables.get_or_init(|| {
            let mut tables = GpuGameTables::default();
            let Some(maps) = &self.maps else {
                return Arc::new(tables);
            };
            for symmetry in 0..maps.len() {
                for byte in 0..3 {
                    tables
                        .symmetries
                        .extend((0..256u32).map(|bits| maps.apply(symmetry, bits << (8 * byte))));
                }
            }
            tables.placement_starts = vec![0; COUNTS];
            tables.pattern_starts = vec![0; COUNTS * GROUPS];
            for w in 0..=self.stones {
                tables.placement_starts[w] = tables.placements.len() as u32;
                for placement in &self.placements[w] {
                    tables.placements.extend([
                        placement.index() as u32,
                        (placement.group() as u32) << 16 | placement.to_least() as u32,
                    ]);
                }
                for (group, patterns) in self.groups[w].iter().enumerate() {
                    tables.pattern_starts[GROUPS * w + group] = tables.patterns.len() as u32;
                    if let Patterns::Least(list) = &patterns.patterns {
                        tables.patterns.extend(list);
                    }
                }
            }
            Arc::new(tables)
        })
    }

    /// The symmetries other than the identity that keep `white` (a stored
    /// pattern), a bit each; none without symmetry.
    pub fn stabilizer(&self, white: u32) -> u16 {
        self.maps
            .as_ref()
            .map_or(0, |maps| maps.canonical(white).1 & !1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::splitmix64;

    fn random_stones(hash: &MorrisHash, seed: u64) -> Stones {
        let layers: Vec<usize> = (0..=hash.max_layer())
            .filter(|&l| hash.layer_size(l) > 0)
            .collect();
        let layer = layers[(splitmix64(seed) % layers.len() as u64) as usize];
        let blocks = hash.blocks(layer);
        let size = blocks.last().unwrap().start + blocks.last().unwrap().len;
        // Unranked, then scrambled by a random symmetry.
        let stored = hash.unrank(layer, splitmix64(seed ^ 7) % size);
        let symmetry = (splitmix64(seed ^ 9) % 16) as usize;
        let maps = SymmetryMaps::new();
        Stones {
            white: maps.apply(symmetry, stored.white),
            black: maps.apply(symmetry, stored.black),
            ..stored
        }
    }

    #[test]
    fn the_stabilizer_from_square_bytes_is_the_symmetries_that_keep_the_points() {
        let maps = SymmetryMaps::new();
        let by_images = |stones: u32| -> u16 {
            (0..SYMMETRIES)
                .filter(|&index| maps.apply(index, stones) == stones)
                .fold(0, |mask, index| mask | 1 << index)
        };
        let mut kept_by_more = 0;
        for seed in 0..200_000u64 {
            let r = splitmix64(seed);
            // Random points, and unions of the orbits of a few points (kept
            // by some symmetry far more often than random ones).
            let stones = if seed % 2 == 0 {
                (r & u64::from(BOARD)) as u32 & (splitmix64(r) as u32 | splitmix64(!r) as u32)
            } else {
                let mut stones = 0;
                for i in 0..1 + r % 3 {
                    let point = splitmix64(r ^ i) % POINTS as u64;
                    let symmetries = splitmix64(r ^ (i << 8)) as u16 | 1;
                    for index in (0..SYMMETRIES).filter(|&x| symmetries >> x & 1 == 1) {
                        stones |= maps.apply(index, 1 << point);
                    }
                }
                stones
            };
            let expected = by_images(stones);
            assert_eq!(maps.stabilizer_of(stones), expected, "{stones:024b}");
            kept_by_more += u32::from(expected != 1);
        }
        assert!(kept_by_more > 10_000, "{kept_by_more}");
    }

    #[test]
    fn a_stored_white_pattern_ranks_without_its_lookup_as_with_it() {
        for symmetry in [false, true] {
            let hash = MorrisHash::new(9, symmetry, OpeningRule::Placing).unwrap();
            for seed in 0..20_000u64 {
                let (stored, _, _) = hash.stored(&random_stones(&hash, seed));
                // Black's stones put anywhere else on the free points, as
                // a black move or placement would (counts kept).
                let free = !stored.white & BOARD;
                let mut black = 0u32;
                let mut points: Vec<u32> = (0..24).filter(|p| free >> p & 1 == 1).collect();
                for i in 0..stored.black.count_ones() as usize {
                    let pick =
                        i + (splitmix64(seed ^ i as u64) % (points.len() - i) as u64) as usize;
                    points.swap(i, pick);
                    black |= 1 << points[i];
                }
                let moved = Stones { black, ..stored };
                let place = hash.white_place(moved.white);
                let stabilizer = hash.stabilizer(moved.white);
                assert_eq!(
                    hash.rank_with_stored_white(place, stabilizer, &moved),
                    hash.rank(&moved),
                    "{moved:?}"
                );
            }
        }
    }

    #[test]
    fn ranks_invert_unranks_over_small_layers_and_samples() {
        let maps = SymmetryMaps::new();
        for symmetry in [false, true] {
            let hash = MorrisHash::new(9, symmetry, OpeningRule::Placing).unwrap();
            // Two small layers of the moving phase, and the opening's
            // smallest: every stone in hand down to six each (up to 3-3
            // on the board, one side to move).
            let opening = hash.moving_top() + 12..=hash.max_layer();
            for layer in (5..=6).chain(opening) {
                let mut representatives = 0;
                for rank in 0..hash.layer_size(layer) {
                    let stones = hash.unrank(layer, rank);
                    assert_eq!(hash.layer_of(&stones), layer);
                    assert!(hash.holds(&stones));
                    assert_eq!(stones.white & stones.black, 0);
                    // With symmetry a pattern kept by some symmetries is
                    // stored with each image of black's stones under them,
                    // and the least of those is the one ranks lead to.
                    let stabilizer = hash.stabilizer(stones.white);
                    let least = (1..16)
                        .filter(|s| stabilizer >> s & 1 == 1)
                        .all(|s| maps.apply(s, stones.black) >= stones.black);
                    let ranked = hash.rank(&stones);
                    if least {
                        assert_eq!(ranked, rank, "{stones:?}");
                        representatives += 1;
                    } else {
                        assert_eq!(hash.rank(&hash.unrank(layer, ranked)), ranked);
                    }
                }
                // (The opening's small layers have patterns with many
                // symmetries, and so fewer representatives.)
                assert!(
                    hash.kind(layer) != LayerKind::Moving
                        || representatives > hash.layer_size(layer) / 2,
                    "{representatives} of {}",
                    hash.layer_size(layer)
                );
            }
            for seed in 0..20_000 {
                let stones = random_stones(&hash, seed);
                let layer = hash.layer_of(&stones);
                let rank = hash.rank(&stones);
                let stored = hash.unrank(layer, rank);
                // The stored twin ranks to itself and is an image.
                assert_eq!(hash.rank(&stored), rank);
                assert!((0..16).any(|s| {
                    maps.apply(s, stones.white) == stored.white
                        && maps.apply(s, stones.black) == stored.black
                }));
                assert_eq!(stored.white_to_move, stones.white_to_move);
                assert_eq!(stored.in_hand, stones.in_hand);
            }
        }
    }

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

    #[test]
    fn stored_patterns_weighed_by_orbit_cover_the_layers_as_burnside_counts() {
        let full = MorrisHash::new(9, false, OpeningRule::Placing).unwrap();
        let folded = MorrisHash::new(9, true, OpeningRule::Placing).unwrap();
        let all = symmetries();
        for layer in [5, 6, 9, 13, 18] {
            let covered: u64 = folded.blocks(layer).iter().map(|b| b.len * b.weight).sum();
            assert_eq!(covered, full.layer_size(layer), "layer {layer}");
        }
        // Burnside on the white patterns of 4 stones: orbits are the
        // average number of patterns a symmetry fixes.
        let ranker = BinomialRanker::new(POINTS, 4).unwrap();
        let fixed: u64 = all
            .iter()
            .map(|s| {
                (0..ranker.size())
                    .filter(|&r| {
                        let p = ranker.unrank(r) as u32;
                        apply(s, p) == p
                    })
                    .count() as u64
            })
            .sum();
        let orbits: u64 = folded.groups[4].iter().map(PatternGroup::len).sum();
        assert_eq!(folded.placements[4].len() as u64, ranker.size());
        assert_eq!(orbits * all.len() as u64, fixed);
        // The symmetric table is about a sixteenth of the full one.
        let ratio = full.layer_size(18) as f64 / folded.layer_size(18) as f64;
        assert!((15.5..16.0).contains(&ratio), "{ratio}");
    }

    #[test]
    fn the_lookup_maps_agree_with_the_point_maps() {
        let maps = SymmetryMaps::new();
        let all = symmetries();
        assert_eq!(maps.len(), all.len());
        // Every value of each square's byte, the other two at random.
        let each_byte = (0..3u32).flat_map(|byte| {
            (0..256u32).map(move |bits| {
                let rest = splitmix64(u64::from(byte << 8 | bits)) as u32 & !(0xff << (8 * byte));
                (rest | bits << (8 * byte)) & BOARD
            })
        });
        let random = (0..1000).map(|seed| splitmix64(seed) as u32 & BOARD);
        for stones in each_byte.chain(random) {
            for (index, symmetry) in all.iter().enumerate() {
                assert_eq!(maps.apply(index, stones), apply(symmetry, stones));
            }
        }
    }
}
