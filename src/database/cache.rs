//! The tables a process has opened, shared by every [`super::Database`]
//! and thread that reads the same stores: a layer is opened and checked
//! once, and every later answer is a lookup.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::depths::StoredDepths;
use super::two_player::LayerTable;
use crate::error::Result;
use crate::space::Space;

/// Tables opened read-only and checked, by file; shared between databases
/// and threads (a server keeps one for its whole run).
#[derive(Default)]
pub struct TableCache {
    /// Two-player layers' values, by the layer's values file.
    pub(super) values: Mutex<HashMap<PathBuf, Arc<LayerTable>>>,
    /// A layer's distances by its values file (`None`: the store has none).
    pub(super) distances: Mutex<HashMap<PathBuf, Arc<Option<Vec<u16>>>>>,
    /// One-player tables of depths, by file.
    depths: Mutex<HashMap<PathBuf, Arc<StoredDepths>>>,
}

/// The map behind `map`'s lock, even if a thread panicked holding it: the
/// maps only ever gain finished entries, so what they hold stays sound.
fn locked<T>(map: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    map.lock().unwrap_or_else(PoisonError::into_inner)
}

impl TableCache {
    /// The table cached for `file`, or the one `open` gives (then cached).
    /// The lock is not held while a table is opened: checking a large file
    /// takes a while, and other layers are answered meanwhile.
    pub(super) fn get_or_open<T>(
        map: &Mutex<HashMap<PathBuf, Arc<T>>>,
        file: &Path,
        open: impl FnOnce() -> Result<T>,
    ) -> Result<Arc<T>> {
        if let Some(found) = locked(map).get(file) {
            return Ok(found.clone());
        }
        let opened = Arc::new(open()?);
        Ok(locked(map)
            .entry(file.to_path_buf())
            .or_insert(opened)
            .clone())
    }

    /// Two-player layer tables held open.
    pub fn open_tables(&self) -> usize {
        locked(&self.values).len()
    }

    /// The finished table of depths of `space` in store `dir`, opened once;
    /// `None` when the store has none (not remembered: a `solve --store`
    /// run may add one while a server reads the store). An unfinished or
    /// damaged table is an error.
    pub fn stored_depths<S: Space>(
        &self,
        space: &S,
        dir: &Path,
    ) -> Result<Option<Arc<StoredDepths>>> {
        let file = StoredDepths::file(space, dir);
        if let Some(found) = locked(&self.depths).get(&file) {
            return Ok(Some(found.clone()));
        }
        let Some(opened) = StoredDepths::open(space, dir)? else {
            return Ok(None);
        };
        Ok(Some(
            locked(&self.depths)
                .entry(file)
                .or_insert(Arc::new(opened))
                .clone(),
        ))
    }
}
