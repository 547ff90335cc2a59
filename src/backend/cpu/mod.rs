//! The CPU backend: every pass runs on the current rayon pool, over chunks
//! of the host table (heap or memory-mapped file) that never straddle a
//! block, and gives the same counts whatever the number of threads.

mod acyclic;
mod one_bit;
mod retro;
pub(crate) mod two_bit;

pub(crate) use one_bit::CpuOneBit;
pub(crate) use two_bit::CpuTwoBit;

use rayon::prelude::*;

use crate::error::Result;
use crate::progress::check_stop;
use crate::search::backend::{Backend, OneBitPasses, Opened, Pass, TableRequest, TwoBitPasses};
use crate::search::chunks::{Chunk, each_unit};
use crate::search::two_bit_bfs::UNSEEN;
use crate::search::{LayerCount, Work};
use crate::space::{MoveFilter, Space};
use crate::table::{OneBitTable, TwoBitTable};

/// Runs passes on the rayon pool the search is called from.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuBackend;

impl Backend for CpuBackend {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn describe(&self) -> String {
        let threads = rayon::current_num_threads();
        format!("{threads} thread{}", if threads == 1 { "" } else { "s" })
    }

    fn two_bit<'a, S: Space>(
        &'a self,
        space: &'a S,
        request: &TableRequest,
    ) -> Result<Opened<Box<dyn TwoBitPasses + 'a>>> {
        let (table, progress) = TwoBitTable::open(
            request.backing,
            request.identity.clone(),
            UNSEEN,
            request.progress,
        )?;
        let passes = CpuTwoBit::new(space, table);
        Ok(Opened::new(Box::new(passes), progress))
    }

    fn one_bit<'a, S: Space>(
        &'a self,
        space: &'a S,
        request: &TableRequest,
    ) -> Result<Opened<Box<dyn OneBitPasses + 'a>>> {
        let (table, progress) = OneBitTable::open(
            request.backing,
            request.identity.clone(),
            request.resident_cells,
            request.progress,
        )?;
        let passes = CpuOneBit::new(space, table);
        Ok(Opened::new(Box::new(passes), progress))
    }
}

/// Runs `visit` over `chunks` in parallel, showing the pass's progress.
/// Once the run is asked to stop, the chunks not yet begun are skipped and
/// the pass ends with [`Error::Interrupted`](crate::Error::Interrupted):
/// what the finished chunks wrote is what a killed run leaves, which the
/// drivers resume from.
fn run_pass(pass: &Pass, chunks: &[&Chunk], visit: impl Fn(&Chunk) -> Work + Sync) -> Result<Work> {
    let progress = pass.progress;
    progress.begin_pass(&pass.label, chunks.len() as u64);
    let work = each_unit(chunks)
        .map(|chunk| {
            if progress.stop_requested() {
                return Work::default();
            }
            let done = visit(chunk);
            progress.advance(1);
            done
        })
        .reduce(Work::default, |a, b| a + b);
    progress.end_pass();
    check_stop(progress)?;
    Ok(work)
}

/// Counts the states visited by `visit_chunk` over `chunks`: with symmetry
/// reduction each stored state counts for its orbit, else `representatives`
/// (a population count the caller already has) is the answer.
pub(crate) fn count_states<S: Space>(
    space: &S,
    chunks: &[&Chunk],
    representatives: u64,
    visit_chunk: impl Fn(&Chunk, &mut dyn FnMut(u64)) + Sync,
) -> LayerCount {
    if !space.symmetry_reduced() {
        return LayerCount::plain(representatives);
    }
    let states = chunks
        .par_iter()
        .map(|chunk| {
            let mut state = space.new_state();
            let mut states = 0u64;
            visit_chunk(chunk, &mut |rank| {
                space.unrank(rank, &mut state);
                states += space.orbit_size(&state);
            });
            states
        })
        .sum();
    LayerCount {
        states,
        representatives,
    }
}

/// Successor ranks are collected and applied in batches: the table words of
/// a batch are first read with plain loads, which the CPU overlaps, and only
/// the unseen ones are then claimed with (serialising) atomic operations.
pub(crate) const BATCH: usize = 512;

/// Parent checking in a reversible space: unranks `rank`, lists its
/// neighbours (its parents, too) and tells whether any of them passes
/// `is_parent`.
#[inline]
fn has_parent<S: Space>(
    space: &S,
    rank: u64,
    moves: MoveFilter,
    scratch: &mut (S::State, Vec<u64>),
    work: &mut Work,
    is_parent: impl Fn(u64) -> bool,
) -> bool {
    let (state, neighbours) = scratch;
    space.unrank(rank, state);
    work.parent_checks += 1;
    neighbours.clear();
    space.expand(state, moves, |neighbour| neighbours.push(neighbour));
    work.successors += neighbours.len() as u64;
    neighbours.iter().any(|&neighbour| is_parent(neighbour))
}

/// The first `limit` ranks, in rank order, that `visit_chunk` reports over `chunks`.
fn first_ranks(
    chunks: &[&Chunk],
    limit: usize,
    visit_chunk: impl Fn(&Chunk, &mut dyn FnMut(u64)),
) -> Vec<u64> {
    let mut ranks = Vec::new();
    for chunk in chunks {
        visit_chunk(chunk, &mut |rank| ranks.push(rank));
        if ranks.len() >= limit {
            break;
        }
    }
    ranks.truncate(limit);
    ranks
}
