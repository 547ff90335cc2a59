//! The device's rank and unrank functions run over lists of ranks, so tests
//! (and anyone porting a kernel) can compare them with the Rust hashes.

use super::device::GpuDevice;
use super::shader;
use crate::error::{Error, Result};
use crate::hash::MultinomialRanker;
use crate::kernel::{self, Program};

/// What the permutation kernels computed for one rank r.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermutationCheck {
    /// Myrvold–Ruskey unrank of r, its parity (true = odd) and its rank.
    pub permutation: Vec<u8>,
    /// Whether `permutation` is odd.
    pub odd: bool,
    /// Rank of `permutation` (r again when rank and unrank agree).
    pub rank: u64,
    /// Folded unrank of r mod n!/2 with parity `r & 1`, and its folded rank.
    pub folded: Vec<u8>,
    /// Folded rank of `folded`.
    pub folded_rank: u64,
    /// Prefix Lehmer unrank of r and its rank; its folded unrank of
    /// r mod n!/2 with parity `r & 1`, and its folded rank.
    pub prefix_lehmer: Vec<u8>,
    /// Rank of `prefix_lehmer`.
    pub prefix_lehmer_rank: u64,
    /// Folded prefix Lehmer unrank of r mod n!/2 with parity `r & 1`.
    pub prefix_lehmer_folded: Vec<u8>,
    /// Folded rank of `prefix_lehmer_folded`.
    pub prefix_lehmer_folded_rank: u64,
}

/// Permutations of 0..n (2 <= n <= 12) for each rank below n!.
pub fn permutations(gpu: &GpuDevice, n: usize, ranks: &[u32]) -> Result<Vec<PermutationCheck>> {
    if !(2..=12).contains(&n) {
        return Err(Error::InvalidParameter(format!(
            "the device's permutation hash takes 2 <= n <= 12, got {n}"
        )));
    }
    let factorial: u64 = (1..=n as u64).product();
    let mut program = Program::default();
    program
        .constant("PERM_LEN", n as u32)
        .constant("FOLDED_SIZE", (factorial / 2) as u32)
        .prefix_lehmer_hash(n)
        .source(shader::HASH_CHECK_PERMUTATION);
    let stride = 4 * n + 6;
    let out = run(gpu, &program, ranks, ranks.len() * stride)?;
    Ok(out
        .chunks_exact(stride)
        .map(|row| PermutationCheck {
            permutation: row[..n].iter().map(|&v| v as u8).collect(),
            odd: row[n] == 1,
            rank: row[n + 1] as u64,
            folded: row[n + 2..2 * n + 2].iter().map(|&v| v as u8).collect(),
            folded_rank: row[2 * n + 2] as u64,
            prefix_lehmer: row[2 * n + 4..3 * n + 4].iter().map(|&v| v as u8).collect(),
            prefix_lehmer_rank: row[3 * n + 4] as u64,
            prefix_lehmer_folded: row[3 * n + 5..4 * n + 5].iter().map(|&v| v as u8).collect(),
            prefix_lehmer_folded_rank: row[4 * n + 5] as u64,
        })
        .collect())
}

/// For each rank below C(n, ones): the device's unranked mask and its rank.
pub fn binomials(gpu: &GpuDevice, n: usize, ones: usize, ranks: &[u32]) -> Result<Vec<(u64, u64)>> {
    if ones > n || n > 64 {
        return Err(Error::InvalidParameter(format!(
            "no {n}-bit vectors with {ones} ones"
        )));
    }
    let mut program = Program::default();
    program
        .constant("CHECK_CELLS", n as u32)
        .constant("CHECK_ONES", ones as u32)
        .binomial_hash()
        .source(shader::HASH_CHECK_BINOMIAL);
    let out = run(gpu, &program, ranks, ranks.len() * 3)?;
    Ok(out
        .chunks_exact(3)
        .map(|row| (row[0] as u64 | (row[1] as u64) << 32, row[2] as u64))
        .collect())
}

