//! How the blocks of a space are shared out among the processes of a
//! distributed run (`super::mpi`): which process owns a rank, and where
//! its cell sits in that process's table.
//!
//! A layer of a BFS lives in a few blocks (Peg Solitaire: one peg count;
//! Pancake: the whole space is one block), so owning whole blocks would
//! leave all but one process idle in most passes. Every block large enough
//! is therefore cut into one slice per process (balanced by size); smaller
//! blocks go whole to the process owning the fewest cells so far. Each
//! process keeps its slices one after another in its own table, every
//! slice starting on a 64-cell boundary so no two slices share a table word.
//!
//! This module knows nothing of MPI: it is plain arithmetic on blocks,
//! tested in every build.

use std::ops::Range;

use crate::search::chunks::CHUNK_STATES;
use crate::space::Block;
use crate::table::TableIdentity;
use crate::table::shares;

/// Blocks shorter than this many cells per process are not cut.
const SMALLEST_SLICE: u64 = 1 << 12;

/// Slices start at multiples of this many cells in a process's table.
const SLICE_ALIGN: u64 = 64;

/// The shares of every process, fixed by the blocks and the process count.
#[derive(Clone, Debug)]
pub struct Partition {
    parts: usize,
    /// First rank of each block, ascending, for finding a rank's block.
    block_starts: Vec<u64>,
    /// The blocks' common length, when they all have one (Fox-and-Geese:
    /// a block per fox cell): a rank's block is then a division away
    /// instead of a binary search, which `locate` does for every move.
    equal_blocks: Option<u64>,
    /// For block b, process p's slice is `cuts[b * (parts + 1) + p]` up to
    /// the next cut (flat: `locate` runs for every successor).
    cuts: Vec<u64>,
    /// For block b and process p, `local_starts[b * parts + p]` is the index
    /// in p's table of the slice's first cell.
    local_starts: Vec<u64>,
    /// Cells in each process's table.
    cells: Vec<u64>,
}

/// One process's share of one block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slice {
    /// The block, by its index in the blocks shared.
    pub block: usize,
    /// The global ranks of the slice.
    pub ranks: Range<u64>,
    /// Where `ranks.start` sits in the owner's table.
    pub local_start: u64,
}

impl Slice {
    /// The slice's cells in the owner's table.
    pub fn local(&self) -> Range<u64> {
        self.local_start..self.local_start + (self.ranks.end - self.ranks.start)
    }
}

impl Partition {
    /// Shares `blocks` (contiguous, ascending, covering `0..size`) among
    /// `parts` processes.
    pub fn new(blocks: &[Block], parts: usize) -> Self {
        assert!(parts > 0, "a partition needs a process");
        let mut cells = vec![0u64; parts];
        let mut cuts = Vec::with_capacity(blocks.len());
        let mut local_starts = Vec::with_capacity(blocks.len());
        for block in blocks {
            let mut cut = vec![block.start; parts + 1];
            if block.len >= SMALLEST_SLICE * parts as u64 {
                for (p, c) in cut.iter_mut().enumerate() {
                    let share = (block.len as u128 * p as u128 / parts as u128) as u64;
                    *c = block.start + share / SLICE_ALIGN * SLICE_ALIGN;
                }
            } else {
                // Whole, to the least loaded process (the first among equals).
                let owner = (0..parts).min_by_key(|&p| cells[p]).expect("a process");
                for c in cut.iter_mut().skip(owner + 1) {
                    *c = block.end();
                }
            }
            cut[parts] = block.end();
            let mut starts = vec![0u64; parts];
            for p in 0..parts {
                let len = cut[p + 1] - cut[p];
                if len > 0 {
                    starts[p] = cells[p];
                    cells[p] += len.div_ceil(SLICE_ALIGN) * SLICE_ALIGN;
                }
            }
            cuts.extend(cut);
            local_starts.extend(starts);
        }
        let equal_blocks = blocks.first().map(|b| b.len).filter(|&len| {
            len > 0
                && blocks
                    .iter()
                    .enumerate()
                    .all(|(i, b)| b.len == len && b.start == i as u64 * len)
        });
        Partition {
            parts,
            block_starts: blocks.iter().map(|b| b.start).collect(),
            equal_blocks,
            cuts,
            local_starts,
            cells,
        }
    }

    /// Processes the blocks are shared among.
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// Cells in process `part`'s table.
    pub fn cells(&self, part: usize) -> u64 {
        self.cells[part]
    }

    /// The process owning `rank`, and the index of its cell in that
    /// process's table.
    #[inline]
    pub fn locate(&self, rank: u64) -> (usize, u64) {
        let block = match (self.block_starts.len(), self.equal_blocks) {
            (1, _) => 0,
            (_, Some(len)) => (rank / len) as usize,
            _ => self.block_starts.partition_point(|&start| start <= rank) - 1,
        };
        let cut = &self.cuts[block * (self.parts + 1)..(block + 1) * (self.parts + 1)];
        // The slice holding `rank` (empty slices end where they start).
        let part = cut[1..].partition_point(|&end| end <= rank);
        (
            part,
            self.local_starts[block * self.parts + part] + (rank - cut[part]),
        )
    }

