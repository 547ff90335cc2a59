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

use super::backend::{Backend, OneBitPasses, Pass, TableRequest};
use super::chunks::{Chunk, chunks_of};
use super::ledger::Ledger;
use super::{
    Algorithm, DEEPEST_SAMPLE, MeetReport, SearchOptions, SearchReport, blocks_of_layer,
    checked_start_ranks, union,
};
use crate::error::{Error, Result};
use crate::space::{Block, BlockLayering, MoveFilter, Space};
use crate::table::OneBitTable;

pub fn one_bit_bfs<S: Space, B: Backend>(
    space: &S,
    backend: &B,
    options: &SearchOptions,
) -> Result<SearchReport> {
    let layering = space.layering().ok_or_else(|| {
        Error::Unsupported(format!(
            "one-bit BFS needs a move-alternation property, and {} has none; use two-bit BFS or reachability",
            space.descriptor()
        ))
    })?;
    let blocks = space.blocks();
    check_layering(&layering, &blocks)?;
    if space.symmetry_reduced() && !layering.exact {
        return Err(Error::Unsupported(format!(
            "{}: symmetry reduction with one-bit BFS needs blocks whose layer is exact",
            space.descriptor()
        )));
    }
    let meet_at = if options.meet_in_middle {
        Some(meeting_layers(space, &layering, &blocks)?)
    } else {
        None
    };

    // With exact layers only three consecutive layers are ever in use: the
    // one expanded, the one filled, and the one before (kept for meeting in
    // the middle); older ones are discarded as the search goes.
    let capacity_of = |residue: u64| -> u64 {
        let with_residue = blocks
            .iter()
            .zip(&layering.residues)
            .filter(|&(_, &r)| r == residue);
        with_residue.map(|(block, _)| block.len).sum()
    };
    let resident_cells = if layering.exact {
        (0..layering.modulus)
            .map(|r| {
                (0..3)
                    .map(|i| capacity_of((r + i) % layering.modulus))
                    .sum::<u64>()
            })
            .max()
            .unwrap_or(0)
    } else {
        space.size()
    };
    let request = TableRequest {
        backing: &options.backing,
        identity: super::identity::space_identity(space, "one-bit BFS", 1),
        progress: options.progress,
        resident_cells,
        max_depth: options.max_depth,
    };
    let opened = backend.one_bit(space, &request)?;
    let mut table = opened.passes;
    let residue_of_layer = |layer: usize| layer as u64 % layering.modulus;
    let goals = space.goal_ranks();
    let mut goal_bits = Vec::new();
    let mut ledger = Ledger::open(
        Algorithm::OneBitBfs,
        table.storage(),
        opened.progress,
        options.progress,
        goals.clone(),
    )?;
    if ledger.is_fresh() {
        let starts = checked_start_ranks(space)?;
        for &rank in &starts {
            let block = blocks.partition_point(|b| b.end() <= rank);
            if layering.residues[block] != 0 {
                return Err(Error::InvalidParameter(format!(
                    "start rank {rank} lies in a block of layer residue {}, not 0",
                    layering.residues[block]
                )));
            }
        }
        table.set_bits(&starts)?;
        let first = table.count(&blocks_of_layer(space, 0))?;
        goal_bits = table.bits(&goals)?;
        ledger.push(first, reached(&goals, &goal_bits));
        ledger.checkpoint(table.storage())?;
    }

    let halfway = |layers: usize| meet_at.is_some_and(|(_, last)| layers > last);
    while !ledger.finished
        && !halfway(ledger.counts.len())
        && !options.deep_enough(ledger.counts.len())
    {
        let level = ledger.counts.len();
        let expanding = residue_of_layer(level - 1);
        let residue = residue_of_layer(level);
        // States stored so far with each residue, from the layer counts.
        let found_with = |counts: &[u64], wanted: u64| -> u64 {
            let layers = counts.iter().enumerate();
            layers
                .filter(|&(layer, _)| residue_of_layer(layer) == wanted)
                .map(|(_, &n)| n)
                .sum()
        };
        let earlier = found_with(&ledger.representatives, residue);
        let sources = found_with(&ledger.representatives, expanding);
        let earlier_states = found_with(&ledger.counts, residue);
        let source_blocks = blocks_of_layer(space, level - 1);
        let target_blocks = blocks_of_layer(space, level);

        for &source in &source_blocks {
            for &target in &layering.rank_preserving[source] {
                table.or_block(source, target)?;
            }
        }
        let capacity: u64 = target_blocks.iter().map(|&b| blocks[b].len).sum();
        let pull = space.reversible() && capacity - earlier < sources;
        // Pushing expands the set bits of the source blocks; pulling checks
        // the clear bits of the target blocks.
        let (label, scanned) = if pull {
            (
                format!("layer {level} (checking parents)"),
                target_blocks.clone(),
            )
        } else {
            (format!("layer {level}"), source_blocks.clone())
        };
        let pass = Pass {
            label,
            scanned,
            touched: union(&source_blocks, &target_blocks),
            progress: options.progress,
        };
        let moves = MoveFilter::SkipRankPreserving;
        let work = if pull {
            table.fill(&pass, moves)?
        } else {
            table.expand(&pass, moves)?
        };
        ledger.add_pass(work);

        // Theorem 3: this layer's states are the new bits of its residue.
        let set = table.count(&target_blocks)?;
        let found = super::LayerCount {
            states: set.states - earlier_states,
            representatives: set.representatives - earlier,
        };
        goal_bits = table.bits(&goals)?;
        match (found.representatives > 0).then_some(found) {
            Some(found) => ledger.push(found, reached(&goals, &goal_bits)),
            None => ledger.finished = true,
        }
        ledger.checkpoint(table.storage())?;
        if layering.exact && level >= 2 {
            table.discard(&blocks_of_layer(space, level - 2))?;
        }
    }
    if goal_bits.len() != goals.len() {
        goal_bits = table.bits(&goals)?;
    }
    let storage_report = |ledger: Ledger, deepest, table: &dyn OneBitPasses| {
        ledger.report(deepest, reached(&goals, &goal_bits), table.storage())
    };
    if let Some((goal_layer, last)) = meet_at {
        let middle = goal_layer / 2;
        let ended_early = ledger.counts.len() <= last;
        if ended_early && !ledger.finished {
            // Stopped by --max-depth before the second half's layer: the
            // halves cannot be joined, and nothing is decided.
            return Ok(storage_report(ledger, Vec::new(), table.as_ref()));
        }
        let midpoints = if ended_early {
            // The search ended before the second half's layer: no path.
            0
        } else {
            let middle_blocks = blocks_of_layer(space, middle);
            let view = union(&middle_blocks, &blocks_of_layer(space, last));
            let host = table.host_view(&view)?;
            let chunks = chunks_of(&blocks);
            let middle_chunks: Vec<&Chunk> = chunks
                .iter()
                .filter(|c| layering.residues[c.block] == residue_of_layer(middle))
                .collect();
            count_midpoints(space, host, &middle_chunks)
        };
        let mut report = storage_report(ledger, Vec::new(), table.as_ref());
        if !ended_early {
            for goal in &mut report.goals {
                goal.reached = midpoints > 0;
                goal.distance = (midpoints > 0).then_some(goal_layer);
            }
        }
        report.meet = Some(MeetReport {
            goal_layer,
            middle_layer: middle,
            midpoints,
        });
        // The join decides the goal (so does a search that ran out early).
        report.complete = true;
        return Ok(report);
    }
    // With exact layers, the last layer is the set bits of its blocks.
    let deepest = if layering.exact {
        let last = ledger.counts.len() - 1;
        table.first_set(&blocks_of_layer(space, last), DEEPEST_SAMPLE)?
    } else {
        Vec::new()
    };
    Ok(storage_report(ledger, deepest, table.as_ref()))
}

