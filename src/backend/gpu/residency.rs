//! Where a GPU run's table lives: wholly in device memory, or, when it does
//! not fit and the space's layering confines every layer to a few blocks,
//! on the host with each pass's blocks streaming through a smaller device
//! buffer. A file-backed (or streamed) run also keeps the host copy current
//! after every pass, which is what makes it resumable by either backend.

use std::ops::Range;
use std::sync::atomic::AtomicU64;

use super::device::GpuDevice;
use super::kernels::Kernels;
use super::table::DeviceTable;
use crate::error::{Error, Result, size_needed, sizes_compared};
use crate::kernel::CPU_HINT;
use crate::search::backend::{Pass, TableRequest};
use crate::search::{Work, blocks_of_layer, union};
use crate::space::{Block, Space};
use crate::table::Backing;

/// Table word indices are u32 on the device: 2^32 words of 16 two-bit cells.
const MAX_CELLS: u64 = 1 << 36;

pub(super) struct Residency {
    pub device: DeviceTable,
    /// The host holds the table; each pass's blocks stream through `device`.
    pub streamed: bool,
    /// The host copy is a store (a file) kept current after every pass.
    pub stored: bool,
    blocks: Vec<Block>,
    /// u64 words of the whole host table.
    host_words: usize,
    bits: u32,
}

impl Residency {
    /// Device memory for a table of `bits`-bit cells over `space`, or for
    /// the largest span of blocks a pass touches (see [`Self::streamed`]).
    pub fn plan<S: Space>(
        gpu: &GpuDevice,
        space: &S,
        bits: u32,
        request: &TableRequest,
    ) -> Result<Self> {
        let blocks = space.blocks();
        let host_cells_per_word = 64 / bits as u64;
        let host_words = space.size().div_ceil(host_cells_per_word) as usize;
        let descriptor = &request.identity.descriptor;
        let bytes = host_words as u64 * 8;
        let whole = if let Some(limit) = gpu.device_bytes().filter(|&limit| bytes > limit) {
            let (needed, limit) = sizes_compared(bytes, limit);
            Err(Error::Gpu(format!(
                "{descriptor} needs {needed}, more than the {limit} of device memory allowed"
            )))
        } else {
            DeviceTable::create(gpu, host_words, bits, descriptor)
        };
        let stored = !matches!(request.backing, Backing::Heap);
        let device = match whole {
            Ok(table) => table,
            Err(refused) => return Self::streaming(gpu, space, bits, request, refused),
        };
        Ok(Residency {
            device,
            streamed: false,
            stored,
            blocks,
            host_words,
            bits,
        })
    }

    fn streaming<S: Space>(
        gpu: &GpuDevice,
        space: &S,
        bits: u32,
        request: &TableRequest,
        refused: Error,
    ) -> Result<Self> {
        let refused = reason(refused);
        let Some(layering) = space.layering().filter(|l| l.exact) else {
            return Err(Error::Gpu(format!(
                "{refused}; only games whose blocks hold exactly one layer (Peg Solitaire) can stream blocks through a smaller device memory {CPU_HINT}"
            )));
        };
        let blocks = space.blocks();
        let host_cells_per_word = 64 / bits as u64;
        let host_words = space.size().div_ceil(host_cells_per_word) as usize;
        let layers = layering
            .residues
            .iter()
            .max()
            .map_or(0, |&r| r as usize + 1);
        let last = request
            .max_depth
            .map_or(layers, |depth| layers.min(depth.saturating_add(1)));
        let span_cells = (1..last)
            .map(|layer| {
                let touched = union(
                    &blocks_of_layer(space, layer - 1),
                    &blocks_of_layer(space, layer),
                );
                let span = hull(&blocks, &touched, host_words, bits);
                span.end - span.start
            })
            .max()
            .unwrap_or(0);
        let span_words = span_cells.div_ceil(host_cells_per_word) as usize;
        let span_bytes = span_words as u64 * 8;
        if gpu.device_bytes().is_some_and(|limit| span_bytes > limit) || span_words >= host_words {
            let needed = size_needed(span_bytes);
            return Err(Error::Gpu(format!(
                "{refused}; streaming needs {needed} for the blocks of one layer, which does not fit either"
            )));
        }
        let device = DeviceTable::create(gpu, span_words, bits, &request.identity.descriptor)
            .map_err(|e| {
                let e = reason(e);
                Error::Gpu(format!("{refused}; streaming the blocks of one layer: {e}"))
            })?;
        Ok(Residency {
            device,
            streamed: true,
            stored: !matches!(request.backing, Backing::Heap),
            blocks,
            host_words,
            bits,
        })
    }

    /// True when a host copy of the table is kept (a store, or streaming).
    pub fn on_host(&self) -> bool {
        self.stored || self.streamed
    }

    /// Cells the host table needs: the whole space while it is kept, none
    /// when the table lives on the device alone.
    pub fn host_cells<S: Space>(&self, space: &S) -> u64 {
        if self.on_host() { space.size() } else { 0 }
    }

