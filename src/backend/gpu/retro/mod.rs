//! Two-bit retrograde analysis on the GPU: the passes of
//! [`crate::search::retro2`] as compute kernels (`shaders/retro.wgsl`) over
//! the layer's values and the solved layer below in device memory, with
//! the game's rules from
//! [`GpuRules::retro_gpu_program`](crate::space::GpuRules::retro_gpu_program).
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
//! the device and every pass is a scan in rounds (`windows`). A
//! layer whose moves leave to several layers below (Lasker Morris's
//! opening) reads them copied into one table ([`LayersBelow`]), as the
//! layer below.
//!
//! - `tables`: which of the three, and the device tables for it.
//! - `passes`: the passes over them.
//! - `program`: whether the device runs a layer, and its program.
//! - `windows`: the windows of a streamed layer, and its rounds.
//! - `lists`: the host's half of a resident layer's work lists.
//! - [`check`]: the game's rules on the device, run over lists of
//!   positions beside its Rust rules.
//!
//! An acyclic layer (a positional game's, the Morris opening's) is swept
//! by one pass of the same judging kernel, every value recorded, over the
//! layer below or the layers its moves reach joined into one table
//! ([`LayersBelow`]); a layer the game has no rules for is swept on the
//! host.

pub mod check;
mod lists;
mod passes;
mod program;
mod tables;
mod windows;

pub use program::{check_device_layer, retro_program};

use super::GpuBackend;
use super::device::GpuDevice;
use crate::backend::CpuBackend;
use crate::error::{Error, Result};
use crate::search::retro2::judge::recorded_value;
use crate::search::retro2::seam::{Below, LayerSweep, RetroBackend, RetroPass, RetroPasses};
use crate::space::{LayeredGame, LayersBelow, Value};
use crate::table::TwoBitTable;
use passes::{GpuRetro, LowerTable};

impl RetroBackend for GpuBackend<'_> {
    /// The host table of the whole layer, as on the CPU: the device copy
    /// lives only while the layer's passes run.
    type Layer = TwoBitTable;

    fn layer_passes<'a, G: LayeredGame>(
        &'a self,
        game: &'a G,
        layer: usize,
        values: &'a TwoBitTable,
        lower: Below<'a, TwoBitTable>,
    ) -> Result<Box<dyn RetroPasses + 'a>> {
        let lower = match lower {
            Below::Next(lower) => lower.map(LowerTable::Held),
            // Lasker Morris's opening: the layers of one stone fewer in
            // hand or on the board, all solved (the driver opened them).
            Below::Several(tables) => {
                let reached = |l: usize| tables.get(l).and_then(Option::as_ref);
                let table = reached_table(game, layer, reached)?.ok_or_else(|| {
                    Error::InvalidParameter(format!(
                        "{}: a layer its moves reach is not open",
                        game.layer_descriptor(layer)
                    ))
                })?;
                Some(table)
            }
        };
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

    /// On the device where the game has rules for the layer (a
    /// positional game's layers, the Morris opening's): one judging pass
    /// that records every value, reading the layer below, or the layers
    /// the moves reach joined into one table (the Morris opening's last
    /// placement, into every moving layer: `LayersBelow`). Otherwise, or
    /// where a reached layer is not open, on the host.
    fn sweep_acyclic<G: LayeredGame>(
        &self,
        game: &G,
        sweep: &LayerSweep<'_, TwoBitTable>,
        between_parts: &mut dyn FnMut() -> Result<()>,
    ) -> Result<u64> {
        let reached = |l: usize| sweep.lower.get(l).copied().flatten();
        let below = match retro_program(game, sweep.layer) {
            Ok(_) => reached_table(game, sweep.layer, reached)?,
            Err(_) => None,
        };
        match below {
            Some(below) => sweep_on_device(
                self.gpu,
                game,
                sweep.layer,
                sweep.values,
                Some(below),
                sweep.pass,
            ),
            None => CpuBackend.sweep_acyclic(game, sweep, between_parts),
        }
    }
}

/// The solved values of the layers `layer`'s moves reach
/// ([`LayersBelow`]), as the kernels read them: the one layer just below
/// as it is held, or several copied into one table; None where `reached`
/// does not hold one of them.
fn reached_table<'a, G: LayeredGame>(
    game: &G,
    layer: usize,
    reached: impl Fn(usize) -> Option<&'a TwoBitTable>,
) -> Result<Option<LowerTable<'a>>> {
    let layout = LayersBelow::of(game, layer);
    let Some(tables) = layout.layers().map(reached).collect::<Option<Vec<_>>>() else {
        return Ok(None);
    };
    if !layout.is_joined(layer) {
        return Ok(tables.first().copied().map(LowerTable::Held));
    }
    let descriptor = format!("{} (the layers it reaches)", game.layer_descriptor(layer));
    let joined = layout.joined(&descriptor, &tables)?;
    Ok(Some(LowerTable::Joined(Box::new(joined))))
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
    lower: Option<LowerTable<'_>>,
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
