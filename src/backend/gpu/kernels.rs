//! The kernels of one program and one algorithm (its entry points in
//! `shaders/two_bit_bfs.wgsl` or `shaders/one_bit_bfs.wgsl`) over a table
//! whose blocks are in place on the device, as a [`KernelSet`]; the
//! pieces a pass dispatches, and what its counters mean.

use super::device::GpuDevice;
use super::kernel_set::{FIRST_WINDOW_BINDING, KernelSet, KernelSpec};
use super::shader::{self, window_accessors};
use super::table::DeviceTable;
use crate::error::{Error, Result};
use crate::kernel::{self, Program};
use crate::space::Block;

const WORKGROUP: u64 = 256;

/// The low bit of every cell of a u32 word of `bits`-bit cells.
fn low_bits(bits: u32) -> u32 {
    if bits == 2 { 0x5555_5555 } else { u32::MAX }
}
/// Five 64-bit counters: marked, expanded, successors, parent checks, missed.
const COUNTERS: usize = 5;

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

/// The entry points of one algorithm's WGSL, and the cells its table holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Algorithm {
    pub label: &'static str,
    pub source: &'static str,
    pub entry_points: &'static [&'static str],
    pub bits_per_cell: u32,
}

/// The two-bit BFS: `shaders/two_bit_bfs.wgsl`.
pub const TWO_BIT: Algorithm = Algorithm {
    label: "two-bit BFS",
    source: shader::TWO_BIT_BFS,
    entry_points: &[
        "expand_frontier",
        "check_parents",
        "close_frontier",
        "fill_unseen",
        "count_equal",
    ],
    bits_per_cell: 2,
};

/// One-bit BFS and reachability: `shaders/one_bit_bfs.wgsl`.
pub const ONE_BIT: Algorithm = Algorithm {
    label: "one-bit BFS",
    source: shader::ONE_BIT_BFS,
    entry_points: &["expand_set", "fill_clear", "or_block", "count_set"],
    bits_per_cell: 1,
};

impl From<PassCounts> for crate::search::Work {
    fn from(counts: PassCounts) -> Self {
        crate::search::Work {
            expanded: counts.expanded,
            successors: counts.successors,
            parent_checks: counts.parent_checks,
            marked: counts.marked,
            ..Default::default()
        }
    }
}

/// Counts a pass returns.
#[derive(Clone, Copy, Debug, Default)]
pub struct PassCounts {
    pub marked: u64,
    pub expanded: u64,
    pub successors: u64,
    pub parent_checks: u64,
}

pub(crate) struct Kernels {
    algorithm: Algorithm,
    set: KernelSet,
    /// Where the block starts sit in the rule tables (u32 index).
    block_starts_at: u64,
    blocks: Vec<Block>,
    /// Cells the device table holds, and the rank of its first cell: 0
    /// while the whole table is resident, the first rank of the blocks in
    /// place while blocks stream through.
    device_cells: u64,
    base: u64,
    piece_words: u64,
}

/// Marks a block that is not in device memory (successors into it are
/// counted as missed).
const ABSENT: u32 = u32::MAX;

impl Kernels {
    pub fn new(
        gpu: &GpuDevice,
        algorithm: Algorithm,
        mut program: Program,
        blocks: &[Block],
        table: &DeviceTable,
    ) -> Result<Self> {
        let starts: Vec<u32> = blocks
            .iter()
            .flat_map(|b| [b.start as u32, (b.start >> 32) as u32])
            .collect();
        let block_starts_at = program.tables().len() as u64;
        program
            .table("BLOCK_STARTS_AT", &starts)
            .source(kernel::U64)
            .source(shader::PIECES)
            .source(shader::PASS)
            .source(algorithm.source);
        let windows = table.windows().len();
        let module = shader::compile(
            &program,
            gpu,
            algorithm.label,
            &window_accessors(windows, table.window_words_log2(), FIRST_WINDOW_BINDING),
        )?;
        // Room for the parameters of every piece of every block, or of the
        // whole device table (the fill), whichever is more.
        let device_cells = table.words() * (32 / algorithm.bits_per_cell as u64);
        let piece_words = gpu.piece_words();
        let block_pieces: usize = blocks
            .iter()
            .enumerate()
            .map(|(index, block)| {
                pieces_of(index, block, piece_words, algorithm.bits_per_cell).len()
            })
            .sum();
        let fill_pieces = table.words().div_ceil(piece_words) as usize;
        let windows: Vec<&wgpu::Buffer> = table.windows().iter().collect();
        let set = KernelSet::new(
            gpu,
            KernelSpec {
                label: algorithm.label,
                module: &module,
                entry_points: algorithm.entry_points,
                rule_tables: program.tables(),
                windows: &windows,
                max_pieces: block_pieces.max(fill_pieces),
                counters: COUNTERS,
            },
        )?;
        let mut kernels = Kernels {
            algorithm,
            set,
            block_starts_at,
            blocks: blocks.to_vec(),
            device_cells,
            base: 0,
            piece_words,
        };
        kernels.place(gpu, 0);
        Ok(kernels)
    }

