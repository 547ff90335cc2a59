//! The two-bit BFS passes over a host [`TwoBitTable`].

use rayon::prelude::*;

use super::{BATCH, count_states, first_ranks, has_parent, run_pass};
use crate::error::Result;
use crate::search::backend::{Pass, TwoBitPasses};
use crate::search::chunks::{Chunk, ChunkIndex};
use crate::search::two_bit_bfs::UNSEEN;
use crate::search::{LayerCount, Work};
use crate::space::digit_moves::{DigitRuns, RunTargets};
use crate::space::{DigitMoves, MoveFilter, Space};
use crate::table::two_bit::CELLS_PER_WORD;
use crate::table::{TwoBitTable, WordStorage};

/// The passes over a host table: the CPU backend's table, and the host
/// copy a GPU run keeps of its store.
pub(crate) struct CpuTwoBit<'a, S: Space> {
    space: &'a S,
    pub(crate) table: TwoBitTable,
    chunks: ChunkIndex,
    /// The space's moves digit by digit, where scanning by runs pays.
    runs: Option<DigitRuns<'a>>,
}

impl<'a, S: Space> CpuTwoBit<'a, S> {
    pub fn new(space: &'a S, table: TwoBitTable) -> Self {
        CpuTwoBit {
            space,
            table,
            chunks: ChunkIndex::new(space),
            runs: space
                .digit_moves()
                .filter(DigitMoves::worth_it)
                .map(DigitRuns::new),
        }
    }
}

/// A pass's visit of one chunk: over the space's digit runs, or position
/// by position; with the frontier's and the next layer's cell values.
type ByRuns = fn(&DigitRuns, &TwoBitTable, &Chunk, u8, u8, Claim) -> Work;
type ByPositions<S> = fn(&S, &TwoBitTable, &Chunk, u8, u8, Claim) -> Work;

impl<S: Space> CpuTwoBit<'_, S> {
    /// Runs a pass over the chunks `pass` scans, by digit runs where the
    /// space's moves pay for them.
    fn scan(
        &self,
        pass: &Pass,
        [frontier, next]: [u8; 2],
        by_runs: ByRuns,
        by_positions: ByPositions<S>,
    ) -> Result<Work> {
        let chunks = self.chunks.of(&pass.scanned);
        let claim = Claim::of_this_pool();
        match &self.runs {
            Some(runs) => run_pass(pass, &chunks, |chunk| {
                by_runs(runs, &self.table, chunk, frontier, next, claim)
            }),
            None => run_pass(pass, &chunks, |chunk| {
                by_positions(self.space, &self.table, chunk, frontier, next, claim)
            }),
        }
    }
}

impl<S: Space> TwoBitPasses for CpuTwoBit<'_, S> {
    fn storage(&self) -> &WordStorage {
        self.table.storage()
    }

    fn set_cells(&mut self, ranks: &[u64], value: u8) -> Result<()> {
        for &rank in ranks {
            self.table.set(rank, value);
        }
        Ok(())
    }

    fn expand(&mut self, pass: &Pass, frontier: u8, next: u8) -> Result<Work> {
        self.scan(pass, [frontier, next], expand_by_runs, expand_chunk)
    }

    fn check_parents(&mut self, pass: &Pass, frontier: u8, next: u8) -> Result<Work> {
        self.scan(pass, [frontier, next], check_parents_by_runs, check_parents)
    }

    fn close(&mut self, blocks: &[usize], frontier: u8) -> Result<()> {
        self.chunks
            .of(blocks)
            .par_iter()
            .for_each(|chunk| self.table.clear_equal_in(chunk.ranks.clone(), frontier));
        Ok(())
    }

    fn count(&mut self, blocks: &[usize], value: u8) -> Result<LayerCount> {
        let space_blocks = self.space.blocks();
        let representatives = blocks
            .iter()
            .map(|&b| self.table.count_in(space_blocks[b].range(), value))
            .sum();
        let table = &self.table;
        Ok(count_states(
            self.space,
            &self.chunks.of(blocks),
            representatives,
            |chunk, visit| table.for_each_equal(chunk.ranks.clone(), value, visit),
        ))
    }

    fn cells(&mut self, ranks: &[u64]) -> Result<Vec<u8>> {
        Ok(ranks.iter().map(|&rank| self.table.get(rank)).collect())
    }

    fn first_ranks(&mut self, blocks: &[usize], value: u8, limit: usize) -> Result<Vec<u64>> {
        let table = &self.table;
        Ok(first_ranks(
            &self.chunks.of(blocks),
            limit,
            |chunk, visit| table.for_each_equal(chunk.ranks.clone(), value, visit),
        ))
    }
}

/// How a pass claims a newly seen cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claim {
    /// Other threads write the table too: one atomic read-modify-write.
    Shared,
    /// The pass runs on one thread and nothing else writes the table: a
    /// plain load and store.
    Exclusive,
}

impl Claim {
    /// Exclusive when the rayon pool a pass's chunks run on has one thread.
    pub(crate) fn of_this_pool() -> Claim {
        if rayon::current_num_threads() == 1 {
            Claim::Exclusive
        } else {
            Claim::Shared
        }
    }

