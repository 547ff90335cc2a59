//! Where a job's passes run: the one place that decides between the CPU's
//! cores, the GPU, a table on disk and the processes of an MPI job, and
//! that names the choice for a report.

use std::ops::RangeInclusive;

use super::cluster::{Distributed, MpiJob};
use crate::backend::gpu::{GpuDevice, GpuOptions};
use crate::backend::{CpuBackend, DiskBackend, GpuBackend};
use crate::error::{Error, Result};
use crate::games::TwoPlayerGame;
use crate::games::positional::{PositionalGame, Query};
use crate::qbf::check::{Check, CheckOptions, check_on};
use crate::qbf::encodings::Encoding;
use crate::search::backend::Backend;
use crate::search::identity::space_identity;
use crate::search::retro2::{BITS_PER_POSITION, LayerReport, RetroOptions, solve_layer_range};
use crate::search::{Algorithm, Checkpoint, SearchOptions, SearchReport};
use crate::space::Space;
use crate::table::Backing;
use crate::table::header::file_name_for;

/// The processor a request asks for (`--backend`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Processor {
    /// All CPU cores (or the request's thread count).
    #[default]
    Cpu,
    /// The GPU, through Vulkan.
    Gpu,
}

/// The GPU a request asks for: none on the CPU (where a device memory
/// limit is refused), refused across the processes of an MPI job.
/// `device_memory` bounds the device memory its tables may take.
pub fn open_device(
    processor: Processor,
    device_memory: Option<u64>,
    job: &MpiJob,
) -> Result<Option<GpuDevice>> {
    match processor {
        Processor::Cpu if device_memory.is_some() => Err(Error::InvalidParameter(
            "--device-memory bounds the GPU's memory: add --backend gpu".into(),
        )),
        Processor::Cpu => Ok(None),
        Processor::Gpu if job.processes() > 1 => Err(Error::Unsupported(
            "--backend gpu runs in one process; across MPI processes the passes run on each process's CPU cores".into(),
        )),
        Processor::Gpu => Ok(Some(GpuDevice::open(&device_options(device_memory)?)?)),
    }
}

/// The GPU's options under a device memory limit.
pub(crate) fn device_options(device_memory: Option<u64>) -> Result<GpuOptions> {
    if device_memory == Some(0) {
        return Err(Error::InvalidParameter(
            "--device-memory 0 leaves no room for any table: give a size such as 2G".into(),
        ));
    }
    Ok(GpuOptions {
        device_bytes: device_memory,
        ..Default::default()
    })
}

/// The backend a job's passes run on, chosen once.
#[derive(Clone, Copy)]
pub enum Machine<'a> {
    /// The cores of the job's thread pool.
    Cpu,
    /// The cores, with a two-bit BFS table on disk and `memory` bytes of it
    /// in memory.
    Disk {
        /// Bytes of the table held in memory at a time.
        memory: u64,
    },
    /// The GPU.
    Gpu(&'a GpuDevice),
    /// The processes of an MPI job, each on its cores.
    #[cfg(feature = "mpi")]
    Mpi(&'a crate::backend::mpi::MpiBackend<'a>),
}

