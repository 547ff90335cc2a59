//! One retrograde layer's passes as the kernels of `shaders/retro.wgsl`
//! over its device tables ([`super::tables`]): resident, with or
//! without pass marks, or streamed in windows ([`super::windows`]).

use std::cell::RefCell;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use rayon::prelude::*;

use super::lists::{Appended, WorkLists};
use super::program::retro_program;
use super::tables::{LayerTables, Placement, layer_tables};
use super::windows::{Source, WindowPlan, Words, clip};
use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::kernel_set::{FIRST_WINDOW_BINDING, KernelSet, KernelSpec};
use crate::backend::gpu::pieces::{Piece, pieces_of};
use crate::backend::gpu::shader::{self, named_window_accessors};
use crate::backend::gpu::table::DeviceTable;
use crate::error::{Error, Result};
use crate::kernel::{Program, U64};
use crate::search::retro2::seam::{PassCount, RetroPass, RetroPasses};
use crate::space::{Block, LayersBelow};
use crate::space::{LayeredGame, Value};
use crate::table::TwoBitTable;

/// Five 64-bit counters: judged (or predecessors generated), decided,
/// moves into a missing layer, entries appended to the decided list and
/// to the candidates.
const COUNTERS: usize = 5;
const ENTRY_POINTS: [&str; 7] = [
    "judge",
    "propagate",
    "judge_listed",
    "propagate_listed",
    "settle",
    "fill_unknown",
    "copy_from_twins",
];
/// `judge`'s parameter (the shader's constants of the same names).
const JUDGE_ALL: u32 = 0;
const JUDGE_CANDIDATES: u32 = 1;
const JUDGE_ROUND: u32 = 2;
const JUDGE_LOWER: u32 = 3;
/// The five words at RETRO_WINDOWS_AT: target's first word and words,
/// source's first word and words, 1 when the source is the layer below.
const WINDOW_WORDS: usize = 5;

/// The solved values a layer's moves out of it read: the layer below as
/// the driver holds it, or the layers the moves reach copied into one
/// table for this layer ([`LayersBelow::joined`]).
pub(super) enum LowerTable<'a> {
    Held(&'a TwoBitTable),
    Joined(Box<TwoBitTable>),
}

impl LowerTable<'_> {
    fn table(&self) -> &TwoBitTable {
        match self {
            LowerTable::Held(table) => table,
            LowerTable::Joined(table) => table,
        }
    }
}

/// One layer's passes on the device.
pub(super) struct GpuRetro<'a> {
    gpu: &'a GpuDevice,
    /// The host table the driver records: current after `sync`, and after
    /// every pass of a streamed layer.
    host: &'a TwoBitTable,
    lower: Option<LowerTable<'a>>,
    tables: LayerTables,
    reduced: bool,
    kernels: RetroKernels,
    /// The pieces of the layer's blocks, and of the whole table (the fill
    /// also reaches the padding cells, as the CPU's does, so the stored
    /// bytes are the same).
    block_pieces: Vec<Piece>,
    whole_pieces: Vec<Piece>,
    /// The pieces of the blocks whose positions may have twins
    /// ([`SymmetryHooks::block_has_twins`](crate::space::SymmetryHooks::block_has_twins)):
    /// a resident layer's copy to twins.
    twin_pieces: Vec<Piece>,
    /// A streamed layer's pieces of each target window: the blocks', the
    /// whole table's.
    window_pieces: Vec<[Vec<Piece>; 2]>,
    /// The window of the layer below now in the source table: it is final,
    /// so it is not uploaded again while it stays.
    placed_lower: RefCell<Option<Words>>,
    /// A resident layer's work lists (none: every later pass scans).
    lists: WorkLists,
    /// Seconds `open` spent on the device tables and their upload, and on
    /// compiling the kernels.
    upload_seconds: f64,
    kernel_seconds: f64,
}

