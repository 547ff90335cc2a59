//! One-bit breadth-first search for spaces with a move-alternation property
//! on their blocks (Algorithm 3 of `002_f83af64931234a7c.txt`, and its
//! partitioned form for the sliding-tile puzzle, Algorithm 7).
//!
//! Pass p expands every set bit of the blocks whose residue is p mod the
//! layering's modulus; the successors land in blocks of residue p+1. With
//! one bit a state cannot be marked as expanded, so states of earlier layers
//! with the same residue are expanded again (harmlessly: their successors are
//! already set). Layer sizes follow from population counts (Theorem 3):
//! layer p+1 = (set bits in the residue-(p+1) blocks) - (earlier layers with
//! that residue). Moves that keep a state's rank inside its block are applied
//! to whole blocks with one word-wise OR (Algorithm 7, line 12).
//!
//! Beyond the paper: in a reversible space, a pass may instead visit the
//! clear bits of the blocks being filled and set each one that has a set
//! neighbour (its parents are its neighbours). Both give the same bits; the
//! pass picks whichever visits fewer states, which late in a search (most
//! states found, re-expansion everywhere) is the clear bits by far.

use rayon::prelude::*;

use super::chunks::{Chunk, chunks_of};
use super::{BATCH, RunClock, SearchOptions, SearchReport, Work, checked_start_ranks};
use crate::error::{Error, Result};
use crate::space::{Block, BlockLayering, MoveFilter, Space};
use crate::table::{Checkpoint, OneBitTable};

pub fn one_bit_bfs<S: Space>(space: &S, options: &SearchOptions) -> Result<SearchReport> {
    let layering = space.layering().ok_or_else(|| {
        Error::Unsupported(format!(
            "one-bit BFS needs a move-alternation property, and {} has none; use two-bit BFS or reachability",
            space.descriptor()
        ))
    })?;
    let blocks = space.blocks();
    check_layering(&layering, &blocks)?;

    let clock = RunClock::start();
    let progress = options.progress;
    let descriptor = format!("{}; one-bit BFS", space.descriptor());
    let (table, checkpoint) = OneBitTable::open(&options.backing, &descriptor, space.size())?;
    let residue_of_layer = |layer: usize| layer as u64 % layering.modulus;
    let blocks_with_residue = |residue: u64| -> Vec<usize> {
        (0..blocks.len())
            .filter(|&b| layering.residues[b] == residue)
            .collect()
    };
    let count_residue = |residue: u64| -> u64 {
        blocks_with_residue(residue)
            .iter()
            .map(|&b| table.count_in(blocks[b].range()))
            .sum()
    };

    let (mut layers, resumed_from, complete) = match checkpoint {
        Some(Checkpoint {
            last_completed: Some(last),
            counts,
            complete,
        }) => {
            progress.note(&format!("resuming from completed layer {last}"));
            (counts, Some(last), complete)
        }
        _ => {
            let starts = checked_start_ranks(space)?;
            for &rank in &starts {
                let block = blocks.partition_point(|b| b.end() <= rank);
                if layering.residues[block] != 0 {
                    return Err(Error::InvalidParameter(format!(
                        "start rank {rank} lies in a block of layer residue {}, not 0",
                        layering.residues[block]
                    )));
                }
                table.set(rank);
            }
            let layer_zero = count_residue(0);
            table.checkpoint(&Checkpoint {
                last_completed: Some(0),
                counts: vec![layer_zero],
                complete: false,
            })?;
            (vec![layer_zero], None, false)
        }
    };
    for (layer, &states) in layers.iter().enumerate() {
        progress.layer_done(layer, states);
    }

    let chunks = chunks_of(&blocks);
    let mut work = Work::default();
    let mut passes = 0;
    let mut finished = complete;
    while !finished {
        let level = layers.len();
        let expanding = residue_of_layer(level - 1);
        let sources = blocks_with_residue(expanding);
        for &source in &sources {
            for &target in &layering.rank_preserving[source] {
                table.or_range(
                    blocks[source].start,
                    blocks[target].start,
                    blocks[source].len,
                );
            }
        }
        let residue = residue_of_layer(level);
        let filled = count_residue(residue);
        let capacity: u64 = blocks_with_residue(residue)
            .iter()
            .map(|&b| blocks[b].len)
            .sum();
        let pull = space.reversible() && capacity - filled < count_residue(expanding);
        let active_residue = if pull { residue } else { expanding };
        let active: Vec<&Chunk> = chunks
            .iter()
            .filter(|c| layering.residues[c.block] == active_residue)
            .collect();
        let label = if pull {
            format!("layer {level} (checking parents)")
        } else {
            format!("layer {level}")
        };
        progress.begin_pass(&label, active.len() as u64);
        work += active
            .par_iter()
            .map(|chunk| {
                let done = if pull {
                    fill_chunk(space, &table, chunk)
                } else {
                    expand_chunk(space, &table, chunk)
                };
                progress.advance(1);
                done
            })
            .reduce(Work::default, |a, b| a + b);
        progress.end_pass();
        passes += 1;

        // Theorem 3: this layer's states are the new bits of its residue.
        let earlier: u64 = layers
            .iter()
            .enumerate()
            .filter(|&(layer, _)| residue_of_layer(layer) == residue)
            .map(|(_, &states)| states)
            .sum();
        let found = count_residue(residue) - earlier;
        finished = found == 0;
        if !finished {
            layers.push(found);
            progress.layer_done(level, found);
        }
        table.checkpoint(&Checkpoint {
            last_completed: Some(layers.len() as u64 - 1),
            counts: layers.clone(),
            complete: finished,
        })?;
    }

    Ok(SearchReport {
        algorithm: super::Algorithm::OneBitBfs,
        reachable: layers.iter().sum(),
        layers: Some(layers),
        passes,
        expanded: work.expanded,
        successors: work.successors,
        parent_checks: work.parent_checks,
        seconds: clock.seconds(),
        resumed_from,
        store: table.storage().path().map(|p| p.to_path_buf()),
    })
}

