//! The GPU of the commands that run on it (`bfs`, `retro`, `bench`): one
//! flag that bounds its memory, and one place that opens it.

use clap::Args;

use super::BackendArg;
use super::mpi_job::Job;
use super::parse_size;
use crate::backend::gpu::{GpuDevice, GpuOptions};
use crate::error::{Error, Result};

#[derive(Args, Debug, Clone, Default)]
pub struct DeviceArgs {
    /// With the GPU: the device memory its tables may take (bytes, or with
    /// a K, M, G or T suffix: 6G), to leave the rest to other work. A BFS
    /// table larger than that streams its layers' blocks through it (games
    /// layered by blocks); a retrograde layer whose pass marks do not fit
    /// rescans in every pass, and one whose values and layer below do not
    /// fit streams them in windows; what cannot fit either way is refused
    /// with its sizes. Default: what the device allocates.
    #[arg(long, value_name = "SIZE", value_parser = parse_size, global = true)]
    pub device_memory: Option<u64>,
}

impl DeviceArgs {
    /// The device's options with this limit.
    pub fn options(&self) -> Result<GpuOptions> {
        if self.device_memory == Some(0) {
            return Err(Error::InvalidParameter(
                "--device-memory 0 leaves no room for any table: give a size such as 2G".into(),
            ));
        }
        Ok(GpuOptions {
            device_bytes: self.device_memory,
            ..Default::default()
        })
    }

    /// The GPU a `bfs` or `retro` run asks for with `--backend gpu` (none
    /// with `--backend cpu`, where `--device-memory` is refused); refused
    /// across the processes of an MPI job.
    pub fn open(&self, backend: BackendArg, job: &Job) -> Result<Option<GpuDevice>> {
        match backend {
            BackendArg::Cpu if self.device_memory.is_some() => Err(Error::InvalidParameter(
                "--device-memory bounds the GPU's memory: add --backend gpu".into(),
            )),
            BackendArg::Cpu => Ok(None),
            BackendArg::Gpu if job.processes() > 1 => Err(Error::Unsupported(
                "--backend gpu runs in one process; across MPI processes the passes run on each process's CPU cores".into(),
            )),
            BackendArg::Gpu => Ok(Some(GpuDevice::open(&self.options()?)?)),
        }
    }
}
