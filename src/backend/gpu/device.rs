//! The wgpu instance, adapter, device and queue, opened once per run.

use std::sync::{Arc, Mutex};

use super::kernel_cache::KernelCache;
use crate::error::{Error, Result};
use crate::kernel::CPU_HINT;

/// Words per dispatch (268 M two-bit cells): big enough to fill a GPU,
/// small enough that the progress bar moves. At 256 words a workgroup this
/// is one more workgroup than a grid dimension holds, so large blocks use
/// 2-D grids.
pub const PIECE_WORDS: u64 = 1 << 24;

/// How to open the device.
#[derive(Clone, Debug, Default)]
pub struct GpuOptions {
    /// Largest storage-buffer binding (one window of a table) in bytes; by
    /// default the adapter's own limit. Tests force small windows so that
    /// tables span several.
    pub window_bytes: Option<u64>,
    /// Words of the table one dispatch covers (default
    /// `PIECE_WORDS`); tests cut blocks into
    /// many pieces with a small value.
    pub piece_words: Option<u64>,
    /// Workgroups per grid dimension, below the adapter's limit; tests force
    /// 2-D grids on small tables with a small value.
    pub max_workgroups_per_dimension: Option<u32>,
    /// Device memory a table may take before its blocks stream through a
    /// smaller buffer instead (default: whatever the device allocates);
    /// tests force streaming with a small value.
    pub device_bytes: Option<u64>,
    /// Entries a retrograde layer's work list holds (by default one per
    /// 128 cells of the layer, from 4,096 to 2^24); tests make lists
    /// overflow, so that passes switch between lists and scans, with a
    /// small value.
    pub list_entries: Option<u32>,
}

/// An opened GPU: the wgpu device and queue, and the limits a run keeps to
/// (see [`GpuOptions`]).
pub struct GpuDevice {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    limits: wgpu::Limits,
    window_bytes: u64,
    piece_words: u64,
    max_workgroups: u32,
    device_bytes: Option<u64>,
    list_entries: Option<u32>,
    /// Errors the device reported outside an error scope (a lost device).
    uncaptured: Arc<Mutex<Option<String>>>,
    /// The kernels compiled on this device, for the layers that share them.
    kernels: KernelCache,
}

/// The largest window: a power of two so a word index splits into window
/// and offset by a shift, at most 2 GiB (wgpu's bindings are u32-sized).
fn window_size(limits: &wgpu::Limits, requested: Option<u64>) -> u64 {
    let limit = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size)
        .min(1 << 31);
    let wanted = requested.unwrap_or(limit).min(limit).max(4);
    1u64 << (63 - wanted.leading_zeros())
}

