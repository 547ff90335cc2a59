//! The GPU's rules of Dodgem for the retrograde passes: `dodgem.wgsl`
//! over the same step tables the Rust moves read.

use super::{BLUE_STEPS, Dodgem, RED_STEPS};
use crate::error::Result;
use crate::kernel::Program;

/// The rules of the GPU's retrograde passes (see [`crate::kernel`]).
const RETRO_KERNEL: &str = include_str!("dodgem.wgsl");

impl Dodgem {
    /// `dodgem.wgsl` over the Rust step tables.
    pub(super) fn retro_program(&self, layer: usize) -> Result<Program> {
        let steps = |steps: &[(i32, i32)]| -> Vec<u32> {
            steps
                .iter()
                .flat_map(|&(row, column)| [row as u32, column as u32])
                .collect()
        };
        let mut program = Program::default();
        program
            .constant("DODGEM_N", self.n as u32)
            .constant("DODGEM_SQUARES", (self.n * self.n) as u32)
            .constant("DODGEM_CARS", self.cars() as u32)
            .constant("DODGEM_ALL_SQUARES", self.all_squares() as u32)
            .table("DODGEM_BLUE_STEPS_AT", &steps(&BLUE_STEPS))
            .table("DODGEM_RED_STEPS_AT", &steps(&RED_STEPS))
            .binomial_hash()
            // The layer in a table, not a constant: every layer's program
            // is then the same text, compiled once a run.
            .table("DODGEM_LAYER_AT", &[layer as u32])
            .source(RETRO_KERNEL);
        Ok(program)
    }
}
