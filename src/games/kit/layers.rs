//! The kit's ranking: a layer is a list of blocks, each block one
//! [`Contents`] (pieces of each kind on the board, stones in hand), and a
//! position's rank in its block is its board's colour-set rank
//! ([`ColourSetRanker`], the cells' kinds as colours, empty the first)
//! times two plus the side to move. The game declares the layers; the
//! kit numbers them.

use std::collections::HashMap;

use super::position::{EMPTY, Position};
use crate::error::{Error, Result};
use crate::hash::ColourSetRanker;
use crate::space::{Block, Player};

/// What every position of one block holds: pieces of each kind on the
/// board (in the order of the game's pieces) and stones in each side's
/// hand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Contents {
    /// Pieces of each kind on the board.
    pub on_board: Vec<u8>,
    /// Stones in hand: the first player's, then the second's.
    pub in_hand: [u8; 2],
}

impl Contents {
    /// `on_board` pieces of each kind on the board, none in hand.
    pub fn board(on_board: &[u8]) -> Self {
        Contents {
            on_board: on_board.to_vec(),
            in_hand: [0, 0],
        }
    }

    /// What `position` holds, over `cells` cells and `kinds` kinds.
    pub fn of(position: &Position, cells: usize, kinds: usize) -> Self {
        let mut on_board = vec![0u8; kinds];
        for &what in position.cells(cells) {
            if what != EMPTY {
                on_board[what as usize - 1] += 1;
            }
        }
        Contents {
            on_board,
            in_hand: [position.hand(Player::First), position.hand(Player::Second)],
        }
    }
}

/// One block: its contents, where it starts in its layer, its hash.
#[derive(Clone, Debug)]
struct KitBlock {
    contents: Contents,
    start: u64,
    ranker: ColourSetRanker,
}

/// Every layer's blocks, and the way from a position's contents to its
/// layer and block.
#[derive(Clone, Debug)]
pub struct LayerTable {
    cells: usize,
    kinds: usize,
    layers: Vec<Vec<KitBlock>>,
    /// (layer, block) of each contents, by the dense key of
    /// [`key`](Self::key).
    place: Vec<Option<(u32, u32)>>,
    /// Radix of each count in the key: pieces of each kind, then hands.
    radices: Vec<usize>,
    sizes: Vec<u64>,
}

/// The most kinds of pieces a kit game may have (a cell's byte numbers
/// them, and the level sets are a small array).
pub const MAX_KINDS: usize = 15;

/// A board as level sets ([`LayerTable::levels`]).
pub type Levels = [u64; MAX_KINDS + 1];

/// The most keys the dense contents table may have (a few MB).
const MAX_KEYS: usize = 1 << 22;

