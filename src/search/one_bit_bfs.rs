//! One-bit breadth-first search for spaces with a move-alternation property
//! on their blocks (Algorithm 3 of Edelkamp et al., *Solving Games in Parallel
//! with Linear-Time Perfect Hash Functions* (TZI report 52, Bremen, 2009), and
//! its partitioned form for the sliding-tile puzzle, Algorithm 7).
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
    Algorithm, DEEPEST_SAMPLE, MeetReport, SearchOptions, SearchReport, Work, blocks_of_layer,
    checked_start_ranks, union,
};
use crate::error::{Error, Result};
use crate::progress::check_stop;
use crate::space::{Block, BlockLayering, MoveFilter, Space};
use crate::table::OneBitTable;

/// One-bit BFS from the space's start states: layer sizes from population
/// counts, for a space with a [`BlockLayering`] (refused without one).
pub fn one_bit_bfs<S: Space, B: Backend>(
    space: &S,
    backend: &B,
    options: &SearchOptions,
) -> Result<SearchReport> {
    let search = OneBitSearch::new(space)?;
    let meet_at = if options.meet_in_middle {
        Some(meeting_layers(space, &search.layering, &search.blocks)?)
    } else {
        None
    };
    let request = TableRequest {
        backing: &options.backing,
        identity: super::identity::space_identity(space, "one-bit BFS", 1),
        progress: options.progress,
        resident_cells: search.resident_cells(),
        max_depth: options.max_depth,
    };
    let opened = backend.one_bit(space, &request)?;
    let mut table = opened.passes;
    let mut ledger = Ledger::open(
        Algorithm::OneBitBfs,
        table.storage(),
        opened.progress,
        options.progress,
        search.goals.clone(),
    )?;
    // Whether each goal's bit is set, as of the last layer this run added.
    let mut goal_bits = Vec::new();
    if ledger.is_fresh() {
        goal_bits = search.place_starts(table.as_mut(), &mut ledger)?;
    }

    let halfway = |layers: usize| meet_at.is_some_and(|(_, last)| layers > last);
    while !ledger.finished
        && !halfway(ledger.counts.len())
        && !options.deep_enough(ledger.counts.len())
    {
        // Between layers too: a GPU pass does not look within itself.
        check_stop(options.progress)?;
        goal_bits = search.add_layer(table.as_mut(), &mut ledger, options)?;
    }
    // A resumed run that added no layer has not read them yet.
    if goal_bits.len() != search.goals.len() {
        goal_bits = table.bits(&search.goals)?;
    }
    match meet_at {
        Some(meeting) => search.join_halves(table.as_mut(), ledger, &goal_bits, meeting),
        None => {
            let deepest = search.deepest(table.as_mut(), &ledger)?;
            let reached = reached(&search.goals, &goal_bits);
            Ok(ledger.report(deepest, reached, table.storage()))
        }
    }
}

/// What every phase of one search reads: the space, its layering (checked)
/// and blocks, and its goals.
struct OneBitSearch<'s, S> {
    space: &'s S,
    layering: BlockLayering,
    blocks: Vec<Block>,
    goals: Vec<u64>,
}

impl<'s, S: Space> OneBitSearch<'s, S> {
    /// The search of `space`, or why one bit per state cannot search it.
    fn new(space: &'s S) -> Result<Self> {
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
        Ok(OneBitSearch {
            space,
            layering,
            blocks,
            goals: space.goal_ranks(),
        })
    }

    fn residue_of_layer(&self, layer: usize) -> u64 {
        layer as u64 % self.layering.modulus
    }

    /// The cells the table must hold at once. With exact layers only three
    /// consecutive layers are ever in use: the one expanded, the one filled,
    /// and the one before (kept for meeting in the middle); older ones are
    /// discarded as the search goes.
    fn resident_cells(&self) -> u64 {
        let layering = &self.layering;
        if !layering.exact {
            return self.space.size();
        }
        let capacity_of = |residue: u64| -> u64 {
            let with_residue = self
                .blocks
                .iter()
                .zip(&layering.residues)
                .filter(|&(_, &r)| r == residue);
            with_residue.map(|(block, _)| block.len).sum()
        };
        (0..layering.modulus)
            .map(|r| {
                (0..3)
                    .map(|i| capacity_of((r + i) % layering.modulus))
                    .sum::<u64>()
            })
            .max()
            .unwrap_or(0)
    }

    /// Layer 0 of a fresh search: sets the start states (which must lie in
    /// blocks of residue 0, or the layer counts would be wrong) and records
    /// their count. Returns the goals' bits.
    fn place_starts(&self, table: &mut dyn OneBitPasses, ledger: &mut Ledger) -> Result<Vec<bool>> {
        let starts = checked_start_ranks(self.space)?;
        for &rank in &starts {
            let block = self.blocks.partition_point(|b| b.end() <= rank);
            if self.layering.residues[block] != 0 {
                return Err(Error::InvalidParameter(format!(
                    "start rank {rank} lies in a block of layer residue {}, not 0",
                    self.layering.residues[block]
                )));
            }
        }
        table.set_bits(&starts)?;
        let first = table.count(&blocks_of_layer(self.space, 0))?;
        let goal_bits = table.bits(&self.goals)?;
        ledger.push(first, reached(&self.goals, &goal_bits));
        ledger.checkpoint(table.storage())?;
        Ok(goal_bits)
    }

