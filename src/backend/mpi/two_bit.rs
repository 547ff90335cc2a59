//! The two-bit BFS passes over one process's share of the table.

use rayon::prelude::*;

use super::MpiBackend;
use super::exchange::Exchange;
use super::queries::Queries;
use super::rounds::{in_rounds, joined};
use super::share::open_share;
use crate::backend::cpu::two_bit::{Claim, MarkBatch};
use crate::backend::cpu::{BATCH, count_states};
use crate::backend::partition::{Partition, Slice};
use crate::error::Result;
use crate::search::backend::{Pass, TableRequest, TwoBitPasses};
use crate::search::checkpoint::Checkpoint;
use crate::search::chunks::Chunk;
use crate::search::two_bit_bfs::UNSEEN;
use crate::search::{LayerCount, Work};
use crate::space::{MoveFilter, Space};
use crate::table::{TwoBitTable, WordStorage};

pub(super) struct MpiTwoBit<'a, S: Space> {
    backend: &'a MpiBackend<'a>,
    space: &'a S,
    partition: Partition,
    me: usize,
    table: TwoBitTable,
}

impl<'a, S: Space> MpiTwoBit<'a, S> {
    /// Opens this process's share of the table `request` names; every
    /// process opens its own, and a resumed run continues from the layer
    /// every process had completed.
    pub fn open(
        backend: &'a MpiBackend<'a>,
        space: &'a S,
        partition: Partition,
        request: &TableRequest,
    ) -> Result<(Self, Option<Vec<u8>>)> {
        let (table, record) = open_share(
            backend,
            request.backing,
            &request.identity,
            &partition,
            UNSEEN,
            request.progress,
        )?;
        let me = backend.process();
        let held = record.as_ref().is_some_and(|r| !r.is_empty());
        let record = agree_on_progress(&mut backend.exchange(), record)?;
        if held && record.is_none() {
            // Another process's share started afresh (nothing vouched for
            // it, or it was removed): so does the whole job, and this share
            // must not keep layers the fresh start will count again.
            table.start_afresh(UNSEEN)?;
        }
        Ok((
            MpiTwoBit {
                backend,
                space,
                partition,
                me,
                table,
            },
            record,
        ))
    }

    /// This process's chunks of `blocks`.
    fn chunks(&self, blocks: &[usize]) -> Vec<Slice> {
        self.partition.chunks(self.me, blocks)
    }

    /// Expands the frontier cells of `chunk`: successors this process owns
    /// are marked at once, the others' are added to `outgoing`.
    fn expand_chunk(
        &self,
        chunk: &Slice,
        frontier: u8,
        next: u8,
        outgoing: &mut [Vec<u64>],
    ) -> Work {
        let (space, table, partition, me) = (self.space, &self.table, &self.partition, self.me);
        let mut state = space.new_state();
        let mut marks = MarkBatch::new(table, next, Claim::Shared);
        let mut work = Work::default();
        let first = chunk.ranks.start;
        table.for_each_equal(chunk.local(), frontier, |local| {
            space.unrank(first + (local - chunk.local_start), &mut state);
            work.expanded += 1;
            space.expand(&state, MoveFilter::All, |successor| {
                let (owner, cell) = partition.locate(successor);
                if owner == me {
                    marks.push(cell);
                } else {
                    work.successors += 1;
                    outgoing[owner].push(cell);
                }
            });
            marks.mark_when_full(&mut work);
        });
        marks.mark(&mut work);
        work
    }

    /// Runs a pass over this process's chunks of `pass.scanned` in bounded
    /// rounds ([`in_rounds`]); `round` adds the work of what it exchanged.
    /// Returns the work of all processes together, and logs the pass's
    /// traffic.
    fn pass_in_rounds<R: Send>(
        &self,
        pass: &Pass,
        visit: impl Fn(&Slice) -> R + Sync,
        buffered: impl Fn(&R) -> usize,
        mut round: impl FnMut(&mut Exchange, Vec<R>) -> Work,
    ) -> Work {
        let chunks = self.chunks(&pass.scanned);
        let progress = pass.progress;
        progress.begin_pass(&pass.label, chunks.len() as u64);
        let mut exchange = self.backend.exchange();
        let mut work = Work::default();
        let rounds = in_rounds(
            &mut exchange,
            &chunks,
            progress,
            visit,
            buffered,
            |exchange, results| work += round(exchange, results),
        );
        progress.end_pass();
        let total = exchange.sum(&[
            work.expanded,
            work.successors,
            work.parent_checks,
            work.marked,
        ]);
        self.backend.log_pass(&mut exchange, &pass.label, rounds);
        Work {
            expanded: total[0],
            successors: total[1],
            parent_checks: total[2],
            marked: total[3],
            ..Default::default()
        }
    }

