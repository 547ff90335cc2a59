//! Where the passes of a search run, behind the one seam of
//! `crate::search::backend`: the CPU cores (`cpu`, rayon over chunks of
//! a host table), the GPU ([`gpu`], wgpu compute kernels over a device
//! table), the CPU cores over a table on disk a window at a time ([`disk`],
//! two-bit BFS past the memory of the machine), and with `--features mpi`
//! the processes of an MPI job (`mpi`, each owning a [`partition`] of
//! every block).

pub(crate) mod cpu;
pub mod disk;
pub mod gpu;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod partition;
mod traffic;

pub use cpu::CpuBackend;
pub use disk::DiskBackend;
pub use gpu::GpuBackend;
pub use traffic::{PassTraffic, Traffic};
