//! A layer held whole in one host table, as a single process holds it (the
//! CPU's and the GPU's layers, whose device copy lives only while the
//! passes run): opened from the store by the driver's own functions,
//! whichever backend holds it.

use super::driver::{open_layer, open_solved_layer};
use super::seam::{HeldLayer, Opening};
use crate::error::Result;
use crate::search::Progress;
use crate::search::checkpoint::Checkpoint;
use crate::space::LayeredGame;
use crate::table::TwoBitTable;

impl<B: ?Sized> HeldLayer<B> for TwoBitTable {
    fn open<G: LayeredGame>(
        _backend: &B,
        game: &G,
        layer: usize,
        opening: Opening<'_>,
        progress: &dyn Progress,
    ) -> Result<(TwoBitTable, Option<Checkpoint>)> {
        match opening {
            Opening::ToSolve(backing) => open_layer(game, layer, backing, progress),
            Opening::Solved(dir) => open_solved_layer(game, layer, dir, progress),
        }
    }

    fn host_table(&self) -> &TwoBitTable {
        self
    }

    fn host_table_mut(&mut self) -> &mut TwoBitTable {
        self
    }
}
