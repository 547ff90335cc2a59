//! What every kernel dispatched over pieces of a table shares (the host
//! half of `shaders/pieces.wgsl`): the pieces a block is cut into, the
//! grid of workgroups that covers them, and the buffers they read.

use super::device::GpuDevice;
use crate::error::Result;
use crate::space::Block;

const WORKGROUP: u64 = 256;

/// The low bit of every cell of a u32 word of `bits`-bit cells.
fn low_bits(bits: u32) -> u32 {
    if bits == 2 { 0x5555_5555 } else { u32::MAX }
}
/// A range of words of one block, dispatched at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub block: u32,
    pub first_word: u32,
    pub words: u32,
    /// Rank in the block of the first cell of `first_word`, wrapping.
    pub local_base: u32,
    pub head_mask: u32,
    pub tail_mask: u32,
}

/// Cuts `block` (number `index`) of a table of `bits`-bit cells into
/// pieces of at most `piece_words` u32 words.
pub fn pieces_of(index: usize, block: &Block, piece_words: u64, bits: u32) -> Vec<Piece> {
    if block.len == 0 {
        return Vec::new();
    }
    let cells_per_word = 32 / bits as u64;
    let first = block.start / cells_per_word;
    let last = (block.end() - 1) / cells_per_word;
    let head = (block.start % cells_per_word) as u32;
    let tail = (block.end() - last * cells_per_word) as u32;
    let below = |cells: u32| -> u32 {
        if cells as u64 >= cells_per_word {
            u32::MAX
        } else {
            (1u32 << (bits * cells)) - 1
        }
    };
    let all = low_bits(bits);
    let mut pieces = Vec::new();
    let mut word = first;
    while word <= last {
        let end = (word + piece_words).min(last + 1);
        pieces.push(Piece {
            block: index as u32,
            first_word: word as u32,
            words: (end - word) as u32,
            local_base: (word * cells_per_word).wrapping_sub(block.start) as u32,
            head_mask: if word == first {
                all & !below(head)
            } else {
                all
            },
            tail_mask: if end == last + 1 {
                all & below(tail)
            } else {
                all
            },
        });
        word = end;
    }
    pieces
}

/// Workgroups for `invocations`, as a 2-D grid when one dimension is not enough.
pub fn grid(invocations: u64, max_per_dimension: u32) -> (u32, u32) {
    let groups = invocations.div_ceil(WORKGROUP).max(1);
    let max = max_per_dimension as u64;
    if groups <= max {
        (groups as u32, 1)
    } else {
        (max as u32, groups.div_ceil(max) as u32)
    }
}

/// A buffer of `size` bytes for `usage`, named `what` in errors.
pub(crate) fn create_buffer(
    gpu: &GpuDevice,
    what: &str,
    size: u64,
    usage: wgpu::BufferUsages,
) -> Result<wgpu::Buffer> {
    gpu.checked(&format!("allocating the {what} buffer"), || {
        gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(what),
            size,
            usage,
            mapped_at_creation: false,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::gpu::device::PIECE_WORDS;

    #[test]
    fn pieces_cover_a_block_and_mask_its_neighbours() {
        let block = Block { start: 21, len: 40 };
        let pieces = pieces_of(3, &block, PIECE_WORDS, 2);
        assert_eq!(pieces.len(), 1);
        let piece = &pieces[0];
        assert_eq!((piece.first_word, piece.words), (1, 3));
        // Cells 16..21 of the first word belong to the block before.
        let all = low_bits(2);
        assert_eq!(piece.head_mask, all & !((1 << 10) - 1));
        // The block ends at cell 61: cells 48..61 of the last word.
        assert_eq!(piece.tail_mask, all & ((1 << 26) - 1));
        assert_eq!(piece.local_base, (16u64.wrapping_sub(21)) as u32);
        assert_eq!(piece.local_base.wrapping_add(5), 0);

        let long = Block {
            start: 0,
            len: PIECE_WORDS * 16 * 2 + 1,
        };
        let pieces = pieces_of(0, &long, PIECE_WORDS, 2);
        assert_eq!(pieces.len(), 3);
        assert_eq!(pieces[1].local_base, (PIECE_WORDS * 16) as u32);
        assert_eq!(pieces[1].head_mask, low_bits(2));
        assert_eq!(pieces[2].words, 1);
        assert_eq!(pieces[2].tail_mask, 1);
    }

    #[test]
    fn grids_go_two_dimensional_past_the_limit() {
        assert_eq!(grid(1, 65_535), (1, 1));
        assert_eq!(grid(256 * 65_535, 65_535), (65_535, 1));
        assert_eq!(grid(256 * 65_535 + 1, 65_535), (65_535, 2));
    }
}
