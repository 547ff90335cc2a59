//! A table of 2-bit cells, 32 to a u64 word, shared by threads through atomic
//! word operations.

use std::ops::Range;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::header::TableIdentity;
use super::storage::{Backing, WordStorage};
use super::words::{GatheredWrites, count_items, items_in_range, prefetch_word, visit_items};
use crate::error::Result;
use crate::progress::{Progress, Silent};

/// Two-bit cells per table word.
pub const CELLS_PER_WORD: u64 = 32;
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// The word with every cell set to `value`.
#[inline(always)]
pub const fn broadcast(value: u8) -> u64 {
    LOW_BITS * value as u64
}

/// Bit mask with the low bit of every cell of `word` that equals `value`.
#[inline(always)]
pub fn cells_equal(word: u64, value: u8) -> u64 {
    let difference = word ^ broadcast(value);
    !(difference | (difference >> 1)) & LOW_BITS
}

/// A table of two-bit cells, one per rank, on the heap or in a store file.
pub struct TwoBitTable {
    storage: WordStorage,
    cells: u64,
}

impl TwoBitTable {
    /// Opens (or creates) the table `identity` names (its `states` cells),
    /// each cell starting at `fill`; `progress` shows creating or checking
    /// a large file.
    pub fn open(
        backing: &Backing,
        identity: TableIdentity,
        fill: u8,
        progress: &dyn Progress,
    ) -> Result<(Self, Option<Vec<u8>>)> {
        let cells = identity.states;
        let words = cells.div_ceil(CELLS_PER_WORD) as usize;
        let (storage, checkpoint) =
            WordStorage::open(backing, identity, words, broadcast(fill), words, progress)?;
        Ok((TwoBitTable { storage, cells }, checkpoint))
    }

    /// Sets every cell to `fill` and records an empty progress record: the
    /// table is as new.
    pub fn start_afresh(&self, fill: u8) -> Result<()> {
        self.storage.start_afresh(broadcast(fill))
    }

    /// A working table on the heap, never stored.
    pub fn scratch(descriptor: &str, cells: u64, fill: u8) -> Result<Self> {
        let identity = TableIdentity::scratch(descriptor, 2, cells);
        Ok(Self::open(&Backing::Heap, identity, fill, &Silent)?.0)
    }

    /// Number of cells.
    pub fn len(&self) -> u64 {
        self.cells
    }

    /// True for a table of no cells.
    pub fn is_empty(&self) -> bool {
        self.cells == 0
    }

    /// The words, and the file of a stored table.
    pub fn storage(&self) -> &WordStorage {
        &self.storage
    }

    /// [`storage`](Self::storage), to be changed.
    pub fn storage_mut(&mut self) -> &mut WordStorage {
        &mut self.storage
    }

    /// The cells as bytes, 4 to a byte (see [`WordStorage::bytes`]).
    pub fn bytes(&self) -> &[u8] {
        self.storage.bytes()
    }

