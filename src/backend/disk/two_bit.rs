//! The two-bit BFS passes over a table on disk, a window at a time.

use std::path::PathBuf;
use std::sync::Mutex;

use rayon::prelude::*;

use super::DiskPlan;
use super::buckets::{Buckets, add_filed_shared, add_shared};
use crate::backend::cpu::two_bit::{Claim, MarkBatch};
use crate::error::Result;
use crate::progress::{Progress, check_stop};
use crate::search::backend::{Pass, TwoBitPasses};
use crate::search::chunks::{CHUNK_STATES, Chunk, ChunkIndex, each_unit};
use crate::search::two_bit_bfs::UNSEEN;
use crate::search::{LayerCount, Work};
use crate::space::{MoveFilter, Space};
use crate::table::direct::DirectFile;
use crate::table::two_bit::CELLS_PER_WORD;
use crate::table::{TwoBitTable, WordStorage};

/// Ranks a worker collects for other windows before handing them over.
const HAND_OVER: usize = 1 << 14;

pub(super) struct DiskTwoBit<'a, S: Space> {
    space: &'a S,
    storage: WordStorage,
    plan: DiskPlan,
    cells: u64,
    chunks: ChunkIndex,
    /// The window in memory, and which one it is (its copy on disk equal).
    window: TwoBitTable,
    loaded: Option<usize>,
    /// Where waiting successors are spilled, and a parent check's
    /// questions.
    buckets_dir: PathBuf,
    questions_dir: PathBuf,
    /// Windows that held frontier cells in the last expansion, and that
    /// frontier's value: a close visits only these.
    frontier_windows: Option<(u8, Vec<bool>)>,
    bytes_read: u64,
    bytes_written: u64,
}

impl<'a, S: Space> DiskTwoBit<'a, S> {
    pub fn new(space: &'a S, storage: WordStorage, plan: DiskPlan) -> Result<Self> {
        let path = storage.path().expect("a table on disk").to_path_buf();
        let mut buckets_dir = path.clone().into_os_string();
        buckets_dir.push(".waiting");
        let mut questions_dir = path.into_os_string();
        questions_dir.push(".asking");
        Ok(DiskTwoBit {
            space,
            cells: storage.identity().states,
            storage,
            plan,
            chunks: ChunkIndex::new(space),
            window: TwoBitTable::scratch("a window of a table on disk", plan.window_cells, UNSEEN)?,
            loaded: None,
            buckets_dir: PathBuf::from(buckets_dir),
            questions_dir: PathBuf::from(questions_dir),
            frontier_windows: None,
            bytes_read: 0,
            bytes_written: 0,
        })
    }

    fn file(&self) -> &DirectFile {
        self.storage.direct().expect("a table on disk")
    }

    /// The ranks of window `w`.
    fn ranks(&self, w: usize) -> std::ops::Range<u64> {
        let start = w as u64 * self.plan.window_cells;
        start..(start + self.plan.window_cells).min(self.cells)
    }

    /// The word range of window `w` in the table file.
    fn words(&self, w: usize) -> std::ops::Range<u64> {
        let ranks = self.ranks(w);
        ranks.start / CELLS_PER_WORD..ranks.end.div_ceil(CELLS_PER_WORD)
    }

    /// The windows that hold ranks of `blocks`, ascending.
    fn windows_of(&self, blocks: &[usize]) -> Vec<usize> {
        let space_blocks = self.space.blocks();
        let mut windows: Vec<usize> = blocks
            .iter()
            .filter(|&&b| space_blocks[b].len > 0)
            .flat_map(|&b| {
                let block = &space_blocks[b];
                let first = (block.start / self.plan.window_cells) as usize;
                let last = ((block.end() - 1) / self.plan.window_cells) as usize;
                first..=last
            })
            .collect();
        windows.sort_unstable();
        windows.dedup();
        windows
    }

    /// The ranges of `blocks` inside window `w`, as offsets into it.
    fn offsets_in(&self, w: usize, blocks: &[usize]) -> Vec<std::ops::Range<u64>> {
        let window = self.ranks(w);
        let space_blocks = self.space.blocks();
        blocks
            .iter()
            .map(|&b| {
                let range = space_blocks[b].range();
                range.start.max(window.start)..range.end.min(window.end)
            })
            .filter(|range| !range.is_empty())
            .map(|range| range.start - window.start..range.end - window.start)
            .collect()
    }

