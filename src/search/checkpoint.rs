//! A search's progress as recorded in its table file: how far the run got
//! and the per-layer (or per-scan, per-pass) numbers it had produced by
//! then. The table stores it as an opaque record beside its words
//! ([`WordStorage::record_progress`]); this module owns its meaning and
//! its encoding (little-endian u64 fields with lengths).

use std::path::Path;

use crate::error::{Error, Result};
use crate::table::WordStorage;
use crate::table::header::Seal;
use crate::table::store_file::{open_file, read_header, table_exists};

/// How far a search got, as its table file records it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checkpoint {
    /// Last completed layer (or scan); `None` before the first.
    pub last_completed: Option<u64>,
    /// A number per completed layer (or scan, or pass), as the driver counts
    /// them: the states of a BFS layer, say.
    pub counts: Vec<u64>,
    /// Stored representatives per layer, for symmetry-reduced spaces.
    pub representatives: Vec<u64>,
    /// Layer at which each goal position was reached, if it was.
    pub goal_distances: Vec<Option<u64>>,
    /// The search ran to its end: nothing is left to do.
    pub complete: bool,
}

/// Stands for `None` in the encoding.
const NONE: u64 = u64::MAX;

impl Checkpoint {
    /// The record as bytes: little-endian u64 fields, each list after its length.
    pub fn encode(&self) -> Vec<u8> {
        let mut fields = vec![self.last_completed.unwrap_or(NONE), self.complete as u64];
        let mut list = |values: &mut dyn Iterator<Item = u64>, len: usize| {
            fields.push(len as u64);
            fields.extend(values);
        };
        list(
            &mut self.goal_distances.iter().map(|d| d.unwrap_or(NONE)),
            self.goal_distances.len(),
        );
        list(&mut self.counts.iter().copied(), self.counts.len());
        list(
            &mut self.representatives.iter().copied(),
            self.representatives.len(),
        );
        fields.iter().flat_map(|f| f.to_le_bytes()).collect()
    }

    /// Parses a record; `Err` says why it is not one.
    pub fn decode(bytes: &[u8]) -> std::result::Result<Self, String> {
        if !bytes.len().is_multiple_of(8) {
            return Err("progress record is not a whole number of fields".into());
        }
        let mut fields = bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()));
        let mut next = || fields.next().ok_or("progress record is cut short");
        let last = next()?;
        let complete = next()? != 0;
        let mut list = || -> std::result::Result<Vec<u64>, String> {
            let len = next()?;
            if len > bytes.len() as u64 / 8 {
                return Err("progress record lists more values than it holds".into());
            }
            (0..len).map(|_| next().map_err(String::from)).collect()
        };
        let goal_distances = list()?
            .into_iter()
            .map(|d| (d != NONE).then_some(d))
            .collect();
        let counts = list()?;
        let representatives = list()?;
        Ok(Checkpoint {
            last_completed: (last != NONE).then_some(last),
            counts,
            representatives,
            goal_distances,
            complete,
        })
    }

    /// The checkpoint recorded in a reopened store (`None` for a new one).
    pub fn read(storage: &WordStorage, record: Option<Vec<u8>>) -> Result<Option<Self>> {
        record
            .filter(|bytes| !bytes.is_empty())
            .map(|bytes| {
                Checkpoint::decode(&bytes).map_err(|reason| Error::BadStore {
                    path: storage.path().map(|p| p.to_path_buf()).unwrap_or_default(),
                    reason,
                })
            })
            .transpose()
    }

    /// Whether the header of the table file at `path` says the table is
    /// finished: sealed, with a complete record. `None` where it cannot
    /// say (no regular file, an unreadable header). Only the header is
    /// read; the body is checked when the table is opened.
    pub fn finished_on_disk(path: &Path) -> Option<bool> {
        if !table_exists(path).ok()? {
            return None;
        }
        let header = open_file(path, false)
            .and_then(|opened| read_header(&opened, path))
            .ok()?;
        let complete = Checkpoint::decode(&header.progress).is_ok_and(|c| c.complete);
        Some(header.seal == Seal::Sealed && complete)
    }

    /// Records this checkpoint in `storage` (a no-op on the heap); the
    /// checkpoint of a complete table also seals it (its checksums vouch
    /// for it from now on).
    pub fn write(&self, storage: &WordStorage) -> Result<()> {
        storage.record_progress(&self.encode())?;
        if self.complete {
            storage.seal()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_round_trip_and_damage_is_refused() {
        let checkpoint = Checkpoint {
            last_completed: Some(4),
            counts: vec![1, 2, 3, 4, 5],
            representatives: vec![1, 1, 2],
            goal_distances: vec![None, Some(3)],
            complete: true,
        };
        let bytes = checkpoint.encode();
        assert_eq!(Checkpoint::decode(&bytes).unwrap(), checkpoint);
        assert_eq!(
            Checkpoint::decode(&Checkpoint::default().encode()).unwrap(),
            Checkpoint::default()
        );
        assert!(Checkpoint::decode(&bytes[..bytes.len() - 8]).is_err());
        assert!(Checkpoint::decode(&bytes[..5]).is_err());
    }
}