    /// Lowers cell `rank` from 3 (unseen) to `value`; says whether it held 3.
    #[inline(always)]
    fn lower_from_three(self, table: &TwoBitTable, rank: u64, value: u8) -> bool {
        match self {
            Claim::Shared => table.lower_from_three(rank, value),
            Claim::Exclusive => table.lower_from_three_unshared(rank, value),
        }
    }
}

/// Expands the frontier cells of one chunk.
fn expand_chunk<S: Space>(
    space: &S,
    table: &TwoBitTable,
    chunk: &Chunk,
    frontier: u8,
    next: u8,
    claim: Claim,
) -> Work {
    let mut state = space.new_state();
    let mut marks = MarkBatch::new(table, next, claim);
    let mut work = Work::default();
    table.for_each_equal(chunk.ranks.clone(), frontier, |rank| {
        space.unrank(rank, &mut state);
        work.expanded += 1;
        space.expand(&state, MoveFilter::All, |successor| marks.push(successor));
        marks.mark_when_full(&mut work);
    });
    marks.mark(&mut work);
    work
}

/// Expands the frontier cells of one chunk of a space whose moves act
/// digit by digit, a run at a time and within it a move at a time: no
/// unranking, and a move's successors lie in one run of the table, loaded
/// while the move before is marked.
fn expand_by_runs(
    runs: &DigitRuns,
    table: &TwoBitTable,
    chunk: &Chunk,
    frontier: u8,
    next: u8,
    claim: Claim,
) -> Work {
    let mut work = Work::default();
    let mut targets = runs.new_targets();
    let mut unseen = vec![0u64; runs.run_len() as usize];
    // A run's successors under one move span this many words at most.
    let span = runs.run_len().div_ceil(CELLS_PER_WORD) as usize + 1;
    let mut selected = vec![0u64; span];
    let expand_run = |run: u64, lasts: &mut Vec<u32>| {
        work.expanded += lasts.len() as u64;
        each_move(runs, table, &mut targets, run, |base, column| {
            if claim == Claim::Shared && lasts.len() >= span {
                // Many cells, other threads writing: the successors are
                // first selected in a word mask of the target run, then
                // each word is lowered at once, one atomic instruction a
                // word, not one a cell. (On one thread the cell-wise loop
                // below is faster: 1.14–1.31× the time this way.)
                let first_word = base / CELLS_PER_WORD;
                for &last in lasts.iter() {
                    let successor = base + column[last as usize] as u64;
                    let at = (successor / CELLS_PER_WORD - first_word) as usize;
                    selected[at] |= 1 << (2 * (successor % CELLS_PER_WORD));
                }
                for (at, word) in selected.iter_mut().enumerate() {
                    if *word != 0 {
                        let word = std::mem::take(word);
                        let at = first_word as usize + at;
                        work.marked += table.lower_selected_from_three(at, word, next) as u64;
                    }
                }
                return true;
            }
            // The loads alone first (independent, so they overlap), the
            // unseen successors kept without a branch: whether a cell is
            // new is as good as random. A move maps the run's cells to
            // distinct cells, so none of these was claimed by this thread
            // since it was read.
            let mut found = 0;
            let out = &mut unseen[..lasts.len()];
            for &last in lasts.iter() {
                let successor = base + column[last as usize] as u64;
                out[found] = successor;
                found += (table.get(successor) == UNSEEN) as usize;
            }
            match claim {
                Claim::Exclusive => {
                    for &successor in &out[..found] {
                        table.lower_unshared(successor, next);
                    }
                    work.marked += found as u64;
                }
                Claim::Shared => {
                    for &successor in &out[..found] {
                        work.marked += table.lower_from_three(successor, next) as u64;
                    }
                }
            }
            true
        });
    };
    each_run(runs, table, chunk, frontier, expand_run);
    work.successors = work.expanded * runs.moves() as u64;
    work
}

/// Successors waiting to be marked with the next layer's value: they are
/// read back a batch after their prefetch, by when they are cached
/// (Pancake-11 on one thread: about 7.0 s without, 5.5 s with).
pub(crate) struct MarkBatch<'t> {
    table: &'t TwoBitTable,
    next: u8,
    claim: Claim,
    batch: Vec<u64>,
    unseen: Vec<u64>,
}

impl<'t> MarkBatch<'t> {
    pub(crate) fn new(table: &'t TwoBitTable, next: u8, claim: Claim) -> Self {
        MarkBatch {
            table,
            next,
            claim,
            batch: Vec::with_capacity(BATCH + 64),
            unseen: Vec::with_capacity(BATCH + 64),
        }
    }

    /// Adds `rank` (a cell of the table) to the batch.
    #[inline(always)]
    pub(crate) fn push(&mut self, rank: u64) {
        self.table.prefetch(rank);
        self.batch.push(rank);
    }

    /// Marks the batch once it is full.
    #[inline]
    pub(crate) fn mark_when_full(&mut self, work: &mut Work) {
        if self.batch.len() >= BATCH {
            self.mark(work);
        }
    }