/// Whether each goal's bit is set.
fn reached<'g>(goals: &'g [u64], bits: &'g [bool]) -> impl Fn(u64) -> bool + 'g {
    move |rank| {
        goals
            .iter()
            .position(|&goal| goal == rank)
            .is_some_and(|i| bits[i])
    }
}

/// For meeting in the middle: the goal's layer g and the last layer the
/// forward half must complete, g - floor(g/2).
fn meeting_layers<S: Space>(
    space: &S,
    layering: &BlockLayering,
    blocks: &[Block],
) -> Result<(usize, usize)> {
    let unsupported = |why: &str| {
        Err(Error::Unsupported(format!(
            "{}: meeting in the middle needs {why}",
            space.descriptor()
        )))
    };
    if !layering.exact {
        return unsupported("blocks whose layer is exact");
    }
    let goals = space.goal_ranks();
    let [goal] = goals.as_slice() else {
        return unsupported("a single goal position");
    };
    let mut state = space.new_state();
    space.unrank(*goal, &mut state);
    if space.inverse_rank(&state).is_none() {
        return unsupported("an inversion that maps the start onto the goal");
    }
    let block = blocks.partition_point(|b| b.end() <= *goal);
    let goal_layer = layering.residues[block] as usize;
    Ok((goal_layer, goal_layer - goal_layer / 2))
}

/// Positions of the middle layer whose inverse is in the table: the
/// midpoints of start-to-goal paths (each stored state counts for its orbit).
fn count_midpoints<S: Space>(space: &S, table: &OneBitTable, chunks: &[&Chunk]) -> u64 {
    use rayon::prelude::*;
    chunks
        .par_iter()
        .map(|chunk| {
            let mut state = space.new_state();
            let mut midpoints = 0u64;
            table.for_each_set(chunk.ranks.clone(), |rank| {
                space.unrank(rank, &mut state);
                if space
                    .inverse_rank(&state)
                    .is_some_and(|inverse| table.get(inverse))
                {
                    midpoints += space.orbit_size(&state);
                }
            });
            midpoints
        })
        .sum()
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
