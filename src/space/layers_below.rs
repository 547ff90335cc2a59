//! Where a layer's moves out of it lie, as a kernel ranks them: in the
//! layer just below, or, for a layer whose moves reach several layers (the
//! Morris opening's last placement, into every moving layer; Lasker
//! Morris's opening, into the layers of one stone fewer in hand or on the
//! board), in those layers laid one after another as one table, each from
//! a word boundary, in the order
//! [`LayerLinks::acyclic_layer`](super::LayerLinks::acyclic_layer) or
//! [`LayerLinks::several_layers_below`](super::LayerLinks::several_layers_below)
//! lists them. The GPU backend builds that table and its blocks from this layout, and a
//! game's WGSL rules number the blocks the same way (a reached layer's
//! blocks follow those of the layers before it), so the two agree by
//! construction.

use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::{Block, LayeredGame};
use crate::error::Result;
use crate::table::TwoBitTable;

/// Cells of a 64-bit table word: each reached layer starts on one.
const CELLS_PER_WORD: u64 = 32;

/// One reached layer's place in the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part {
    layer: usize,
    /// Its first cell in the one table.
    offset: u64,
}

/// The layers below `layer` its moves rank into, and their blocks as one
/// table's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayersBelow {
    parts: Vec<Part>,
    blocks: Vec<Block>,
    cells: u64,
}

impl LayersBelow {
    /// The layout of `layer`'s moves out of it: the layers its
    /// [`acyclic_layer`](crate::space::LayerLinks::acyclic_layer) or
    /// [`several_layers_below`](crate::space::LayerLinks::several_layers_below) lists,
    /// or else the layer just below (none under layer 0).
    pub fn of<G: LayeredGame>(game: &G, layer: usize) -> Self {
        let reached = game
            .acyclic_layer(layer)
            .or_else(|| game.several_layers_below(layer))
            .unwrap_or_else(|| layer.checked_sub(1).into_iter().collect());
        let mut layout = LayersBelow {
            parts: Vec::with_capacity(reached.len()),
            blocks: Vec::new(),
            cells: 0,
        };
        for below in reached {
            let offset = layout.cells;
            layout.parts.push(Part {
                layer: below,
                offset,
            });
            layout
                .blocks
                .extend(game.layer_blocks(below).into_iter().map(|b| Block {
                    start: offset + b.start,
                    len: b.len,
                }));
            layout.cells += game.layer_size(below).div_ceil(CELLS_PER_WORD) * CELLS_PER_WORD;
        }
        layout
    }

    /// Whether the moves reach more than the layer just below, so that a
    /// kernel reads the layers [`joined`](Self::joined) into one table.
    pub fn is_joined(&self, layer: usize) -> bool {
        match self.parts.as_slice() {
            [] => false,
            [only] => Some(only.layer) != layer.checked_sub(1),
            _ => true,
        }
    }

