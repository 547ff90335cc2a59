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

use std::path::Path;

use super::GpuBackend;
use super::retro_passes::GpuRetro;
use crate::backend::CpuBackend;
use crate::error::{Error, Result};
use crate::kernel::{CPU_HINT, Program};
use crate::search::Progress;
use crate::search::backend::Backend;
use crate::search::checkpoint::Checkpoint;
use crate::search::retro2::LayeredGame;
use crate::search::retro2::seam::{Below, RetroBackend, RetroPass, RetroPasses};
use crate::table::{Backing, TwoBitTable};

/// Table word indices are u32 on the device: 2^32 words of 16 cells.
const MAX_CELLS: u64 = 1 << 36;

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
        lower: &[Option<TwoBitTable>],
        pass: &RetroPass,
        between_parts: &mut dyn FnMut() -> Result<()>,
    ) -> Result<u64> {
        CpuBackend.sweep_acyclic(game, layer, values, lower, pass, between_parts)
    }
}

/// Whether the GPU backend can solve `layer`, found out before a run
/// starts: its program where it has passes to run; an acyclic layer is
/// swept on the host (`sweep_acyclic`), so it always can.
pub fn check_device_layer<G: LayeredGame>(game: &G, layer: usize) -> Result<()> {
    if game.acyclic_layer(layer).is_some() {
        return Ok(());
    }
    retro_program(game, layer).map(drop)
}

/// The game's retrograde program for `layer`, or why the GPU cannot run
/// it: no rules, a block beyond 32-bit ranks, a table beyond 2^36 cells.
pub fn retro_program<G: LayeredGame>(game: &G, layer: usize) -> Result<Program> {
    let program = game.retro_gpu_program(layer)?;
    let descriptor = game.layer_descriptor(layer);
    // The layer below's blocks too: its ranks are the captures' moves.
    let below = layer.checked_sub(1).map(|l| game.layer_blocks(l));
    if let Some(block) = game
        .layer_blocks(layer)
        .iter()
        .chain(below.iter().flatten())
        .find(|b| b.len >= u32::MAX as u64 - 16)
    {
        return Err(Error::Unsupported(format!(
            "{descriptor}: a block of {} positions does not fit the GPU kernels' 32-bit ranks {CPU_HINT}",
            block.len
        )));
    }
    if game.layer_size(layer) >= MAX_CELLS {
        return Err(Error::Unsupported(format!(
            "{descriptor}: {} positions exceed the GPU table's 2^36 cells {CPU_HINT}",
            game.layer_size(layer)
        )));
    }
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::retro2::Value;
    use crate::space::{Player, Successor};

    /// A game with one position and no GPU rules.
    struct Lonely;

    impl LayeredGame for Lonely {
        type State = ();
        fn layer_descriptor(&self, layer: usize) -> String {
            format!("lonely layer={layer}")
        }
        fn layer_size(&self, _layer: usize) -> u64 {
            1
        }
        fn new_state(&self) {}
        fn unrank(&self, _layer: usize, _rank: u64, _state: &mut ()) {}
        fn rank(&self, _layer: usize, _state: &()) -> u64 {
            0
        }
        fn mover(&self, _state: &()) -> Player {
            Player::First
        }
        fn successors<F: FnMut(Successor) -> bool>(&self, _layer: usize, _state: &(), _emit: F) {}
        fn predecessors<F: FnMut(u64)>(&self, _layer: usize, _state: &(), _emit: F) {}
        fn no_move_value(&self, _state: &()) -> Value {
            Value::SecondWins
        }
    }

    #[test]
    fn a_game_without_retrograde_rules_is_refused_with_its_name() {
        let error = retro_program(&Lonely, 0).unwrap_err().to_string();
        assert!(
            error.contains("no GPU retrograde rules for lonely layer=0")
                && error.contains("--backend cpu"),
            "{error}"
        );
    }
}
