//! Two-bit retrograde analysis on the GPU: the passes of
//! [`crate::search::retro2`] as compute kernels (`shaders/retro.wgsl`) over
//! the layer's values and the solved layer below, both resident in device
//! memory, with the game's rules from
//! [`LayeredGame::retro_gpu_program`].
//!
//! A layer is held as the CPU holds it, in the host table opened from the
//! same store files, so a store written by either backend resumes on the
//! other. Pass 0 is Algorithm 4's scan: every unknown position is judged
//! from its moves' current values (one invocation per word of 16 cells).
//! A later pass judges only the predecessors of the positions the pass
//! before decided, marked in two one-bit tables on the device (changed,
//! candidates): Fox-and-Geese g = 6 takes 14 passes, and rescanning its 60
//! M positions in each was 40 times slower on lavapipe. The driver repeats
//! passes until one decides nothing. Where the mark tables do not fit
//! beside the values (device memory, an allocation refused, the storage
//! bindings), every pass judges all unknown positions instead, as the
//! paper's scan does: slower, in two thirds of the memory. The values and
//! the layer below are not streamed: a position's moves reach any cell of
//! both, so a layer whose values and layer below do not fit the device
//! together is refused with their sizes.

use std::path::Path;

use super::GpuBackend;
use super::device::GpuDevice;
use super::kernel_set::{FIRST_WINDOW_BINDING, KernelSet, KernelSpec};
use super::kernels::{Piece, pieces_of};
use super::shader::{self, named_window_accessors};
use super::table::DeviceTable;
use crate::backend::CpuBackend;
use crate::error::{Error, Result};
use crate::kernel::{CPU_HINT, Program, U64};
use crate::search::Progress;
use crate::search::backend::Backend;
use crate::search::checkpoint::Checkpoint;
use crate::search::retro2::judge::recorded_value;
use crate::search::retro2::seam::{Below, PassCount, RetroBackend, RetroPass, RetroPasses};
use crate::search::retro2::{LayeredGame, Value};
use crate::space::Block;
use crate::table::{Backing, TwoBitTable};

/// Table word indices are u32 on the device: 2^32 words of 16 cells.
const MAX_CELLS: u64 = 1 << 36;
/// Three 64-bit counters: judged (or predecessors generated), decided,
/// moves into a missing layer.
const COUNTERS: usize = 3;
const ENTRY_POINTS: [&str; 4] = ["judge", "propagate", "fill_unknown", "copy_from_twins"];
/// `judge`'s parameter: every unknown position, or the candidates only.
const JUDGE_ALL: u32 = 0;
const JUDGE_CANDIDATES: u32 = 1;

impl RetroBackend for GpuBackend<'_> {
    /// The host table of the whole layer, as on the CPU: the device copy
    /// lives only while the layer's passes run.
    type Layer = TwoBitTable;

    fn open_layer<G: LayeredGame>(
        &self,
        game: &G,
        layer: usize,
        backing: &Backing,
        progress: &dyn Progress,
    ) -> Result<(TwoBitTable, Option<Checkpoint>)> {
        CpuBackend.open_layer(game, layer, backing, progress)
    }

    fn open_solved<G: LayeredGame>(
        &self,
        game: &G,
        layer: usize,
        dir: &Path,
        progress: &dyn Progress,
    ) -> Result<(TwoBitTable, Option<Checkpoint>)> {
        CpuBackend.open_solved(game, layer, dir, progress)
    }

    fn host_table<'l>(&self, layer: &'l TwoBitTable) -> &'l TwoBitTable {
        layer
    }

    fn host_table_mut<'l>(&self, layer: &'l mut TwoBitTable) -> &'l mut TwoBitTable {
        layer
    }

    fn layer_passes<'a, G: LayeredGame>(
        &'a self,
        game: &'a G,
        layer: usize,
        values: &'a TwoBitTable,
        lower: Below<'a, TwoBitTable>,
    ) -> Result<Box<dyn RetroPasses + 'a>> {
        let lower = lower.only_next(game, layer, Backend::name(self))?;
        Ok(Box::new(GpuRetro::open(
            self.gpu, game, layer, values, lower,
        )?))
    }

    /// Counted on the host, after the driver's last sync.
    fn count<G: LayeredGame>(&self, game: &G, layer: usize, values: &TwoBitTable) -> [u64; 3] {
        CpuBackend.count(game, layer, values)
    }

    /// On the host: an acyclic layer is one sweep of lookups into every
    /// layer it reaches (the Morris opening reads the whole moving phase),
    /// more than a device holds, and far less work than the layers' passes.
    fn sweep_acyclic<G: LayeredGame>(
        &self,
        game: &G,
        layer: usize,
        values: &TwoBitTable,
        lower: &[Option<TwoBitTable>],
        pass: &RetroPass,
        between_parts: &mut dyn FnMut() -> Result<()>,
    ) -> Result<u64> {
        CpuBackend.sweep_acyclic(game, layer, values, lower, pass, between_parts)
    }
}

