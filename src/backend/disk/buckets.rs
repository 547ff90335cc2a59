//! Successors waiting for their window: ranks that a pass generated into a
//! window of the table not in memory, held per target window until it is
//! loaded. They stay in memory up to a budget; beyond it the largest
//! window's list goes to a file beside the table, as a run of sorted,
//! distinct offsets into the window, delta-coded in LEB128 varints (a dense
//! layer's deltas are small: mostly one byte a successor instead of eight).
//!
//! The same buckets carry the questions of a parent check on disk: ranks of
//! unseen states filed under the window of a neighbour they need to look
//! at, handed back as ranks (not offsets).
//!
//! Threads expanding a window share one `Buckets` behind a lock
//! ([`add_shared`], [`add_filed_shared`]). A list over the budget is only
//! taken out under the lock; it is sorted, coded and written after the lock
//! is released, so the other threads keep adding meanwhile. One list at a
//! time is out (a thread that finds one out spills under the lock, as
//! before), so memory stays within the budget twice over. (Under the lock,
//! a spill of a large budget sorts over a hundred million ranks while
//! every other thread waits at its next hand-over, a stall that grows
//! with the threads; on two threads the gain was not measured apart.)

use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::slice::ParallelSliceMut;

use crate::error::{Error, Result};

pub(super) struct Buckets {
    dir: PathBuf,
    window_cells: u64,
    /// What [`drain`](Self::drain) subtracts from window `w`'s entries:
    /// `w * origin_step` (its first rank for successors, 0 for questions).
    origin_step: u64,
    /// Global ranks waiting for each window, in memory.
    held: Vec<Vec<u64>>,
    held_total: usize,
    /// Ranks of a list taken out and not yet written (see the module text).
    in_flight: usize,
    /// Ranks at most in memory before the largest list is spilled.
    budget: usize,
    /// Windows with a spill file.
    spilled: Vec<bool>,
    /// Ranks in each window's spill file (a run's count, summed).
    spilled_ranks: Vec<u64>,
    pub bytes_read: u64,
    pub bytes_written: u64,
}

impl Buckets {
    /// Empty buckets for `windows` windows, spilling into `dir` (whose
    /// files a killed pass left are removed: that pass is redone whole).
    pub fn new(dir: &Path, windows: usize, window_cells: u64, budget: usize) -> Result<Self> {
        Self::with_origin(dir, windows, window_cells, window_cells, budget)
    }

    /// Empty buckets for questions: any rank filed under any window
    /// ([`add_filed`](Self::add_filed)), drained as it was filed.
    pub fn of_questions(
        dir: &Path,
        windows: usize,
        window_cells: u64,
        budget: usize,
    ) -> Result<Self> {
        Self::with_origin(dir, windows, window_cells, 0, budget)
    }

    fn with_origin(
        dir: &Path,
        windows: usize,
        window_cells: u64,
        origin_step: u64,
        budget: usize,
    ) -> Result<Self> {
        if dir.exists() {
            fs::remove_dir_all(dir).map_err(|e| io("clear", dir, e))?;
        }
        fs::create_dir_all(dir).map_err(|e| io("create", dir, e))?;
        Ok(Buckets {
            dir: dir.to_path_buf(),
            window_cells,
            origin_step,
            held: vec![Vec::new(); windows],
            held_total: 0,
            in_flight: 0,
            budget: budget.max(1),
            spilled: vec![false; windows],
            spilled_ranks: vec![0; windows],
            bytes_read: 0,
            bytes_written: 0,
        })
    }

    fn file(&self, window: usize) -> PathBuf {
        self.dir.join(format!("window-{window}.bucket"))
    }

    /// Takes the ranks of `ranks` (emptying it) into their windows' lists.
    pub fn add(&mut self, ranks: &mut Vec<u64>) -> Result<()> {
        self.file_ranks(ranks);
        self.spill_over_budget()
    }

    fn file_ranks(&mut self, ranks: &mut Vec<u64>) {
        self.held_total += ranks.len();
        for rank in ranks.drain(..) {
            self.held[(rank / self.window_cells) as usize].push(rank);
        }
    }