    /// Reads window `w` into memory (unless it is there).
    fn load(&mut self, w: usize) -> Result<()> {
        if self.loaded == Some(w) {
            return Ok(());
        }
        self.loaded = None;
        let words = self.words(w);
        let len = ((words.end - words.start) * 8) as usize;
        let file = self.storage.direct().expect("a table on disk");
        file.read(words.start, &mut self.window.bytes_mut()[..len])?;
        self.bytes_read += len as u64;
        self.loaded = Some(w);
        Ok(())
    }

    /// Writes the loaded window back (only its changed checksum chunks
    /// reach the disk).
    fn save(&mut self) -> Result<()> {
        let Some(w) = self.loaded else {
            return Ok(());
        };
        let words = self.words(w);
        let len = ((words.end - words.start) * 8) as usize;
        self.bytes_written += self
            .file()
            .write(words.start, &self.window.bytes()[..len])?;
        Ok(())
    }

    /// Marks `next` in the unseen cells among `offsets` of the loaded window.
    fn apply(window: &TwoBitTable, offsets: &[u64], next: u8) -> u64 {
        offsets
            .par_chunks(1 << 14)
            .map(|part| {
                part.iter()
                    .filter(|&&offset| window.get(offset) == UNSEEN)
                    .filter(|&&offset| window.lower_from_three(offset, next))
                    .count() as u64
            })
            .sum()
    }

    /// Applies the successors waiting for window `w` (loaded).
    fn drain_into_window(&self, buckets: &mut Buckets, w: usize, next: u8) -> Result<u64> {
        let mut marked = 0;
        buckets.drain(w, |offsets| {
            marked += Self::apply(&self.window, offsets, next)
        })?;
        Ok(marked)
    }

    /// Marks what waits in `buckets` for any window (after the sweep),
    /// window by window, as a progress pass of its own: on a large table
    /// this loads every window again and takes minutes.
    fn drain_pending(
        &mut self,
        buckets: &mut Buckets,
        next: u8,
        progress: &dyn Progress,
        label: &str,
    ) -> Result<u64> {
        progress.begin_pass(label, buckets.waiting());
        let mut marked = 0;
        for w in buckets.pending() {
            check_stop(progress)?;
            self.load(w)?;
            buckets.drain(w, |offsets| {
                marked += Self::apply(&self.window, offsets, next);
                progress.advance(offsets.len() as u64);
            })?;
            self.save()?;
        }
        progress.end_pass();
        Ok(marked)
    }

    /// Expands the frontier cells of `chunk` (inside the loaded window
    /// starting at rank `base`): successors in the window are marked, the
    /// others handed to `buckets`.
    fn expand_chunk(
        &self,
        chunk: &Chunk,
        base: u64,
        frontier: u8,
        next: u8,
        buckets: &Mutex<Buckets>,
    ) -> Result<Work> {
        let (space, window) = (self.space, &self.window);
        let end = base + self.plan.window_cells;
        let mut state = space.new_state();
        let mut marks = MarkBatch::new(window, next, Claim::Shared);
        let mut elsewhere = Vec::with_capacity(HAND_OVER + 64);
        let mut work = Work::default();
        let mut failed = None;
        let hand_over = |elsewhere: &mut Vec<u64>| add_shared(buckets, elsewhere);
        window.for_each_equal(
            chunk.ranks.start - base..chunk.ranks.end - base,
            frontier,
            |offset| {
                space.unrank(base + offset, &mut state);
                work.expanded += 1;
                space.expand(&state, MoveFilter::All, |successor| {
                    if (base..end).contains(&successor) {
                        marks.push(successor - base);
                    } else {
                        work.successors += 1;
                        elsewhere.push(successor);
                    }
                });
                marks.mark_when_full(&mut work);
                if elsewhere.len() >= HAND_OVER && failed.is_none() {
                    failed = hand_over(&mut elsewhere).err();
                }
            },
        );
        marks.mark(&mut work);
        if let Some(error) = failed {
            return Err(error);
        }
        hand_over(&mut elsewhere)?;
        Ok(work)
    }

