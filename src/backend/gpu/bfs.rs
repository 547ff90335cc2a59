//! Two-bit BFS on the GPU: the same search, cell values and table files as
//! [`crate::search::two_bit_bfs`], with the table resident on the device.
//!
//! Per layer the host dispatches the expansion kernel over the blocks that
//! can hold the frontier (all of them, unless the space's move-alternation
//! layering rules some out), reads back its counters, closes the frontier
//! and records the layer. When the device cannot hold the table but every
//! layer lives in a few blocks, the host keeps the table and each layer's
//! blocks stream through a smaller device buffer.
//!
//! A file-backed table keeps the CPU's resumable order: the blocks the
//! layer changed are copied back *before* the frontier closes (so a kill
//! during the copy leaves the frontier intact with some successors marked),
//! then the host closes its frontier and writes the checkpoint. A resumed
//! layer counts the successors an interrupted run had already marked, so
//! either backend resumes the other's file.

use std::collections::HashMap;
use std::ops::Range;

use rayon::prelude::*;

use super::device::GpuDevice;
use super::kernels::{Kernel, TwoBitKernels};
use super::programs::GpuRules;
use super::shader::Program;
use super::table::DeviceTable;
use crate::error::{Error, Result};
use crate::search::chunks::chunks_of;
use crate::search::ledger::{LayerCount, Ledger};
use crate::search::two_bit_bfs::{UNSEEN, first_ranks_holding, frontier_value};
use crate::search::{
    Algorithm, DEEPEST_SAMPLE, SearchOptions, SearchReport, Work, checked_start_ranks,
};
use crate::space::{Block, Space};
use crate::table::{Backing, TwoBitTable};

/// Table word indices are u32 on the device: 2^32 words of 16 cells.
const MAX_CELLS: u64 = 1 << 36;

pub fn two_bit_bfs<S: GpuRules>(
    space: &S,
    gpu: &GpuDevice,
    options: &SearchOptions,
) -> Result<SearchReport> {
    let program = gpu_program(space)?;
    let blocks = space.blocks();
    // The CPU's descriptor: a table file from either backend resumes on the other.
    let descriptor = format!("{}; two-bit BFS", space.descriptor());
    let host_words = space.size().div_ceil(32) as usize;
    let (device_table, streamed) = device_table_for(
        space,
        gpu,
        &blocks,
        host_words,
        &descriptor,
        options.max_depth,
    )?;
    // A file-backed table has a host copy, written back after every layer,
    // and so has a streamed one (the host holds the table, the device the
    // blocks of one layer); a heap run keeps the table on the device alone.
    let stored = matches!(options.backing, Backing::Directory(_));
    let on_host = stored || streamed;
    let host_cells = if on_host { space.size() } else { 0 };
    let (table, checkpoint) = TwoBitTable::open(&options.backing, &descriptor, host_cells, UNSEEN)?;
    let starts = checked_start_ranks(space)?;
    let mut ledger = Ledger::open(
        Algorithm::TwoBitBfs,
        table.storage(),
        checkpoint,
        options.progress,
        space.goal_ranks(),
        || {
            if on_host {
                for &rank in &starts {
                    table.set(rank, frontier_value(0));
                }
            }
            let mut distinct = starts.clone();
            distinct.sort_unstable();
            distinct.dedup();
            Ok(LayerCount::plain(distinct.len() as u64))
        },
        |rank| starts.contains(&rank),
    )?;
    let mut kernels = TwoBitKernels::new(gpu, program, &blocks, &device_table)?;
    if stored && !streamed {
        device_table.upload(gpu, table.words())?;
    } else if !streamed {
        kernels.fill_unseen(gpu)?;
        device_table.set_cells_of_unseen_table(gpu, &starts, frontier_value(0))?;
    }
    let goals = space.goal_ranks();
    let read_goals = |device_table: &DeviceTable| -> Result<HashMap<u64, u8>> {
        let values = if on_host {
            goals.iter().map(|&goal| table.get(goal)).collect()
        } else {
            device_table.read_cells(gpu, &goals)?
        };
        Ok(goals.iter().copied().zip(values).collect())
    };
    let mut goal_values = read_goals(&device_table)?;
    // Successors an interrupted run marked in the layer it did not finish.
    let mut marked_before = if ledger.resumed_from.is_none() || ledger.finished {
        0
    } else {
        table.count(frontier_value(ledger.counts.len()))
    };

    let mut deepest = Vec::new();
    while !ledger.finished && !options.deep_enough(ledger.counts.len()) {
        let level = ledger.counts.len();
        let frontier = frontier_value(level - 1);
        let unseen = space.size() - ledger.representatives.iter().sum::<u64>();
        let backward = space.reversible() && unseen < ledger.representatives[level - 1];
        let frontier_blocks = blocks_holding(space, level - 1);
        let next_blocks = blocks_holding(space, level);
        let changed = union(&frontier_blocks, &next_blocks);
        let (kernel, scanned, label) = if backward {
            let label = format!("layer {level} (checking parents)");
            (Kernel::CheckParents, next_blocks.clone(), label)
        } else {
            (
                Kernel::Expand,
                frontier_blocks.clone(),
                format!("layer {level}"),
            )
        };
        // Streaming: the blocks this layer reads and writes go to the device.
        let span = hull(&blocks, &changed, host_words);
        if streamed {
            kernels.place(gpu, span.start);
            device_table.upload(gpu, &table.words()[word_range(&span)])?;
        }
        let progress = ledger.progress();
        progress.begin_pass(&label, kernels.piece_count(&scanned));
        let counts = kernels.run(gpu, kernel, &scanned, frontier, &|| progress.advance(1));
        progress.end_pass();
        let mut counts = counts?;
        counts.marked += std::mem::take(&mut marked_before);
        ledger.account_pass(Work {
            expanded: counts.expanded,
            successors: counts.successors,
            parent_checks: counts.parent_checks,
        });
        if streamed {
            device_table.download(
                gpu,
                &table.words()[word_range(&span)],
                std::slice::from_ref(&(0..span.end - span.start)),
            )?;
        } else if stored {
            let ranges: Vec<Range<u64>> = changed.iter().map(|&b| blocks[b].range()).collect();
            device_table.download(gpu, table.words(), &ranges)?;
        }
        if counts.marked == 0 {
            // The frontier was the deepest layer: note a few of its states
            // before it closes.
            deepest = if on_host {
                first_ranks_on_host(&table, &blocks, &frontier_blocks, frontier)
            } else {
                first_ranks(gpu, &device_table, &blocks, &frontier_blocks, frontier)?
            };
        }
        if on_host {
            close_on_host(&table, &blocks, &frontier_blocks, frontier);
        }
        if !streamed {
            kernels.run(
                gpu,
                Kernel::CloseFrontier,
                &frontier_blocks,
                frontier,
                &|| {},
            )?;
        }
        goal_values = read_goals(&device_table)?;
        let found = (counts.marked > 0).then_some(LayerCount::plain(counts.marked));
        ledger.record(found, |rank| reached(&goal_values, rank))?;
    }
    if deepest.is_empty() && !ledger.finished {
        // Stopped at --max-depth: the last layer is still unexpanded.
        let last = ledger.counts.len() - 1;
        let (chosen, value) = (blocks_holding(space, last), frontier_value(last));
        deepest = if on_host {
            first_ranks_on_host(&table, &blocks, &chosen, value)
        } else {
            first_ranks(gpu, &device_table, &blocks, &chosen, value)?
        };
    }
    Ok(ledger.report(deepest, |rank| reached(&goal_values, rank)))
}