impl GpuDevice {
    /// Opens the adapter with the most capability (a discrete GPU before an
    /// integrated one before a software rasteriser) and asks for its own
    /// limits: the defaults cap storage bindings at 128 MiB.
    pub fn open(options: &GpuOptions) -> Result<Self> {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        descriptor.backends = wgpu::Backends::VULKAN;
        let instance = wgpu::Instance::new(descriptor);
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        }))
        .map_err(|e| {
            Error::Gpu(format!(
                "no Vulkan adapter found ({e}; on Debian, mesa-vulkan-drivers installs a software one) {CPU_HINT}"
            ))
        })?;
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("bitsolve"),
            required_features: wgpu::Features::empty(),
            required_limits: limits.clone(),
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .map_err(|e| Error::Gpu(format!("cannot open the device: {e}")))?;
        let uncaptured = Arc::new(Mutex::new(None));
        let sink = Arc::clone(&uncaptured);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            let mut slot = sink.lock().unwrap();
            if slot.is_none() {
                *slot = Some(first_line(&error.to_string()));
            }
        }));
        let max_workgroups = options
            .max_workgroups_per_dimension
            .unwrap_or(u32::MAX)
            .min(limits.max_compute_workgroups_per_dimension)
            .max(1);
        Ok(GpuDevice {
            window_bytes: window_size(&limits, options.window_bytes),
            piece_words: options.piece_words.unwrap_or(PIECE_WORDS).max(1),
            max_workgroups,
            device_bytes: options.device_bytes,
            list_entries: options.list_entries,
            info: adapter.get_info(),
            limits,
            device,
            queue,
            uncaptured,
            kernels: KernelCache::default(),
        })
    }

    /// The kernels compiled on this device so far.
    pub(crate) fn kernel_cache(&self) -> &KernelCache {
        &self.kernels
    }

    /// How many sets of kernels were compiled on this device (programs
    /// met again reuse theirs).
    pub fn kernel_compilations(&self) -> usize {
        self.kernels.compilations()
    }

    /// "NVIDIA H100 (Vulkan, driver 550.54)", for reports.
    pub fn describe(&self) -> String {
        let driver = if self.info.driver_info.is_empty() {
            self.info.driver.clone()
        } else {
            format!("{} {}", self.info.driver, self.info.driver_info)
        };
        format!("{} ({:?}, {})", self.info.name, self.info.backend, driver)
    }

    /// True for a software rasteriser (lavapipe): correct, not fast.
    pub fn is_software(&self) -> bool {
        self.info.device_type == wgpu::DeviceType::Cpu
    }

    /// Bytes of one table window (one storage binding).
    pub fn window_bytes(&self) -> u64 {
        self.window_bytes
    }

    /// Table words per dispatch.
    pub fn piece_words(&self) -> u64 {
        self.piece_words
    }

    /// Entries of a retrograde work list, when set by [`GpuOptions`].
    pub fn list_entries(&self) -> Option<u32> {
        self.list_entries
    }

    /// Device memory a table may take, when limited by [`GpuOptions`].
    pub fn device_bytes(&self) -> Option<u64> {
        self.device_bytes
    }

    /// Workgroups per grid dimension.
    pub fn max_workgroups(&self) -> u32 {
        self.max_workgroups
    }

    /// The limits the device was opened with: the adapter's own.
    pub fn limits(&self) -> &wgpu::Limits {
        &self.limits
    }

    /// Runs `make` inside validation and out-of-memory error scopes: a
    /// refused buffer, shader or pipeline becomes an [`Error::Gpu`] naming
    /// `what` instead of a panic.
    pub(crate) fn checked<T>(&self, what: &str, make: impl FnOnce() -> T) -> Result<T> {
        let memory = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let made = make();
        let validation = pollster::block_on(validation.pop());
        let memory = pollster::block_on(memory.pop());
        match validation.or(memory) {
            Some(error) => Err(Error::Gpu(format!(
                "{what}: {}",
                first_line(&error.to_string())
            ))),
            None => Ok(made),
        }
    }

    /// Waits for all submitted work; fails if the device reported an error.
    pub(crate) fn wait(&self) -> Result<()> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| Error::Gpu(format!("waiting for the device: {e}")))?;
        match self.uncaptured.lock().unwrap().take() {
            Some(message) => Err(Error::Gpu(message)),
            None => Ok(()),
        }
    }
}

/// wgpu's messages run over several lines; the CLI prints one.
fn first_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_powers_of_two_within_the_limits() {
        let limits = wgpu::Limits {
            max_storage_buffer_binding_size: 134_217_728,
            max_buffer_size: 2_147_483_647,
            ..wgpu::Limits::default()
        };
        assert_eq!(window_size(&limits, None), 1 << 27);
        assert_eq!(window_size(&limits, Some(1000)), 512);
        assert_eq!(window_size(&limits, Some(1 << 40)), 1 << 27);
        let large = wgpu::Limits {
            max_storage_buffer_binding_size: u32::MAX as u64,
            max_buffer_size: 1 << 40,
            ..wgpu::Limits::default()
        };
        assert_eq!(window_size(&large, None), 1 << 31);
    }
}
