//! One-player stores: the finished table of depths mod 3 that
//! `solve --store` keeps, read without a search (Algorithm 1 of Edelkamp
//! et al., *Solving Games in Parallel with Linear-Time Perfect Hash
//! Functions*, 2009, its depths kept; the walk is
//! [`crate::search::solve`]'s).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::held::{Held, InMemory};
use super::paged::Cells;
use super::reading::{Watched, checkpoint_of};
use crate::error::{Error, Result};
use crate::search::identity::space_identity;
use crate::search::solve::{broken, cell_rank, walk};
use crate::search::two_bit_bfs::{KEEPING_DEPTHS, UNSEEN};
use crate::search::{Silent, Target};
use crate::space::Space;
use crate::table::storage::file_name_for;

/// A finished table of depths that `solve --store` kept, read into memory
/// (checked against its checksums) or paged when large, to answer walks
/// without a search: what
/// the explorer reads for one-player games. Open it through
/// [`super::TableCache::stored_depths`] to open it once per process.
pub struct StoredDepths {
    table: Cells,
    target: Target,
    ends: Vec<u64>,
    /// States per BFS layer, from the table's record.
    pub layers: Vec<u64>,
    path: PathBuf,
}

impl InMemory for StoredDepths {
    fn bytes(&self) -> u64 {
        self.table.bytes() + 8 * (self.ends.len() + self.layers.len()) as u64
    }

    fn paged(&self, path: &Path) -> Option<&super::paged::PagedWords> {
        self.table.paged(path)
    }
}

impl StoredDepths {
    /// The file that holds the table of depths of `space` in `dir` (it
    /// is named after what it solves, so its name is known before opening).
    pub fn file<S: Space>(space: &S, dir: &Path) -> PathBuf {
        let identity = space_identity(space, KEEPING_DEPTHS, 2);
        dir.join(file_name_for(&identity.descriptor))
    }

    /// The table of depths of `space` in `dir`, or `None` when the store
    /// has none; an unfinished or damaged one is an error. The table is
    /// read into memory and checked (see [`super::TableCache`], which
    /// reads it once per process and again when its file changes, and
    /// pages it when it is large).
    pub fn open<S: Space>(space: &S, dir: &Path) -> Result<Option<Self>> {
        let held = Self::read(space, dir, u64::MAX)?;
        Ok(held.table.and_then(Arc::into_inner))
    }

    /// [`open`](Self::open), paged when the table is larger than
    /// `paged_above` bytes (see [`Cells`]), with the file it read (or
    /// found missing) as it was then.
    pub(super) fn read<S: Space>(
        space: &S,
        dir: &Path,
        paged_above: u64,
    ) -> Result<Held<Option<Arc<Self>>>> {
        let target = Target::of(space)?;
        let identity = space_identity(space, KEEPING_DEPTHS, 2);
        let path = dir.join(file_name_for(&identity.descriptor));
        if !crate::table::store_file::table_exists(&path)? {
            return Ok(Held {
                table: None,
                files: vec![Watched::now(path)],
            });
        }
        let (table, header, watched) = Cells::open(&path, identity, paged_above, &Silent)?;
        let Some(checkpoint) = checkpoint_of(&header, &watched)?.filter(|c| c.complete) else {
            return Err(Error::BadStore {
                path,
                reason:
                    "its table of depths is not finished (run solve with this store to finish it)"
                        .into(),
            });
        };
        let depths = StoredDepths {
            table,
            target,
            ends: match target {
                Target::Start => space.start_ranks(),
                Target::Goal => space.goal_ranks(),
            },
            layers: checkpoint.counts,
            path,
        };
        Ok(Held {
            table: Some(Arc::new(depths)),
            files: vec![watched],
        })
    }

    /// Where the table's walks lead: the start, or the goal through the
    /// space's inversion.
    pub fn target(&self) -> Target {
        self.target
    }

    /// A shortest sequence of states from `from` to the target, both ends
    /// included (see [`crate::search::DepthTable::solution`]); an
    /// `InvalidParameter` error when `from` cannot reach the target.
    pub fn solution<S: Space>(&self, space: &S, from: &S::State) -> Result<Vec<S::State>> {
        let table = &self.table;
        let size = table.len();
        let mut cells = |ranks: &[u64]| -> Result<Vec<u8>> {
            ranks
                .iter()
                .map(|&rank| {
                    if rank < size {
                        table.get(rank)
                    } else {
                        Err(broken(
                            space,
                            Some(&self.path),
                            "has fewer cells than the space",
                        ))
                    }
                })
                .collect()
        };
        let broken = |what: &str| broken(space, Some(&self.path), what);
        walk(
            space,
            self.target,
            &self.ends,
            self.layers.len(),
            &mut cells,
            &broken,
            from,
        )
    }

    /// Like [`solution`](Self::solution), but `None` where `from` cannot
    /// reach the target (it lies in another part of the space): a
    /// position's distance is then unknown rather than an error.
    pub fn solution_if_reachable<S: Space>(
        &self,
        space: &S,
        from: &S::State,
    ) -> Result<Option<Vec<S::State>>> {
        let rank = cell_rank(space, self.target, from);
        if rank < self.table.len() && self.table.get(rank)? == UNSEEN {
            return Ok(None);
        }
        self.solution(space, from).map(Some)
    }

    /// The number of moves of an optimal sequence from `from` to the
    /// target, or `None` where it cannot reach the target.
    pub fn distance<S: Space>(&self, space: &S, from: &S::State) -> Result<Option<usize>> {
        Ok(self
            .solution_if_reachable(space, from)?
            .map(|path| path.len() - 1))
    }
}
