//! WGSL programs assembled from the files under `shaders/`: WGSL has no
//! includes, so a program is its constants, the shared modules it needs, a
//! game's expansion and an algorithm's entry points, joined into one source.

use super::device::GpuDevice;
use crate::error::Result;

pub(crate) const U64: &str = include_str!("../../../shaders/u64.wgsl");
pub(crate) const PERMUTATION: &str = include_str!("../../../shaders/permutation.wgsl");
pub(crate) const BINOMIAL: &str = include_str!("../../../shaders/binomial.wgsl");
pub(crate) const MULTINOMIAL: &str = include_str!("../../../shaders/multinomial.wgsl");
pub(crate) const TWO_BIT_BFS: &str = include_str!("../../../shaders/two_bit_bfs.wgsl");
pub(crate) const PANCAKE: &str = include_str!("../../../shaders/pancake.wgsl");
pub(crate) const TOP_SPIN: &str = include_str!("../../../shaders/top_spin.wgsl");
pub(crate) const SLIDING_TILE: &str = include_str!("../../../shaders/sliding_tile.wgsl");
pub(crate) const PEG_SOLITAIRE: &str = include_str!("../../../shaders/peg_solitaire.wgsl");
pub(crate) const FROGS_TOADS: &str = include_str!("../../../shaders/frogs_toads.wgsl");
pub(crate) const HASH_CHECK_PERMUTATION: &str =
    include_str!("../../../shaders/hash_check_permutation.wgsl");
pub(crate) const HASH_CHECK_BINOMIAL: &str =
    include_str!("../../../shaders/hash_check_binomial.wgsl");
pub(crate) const HASH_CHECK_MULTINOMIAL: &str =
    include_str!("../../../shaders/hash_check_multinomial.wgsl");

/// The parts of one program: named u32 constants, the `tables` buffer the
/// kernels read (constants named `*_AT` give where each table starts), and
/// the WGSL sources in order.
#[derive(Clone, Debug, Default)]
pub struct Program {
    constants: Vec<(String, u32)>,
    tables: Vec<u32>,
    sources: Vec<&'static str>,
}

impl Program {
    pub fn constant(&mut self, name: &str, value: u32) -> &mut Self {
        self.constants.push((name.to_string(), value));
        self
    }

    /// Appends `values` to the tables; constant `name` holds their offset.
    pub fn table(&mut self, name: &str, values: &[u32]) -> &mut Self {
        let offset = self.tables.len() as u32;
        self.constant(name, offset);
        self.tables.extend_from_slice(values);
        self
    }

    pub fn source(&mut self, source: &'static str) -> &mut Self {
        if !self.sources.contains(&source) {
            self.sources.push(source);
        }
        self
    }

    /// The binomial hash and its table: C(n, k) for n, k <= 64, saturated at
    /// 2^32 - 1 (see shaders/binomial.wgsl for why that is exact).
    pub fn binomial_hash(&mut self) -> &mut Self {
        let table: Vec<u32> = (0..=64)
            .flat_map(|n| {
                (0..=64).map(move |k| {
                    crate::hash::binomial::binomial(n, k as i64).min(u32::MAX as u64) as u32
                })
            })
            .collect();
        self.source(U64)
            .source(BINOMIAL)
            .table("BINOMIAL_AT", &table)
    }

    /// The permutation hash, with arrays of `capacity` entries.
    pub fn permutation_hash(&mut self, capacity: usize) -> &mut Self {
        self.constant("PERM_CAP", capacity.max(2) as u32)
            .source(PERMUTATION)
    }

    pub fn tables(&self) -> &[u32] {
        &self.tables
    }

    /// The whole WGSL text, with `extra` (generated declarations) after the
    /// constants.
    pub fn text(&self, extra: &str) -> String {
        let mut text = String::new();
        for (name, value) in &self.constants {
            text.push_str(&format!("const {name}: u32 = {value}u;\n"));
        }
        text.push_str(extra);
        for source in &self.sources {
            text.push('\n');
            text.push_str(source);
        }
        text
    }

    /// Compiles the program; an invalid shader is an error, not a panic.
    pub(crate) fn compile(
        &self,
        gpu: &GpuDevice,
        label: &str,
        extra: &str,
    ) -> Result<wgpu::ShaderModule> {
        let text = self.text(extra);
        gpu.checked(&format!("compiling the {label} kernels"), || {
            gpu.device
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(label),
                    source: wgpu::ShaderSource::Wgsl(text.into()),
                })
        })
    }
}

/// Declarations of the table windows (bindings `first_binding`..) and the
/// accessors the kernels use, `table_load`, `table_and` and `table_or`, which pick the
/// window of a word by its high bits. One window needs no switch.
pub(crate) fn window_accessors(
    windows: usize,
    window_words_log2: u32,
    first_binding: u32,
) -> String {
    let mut text = String::new();
    for window in 0..windows {
        text.push_str(&format!(
            "@group(0) @binding({}) var<storage, read_write> window_{window}: array<atomic<u32>>;\n",
            first_binding + window as u32
        ));
    }
    let accessor = |name: &str, signature: &str, call: &str| {
        let mut body = format!("fn {name}({signature}) -> u32 {{\n");
        if windows == 1 {
            body.push_str(&format!(
                "    return {};\n",
                call.replace("WINDOW", "window_0").replace("OFFSET", "word")
            ));
        } else {
            body.push_str(&format!(
                "    let offset = word & {}u;\n    switch (word >> {window_words_log2}u) {{\n",
                (1u64 << window_words_log2) - 1
            ));
            for window in 0..windows {
                let label = if window + 1 == windows {
                    "default".to_string()
                } else {
                    format!("case {window}u")
                };
                body.push_str(&format!(
                    "        {label}: {{ return {}; }}\n",
                    call.replace("WINDOW", &format!("window_{window}"))
                        .replace("OFFSET", "offset")
                ));
            }
            body.push_str("    }\n");
        }
        body.push_str("}\n");
        body
    };
    text.push_str(&accessor(
        "table_load",
        "word: u32",
        "atomicLoad(&WINDOW[OFFSET])",
    ));
    text.push_str(&accessor(
        "table_and",
        "word: u32, mask: u32",
        "atomicAnd(&WINDOW[OFFSET], mask)",
    ));
    text.push_str(&accessor(
        "table_or",
        "word: u32, mask: u32",
        "atomicOr(&WINDOW[OFFSET], mask)",
    ));
    text
}