    /// Parent checking in `chunk`: an unseen cell with a neighbour in the
    /// frontier here joins the next layer at once; one whose neighbours in
    /// the frontier could only be elsewhere asks their owners.
    fn check_chunk(&self, chunk: &Slice, frontier: u8, next: u8) -> (Work, Queries<u64>) {
        let (space, table, partition, me) = (self.space, &self.table, &self.partition, self.me);
        let mut queries = Queries::new(partition.parts());
        let mut work = Work::default();
        let mut state = space.new_state();
        let mut neighbours = Vec::with_capacity(64);
        let first = chunk.ranks.start;
        table.for_each_equal(chunk.local(), UNSEEN, |local| {
            space.unrank(first + (local - chunk.local_start), &mut state);
            work.parent_checks += 1;
            neighbours.clear();
            space.expand(&state, MoveFilter::All, |neighbour| {
                neighbours.push(partition.locate(neighbour))
            });
            work.successors += neighbours.len() as u64;
            if neighbours
                .iter()
                .any(|&(owner, cell)| owner == me && table.get(cell) == frontier)
            {
                work.marked += table.lower_from_three(local, next) as u64;
                return;
            }
            let mut asked = false;
            for &(owner, cell) in neighbours.iter().filter(|&&(owner, _)| owner != me) {
                queries.ask(owner, cell);
                asked = true;
            }
            if asked {
                queries.push(local);
            }
        });
        (work, queries)
    }

    /// Marks the received cells that are still unseen; returns how many.
    fn mark_received(&self, received: &[u64], next: u8) -> u64 {
        let table = &self.table;
        received
            .par_chunks(BATCH)
            .map(|cells| {
                cells
                    .iter()
                    .filter(|&&cell| table.get(cell) == UNSEEN)
                    .filter(|&&cell| table.lower_from_three(cell, next))
                    .count() as u64
            })
            .sum()
    }

    /// Visits the global ranks of `chunk`'s cells (here) holding `value`.
    fn visit_equal(&self, chunk: &Chunk, value: u8, visit: &mut dyn FnMut(u64)) {
        let (_, local_start) = self.partition.locate(chunk.ranks.start);
        let len = chunk.ranks.end - chunk.ranks.start;
        let first = chunk.ranks.start;
        self.table
            .for_each_equal(local_start..local_start + len, value, |local| {
                visit(first + (local - local_start))
            });
    }
}

/// Slices as the CPU backend's chunks: their global ranks, for helpers shared with it.
fn as_chunks(slices: &[Slice]) -> Vec<Chunk> {
    slices
        .iter()
        .map(|slice| Chunk {
            block: slice.block,
            ranks: slice.ranks.clone(),
        })
        .collect()
}

