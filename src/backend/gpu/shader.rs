//! Compiling programs: a game's [`Program`] with an algorithm's entry
//! points (`shaders/two_bit_bfs.wgsl`, `shaders/one_bit_bfs.wgsl` on the
//! shared `shaders/pass.wgsl`, `shaders/retro.wgsl`; all of them on
//! `shaders/pieces.wgsl`) and the declarations of the table windows.

use super::device::GpuDevice;
use crate::error::Result;
use crate::kernel::Program;

pub(crate) const PIECES: &str = include_str!("../../../shaders/pieces.wgsl");
pub(crate) const PASS: &str = include_str!("../../../shaders/pass.wgsl");
pub(crate) const TWO_BIT_BFS: &str = include_str!("../../../shaders/two_bit_bfs.wgsl");
pub(crate) const ONE_BIT_BFS: &str = include_str!("../../../shaders/one_bit_bfs.wgsl");
pub(crate) const HASH_CHECK_PERMUTATION: &str =
    include_str!("../../../shaders/hash_check_permutation.wgsl");
pub(crate) const HASH_CHECK_BINOMIAL: &str =
    include_str!("../../../shaders/hash_check_binomial.wgsl");
pub(crate) const RETRO: &str = include_str!("../../../shaders/retro.wgsl");
pub(crate) const RETRO_CHECK: &str = include_str!("../../../shaders/retro_check.wgsl");
pub(crate) const HASH_CHECK_MULTINOMIAL: &str =
    include_str!("../../../shaders/hash_check_multinomial.wgsl");

/// Compiles the program; an invalid shader is an error, not a panic.
pub(crate) fn compile(
    program: &Program,
    gpu: &GpuDevice,
    label: &str,
    extra: &str,
) -> Result<wgpu::ShaderModule> {
    module(gpu, label, &program.text(extra))
}

/// Compiles WGSL `text` into a module; an invalid shader is an error.
pub(crate) fn module(gpu: &GpuDevice, label: &str, text: &str) -> Result<wgpu::ShaderModule> {
    gpu.checked(&format!("compiling the {label} kernels"), || {
        gpu.device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(text.into()),
            })
    })
}

/// Declarations of the table windows (bindings `first_binding`..) and the
/// accessors the kernels use, `table_load`, `table_and`, `table_or`,
/// `table_add` and `table_exchange`, which pick the window of a word by its
/// high bits. One window needs no switch.
pub(crate) fn window_accessors(
    windows: usize,
    window_words_log2: u32,
    first_binding: u32,
) -> String {
    named_window_accessors("window", "table", windows, window_words_log2, first_binding)
}

/// The same for a table whose windows are named `{windows_name}_N` and
/// whose accessors `{table}_load`, `{table}_and`, and so on: a kernel
/// that binds two tables (the retrograde passes: a layer and the one below).
pub(crate) fn named_window_accessors(
    windows_name: &str,
    table: &str,
    windows: usize,
    window_words_log2: u32,
    first_binding: u32,
) -> String {
    let mut text = String::new();
    for window in 0..windows {
        text.push_str(&format!(
            "@group(0) @binding({}) var<storage, read_write> {windows_name}_{window}: array<atomic<u32>>;\n",
            first_binding + window as u32
        ));
    }
    let accessor = |name: &str, signature: &str, call: &str| {
        let mut body = format!("fn {name}({signature}) -> u32 {{\n");
        if windows == 1 {
            body.push_str(&format!(
                "    return {};\n",
                call.replace("WINDOW", &format!("{windows_name}_0"))
                    .replace("OFFSET", "word")
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
                    call.replace("WINDOW", &format!("{windows_name}_{window}"))
                        .replace("OFFSET", "offset")
                ));
            }
            body.push_str("    }\n");
        }
        body.push_str("}\n");
        body
    };
    text.push_str(&accessor(
        &format!("{table}_load"),
        "word: u32",
        "atomicLoad(&WINDOW[OFFSET])",
    ));
    text.push_str(&accessor(
        &format!("{table}_and"),
        "word: u32, mask: u32",
        "atomicAnd(&WINDOW[OFFSET], mask)",
    ));
    text.push_str(&accessor(
        &format!("{table}_or"),
        "word: u32, mask: u32",
        "atomicOr(&WINDOW[OFFSET], mask)",
    ));
    // A count bumped (returns the count before) and a word written whole
    // (returns what it held): the retrograde kernels' work lists.
    text.push_str(&accessor(
        &format!("{table}_add"),
        "word: u32, amount: u32",
        "atomicAdd(&WINDOW[OFFSET], amount)",
    ));
    text.push_str(&accessor(
        &format!("{table}_exchange"),
        "word: u32, value: u32",
        "atomicExchange(&WINDOW[OFFSET], value)",
    ));
    text
}