    /// Runs kernel `entry` with `values` over the scanned blocks of `pass`,
    /// showing its progress, with the host copy `host` brought up to date
    /// before and after as the residency needs.
    pub fn run_pass(
        &self,
        gpu: &GpuDevice,
        kernels: &mut Kernels,
        host: &[AtomicU64],
        pass: &Pass,
        entry: &str,
        values: [u32; 2],
    ) -> Result<Work> {
        self.before_pass(gpu, kernels, host, &pass.touched)?;
        let progress = pass.progress;
        progress.begin_pass(&pass.label, kernels.piece_count(&pass.scanned));
        let counts = kernels.run(gpu, entry, &pass.scanned, values, &|| progress.advance(1));
        progress.end_pass();
        let counts = counts?;
        self.after_pass(gpu, host, &pass.touched)?;
        Ok(counts.into())
    }

    /// Before a pass that writes `touched` blocks: a streamed table places
    /// and uploads their span.
    fn before_pass(
        &self,
        gpu: &GpuDevice,
        kernels: &mut Kernels,
        host: &[AtomicU64],
        touched: &[usize],
    ) -> Result<()> {
        if self.streamed {
            let span = self.hull(touched);
            kernels.place(gpu, span.start);
            self.device.upload(gpu, &host[self.word_range(&span)])?;
        }
        Ok(())
    }

    /// After a pass: the host copy receives the `touched` blocks (a streamed
    /// table its whole span), so the store holds what the pass wrote.
    pub fn after_pass(&self, gpu: &GpuDevice, host: &[AtomicU64], touched: &[usize]) -> Result<()> {
        if self.streamed {
            let span = self.hull(touched);
            self.device.download(
                gpu,
                &host[self.word_range(&span)],
                std::slice::from_ref(&(0..span.end - span.start)),
            )
        } else if self.stored {
            let ranges: Vec<Range<u64>> = touched.iter().map(|&b| self.blocks[b].range()).collect();
            self.device.download(gpu, host, &ranges)
        } else {
            Ok(())
        }
    }

    fn hull(&self, chosen: &[usize]) -> Range<u64> {
        hull(&self.blocks, chosen, self.host_words, self.bits)
    }

    /// Host words holding the cells of `span` (whole words).
    fn word_range(&self, span: &Range<u64>) -> Range<usize> {
        let per_word = 64 / self.bits as u64;
        (span.start / per_word) as usize..span.end.div_ceil(per_word) as usize
    }
}

/// The ranks from the first to the last cell of `chosen` blocks, widened to
/// whole host words, within a table of `host_words` words of `bits`-bit cells.
fn hull(blocks: &[Block], chosen: &[usize], host_words: usize, bits: u32) -> Range<u64> {
    let per_word = 64 / bits as u64;
    let start = chosen.iter().map(|&b| blocks[b].start).min().unwrap_or(0);
    let end = chosen.iter().map(|&b| blocks[b].end()).max().unwrap_or(0);
    (start / per_word * per_word)
        ..(end.div_ceil(per_word) * per_word).min(host_words as u64 * per_word)
}

/// The program that runs `space` on the GPU, or why there is none: no
/// kernels, symmetry reduction, blocks beyond 32-bit ranks, tables beyond
/// 2^36 cells.
pub fn gpu_program<S: Space>(space: &S) -> Result<crate::kernel::Program> {
    if space.symmetry_reduced() {
        return Err(Error::Unsupported(format!(
            "symmetry reduction is not implemented in the GPU kernels {CPU_HINT}"
        )));
    }
    let program = space.gpu_program()?;
    if let Some(block) = space
        .blocks()
        .iter()
        .find(|b| b.len >= u32::MAX as u64 - 16)
    {
        return Err(Error::Unsupported(format!(
            "{}: a block of {} states does not fit the GPU kernels' 32-bit ranks {CPU_HINT}",
            space.descriptor(),
            block.len
        )));
    }
    if space.size() >= MAX_CELLS {
        return Err(Error::Unsupported(format!(
            "{}: {} states exceed the GPU table's 2^36 cells {CPU_HINT}",
            space.descriptor(),
            space.size()
        )));
    }
    Ok(program)
}

/// What an error says, without the "GPU:" a GPU error begins with: for a
/// GPU error that tells it as part of its own message.
fn reason(error: Error) -> String {
    match error {
        Error::Gpu(message) => message,
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::MoveFilter;

    /// A game with no kernel of its own: a counter that steps by one.
    struct Counter;

    impl Space for Counter {
        type State = u64;
        fn descriptor(&self) -> String {
            "counter n=10".into()
        }
        fn size(&self) -> u64 {
            10
        }
        fn start_ranks(&self) -> Vec<u64> {
            vec![0]
        }
        fn new_state(&self) -> u64 {
            0
        }
        fn unrank(&self, rank: u64, state: &mut u64) {
            *state = rank;
        }
        fn rank(&self, state: &u64) -> u64 {
            *state
        }
        fn expand<F: FnMut(u64)>(&self, state: &u64, _moves: MoveFilter, mut emit: F) {
            emit((state + 1) % 10);
        }
    }

    #[test]
    fn a_game_without_kernels_is_refused_with_its_name() {
        let error = gpu_program(&Counter).unwrap_err().to_string();
        assert!(error.contains("no GPU kernels for counter n=10"), "{error}");
    }
}
