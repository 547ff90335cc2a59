//! The device tables of one retrograde layer's passes, and where they lie:
//! the layer's values and the layer below wholly on the device, with the
//! two one-bit pass marks where those fit too; or, where the two tables do
//! not fit together (device memory, an allocation refused, the storage
//! bindings), windows of them ([`super::windows`]).

use std::iter::successors;

use super::windows::{MIN_WINDOW_BYTES, WindowPlan};
use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::table::DeviceTable;
use crate::error::{Error, Result};
use crate::kernel::CPU_HINT;
use crate::table::TwoBitTable;

/// "80.0 KiB": a size in the unit that suits it.
pub(super) fn in_units(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..0x10_0000 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        0x10_0000..0x4000_0000 => format!("{:.1} MiB", bytes as f64 / 1048576.0),
        _ => format!("{:.1} GiB", bytes as f64 / 1073741824.0),
    }
}

/// Bytes of one layer's host tables.
pub(super) struct Sizes {
    pub values: u64,
    /// 0 without a layer below.
    pub lower: u64,
    /// The two one-bit mark tables together.
    pub marks: u64,
}

impl Sizes {
    pub fn of(values: &TwoBitTable, lower: Option<&TwoBitTable>) -> Self {
        let bytes = |table: &TwoBitTable| table.words().len() as u64 * 8;
        Sizes {
            values: bytes(values),
            lower: lower.map_or(0, bytes),
            marks: 2 * 8 * values.len().div_ceil(64),
        }
    }
}

/// The tables bound to a layer's kernels, in binding order.
pub(super) struct LayerTables {
    /// The layer's values, or a streamed layer's target window.
    pub values: DeviceTable,
    /// The layer below (a one-word stand-in without one), or a streamed
    /// layer's source window.
    pub source: DeviceTable,
    /// The changed marks and the candidates (stand-ins without marks).
    pub marks: [DeviceTable; 2],
    /// A streamed layer's tallies; a resident layer's work lists where it
    /// has marks (`shaders/retro.wgsl`); else a stand-in.
    pub tallies: DeviceTable,
    /// Entries each work list holds (0: no lists).
    pub list_capacity: u32,
    pub placement: Placement,
}

impl LayerTables {
    pub fn in_binding_order(&self) -> [&DeviceTable; 5] {
        let [changed, candidates] = &self.marks;
        [
            &self.values,
            &self.source,
            changed,
            candidates,
            &self.tallies,
        ]
    }
}

pub(super) enum Placement {
    /// The values and the layer below stay on the device for the whole
    /// layer, uploaded once. Where the pass marks do not fit, why: then
    /// every pass judges all unknown positions (Algorithm 4's scan).
    Resident { rescan: Option<String> },
    /// Windows of both stream through the device; `note` says so once.
    Streamed { plan: WindowPlan, note: String },
}

/// Storage bindings besides the tables' windows: the rule tables and the
/// counters.
const OTHER_BINDINGS: usize = 2;

/// The layer's tables on the device: whole where they fit, else in
/// windows; refused with the sizes when neither fits.
pub(super) fn layer_tables(
    gpu: &GpuDevice,
    descriptor: &str,
    values: &TwoBitTable,
    lower: Option<&TwoBitTable>,
) -> Result<LayerTables> {
    let sizes = Sizes::of(values, lower);
    match resident_tables(gpu, descriptor, &sizes, values, lower) {
        Ok(tables) => Ok(tables),
        Err(why) => streamed_tables(gpu, descriptor, &sizes, &why),
    }
}