    /// The reached layers, in the layout's order.
    pub fn layers(&self) -> impl Iterator<Item = usize> + '_ {
        self.parts.iter().map(|p| p.layer)
    }

    /// Every reached layer's blocks, numbered and placed as in the one
    /// table.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// Cells of the one table (each layer padded to a whole word).
    pub fn cells(&self) -> u64 {
        self.cells
    }

    /// `rank` of the reached layer `layer` as (block, rank in the block)
    /// of the layout.
    pub fn locate(&self, layer: usize, rank: u64) -> Option<(u32, u32)> {
        let part = self.parts.iter().find(|p| p.layer == layer)?;
        let at = part.offset + rank;
        let block = self.blocks.partition_point(|b| b.start + b.len <= at);
        let found = self.blocks.get(block).filter(|b| b.start <= at)?;
        Some((block as u32, (at - found.start) as u32))
    }

    /// The reached layers' `tables` (in the layout's order) copied into
    /// one table laid out as [`blocks`](Self::blocks) say.
    pub fn joined(&self, descriptor: &str, tables: &[&TwoBitTable]) -> Result<TwoBitTable> {
        assert_eq!(tables.len(), self.parts.len(), "one table a reached layer");
        let joined = TwoBitTable::scratch(descriptor, self.cells, 0)?;
        for (part, table) in self.parts.iter().zip(tables) {
            let at = (part.offset / CELLS_PER_WORD) as usize;
            joined.words()[at..]
                .par_iter()
                .zip(table.words())
                .for_each(|(to, from)| to.store(from.load(Relaxed), Relaxed));
        }
        Ok(joined)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::morris::{Morris, Variant};
    use crate::space::LayerLinks;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn the_last_placement_reaches_the_moving_layers_one_after_another() {
        let game = Morris::with_men(Variant::NineMensMorris, 3, true).unwrap();
        // Three stones a side: moving layers 0..=6, the last placement 7.
        let layout = LayersBelow::of(&game, 7);
        assert!(layout.is_joined(7));
        assert_eq!(layout.layers().collect::<Vec<_>>(), [5, 6]);
        let five = game.layer_blocks(5);
        let words_of_five = game.layer_size(5).div_ceil(CELLS_PER_WORD);
        assert_eq!(&layout.blocks()[..five.len()], &five[..]);
        assert_eq!(
            layout.blocks()[five.len()].start,
            words_of_five * CELLS_PER_WORD
        );
        assert_eq!(
            layout.cells(),
            (words_of_five + game.layer_size(6).div_ceil(CELLS_PER_WORD)) * CELLS_PER_WORD
        );
        // Every rank of either layer is found where the joined table holds it.
        for (layer, offset) in [(5, 0), (6, words_of_five * CELLS_PER_WORD)] {
            for rank in (0..game.layer_size(layer)).step_by(997) {
                let (block, local) = layout.locate(layer, rank).unwrap();
                let block = &layout.blocks()[block as usize];
                assert!(u64::from(local) < block.len);
                assert_eq!(block.start + u64::from(local), offset + rank);
            }
        }
        assert_eq!(layout.locate(4, 0), None, "layer 4 is not reached");
        // The joined table holds each layer's words at its offset.
        let five_table = TwoBitTable::scratch("five", game.layer_size(5), 1).unwrap();
        let six_table = TwoBitTable::scratch("six", game.layer_size(6), 2).unwrap();
        let joined = layout.joined("joined", &[&five_table, &six_table]).unwrap();
        let words = joined.words();
        let at = words_of_five as usize;
        assert!(
            words[..at]
                .iter()
                .zip(five_table.words())
                .all(|(a, b)| a.load(Relaxed) == b.load(Relaxed))
        );
        assert!(
            words[at..]
                .iter()
                .zip(six_table.words())
                .all(|(a, b)| a.load(Relaxed) == b.load(Relaxed))
        );
    }

    #[test]
    fn a_layer_that_moves_within_itself_reads_the_layer_below_alone() {
        let game = Morris::with_men(Variant::NineMensMorris, 3, true).unwrap();
        let layout = LayersBelow::of(&game, 6);
        assert!(!layout.is_joined(6));
        assert_eq!(layout.layers().collect::<Vec<_>>(), [5]);
        assert_eq!(layout.blocks(), &game.layer_blocks(5)[..]);
        assert!(!LayersBelow::of(&game, 0).is_joined(0));
        assert_eq!(LayersBelow::of(&game, 0).layers().count(), 0);
    }

    #[test]
    fn a_lasker_opening_layer_reaches_the_layers_its_game_names() {
        use crate::games::TwoPlayerGame;
        let game = Morris::with_men(Variant::Lasker, 3, false).unwrap();
        let mut joined = 0;
        for layer in 0..=game.max_layer() {
            let Some(reached) = game.several_layers_below(layer) else {
                continue;
            };
            let layout = LayersBelow::of(&game, layer);
            assert_eq!(layout.layers().collect::<Vec<_>>(), reached, "{layer}");
            let sizes: u64 = reached
                .iter()
                .map(|&l| game.layer_size(l).div_ceil(CELLS_PER_WORD) * CELLS_PER_WORD)
                .sum();
            assert_eq!(layout.cells(), sizes, "{layer}");
            joined += usize::from(layout.is_joined(layer));
        }
        assert!(joined > 10, "{joined} joined layers");
    }
}
