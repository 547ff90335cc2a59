//! Where the cells a pass reads and writes are held ([`Placement`]), and
//! the units of a pass's parallel work over them: ranges of cells, or
//! pieces of the list of cells the pass before marked ([`Unit`]).

use std::ops::Range;

use crate::table::OneBitTable;

/// Where the cell of a position is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In the tables held here, at this cell.
    Here(u64),
    /// Held by process `owner`, at its cell `cell`.
    Elsewhere {
        /// The process holding the cell.
        owner: usize,
        /// The cell in that process's tables.
        cell: u64,
    },
}

/// Where the cells of a layer and of the layer below are held.
pub trait Placement: Sync {
    /// Every cell is held here and is its rank: the judging then reads
    /// values straight from the tables, without places.
    const HOLDS_ALL: bool = false;

    /// The cell of `rank` in this layer (`lower` false) or the one below.
    fn place(&self, lower: bool, rank: u64) -> Place;

    /// The rank of a cell of this layer held here.
    fn rank_of(&self, cell: u64) -> u64;
}

/// One process holds everything, each rank at its own cell.
pub struct WholeLayer;

impl Placement for WholeLayer {
    const HOLDS_ALL: bool = true;

    #[inline]
    fn place(&self, _lower: bool, rank: u64) -> Place {
        Place::Here(rank)
    }

    #[inline]
    fn rank_of(&self, cell: u64) -> u64 {
        cell
    }
}

/// Cells held here whose ranks are consecutive from `first_rank`: the unit
/// of a pass's parallel work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellRange {
    /// The cells, in the tables held here.
    pub cells: Range<u64>,
    /// Rank of the first cell.
    pub first_rank: u64,
}

impl CellRange {
    pub(super) fn rank_of(&self, cell: u64) -> u64 {
        self.first_rank + (cell - self.cells.start)
    }
}

/// Most listed cells in a unit of parallel work.
const LIST_WORK: usize = 4096;

/// Fewest listed cells in a unit: a short list is still cut into a few
/// units a thread (a Morris position's predecessors and their checks take
/// microseconds, so a list of a few thousand was one thread's work while
/// the others waited).
const MIN_LIST_WORK: usize = 64;

/// Units a thread, at least, for a listed pass that is long enough.
const UNITS_PER_THREAD: usize = 4;

/// Listed cells per unit for a list of `cells` on `threads` threads.
fn list_work(cells: usize, threads: usize) -> usize {
    (cells / (UNITS_PER_THREAD * threads.max(1))).clamp(MIN_LIST_WORK, LIST_WORK)
}

/// A unit of a pass's source: listed cells, or the set bits of a range of
/// a bit table.
pub enum Unit<'s> {
    /// Cells the pass before listed.
    Listed(&'s [u64]),
    /// The set bits of a range of cells.
    Scanned(&'s CellRange),
}

/// The units of a pass whose source is `list` when the pass before listed
/// its marks, else the set bits of `ranges` in the pass's table.
pub fn units<'s>(list: Option<&'s [u64]>, ranges: &'s [CellRange]) -> Vec<Unit<'s>> {
    match list {
        Some(list) => list
            .chunks(list_work(list.len(), rayon::current_num_threads()))
            .map(Unit::Listed)
            .collect(),
        None => ranges.iter().map(Unit::Scanned).collect(),
    }
}

impl Unit<'_> {
    /// Calls `visit` with each (cell, rank) of the unit: each listed cell,
    /// or each set bit of `table` in the range.
    pub fn for_each(
        &self,
        table: &OneBitTable,
        placement: &impl Placement,
        mut visit: impl FnMut(u64, u64),
    ) {
        match self {
            Unit::Listed(cells) => cells
                .iter()
                .for_each(|&cell| visit(cell, placement.rank_of(cell))),
            Unit::Scanned(range) => {
                table.for_each_set(range.cells.clone(), |cell| visit(cell, range.rank_of(cell)))
            }
        }
    }

    /// Whether the unit is a range of the table (progress counts those).
    pub fn is_scanned(&self) -> bool {
        matches!(self, Unit::Scanned(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_list_is_cut_into_units_for_every_thread_and_a_long_one_bounded() {
        // A few thousand cells on two threads: eight units, not one.
        assert_eq!(list_work(4096, 2), 512);
        // Never below the floor, never above the ceiling.
        assert_eq!(list_work(10, 2), MIN_LIST_WORK);
        assert_eq!(list_work(100_000_000, 2), LIST_WORK);
        assert_eq!(list_work(4096, 0), 1024);
        let list: Vec<u64> = (0..4096).collect();
        let units = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
            .install(|| units(Some(list.as_slice()), &[]).len());
        assert_eq!(units, 8);
    }
}