impl<'a> GpuRetro<'a> {
    /// The layer's passes; `recorded` is the only value they record
    /// before the final fill (None: every value, as a sweep of an acyclic
    /// layer records them).
    pub fn open<G: LayeredGame>(
        gpu: &'a GpuDevice,
        game: &G,
        layer: usize,
        host: &'a TwoBitTable,
        lower: Option<LowerTable<'a>>,
        recorded: Option<Value>,
    ) -> Result<Self> {
        let mut program = retro_program(game, layer)?;
        let uploading = Instant::now();
        let descriptor = game.layer_descriptor(layer);
        let lower_table = lower.as_ref().map(LowerTable::table);
        let tables = layer_tables(gpu, &descriptor, host, lower_table)?;
        let upload_seconds = uploading.elapsed().as_secs_f64();
        let (marks, streamed) = match &tables.placement {
            Placement::Resident { rescan } => (rescan.is_none(), false),
            Placement::Streamed { .. } => (false, true),
        };
        // Padded to a power of two (at least 8 blocks), so that layers
        // with a few blocks more or less lay out their tables alike and,
        // where the game keeps its layer in a table, share their compiled
        // kernels (`KernelCache`).
        let starts = |blocks: &[Block]| -> Vec<u32> {
            let mut starts: Vec<u32> = blocks
                .iter()
                .flat_map(|b| [b.start as u32, (b.start >> 32) as u32])
                .collect();
            starts.resize(2 * blocks.len().max(8).next_power_of_two(), 0);
            starts
        };
        let blocks = game.layer_blocks(layer);
        // The blocks `lower` holds: the layer below's, or the reached
        // layers' joined (`LayersBelow`).
        let lower_blocks = match &lower {
            Some(_) => LayersBelow::of(game, layer).blocks().to_vec(),
            None => Vec::new(),
        };
        let reduced = game.reduced_by_symmetry();
        let windows_at = program.tables().len() as u64;
        program
            .table("RETRO_WINDOWS_AT", &[0; WINDOW_WORDS])
            .table("RETRO_BLOCK_STARTS_AT", &starts(&blocks))
            .table("RETRO_LOWER_STARTS_AT", &starts(&lower_blocks))
            .constant("RETRO_HAS_LOWER", lower.is_some() as u32)
            .constant("RETRO_REDUCED", reduced as u32)
            .constant("RETRO_MARKS", marks as u32)
            .constant("RETRO_STREAMED", streamed as u32)
            .constant("RETRO_RECORDED", recorded.map_or(0, |v| v as u32))
            .constant("RETRO_LISTS", tables.list_capacity)
            .source(U64)
            .source(shader::PIECES)
            .source(shader::RETRO);
        let piece_words = gpu.piece_words();
        let block_pieces: Vec<Piece> = blocks
            .iter()
            .enumerate()
            .flat_map(|(index, block)| pieces_of(index, block, piece_words, 2))
            .collect();
        let twin_pieces: Vec<Piece> = block_pieces
            .iter()
            .filter(|piece| reduced && game.block_has_twins(layer, piece.block as usize))
            .cloned()
            .collect();
        let whole = Block {
            start: 0,
            len: host.words().len() as u64 * 32,
        };
        let whole_pieces = pieces_of(0, &whole, piece_words, 2);
        let window_pieces: Vec<[Vec<Piece>; 2]> = match &tables.placement {
            Placement::Streamed { plan, .. } => plan
                .targets
                .iter()
                .map(|window| [clip(&block_pieces, window), clip(&whole_pieces, window)])
                .collect(),
            Placement::Resident { .. } => Vec::new(),
        };
        let max_pieces = window_pieces
            .iter()
            .flatten()
            .chain([&block_pieces, &whole_pieces])
            .map(Vec::len)
            .max()
            .unwrap_or(0);
        let compiling = Instant::now();
        let kernels = RetroKernels::new(
            gpu,
            &program,
            tables.in_binding_order(),
            windows_at,
            max_pieces,
        )?;
        let kernel_seconds = compiling.elapsed().as_secs_f64();
        Ok(GpuRetro {
            gpu,
            host,
            lower,
            lists: WorkLists::new(tables.list_capacity),
            tables,
            reduced,
            kernels,
            block_pieces,
            whole_pieces,
            twin_pieces,
            window_pieces,
            placed_lower: RefCell::new(None),
            upload_seconds,
            kernel_seconds,
        })
    }