    /// [`bytes`](Self::bytes), to be overwritten.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        self.storage.bytes_mut()
    }

    /// The table's words: cell `i` is bits `2 * (i % 32)` and up of word `i / 32`.
    #[inline(always)]
    pub fn words(&self) -> &[AtomicU64] {
        self.storage.words()
    }

    #[inline(always)]
    fn locate(index: u64) -> (usize, u32) {
        (
            (index / CELLS_PER_WORD) as usize,
            2 * (index % CELLS_PER_WORD) as u32,
        )
    }

    /// The value of cell `index`, 0 to 3.
    #[inline(always)]
    pub fn get(&self, index: u64) -> u8 {
        debug_assert!(index < self.cells);
        let (word, shift) = Self::locate(index);
        ((self.words()[word].load(Relaxed) >> shift) & 3) as u8
    }

    /// Starts loading the word that holds cell `index` into the cache, so
    /// that a read of it a few hundred cells of work later does not wait
    /// (a hint: it changes nothing).
    #[inline(always)]
    pub fn prefetch(&self, index: u64) {
        prefetch_word(self.words(), Self::locate(index).0);
    }

    /// Stores `value` into a cell whatever it held (one atomic update, so no
    /// reader sees a half-written cell).
    pub fn set(&self, index: u64, value: u8) {
        let (word, shift) = Self::locate(index);
        let _ = self.words()[word].fetch_update(Relaxed, Relaxed, |current| {
            Some((current & !(3u64 << shift)) | ((value as u64 & 3) << shift))
        });
    }

    /// Writes into cells that hold 0, met in increasing order, gathered
    /// a word at a time ([`GatheredWrites`]).
    pub fn gathered_writes(&self) -> GatheredWrites<'_, 2> {
        GatheredWrites::new(self.words())
    }

    /// Compare-and-set of one cell: writes `new` if it holds `expected`, and
    /// says whether it did.
    pub fn compare_and_set(&self, index: u64, expected: u8, new: u8) -> bool {
        let (word, shift) = Self::locate(index);
        let word = &self.words()[word];
        let mut current = word.load(Relaxed);
        loop {
            if (current >> shift) & 3 != expected as u64 {
                return false;
            }
            let replaced = (current & !(3u64 << shift)) | ((new as u64 & 3) << shift);
            match word.compare_exchange_weak(current, replaced, Relaxed, Relaxed) {
                Ok(_) => return true,
                Err(actual) => current = actual,
            }
        }
    }

    /// Lowers a cell holding 3 to `value` with a single `fetch_and`; true when
    /// this call changed it. Only correct while every concurrent writer of a
    /// 3-cell writes the same `value` (as in one BFS layer), which makes it a
    /// lock-free compare-and-set without a retry loop.
    #[inline(always)]
    pub fn lower_from_three(&self, index: u64, value: u8) -> bool {
        let (word, shift) = Self::locate(index);
        let clear = ((3 ^ value) as u64) << shift;
        let before = self.words()[word].fetch_and(!clear, Relaxed);
        (before >> shift) & 3 == 3
    }

    /// [`lower_from_three`](Self::lower_from_three) for a table that no
    /// other thread writes meanwhile (a pass on a pool of one thread): a
    /// plain load and store instead of a locked read-modify-write, which
    /// serialises the core once per newly seen cell. Leaves a cell that
    /// does not hold 3 as it is.
    #[inline]
    pub fn lower_from_three_unshared(&self, index: u64, value: u8) -> bool {
        let (word, shift) = Self::locate(index);
        let word = &self.words()[word];
        let before = word.load(Relaxed);
        if (before >> shift) & 3 != 3 {
            return false;
        }
        word.store(before & !(((3 ^ value) as u64) << shift), Relaxed);
        true
    }

    /// Lowers cell `index`, known to hold 3, to `value`, in a table that
    /// no other thread writes meanwhile: a plain load and store.
    #[inline(always)]
    pub fn lower_unshared(&self, index: u64, value: u8) {
        debug_assert_eq!(self.get(index), 3);
        let (word, shift) = Self::locate(index);
        let word = &self.words()[word];
        word.store(
            word.load(Relaxed) & !(((3 ^ value) as u64) << shift),
            Relaxed,
        );
    }

    /// Lowers to `value` the cells of word `word` that hold 3 among those
    /// `selected` marks (each by its low bit): one atomic `fetch_and` for
    /// the word, not one per cell. Says how many cells it lowered.
    #[inline]
    pub fn lower_selected_from_three(&self, word: usize, selected: u64, value: u8) -> u32 {
        let word = &self.words()[word];
        let unseen = cells_equal(word.load(Relaxed), 3) & selected;
        if unseen == 0 {
            return 0;
        }
        let before = word.fetch_and(!(unseen * (3 ^ value) as u64), Relaxed);
        (cells_equal(before, 3) & unseen).count_ones()
    }

    /// Number of cells in `range` that hold `value`, counted in parallel.
    pub fn count_in(&self, range: Range<u64>, value: u8) -> u64 {
        count_items::<2>(self.words(), range, |word| cells_equal(word, value))
    }

    /// Number of cells holding `value`, counted in parallel.
    pub fn count(&self, value: u8) -> u64 {
        self.count_in(0..self.cells, value)
    }

    /// Sets every cell in `range` that holds `value` to 0. Calls on
    /// disjoint ranges may run at once, but nothing else may write the
    /// table meanwhile: a word wholly inside the range then belongs to this
    /// call and takes a plain store, and only the end words a neighbouring
    /// range may share take a `fetch_and` (a locked instruction per word
    /// was 40 % of the closing passes' time, pocket cube on one thread).
    pub fn clear_equal_in(&self, range: Range<u64>, value: u8) {
        if range.is_empty() {
            return;
        }
        let words = self.words();
        let first = range.start / CELLS_PER_WORD;
        let last = (range.end - 1) / CELLS_PER_WORD;
        for w in first..=last {
            let word = &words[w as usize];
            let before = word.load(Relaxed);
            let mut low = cells_equal(before, value);
            if low == 0 {
                continue;
            }
            if w == first || w == last {
                low &= items_in_range::<2>(w, &range);
                word.fetch_and(!(low | (low << 1)), Relaxed);
            } else {
                word.store(before & !(low | (low << 1)), Relaxed);
            }
        }
    }

    /// Every cell holding 0 takes `value`, in parallel (one `fetch_or` per
    /// word that has such a cell).
    pub fn fill_zero_cells(&self, value: u8) {
        self.words().par_chunks(1 << 12).for_each(|chunk| {
            for word in chunk {
                let zero = cells_equal(word.load(Relaxed), 0);
                if zero != 0 {
                    word.fetch_or(zero * (value as u64 & 3), Relaxed);
                }
            }
        });
    }

    /// [`clear_equal_in`](Self::clear_equal_in) over the whole table, in parallel.
    pub fn clear_equal(&self, value: u8) {
        let cells = self.cells;
        let words_len = self.words().len();
        (0..words_len)
            .into_par_iter()
            .with_min_len(4096)
            .for_each(|w| {
                let first = w as u64 * CELLS_PER_WORD;
                self.clear_equal_in(first..(first + CELLS_PER_WORD).min(cells), value);
            });
    }

    /// Calls `visit(index)` for every cell in `range` that holds `value`
    /// when its word is read (one relaxed load per 32 cells).
    #[inline]
    pub fn for_each_equal(&self, range: Range<u64>, value: u8, visit: impl FnMut(u64)) {
        visit_items::<2>(self.words(), range, |word| cells_equal(word, value), visit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_equal_finds_exactly_the_matching_cells() {
        let word = 0b11_10_01_00_11u64;
        assert_eq!(cells_equal(word, 3) & 0x3ff, 0b01_00_00_00_01);
        assert_eq!(cells_equal(word, 0) & 0x3ff, 0b00_00_00_01_00);
        assert_eq!(cells_equal(word, 1) & 0x3ff, 0b00_00_01_00_00);
        assert_eq!(cells_equal(word, 2) & 0x3ff, 0b00_01_00_00_00);
    }

    #[test]
    fn selected_cells_are_lowered_from_three_only() {
        let table = TwoBitTable::scratch("t", 64, 3).unwrap();
        table.set(1, 0);
        table.set(2, 2);
        // Cells 0, 1, 2 and 5 of word 0 selected; 1 and 2 do not hold 3.
        let selected = 1 | 1 << 2 | 1 << 4 | 1 << 10;
        assert_eq!(table.lower_selected_from_three(0, selected, 1), 2);
        let cells: Vec<u8> = (0..7).map(|i| table.get(i)).collect();
        assert_eq!(cells, [1, 0, 2, 3, 3, 1, 3]);
        assert_eq!(table.lower_selected_from_three(0, selected, 1), 0);
        assert_eq!(table.lower_selected_from_three(1, 1 << 62, 0), 1);
        assert_eq!(table.get(63), 0);
        assert_eq!(table.count(3), 64 - 4 - 1);
    }

    #[test]
    fn gathered_writes_land_a_word_at_a_time_beside_other_writers() {
        // Two threads write alternate cells of the same words, each in
        // increasing order, while a third sets every fifth cell directly;
        // every cell ends with its value, the last word's once dropped.
        let table = TwoBitTable::scratch("t", 1000, 0).unwrap();
        let value = |cell: u64| (cell % 3 + 1) as u8;
        std::thread::scope(|scope| {
            for parity in 0..2 {
                let table = &table;
                scope.spawn(move || {
                    let mut writes = table.gathered_writes();
                    for cell in (parity..1000).step_by(2).filter(|cell| cell % 5 != 0) {
                        writes.write(cell, value(cell));
                    }
                });
            }
            scope.spawn(|| {
                for cell in (0..1000).step_by(5) {
                    table.set(cell, value(cell));
                }
            });
        });
        for cell in 0..1000 {
            assert_eq!(table.get(cell), value(cell), "cell {cell}");
        }
        // A flush writes what is gathered so far, and nothing twice.
        let table = TwoBitTable::scratch("t", 64, 0).unwrap();
        let mut writes = table.gathered_writes();
        writes.write(3, 2);
        assert_eq!(table.get(3), 0);
        writes.flush();
        assert_eq!(table.get(3), 2);
        writes.write(40, 1);
        drop(writes);
        assert_eq!((table.get(40), table.count(0)), (1, 62));
    }

    #[test]
    fn set_get_compare_and_count() {
        let table = TwoBitTable::scratch("t", 100, 3).unwrap();
        assert_eq!(table.count(3), 100);
        assert!(table.lower_from_three(7, 1));
        assert!(!table.lower_from_three(7, 1));
        assert_eq!(table.get(7), 1);
        assert!(table.compare_and_set(99, 3, 0));
        assert!(!table.compare_and_set(99, 3, 2));
        table.set(64, 2);
        assert_eq!(
            (
                table.count(3),
                table.count(1),
                table.count(0),
                table.count(2)
            ),
            (97, 1, 1, 1)
        );
        assert_eq!(table.count_in(8..99, 3), 90);
        let mut seen = Vec::new();
        table.for_each_equal(5..100, 3, |i| seen.push(i));
        assert_eq!(seen.len(), 92);
        assert!(!seen.contains(&7) && !seen.contains(&64) && !seen.contains(&4));
    }
}