/// Whether the GPU backend can solve `layer`, found out before a run
/// starts: its program where it has passes to run; an acyclic layer is
/// swept on the host (`sweep_acyclic`), so it always can.
pub fn check_device_layer<G: LayeredGame>(game: &G, layer: usize) -> Result<()> {
    if game.acyclic_layer(layer).is_some() {
        return Ok(());
    }
    retro_program(game, layer).map(drop)
}

/// The game's retrograde program for `layer`, or why the GPU cannot run
/// it: no rules, a block beyond 32-bit ranks, a table beyond 2^36 cells.
pub fn retro_program<G: LayeredGame>(game: &G, layer: usize) -> Result<Program> {
    let program = game.retro_gpu_program(layer)?;
    let descriptor = game.layer_descriptor(layer);
    // The layer below's blocks too: its ranks are the captures' moves.
    let below = layer.checked_sub(1).map(|l| game.layer_blocks(l));
    if let Some(block) = game
        .layer_blocks(layer)
        .iter()
        .chain(below.iter().flatten())
        .find(|b| b.len >= u32::MAX as u64 - 16)
    {
        return Err(Error::Unsupported(format!(
            "{descriptor}: a block of {} positions does not fit the GPU kernels' 32-bit ranks {CPU_HINT}",
            block.len
        )));
    }
    if game.layer_size(layer) >= MAX_CELLS {
        return Err(Error::Unsupported(format!(
            "{descriptor}: {} positions exceed the GPU table's 2^36 cells {CPU_HINT}",
            game.layer_size(layer)
        )));
    }
    Ok(program)
}

/// "80.0 KiB": a size in the unit that suits it.
fn in_units(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..0x10_0000 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        0x10_0000..0x4000_0000 => format!("{:.1} MiB", bytes as f64 / 1048576.0),
        _ => format!("{:.1} GiB", bytes as f64 / 1073741824.0),
    }
}

/// The layer's two one-bit mark tables (changed, candidates) on the device,
/// reading as zero; or, where they do not fit — more than `room` bytes,
/// an allocation refused, more than `max_bindings` storage bindings beside
/// the `bound` ones — one-word stand-ins and why, and then every pass
/// rescans the layer.
fn mark_tables(
    gpu: &GpuDevice,
    bit_words: usize,
    bound: usize,
    max_bindings: usize,
    room: Option<u64>,
) -> Result<([DeviceTable; 2], Option<String>)> {
    let create = |words: usize| {
        Ok::<_, Error>([
            DeviceTable::create(gpu, words, 1, "the changed marks")?,
            DeviceTable::create(gpu, words, 1, "the candidates")?,
        ])
    };
    let stand_ins = |why: String| Ok((create(1)?, Some(why)));
    if let Some(room) = room
        && 2 * 8 * bit_words as u64 > room
    {
        return stand_ins(format!(
            "more than the {} allowed",
            in_units(gpu.device_bytes().unwrap_or(0))
        ));
    }
    match create(bit_words) {
        Ok(marks) => {
            let used = bound + marks.iter().map(|t| t.windows().len()).sum::<usize>();
            if used > max_bindings {
                drop(marks);
                return stand_ins(format!(
                    "{used} storage bindings, more than the {max_bindings} a kernel may use"
                ));
            }
            Ok((marks, None))
        }
        Err(refused) => stand_ins(refused.to_string()),
    }
}

