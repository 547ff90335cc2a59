//! The hash's tables as the GPU's rules read them (`morris.wgsl`): a
//! layer's blocks and where the blocks of the layers its moves reach lie,
//! and the game's symmetries, placements and stored patterns, built once.

use std::sync::Arc;

use super::patterns::Patterns;
use super::{COUNTS, GROUPS, LayerKind, MixedTarget, MorrisHash, NO_BLOCK};

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

impl MorrisHash {
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
}
