//! Whether and how the GPU runs a two-player game's layer: the game's
//! retrograde program, refused with the reason where the device's tables
//! cannot hold the layer.

use crate::error::{Error, Result};
use crate::kernel::{CPU_HINT, Program};
use crate::space::{LayeredGame, LayersBelow};

/// Table word indices are u32 on the device: 2^32 words of 16 cells.
const MAX_CELLS: u64 = 1 << 36;

/// Whether the GPU backend can solve `layer`, found out before a run
/// starts: its program where it has passes to run; an acyclic layer is
/// swept on the host where the device cannot sweep it (`sweep_acyclic`),
/// so it always can.
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
    // The layers below's blocks too: their ranks are the moves out of the
    // layer (captures, placements).
    let below = LayersBelow::of(game, layer);
    if let Some(block) = game
        .layer_blocks(layer)
        .iter()
        .chain(below.blocks())
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
    if below.cells() >= MAX_CELLS {
        return Err(Error::Unsupported(format!(
            "{descriptor}: the {} positions of the layers its moves reach exceed the GPU table's 2^36 cells {CPU_HINT}",
            below.cells()
        )));
    }
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Value;
    use crate::space::{
        ColourTwinHooks, GpuRules, LayerLinks, MoveShortcuts, Player, Successor, SymmetryHooks,
    };

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

    impl SymmetryHooks for Lonely {}
    impl ColourTwinHooks for Lonely {}
    impl LayerLinks for Lonely {}
    impl MoveShortcuts for Lonely {}
    impl GpuRules for Lonely {}

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
