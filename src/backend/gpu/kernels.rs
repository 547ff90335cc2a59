//! The two-bit BFS kernels of one program: pipelines, the bind group over
//! the table windows, per-dispatch parameters and the counters.

use super::device::GpuDevice;
use super::shader::{self, Program, window_accessors};
use super::table::{CELLS_PER_WORD, DeviceTable, Staging};
use crate::error::{Error, Result};
use crate::space::Block;

/// Words per dispatch (268 M cells): big enough to fill a GPU, small enough
/// that the progress bar moves. At 256 words a workgroup this is one more
/// workgroup than a grid dimension holds, so large blocks use 2-D grids.
pub const PIECE_WORDS: u64 = 1 << 24;
const WORKGROUP: u64 = 256;
const LOW_BITS: u32 = 0x5555_5555;
/// Bytes of the kernels' `Params` struct.
const PARAMS_BYTES: u64 = 32;
/// First binding of the table windows.
const FIRST_WINDOW_BINDING: u32 = 3;

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

/// Cuts `block` (number `index`) into pieces of at most `piece_words` words.
pub fn pieces_of(index: usize, block: &Block, piece_words: u64) -> Vec<Piece> {
    if block.len == 0 {
        return Vec::new();
    }
    let first = block.start / CELLS_PER_WORD;
    let last = (block.end() - 1) / CELLS_PER_WORD;
    let head = (block.start % CELLS_PER_WORD) as u32;
    let tail = (block.end() - last * CELLS_PER_WORD) as u32;
    let below = |cells: u32| -> u32 {
        if cells >= 16 {
            u32::MAX
        } else {
            (1u32 << (2 * cells)) - 1
        }
    };
    let mut pieces = Vec::new();
    let mut word = first;
    while word <= last {
        let end = (word + piece_words).min(last + 1);
        pieces.push(Piece {
            block: index as u32,
            first_word: word as u32,
            words: (end - word) as u32,
            local_base: (word * CELLS_PER_WORD).wrapping_sub(block.start) as u32,
            head_mask: if word == first {
                LOW_BITS & !below(head)
            } else {
                LOW_BITS
            },
            tail_mask: if end == last + 1 {
                LOW_BITS & below(tail)
            } else {
                LOW_BITS
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Expand,
    CheckParents,
    CloseFrontier,
    FillUnseen,
}

/// Counts a pass returns.
#[derive(Clone, Copy, Debug, Default)]
pub struct PassCounts {
    pub marked: u64,
    pub expanded: u64,
    pub successors: u64,
    pub parent_checks: u64,
}

pub(crate) struct TwoBitKernels {
    expand: wgpu::ComputePipeline,
    check_parents: wgpu::ComputePipeline,
    close_frontier: wgpu::ComputePipeline,
    fill_unseen: wgpu::ComputePipeline,
    bind_group: wgpu::BindGroup,
    /// Held for the bind group's dynamic uniform binding.
    _params: wgpu::Buffer,
    params_stride: u64,
    counters: wgpu::Buffer,
    readback: Staging,
    /// Every block's pieces, in block order.
    pub pieces: Vec<Vec<Piece>>,
    piece_slot: Vec<Vec<u64>>,
    max_groups: u32,
}

impl TwoBitKernels {
    pub fn new(
        gpu: &GpuDevice,
        mut program: Program,
        blocks: &[Block],
        table: &DeviceTable,
    ) -> Result<Self> {
        let starts: Vec<u32> = blocks
            .iter()
            .flat_map(|b| [b.start as u32, (b.start >> 32) as u32])
            .collect();
        program
            .table("BLOCK_STARTS_AT", &starts)
            .source(shader::U64)
            .source(shader::TWO_BIT_BFS);
        let windows = table.windows().len();
        let module = program.compile(
            gpu,
            "two-bit BFS",
            &window_accessors(windows, table.window_words_log2(), FIRST_WINDOW_BINDING),
        )?;
        let storage = |binding: u32, read_only: bool| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let mut entries = vec![
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: wgpu::BufferSize::new(PARAMS_BYTES),
                },
                count: None,
            },
            storage(1, true),
            storage(2, false),
        ];
        entries.extend((0..windows as u32).map(|w| storage(FIRST_WINDOW_BINDING + w, false)));
        let device = &gpu.device;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("two-bit BFS"),
            entries: &entries,
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("two-bit BFS"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |entry: &str| {
            gpu.checked(&format!("building the {entry} kernel"), || {
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry),
                    layout: Some(&pipeline_layout),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    cache: None,
                })
            })
        };
        let expand = pipeline("expand_frontier")?;
        let check_parents = pipeline("check_parents")?;
        let close_frontier = pipeline("close_frontier")?;
        let fill_unseen = pipeline("fill_unseen")?;

        // Parameters of every piece for both frontier values, written once.
        // After the blocks, one pseudo-block over the whole table for the fill.
        let whole_table = Block {
            start: 0,
            len: table.words() * CELLS_PER_WORD,
        };
        let pieces: Vec<Vec<Piece>> = blocks
            .iter()
            .chain([&whole_table])
            .enumerate()
            .map(|(index, block)| pieces_of(index, block, gpu.piece_words()))
            .collect();
        let params_stride =
            PARAMS_BYTES.next_multiple_of(gpu.limits().min_uniform_buffer_offset_alignment as u64);
        let mut slots = Vec::new();
        let mut piece_slot = Vec::new();
        for block_pieces in &pieces {
            let mut block_slots = Vec::new();
            for piece in block_pieces {
                block_slots.push(slots.len() as u64 / 2);
                for frontier in [1u32, 2] {
                    slots.push([
                        piece.block,
                        piece.first_word,
                        piece.words,
                        piece.local_base,
                        piece.head_mask,
                        piece.tail_mask,
                        frontier,
                        3 - frontier,
                    ]);
                }
            }
            piece_slot.push(block_slots);
        }
        let mut bytes = vec![0u8; (slots.len() as u64 * params_stride).max(params_stride) as usize];
        for (index, slot) in slots.iter().enumerate() {
            let at = index * params_stride as usize;
            bytes[at..at + PARAMS_BYTES as usize].copy_from_slice(bytemuck::cast_slice(slot));
        }
        let params = create_buffer(
            gpu,
            "parameters",
            bytes.len() as u64,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        )?;
        gpu.queue.write_buffer(&params, 0, &bytes);
        let tables = program.tables();
        let tables_buffer = create_buffer(
            gpu,
            "rule tables",
            (tables.len() as u64 * 4).max(4),
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        )?;
        gpu.queue
            .write_buffer(&tables_buffer, 0, bytemuck::cast_slice(tables));
        let counters = create_buffer(
            gpu,
            "counters",
            32,
            wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
        )?;
        let mut bindings = vec![
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &params,
                    offset: 0,
                    size: wgpu::BufferSize::new(PARAMS_BYTES),
                }),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: tables_buffer.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: counters.as_entire_binding(),
            },
        ];
        bindings.extend(table.windows().iter().enumerate().map(|(w, buffer)| {
            wgpu::BindGroupEntry {
                binding: FIRST_WINDOW_BINDING + w as u32,
                resource: buffer.as_entire_binding(),
            }
        }));
        let bind_group = gpu.checked("binding the table", || {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("two-bit BFS"),
                layout: &layout,
                entries: &bindings,
            })
        })?;
        Ok(TwoBitKernels {
            expand,
            check_parents,
            close_frontier,
            fill_unseen,
            bind_group,
            _params: params,
            params_stride,
            counters,
            readback: Staging::new(gpu, 32)?,
            pieces,
            piece_slot,
            max_groups: gpu.max_workgroups(),
        })
    }

    /// Runs `kernel` over the pieces of `blocks` with frontier value
    /// `frontier`, one submission per piece, calling `advance` as each piece
    /// completes; returns the counters.
    pub fn run(
        &self,
        gpu: &GpuDevice,
        kernel: Kernel,
        blocks: &[usize],
        frontier: u8,
        advance: &dyn Fn(),
    ) -> Result<PassCounts> {
        let pipeline = match kernel {
            Kernel::Expand => &self.expand,
            Kernel::CheckParents => &self.check_parents,
            Kernel::CloseFrontier => &self.close_frontier,
            Kernel::FillUnseen => &self.fill_unseen,
        };
        let mut submissions = Vec::new();
        let mut first = true;
        for &block in blocks {
            for (piece, &slot) in self.pieces[block].iter().zip(&self.piece_slot[block]) {
                let mut encoder = gpu
                    .device
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
                if first {
                    encoder.clear_buffer(&self.counters, 0, None);
                    first = false;
                }
                {
                    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                        label: None,
                        timestamp_writes: None,
                    });
                    pass.set_pipeline(pipeline);
                    let offset = (2 * slot + (frontier as u64 - 1)) * self.params_stride;
                    pass.set_bind_group(0, &self.bind_group, &[offset as u32]);
                    let (x, y) = grid(piece.words as u64, self.max_groups);
                    pass.dispatch_workgroups(x, y, 1);
                }
                submissions.push(gpu.queue.submit([encoder.finish()]));
            }
        }
        for submission in submissions {
            gpu.device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(submission),
                    timeout: None,
                })
                .map_err(|e| Error::Gpu(format!("waiting for a kernel: {e}")))?;
            advance();
        }
        if first {
            return Ok(PassCounts::default());
        }
        let mut counts = [0u32; 8];
        self.readback.read(gpu, (&self.counters, 0), 32, |bytes| {
            counts.copy_from_slice(bytemuck::cast_slice(&bytes[..32]));
        })?;
        let pair = |i: usize| counts[2 * i] as u64 | (counts[2 * i + 1] as u64) << 32;
        Ok(PassCounts {
            marked: pair(0),
            expanded: pair(1),
            successors: pair(2),
            parent_checks: pair(3),
        })
    }

    /// Sets every cell of the device table to unseen (3).
    pub fn fill_unseen(&self, gpu: &GpuDevice) -> Result<()> {
        let whole_table = self.pieces.len() - 1;
        self.run(gpu, Kernel::FillUnseen, &[whole_table], 1, &|| {})?;
        Ok(())
    }

    /// Number of pieces (progress units) of `blocks`.
    pub fn piece_count(&self, blocks: &[usize]) -> u64 {
        blocks.iter().map(|&b| self.pieces[b].len() as u64).sum()
    }
}

fn create_buffer(
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

    #[test]
    fn pieces_cover_a_block_and_mask_its_neighbours() {
        let block = Block { start: 21, len: 40 };
        let pieces = pieces_of(3, &block, PIECE_WORDS);
        assert_eq!(pieces.len(), 1);
        let piece = &pieces[0];
        assert_eq!((piece.first_word, piece.words), (1, 3));
        // Cells 16..21 of the first word belong to the block before.
        assert_eq!(piece.head_mask, LOW_BITS & !((1 << 10) - 1));
        // The block ends at cell 61: cells 48..61 of the last word.
        assert_eq!(piece.tail_mask, LOW_BITS & ((1 << 26) - 1));
        assert_eq!(piece.local_base, (16u64.wrapping_sub(21)) as u32);
        assert_eq!(piece.local_base.wrapping_add(5), 0);

        let long = Block {
            start: 0,
            len: PIECE_WORDS * 16 * 2 + 1,
        };
        let pieces = pieces_of(0, &long, PIECE_WORDS);
        assert_eq!(pieces.len(), 3);
        assert_eq!(pieces[1].local_base, (PIECE_WORDS * 16) as u32);
        assert_eq!(pieces[1].head_mask, LOW_BITS);
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