/// Device memory for the whole table, or, when it does not fit and the
/// space's layering confines every layer's moves to a few blocks, for the
/// largest span of blocks one layer touches (the blocks then stream through
/// it), over the layers up to `max_depth`. The second value says which.
fn device_table_for<S: Space>(
    space: &S,
    gpu: &GpuDevice,
    blocks: &[Block],
    host_words: usize,
    descriptor: &str,
    max_depth: Option<usize>,
) -> Result<(DeviceTable, bool)> {
    let bytes = host_words as u64 * 8;
    let too_large = gpu.device_bytes().is_some_and(|limit| bytes > limit);
    let whole = if too_large {
        Err(Error::Gpu(format!(
            "{descriptor} needs {} MiB, more than the {} MiB of device memory allowed",
            bytes >> 20,
            gpu.device_bytes().unwrap_or(0) >> 20
        )))
    } else {
        DeviceTable::create(gpu, host_words, descriptor)
    };
    let refused = match whole {
        Ok(table) => return Ok((table, false)),
        Err(error) => error,
    };
    let Some(layering) = space.layering().filter(|l| l.exact) else {
        return Err(Error::Gpu(format!(
            "{refused}; only games whose blocks hold exactly one layer (Peg Solitaire) can stream blocks through a smaller device memory (run it with --backend cpu)"
        )));
    };
    let layers = layering
        .residues
        .iter()
        .max()
        .map_or(0, |&r| r as usize + 1);
    let last = max_depth.map_or(layers, |depth| layers.min(depth + 1));
    let span_words = (1..last)
        .map(|layer| {
            let changed = union(
                &blocks_holding(space, layer - 1),
                &blocks_holding(space, layer),
            );
            let span = hull(blocks, &changed, host_words);
            span.end - span.start
        })
        .max()
        .unwrap_or(0)
        .div_ceil(32) as usize;
    let span_bytes = span_words as u64 * 8;
    if gpu.device_bytes().is_some_and(|limit| span_bytes > limit) || span_words >= host_words {
        return Err(Error::Gpu(format!(
            "{refused}; streaming needs {} MiB for the blocks of one layer, which does not fit either",
            span_bytes >> 20
        )));
    }
    let table = DeviceTable::create(gpu, span_words, descriptor)
        .map_err(|e| Error::Gpu(format!("{refused}; streaming the blocks of one layer: {e}")))?;
    Ok((table, true))
}