    /// One level: expands the last layer into the next (or fills the next
    /// from its parents), counts it by Theorem 3, records it (or that the
    /// search is finished) and discards the layer no longer needed.
    /// Returns the goals' bits.
    fn add_layer(
        &self,
        table: &mut dyn OneBitPasses,
        ledger: &mut Ledger,
        options: &SearchOptions,
    ) -> Result<Vec<bool>> {
        let space = self.space;
        let level = ledger.counts.len();
        let expanding = self.residue_of_layer(level - 1);
        let residue = self.residue_of_layer(level);
        // States stored so far with each residue, from the layer counts.
        let found_with = |counts: &[u64], wanted: u64| -> u64 {
            let layers = counts.iter().enumerate();
            layers
                .filter(|&(layer, _)| self.residue_of_layer(layer) == wanted)
                .map(|(_, &n)| n)
                .sum()
        };
        let earlier = found_with(&ledger.representatives, residue);
        let sources = found_with(&ledger.representatives, expanding);
        let earlier_states = found_with(&ledger.counts, residue);
        let source_blocks = blocks_of_layer(space, level - 1);
        let target_blocks = blocks_of_layer(space, level);

        // Algorithm 7, line 12: moves that keep the rank, a block at a time.
        for &source in &source_blocks {
            for &target in &self.layering.rank_preserving[source] {
                table.or_block(source, target)?;
            }
        }
        // Visit whichever is fewer: the states to expand, or the clear bits
        // that could still be set (only a reversible space can pull).
        let capacity: u64 = target_blocks.iter().map(|&b| self.blocks[b].len).sum();
        let pull = space.reversible() && capacity - earlier < sources;
        let work = run_pass(table, level, &source_blocks, &target_blocks, pull, options)?;
        ledger.add_pass(work);

        // Theorem 3: this layer's states are the new bits of its residue.
        let set = table.count(&target_blocks)?;
        let found = super::LayerCount {
            states: set.states - earlier_states,
            representatives: set.representatives - earlier,
        };
        let goal_bits = table.bits(&self.goals)?;
        match (found.representatives > 0).then_some(found) {
            Some(found) => ledger.push(found, reached(&self.goals, &goal_bits)),
            None => ledger.finished = true,
        }
        ledger.checkpoint(table.storage())?;
        if self.layering.exact && level >= 2 {
            table.discard(&blocks_of_layer(space, level - 2))?;
        }
        Ok(goal_bits)
    }

    /// Section 8.1's join, once the forward half reached layer `last`: the
    /// goal (at layer `goal_layer`) is reachable exactly when some state of
    /// the middle layer has its inverse in layer `last`.
    fn join_halves(
        &self,
        table: &mut dyn OneBitPasses,
        ledger: Ledger,
        goal_bits: &[bool],
        (goal_layer, last): (usize, usize),
    ) -> Result<SearchReport> {
        let space = self.space;
        let reached = reached(&self.goals, goal_bits);
        let middle = goal_layer / 2;
        let ended_early = ledger.counts.len() <= last;
        if ended_early && !ledger.finished {
            // Stopped by --max-depth before the second half's layer: the
            // halves cannot be joined, and nothing is decided.
            return Ok(ledger.report(Vec::new(), reached, table.storage()));
        }
        let midpoints = if ended_early {
            // The search ended before the second half's layer: no path.
            0
        } else {
            let middle_blocks = blocks_of_layer(space, middle);
            let view = union(&middle_blocks, &blocks_of_layer(space, last));
            let host = table.host_view(&view)?;
            let chunks = chunks_of(&self.blocks);
            let middle_chunks: Vec<&Chunk> = chunks
                .iter()
                .filter(|c| self.layering.residues[c.block] == self.residue_of_layer(middle))
                .collect();
            count_midpoints(space, host, &middle_chunks)
        };
        let mut report = ledger.report(Vec::new(), reached, table.storage());
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
        Ok(report)
    }

    /// A few ranks of the deepest layer for the report. With exact layers,
    /// the last layer is the set bits of its blocks; otherwise they mix
    /// with earlier layers of the same residue, and none is given.
    fn deepest(&self, table: &mut dyn OneBitPasses, ledger: &Ledger) -> Result<Vec<u64>> {
        if !self.layering.exact {
            return Ok(Vec::new());
        }
        let last = ledger.counts.len() - 1;
        table.first_set(&blocks_of_layer(self.space, last), DEEPEST_SAMPLE)
    }
}

/// The pass that sets layer `level`'s bits. Pushing expands the set bits
/// of the source blocks; pulling checks the clear bits of the target
/// blocks for a set parent.
fn run_pass(
    table: &mut dyn OneBitPasses,
    level: usize,
    source_blocks: &[usize],
    target_blocks: &[usize],
    pull: bool,
    options: &SearchOptions,
) -> Result<Work> {
    let (label, scanned) = if pull {
        (
            format!("layer {level} (checking parents)"),
            target_blocks.to_vec(),
        )
    } else {
        (format!("layer {level}"), source_blocks.to_vec())
    };
    let pass = Pass {
        label,
        scanned,
        touched: union(source_blocks, target_blocks),
        progress: options.progress,
    };
    let moves = MoveFilter::SkipRankPreserving;
    if pull {
        table.fill(&pass, moves)
    } else {
        table.expand(&pass, moves)
    }
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
