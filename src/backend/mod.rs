//! Where a search runs besides the CPU cores (the searches of
//! [`crate::search`], parallel through rayon): the GPU, through wgpu
//! ([`gpu`]).

pub mod gpu;
