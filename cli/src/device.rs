//! The GPU of the commands that run on it (`bfs`, `retro`, `bench`, `qbf
//! check`): one flag that bounds its memory. The library's
//! `jobs::open_device` opens it.

use clap::Args;

use bitsolve::jobs::parse_size;

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