    /// Files each `(window, rank)` of `filed` (emptying it): the rank
    /// under the window.
    fn file_filed(&mut self, filed: &mut Vec<(usize, u64)>) {
        self.held_total += filed.len();
        for (window, rank) in filed.drain(..) {
            self.held[window].push(rank);
        }
    }

    fn spill_over_budget(&mut self) -> Result<()> {
        if let Some(spill) = self.take_over_budget()? {
            self.write(spill)?;
        }
        Ok(())
    }

    /// Takes the largest lists out until what is held fits the budget:
    /// the first to be written after the lock (unless a list is out
    /// already), the others written now.
    fn take_over_budget(&mut self) -> Result<Option<Spill>> {
        let mut out = None;
        while self.held_total > self.budget {
            let window = (0..self.held.len())
                .max_by_key(|&w| self.held[w].len())
                .expect("a window");
            let ranks = std::mem::take(&mut self.held[window]);
            self.held_total -= ranks.len();
            let spill = Spill {
                window,
                base: window as u64 * self.origin_step,
                ranks,
            };
            if self.in_flight == 0 && out.is_none() {
                self.in_flight = spill.ranks.len();
                out = Some(spill);
            } else {
                let window = spill.window;
                self.append_run(window, &spill.encode())?;
            }
        }
        Ok(out)
    }

    /// Writes a list taken out by `take_over_budget`.
    fn write(&mut self, spill: Spill) -> Result<()> {
        let (window, len) = (spill.window, spill.ranks.len());
        self.append_run(window, &spill.encode())?;
        self.in_flight -= len;
        Ok(())
    }

    /// Appends an encoded run to window `window`'s file.
    fn append_run(&mut self, window: usize, encoded: &[u8]) -> Result<()> {
        let path = self.file(window);
        // Never through a link planted at the name.
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
            .map_err(|e| io("create", &path, e))?;
        file.write_all(&(encoded.len() as u64).to_le_bytes())
            .and_then(|_| file.write_all(encoded))
            .map_err(|e| io("write", &path, e))?;
        self.bytes_written += encoded.len() as u64 + 8;
        self.spilled[window] = true;
        // A run begins with its count (see `Spill::encode`).
        let count: [u8; 8] = encoded[..8].try_into().expect("a run's count");
        self.spilled_ranks[window] += u64::from_le_bytes(count);
        Ok(())
    }

    /// Windows with successors waiting.
    pub fn pending(&self) -> Vec<usize> {
        (0..self.held.len())
            .filter(|&w| self.spilled[w] || !self.held[w].is_empty())
            .collect()
    }

    /// Ranks waiting in all windows, in memory and in files (what a
    /// progress line counts a draining phase in; a list in flight is not
    /// counted, and none is while no thread adds).
    pub fn waiting(&self) -> u64 {
        self.held_total as u64 + self.spilled_ranks.iter().sum::<u64>()
    }

    /// Hands window `window`'s waiting successors to `apply` as offsets
    /// into the window (questions: as filed), a run at a time (each at most
    /// the budget, sorted within it), and forgets them.
    pub fn drain(&mut self, window: usize, mut apply: impl FnMut(&[u64])) -> Result<()> {
        let base = window as u64 * self.origin_step;
        if self.spilled[window] {
            let path = self.file(window);
            let mut reader = BufReader::new(File::open(&path).map_err(|e| io("open", &path, e))?);
            let mut offsets = Vec::new();
            loop {
                let mut len = [0u8; 8];
                match reader.read_exact(&mut len) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                    Err(e) => return Err(io("read", &path, e)),
                }
                let mut run = vec![0u8; u64::from_le_bytes(len) as usize];
                reader
                    .read_exact(&mut run)
                    .map_err(|e| io("read", &path, e))?;
                self.bytes_read += run.len() as u64 + 8;
                decode_run(&run, &mut offsets).ok_or_else(|| Error::BadStore {
                    path: path.clone(),
                    reason: "a run of waiting successors is cut short".into(),
                })?;
                apply(&offsets);
            }
            fs::remove_file(&path).map_err(|e| io("remove", &path, e))?;
            self.spilled[window] = false;
            self.spilled_ranks[window] = 0;
        }
        let mut ranks = std::mem::take(&mut self.held[window]);
        self.held_total -= ranks.len();
        for rank in ranks.iter_mut() {
            *rank -= base;
        }
        if !ranks.is_empty() {
            apply(&ranks);
        }
        Ok(())
    }
}

