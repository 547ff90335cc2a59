//! The kernels of one compiled WGSL module and the bindings they share,
//! as both the BFS kernels ([`super::kernels`]) and the retrograde ones
//! use them: binding 0 is the parameters of each dispatched piece (a
//! uniform read at a dynamic offset, one slot a piece), 1 the game's rule
//! tables, 2 the 64-bit counters, and from [`FIRST_WINDOW_BINDING`] on the
//! windows of the tables the kernels read and write. A dispatch runs one
//! entry point over a list of pieces, a submission a piece, and reads the
//! counters back.
//!
//! The compiled kernels (shader module, bind group layout, pipelines) are
//! kept by the device, keyed by their source
//! ([`KernelCache`](super::kernel_cache::KernelCache)): a game whose
//! layers share their program text (Fox-and-Geese, Dodgem: what differs
//! between layers is in the rule tables) compiles it once per run, not
//! once per layer. Compiling is most of a small layer's time on a
//! GPU (Morabaraba's layers of a few million positions: about 0.7 s of
//! set-up each on an H200).

use std::sync::Arc;

use super::device::GpuDevice;
use super::kernel_cache::CompiledKernels;
use super::pieces::{Piece, create_buffer, grid};
use super::shader;
use super::table::Staging;
use crate::error::{Error, Result};

/// Bytes of the kernels' `Params` struct (the piece and two values).
pub(crate) const PARAMS_BYTES: u64 = 32;
/// First binding of the table windows.
pub(crate) const FIRST_WINDOW_BINDING: u32 = 3;

/// What a [`KernelSet`] is built from.
pub(crate) struct KernelSpec<'a> {
    /// Names the set in error messages and wgpu labels.
    pub label: &'static str,
    /// The whole WGSL text ([`crate::kernel::Program::text`]).
    pub source: String,
    pub entry_points: &'static [&'static str],
    /// The game's rule tables (binding 1).
    pub rule_tables: &'a [u32],
    /// The table windows, bound in order from [`FIRST_WINDOW_BINDING`].
    pub windows: &'a [&'a wgpu::Buffer],
    /// The most pieces one dispatch runs (room for their parameters).
    pub max_pieces: usize,
    /// The 64-bit counters the kernels keep (binding 2).
    pub counters: usize,
}

pub(crate) struct KernelSet {
    label: &'static str,
    entry_points: &'static [&'static str],
    compiled: Arc<CompiledKernels>,
    bind_group: wgpu::BindGroup,
    params: wgpu::Buffer,
    params_stride: u64,
    rule_tables: wgpu::Buffer,
    counters: wgpu::Buffer,
    counter_bytes: u64,
    readback: Staging,
    max_groups: u32,
}

