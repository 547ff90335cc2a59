//! The GPU's expansion of Peg Solitaire: `peg_solitaire.wgsl` over the
//! jumps landing in each cell, the same rule table the CPU's jump classes
//! are checked against.

use super::PegSolitaire;
use crate::error::Result;
use crate::kernel::{self, Program};

/// The GPU expansion of this game (see [`crate::kernel`]).
const PEG_SOLITAIRE_KERNEL: &str = include_str!("peg_solitaire.wgsl");

impl PegSolitaire {
    /// The program of the GPU's expansion (see [`crate::kernel`]).
    pub(super) fn kernel_program(&self) -> Result<Program> {
        if self.symmetry_count() > 1 {
            return Err(kernel::unsupported(
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
        let (mut starts, jumps) = kernel::per_cell_lists(&lists);
        // Offsets count jumps, two words each.
        starts.iter_mut().for_each(|start| *start /= 2);
        let mut program = Program::default();
        program
            .constant("CELLS", cells as u32)
            .table("JUMP_STARTS_AT", &starts)
            .table("JUMPS_AT", &jumps)
            .binomial_hash()
            .source(PEG_SOLITAIRE_KERNEL);
        Ok(program)
    }
}