/// A window's list taken out over the budget, to be written as one run.
struct Spill {
    window: usize,
    /// What the run's offsets are counted from.
    base: u64,
    ranks: Vec<u64>,
}

impl Spill {
    /// The run: its count, then the sorted, distinct offsets delta-coded.
    fn encode(mut self) -> Vec<u8> {
        // All threads may help (a rayon worker waiting for nothing steals).
        self.ranks.par_sort_unstable();
        self.ranks.dedup();
        let mut encoded = Vec::with_capacity(self.ranks.len() * 2 + 16);
        encoded.extend_from_slice(&(self.ranks.len() as u64).to_le_bytes());
        let mut previous = self.base;
        for &rank in &self.ranks {
            push_varint(&mut encoded, rank - previous);
            previous = rank;
        }
        encoded
    }
}

/// [`Buckets::add`] from one of several threads: see the module text.
pub(super) fn add_shared(buckets: &Mutex<Buckets>, ranks: &mut Vec<u64>) -> Result<()> {
    let spill = {
        let mut held = buckets.lock().expect("buckets");
        held.file_ranks(ranks);
        held.take_over_budget()?
    };
    write_outside(buckets, spill)
}

/// Files each `(window, rank)` of `filed` (emptying it), the rank under
/// the window, from one of several threads.
pub(super) fn add_filed_shared(
    buckets: &Mutex<Buckets>,
    filed: &mut Vec<(usize, u64)>,
) -> Result<()> {
    let spill = {
        let mut held = buckets.lock().expect("buckets");
        held.file_filed(filed);
        held.take_over_budget()?
    };
    write_outside(buckets, spill)
}

/// Codes a list taken out without the lock and appends it under it. (No
/// thread drains or asks what is pending while others add, so a list
/// between the two is never missed.)
fn write_outside(buckets: &Mutex<Buckets>, spill: Option<Spill>) -> Result<()> {
    let Some(spill) = spill else {
        return Ok(());
    };
    let (window, len) = (spill.window, spill.ranks.len());
    let run = spill.encode();
    let mut held = buckets.lock().expect("buckets");
    held.append_run(window, &run)?;
    held.in_flight -= len;
    Ok(())
}

