//! Where the passes of a search run, behind the one seam of
//! [`crate::search::backend`]: the CPU cores ([`cpu`], rayon over chunks of
//! a host table) and the GPU ([`gpu`], wgpu compute kernels over a device
//! table), and with `--features mpi` the processes of an MPI job ([`mpi`],
//! each owning a [`partition`] of every block).

pub mod cpu;
pub mod gpu;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod partition;

pub use cpu::CpuBackend;
pub use gpu::GpuBackend;