/// One layer's passes on the device.
struct GpuRetro<'a> {
    gpu: &'a GpuDevice,
    /// The host table the driver records; current after `sync`.
    host: &'a TwoBitTable,
    values: DeviceTable,
    /// The layer below, the changed marks and the candidates: bound to the
    /// kernels, kept while they run.
    _bound: [DeviceTable; 3],
    /// Why the pass marks are not on the device, where they are not: then
    /// every pass judges all unknown positions (Algorithm 4's scan), as
    /// pass 0 does, said once to the person running it.
    rescan: Option<String>,
    reduced: bool,
    kernels: RetroKernels,
    /// The pieces of the layer's blocks, and of the whole device table
    /// (the fill also reaches the padding cells, as the CPU's does, so the
    /// stored bytes are the same).
    block_pieces: Vec<Piece>,
    whole_pieces: Vec<Piece>,
}

impl<'a> GpuRetro<'a> {
    fn open<G: LayeredGame>(
        gpu: &'a GpuDevice,
        game: &G,
        layer: usize,
        host: &'a TwoBitTable,
        lower: Option<&TwoBitTable>,
    ) -> Result<Self> {
        let mut program = retro_program(game, layer)?;
        let descriptor = game.layer_descriptor(layer);
        let bytes = |table: Option<&TwoBitTable>| table.map_or(0, |t| t.words().len() as u64 * 8);
        let (values_bytes, lower_bytes) = (bytes(Some(host)), bytes(lower));
        // One bit a position for each of the two mark tables.
        let bit_words = host.len().div_ceil(64) as usize;
        let marks_bytes = 2 * 8 * bit_words as u64;
        let refused = |why: String| {
            Error::Gpu(format!(
                "{descriptor}: its values ({}) and the layer below's ({}) stay in device memory during its passes (they are not streamed; its pass marks, {}, only where they fit), {why} {CPU_HINT}",
                in_units(values_bytes),
                in_units(lower_bytes),
                in_units(marks_bytes)
            ))
        };
        let limit = gpu.device_bytes();
        if let Some(limit) = limit
            && values_bytes + lower_bytes > limit
        {
            return Err(refused(format!(
                "more than the {} allowed",
                in_units(limit)
            )));
        }
        let create = |words: usize, bits: u32, what: &str| {
            DeviceTable::create(gpu, words, bits, what).map_err(|e| refused(e.to_string()))
        };
        let values = create(host.words().len(), 2, "the layer's values")?;
        values.upload(gpu, host.words())?;
        // Without a layer below, a one-word table stands in for its binding.
        let lower_table = create(lower.map_or(1, |t| t.words().len()), 2, "the layer below")?;
        if let Some(lower) = lower {
            lower_table.upload(gpu, lower.words())?;
        }
        let max_bindings = gpu.limits().max_storage_buffers_per_shader_stage as usize;
        // The windows of the values and the layer below, the rule tables
        // and the counters.
        let bound = values.windows().len() + lower_table.windows().len() + 2;
        let room = limit.map(|limit| limit - values_bytes - lower_bytes);
        let (marks, rescan) = mark_tables(gpu, bit_words, bound, max_bindings, room)?;
        let used = bound + marks.iter().map(|t| t.windows().len()).sum::<usize>();
        if used > max_bindings {
            return Err(refused(format!(
                "in {used} storage bindings, more than the {max_bindings} a kernel may use"
            )));
        }
        let rescan = rescan.map(|why| {
            format!(
                "{descriptor}: its pass marks ({}) do not fit beside its values ({}) and the layer below's ({}): {why}; every pass judges all of its unknown positions again",
                in_units(marks_bytes),
                in_units(values_bytes),
                in_units(lower_bytes)
            )
        });
        let tables = [&values, &lower_table, &marks[0], &marks[1]];

        let starts = |blocks: &[Block]| -> Vec<u32> {
            blocks
                .iter()
                .flat_map(|b| [b.start as u32, (b.start >> 32) as u32])
                .collect()
        };
        let blocks = game.layer_blocks(layer);
        let lower_blocks = match (lower, layer) {
            (Some(_), 1..) => game.layer_blocks(layer - 1),
            _ => Vec::new(),
        };
        let reduced = game.reduced_by_symmetry();
        program
            .table("RETRO_BLOCK_STARTS_AT", &starts(&blocks))
            .table("RETRO_LOWER_STARTS_AT", &starts(&lower_blocks))
            .constant("RETRO_HAS_LOWER", lower.is_some() as u32)
            .constant("RETRO_REDUCED", reduced as u32)
            .constant("RETRO_MARKS", rescan.is_none() as u32)
            .constant(
                "RETRO_RECORDED",
                recorded_value(game).map_or(0, |v| v as u32),
            )
            .source(U64)
            .source(shader::PIECES)
            .source(shader::RETRO);
        let piece_words = gpu.piece_words();
        let block_pieces: Vec<Piece> = blocks
            .iter()
            .enumerate()
            .flat_map(|(index, block)| pieces_of(index, block, piece_words, 2))
            .collect();
        let whole = Block {
            start: 0,
            len: values.words() * 16,
        };
        let whole_pieces = pieces_of(0, &whole, piece_words, 2);
        let kernels = RetroKernels::new(
            gpu,
            &program,
            tables,
            block_pieces.len().max(whole_pieces.len()),
        )?;
        let [changed, candidates] = marks;
        Ok(GpuRetro {
            gpu,
            host,
            values,
            _bound: [lower_table, changed, candidates],
            rescan,
            reduced,
            kernels,
            block_pieces,
            whole_pieces,
        })
    }

