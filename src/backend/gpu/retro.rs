//! Two-bit retrograde analysis on the GPU: the passes of
//! [`crate::search::retro2`] as compute kernels (`shaders/retro.wgsl`) over
//! the layer's values and the solved layer below in device memory, with
//! the game's rules from [`LayeredGame::retro_gpu_program`].
//!
//! A layer is held as the CPU holds it, in the host table opened from the
//! same store files, so a store written by either backend resumes on the
//! other. Pass 0 is Algorithm 4's scan: every unknown position is judged
//! from its moves' current values (one invocation per word of 16 cells).
//! A later pass judges only the predecessors of the positions the pass
//! before decided, marked in two one-bit tables on the device (changed,
//! candidates): Fox-and-Geese g = 6 takes 14 passes, and rescanning its 60
//! M positions in each was 40 times slower on lavapipe. The driver repeats
//! passes until one decides nothing. Where the mark tables do not fit
//! beside the values (device memory, an allocation refused, the storage
//! bindings), every pass judges all unknown positions instead, as the
//! paper's scan does: slower, in two thirds of the memory. Where the values
//! and the layer below do not fit together, windows of both stream through
//! the device and every pass is a scan in rounds (`retro_windows`).
//!
//! - `retro_tables`: which of the three, and the device tables for it.
//! - `retro_passes`: the passes over them.
//! - `retro_program`: whether the device runs a layer, and its program.

use std::path::Path;

use super::GpuBackend;
use super::retro_passes::GpuRetro;
use crate::backend::CpuBackend;
use crate::error::Result;
use crate::search::Progress;
use crate::search::backend::Backend;
use crate::search::checkpoint::Checkpoint;
use crate::search::retro2::seam::{Below, RetroBackend, RetroPass, RetroPasses};
use crate::space::LayeredGame;
use crate::table::{Backing, TwoBitTable};

impl RetroBackend for GpuBackend<'_> {
    /// The host table of the whole layer, as on the CPU: the device copy
    /// lives only while the layer's passes run.
    type Layer = TwoBitTable;

    fn open_layer<G: LayeredGame>(
        &self,
        game: &G,
        layer: usize,
        backing: &Backing,
        progress: &dyn Progress,
    ) -> Result<(TwoBitTable, Option<Checkpoint>)> {
        CpuBackend.open_layer(game, layer, backing, progress)
    }

    fn open_solved<G: LayeredGame>(
        &self,
        game: &G,
        layer: usize,
        dir: &Path,
        progress: &dyn Progress,
    ) -> Result<(TwoBitTable, Option<Checkpoint>)> {
        CpuBackend.open_solved(game, layer, dir, progress)
    }

    fn host_table<'l>(&self, layer: &'l TwoBitTable) -> &'l TwoBitTable {
        layer
    }

    fn host_table_mut<'l>(&self, layer: &'l mut TwoBitTable) -> &'l mut TwoBitTable {
        layer
    }

    fn layer_passes<'a, G: LayeredGame>(
        &'a self,
        game: &'a G,
        layer: usize,
        values: &'a TwoBitTable,
        lower: Below<'a, TwoBitTable>,
    ) -> Result<Box<dyn RetroPasses + 'a>> {
        let lower = lower.only_next(game, layer, Backend::name(self))?;
        Ok(Box::new(GpuRetro::open(
            self.gpu, game, layer, values, lower,
        )?))
    }

    /// Counted on the host, after the driver's last sync.
    fn count<G: LayeredGame>(&self, game: &G, layer: usize, values: &TwoBitTable) -> [u64; 3] {
        CpuBackend.count(game, layer, values)
    }

    /// On the host: an acyclic layer is one sweep of lookups into every
    /// layer it reaches (the Morris opening reads the whole moving phase),
    /// more than a device holds, and far less work than the layers' passes.
    fn sweep_acyclic<G: LayeredGame>(
        &self,
        game: &G,
        layer: usize,
        values: &TwoBitTable,
        lower: &[Option<&TwoBitTable>],
        pass: &RetroPass,
        between_parts: &mut dyn FnMut() -> Result<()>,
    ) -> Result<u64> {
        CpuBackend.sweep_acyclic(game, layer, values, lower, pass, between_parts)
    }
}
