//! Splitting a space into units of parallel work.

use std::ops::Range;

use rayon::prelude::*;

use crate::space::{Block, Space};

/// States per chunk: large enough to amortise scheduling, small enough that
/// two cores (or sixteen) stay busy to the end of a pass. A multiple of 64 so
/// chunks never share a table word except at block boundaries.
pub const CHUNK_STATES: u64 = 1 << 16;

/// A range of ranks inside one block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// The block the chunk lies in, by its index.
    pub block: usize,
    /// The chunk's ranks in the space.
    pub ranks: Range<u64>,
}

/// Cuts every block at the multiples of [`CHUNK_STATES`].
pub fn chunks_of(blocks: &[Block]) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        let mut start = block.start;
        while start < block.end() {
            let next_boundary = (start / CHUNK_STATES + 1) * CHUNK_STATES;
            let end = next_boundary.min(block.end());
            chunks.push(Chunk {
                block: index,
                ranks: start..end,
            });
            start = end;
        }
    }
    chunks
}

/// `units` as parallel work, each unit a job of its own.
///
/// Left to itself rayon halves a slice a few times and then folds each
/// part on one thread, and a part once begun is not split again. When
/// the units' costs are uneven (a Morris frontier crowds into a few
/// blocks; an opening chunk of flying positions has many more moves than
/// its neighbours) one thread is then left with most of a pass while the
/// others have nothing to steal: Nine Men's Morris's moving layers ran
/// at 1.4–1.7× on two cores, and at 1.93–1.96× (layers 1..10) with a job
/// a unit. A unit is a chunk of 65,536 cells, or at least 64 listed
/// positions and their moves, so a job apiece costs nothing measurable.
pub fn each_unit<T: Sync>(units: &[T]) -> impl IndexedParallelIterator<Item = &T> {
    units.par_iter().with_max_len(1)
}

/// The space's chunks, and which of them belong to each block.
pub struct ChunkIndex {
    chunks: Vec<Chunk>,
    /// Chunks of block b: `chunks[first[b]..first[b + 1]]`.
    first: Vec<usize>,
}

impl ChunkIndex {
    /// The chunks of `space`'s blocks.
    pub fn new<S: Space>(space: &S) -> Self {
        let blocks = space.blocks();
        let chunks = chunks_of(&blocks);
        let mut first = vec![0; blocks.len() + 1];
        for chunk in &chunks {
            first[chunk.block + 1] += 1;
        }
        for b in 0..blocks.len() {
            first[b + 1] += first[b];
        }
        ChunkIndex { chunks, first }
    }

    /// The chunks of `blocks`, in order.
    pub fn of(&self, blocks: &[usize]) -> Vec<&Chunk> {
        blocks
            .iter()
            .flat_map(|&b| &self.chunks[self.first[b]..self.first[b + 1]])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_blocks_exactly_and_respect_boundaries() {
        let blocks = vec![
            Block { start: 0, len: 100 },
            Block {
                start: 100,
                len: CHUNK_STATES * 2 + 5,
            },
            Block {
                start: 100 + CHUNK_STATES * 2 + 5,
                len: 1,
            },
        ];
        let chunks = chunks_of(&blocks);
        let mut next = 0;
        for chunk in &chunks {
            assert_eq!(chunk.ranks.start, next);
            assert!(blocks[chunk.block].range().contains(&chunk.ranks.start));
            assert!(chunk.ranks.end <= blocks[chunk.block].end());
            assert!(chunk.ranks.end - chunk.ranks.start <= CHUNK_STATES);
            next = chunk.ranks.end;
        }
        assert_eq!(next, blocks[2].end());
        assert_eq!(chunks.len(), 1 + 3 + 1);
    }
}