    /// Judges every unknown position of a resident layer, by all of its
    /// moves or (`JUDGE_LOWER`) by those into the layers below.
    fn judge_all(&self, pass: &RetroPass, which: u32) -> Result<PassCount> {
        // As many units as a later pass's two halves.
        pass.progress.advance(self.block_pieces.len() as u64);
        self.lists.begin_initial(self.gpu, &self.tables.tallies);
        self.judge(pass, &self.block_pieces, which)
    }

    /// Judges the unknown positions of `pieces`: all, the candidates only,
    /// or those of a streamed layer's round.
    fn judge(&self, pass: &RetroPass, pieces: &[Piece], which: u32) -> Result<PassCount> {
        let counts = self.dispatch(pass, "judge", pieces, which)?;
        self.judged(pass, counts)
    }

    /// A resident layer's later pass: the predecessors of what the pass
    /// before decided won or made candidates (from the decided list where
    /// it holds them all, else by the marks), then the candidates judged
    /// (likewise).
    fn propagate_and_judge(&self, pass: &RetroPass) -> Result<PassCount> {
        let [generated, won, ..] = match self.lists.begin_later(self.gpu, &self.tables.tallies) {
            Some((list, entries)) => self.dispatch_listed(pass, "propagate_listed", list, entries),
            None => self.dispatch(pass, "propagate", &self.block_pieces, 0),
        }?;
        let judged = match self.lists.candidates() {
            Some(entries) => {
                let counts = self.dispatch_listed(pass, "judge_listed", 0, entries)?;
                self.judged(pass, counts)
            }
            None => self.judge(pass, &self.block_pieces, JUDGE_CANDIDATES),
        }?;
        Ok(PassCount {
            examined: generated + judged.examined,
            judged: judged.examined,
            marked: won + judged.marked,
        })
    }

    /// Runs `entry` over `pieces` with `value`, appending to the decided
    /// list the pass fills, and counts what it appended to the lists.
    fn dispatch(
        &self,
        pass: &RetroPass,
        entry: &str,
        pieces: &[Piece],
        value: u32,
    ) -> Result<Counts> {
        let counts = self.kernels.set.dispatch::<COUNTERS>(
            self.gpu,
            entry,
            pieces,
            [value, self.lists.filling()],
            &|| pass.progress.advance(1),
        )?;
        self.lists.add(Appended {
            decided: counts[3],
            candidates: counts[4],
        });
        Ok(counts)
    }

    /// Runs `entry` over the first `entries` entries of a work list, one
    /// invocation each, with `value`.
    fn dispatch_listed(
        &self,
        pass: &RetroPass,
        entry: &str,
        value: u32,
        entries: u64,
    ) -> Result<Counts> {
        let piece = Piece {
            block: 0,
            first_word: 0,
            words: entries as u32,
            local_base: 0,
            head_mask: u32::MAX,
            tail_mask: u32::MAX,
        };
        let pieces = if entries == 0 {
            &[][..]
        } else {
            std::slice::from_ref(&piece)
        };
        // As many units as a scan over the blocks' pieces.
        pass.progress
            .advance((self.block_pieces.len() as u64).saturating_sub(pieces.len() as u64));
        self.dispatch(pass, entry, pieces, value)
    }

    /// A judgement's counts, or the error of moves into a missing layer.
    fn judged(&self, pass: &RetroPass, counts: Counts) -> Result<PassCount> {
        let [examined, marked, missed, ..] = counts;
        if missed > 0 {
            return Err(Error::Gpu(format!(
                "{}: {missed} moves led into a layer below that is not there (a game's layering is wrong)",
                pass.label
            )));
        }
        Ok(PassCount {
            examined,
            judged: examined,
            marked,
        })
    }

    /// One pass over a streamed layer: each target window in its rounds,
    /// then settled, then copied back to the host.
    fn streamed_pass(&self, plan: &WindowPlan, pass: &RetroPass) -> Result<PassCount> {
        let mut count = PassCount::default();
        for (target, [pieces, _]) in self.window_pieces.iter().enumerate() {
            self.place_target(plan, target)?;
            self.tables.tallies.clear(self.gpu)?;
            for (round, source) in plan.rounds(target).iter().enumerate() {
                self.place_source(plan, target, source)?;
                let judged = self.judge(pass, pieces, JUDGE_ROUND)?;
                // Each round looks at the same positions (less those won).
                if round == 0 {
                    count.examined += judged.examined;
                }
                count.marked += judged.marked;
            }
            let [_, settled, ..] = self.kernels.set.dispatch::<COUNTERS>(
                self.gpu,
                "settle",
                pieces,
                [0, 0],
                &|| pass.progress.advance(1),
            )?;
            count.marked += settled;
            self.retrieve_target(plan, target)?;
        }
        Ok(count)
    }

