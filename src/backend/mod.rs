//! Where a search runs: on the CPU cores (the searches of [`crate::search`],
//! parallel through rayon) or on a GPU through wgpu ([`gpu`]).

pub mod gpu;

/// The machine a search runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Cpu,
    Gpu,
}

impl Backend {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
            Backend::Gpu => "gpu",
        }
    }
}
