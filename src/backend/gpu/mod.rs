//! The GPU backend: wgpu compute kernels written in WGSL, with the search
//! table resident in device memory.
//!
//! - `device`: adapter, device, queue, error scopes.
//! - [`shader`]: a game's [`Program`](crate::kernel::Program) joined with an
//!   algorithm's entry points and compiled.
//! - `table`: a one- or two-bit table in windows of device memory.
//! - `kernel_cache`: the kernels the device has compiled, by their source.
//! - `kernel_set`: the pipelines of one compiled module, the bindings they
//!   share (parameters, rule tables, counters, table windows), and the
//!   dispatch of an entry point over pieces; the BFS and retrograde
//!   kernels are both one.
//! - `kernels`: the BFS algorithms' kernels over a table's blocks.
//! - `residency`: the whole table on the device, or blocks streaming
//!   through it, and the host copy of a stored run.
//! - `two_bit`, `one_bit`: the passes of the search drivers.
//! - [`hash_check`]: the device's rank/unrank, run on lists for comparison
//!   with the Rust hashes.
//! - `retro/`: the passes of two-bit retrograde analysis, over a two-player
//!   game's WGSL rules (`retro/tables.rs`: where a layer's tables lie,
//!   whole or in windows as `retro/windows.rs` plans; `retro/passes.rs`:
//!   the passes over them); [`retro_check`] (`retro/check.rs`) runs those
//!   rules on lists of positions for comparison with the Rust rules.

pub(crate) mod device;
pub mod hash_check;
mod kernel_cache;
mod kernel_set;
pub(crate) mod kernels;
mod one_bit;
pub(crate) mod pieces;
mod residency;
mod retro;
pub mod shader;
pub(crate) mod table;
mod two_bit;

pub use device::{GpuDevice, GpuOptions};
pub use residency::gpu_program;
pub use retro::check as retro_check;
pub use retro::{check_device_layer, retro_program};

use crate::error::Result;
use crate::search::backend::{Backend, OneBitPasses, Opened, TableRequest, TwoBitPasses};
use crate::space::Space;

/// Runs every pass as compute kernels on one device.
pub struct GpuBackend<'d> {
    gpu: &'d GpuDevice,
}

impl<'d> GpuBackend<'d> {
    /// A backend that runs its passes on `gpu`.
    pub fn new(gpu: &'d GpuDevice) -> Self {
        GpuBackend { gpu }
    }
}

impl Backend for GpuBackend<'_> {
    fn name(&self) -> &'static str {
        "gpu"
    }

    fn describe(&self) -> String {
        format!("GPU {}", self.gpu.describe())
    }

    fn two_bit<'a, S: Space>(
        &'a self,
        space: &'a S,
        request: &TableRequest,
    ) -> Result<Opened<Box<dyn TwoBitPasses + 'a>>> {
        two_bit::GpuTwoBit::open(self.gpu, space, request)
    }

    fn one_bit<'a, S: Space>(
        &'a self,
        space: &'a S,
        request: &TableRequest,
    ) -> Result<Opened<Box<dyn OneBitPasses + 'a>>> {
        one_bit::GpuOneBit::open(self.gpu, space, request)
    }
}