impl<'a> Machine<'a> {
    /// The machine of a job: across the MPI job where the process is in
    /// one, else with the table on disk where a memory bound is given, else
    /// on the GPU where one was opened, else on the CPU. (The requests
    /// refuse the combinations that cannot run together.)
    pub fn choose(
        distributed: Distributed<'a>,
        memory: Option<u64>,
        device: Option<&'a GpuDevice>,
    ) -> Machine<'a> {
        #[cfg(feature = "mpi")]
        if let Some(mpi) = distributed.backend {
            return Machine::Mpi(mpi);
        }
        #[cfg(not(feature = "mpi"))]
        let _ = distributed;
        match (memory, device) {
            (Some(memory), _) => Machine::Disk { memory },
            (None, Some(device)) => Machine::Gpu(device),
            (None, None) => Machine::Cpu,
        }
    }

    /// Where the passes run, for a report's header: "2 threads", "GPU …",
    /// "2 MPI processes × 4 threads" (the threads those of `pool`).
    pub fn describe(&self, pool: &rayon::ThreadPool) -> String {
        pool.install(|| match *self {
            Machine::Cpu => CpuBackend.describe(),
            Machine::Disk { memory } => DiskBackend { memory }.describe(),
            Machine::Gpu(device) => GpuBackend::new(device).describe(),
            #[cfg(feature = "mpi")]
            Machine::Mpi(mpi) => mpi.describe(),
        })
    }

    /// The backend's name in a JSON report ("cpu", "gpu", "disk", "mpi").
    pub fn name(&self) -> &'static str {
        match *self {
            Machine::Cpu => CpuBackend.name(),
            Machine::Disk { memory } => DiskBackend { memory }.name(),
            Machine::Gpu(device) => GpuBackend::new(device).name(),
            #[cfg(feature = "mpi")]
            Machine::Mpi(mpi) => mpi.name(),
        }
    }

    /// The GPU, where the passes run on one.
    pub fn device(&self) -> Option<&'a GpuDevice> {
        match *self {
            Machine::Gpu(device) => Some(device),
            _ => None,
        }
    }

    /// Runs `algorithm` over `space` here (in the caller's thread pool).
    pub fn search<S: Space>(
        &self,
        space: &S,
        algorithm: Algorithm,
        options: &SearchOptions,
    ) -> Result<SearchReport> {
        if let Some(read_only) = self.finished_table(space, algorithm, options) {
            let options = SearchOptions {
                backing: read_only,
                progress: options.progress,
                meet_in_middle: options.meet_in_middle,
                max_depth: options.max_depth,
            };
            return algorithm.run(space, &CpuBackend, &options);
        }
        match *self {
            Machine::Cpu => algorithm.run(space, &CpuBackend, options),
            Machine::Disk { memory } => algorithm.run(space, &DiskBackend { memory }, options),
            Machine::Gpu(device) => algorithm.run(space, &GpuBackend::new(device), options),
            #[cfg(feature = "mpi")]
            Machine::Mpi(mpi) => algorithm.run(space, mpi, options),
        }
    }

    /// The store read only, where it holds `algorithm`'s table over `space`
    /// finished: no pass runs, so the table is read on the CPU from its
    /// file opened read only, and a store without write permission answers
    /// as `retro` does. (Not for an MPI job, whose processes hold shares of
    /// their own, nor for joined halves, which are worked out anew.)
    fn finished_table<S: Space>(
        &self,
        space: &S,
        algorithm: Algorithm,
        options: &SearchOptions,
    ) -> Option<Backing> {
        #[cfg(feature = "mpi")]
        if let Machine::Mpi(_) = self {
            return None;
        }
        let Backing::Directory(dir) = &options.backing else {
            return None;
        };
        if options.meet_in_middle {
            return None;
        }
        let bits = algorithm.bits_per_state() as u32;
        let identity = space_identity(space, algorithm.describe(), bits);
        let path = dir.join(file_name_for(&identity.descriptor));
        (Checkpoint::finished_on_disk(&path) == Some(true)).then(|| Backing::ReadOnly(dir.clone()))
    }

    /// Solves `layers` of `game` by retrograde analysis here (in the
    /// caller's thread pool).
    pub fn solve_layers<G: TwoPlayerGame>(
        &self,
        game: &G,
        layers: RangeInclusive<usize>,
        options: &RetroOptions,
    ) -> Result<Vec<LayerReport>> {
        match *self {
            Machine::Cpu => solve_layer_range(&CpuBackend, game, layers, options),
            Machine::Disk { .. } => Err(Error::Unsupported(
                "a table on disk (--memory) is for two-bit BFS; retrograde analysis keeps its layers in memory".into(),
            )),
            Machine::Gpu(device) => solve_layer_range(&GpuBackend::new(device), game, layers, options),
            #[cfg(feature = "mpi")]
            Machine::Mpi(mpi) => solve_layer_range(mpi, game, layers, options),
        }
    }

    /// Checks `encodings` on `game` under `query` against exhaustive
    /// search ([`crate::qbf::check::check`]), the exhaustive solve's
    /// sweeps here (the CPU or the GPU; a table on disk or an MPI job is
    /// refused).
    pub fn check_qbf(
        &self,
        game: &PositionalGame,
        query: &Query,
        encodings: &[Encoding],
        options: &CheckOptions,
    ) -> Result<Check> {
        match *self {
            Machine::Cpu => check_on(&CpuBackend, game, query, encodings, options),
            Machine::Gpu(device) => {
                check_on(&GpuBackend::new(device), game, query, encodings, options)
            }
            _ => Err(Error::Unsupported(format!(
                "the QBF check's exhaustive search runs on the CPU or the GPU, not on {}",
                self.name()
            ))),
        }
    }

    /// Bits a position takes while a layer is solved: the GPU's passes keep
    /// the values and two one-bit mark tables on the device, and the values
    /// alone in the host copy. (The CPU's passes add a byte a position for
    /// the open moves' tags where the game keeps them and memory allows,
    /// and go without it where not, so it is not counted here.)
    pub fn retro_bits_per_position(&self) -> u64 {
        match self {
            Machine::Gpu(_) => 4,
            _ => BITS_PER_POSITION,
        }
    }
}
