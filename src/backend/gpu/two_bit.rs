//! The two-bit BFS passes on the GPU: the same cell values and table files
//! as the CPU's, with the table resident on the device (or streaming
//! through it, see [`Residency`]). One kernel per piece of a block scans
//! table words, unranks, expands, ranks and marks successors with
//! atomicAnd; only counters come back.

use super::device::GpuDevice;
use super::kernels::{Kernels, TWO_BIT};
use super::residency::{Residency, gpu_program};
use crate::backend::cpu::CpuTwoBit;
use crate::error::Result;
use crate::search::backend::{Opened, Pass, TableRequest, TwoBitPasses};
use crate::search::two_bit_bfs::UNSEEN;
use crate::search::{LayerCount, Work};
use crate::space::Space;
use crate::table::{TwoBitTable, WordStorage};

pub(super) struct GpuTwoBit<'a, S: Space> {
    gpu: &'a GpuDevice,
    residency: Residency,
    kernels: Kernels,
    /// The host copy (no cells when the table lives on the device alone),
    /// with the CPU's passes for the work done there.
    host: CpuTwoBit<'a, S>,
}

impl<'a, S: Space> GpuTwoBit<'a, S> {
    pub fn open(
        gpu: &'a GpuDevice,
        space: &'a S,
        request: &TableRequest,
    ) -> Result<Opened<Box<dyn TwoBitPasses + 'a>>> {
        let program = gpu_program(space)?;
        let residency = Residency::plan(gpu, space, TWO_BIT.bits_per_cell, request)?;
        let (table, progress) = TwoBitTable::open(
            request.backing,
            request.identity.with_states(residency.host_cells(space)),
            UNSEEN,
            request.progress,
        )?;
        let kernels = Kernels::new(gpu, TWO_BIT, program, &space.blocks(), &residency.device)?;
        if residency.stored && !residency.streamed {
            residency.device.upload(gpu, table.words())?;
        } else if !residency.streamed {
            kernels.run_on_whole_table(gpu, "fill_unseen")?;
        }
        let passes = GpuTwoBit {
            gpu,
            residency,
            kernels,
            host: CpuTwoBit::new(space, table),
        };
        Ok(Opened::new(Box::new(passes), progress))
    }

    fn run(&mut self, entry: &str, pass: &Pass, frontier: u8, next: u8) -> Result<Work> {
        self.residency.run_pass(
            self.gpu,
            &mut self.kernels,
            self.host.table.words(),
            pass,
            entry,
            [frontier as u32, next as u32],
        )
    }
}

impl<S: Space> TwoBitPasses for GpuTwoBit<'_, S> {
    fn storage(&self) -> &WordStorage {
        self.host.storage()
    }

    fn set_cells(&mut self, ranks: &[u64], value: u8) -> Result<()> {
        if self.residency.on_host() {
            self.host.set_cells(ranks, value)?;
        }
        if !self.residency.streamed {
            self.residency
                .device
                .set_cells_of_uniform_table(self.gpu, ranks, value, UNSEEN)?;
        }
        Ok(())
    }

    fn expand(&mut self, pass: &Pass, frontier: u8, next: u8) -> Result<Work> {
        self.run("expand_frontier", pass, frontier, next)
    }

    fn check_parents(&mut self, pass: &Pass, frontier: u8, next: u8) -> Result<Work> {
        self.run("check_parents", pass, frontier, next)
    }

    fn close(&mut self, blocks: &[usize], frontier: u8) -> Result<()> {
        if self.residency.on_host() {
            self.host.close(blocks, frontier)?;
        }
        if !self.residency.streamed {
            let values = [frontier as u32, 0];
            self.kernels
                .run(self.gpu, "close_frontier", blocks, values, &|| {})?;
        }
        Ok(())
    }

    fn count(&mut self, blocks: &[usize], value: u8) -> Result<LayerCount> {
        if self.residency.on_host() {
            return self.host.count(blocks, value);
        }
        let counts =
            self.kernels
                .run(self.gpu, "count_equal", blocks, [value as u32, 0], &|| {})?;
        Ok(LayerCount::plain(counts.marked))
    }

    fn cells(&mut self, ranks: &[u64]) -> Result<Vec<u8>> {
        if self.residency.on_host() {
            return self.host.cells(ranks);
        }
        self.residency.device.read_cells(self.gpu, ranks)
    }

    fn first_ranks(&mut self, blocks: &[usize], value: u8, limit: usize) -> Result<Vec<u64>> {
        if self.residency.on_host() {
            return self.host.first_ranks(blocks, value, limit);
        }
        let ranges = self.kernels.ranges(blocks);
        self.residency
            .device
            .first_cells_equal(self.gpu, &ranges, value, limit)
    }
}
