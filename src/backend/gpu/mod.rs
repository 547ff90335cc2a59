//! The GPU backend: wgpu compute kernels written in WGSL (`shaders/`), with
//! the search table resident in device memory.
//!
//! - [`device`]: adapter, device, queue, error scopes.
//! - [`shader`]: programs assembled from the WGSL files.
//! - [`programs`]: what each game uploads (its kernel and rule tables).
//! - [`table`]: the two-bit table in windows of device memory.
//! - [`kernels`]: pipelines, bindings, dispatches of the two-bit BFS.
//! - [`bfs`]: the search itself.
//! - [`hash_check`]: the device's rank/unrank, run on lists for comparison
//!   with the Rust hashes.

pub mod bfs;
pub mod device;
pub mod hash_check;
pub(crate) mod kernels;
pub mod programs;
pub mod shader;
pub(crate) mod table;

pub use bfs::two_bit_bfs;
pub use device::{GpuDevice, GpuOptions};
pub use programs::GpuRules;
