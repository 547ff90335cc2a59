//! The Morris games' rules on the GPU: the program of a layer's
//! retrograde passes, `morris.wgsl` with the board's tables (neighbours,
//! mills) and the hash's as constants and tables (see [`crate::kernel`]).

use super::Morris;
use super::board::POINTS;
use super::hash::LayerKind;
use crate::error::Result;
use crate::kernel::Program;
use crate::space::LayersBelow;

/// The rules of the GPU's retrograde passes (see [`crate::kernel`]).
const RETRO_KERNEL: &str = include_str!("morris.wgsl");

impl Morris {
    /// `morris.wgsl` over the board's tables and the hash's: a moving
    /// layer's passes, the one sweep of an opening layer whose placements
    /// all lead one layer down, or the passes of a layer of Lasker
    /// Morris's opening over the layers its moves leave to.
    pub(super) fn retro_program(&self, layer: usize) -> Result<Program> {
        // The layers the moves rank into, as the backend joins them (the
        // last placement's: every moving layer).
        let below: Vec<usize> = LayersBelow::of(self, layer).layers().collect();
        let tables = self.hash.gpu_layer_tables(layer, &below);
        let game_tables = self.hash.gpu_game_tables();
        let neighbours: Vec<u32> = (0..POINTS).map(|p| self.board.neighbours(p)).collect();
        let mills: Vec<u32> = self
            .board
            .mills()
            .iter()
            .map(|line| line.iter().fold(0, |m, &p| m | 1 << p))
            .collect();
        // Four mills at most pass through a point (three on Morabaraba's
        // corners); the padding is a mask no 24 stones fill.
        let mut point_mills = vec![u32::MAX; 4 * POINTS];
        for point in 0..POINTS {
            let through = mills.iter().filter(|&&mill| mill >> point & 1 == 1);
            for (slot, &mill) in through.enumerate() {
                assert!(slot < 4, "more than four mills through a point");
                point_mills[4 * point + slot] = mill;
            }
        }
        let in_hand = self.hash.in_hand(layer).map(u32::from);
        let below_side_bits = below.first().map_or(0, |&l| self.hash.side_bits(l));
        // What differs between layers of one kind is in tables of the
        // same length in every layer: the text, and so the compiled
        // kernels, are shared (compiling took 0.2 s a layer on lavapipe,
        // about half of a three-stone Lasker Morris's time there).
        let mut program = Program::default();
        program
            .constant("MORRIS_SYMMETRY", self.symmetry() as u32)
            .constant("MORRIS_MILLS", mills.len() as u32)
            .constant(
                "MORRIS_PLACING",
                u32::from(self.hash.kind(layer) == LayerKind::Placing),
            )
            .constant(
                "MORRIS_MIXED",
                u32::from(self.hash.kind(layer) == LayerKind::PlacingOrMoving),
            )
            .constant("MORRIS_SIDE_BITS", self.hash.side_bits(layer))
            .constant("MORRIS_BELOW_SIDE_BITS", below_side_bits)
            .table("MORRIS_IN_HAND_AT", &in_hand)
            .table("MORRIS_NEIGHBOURS_AT", &neighbours)
            .table("MORRIS_MILLS_AT", &mills)
            .table("MORRIS_POINT_MILLS_AT", &point_mills)
            .table("MORRIS_BLOCKS_AT", &tables.blocks)
            .table("MORRIS_BLOCK_OF_AT", &tables.block_of)
            .table("MORRIS_BELOW_BLOCK_OF_AT", &tables.below_block_of)
            .table("MORRIS_SYMMETRIES_AT", &game_tables.symmetries)
            .table("MORRIS_PLACEMENT_STARTS_AT", &game_tables.placement_starts)
            .table("MORRIS_PLACEMENTS_AT", &game_tables.placements)
            .table("MORRIS_PATTERN_STARTS_AT", &game_tables.pattern_starts)
            .table("MORRIS_PATTERNS_AT", &game_tables.patterns)
            .binomial_hash()
            .source(RETRO_KERNEL);
        Ok(program)
    }
}