/// For each 64-bit rank: the device's unranked colours and their rank.
pub fn multinomials(
    gpu: &GpuDevice,
    ranker: &MultinomialRanker,
    ranks: &[u64],
) -> Result<Vec<(Vec<u8>, u64)>> {
    let words = kernel::multinomial_words(ranker).ok_or_else(|| {
        Error::Unsupported("the device's multinomial hash needs the ranker's lookup table".into())
    })?;
    let cells = ranker.len();
    let mut program = Program::default();
    program
        .constant("MULTINOMIAL_COLOURS", ranker.colours() as u32)
        .constant("MULTINOMIAL_CELLS", cells as u32)
        .constant("MULTINOMIAL_CAP", cells as u32)
        .constant("MULTINOMIAL_FULL_INDEX", words.full_index)
        .table("MULTINOMIAL_STRIDES_AT", &words.strides)
        .table("MULTINOMIAL_PREFIX_AT", &words.prefix)
        .source(kernel::U64)
        .source(kernel::MULTINOMIAL)
        .source(shader::HASH_CHECK_MULTINOMIAL);
    let inputs: Vec<u32> = ranks
        .iter()
        .flat_map(|&r| [r as u32, (r >> 32) as u32])
        .collect();
    let stride = cells + 2;
    let out = run(gpu, &program, &inputs, ranks.len() * stride)?;
    Ok(out
        .chunks_exact(stride)
        .map(|row| {
            (
                row[..cells].iter().map(|&c| c as u8).collect(),
                row[cells] as u64 | (row[cells + 1] as u64) << 32,
            )
        })
        .collect())
}

/// Runs a check program's `check` entry point over `inputs`.
pub(crate) fn run(
    gpu: &GpuDevice,
    program: &Program,
    inputs: &[u32],
    outputs: usize,
) -> Result<Vec<u32>> {
    CheckKernel::new(gpu, program)?.run(inputs, outputs)
}

/// A check program's `check` entry point, compiled once for any number
/// of runs (on lavapipe a compile costs more than a run of thousands of
/// positions).
pub(crate) struct CheckKernel<'g> {
    gpu: &'g GpuDevice,
    pipeline: wgpu::ComputePipeline,
    tables: wgpu::Buffer,
    with_tables: bool,
}

/// A storage buffer holding `contents` (one word when empty: a binding
/// has a size).
fn storage(gpu: &GpuDevice, contents: &[u32], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    let mut padded = contents.to_vec();
    if padded.is_empty() {
        padded.push(0);
    }
    gpu.device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytemuck::cast_slice(&padded),
            usage: wgpu::BufferUsages::STORAGE | usage,
        })
}

impl<'g> CheckKernel<'g> {
    /// Compiles `program` and uploads its tables.
    pub(crate) fn new(gpu: &'g GpuDevice, program: &Program) -> Result<Self> {
        let device = &gpu.device;
        let module = shader::compile(program, gpu, "hash check", "")?;
        let pipeline = gpu.checked("building the hash check kernel", || {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some("hash check"),
                layout: None,
                module: &module,
                entry_point: Some("check"),
                compilation_options: Default::default(),
                cache: None,
            })
        })?;
        Ok(CheckKernel {
            gpu,
            pipeline,
            tables: storage(gpu, program.tables(), wgpu::BufferUsages::empty()),
            with_tables: !program.tables().is_empty(),
        })
    }

    /// The first `outputs` words the kernel writes for `inputs`.
    pub(crate) fn run(&self, inputs: &[u32], outputs: usize) -> Result<Vec<u32>> {
        let (gpu, device) = (self.gpu, &self.gpu.device);
        let input = storage(gpu, inputs, wgpu::BufferUsages::empty());
        let bytes = (outputs.max(1) * 4) as u64;
        let output = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = super::table::Staging::new(gpu, bytes)?;
        let mut entries = vec![
            wgpu::BindGroupEntry {
                binding: 2,
                resource: input.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 3,
                resource: output.as_entire_binding(),
            },
        ];
        // A program without tables (the permutation hash) does not declare them.
        if self.with_tables {
            entries.push(wgpu::BindGroupEntry {
                binding: 1,
                resource: self.tables.as_entire_binding(),
            });
        }
        let bind_group = gpu.checked("binding the hash check buffers", || {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &self.pipeline.get_bind_group_layout(0),
                entries: &entries,
            })
        })?;
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            let invocations = inputs.len().max(1) as u32;
            pass.dispatch_workgroups(invocations.div_ceil(64), 1, 1);
        }
        encoder.copy_buffer_to_buffer(&output, 0, readback.buffer(), 0, bytes);
        gpu.queue.submit([encoder.finish()]);
        let mut out = vec![0u32; outputs];
        readback.map(gpu, bytes, |data| {
            out.copy_from_slice(&bytemuck::cast_slice(data)[..outputs]);
        })?;
        Ok(out)
    }
}