    /// Judges every unknown position of the layer.
    fn judge_all(&mut self, pass: &RetroPass) -> Result<PassCount> {
        // As many units as a later pass's two halves.
        pass.progress.advance(self.block_pieces.len() as u64);
        self.judge(pass, JUDGE_ALL)
    }

    /// Judges the layer's unknown positions, all or the candidates only.
    fn judge(&mut self, pass: &RetroPass, which: u32) -> Result<PassCount> {
        let [examined, marked, missed] =
            self.kernels
                .dispatch(self.gpu, "judge", &self.block_pieces, which, &|| {
                    pass.progress.advance(1)
                })?;
        if missed > 0 {
            return Err(Error::Gpu(format!(
                "{}: {missed} moves led into a layer below that is not there (a game's layering is wrong)",
                pass.label
            )));
        }
        Ok(PassCount { examined, marked })
    }
}

impl RetroPasses for GpuRetro<'_> {
    fn units(&self) -> u64 {
        2 * self.block_pieces.len() as u64
    }

    /// Every unknown position, judged from the layer below's values and
    /// the layer's own (a resumed layer's, where they are held).
    fn initial(&mut self, pass: &RetroPass) -> Result<PassCount> {
        if let Some(why) = &self.rescan {
            pass.progress.note(why);
        }
        self.judge_all(pass)
    }

    /// The predecessors of what the pass before decided, judged again; or,
    /// without pass marks, every unknown position.
    fn later(&mut self, pass: &RetroPass) -> Result<PassCount> {
        if self.rescan.is_some() {
            return self.judge_all(pass);
        }
        let [generated, _, _] =
            self.kernels
                .dispatch(self.gpu, "propagate", &self.block_pieces, 0, &|| {
                    pass.progress.advance(1)
                })?;
        let judged = self.judge(pass, JUDGE_CANDIDATES)?;
        Ok(PassCount {
            examined: generated + judged.examined,
            marked: judged.marked,
        })
    }

    fn fill_undecided(&mut self, value: Value) -> Result<()> {
        self.kernels.dispatch(
            self.gpu,
            "fill_unknown",
            &self.whole_pieces,
            value as u32,
            &|| {},
        )?;
        Ok(())
    }

    fn fill_from_twins(&mut self, _pass: &RetroPass) -> Result<()> {
        if self.reduced {
            self.kernels
                .dispatch(self.gpu, "copy_from_twins", &self.block_pieces, 0, &|| {})?;
        }
        Ok(())
    }

    fn sync(&mut self) -> Result<()> {
        self.values.download(
            self.gpu,
            self.host.words(),
            std::slice::from_ref(&(0..self.host.len())),
        )
    }
}

