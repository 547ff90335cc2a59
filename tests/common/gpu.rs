//! The GPU tests' device: opened, or skipped with the reason printed where
//! there is none, except in CI (software Vulkan, lavapipe), where a missing
//! adapter fails the test ([`super::skip`]).

use bitsolve::backend::gpu::{GpuDevice, GpuOptions};

/// The device, or `None` (with the reason printed) where there is none and
/// the tests do not run in CI.
pub fn device(options: GpuOptions) -> Option<GpuDevice> {
    match GpuDevice::open(&options) {
        Ok(device) => Some(device),
        // wgpu's error lists every backend it tried; the skip's line names
        // the remedy instead.
        Err(_) => {
            super::skip::skipping(super::skip::NO_VULKAN);
            None
        }
    }
}

/// Whether the command line's GPU runs can be tested here: as [`device`],
/// the device opened with the default options and closed again.
pub fn available() -> bool {
    device(GpuOptions::default()).is_some()
}

/// The device with its tables bound in windows of `window_bytes`, the work
/// on a block cut into dispatches of `piece_words` words, and grids of at
/// most `workgroups` workgroups a dimension.
pub fn device_in_pieces(window_bytes: u64, piece_words: u64, workgroups: u32) -> Option<GpuDevice> {
    device(GpuOptions {
        window_bytes: Some(window_bytes),
        piece_words: Some(piece_words),
        max_workgroups_per_dimension: Some(workgroups),
        ..GpuOptions::default()
    })
}

/// The device with `device_bytes` of its memory for tables, and windows of
/// `window_bytes` where given.
pub fn device_with_memory(device_bytes: u64, window_bytes: Option<u64>) -> Option<GpuDevice> {
    device(GpuOptions {
        device_bytes: Some(device_bytes),
        window_bytes,
        ..GpuOptions::default()
    })
}