    /// Uploads the host's values of target window `target`.
    fn place_target(&self, plan: &WindowPlan, target: usize) -> Result<()> {
        let window = &plan.targets[target];
        self.tables
            .values
            .upload(self.gpu, &self.host.words()[host_words(window)])
    }

    /// Copies target window `target` back into the host table.
    fn retrieve_target(&self, plan: &WindowPlan, target: usize) -> Result<()> {
        let window = &plan.targets[target];
        let cells = 16 * (window.end - window.start);
        self.tables.values.download(
            self.gpu,
            &self.host.words()[host_words(window)],
            std::slice::from_ref(&(0..cells)),
        )
    }

    /// Puts `source` in the source table (from the host) and says where
    /// the two windows lie.
    fn place_source(&self, plan: &WindowPlan, target: usize, source: &Source) -> Result<()> {
        let (window, lower) = match source {
            Source::Nothing => (0..0, 0),
            Source::Own(window) => {
                self.tables
                    .source
                    .upload(self.gpu, &self.host.words()[host_words(window)])?;
                *self.placed_lower.borrow_mut() = None;
                (window.clone(), 0)
            }
            Source::Lower(window) => {
                let mut placed = self.placed_lower.borrow_mut();
                if placed.as_ref() != Some(window) {
                    let below = self.lower.as_ref().expect("a layer below to stream");
                    self.tables
                        .source
                        .upload(self.gpu, &below.table().words()[host_words(window)])?;
                    *placed = Some(window.clone());
                }
                (window.clone(), 1)
            }
        };
        let target = &plan.targets[target];
        let words = [
            target.start,
            target.end - target.start,
            window.start,
            window.end - window.start,
            lower,
        ]
        .map(|w| w as u32);
        self.kernels.set_windows(self.gpu, &words);
        Ok(())
    }

    /// Runs `entry` over each target window of a streamed layer in the
    /// rounds `rounds` gives it (the pieces of the blocks, or of the whole
    /// table), copying each back to the host.
    fn each_window(
        &self,
        plan: &WindowPlan,
        entry: &str,
        whole: bool,
        value: u32,
        rounds: impl Fn(usize) -> Vec<Source>,
    ) -> Result<()> {
        for (target, pieces) in self.window_pieces.iter().enumerate() {
            self.place_target(plan, target)?;
            for source in rounds(target) {
                self.place_source(plan, target, &source)?;
                self.kernels.set.dispatch::<COUNTERS>(
                    self.gpu,
                    entry,
                    &pieces[whole as usize],
                    [value, 0],
                    &|| {},
                )?;
            }
            self.retrieve_target(plan, target)?;
        }
        Ok(())
    }
}

/// What the kernels count ([`COUNTERS`]).
type Counts = [u64; COUNTERS];

/// The host words (u64) of a window of u32 words.
fn host_words(window: &Words) -> std::ops::Range<usize> {
    (window.start / 2) as usize..(window.end / 2) as usize
}