/// The kernels of `shaders/retro.wgsl` for one layer's program, bound to
/// its tables.
struct RetroKernels {
    set: KernelSet,
}

impl RetroKernels {
    /// `tables`: the layer's values, the layer below's, the changed marks
    /// and the candidates.
    fn new(
        gpu: &GpuDevice,
        program: &Program,
        tables: [&DeviceTable; 4],
        max_pieces: usize,
    ) -> Result<Self> {
        let mut accessors = String::new();
        let mut binding = FIRST_WINDOW_BINDING;
        for (table, name) in tables
            .iter()
            .zip(["values", "lower", "changed", "candidates"])
        {
            accessors.push_str(&named_window_accessors(
                &format!("{name}_window"),
                name,
                table.windows().len(),
                table.window_words_log2(),
                binding,
            ));
            binding += table.windows().len() as u32;
        }
        let module = shader::compile(program, gpu, "retrograde", &accessors)?;
        let windows: Vec<&wgpu::Buffer> = tables.iter().flat_map(|t| t.windows()).collect();
        let set = KernelSet::new(
            gpu,
            KernelSpec {
                label: "retrograde",
                module: &module,
                entry_points: &ENTRY_POINTS,
                rule_tables: program.tables(),
                windows: &windows,
                max_pieces,
                counters: COUNTERS,
            },
        )?;
        Ok(RetroKernels { set })
    }

    /// Runs entry point `entry` over `pieces` with `value` in the
    /// parameters, one submission per piece, calling `advance` as each
    /// completes; returns the three counters.
    fn dispatch(
        &self,
        gpu: &GpuDevice,
        entry: &str,
        pieces: &[Piece],
        value: u32,
        advance: &dyn Fn(),
    ) -> Result<[u64; 3]> {
        let counts = self.set.dispatch(gpu, entry, pieces, [value, 0], advance)?;
        Ok([counts[0], counts[1], counts[2]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{Player, Successor};

    /// A game with one position and no GPU rules.
    struct Lonely;

    impl LayeredGame for Lonely {
        type State = ();
        fn layer_descriptor(&self, layer: usize) -> String {
            format!("lonely layer={layer}")
        }
        fn layer_size(&self, _layer: usize) -> u64 {
            1
        }
        fn new_state(&self) {}
        fn unrank(&self, _layer: usize, _rank: u64, _state: &mut ()) {}
        fn rank(&self, _layer: usize, _state: &()) -> u64 {
            0
        }
        fn mover(&self, _state: &()) -> Player {
            Player::First
        }
        fn successors<F: FnMut(Successor) -> bool>(&self, _layer: usize, _state: &(), _emit: F) {}
        fn predecessors<F: FnMut(u64)>(&self, _layer: usize, _state: &(), _emit: F) {}
        fn no_move_value(&self, _state: &()) -> Value {
            Value::SecondWins
        }
    }

    #[test]
    fn a_game_without_retrograde_rules_is_refused_with_its_name() {
        let error = retro_program(&Lonely, 0).unwrap_err().to_string();
        assert!(
            error.contains("no GPU retrograde rules for lonely layer=0")
                && error.contains("--backend cpu"),
            "{error}"
        );
    }
}