impl LayerTable {
    /// The table of `layers` (each a list of block contents, a layer's
    /// blocks in order) over a board of `cells` cells with `kinds` kinds
    /// of pieces. Refused when a contents is listed twice, does not fit
    /// the board, or a layer does not fit a 64-bit rank.
    pub fn new(cells: usize, kinds: usize, layers: &[Vec<Contents>]) -> Result<Self> {
        let most_in_hand = layers
            .iter()
            .flatten()
            .flat_map(|contents| contents.in_hand)
            .max()
            .unwrap_or(0) as usize;
        let mut radices = vec![cells + 1; kinds];
        radices.extend([most_in_hand + 1; 2]);
        let keys = radices
            .iter()
            .try_fold(1usize, |product, &radix| product.checked_mul(radix))
            .filter(|&keys| keys <= MAX_KEYS)
            .ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "{kinds} kinds of pieces on {cells} cells with up to {most_in_hand} in hand have too many contents to index"
                ))
            })?;
        let mut table = LayerTable {
            cells,
            kinds,
            layers: Vec::with_capacity(layers.len()),
            place: vec![None; keys],
            radices,
            sizes: Vec::with_capacity(layers.len()),
        };
        let mut seen = HashMap::new();
        for (layer, blocks) in layers.iter().enumerate() {
            let mut start = 0u64;
            let mut kit_blocks = Vec::with_capacity(blocks.len());
            for (index, contents) in blocks.iter().enumerate() {
                let pieces: usize = contents.on_board.iter().map(|&n| n as usize).sum();
                if contents.on_board.len() != kinds || pieces > cells {
                    return Err(Error::InvalidParameter(format!(
                        "layer {layer} lists {:?} pieces of {kinds} kinds on {cells} cells",
                        contents.on_board
                    )));
                }
                if let Some(other) = seen.insert(contents.clone(), layer) {
                    return Err(Error::InvalidParameter(format!(
                        "contents {contents:?} are listed in layers {other} and {layer}"
                    )));
                }
                let mut counts = vec![(cells - pieces) as u8];
                counts.extend(&contents.on_board);
                let ranker = ColourSetRanker::new(&counts)?;
                let len = ranker.size().checked_mul(2);
                let key = table.key(contents);
                table.place[key] = Some((layer as u32, index as u32));
                kit_blocks.push(KitBlock {
                    contents: contents.clone(),
                    start,
                    ranker,
                });
                start = len.and_then(|len| start.checked_add(len)).ok_or_else(|| {
                    Error::SpaceTooLarge(format!("layer {layer} does not fit a 64-bit rank"))
                })?;
            }
            table.layers.push(kit_blocks);
            table.sizes.push(start);
        }
        Ok(table)
    }

    /// The dense index of a contents.
    fn key(&self, contents: &Contents) -> usize {
        let counts = contents
            .on_board
            .iter()
            .map(|&n| n as usize)
            .chain(contents.in_hand.iter().map(|&n| n as usize));
        counts
            .zip(&self.radices)
            .fold(0, |key, (count, radix)| key * radix + count)
    }

    /// The number of layers.
    pub fn layers(&self) -> usize {
        self.layers.len()
    }

    /// Ranks in layer `layer`.
    pub fn size(&self, layer: usize) -> u64 {
        self.sizes[layer]
    }

    /// Layer `layer`'s blocks, in order.
    pub fn blocks(&self, layer: usize) -> Vec<Block> {
        self.layers[layer]
            .iter()
            .map(|block| Block {
                start: block.start,
                len: 2 * block.ranker.size(),
            })
            .collect()
    }

    /// `position`'s board as level sets: `above[j]` the cells holding a
    /// piece of kind j or a later kind (the colour-set hash's level j,
    /// kind k being colour k + 1); zero past the last kind. Inlined
    /// always: returned from a call, the array's copy stalled on the
    /// stores that wrote it (a quarter of a Quixo run).
    #[inline(always)]
    pub fn levels(&self, position: &Position) -> Levels {
        let mut above = [0u64; MAX_KINDS + 1];
        let mut later = 0;
        for kind in (0..self.kinds).rev() {
            later |= position.cells_holding(kind as u8 + 1, self.cells);
            above[kind] = later;
        }
        above
    }

    /// The (layer, block) of `position`, counted from its cells; `None`
    /// when no layer holds its contents.
    #[inline]
    pub fn place_of(&self, position: &Position) -> Option<(usize, usize)> {
        self.place_of_levels(&self.levels(position), position)
    }

    /// [`place_of`](Self::place_of) with the board's level sets at hand.
    #[inline]
    pub fn place_of_levels(&self, above: &Levels, position: &Position) -> Option<(usize, usize)> {
        let mut key = 0usize;
        for (kind, radix) in self.radices[..self.kinds].iter().enumerate() {
            let count = (above[kind] & !above[kind + 1]).count_ones();
            key = key * radix + count as usize;
        }
        let hand_radix = self.radices[self.kinds];
        for side in [Player::First, Player::Second] {
            let held = position.hand(side) as usize;
            if held >= hand_radix {
                return None;
            }
            key = key * hand_radix + held;
        }
        self.place[key].map(|(layer, block)| (layer as usize, block as usize))
    }

    /// The rank of `position`, in layer `layer`'s block `block`, with the
    /// board `cells` (the position's own, or an image under a symmetry).
    #[inline]
    pub fn rank_in(&self, layer: usize, block: usize, cells: &[u8], to_move: Player) -> u64 {
        let block = &self.layers[layer][block];
        block.start + 2 * block.ranker.rank(cells) + to_move as u64
    }

    /// The rank of the position whose level sets (the cells holding a
    /// colour above j, kind k being colour k + 1) are `above`, in layer
    /// `layer`'s block `block`.
    #[inline]
    pub fn rank_sets_in(&self, layer: usize, block: usize, above: &[u64], to_move: Player) -> u64 {
        let block = &self.layers[layer][block];
        block.start + 2 * block.ranker.rank_sets(above) + to_move as u64
    }

    /// The kinds of pieces: the levels of a block's hash.
    pub fn kinds(&self) -> usize {
        self.kinds
    }

    /// The position at `rank` of layer `layer`, written into `position`.
    pub fn unrank(&self, layer: usize, rank: u64, position: &mut Position) {
        let blocks = &self.layers[layer];
        let index = blocks.partition_point(|block| block.start <= rank) - 1;
        let block = &blocks[index];
        let within = rank - block.start;
        block
            .ranker
            .unrank(within / 2, position.cells_mut(self.cells));
        position.set_hand(Player::First, block.contents.in_hand[0]);
        position.set_hand(Player::Second, block.contents.in_hand[1]);
        position.set_to_move(Player::first_if(within.is_multiple_of(2)));
    }
}
