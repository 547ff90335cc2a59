//! The disk backend: two-bit BFS with its table in a store file and only a
//! budget of it in memory (`bfs --store DIR --memory SIZE`), so the space
//! a machine can search is bounded by its disk, not its memory.
//!
//! The table is cut into windows of consecutive ranks, each at most half
//! the budget. A pass loads the windows it scans one at a time, in rank
//! order: successors inside the loaded window are marked at once, the
//! others wait in buckets (`buckets`) for their window, which applies them
//! when it is loaded next (later in the same sweep, or in a second sweep
//! over the windows with successors waiting). Korf ("Minimizing Disk I/O in
//! Two-Bit Breadth-First Search", AAAI 2008) chose the ranking so that most
//! moves stay inside their file; our Pancake ranks by the prefix Lehmer
//! code, where a flip of the top k changes only the rank below k!, so every
//! flip shorter than the window's ranks stays inside the window and only
//! the longest flips wait (Pancake 13 with an eighth of its table in
//! memory: flips of up to 11 of 13 pancakes stay).
//!
//! The late layers, where fewer states are unseen than sit in the
//! frontier, check parents instead of expanding the frontier (Rokicki's
//! backward switch, as in memory): an unseen cell looks at its neighbours
//! in its own window, and asks the other windows its neighbours lie in by
//! a question filed in their bucket; the answers come back as marks in the
//! asker's bucket (see `two_bit::DiskTwoBit::check_parents`).

mod buckets;
mod two_bit;

use crate::error::{Error, Result, size_needed, sizes_compared};
use crate::search::backend::{Backend, OneBitPasses, Opened, TableRequest, TwoBitPasses};
use crate::search::chunks::CHUNK_STATES;
use crate::search::two_bit_bfs::UNSEEN;
use crate::space::Space;
use crate::table::header::file_name_for;
use crate::table::storage::{available_memory, free_disk};
use crate::table::two_bit::{CELLS_PER_WORD, broadcast};
use crate::table::{Backing, WordStorage};

/// The smallest budget: a window of one work unit and its buckets.
pub const MIN_MEMORY: u64 = 64 << 10;

/// Runs two-bit BFS with the table on disk and at most `memory` bytes of it
/// (and of waiting successors) in memory.
#[derive(Clone, Copy, Debug)]
pub struct DiskBackend {
    /// Bytes of memory the table's windows and the waiting successors may take.
    pub memory: u64,
}

/// How a budget is spent on a table of `cells` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiskPlan {
    /// Cells per window: a multiple of the work unit, at most half the
    /// budget at two bits a cell.
    pub window_cells: u64,
    /// Windows the table is cut into.
    pub windows: usize,
    /// Waiting successors held in memory (8 bytes each) before the largest
    /// list is written out: an eighth of the budget (and as much again for
    /// a list read back while they are held).
    pub held_successors: usize,
}

impl DiskPlan {
    /// The plan for a table of `cells` cells in `memory` bytes; a budget below
    /// [`MIN_MEMORY`] is refused.
    pub fn new(cells: u64, memory: u64) -> Result<Self> {
        if memory < MIN_MEMORY {
            return Err(Error::InvalidParameter(format!(
                "--memory {memory} is below the smallest budget, {}K",
                MIN_MEMORY >> 10
            )));
        }
        // Saturating: a budget beyond the table's (up to 16 EiB) is one
        // window of the whole table, never a wrapped-around small one.
        let half = (memory / 2).saturating_mul(4) / CHUNK_STATES * CHUNK_STATES;
        let whole = cells.div_ceil(CHUNK_STATES) * CHUNK_STATES;
        let window_cells = half.clamp(CHUNK_STATES, whole.max(CHUNK_STATES));
        Ok(DiskPlan {
            window_cells,
            windows: cells.div_ceil(window_cells).max(1) as usize,
            held_successors: (memory / 8 / 8) as usize,
        })
    }
}

/// Disk a run keeps free for waiting successors: twice the table. A
/// layer's successors that leave their window wait delta-coded, about a
/// byte each, and the largest layers expanded forward send many: Pancake 13
/// with 512 MiB in memory peaked at 1.3 times its table (layer 12; the
/// layers after it check parents), Pancake 12 with an eighth of its table,
/// whose windows are shorter than 11!, at 2.1 times (layer 11). A rule of
/// thumb, not a bound: a run that needs more stops with the disk full, and
/// resumes where it stopped.
pub fn successors_reserve(cells: u64) -> u64 {
    cells.div_ceil(CELLS_PER_WORD) * 8 * 2
}