impl Drop for Buckets {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn io(what: &str, path: &Path, error: std::io::Error) -> Error {
    Error::on_file(what, path, error)
}

fn push_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// The offsets of one run (its count, then the deltas), into `offsets`;
/// `None` if the run is cut short.
fn decode_run(run: &[u8], offsets: &mut Vec<u64>) -> Option<()> {
    offsets.clear();
    let count = u64::from_le_bytes(run.get(..8)?.try_into().ok()?);
    let mut at = 8;
    let mut previous = 0u64;
    for _ in 0..count {
        let mut value = 0u64;
        let mut shift = 0;
        loop {
            let byte = *run.get(at)?;
            at += 1;
            value |= ((byte & 0x7f) as u64) << shift;
            if byte & 0x80 == 0 {
                break;
            }
            shift += 7;
        }
        previous += value;
        offsets.push(previous);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_come_back_per_window_spilled_or_held() {
        let dir = std::env::temp_dir().join(format!("bitsolve-buckets-{}", std::process::id()));
        // Windows of 1000 cells; at most 5 ranks held.
        let mut buckets = Buckets::new(&dir, 3, 1000, 5).unwrap();
        let mut ranks = vec![2500, 10, 999, 10, 2001, 1500, 2999, 0, 2000];
        buckets.add(&mut ranks).unwrap();
        assert!(ranks.is_empty());
        buckets.add(&mut vec![1000, 20]).unwrap();
        assert!(buckets.bytes_written > 0, "something was spilled");
        assert_eq!(buckets.pending(), vec![0, 1, 2]);
        let mut got = [Vec::new(), Vec::new(), Vec::new()];
        for (w, into) in got.iter_mut().enumerate() {
            buckets
                .drain(w, |offsets| into.extend_from_slice(offsets))
                .unwrap();
            into.sort_unstable();
            into.dedup();
        }
        assert_eq!(got[0], vec![0, 10, 20, 999]);
        assert_eq!(got[1], vec![0, 500]);
        assert_eq!(got[2], vec![0, 1, 500, 999]);
        assert!(buckets.pending().is_empty());
        drop(buckets);
        assert!(!dir.exists());
    }

    #[test]
    fn questions_come_back_under_their_window_as_filed() {
        let dir = std::env::temp_dir().join(format!("bitsolve-questions-{}", std::process::id()));
        let buckets = Mutex::new(Buckets::of_questions(&dir, 2, 1000, 3).unwrap());
        // Ranks of any window filed under window 1, spilled past 3 held.
        add_filed_shared(&buckets, &mut vec![(1, 1500), (1, 20), (1, 999)]).unwrap();
        add_filed_shared(&buckets, &mut vec![(1, 7), (0, 1001), (1, 20)]).unwrap();
        let mut buckets = buckets.into_inner().unwrap();
        assert!(buckets.bytes_written > 0, "something was spilled");
        assert_eq!(buckets.pending(), vec![0, 1]);
        let mut got = Vec::new();
        buckets
            .drain(1, |ranks| got.extend_from_slice(ranks))
            .unwrap();
        got.sort_unstable();
        got.dedup();
        assert_eq!(got, vec![7, 20, 999, 1500]);
        let mut got = Vec::new();
        buckets
            .drain(0, |ranks| got.extend_from_slice(ranks))
            .unwrap();
        assert_eq!(got, vec![1001]);
        assert!(buckets.pending().is_empty());
    }

    #[test]
    fn threads_adding_at_once_lose_nothing_and_hold_one_list_out() {
        let dir = std::env::temp_dir().join(format!("bitsolve-shared-{}", std::process::id()));
        // Windows of 1000 cells, at most 50 ranks held: many spills, from
        // four threads at once.
        let windows = 7;
        let buckets = Mutex::new(Buckets::new(&dir, windows, 1000, 50).unwrap());
        let next = |rank: u64| {
            rank.wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407)
                % (windows as u64 * 1000)
        };
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let buckets = &buckets;
                scope.spawn(move || {
                    let mut rank = thread * 7919;
                    for _ in 0..200 {
                        let mut ranks: Vec<u64> = (0..37)
                            .map(|_| {
                                rank = next(rank);
                                rank
                            })
                            .collect();
                        add_shared(buckets, &mut ranks).unwrap();
                        let held = buckets.lock().unwrap();
                        assert!(held.held_total <= held.budget);
                    }
                });
            }
        });
        let mut buckets = buckets.into_inner().unwrap();
        assert_eq!(buckets.in_flight, 0);
        assert!(buckets.bytes_written > 0, "something was spilled");
        // The same ranks, generated again, each window's distinct offsets.
        let mut expected = vec![Vec::new(); windows];
        for thread in 0..4u64 {
            let mut rank = thread * 7919;
            for _ in 0..200 * 37 {
                rank = next(rank);
                expected[(rank / 1000) as usize].push(rank % 1000);
            }
        }
        for (w, want) in expected.iter_mut().enumerate() {
            want.sort_unstable();
            want.dedup();
            let mut got = Vec::new();
            buckets
                .drain(w, |offsets| got.extend_from_slice(offsets))
                .unwrap();
            got.sort_unstable();
            got.dedup();
            assert_eq!(&got, want, "window {w}");
        }
    }

    #[test]
    fn varints_round_trip_large_deltas() {
        let mut run = Vec::new();
        let values = [0u64, 1, 127, 128, 300, 1 << 40, u64::MAX >> 1];
        run.extend_from_slice(&(values.len() as u64).to_le_bytes());
        let mut previous = 0;
        for &v in &values {
            push_varint(&mut run, v - previous);
            previous = v;
        }
        let mut offsets = Vec::new();
        decode_run(&run, &mut offsets).unwrap();
        assert_eq!(offsets, values);
        assert!(decode_run(&run[..run.len() - 1], &mut offsets).is_none());
    }
}
