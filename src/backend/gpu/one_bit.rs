//! The one-bit BFS and reachability passes on the GPU: the table's bits on
//! the device (or streaming through it, see [`Residency`]), one kernel per
//! piece of a block, only counters coming back.

use super::device::GpuDevice;
use super::kernels::{Kernels, ONE_BIT};
use super::residency::{Residency, gpu_program};
use crate::backend::cpu::CpuOneBit;
use crate::error::Result;
use crate::search::backend::{OneBitPasses, Opened, Pass, TableRequest};
use crate::search::{LayerCount, Work};
use crate::space::{MoveFilter, Space};
use crate::table::{OneBitTable, WordStorage};

pub(super) struct GpuOneBit<'a, S: Space> {
    gpu: &'a GpuDevice,
    space: &'a S,
    residency: Residency,
    kernels: Kernels,
    /// The host copy (no bits when the table lives on the device alone),
    /// with the CPU's passes for the work done there.
    host: CpuOneBit<'a, S>,
    /// A host table the device's bits are read into for [`OneBitPasses::host_view`]
    /// when there is no host copy.
    view: Option<OneBitTable>,
}

impl<'a, S: Space> GpuOneBit<'a, S> {
    pub fn open(
        gpu: &'a GpuDevice,
        space: &'a S,
        request: &TableRequest,
    ) -> Result<Opened<Box<dyn OneBitPasses + 'a>>> {
        let program = gpu_program(space)?;
        let residency = Residency::plan(gpu, space, ONE_BIT.bits_per_cell, request)?;
        let host_bits = residency.host_cells(space);
        let (table, progress) = OneBitTable::open(
            request.backing,
            request.identity.with_states(host_bits),
            request.resident_cells.min(host_bits),
            request.progress,
        )?;
        let kernels = Kernels::new(gpu, ONE_BIT, program, &space.blocks(), &residency.device)?;
        // New device buffers read as zero: a fresh table needs no fill.
        if residency.stored && !residency.streamed {
            residency.device.upload(gpu, table.words())?;
        }
        let passes = GpuOneBit {
            gpu,
            space,
            residency,
            kernels,
            host: CpuOneBit::new(space, table),
            view: None,
        };
        Ok(Opened::new(Box::new(passes), progress))
    }

    fn run(&mut self, entry: &str, pass: &Pass, moves: MoveFilter) -> Result<Work> {
        let skip = (moves == MoveFilter::SkipRankPreserving) as u32;
        self.residency.run_pass(
            self.gpu,
            &mut self.kernels,
            self.host.table.words(),
            pass,
            entry,
            [skip, 0],
        )
    }
}

impl<S: Space> OneBitPasses for GpuOneBit<'_, S> {
    fn storage(&self) -> &WordStorage {
        self.host.storage()
    }

    fn set_bits(&mut self, ranks: &[u64]) -> Result<()> {
        if self.residency.on_host() {
            self.host.set_bits(ranks)?;
        }
        if !self.residency.streamed {
            self.residency
                .device
                .set_cells_of_uniform_table(self.gpu, ranks, 1, 0)?;
        }
        Ok(())
    }

    fn or_block(&mut self, source: usize, target: usize) -> Result<()> {
        if self.residency.streamed {
            // The host holds the table between passes.
            return self.host.or_block(source, target);
        }
        self.kernels
            .run(self.gpu, "or_block", &[target], [0, source as u32], &|| {})?;
        let host = self.host.table.words();
        self.residency.after_pass(self.gpu, host, &[target])
    }

    fn expand(&mut self, pass: &Pass, moves: MoveFilter) -> Result<Work> {
        self.run("expand_set", pass, moves)
    }

    fn fill(&mut self, pass: &Pass, moves: MoveFilter) -> Result<Work> {
        self.run("fill_clear", pass, moves)
    }

    fn count(&mut self, blocks: &[usize]) -> Result<LayerCount> {
        if self.residency.on_host() {
            return self.host.count(blocks);
        }
        let counts = self
            .kernels
            .run(self.gpu, "count_set", blocks, [0, 0], &|| {})?;
        Ok(LayerCount::plain(counts.marked))
    }

    fn bits(&mut self, ranks: &[u64]) -> Result<Vec<bool>> {
        if self.residency.on_host() {
            return self.host.bits(ranks);
        }
        let cells = self.residency.device.read_cells(self.gpu, ranks)?;
        Ok(cells.into_iter().map(|bit| bit == 1).collect())
    }

    fn first_set(&mut self, blocks: &[usize], limit: usize) -> Result<Vec<u64>> {
        if self.residency.on_host() {
            return self.host.first_set(blocks, limit);
        }
        let ranges = self.kernels.ranges(blocks);
        self.residency
            .device
            .first_cells_equal(self.gpu, &ranges, 1, limit)
    }

    fn discard(&mut self, blocks: &[usize]) -> Result<()> {
        if self.residency.on_host() {
            self.host.discard(blocks)?;
        }
        Ok(())
    }

    fn host_view(&mut self, blocks: &[usize]) -> Result<&OneBitTable> {
        if self.residency.on_host() {
            return self.host.host_view(blocks);
        }
        // Anonymous memory: only the pages of the blocks read back are used.
        if self.view.is_none() {
            let size = self.space.size();
            let view = OneBitTable::scratch("host view", size)?;
            self.view = Some(view);
        }
        let view = self.view.as_ref().expect("just made");
        let ranges = self.kernels.ranges(blocks);
        self.residency
            .device
            .download(self.gpu, view.words(), &ranges)?;
        Ok(view)
    }
}