impl RetroPasses for GpuRetro<'_> {
    fn units(&self) -> u64 {
        match &self.tables.placement {
            Placement::Resident { .. } => 2 * self.block_pieces.len() as u64,
            Placement::Streamed { plan, .. } => self
                .window_pieces
                .iter()
                .enumerate()
                .map(|(target, [pieces, _])| {
                    pieces.len() as u64 * (plan.rounds(target).len() as u64 + 1)
                })
                .sum(),
        }
    }

    /// Every unknown position, judged from the layer below's values and
    /// the layer's own where some are held (a resumed layer: their
    /// predecessors learn them only here); a fresh layer's moves within it
    /// are all unknown, and the rules that can leave them unranked.
    fn initial(&mut self, pass: &RetroPass) -> Result<PassCount> {
        match &self.tables.placement {
            Placement::Resident { rescan } => {
                if let Some(why) = rescan {
                    pass.progress.note(why);
                }
                let fresh = self
                    .host
                    .words()
                    .par_iter()
                    .all(|word| word.load(Relaxed) == 0);
                self.judge_all(pass, if fresh { JUDGE_LOWER } else { JUDGE_ALL })
            }
            Placement::Streamed { plan, note } => {
                pass.progress.note(note);
                self.streamed_pass(plan, pass)
            }
        }
    }

    /// The predecessors of what the pass before decided, judged again; or,
    /// without pass marks, every unknown position.
    fn later(&mut self, pass: &RetroPass) -> Result<PassCount> {
        match &self.tables.placement {
            Placement::Resident { rescan: Some(_) } => self.judge_all(pass, JUDGE_ALL),
            Placement::Streamed { plan, .. } => self.streamed_pass(plan, pass),
            Placement::Resident { rescan: None } => self.propagate_and_judge(pass),
        }
    }

    fn fill_undecided(&mut self, value: Value) -> Result<()> {
        match &self.tables.placement {
            Placement::Resident { .. } => {
                self.kernels.set.dispatch::<COUNTERS>(
                    self.gpu,
                    "fill_unknown",
                    &self.whole_pieces,
                    [value as u32, 0],
                    &|| {},
                )?;
            }
            Placement::Streamed { plan, .. } => {
                self.each_window(plan, "fill_unknown", true, value as u32, |_| {
                    vec![Source::Nothing]
                })?
            }
        }
        Ok(())
    }

    fn fill_from_twins(&mut self, _pass: &RetroPass) -> Result<()> {
        if !self.reduced {
            return Ok(());
        }
        match &self.tables.placement {
            Placement::Resident { .. } if self.twin_pieces.is_empty() => {}
            Placement::Resident { .. } => {
                self.kernels.set.dispatch::<COUNTERS>(
                    self.gpu,
                    "copy_from_twins",
                    &self.twin_pieces,
                    [0, 0],
                    &|| {},
                )?;
            }
            // A twin is in the layer: the rounds of each other window.
            Placement::Streamed { plan, .. } => {
                self.each_window(plan, "copy_from_twins", false, 0, |target| {
                    plan.own_rounds(target)
                })?
            }
        }
        Ok(())
    }

    fn device_setup(&self) -> (f64, f64) {
        (self.upload_seconds, self.kernel_seconds)
    }

    /// A streamed layer's host table is current after every pass.
    fn sync(&mut self) -> Result<()> {
        match self.tables.placement {
            Placement::Resident { .. } => self.tables.values.download(
                self.gpu,
                self.host.words(),
                std::slice::from_ref(&(0..self.host.len())),
            ),
            Placement::Streamed { .. } => Ok(()),
        }
    }
}

/// The kernels of `shaders/retro.wgsl` for one layer's program, bound to
/// its tables.
struct RetroKernels {
    set: KernelSet,
    /// Where the window words are in the rule tables.
    windows_at: u64,
}

impl RetroKernels {
    /// `tables`: the layer's values, the layer below's (or the source),
    /// the changed marks, the candidates and the tallies.
    fn new(
        gpu: &GpuDevice,
        program: &Program,
        tables: [&DeviceTable; 5],
        windows_at: u64,
        max_pieces: usize,
    ) -> Result<Self> {
        let mut accessors = String::new();
        let mut binding = FIRST_WINDOW_BINDING;
        for (table, name) in
            tables
                .iter()
                .zip(["values", "lower", "changed", "candidates", "tallies"])
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
        let source = program.text(&accessors);
        let windows: Vec<&wgpu::Buffer> = tables.iter().flat_map(|t| t.windows()).collect();
        let set = KernelSet::new(
            gpu,
            KernelSpec {
                label: "retrograde",
                source,
                entry_points: &ENTRY_POINTS,
                rule_tables: program.tables(),
                windows: &windows,
                max_pieces,
                counters: COUNTERS,
            },
        )?;
        Ok(RetroKernels { set, windows_at })
    }

    /// Writes the window words the next dispatches read.
    fn set_windows(&self, gpu: &GpuDevice, words: &[u32; WINDOW_WORDS]) {
        gpu.queue.write_buffer(
            self.set.rule_tables(),
            self.windows_at * 4,
            bytemuck::cast_slice(words),
        );
    }
}
