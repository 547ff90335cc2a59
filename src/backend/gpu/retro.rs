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
//!
//! An acyclic layer whose moves reach only the layer below (a positional
//! game's) is swept by one pass of the same judging kernel, every value
//! recorded; other acyclic layers (the Morris opening) are swept on the host.

use std::path::Path;

use super::GpuBackend;
use super::device::GpuDevice;
use super::retro_passes::GpuRetro;
use super::retro_program::retro_program;
use crate::backend::CpuBackend;
use crate::error::{Error, Result};
use crate::search::Progress;
use crate::search::backend::Backend;
use crate::search::checkpoint::Checkpoint;
use crate::search::retro2::judge::recorded_value;
use crate::search::retro2::seam::{Below, RetroBackend, RetroPass, RetroPasses};
use crate::space::{LayeredGame, Value};
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
            self.gpu,
            game,
            layer,
            values,
            lower,
            recorded_value(game),
        )?))
    }

    /// Counted on the host, after the driver's last sync.
    fn count<G: LayeredGame>(&self, game: &G, layer: usize, values: &TwoBitTable) -> [u64; 3] {
        CpuBackend.count(game, layer, values)
    }

    /// On the device where the layer's moves reach only the layer below
    /// (or none) and the game has rules for it (a positional game's
    /// layers): one judging pass that records every value. Otherwise on
    /// the host: the Morris opening reads the whole moving phase, more
    /// than a device holds, and far less work than the layers' passes.
    fn sweep_acyclic<G: LayeredGame>(
        &self,
        game: &G,
        layer: usize,
        values: &TwoBitTable,
        lower: &[Option<&TwoBitTable>],
        pass: &RetroPass,
        between_parts: &mut dyn FnMut() -> Result<()>,
    ) -> Result<u64> {
        let below = layer.checked_sub(1);
        let only_the_next = game
            .acyclic_layer(layer)
            .is_some_and(|reached| reached.iter().all(|&l| Some(l) == below))
            && lower
                .iter()
                .enumerate()
                .all(|(l, table)| table.is_none() || Some(l) == below);
        if !only_the_next || retro_program(game, layer).is_err() {
            return CpuBackend.sweep_acyclic(game, layer, values, lower, pass, between_parts);
        }
        let next = below.and_then(|l| lower.get(l).copied().flatten());
        sweep_on_device(self.gpu, game, layer, values, next, pass)
    }
}

/// One pass of the layer's judging kernel, every value recorded: each
/// position's moves all lead into `lower`, which is solved, so the pass
/// decides every position (one that stays open is an error, as on the
/// host).
fn sweep_on_device<G: LayeredGame>(
    gpu: &GpuDevice,
    game: &G,
    layer: usize,
    values: &TwoBitTable,
    lower: Option<&TwoBitTable>,
    pass: &RetroPass,
) -> Result<u64> {
    let mut passes = GpuRetro::open(gpu, game, layer, values, lower, None)?;
    pass.progress.begin_pass(&pass.label, passes.units());
    let count = passes.initial(pass)?;
    passes.fill_from_twins(pass)?;
    passes.sync()?;
    pass.progress.end_pass();
    if pass.progress.stop_requested() {
        return Ok(count.examined);
    }
    let open: u64 = game
        .layer_blocks(layer)
        .iter()
        .map(|block| values.count_in(block.start..block.end(), Value::Unknown as u8))
        .sum();
    if open > 0 {
        return Err(Error::InvalidParameter(format!(
            "{open} positions of layer {layer} ({}) move to positions their layers leave undecided: the layers below are not solved",
            game.layer_descriptor(layer)
        )));
    }
    Ok(count.examined)
}
