//! What each game gives the GPU: its expansion kernel (`shaders/<game>.wgsl`)
//! and the rule tables the CPU expansion itself reads (flip lengths, twist
//! swaps, jump and move lists), so a rule is written once and both backends
//! apply the same one.

use super::shader::{self, Program};
use crate::error::{Error, Result};
use crate::games::{FrogsToads, Pancake, PegSolitaire, SlidingTile, TopSpin};
use crate::space::Space;

/// A space the GPU backend can expand.
pub trait GpuRules: Space {
    /// The game's kernel program, or [`Error::Unsupported`] saying why this
    /// instance cannot run on the GPU.
    fn gpu_program(&self) -> Result<Program>;
}

fn unsupported(what: String) -> Error {
    Error::Unsupported(format!("{what} (run it with --backend cpu)"))
}

/// Offsets into the move lists of each cell, then the lists: the layout of
/// the per-cell tables of Peg Solitaire and Frogs-and-Toads.
fn per_cell_lists(lists: &[Vec<u32>]) -> (Vec<u32>, Vec<u32>) {
    let mut starts = vec![0u32];
    let mut entries = Vec::new();
    for list in lists {
        entries.extend_from_slice(list);
        starts.push(entries.len() as u32);
    }
    (starts, entries)
}

impl GpuRules for Pancake {
    fn gpu_program(&self) -> Result<Program> {
        let flips: Vec<u32> = self.flip_lengths().map(|k| k as u32).collect();
        let mut program = Program::default();
        program
            .constant("PANCAKES", self.n() as u32)
            .constant("BURNED", self.burned() as u32)
            .constant("FLIP_COUNT", flips.len() as u32)
            .table("FLIPS_AT", &flips)
            .permutation_hash(self.n())
            .source(shader::PANCAKE);
        Ok(program)
    }
}

impl GpuRules for TopSpin {
    fn gpu_program(&self) -> Result<Program> {
        let n = self.tokens();
        let mut swaps = Vec::new();
        for start in 0..n {
            for (a, b) in self.twist_swaps(start) {
                swaps.extend([a as u32, b as u32]);
            }
        }
        let mut program = Program::default();
        program
            .constant("TOKENS", n as u32)
            .constant("FOLDED", self.is_folded() as u32)
            .constant("TWIST_SWAPS", (swaps.len() / (2 * n)) as u32)
            .table("TWISTS_AT", &swaps)
            .permutation_hash(n)
            .source(shader::TOP_SPIN);
        Ok(program)
    }
}

impl GpuRules for SlidingTile {
    fn gpu_program(&self) -> Result<Program> {
        let odd: Vec<u32> = self.odd_orders().iter().map(|&o| o as u32).collect();
        let mut program = Program::default();
        program
            .constant("WIDTH", self.width() as u32)
            .constant("HEIGHT", self.height() as u32)
            .table("ODD_AT", &odd)
            .permutation_hash(self.cells())
            .source(shader::SLIDING_TILE);
        Ok(program)
    }
}

impl GpuRules for PegSolitaire {
    fn gpu_program(&self) -> Result<Program> {
        if self.symmetry_count() > 1 {
            return Err(unsupported(
                "--symmetry is not implemented in the GPU kernels".into(),
            ));
        }
        let cells = self.cells();
        let lists: Vec<Vec<u32>> = (0..cells)
            .map(|to| {
                self.jumps_into(to)
                    .flat_map(|emptied| [emptied as u32, (emptied >> 32) as u32])
                    .collect()
            })
            .collect();
        let (mut starts, jumps) = per_cell_lists(&lists);
        // Offsets count jumps, two words each.
        starts.iter_mut().for_each(|start| *start /= 2);
        let mut program = Program::default();
        program
            .constant("CELLS", cells as u32)
            .table("JUMP_STARTS_AT", &starts)
            .table("JUMPS_AT", &jumps)
            .binomial_hash()
            .source(shader::PEG_SOLITAIRE);
        Ok(program)
    }
}

impl GpuRules for FrogsToads {
    fn gpu_program(&self) -> Result<Program> {
        let cells = self.board().cells();
        let lists: Vec<Vec<u32>> = (0..cells)
            .map(|empty| self.movers(empty).iter().map(|&c| c as u32).collect())
            .collect();
        let (starts, movers) = per_cell_lists(&lists);
        let mut program = Program::default();
        program
            .constant("CELLS", cells as u32)
            .constant("BLACK_PIECES", self.black_pieces() as u32)
            .table("MOVER_STARTS_AT", &starts)
            .table("MOVERS_AT", &movers)
            .binomial_hash()
            .source(shader::FROGS_TOADS);
        Ok(program)
    }
}