    /// The parent check of the unseen cells of `chunk` (inside the loaded
    /// window starting at rank `base`) among their neighbours in the
    /// window: a cell with a frontier neighbour there is marked; one
    /// without asks each other window its neighbours lie in (`questions`).
    fn check_chunk(
        &self,
        chunk: &Chunk,
        base: u64,
        frontier: u8,
        next: u8,
        questions: &Mutex<Buckets>,
    ) -> Result<Work> {
        let (space, window, cells) = (self.space, &self.window, self.plan.window_cells);
        let end = base + cells;
        let mut state = space.new_state();
        let mut neighbours = Vec::with_capacity(64);
        let mut asked: Vec<(usize, u64)> = Vec::with_capacity(HAND_OVER + 64);
        let mut work = Work::default();
        let mut failed = None;
        let hand_over = |asked: &mut Vec<(usize, u64)>| add_filed_shared(questions, asked);
        window.for_each_equal(
            chunk.ranks.start - base..chunk.ranks.end - base,
            UNSEEN,
            |offset| {
                let rank = base + offset;
                space.unrank(rank, &mut state);
                work.parent_checks += 1;
                neighbours.clear();
                space.expand(&state, MoveFilter::All, |neighbour| {
                    neighbours.push(neighbour)
                });
                work.successors += neighbours.len() as u64;
                let inside = |n: &u64| (base..end).contains(n);
                if neighbours
                    .iter()
                    .any(|n| inside(n) && window.get(n - base) == frontier)
                {
                    if window.lower_from_three(offset, next) {
                        work.marked += 1;
                    }
                    return;
                }
                let first = asked.len();
                for n in neighbours.iter().filter(|n| !inside(n)) {
                    let other = (n / cells) as usize;
                    if !asked[first..].iter().any(|&(w, _)| w == other) {
                        asked.push((other, rank));
                    }
                }
                if asked.len() >= HAND_OVER && failed.is_none() {
                    failed = hand_over(&mut asked).err();
                }
            },
        );
        if let Some(error) = failed {
            return Err(error);
        }
        hand_over(&mut asked)?;
        Ok(work)
    }

    /// Of the unseen states `asking` (ranks), those with a frontier
    /// neighbour in the loaded window starting at rank `base`.
    fn answer(&self, asking: &[u64], base: u64, frontier: u8) -> (Vec<u64>, Work) {
        let (space, window) = (self.space, &self.window);
        let end = base + self.plan.window_cells;
        let mut state = space.new_state();
        let mut work = Work::default();
        let mut yes = Vec::new();
        for &rank in asking {
            space.unrank(rank, &mut state);
            work.parent_checks += 1;
            let mut found = false;
            space.expand(&state, MoveFilter::All, |n| {
                work.successors += 1;
                found = found || ((base..end).contains(&n) && window.get(n - base) == frontier);
            });
            if found {
                yes.push(rank);
            }
        }
        (yes, work)
    }

    /// Runs `visit` on the chunks of `chunks` inside the loaded window `w`
    /// (all threads), a step of the pass's progress each; the work summed.
    fn each_chunk_in(
        &self,
        w: usize,
        chunks: &[Chunk],
        progress: &dyn Progress,
        visit: impl Fn(&Chunk) -> Result<Work> + Sync,
    ) -> Result<Work> {
        let window = self.ranks(w);
        // The window's chunks first, then in parallel: a parallel filter
        // over every chunk hands the window's run to one thread (rayon
        // splits the list in halves, the other halves hold no work and
        // are done at once, and a busy thread splits no further), which
        // kept Pancake 14's layers at one busy core of two.
        let inside: Vec<&Chunk> = chunks
            .iter()
            .filter(|chunk| window.contains(&chunk.ranks.start))
            .collect();
        each_unit(&inside)
            .map(|chunk| {
                if progress.stop_requested() {
                    return Ok(Work::default());
                }
                let done = visit(chunk);
                progress.advance(1);
                done
            })
            .try_reduce(Work::default, |a, b| Ok(a + b))
    }

    fn io_work(&mut self) -> Work {
        Work {
            bytes_read: std::mem::take(&mut self.bytes_read),
            bytes_written: std::mem::take(&mut self.bytes_written),
            ..Work::default()
        }
    }
}