/// The values and the layer below wholly on the device, uploaded, with
/// the marks where they fit; or why they do not fit.
fn resident_tables(
    gpu: &GpuDevice,
    descriptor: &str,
    sizes: &Sizes,
    values: &TwoBitTable,
    lower: Option<&TwoBitTable>,
) -> std::result::Result<LayerTables, String> {
    let limit = gpu.device_bytes();
    if let Some(limit) = limit
        && sizes.values + sizes.lower > limit
    {
        return Err(format!("more than the {} allowed", in_units(limit)));
    }
    let create = |words: usize, bits: u32, what: &str| {
        DeviceTable::create(gpu, words, bits, what).map_err(|e| e.to_string())
    };
    let values_table = create(values.words().len(), 2, "the layer's values")?;
    // Without a layer below, a one-word table stands in for its binding.
    let source = create(lower.map_or(1, |t| t.words().len()), 2, "the layer below")?;
    let max_bindings = gpu.limits().max_storage_buffers_per_shader_stage as usize;
    // The tallies' stand-in takes one binding, the marks at least two.
    let bound = values_table.windows().len() + source.windows().len() + OTHER_BINDINGS + 1;
    if bound + 2 > max_bindings {
        return Err(format!(
            "in {} storage bindings, more than the {max_bindings} a kernel may use",
            bound + 2
        ));
    }
    let room = limit.map(|limit| limit - sizes.values - sizes.lower);
    let (marks, rescan) =
        mark_tables(gpu, sizes.marks, bound, max_bindings, room).map_err(|e| e.to_string())?;
    let rescan = rescan.map(|why| {
        format!(
            "{descriptor}: its pass marks ({}) do not fit beside its values ({}) and the layer below's ({}): {why}; every pass judges all of its unknown positions again",
            in_units(sizes.marks),
            in_units(sizes.values),
            in_units(sizes.lower)
        )
    });
    let (tallies, list_capacity) = match rescan {
        None => work_lists(gpu, values.len(), room.map(|r| r - sizes.marks))
            .map_err(|e| e.to_string())?,
        Some(_) => (create(1, 2, "the tallies' stand-in")?, 0),
    };
    let upload = |table: &DeviceTable, host: &TwoBitTable| {
        table.upload(gpu, host.words()).map_err(|e| e.to_string())
    };
    upload(&values_table, values)?;
    if let Some(lower) = lower {
        upload(&source, lower)?;
    }
    Ok(LayerTables {
        values: values_table,
        source,
        marks,
        tallies,
        list_capacity,
        placement: Placement::Resident { rescan },
    })
}