impl<S: Space> TwoBitPasses for MpiTwoBit<'_, S> {
    fn storage(&self) -> &WordStorage {
        self.table.storage()
    }

    fn set_cells(&mut self, ranks: &[u64], value: u8) -> Result<()> {
        for &rank in ranks {
            let (owner, cell) = self.partition.locate(rank);
            if owner == self.me {
                self.table.set(cell, value);
            }
        }
        Ok(())
    }

    fn expand(&mut self, pass: &Pass, frontier: u8, next: u8) -> Result<Work> {
        let parts = self.partition.parts();
        Ok(self.pass_in_rounds(
            pass,
            |chunk| {
                let mut outgoing = vec![Vec::new(); parts];
                let work = self.expand_chunk(chunk, frontier, next, &mut outgoing);
                (work, outgoing)
            },
            |(_, outgoing)| outgoing.iter().map(Vec::len).sum(),
            |exchange, results| {
                let mut work = Work::default();
                let mut buffers = Vec::with_capacity(results.len());
                for (chunk_work, out) in results {
                    work += chunk_work;
                    buffers.push(out);
                }
                let outgoing = joined(parts, buffers);
                let (received, _) = exchange.all_to_all(&outgoing);
                drop(outgoing);
                work.marked += self.mark_received(&received, next);
                work
            },
        ))
    }

    fn check_parents(&mut self, pass: &Pass, frontier: u8, next: u8) -> Result<Work> {
        let parts = self.partition.parts();
        Ok(self.pass_in_rounds(
            pass,
            |chunk| self.check_chunk(chunk, frontier, next),
            |(_, queries)| queries.asked(),
            |exchange, results| {
                let mut work = Work::default();
                let mut all = Queries::new(parts);
                for (chunk_work, queries) in results {
                    work += chunk_work;
                    all.append(queries);
                }
                // Ask each owner whether the cells are in the frontier, and
                // answer the others' questions the same way.
                let table = &self.table;
                let (candidates, answered) = all.answered(exchange, self.me, |cell| {
                    (table.get(cell) == frontier) as u8
                });
                let mut found = vec![false; candidates.len()];
                for (asker, reply) in answered {
                    found[asker as usize] |= reply == 1;
                }
                work.marked += candidates
                    .iter()
                    .zip(&found)
                    .filter(|&(&cell, &found)| found && table.lower_from_three(cell, next))
                    .count() as u64;
                work
            },
        ))
    }

    fn close(&mut self, blocks: &[usize], frontier: u8) -> Result<()> {
        // A frontier cell may close only once every process holds (in its
        // store) the successors it sent: a process killed before marking
        // what it received would otherwise lose them for good.
        self.table.storage().flush()?;
        self.backend.exchange().barrier();
        let table = &self.table;
        self.chunks(blocks)
            .par_iter()
            .for_each(|chunk| table.clear_equal_in(chunk.local(), frontier));
        Ok(())
    }

    fn count(&mut self, blocks: &[usize], value: u8) -> Result<LayerCount> {
        let slices = self.chunks(blocks);
        let table = &self.table;
        let representatives = slices
            .par_iter()
            .map(|slice| table.count_in(slice.local(), value))
            .sum();
        let chunks = as_chunks(&slices);
        let refs: Vec<&Chunk> = chunks.iter().collect();
        let local = count_states(self.space, &refs, representatives, |chunk, visit| {
            self.visit_equal(chunk, value, visit)
        });
        let total = self
            .backend
            .exchange()
            .sum(&[local.states, local.representatives]);
        Ok(LayerCount {
            states: total[0],
            representatives: total[1],
        })
    }

    fn cells(&mut self, ranks: &[u64]) -> Result<Vec<u8>> {
        // Each rank has one owner; the others add 0.
        let mine: Vec<u64> = ranks
            .iter()
            .map(|&rank| match self.partition.locate(rank) {
                (owner, cell) if owner == self.me => self.table.get(cell) as u64,
                _ => 0,
            })
            .collect();
        let all = self.backend.exchange().sum(&mine);
        Ok(all.into_iter().map(|value| value as u8).collect())
    }

    fn first_ranks(&mut self, blocks: &[usize], value: u8, limit: usize) -> Result<Vec<u64>> {
        let mut mine = Vec::new();
        for chunk in as_chunks(&self.chunks(blocks)) {
            self.visit_equal(&chunk, value, &mut |rank| mine.push(rank));
            if mine.len() >= limit {
                break;
            }
        }
        mine.truncate(limit);
        let mut all: Vec<u64> = self
            .backend
            .exchange()
            .gather(&mine)
            .into_iter()
            .flatten()
            .collect();
        all.sort_unstable();
        all.truncate(limit);
        Ok(all)
    }
}

/// The progress record every process resumes from: the one with the
/// fewest completed layers. Processes stop at most one layer apart (a
/// layer's frontier closes only after every process holds its
/// successors), and redoing a completed layer only marks what is still
/// unseen, so the processes that got further lose nothing by going back.
fn agree_on_progress(exchange: &mut Exchange, record: Option<Vec<u8>>) -> Result<Option<Vec<u8>>> {
    let bytes = record.clone().unwrap_or_default();
    let layers = |bytes: &[u8]| -> usize {
        if bytes.is_empty() {
            return 0;
        }
        Checkpoint::decode(bytes).map_or(0, |checkpoint| checkpoint.counts.len())
    };
    let all = exchange.gather(&bytes);
    let fewest = all
        .iter()
        .min_by_key(|record| layers(record))
        .expect("a process");
    if layers(fewest) == layers(&bytes) {
        return Ok(record);
    }
    Ok((!fewest.is_empty()).then(|| fewest.clone()))
}