    /// Process `part`'s slices of `blocks` (in the order given).
    pub fn slices<'p>(
        &'p self,
        part: usize,
        blocks: &'p [usize],
    ) -> impl Iterator<Item = Slice> + 'p {
        blocks.iter().filter_map(move |&block| {
            let cut = block * (self.parts + 1) + part;
            let ranks = self.cuts[cut]..self.cuts[cut + 1];
            (!ranks.is_empty()).then(|| Slice {
                block,
                ranks,
                local_start: self.local_starts[block * self.parts + part],
            })
        })
    }

    /// Process `part`'s slices of `blocks`, cut into pieces of parallel
    /// work no longer than a CPU pass's chunks.
    pub fn chunks(&self, part: usize, blocks: &[usize]) -> Vec<Slice> {
        let mut chunks = Vec::new();
        for slice in self.slices(part, blocks) {
            let mut start = slice.ranks.start;
            while start < slice.ranks.end {
                let end = (start + CHUNK_STATES).min(slice.ranks.end);
                chunks.push(Slice {
                    block: slice.block,
                    ranks: start..end,
                    local_start: slice.local_start + (start - slice.ranks.start),
                });
                start = end;
            }
        }
        chunks
    }

    /// The identity of process `part`'s share of the table `whole`: its
    /// own file in a store, which names the process and the job's size, and
    /// a definition that names the partition, so a store is only ever
    /// resumed (or read) as the job that wrote it cut the table.
    pub fn share_identity(&self, whole: &TableIdentity, part: usize) -> TableIdentity {
        shares::share_identity(
            whole,
            part,
            self.parts,
            &self.fingerprint(),
            self.cells(part),
        )
    }

    /// A line for a table's identity: the same partition gives the same line.
    pub fn fingerprint(&self) -> String {
        use xxhash_rust::xxh3::Xxh3;
        let mut hasher = Xxh3::new();
        for cut in &self.cuts {
            hasher.update(&cut.to_le_bytes());
        }
        format!("parts={} cuts={:016x}", self.parts, hasher.digest())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(lengths: &[u64]) -> Vec<Block> {
        let mut start = 0;
        lengths
            .iter()
            .map(|&len| {
                let block = Block { start, len };
                start += len;
                block
            })
            .collect()
    }

    /// Every rank has exactly one owner and one cell there; no two ranks
    /// share a cell; tables are as large as their slices need.
    fn check(blocks: &[Block], parts: usize) -> Partition {
        let partition = Partition::new(blocks, parts);
        let size = blocks.last().map_or(0, |b| b.end());
        let mut seen: Vec<std::collections::HashSet<u64>> = vec![Default::default(); parts];
        for rank in 0..size {
            let (part, local) = partition.locate(rank);
            assert!(local < partition.cells(part), "rank {rank}");
            assert!(seen[part].insert(local), "rank {rank} shares a cell");
        }
        let all: Vec<usize> = (0..blocks.len()).collect();
        for (part, cells) in seen.iter().enumerate() {
            for slice in partition.slices(part, &all) {
                assert_eq!(slice.local_start % SLICE_ALIGN, 0);
                for rank in slice.ranks.clone() {
                    assert_eq!(
                        partition.locate(rank),
                        (part, slice.local_start + rank - slice.ranks.start)
                    );
                }
            }
            let chunked: u64 = partition
                .chunks(part, &all)
                .iter()
                .map(|c| c.ranks.end - c.ranks.start)
                .sum();
            assert_eq!(chunked, cells.len() as u64);
        }
        partition
    }

    #[test]
    fn every_rank_has_one_owner_and_cell() {
        for parts in 1..=5 {
            check(&blocks(&[1, 5, 100, 3]), parts);
            check(&blocks(&[40_000, 7, 17_000, 1, 1, 9_000]), parts);
            // Equal blocks: found by division.
            check(&blocks(&[5_000; 6]), parts);
        }
    }

    #[test]
    fn large_blocks_are_cut_evenly_and_small_ones_balanced() {
        let partition = check(&blocks(&[100_000]), 3);
        for part in 0..3 {
            let cells = partition.cells(part);
            assert!((33_200..=33_500).contains(&cells), "{cells}");
        }
        let partition = check(&blocks(&[100; 8]), 4);
        for part in 0..4 {
            assert_eq!(partition.cells(part), 2 * 128);
        }
    }

    #[test]
    fn one_process_owns_everything_in_order() {
        let partition = Partition::new(&blocks(&[10, 20_000, 3]), 1);
        assert_eq!(partition.locate(0), (0, 0));
        assert_eq!(partition.locate(10), (0, 64));
        assert_eq!(partition.locate(20_010), (0, 64 + 20_032));
    }
}