impl KernelSet {
    pub fn new(gpu: &GpuDevice, spec: KernelSpec) -> Result<Self> {
        let key = format!(
            "{}\n{}\n{} windows\n{}",
            spec.label,
            spec.entry_points.join(","),
            spec.windows.len(),
            spec.source
        );
        let compiled = gpu
            .kernel_cache()
            .get_or_compile(key, || compile(gpu, &spec))?;
        let params_stride =
            PARAMS_BYTES.next_multiple_of(gpu.limits().min_uniform_buffer_offset_alignment as u64);
        let params = create_buffer(
            gpu,
            "parameters",
            spec.max_pieces.max(1) as u64 * params_stride,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        )?;
        let rule_tables = create_buffer(
            gpu,
            "rule tables",
            (spec.rule_tables.len() as u64 * 4).max(4),
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        )?;
        gpu.queue
            .write_buffer(&rule_tables, 0, bytemuck::cast_slice(spec.rule_tables));
        let counter_bytes = 8 * spec.counters as u64;
        let counters = create_buffer(
            gpu,
            "counters",
            counter_bytes,
            wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
        )?;
        let mut bindings = vec![
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &params,
                    offset: 0,
                    size: wgpu::BufferSize::new(PARAMS_BYTES),
                }),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: rule_tables.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: counters.as_entire_binding(),
            },
        ];
        bindings.extend(
            spec.windows
                .iter()
                .enumerate()
                .map(|(w, buffer)| wgpu::BindGroupEntry {
                    binding: FIRST_WINDOW_BINDING + w as u32,
                    resource: buffer.as_entire_binding(),
                }),
        );
        let bind_group = gpu.checked(&format!("binding the {} tables", spec.label), || {
            gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(spec.label),
                layout: &compiled.layout,
                entries: &bindings,
            })
        })?;
        Ok(KernelSet {
            label: spec.label,
            entry_points: spec.entry_points,
            compiled,
            bind_group,
            params,
            params_stride,
            rule_tables,
            counters,
            counter_bytes,
            readback: Staging::new(gpu, counter_bytes)?,
            max_groups: gpu.max_workgroups(),
        })
    }

    /// The rule tables' buffer (binding 1), for tables the caller rewrites
    /// between dispatches (the BFS's block starts).
    pub fn rule_tables(&self) -> &wgpu::Buffer {
        &self.rule_tables
    }

    /// Runs entry point `entry` over `pieces` with `values` in the
    /// parameters, one submission a piece, calling `advance` as each
    /// completes; returns the `N` counters the kernels keep (all zero when
    /// there is no piece).
    pub fn dispatch<const N: usize>(
        &self,
        gpu: &GpuDevice,
        entry: &str,
        pieces: &[Piece],
        values: [u32; 2],
        advance: &dyn Fn(),
    ) -> Result<[u64; N]> {
        let index = self
            .entry_points
            .iter()
            .position(|&e| e == entry)
            .unwrap_or_else(|| panic!("no entry point {entry} in the {} kernels", self.label));
        let pipeline = &self.compiled.pipelines[index];
        let counter_words = self.counter_bytes as usize / 4;
        assert_eq!(counter_words, 2 * N, "the {} kernels' counters", self.label);
        if pieces.is_empty() {
            return Ok([0; N]);
        }
        let mut bytes = vec![0u8; pieces.len() * self.params_stride as usize];
        for (index, piece) in pieces.iter().enumerate() {
            let slot = [
                piece.block,
                piece.first_word,
                piece.words,
                piece.local_base,
                piece.head_mask,
                piece.tail_mask,
                values[0],
                values[1],
            ];
            let at = index * self.params_stride as usize;
            bytes[at..at + PARAMS_BYTES as usize].copy_from_slice(bytemuck::cast_slice(&slot));
        }
        gpu.queue.write_buffer(&self.params, 0, &bytes);
        let mut submissions = Vec::with_capacity(pieces.len());
        for (index, piece) in pieces.iter().enumerate() {
            let mut encoder = gpu
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
            if index == 0 {
                encoder.clear_buffer(&self.counters, 0, None);
            }
            {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: None,
                    timestamp_writes: None,
                });
                pass.set_pipeline(pipeline);
                let offset = index as u64 * self.params_stride;
                pass.set_bind_group(0, &self.bind_group, &[offset as u32]);
                let (x, y) = grid(piece.words as u64, self.max_groups);
                pass.dispatch_workgroups(x, y, 1);
            }
            submissions.push(gpu.queue.submit([encoder.finish()]));
        }
        for submission in submissions {
            gpu.device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(submission),
                    timeout: None,
                })
                .map_err(|e| Error::Gpu(format!("waiting for a kernel: {e}")))?;
            advance();
        }
        let mut words = vec![0u32; counter_words];
        self.readback
            .read(gpu, (&self.counters, 0), self.counter_bytes, |bytes| {
                words.copy_from_slice(bytemuck::cast_slice(&bytes[..self.counter_bytes as usize]));
            })?;
        Ok(std::array::from_fn(|counter| {
            words[2 * counter] as u64 | (words[2 * counter + 1] as u64) << 32
        }))
    }
}

/// Compiles `spec`'s module and a pipeline per entry point.
fn compile(gpu: &GpuDevice, spec: &KernelSpec) -> Result<CompiledKernels> {
    let device = &gpu.device;
    let module = shader::module(gpu, spec.label, &spec.source)?;
    let storage = |binding: u32, read_only: bool| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let mut entries = vec![
        wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(PARAMS_BYTES),
            },
            count: None,
        },
        storage(1, true),
        storage(2, false),
    ];
    entries
        .extend((0..spec.windows.len() as u32).map(|w| storage(FIRST_WINDOW_BINDING + w, false)));
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(spec.label),
        entries: &entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(spec.label),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let pipelines = spec
        .entry_points
        .iter()
        .map(|&entry| {
            gpu.checked(&format!("building the {entry} kernel"), || {
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry),
                    layout: Some(&pipeline_layout),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    cache: None,
                })
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(CompiledKernels { layout, pipelines })
}
