//! The kernels a device has compiled, kept by their source
//! ([`KernelCache`]): a game whose layers share their program text
//! compiles it once per run. The device holds the cache and the kernel
//! sets ([`super::kernel_set`]) fill it, so it sits apart from both.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::error::Result;

/// A module's kernels compiled: the bind group layout they share and a
/// pipeline per entry point.
pub(crate) struct CompiledKernels {
    pub(super) layout: wgpu::BindGroupLayout,
    pub(super) pipelines: Vec<wgpu::ComputePipeline>,
}

/// The kernels a device has compiled, by their source and entry points,
/// the last [`KernelCache::CAPACITY`] kept.
#[derive(Default)]
pub(crate) struct KernelCache {
    entries: Mutex<Vec<(String, Arc<CompiledKernels>)>>,
    compilations: AtomicUsize,
}

impl KernelCache {
    /// A run's distinct programs at once: a Morris run's layers each have
    /// their own, and are compiled again if met again past this many.
    const CAPACITY: usize = 16;

    /// The kernels of `key`, compiled by `compile` unless held.
    pub(super) fn get_or_compile(
        &self,
        key: String,
        compile: impl FnOnce() -> Result<CompiledKernels>,
    ) -> Result<Arc<CompiledKernels>> {
        if let Some((_, held)) = self.entries.lock().unwrap().iter().find(|(k, _)| *k == key) {
            return Ok(Arc::clone(held));
        }
        let compiled = Arc::new(compile()?);
        self.compilations.fetch_add(1, Ordering::Relaxed);
        let mut entries = self.entries.lock().unwrap();
        if entries.len() == Self::CAPACITY {
            entries.remove(0);
        }
        entries.push((key, Arc::clone(&compiled)));
        Ok(compiled)
    }

    /// How many kernel sets were compiled (not found held) so far.
    pub fn compilations(&self) -> usize {
        self.compilations.load(Ordering::Relaxed)
    }
}