    /// Writes `next` into the unseen cells among the batch, then empties
    /// it.
    pub(crate) fn mark(&mut self, work: &mut Work) {
        let table = self.table;
        work.successors += self.batch.len() as u64;
        self.unseen.clear();
        self.unseen.extend(
            self.batch
                .iter()
                .copied()
                .filter(|&rank| table.get(rank) == UNSEEN),
        );
        for &rank in self.unseen.iter() {
            work.marked += self.claim.lower_from_three(table, rank, self.next) as u64;
        }
        self.batch.clear();
    }
}

/// Calls `visit(run, lasts)` for each run that has cells holding `value`
/// in the chunk, `lasts` their last digits in increasing order (one
/// division a run, none a cell).
fn each_run(
    runs: &DigitRuns,
    table: &TwoBitTable,
    chunk: &Chunk,
    value: u8,
    mut visit: impl FnMut(u64, &mut Vec<u32>),
) {
    let run_len = runs.run_len();
    let mut lasts = Vec::with_capacity(run_len as usize);
    let mut start = chunk.ranks.start;
    while start < chunk.ranks.end {
        let run = start / run_len;
        let first = run * run_len;
        let end = (first + run_len).min(chunk.ranks.end);
        lasts.clear();
        table.for_each_equal(start..end, value, |rank| lasts.push((rank - first) as u32));
        if !lasts.is_empty() {
            visit(run, &mut lasts);
        }
        start = end;
    }
}

/// Calls `visit(base, column)` for each move in turn on run `run`: the
/// first rank of the run the move leads to and the move's column of last
/// digits; stops when `visit` says false. The next move's target run,
/// somewhere in the table, loads while this move's is visited.
fn each_move(
    runs: &DigitRuns,
    table: &TwoBitTable,
    targets: &mut RunTargets,
    run: u64,
    mut visit: impl FnMut(u64, &[u32]) -> bool,
) {
    runs.targets(run, targets);
    let bases = &targets.bases;
    prefetch_run(table, bases[0], runs.run_len());
    for (m, (&base, &column)) in bases.iter().zip(&targets.columns).enumerate() {
        if let Some(&next_base) = bases.get(m + 1) {
            prefetch_run(table, next_base, runs.run_len());
        }
        if !visit(base, runs.column(column)) {
            break;
        }
    }
}

/// Starts loading the table's lines that hold ranks `start..start + len`.
#[inline]
fn prefetch_run(table: &TwoBitTable, start: u64, len: u64) {
    // 64-byte lines of two-bit cells.
    const CELLS_PER_LINE: u64 = 256;
    let mut rank = start;
    while rank < start + len {
        table.prefetch(rank);
        rank += CELLS_PER_LINE;
    }
    table.prefetch(start + len - 1);
}

/// [`check_parents`] for a space whose moves act digit by digit: a run's
/// unseen cells are checked one move at a time, those with a parent
/// found leaving the list.
fn check_parents_by_runs(
    runs: &DigitRuns,
    table: &TwoBitTable,
    chunk: &Chunk,
    frontier: u8,
    next: u8,
    claim: Claim,
) -> Work {
    let mut work = Work::default();
    let mut targets = runs.new_targets();
    let mut joining = vec![0u32; runs.run_len() as usize];
    let check_run = |run: u64, lasts: &mut Vec<u32>| {
        work.parent_checks += lasts.len() as u64;
        let first = run * runs.run_len();
        each_move(runs, table, &mut targets, run, |base, column| {
            work.successors += lasts.len() as u64;
            // Split without a branch into the cells with a parent under
            // this move and those still without one.
            let (mut kept, mut found) = (0, 0);
            let joining = &mut joining[..lasts.len()];
            for i in 0..lasts.len() {
                let last = lasts[i];
                let parent = table.get(base + column[last as usize] as u64) == frontier;
                lasts[kept] = last;
                joining[found] = last;
                kept += !parent as usize;
                found += parent as usize;
            }
            lasts.truncate(kept);
            // Each unseen cell of the run is listed once: none of these
            // was claimed since the scan read it.
            for &last in &joining[..found] {
                match claim {
                    Claim::Exclusive => table.lower_unshared(first + last as u64, next),
                    Claim::Shared => {
                        table.lower_from_three(first + last as u64, next);
                    }
                }
            }
            work.marked += found as u64;
            !lasts.is_empty()
        });
    };
    each_run(runs, table, chunk, UNSEEN, check_run);
    work
}

/// Backward step: every unseen state of the chunk with a neighbour in the
/// frontier joins the next layer.
fn check_parents<S: Space>(
    space: &S,
    table: &TwoBitTable,
    chunk: &Chunk,
    frontier: u8,
    next: u8,
    claim: Claim,
) -> Work {
    let mut scratch = (space.new_state(), Vec::with_capacity(64));
    let mut work = Work::default();
    table.for_each_equal(chunk.ranks.clone(), UNSEEN, |rank| {
        let is_parent = |neighbour| table.get(neighbour) == frontier;
        if has_parent(
            space,
            rank,
            MoveFilter::All,
            &mut scratch,
            &mut work,
            is_parent,
        ) {
            claim.lower_from_three(table, rank, next);
            work.marked += 1;
        }
    });
    work
}