/// The layer's two one-bit mark tables (changed, candidates), `bytes`
/// together, reading as zero; or, where they do not fit — more than `room`
/// bytes, an allocation refused, more than `max_bindings` storage bindings
/// beside the `bound` ones — one-word stand-ins and why, and then every
/// pass rescans the layer.
fn mark_tables(
    gpu: &GpuDevice,
    bytes: u64,
    bound: usize,
    max_bindings: usize,
    room: Option<u64>,
) -> Result<([DeviceTable; 2], Option<String>)> {
    let stand_ins = |why: String| Ok((mark_stand_ins(gpu)?, Some(why)));
    if let Some(room) = room
        && bytes > room
    {
        return stand_ins(format!(
            "more than the {} allowed",
            in_units(gpu.device_bytes().unwrap_or(0))
        ));
    }
    match mark_pair(gpu, (bytes / 16) as usize) {
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

/// The changed marks and the candidates, `words` host words each.
fn mark_pair(gpu: &GpuDevice, words: usize) -> Result<[DeviceTable; 2]> {
    Ok([
        DeviceTable::create(gpu, words, 1, "the changed marks")?,
        DeviceTable::create(gpu, words, 1, "the candidates")?,
    ])
}

/// The fewest and the most entries of a work list: one per
/// [`CELLS_PER_LIST_ENTRY`] cells in between. A list that overflows costs
/// nothing but a scan of the marks (what every pass did without lists), so
/// lists serve the sparse passes, where a scan leaves most of the device
/// idle, and the dense ones scan.
const MIN_LIST_ENTRIES: u64 = 1 << 12;
const MAX_LIST_ENTRIES: u64 = 1 << 24;
const CELLS_PER_LIST_ENTRY: u64 = 128;
/// The lists' three lengths.
const LIST_HEADER_BYTES: u64 = 12;

/// A resident layer's three work lists for `cells` cells (three u32
/// lengths, then the lists of (block, local) pairs: two decided, the
/// candidates) in one window and in `room` bytes, and the entries each
/// holds; where they do not fit, a one-word stand-in and 0 (every later
/// pass scans its marks).
fn work_lists(gpu: &GpuDevice, cells: u64, room: Option<u64>) -> Result<(DeviceTable, u32)> {
    let one_window = gpu.window_bytes().saturating_sub(LIST_HEADER_BYTES) / 24;
    let entries = match gpu.list_entries() {
        Some(entries) => entries as u64,
        None => (cells / CELLS_PER_LIST_ENTRY).clamp(MIN_LIST_ENTRIES, MAX_LIST_ENTRIES),
    }
    .min(one_window);
    let bytes = LIST_HEADER_BYTES + 24 * entries;
    if room.is_none_or(|room| bytes <= room)
        && let Ok(lists) = DeviceTable::create(gpu, bytes.div_ceil(8) as usize, 2, "the work lists")
    {
        return Ok((lists, entries as u32));
    }
    Ok((
        DeviceTable::create(gpu, 1, 2, "the work lists' stand-in")?,
        0,
    ))
}

/// One-word tables bound where the marks would be.
fn mark_stand_ins(gpu: &GpuDevice) -> Result<[DeviceTable; 2]> {
    mark_pair(gpu, 1)
}

/// The layer in windows, in the device memory allowed or, without a
/// bound, in the largest budget the device allocates (halving from half
/// the two tables); refused when windows of [`MIN_WINDOW_BYTES`] do not
/// fit either. `not_whole`: why the tables do not fit whole.
fn streamed_tables(
    gpu: &GpuDevice,
    descriptor: &str,
    sizes: &Sizes,
    not_whole: &str,
) -> Result<LayerTables> {
    let max_bindings = gpu.limits().max_storage_buffers_per_shader_stage as u64;
    // The values, the tallies and the source share what the other
    // bindings and the marks' stand-ins leave.
    let windows_each = max_bindings.saturating_sub(OTHER_BINDINGS as u64 + 2) / 3;
    let max_table_words = windows_each * gpu.window_bytes() / 4;
    let budgets: Vec<u64> = match gpu.device_bytes() {
        Some(limit) => vec![limit],
        None => successors(Some((sizes.values + sizes.lower) / 2), |b| Some(b / 2))
            .take_while(|&b| b >= 3 * MIN_WINDOW_BYTES)
            .collect(),
    };
    let mut refused = None;
    for budget in budgets {
        let Some(plan) = WindowPlan::new(
            sizes.values / 4,
            sizes.lower / 4,
            budget / 4,
            max_table_words,
        ) else {
            break;
        };
        match windowed_tables(gpu, descriptor, sizes, not_whole, plan) {
            Ok(tables) => return Ok(tables),
            Err(error) => refused = Some(error.to_string()),
        }
    }
    Err(Error::Gpu(format!(
        "{descriptor}: its values ({}) and the layer below's ({}) do not fit the device together ({not_whole}), and neither do windows of them of {} or more{} {CPU_HINT}",
        in_units(sizes.values),
        in_units(sizes.lower),
        in_units(MIN_WINDOW_BYTES),
        refused.map_or(String::new(), |why| format!(" ({why})"))
    )))
}

/// The tables of `plan` allocated, and the note that says how the layer
/// streams.
fn windowed_tables(
    gpu: &GpuDevice,
    descriptor: &str,
    sizes: &Sizes,
    not_whole: &str,
    plan: WindowPlan,
) -> Result<LayerTables> {
    let create = |words: u64, what: &str| DeviceTable::create(gpu, (words / 2) as usize, 2, what);
    let values = create(plan.target_words, "a window of the layer's values")?;
    let tallies = create(plan.target_words, "the window's tallies")?;
    let source = create(plan.source_words, "a source window")?;
    let marks = mark_stand_ins(gpu)?;
    let rounds: usize = (0..plan.targets.len()).map(|t| plan.rounds(t).len()).sum();
    let lower = match plan.lower.first() {
        Some(window) => format!(
            ", the layer below's in {} of {}",
            plan.lower.len(),
            in_units(4 * (window.end - window.start))
        ),
        None => String::new(),
    };
    let note = format!(
        "{descriptor}: its values ({}) and the layer below's ({}) do not fit the device together ({not_whole}); they stream through it in windows, its values in {} of {}{lower}: {rounds} rounds a pass, every pass judging all of its unknown positions",
        in_units(sizes.values),
        in_units(sizes.lower),
        plan.targets.len(),
        in_units(4 * plan.target_words),
    );
    Ok(LayerTables {
        values,
        source,
        marks,
        tallies,
        list_capacity: 0,
        placement: Placement::Streamed { plan, note },
    })
}
