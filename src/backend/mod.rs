//! Where the passes of a search run, behind the one seam of
//! [`crate::search::backend`]: the CPU cores ([`cpu`], rayon over chunks of
//! a host table) and the GPU ([`gpu`], wgpu compute kernels over a device
//! table).

pub mod cpu;
pub mod gpu;

pub use cpu::CpuBackend;
pub use gpu::GpuBackend;
