//! The GPU of the commands that run on it (`bfs`, `retro`, `bench`): one
//! flag that bounds its memory, and one place that opens it.

use clap::Args;

use super::parse_size;
use bitsolve::backend::gpu::GpuOptions;
use bitsolve::error::Result;
use bitsolve::jobs::device_options;

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
        device_options(self.device_memory)
    }
}