/// The ranks from the first to the last cell of `chosen` blocks, widened
/// to whole host words (32 cells), within a table of `host_words` words.
fn hull(blocks: &[Block], chosen: &[usize], host_words: usize) -> Range<u64> {
    let start = chosen.iter().map(|&b| blocks[b].start).min().unwrap_or(0);
    let end = chosen.iter().map(|&b| blocks[b].end()).max().unwrap_or(0);
    (start / 32 * 32)..(end.div_ceil(32) * 32).min(host_words as u64 * 32)
}

/// Host words holding the cells of `span` (whole words).
fn word_range(span: &Range<u64>) -> Range<usize> {
    (span.start / 32) as usize..span.end.div_ceil(32) as usize
}

/// The first few ranks of `chosen` blocks whose host cells hold `value`.
fn first_ranks_on_host(
    table: &TwoBitTable,
    blocks: &[Block],
    chosen: &[usize],
    value: u8,
) -> Vec<u64> {
    first_ranks_holding(table, &chunks_of(&selected(blocks, chosen)), value)
}

/// The blocks numbered in `chosen`.
fn selected(blocks: &[Block], chosen: &[usize]) -> Vec<Block> {
    chosen.iter().map(|&b| blocks[b].clone()).collect()
}

/// The blocks in either list, ascending.
fn union(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut both: Vec<usize> = a.iter().chain(b).copied().collect();
    both.sort_unstable();
    both.dedup();
    both
}

/// Closes the frontier cells of `chosen` blocks in the host table, in
/// parallel over the CPU search's chunks.
fn close_on_host(table: &TwoBitTable, blocks: &[Block], chosen: &[usize], frontier: u8) {
    chunks_of(&selected(blocks, chosen))
        .into_par_iter()
        .for_each(|chunk| table.clear_equal_in(chunk.ranks, frontier));
}

/// Whether goal `rank` was reached, from its cell as read after the last
/// layer (from the host copy or the device; the ledger asks only about goals).
fn reached(goal_values: &HashMap<u64, u8>, rank: u64) -> bool {
    goal_values.get(&rank).is_some_and(|&value| value != UNSEEN)
}

/// Blocks that can hold states of BFS layer `layer`: those whose residue
/// under the space's move-alternation layering matches (all without one).
fn blocks_holding<S: Space>(space: &S, layer: usize) -> Vec<usize> {
    let count = space.blocks().len();
    match space.layering() {
        Some(layering) => (0..count)
            .filter(|&b| layering.residues[b] == layer as u64 % layering.modulus)
            .collect(),
        None => (0..count).collect(),
    }
}

/// The first few ranks of `chosen` blocks whose cells hold `value`.
fn first_ranks(
    gpu: &GpuDevice,
    table: &DeviceTable,
    blocks: &[Block],
    chosen: &[usize],
    value: u8,
) -> Result<Vec<u64>> {
    let ranges: Vec<Range<u64>> = chosen.iter().map(|&b| blocks[b].range()).collect();
    table.first_cells_equal(gpu, &ranges, value, DEEPEST_SAMPLE)
}

/// The program that runs `space` on the GPU, or why there is none:
/// symmetry reduction, blocks beyond 32-bit ranks, tables beyond 2^36 cells.
pub fn gpu_program<S: GpuRules>(space: &S) -> Result<Program> {
    if space.symmetry_reduced() {
        return Err(Error::Unsupported(
            "symmetry reduction is not implemented in the GPU kernels (run it with --backend cpu)"
                .into(),
        ));
    }
    let program = space.gpu_program()?;
    check_fits(space, &space.blocks())?;
    Ok(program)
}

/// The kernels index blocks with u32 ranks and the table with u32 words.
fn check_fits<S: Space>(space: &S, blocks: &[Block]) -> Result<()> {
    if let Some(block) = blocks.iter().find(|b| b.len >= u32::MAX as u64 - 16) {
        return Err(Error::Unsupported(format!(
            "{}: a block of {} states does not fit the GPU kernels' 32-bit ranks (run it with --backend cpu)",
            space.descriptor(),
            block.len
        )));
    }
    if space.size() >= MAX_CELLS {
        return Err(Error::Unsupported(format!(
            "{}: {} states exceed the GPU table's 2^36 cells (run it with --backend cpu)",
            space.descriptor(),
            space.size()
        )));
    }
    Ok(())
}
