//! The distances phase of a run: after a range of layers is solved into a
//! store, each layer's distances are computed (or found) there, lowest
//! first, each reading the values and distances of the layers below it
//! reaches.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use super::{LayerDistances, NO_DISTANCE, Values, read_distances, stored_layer_distances};
use crate::error::{Error, Result};
use crate::progress::{Progress, Silent};
use crate::search::retro2::{layers_read, open_layer};
use crate::space::{LayeredGame, Value};
use crate::table::{Backing, TwoBitTable};

/// Computes (or finds) the distances of every layer of `layers` (ascending,
/// each solved in store `dir`) and returns each one's longest finite
/// distance. A layer whose moves reach a lower layer without stored
/// distances is refused with the error `missing(layer, below)` gives.
pub fn store_layers_distances<G: LayeredGame>(
    game: &G,
    layers: &[usize],
    dir: &Path,
    progress: &dyn Progress,
    record_every: Duration,
    missing: &dyn Fn(usize, usize) -> Error,
) -> Result<BTreeMap<usize, u16>> {
    let backing = Backing::Directory(dir.to_path_buf());
    let read_only = Backing::ReadOnly(dir.to_path_buf());
    let mut longest = BTreeMap::new();
    // Distances computed or read, kept while a later layer reads them.
    let mut held: BTreeMap<usize, LayerDistances> = BTreeMap::new();
    for (index, &layer) in layers.iter().enumerate() {
        let reached = layers_read(game, layer);
        for &below in &reached {
            if held.contains_key(&below) {
                continue;
            }
            let Some(distances) = read_distances(game, below, dir)? else {
                return Err(missing(layer, below));
            };
            held.insert(below, distances);
        }
        let this = open_layer(game, layer, &read_only, &Silent)?.0;
        let below_values = reached
            .iter()
            .map(|&below| Ok((below, open_layer(game, below, &read_only, &Silent)?.0)))
            .collect::<Result<BTreeMap<_, _>>>()?;
        let value = StoredValues {
            layer,
            this: &this,
            below: &below_values,
        };
        let lower = |at: usize, rank: u64| {
            held.get(&at)
                .map_or(NO_DISTANCE, |distances| distances.get(rank))
        };
        let found = stored_layer_distances(
            game,
            layer,
            &backing,
            &value,
            &lower,
            progress,
            record_every,
        )?;
        longest.insert(layer, found.longest().unwrap_or(0));
        let later: Vec<usize> = layers[index + 1..]
            .iter()
            .flat_map(|&later| layers_read(game, later))
            .collect();
        held.retain(|kept, _| later.contains(kept));
        if later.contains(&layer) {
            // As the store holds it (mapped): a layer above then holds its
            // own bytes and only the pages of this one its moves read.
            held.insert(layer, found);
        }
    }
    Ok(longest)
}

/// The values a layer's distance pass reads: the layer's own table and
/// those of the layers below that its moves reach.
struct StoredValues<'t> {
    layer: usize,
    this: &'t TwoBitTable,
    below: &'t BTreeMap<usize, TwoBitTable>,
}

impl StoredValues<'_> {
    fn table(&self, at: usize) -> &TwoBitTable {
        if at == self.layer {
            self.this
        } else {
            self.below
                .get(&at)
                .expect("moves reach only the layers the game names")
        }
    }
}

impl Values for StoredValues<'_> {
    fn value(&self, at: usize, rank: u64) -> Value {
        Value::from_bits(self.table(at).get(rank))
    }

    fn prefetch(&self, at: usize, rank: u64) {
        self.table(at).prefetch(rank);
    }
}
