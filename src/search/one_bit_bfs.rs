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

use super::chunks::{Chunk, chunks_of};
use super::ledger::{Ledger, count_states};
use super::{
    Algorithm, BATCH, DEEPEST_SAMPLE, MeetReport, SearchOptions, SearchReport, Work,
    checked_start_ranks, has_parent,
};
use crate::error::{Error, Result};
use crate::space::{Block, BlockLayering, MoveFilter, Space};
use crate::table::OneBitTable;

pub fn one_bit_bfs<S: Space>(space: &S, options: &SearchOptions) -> Result<SearchReport> {
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

    let descriptor = format!("{}; one-bit BFS", space.descriptor());
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
    let resident = if layering.exact {
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
    let (table, checkpoint) =
        OneBitTable::open(&options.backing, &descriptor, space.size(), resident)?;
    let residue_of_layer = |layer: usize| layer as u64 % layering.modulus;
    let blocks_with_residue = |residue: u64| -> Vec<usize> {
        (0..blocks.len())
            .filter(|&b| layering.residues[b] == residue)
            .collect()
    };
    let chunks = chunks_of(&blocks);
    let chunks_with_residue = |residue: u64| -> Vec<&Chunk> {
        chunks
            .iter()
            .filter(|c| layering.residues[c.block] == residue)
            .collect()
    };
    // Set bits in the blocks of a residue, and (with exact layers) the full
    // count they stand for.
    let count_residue = |residue: u64, earlier: u64| {
        let set: u64 = blocks_with_residue(residue)
            .iter()
            .map(|&b| table.count_in(blocks[b].range()))
            .sum();
        count_states(
            space,
            &chunks_with_residue(residue),
            set - earlier,
            |chunk, visit| table.for_each_set(chunk.ranks.clone(), visit),
        )
    };
    let reached = |rank: u64| table.get(rank);
    let mut ledger = Ledger::open(
        Algorithm::OneBitBfs,
        table.storage(),
        checkpoint,
        options.progress,
        space.goal_ranks(),
        || {
            for rank in checked_start_ranks(space)? {
                let block = blocks.partition_point(|b| b.end() <= rank);
                if layering.residues[block] != 0 {
                    return Err(Error::InvalidParameter(format!(
                        "start rank {rank} lies in a block of layer residue {}, not 0",
                        layering.residues[block]
                    )));
                }
                table.set(rank);
            }
            Ok(count_residue(0, 0))
        },
        reached,
    )?;

    let meet_at = if options.meet_in_middle {
        Some(meeting_layers(space, &layering, &blocks)?)
    } else {
        None
    };
    let halfway = |layers: usize| meet_at.is_some_and(|(_, last)| layers > last);
    while !ledger.finished
        && !halfway(ledger.counts.len())
        && !options.deep_enough(ledger.counts.len())
    {
        let level = ledger.counts.len();
        let expanding = residue_of_layer(level - 1);
        let residue = residue_of_layer(level);
        // States stored so far with each residue, from the layer counts.
        let found_with = |wanted: u64| -> u64 {
            let layers = ledger.representatives.iter().enumerate();
            layers
                .filter(|&(layer, _)| residue_of_layer(layer) == wanted)
                .map(|(_, &n)| n)
                .sum()
        };
        let (earlier, sources) = (found_with(residue), found_with(expanding));

        for source in blocks_with_residue(expanding) {
            for &target in &layering.rank_preserving[source] {
                let len = blocks[source].len;
                table.or_range(blocks[source].start, blocks[target].start, len);
            }
        }
        let capacity: u64 = blocks_with_residue(residue)
            .iter()
            .map(|&b| blocks[b].len)
            .sum();
        let pull = space.reversible() && capacity - earlier < sources;
        let active_residue = if pull { residue } else { expanding };
        let active = chunks_with_residue(active_residue);
        if pull {
            ledger.pass(
                &format!("layer {level} (checking parents)"),
                &active,
                |chunk| fill_chunk(space, &table, chunk),
            );
        } else {
            ledger.pass(&format!("layer {level}"), &active, |chunk| {
                expand_chunk(space, &table, chunk)
            });
        }

        // Theorem 3: this layer's states are the new bits of its residue.
        let found = count_residue(residue, earlier);
        ledger.record((found.representatives > 0).then_some(found), reached)?;
        if layering.exact && level >= 2 {
            for block in blocks_with_residue(residue_of_layer(level - 2)) {
                table.discard(blocks[block].range())?;
            }
        }
    }
    if let Some((goal_layer, last)) = meet_at {
        if ledger.counts.len() <= last {
            // The search ended before the second half's layer: no path.
            let report = ledger.report(Vec::new(), reached);
            let meet = MeetReport {
                goal_layer,
                middle_layer: goal_layer / 2,
                midpoints: 0,
            };
            return Ok(SearchReport {
                meet: Some(meet),
                ..report
            });
        }
        let middle = goal_layer / 2;
        let midpoints = count_midpoints(space, &table, &chunks_with_residue(middle as u64));
        let mut report = ledger.report(Vec::new(), reached);
        for goal in &mut report.goals {
            goal.reached = midpoints > 0;
            goal.distance = (midpoints > 0).then_some(goal_layer);
        }
        report.meet = Some(MeetReport {
            goal_layer,
            middle_layer: middle,
            midpoints,
        });
        return Ok(report);
    }
    // With exact layers, the last layer is the set bits of its blocks.
    let mut deepest = Vec::new();
    if layering.exact {
        let last = residue_of_layer(ledger.counts.len() - 1);
        for chunk in chunks_with_residue(last) {
            table.for_each_set(chunk.ranks.clone(), |rank| {
                if deepest.len() < DEEPEST_SAMPLE {
                    deepest.push(rank)
                }
            });
        }
    }
    Ok(ledger.report(deepest, reached))
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
    let mut scratch = (space.new_state(), Vec::with_capacity(64));
    let mut work = Work::default();
    let moves = MoveFilter::SkipRankPreserving;
    table.for_each_clear(chunk.ranks.clone(), |rank| {
        if has_parent(space, rank, moves, &mut scratch, &mut work, |n| {
            table.get(n)
        }) {
            table.set(rank);
        }
    });
    work
}