fn check_layering(layering: &BlockLayering, blocks: &[Block]) -> Result<()> {
    let bad = |why: &str| {
        Err(Error::InvalidParameter(format!(
            "inconsistent block layering: {why}"
        )))
    };
    if layering.modulus < 2 {
        return bad("modulus below 2");
    }
    if layering.residues.len() != blocks.len() || layering.rank_preserving.len() != blocks.len() {
        return bad("one residue and one target list per block needed");
    }
    for (source, targets) in layering.rank_preserving.iter().enumerate() {
        for &target in targets {
            if target >= blocks.len() || blocks[target].len != blocks[source].len {
                return bad("rank-preserving moves must join blocks of equal length");
            }
            if layering.residues[target] != (layering.residues[source] + 1) % layering.modulus {
                return bad("a rank-preserving move must advance the residue by one");
            }
        }
    }
    Ok(())
}

fn expand_chunk<S: Space>(space: &S, table: &OneBitTable, chunk: &Chunk) -> Work {
    let mut state = space.new_state();
    let mut batch = Vec::with_capacity(BATCH + 64);
    let mut work = Work::default();
    let flush = |batch: &mut Vec<u64>, work: &mut Work| {
        work.successors += batch.len() as u64;
        for &rank in batch.iter() {
            table.set(rank);
        }
        batch.clear();
    };
    table.for_each_set(chunk.ranks.clone(), |rank| {
        space.unrank(rank, &mut state);
        work.expanded += 1;
        space.expand(&state, MoveFilter::SkipRankPreserving, |successor| {
            batch.push(successor)
        });
        if batch.len() >= BATCH {
            flush(&mut batch, &mut work);
        }
    });
    flush(&mut batch, &mut work);
    work
}

/// Pull step: every clear bit of the chunk with a set neighbour is set. The
/// rank-preserving moves were already applied block-wise.
fn fill_chunk<S: Space>(space: &S, table: &OneBitTable, chunk: &Chunk) -> Work {
    let mut state = space.new_state();
    let mut work = Work::default();
    let mut neighbours = Vec::with_capacity(64);
    table.for_each_clear(chunk.ranks.clone(), |rank| {
        space.unrank(rank, &mut state);
        work.parent_checks += 1;
        neighbours.clear();
        space.expand(&state, MoveFilter::SkipRankPreserving, |n| {
            neighbours.push(n)
        });
        work.successors += neighbours.len() as u64;
        if neighbours.iter().any(|&n| table.get(n)) {
            table.set(rank);
        }
    });
    work
}
