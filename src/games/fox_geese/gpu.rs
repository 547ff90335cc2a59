//! The GPU's rules of Fox-and-Geese for the retrograde passes:
//! `fox_geese.wgsl` over the same line, step, symmetry and block tables
//! the Rust moves read, so the two cannot disagree.

use super::{CELLS, FoxGeese};
use crate::error::Result;
use crate::kernel::{self, Program};

/// The rules of the GPU's retrograde passes (see [`crate::kernel`]).
const RETRO_KERNEL: &str = include_str!("fox_geese.wgsl");

impl FoxGeese {
    /// `fox_geese.wgsl` over the tables the Rust moves and symmetries read.
    pub(super) fn retro_program(&self, geese: usize) -> Result<Program> {
        let lines: Vec<Vec<u32>> = self
            .lines
            .iter()
            .map(|lines| {
                lines
                    .iter()
                    .map(|line| line.next as u32 | line.beyond.map_or(0xff, |b| b as u32) << 8)
                    .collect()
            })
            .collect();
        let lists = |lists: &[Vec<usize>]| {
            let lists: Vec<Vec<u32>> = lists
                .iter()
                .map(|list| list.iter().map(|&g| g as u32).collect())
                .collect();
            kernel::per_cell_lists(&lists)
        };
        let (line_starts, lines) = kernel::per_cell_lists(&lines);
        let (goose_step_starts, goose_steps) = lists(&self.goose_steps);
        let (goose_origin_starts, goose_origins) = lists(&self.goose_origins);
        let (fixing_starts, fixing) = lists(&self.fixing);
        let (to_canonical_starts, to_canonical) = lists(&self.to_canonical);
        let as_u32 = |cells: &[usize]| cells.iter().map(|&c| c as u32).collect::<Vec<_>>();
        let block_of: Vec<u32> = self
            .block_of
            .iter()
            .map(|block| block.map_or(u32::MAX, |b| b as u32))
            .collect();
        let images: Vec<u32> = self.cell_images.iter().flat_map(|i| as_u32(i)).collect();
        let mut program = Program::default();
        program
            .constant("FG_CELLS", CELLS as u32)
            .constant("FG_CAPTURE_WINS", self.rules.capture_wins as u32)
            .constant("FG_SYMMETRY", self.symmetry as u32)
            .table("FG_LINE_STARTS_AT", &line_starts)
            .table("FG_LINES_AT", &lines)
            .table("FG_GOOSE_STEP_STARTS_AT", &goose_step_starts)
            .table("FG_GOOSE_STEPS_AT", &goose_steps)
            .table("FG_GOOSE_ORIGIN_STARTS_AT", &goose_origin_starts)
            .table("FG_GOOSE_ORIGINS_AT", &goose_origins)
            .table("FG_STORED_CELLS_AT", &as_u32(&self.stored_cells))
            .table("FG_BLOCK_OF_AT", &block_of)
            .table("FG_CANONICAL_CELL_AT", &as_u32(&self.canonical_cell))
            .table("FG_SYMMETRY_IMAGES_AT", &images)
            .table("FG_FIXING_STARTS_AT", &fixing_starts)
            .table("FG_FIXING_AT", &fixing)
            .table("FG_TO_CANONICAL_STARTS_AT", &to_canonical_starts)
            .table("FG_TO_CANONICAL_AT", &to_canonical)
            .binomial_hash()
            // The layer in a table, not a constant: every layer's program
            // is then the same text, compiled once a run.
            .table("FG_GEESE_AT", &[geese as u32])
            .source(RETRO_KERNEL);
        Ok(program)
    }
}
