//! The one-bit BFS and reachability passes over a host [`OneBitTable`].

use super::{BATCH, count_states, first_ranks, has_parent, run_pass};
use crate::error::Result;
use crate::search::backend::{OneBitPasses, Pass};
use crate::search::chunks::{Chunk, ChunkIndex};
use crate::search::{LayerCount, Work};
use crate::space::{MoveFilter, Space};
use crate::table::{OneBitTable, WordStorage};

/// The passes over a host table: the CPU backend's table, and the host
/// copy a GPU run keeps of its store.
pub(crate) struct CpuOneBit<'a, S: Space> {
    space: &'a S,
    pub(crate) table: OneBitTable,
    chunks: ChunkIndex,
}

impl<'a, S: Space> CpuOneBit<'a, S> {
    pub fn new(space: &'a S, table: OneBitTable) -> Self {
        CpuOneBit {
            space,
            table,
            chunks: ChunkIndex::new(space),
        }
    }
}

impl<S: Space> OneBitPasses for CpuOneBit<'_, S> {
    fn storage(&self) -> &WordStorage {
        self.table.storage()
    }

    fn set_bits(&mut self, ranks: &[u64]) -> Result<()> {
        for &rank in ranks {
            self.table.set(rank);
        }
        Ok(())
    }

    fn or_block(&mut self, source: usize, target: usize) -> Result<()> {
        let blocks = self.space.blocks();
        let (source, target) = (&blocks[source], &blocks[target]);
        self.table.or_range(source.start, target.start, source.len);
        Ok(())
    }

    fn expand(&mut self, pass: &Pass, moves: MoveFilter) -> Result<Work> {
        let chunks = self.chunks.of(&pass.scanned);
        run_pass(pass, &chunks, |chunk| {
            expand_chunk(self.space, &self.table, chunk, moves)
        })
    }

    fn fill(&mut self, pass: &Pass, moves: MoveFilter) -> Result<Work> {
        let chunks = self.chunks.of(&pass.scanned);
        run_pass(pass, &chunks, |chunk| {
            fill_chunk(self.space, &self.table, chunk, moves)
        })
    }

    fn count(&mut self, blocks: &[usize]) -> Result<LayerCount> {
        let space_blocks = self.space.blocks();
        let representatives = blocks
            .iter()
            .map(|&b| self.table.count_in(space_blocks[b].range()))
            .sum();
        let table = &self.table;
        Ok(count_states(
            self.space,
            &self.chunks.of(blocks),
            representatives,
            |chunk, visit| table.for_each_set(chunk.ranks.clone(), visit),
        ))
    }

    fn bits(&mut self, ranks: &[u64]) -> Result<Vec<bool>> {
        Ok(ranks.iter().map(|&rank| self.table.get(rank)).collect())
    }

    fn first_set(&mut self, blocks: &[usize], limit: usize) -> Result<Vec<u64>> {
        let table = &self.table;
        Ok(first_ranks(
            &self.chunks.of(blocks),
            limit,
            |chunk, visit| table.for_each_set(chunk.ranks.clone(), visit),
        ))
    }

    fn discard(&mut self, blocks: &[usize]) -> Result<()> {
        let space_blocks = self.space.blocks();
        for &b in blocks {
            self.table.discard(space_blocks[b].range())?;
        }
        Ok(())
    }

    fn host_view(&mut self, _blocks: &[usize]) -> Result<&OneBitTable> {
        Ok(&self.table)
    }
}

/// Expands every set bit of one chunk; counts the bits it set.
fn expand_chunk<S: Space>(
    space: &S,
    table: &OneBitTable,
    chunk: &Chunk,
    moves: MoveFilter,
) -> Work {
    let mut state = space.new_state();
    let mut batch = Vec::with_capacity(BATCH + 64);
    let mut work = Work::default();
    let flush = |batch: &mut Vec<u64>, work: &mut Work| {
        work.successors += batch.len() as u64;
        for &rank in batch.iter() {
            work.marked += table.test_and_set(rank) as u64;
        }
        batch.clear();
    };
    table.for_each_set(chunk.ranks.clone(), |rank| {
        space.unrank(rank, &mut state);
        work.expanded += 1;
        space.expand(&state, moves, |successor| {
            // Read back in `flush`, a batch later (as in the two-bit pass).
            table.prefetch(successor);
            batch.push(successor)
        });
        if batch.len() >= BATCH {
            flush(&mut batch, &mut work);
        }
    });
    flush(&mut batch, &mut work);
    work
}

/// Pull step: every clear bit of the chunk with a set neighbour is set.
fn fill_chunk<S: Space>(space: &S, table: &OneBitTable, chunk: &Chunk, moves: MoveFilter) -> Work {
    let mut scratch = (space.new_state(), Vec::with_capacity(64));
    let mut work = Work::default();
    table.for_each_clear(chunk.ranks.clone(), |rank| {
        if has_parent(space, rank, moves, &mut scratch, &mut work, |n| {
            table.get(n)
        }) {
            table.set(rank);
            work.marked += 1;
        }
    });
    work
}
