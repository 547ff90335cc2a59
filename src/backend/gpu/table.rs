//! A one- or two-bit table resident on the device, split into windows: each window
//! is one storage buffer no larger than the adapter's binding limit, and the
//! kernels pick the window of a word by its high bits (see
//! `shader::window_accessors`). The device's u32 words hold the same cells,
//! in the same bytes, as the host table's little-endian u64 words, so
//! copies between them are plain byte copies.

use std::ops::Range;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::device::GpuDevice;
use crate::error::{Error, Result};

/// Bytes moved per staging copy between host and device.
const STAGING_BYTES: u64 = 64 << 20;

pub(crate) struct DeviceTable {
    windows: Vec<wgpu::Buffer>,
    window_bytes: u64,
    bytes: u64,
    /// Bits per cell: 1 or 2.
    bits: u32,
}

impl DeviceTable {
    /// Device memory for a table of `host_words` u64 words of `bits`-bit cells.
    pub fn create(gpu: &GpuDevice, host_words: usize, bits: u32, what: &str) -> Result<Self> {
        let bytes = (host_words as u64 * 8).max(8);
        let window_bytes = gpu.window_bytes();
        let count = bytes.div_ceil(window_bytes);
        let limit = gpu.limits().max_storage_buffers_per_shader_stage as u64;
        // Two storage bindings (tables, counters) besides the windows.
        if count + 2 > limit {
            return Err(Error::Gpu(format!(
                "{what} needs {count} windows of {} MiB, more than the {} storage bindings a kernel may use",
                window_bytes >> 20,
                limit.saturating_sub(2)
            )));
        }
        let windows = (0..count)
            .map(|window| {
                let size = (bytes - window * window_bytes).min(window_bytes);
                gpu.checked(&format!("allocating {what} on the device"), || {
                    gpu.device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some("table window"),
                        size,
                        usage: wgpu::BufferUsages::STORAGE
                            | wgpu::BufferUsages::COPY_SRC
                            | wgpu::BufferUsages::COPY_DST,
                        mapped_at_creation: false,
                    })
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(DeviceTable {
            windows,
            window_bytes,
            bytes,
            bits,
        })
    }

    /// Cells per u32 device word.
    fn cells_per_word(&self) -> u64 {
        32 / self.bits as u64
    }

    /// The low bit of every cell of device word `word` that holds `value`.
    fn cells_matching(&self, word: u32, value: u8) -> u32 {
        if self.bits == 1 {
            return if value == 1 { word } else { !word };
        }
        const LOW_BITS: u32 = 0x5555_5555;
        let difference = word ^ (LOW_BITS * value as u32);
        !(difference | (difference >> 1)) & LOW_BITS
    }

    /// The value of cell `cell` in device word `word`.
    fn cell_of(&self, word: u32, cell: u64) -> u8 {
        let mask = (1u32 << self.bits) - 1;
        ((word >> (self.bits as u64 * (cell % self.cells_per_word()))) & mask) as u8
    }

    /// Number of u32 words.
    pub fn words(&self) -> u64 {
        self.bytes / 4
    }

    /// Sets cells to `value` in a table whose other cells all hold
    /// `background` (every cell 3 in a fresh two-bit table, 0 in a one-bit
    /// one): one write per word of the given cells (start positions).
    pub fn set_cells_of_uniform_table(
        &self,
        gpu: &GpuDevice,
        cells: &[u64],
        value: u8,
        background: u8,
    ) -> Result<()> {
        let mask = (1u32 << self.bits) - 1;
        let per_word = self.cells_per_word();
        let fill = (0..per_word).fold(0u32, |word, cell| {
            word | ((background as u32 & mask) << (self.bits as u64 * cell))
        });
        let mut words: std::collections::BTreeMap<u64, u32> = Default::default();
        for &cell in cells {
            let shift = self.bits as u64 * (cell % per_word);
            let word = words.entry(cell / per_word).or_insert(fill);
            *word = (*word & !(mask << shift)) | ((value as u32 & mask) << shift);
        }
        for (word, bits) in words {
            let (buffer, offset) = self.locate(word * 4);
            gpu.queue.write_buffer(buffer, offset, &bits.to_le_bytes());
        }
        gpu.queue.submit([]);
        gpu.wait()
    }

    pub fn windows(&self) -> &[wgpu::Buffer] {
        &self.windows
    }

    /// log2 of the u32 words per window.
    pub fn window_words_log2(&self) -> u32 {
        (self.window_bytes / 4).trailing_zeros()
    }

    /// Writes `words` from u32 word `at` on (in one window), before the
    /// work of the next submission.
    pub fn write_words(&self, gpu: &GpuDevice, at: u64, words: &[u32]) {
        let (buffer, offset) = self.locate(at * 4);
        gpu.queue
            .write_buffer(buffer, offset, bytemuck::cast_slice(words));
    }

    /// The window holding byte `at` and the offset in it.
    fn locate(&self, at: u64) -> (&wgpu::Buffer, u64) {
        (
            &self.windows[(at / self.window_bytes) as usize],
            at % self.window_bytes,
        )
    }

    /// Byte ranges of at most [`STAGING_BYTES`] that never cross a window.
    fn pieces(&self, range: Range<u64>) -> Vec<Range<u64>> {
        let mut pieces = Vec::new();
        let mut at = range.start;
        while at < range.end {
            let window_end = (at / self.window_bytes + 1) * self.window_bytes;
            let end = range.end.min(window_end).min(at + STAGING_BYTES);
            pieces.push(at..end);
            at = end;
        }
        pieces
    }

    /// Sets every cell to 0 (queued before the next submission's work).
    pub fn clear(&self, gpu: &GpuDevice) -> Result<()> {
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        for window in &self.windows {
            encoder.clear_buffer(window, 0, None);
        }
        gpu.checked("clearing a table on the device", || {
            gpu.queue.submit([encoder.finish()])
        })?;
        Ok(())
    }

    /// Copies the host table's words to the device.
    pub fn upload(&self, gpu: &GpuDevice, host: &[AtomicU64]) -> Result<()> {
        for piece in self.pieces(0..self.bytes.min(host.len() as u64 * 8)) {
            let words = &host[(piece.start / 8) as usize..(piece.end / 8) as usize];
            let mut bytes = vec![0u8; words.len() * 8];
            bytes
                .par_chunks_mut(8 << 12)
                .zip(words.par_chunks(1 << 12))
                .for_each(|(out, words)| {
                    for (slot, word) in out.chunks_exact_mut(8).zip(words) {
                        slot.copy_from_slice(&word.load(Relaxed).to_le_bytes());
                    }
                });
            let (buffer, offset) = self.locate(piece.start);
            gpu.queue.write_buffer(buffer, offset, &bytes);
            // Let the queue drain so staging memory stays bounded.
            gpu.queue.submit([]);
            gpu.wait()?;
        }
        Ok(())
    }

    /// Copies the cells of `ranges` (ascending, disjoint) from the device
    /// into the host table's words. Whole host words move, so cells of a
    /// neighbouring block that share a word are copied too: the caller
    /// passes every range whose cells may differ.
    pub fn download(
        &self,
        gpu: &GpuDevice,
        host: &[AtomicU64],
        ranges: &[Range<u64>],
    ) -> Result<()> {
        let total = self.bytes.min(host.len() as u64 * 8);
        let staging = Staging::new(gpu, STAGING_BYTES.min(total).max(8))?;
        let host_cells_per_word = 2 * self.cells_per_word();
        for range in ranges.iter().filter(|r| !r.is_empty()) {
            let bytes = (range.start / host_cells_per_word * 8)
                ..(range.end.div_ceil(host_cells_per_word) * 8).min(total);
            self.read_back(gpu, &staging, bytes, |at, bytes| {
                let words = &host[(at / 8) as usize..(at / 8) as usize + bytes.len() / 8];
                words
                    .par_chunks(1 << 12)
                    .zip(bytes.par_chunks(8 << 12))
                    .for_each(|(words, bytes)| {
                        for (word, slot) in words.iter().zip(bytes.chunks_exact(8)) {
                            word.store(u64::from_le_bytes(slot.try_into().unwrap()), Relaxed);
                        }
                    });
                true
            })?;
        }
        Ok(())
    }

    /// Reads the bytes of `range` back piece by piece, handing each piece
    /// and its offset to `visit`, until `visit` returns false.
    fn read_back(
        &self,
        gpu: &GpuDevice,
        staging: &Staging,
        range: Range<u64>,
        mut visit: impl FnMut(u64, &[u8]) -> bool,
    ) -> Result<()> {
        for piece in self.pieces(range) {
            let mut more = true;
            staging.read(
                gpu,
                self.locate(piece.start),
                piece.end - piece.start,
                |bytes| {
                    more = visit(piece.start, bytes);
                },
            )?;
            if !more {
                break;
            }
        }
        Ok(())
    }

    /// The value of each cell in `cells` (few: goal positions).
    pub fn read_cells(&self, gpu: &GpuDevice, cells: &[u64]) -> Result<Vec<u8>> {
        let staging = Staging::new(gpu, 4)?;
        cells
            .iter()
            .map(|&cell| {
                let at = cell / self.cells_per_word() * 4;
                let mut value = 0u8;
                staging.read(gpu, self.locate(at), 4, |bytes| {
                    let word = u32::from_le_bytes(bytes[..4].try_into().unwrap());
                    value = self.cell_of(word, cell);
                })?;
                Ok(value)
            })
            .collect()
    }

    /// Up to `limit` cells holding `value` in `ranges` (ascending, each
    /// range scanned in order), read back piece by piece until enough are found.
    pub fn first_cells_equal(
        &self,
        gpu: &GpuDevice,
        ranges: &[Range<u64>],
        value: u8,
        limit: usize,
    ) -> Result<Vec<u64>> {
        let staging = Staging::new(gpu, STAGING_BYTES.min(self.bytes))?;
        let mut found = Vec::new();
        for range in ranges {
            let per_word = self.cells_per_word();
            let bytes = range.start / per_word * 4..range.end.div_ceil(per_word) * 4;
            self.read_back(gpu, &staging, bytes, |at, bytes| {
                for (index, word) in bytes.chunks_exact(4).enumerate() {
                    let word = u32::from_le_bytes(word.try_into().unwrap());
                    // One bit per matching cell (its low bit): most words have
                    // none, and a whole table may be read for a small layer.
                    let mut matching = self.cells_matching(word, value);
                    let first = (at / 4 + index as u64) * per_word;
                    while matching != 0 && found.len() < limit {
                        let cell = first + (matching.trailing_zeros() / self.bits) as u64;
                        matching &= matching - 1;
                        if range.contains(&cell) {
                            found.push(cell);
                        }
                    }
                }
                found.len() < limit
            })?;
            if found.len() >= limit {
                break;
            }
        }
        Ok(found)
    }
}

/// A mappable buffer for reading device memory back.
pub(crate) struct Staging {
    buffer: wgpu::Buffer,
}

impl Staging {
    pub fn new(gpu: &GpuDevice, bytes: u64) -> Result<Self> {
        let buffer = gpu.checked("allocating a read-back buffer", || {
            gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("read-back"),
                size: bytes.next_multiple_of(4),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        })?;
        Ok(Staging { buffer })
    }

    /// Copies `len` bytes from (`source`, `offset`) and hands them to `use_bytes`.
    pub fn read(
        &self,
        gpu: &GpuDevice,
        (source, offset): (&wgpu::Buffer, u64),
        len: u64,
        use_bytes: impl FnOnce(&[u8]),
    ) -> Result<()> {
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        encoder.copy_buffer_to_buffer(source, offset, &self.buffer, 0, len);
        gpu.queue.submit([encoder.finish()]);
        self.map(gpu, len, use_bytes)
    }

    /// Maps the first `len` bytes (after the caller's copies were submitted).
    pub fn map(&self, gpu: &GpuDevice, len: u64, use_bytes: impl FnOnce(&[u8])) -> Result<()> {
        let slice = self.buffer.slice(0..len);
        let (sender, receiver) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |outcome| {
            let _ = sender.send(outcome);
        });
        gpu.wait()?;
        receiver
            .recv()
            .map_err(|_| Error::Gpu("the device dropped a read-back".into()))?
            .map_err(|e| Error::Gpu(format!("reading device memory back: {e}")))?;
        {
            let view = slice
                .get_mapped_range()
                .map_err(|e| Error::Gpu(format!("mapping a read-back: {e}")))?;
            use_bytes(&view);
        }
        self.buffer.unmap();
        Ok(())
    }

    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }
}
