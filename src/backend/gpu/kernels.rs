//! The kernels of one program and one algorithm (its entry points in
//! `shaders/two_bit_bfs.wgsl` or `shaders/one_bit_bfs.wgsl`) over a table
//! whose blocks are in place on the device, as a [`KernelSet`]; the
//! pieces a pass dispatches, and what its counters mean.

use super::device::GpuDevice;
use super::kernel_set::{FIRST_WINDOW_BINDING, KernelSet, KernelSpec};
use super::pieces::{Piece, pieces_of};
use super::shader::{self, window_accessors};
use super::table::DeviceTable;
use crate::error::{Error, Result};
use crate::kernel::{self, Program};
use crate::space::Block;

/// Five 64-bit counters: marked, expanded, successors, parent checks, missed.
const COUNTERS: usize = 5;

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
        let source = program.text(&window_accessors(
            windows,
            table.window_words_log2(),
            FIRST_WINDOW_BINDING,
        ));
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
                source,
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
        pass_counts(
            self.set
                .dispatch(gpu, entry, &self.pieces(blocks), values, advance)?,
        )
    }

    /// Runs entry point `entry` over every word of the device table.
    pub fn run_on_whole_table(&self, gpu: &GpuDevice, entry: &str) -> Result<PassCounts> {
        let whole = Block {
            start: 0,
            len: self.device_cells,
        };
        let pieces = pieces_of(0, &whole, self.piece_words, self.algorithm.bits_per_cell);
        pass_counts(self.set.dispatch(gpu, entry, &pieces, [0, 0], &|| {})?)
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

/// A pass's counters as the BFS reports them; an error where a successor
/// fell outside the blocks in device memory.
fn pass_counts(counters: [u64; COUNTERS]) -> Result<PassCounts> {
    let [marked, expanded, successors, parent_checks, outside] = counters;
    if outside > 0 {
        return Err(Error::Gpu(format!(
            "{outside} successors fell outside the blocks in device memory (a game's layering is wrong)"
        )));
    }
    Ok(PassCounts {
        marked,
        expanded,
        successors,
        parent_checks,
    })
}
