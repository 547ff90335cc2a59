//! A solved layer's tables as a store holds them: its values (one table,
//! or the shares of an MPI job) and its distances (read whole or paged).

use std::path::Path;

use super::held::InMemory;
use super::paged::{Cells, PagedWords};
use crate::backend::partition::Partition;
use crate::error::{Error, Result};
use crate::search::retro2::distances::{NO_DISTANCE, StoredFormat};

/// A solved layer's values as the store holds them: one table, or the
/// shares of the processes of the MPI job that solved it (`mpirun … retro
/// --store`), each read where the job's partition puts a rank.
pub(super) enum LayerTable {
    Whole(Box<Cells>),
    Shares {
        partition: Partition,
        shares: Vec<Cells>,
    },
}

impl LayerTable {
    pub(super) fn files(&self) -> &[Cells] {
        match self {
            LayerTable::Whole(cells) => std::slice::from_ref(cells),
            LayerTable::Shares { shares, .. } => shares.as_slice(),
        }
    }

    pub(super) fn is_paged(&self) -> bool {
        self.files()
            .iter()
            .any(|cells| matches!(cells, Cells::Paged(_)))
    }

    pub(super) fn get(&self, rank: u64) -> Result<u8> {
        match self {
            LayerTable::Whole(cells) => cells.get(rank),
            LayerTable::Shares { partition, shares } => {
                let (part, cell) = partition.locate(rank);
                shares[part].get(cell)
            }
        }
    }
}

impl InMemory for LayerTable {
    fn bytes(&self) -> u64 {
        self.files().iter().map(Cells::bytes).sum()
    }

    fn paged(&self, path: &Path) -> Option<&PagedWords> {
        self.files().iter().find_map(|cells| cells.paged(path))
    }
}

/// A layer's distances as a table file holds them: read whole, or paged
/// (see [`Cells`]) in the format they were stored in.
pub(super) enum StoredDistances {
    Read(crate::search::retro2::distances::LayerDistances),
    Paged {
        words: Box<PagedWords>,
        format: StoredFormat,
        len: u64,
    },
}

impl StoredDistances {
    /// The distance at `rank` ([`NO_DISTANCE`] for none).
    pub(super) fn get(&self, rank: u64) -> Result<u16> {
        match self {
            StoredDistances::Read(table) => Ok(table.get(rank)),
            StoredDistances::Paged { len, .. } if rank >= *len => Ok(NO_DISTANCE),
            StoredDistances::Paged { words, format, .. } => {
                let word = words.word(rank / format.per_word())?;
                format.distance_in(word, rank).ok_or_else(|| Error::BadStore {
                    path: words.watched().path.clone(),
                    reason: format!(
                        "position {rank}'s distance is marked as kept elsewhere, which a finished table in bytes never does"
                    ),
                })
            }
        }
    }
}

impl InMemory for StoredDistances {
    fn bytes(&self) -> u64 {
        match self {
            StoredDistances::Read(table) => table.memory_bytes(),
            StoredDistances::Paged { words, .. } => words.bytes(),
        }
    }

    fn paged(&self, path: &Path) -> Option<&PagedWords> {
        match self {
            StoredDistances::Paged { words, .. } if words.watched().path == path => Some(words),
            _ => None,
        }
    }
}

/// A layer's distances to the end by rank (`None`: the store keeps none).
pub(super) type LayerDistances = Option<StoredDistances>;