    /// Lays the device table over the ranks from `base` (a multiple of 32):
    /// blocks wholly inside it are addressed there, the others are absent.
    pub fn place(&mut self, gpu: &GpuDevice, base: u64) {
        debug_assert_eq!(base % 32, 0);
        self.base = base;
        let end = base + self.device_cells;
        let starts: Vec<u32> = self
            .blocks
            .iter()
            .flat_map(|b| {
                if b.start >= base && b.end() <= end {
                    let at = b.start - base;
                    [at as u32, (at >> 32) as u32]
                } else {
                    [ABSENT, ABSENT]
                }
            })
            .collect();
        gpu.queue.write_buffer(
            self.set.rule_tables(),
            self.block_starts_at * 4,
            bytemuck::cast_slice(&starts),
        );
    }

    /// The pieces of `blocks` as placed in device memory.
    fn pieces(&self, blocks: &[usize]) -> Vec<Piece> {
        blocks
            .iter()
            .flat_map(|&b| {
                let placed = Block {
                    start: self.blocks[b].start - self.base,
                    len: self.blocks[b].len,
                };
                pieces_of(b, &placed, self.piece_words, self.algorithm.bits_per_cell)
            })
            .collect()
    }

    /// Runs entry point `entry` over the pieces of `blocks` (all in place)
    /// with the two pass values (`values`: frontier and next for the
    /// two-bit BFS), one submission per piece, calling `advance` as each
    /// piece completes; returns the counters.
    pub fn run(
        &self,
        gpu: &GpuDevice,
        entry: &str,
        blocks: &[usize],
        values: [u32; 2],
        advance: &dyn Fn(),
    ) -> Result<PassCounts> {
        self.dispatch(gpu, entry, &self.pieces(blocks), values, advance)
    }

    /// Runs entry point `entry` over every word of the device table.
    pub fn run_on_whole_table(&self, gpu: &GpuDevice, entry: &str) -> Result<PassCounts> {
        let whole = Block {
            start: 0,
            len: self.device_cells,
        };
        let pieces = pieces_of(0, &whole, self.piece_words, self.algorithm.bits_per_cell);
        self.dispatch(gpu, entry, &pieces, [0, 0], &|| {})
    }

    fn dispatch(
        &self,
        gpu: &GpuDevice,
        entry: &str,
        pieces: &[Piece],
        values: [u32; 2],
        advance: &dyn Fn(),
    ) -> Result<PassCounts> {
        let counts = self.set.dispatch(gpu, entry, pieces, values, advance)?;
        if counts[4] > 0 {
            return Err(Error::Gpu(format!(
                "{} successors fell outside the blocks in device memory (a game's layering is wrong)",
                counts[4]
            )));
        }
        Ok(PassCounts {
            marked: counts[0],
            expanded: counts[1],
            successors: counts[2],
            parent_checks: counts[3],
        })
    }

    /// The rank ranges of `blocks`.
    pub fn ranges(&self, blocks: &[usize]) -> Vec<std::ops::Range<u64>> {
        blocks.iter().map(|&b| self.blocks[b].range()).collect()
    }

    /// Number of pieces (progress units) of `blocks`.
    pub fn piece_count(&self, blocks: &[usize]) -> u64 {
        self.pieces(blocks).len() as u64
    }
}

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