impl<S: Space> TwoBitPasses for DiskTwoBit<'_, S> {
    fn storage(&self) -> &WordStorage {
        &self.storage
    }

    fn set_cells(&mut self, ranks: &[u64], value: u8) -> Result<()> {
        let mut sorted = ranks.to_vec();
        sorted.sort_unstable();
        for rank in sorted {
            let w = (rank / self.plan.window_cells) as usize;
            if self.loaded != Some(w) {
                self.save()?;
                self.load(w)?;
            }
            self.window.set(rank - self.ranks(w).start, value);
        }
        self.save()
    }

    fn expand(&mut self, pass: &Pass, frontier: u8, next: u8) -> Result<Work> {
        let progress = pass.progress;
        let windows = self.windows_of(&pass.scanned);
        let chunks: Vec<Chunk> = self.chunks.of(&pass.scanned).into_iter().cloned().collect();
        progress.begin_pass(&pass.label, chunks.len() as u64);
        let buckets = Mutex::new(Buckets::new(
            &self.buckets_dir,
            self.plan.windows,
            self.plan.window_cells,
            self.plan.held_successors,
        )?);
        let mut had_frontier = vec![false; self.plan.windows];
        let mut work = Work::default();
        // The sweep: each scanned window takes what earlier windows left
        // for it, then expands its frontier.
        for &w in &windows {
            check_stop(progress)?;
            self.load(w)?;
            let window = self.ranks(w);
            work.marked +=
                self.drain_into_window(&mut buckets.lock().expect("buckets"), w, next)?;
            let done = self.each_chunk_in(w, &chunks, progress, |chunk| {
                self.expand_chunk(chunk, window.start, frontier, next, &buckets)
            })?;
            had_frontier[w] = done.expanded > 0;
            work += done;
            self.save()?;
        }
        progress.end_pass();
        // Successors for windows the sweep had passed (or never scans).
        let mut buckets = buckets.into_inner().expect("buckets");
        let label = format!("{}, waiting successors", pass.label);
        work.marked += self.drain_pending(&mut buckets, next, progress, &label)?;
        check_stop(progress)?;
        self.bytes_read += buckets.bytes_read;
        self.bytes_written += buckets.bytes_written;
        self.frontier_windows = Some((frontier, had_frontier));
        let io = self.io_work();
        progress.note(&format!(
            "{}: {:.1} MiB read, {:.1} MiB written ({:.1} MiB of it waiting successors)",
            pass.label,
            io.bytes_read as f64 / (1u64 << 20) as f64,
            io.bytes_written as f64 / (1u64 << 20) as f64,
            buckets.bytes_written as f64 / (1u64 << 20) as f64,
        ));
        Ok(work + io)
    }

    /// Backward (the driver switches once fewer states are unseen than
    /// sit in the frontier), in three sweeps. The scanned windows: each
    /// unseen cell looks at its neighbours inside its window, and one
    /// without a frontier neighbour there files a question under each other
    /// window its neighbours lie in. The windows asked: each question is
    /// answered from that window, a yes waiting for the asker's window. The
    /// windows with a yes: the askers are marked. The frontier's cells do
    /// not change during the pass, so an answer holds whenever it is given;
    /// a stopped pass is redone whole (its marks stay and are counted).
    fn check_parents(&mut self, pass: &Pass, frontier: u8, next: u8) -> Result<Work> {
        let progress = pass.progress;
        let windows = self.windows_of(&pass.scanned);
        let chunks: Vec<Chunk> = self.chunks.of(&pass.scanned).into_iter().cloned().collect();
        progress.begin_pass(&pass.label, chunks.len() as u64);
        let (count, cells, held) = (
            self.plan.windows,
            self.plan.window_cells,
            self.plan.held_successors,
        );
        let questions = Mutex::new(Buckets::of_questions(
            &self.questions_dir,
            count,
            cells,
            held,
        )?);
        let mut work = Work::default();
        for &w in &windows {
            check_stop(progress)?;
            self.load(w)?;
            let base = self.ranks(w).start;
            work += self.each_chunk_in(w, &chunks, progress, |chunk| {
                self.check_chunk(chunk, base, frontier, next, &questions)
            })?;
            self.save()?;
        }
        progress.end_pass();
        let mut questions = questions.into_inner().expect("questions");
        let mut marks = Buckets::new(&self.buckets_dir, count, cells, held)?;
        progress.begin_pass(
            &format!("{}, answering questions", pass.label),
            questions.waiting(),
        );
        for w in questions.pending() {
            check_stop(progress)?;
            // Answering reads the window and changes nothing in it.
            self.load(w)?;
            let base = self.ranks(w).start;
            let mut failed = None;
            questions.drain(w, |asking| {
                let (mut yes, done) = asking
                    .par_chunks(1 << 12)
                    .map(|part| self.answer(part, base, frontier))
                    .reduce(
                        || (Vec::new(), Work::default()),
                        |(mut a, x), (b, y)| {
                            a.extend(b);
                            (a, x + y)
                        },
                    );
                work += done;
                progress.advance(asking.len() as u64);
                if failed.is_none() {
                    failed = marks.add(&mut yes).err();
                }
            })?;
            if let Some(error) = failed {
                return Err(error);
            }
        }
        progress.end_pass();
        let label = format!("{}, marking askers", pass.label);
        work.marked += self.drain_pending(&mut marks, next, progress, &label)?;
        check_stop(progress)?;
        for buckets in [&questions, &marks] {
            self.bytes_read += buckets.bytes_read;
            self.bytes_written += buckets.bytes_written;
        }
        let asked = questions.bytes_written;
        drop(questions);
        // The close cannot tell which windows hold the frontier.
        self.frontier_windows = None;
        let io = self.io_work();
        progress.note(&format!(
            "{}: {:.1} MiB read, {:.1} MiB written ({:.1} MiB of it questions, {:.1} MiB answers)",
            pass.label,
            io.bytes_read as f64 / (1u64 << 20) as f64,
            io.bytes_written as f64 / (1u64 << 20) as f64,
            asked as f64 / (1u64 << 20) as f64,
            marks.bytes_written as f64 / (1u64 << 20) as f64,
        ));
        Ok(work + io)
    }

    fn close(&mut self, blocks: &[usize], frontier: u8) -> Result<()> {
        let known = match &self.frontier_windows {
            Some((value, windows)) if *value == frontier => Some(windows.clone()),
            _ => None,
        };
        for w in self.windows_of(blocks) {
            if known.as_ref().is_some_and(|windows| !windows[w]) {
                continue;
            }
            self.load(w)?;
            for range in self.offsets_in(w, blocks) {
                self.window.clear_equal_in(range, frontier);
            }
            self.save()?;
        }
        Ok(())
    }

    fn count(&mut self, blocks: &[usize], value: u8) -> Result<LayerCount> {
        let mut total = LayerCount {
            states: 0,
            representatives: 0,
        };
        for w in self.windows_of(blocks) {
            self.load(w)?;
            let base = self.ranks(w).start;
            for range in self.offsets_in(w, blocks) {
                let representatives = self.window.count_in(range.clone(), value);
                total.representatives += representatives;
                total.states += if self.space.symmetry_reduced() {
                    let (space, window) = (self.space, &self.window);
                    (range.start / CHUNK_STATES..range.end.div_ceil(CHUNK_STATES))
                        .into_par_iter()
                        .map(|unit| {
                            let mut state = space.new_state();
                            let mut states = 0;
                            let start = (unit * CHUNK_STATES).max(range.start);
                            let end = ((unit + 1) * CHUNK_STATES).min(range.end);
                            window.for_each_equal(start..end, value, |offset| {
                                space.unrank(base + offset, &mut state);
                                states += space.orbit_size(&state);
                            });
                            states
                        })
                        .sum()
                } else {
                    representatives
                };
            }
        }
        Ok(total)
    }

    fn cells(&mut self, ranks: &[u64]) -> Result<Vec<u8>> {
        let file = self.storage.direct().expect("a table on disk");
        ranks
            .iter()
            .map(|&rank| {
                let mut word = [0u8; 8];
                file.read(rank / CELLS_PER_WORD, &mut word)?;
                let shift = 2 * (rank % CELLS_PER_WORD);
                Ok(((u64::from_le_bytes(word) >> shift) & 3) as u8)
            })
            .collect()
    }

    fn first_ranks(&mut self, blocks: &[usize], value: u8, limit: usize) -> Result<Vec<u64>> {
        let mut found = Vec::new();
        for w in self.windows_of(blocks) {
            self.load(w)?;
            let base = self.ranks(w).start;
            for range in self.offsets_in(w, blocks) {
                self.window
                    .for_each_equal(range, value, |offset| found.push(base + offset));
            }
            if found.len() >= limit {
                break;
            }
        }
        found.truncate(limit);
        Ok(found)
    }
}