/// Disk a run of `cells` cells needs in all: the table and the reserve.
pub fn disk_needed(cells: u64) -> u64 {
    cells.div_ceil(CELLS_PER_WORD) * 8 + successors_reserve(cells)
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

impl Backend for DiskBackend {
    fn name(&self) -> &'static str {
        "disk"
    }

    fn describe(&self) -> String {
        let threads = rayon::current_num_threads();
        format!(
            "{threads} thread{}, table on disk with {:.1} MiB in memory",
            if threads == 1 { "" } else { "s" },
            self.memory as f64 / (1u64 << 20) as f64
        )
    }

    fn two_bit<'a, S: Space>(
        &'a self,
        space: &'a S,
        request: &TableRequest,
    ) -> Result<Opened<Box<dyn TwoBitPasses + 'a>>> {
        let Backing::Directory(dir) = request.backing else {
            return Err(Error::InvalidParameter(
                "--memory keeps the table on disk: give --store DIR".into(),
            ));
        };
        let cells = request.identity.states;
        let plan = DiskPlan::new(cells, self.memory)?;
        // The window is the one part held in memory: a budget above what
        // the machine has is refused as such (the table is on disk already,
        // so the usual advice, --store, would not help).
        let window_bytes = plan.window_cells / 4;
        if let Some(available) = available_memory().filter(|&a| window_bytes > a) {
            return Err(Error::InvalidParameter(format!(
                "--memory {:.2} GiB keeps windows of {:.2} GiB in memory, but only {:.2} GiB is available: give a smaller --memory",
                gib(self.memory),
                gib(window_bytes),
                gib(available)
            )));
        }
        let words = cells.div_ceil(CELLS_PER_WORD);
        let file = dir.join(file_name_for(&request.identity.descriptor));
        let needed = disk_needed(cells) - if file.exists() { words * 8 } else { 0 };
        if let Some(free) = free_disk(dir).filter(|&free| free < needed) {
            let (needed, free) = sizes_compared(needed, free);
            let (table, reserve) = (
                size_needed(words * 8),
                size_needed(successors_reserve(cells)),
            );
            return Err(Error::InvalidParameter(format!(
                "{} needs {needed} more on disk ({table} of table, {reserve} kept for waiting successors), and {} has {free} free",
                request.identity.descriptor,
                dir.display(),
            )));
        }
        let (storage, progress) = WordStorage::open_direct(
            dir,
            request.identity.clone(),
            words,
            broadcast(UNSEEN),
            request.progress,
        )?;
        let passes = two_bit::DiskTwoBit::new(space, storage, plan)?;
        Ok(Opened::new(Box::new(passes), progress))
    }

    fn one_bit<'a, S: Space>(
        &'a self,
        _space: &'a S,
        _request: &TableRequest,
    ) -> Result<Opened<Box<dyn OneBitPasses + 'a>>> {
        Err(Error::Unsupported(
            "--memory runs two-bit BFS (--algo two-bit) with its table on disk; one-bit searches keep their table in memory or a mapped file (drop --memory)".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_take_half_the_budget_in_whole_units() {
        // 1 MiB: windows of 2 Mi cells (512 KiB).
        let plan = DiskPlan::new(10_000_000, 1 << 20).unwrap();
        assert_eq!(plan.window_cells, 2 << 20);
        assert_eq!(plan.windows, 5);
        assert_eq!(plan.held_successors, (1 << 20) / 64);
        // A budget larger than the table: one window.
        let plan = DiskPlan::new(1000, 1 << 30).unwrap();
        assert_eq!((plan.window_cells, plan.windows), (CHUNK_STATES, 1));
        assert!(DiskPlan::new(1000, 1000).is_err());
    }

    #[test]
    fn a_budget_near_the_top_of_u64_is_one_window_of_the_whole_table() {
        // 8388608T = 2^63 bytes: half of it at four cells a byte wrapped
        // to zero, and the table was cut into windows of one work unit.
        let cells: u64 = 3_628_800;
        let whole = cells.div_ceil(CHUNK_STATES) * CHUNK_STATES;
        for memory in [1 << 63, u64::MAX, u64::MAX / 2 + 1 - 4] {
            let plan = DiskPlan::new(cells, memory).unwrap();
            assert_eq!((plan.window_cells, plan.windows), (whole, 1), "{memory}");
        }
    }
}
