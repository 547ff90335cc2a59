//! A table of single bits, 64 to a u64 word, shared by threads through
//! atomic `fetch_or`.
//!
//! bitvec's `BitSlice<AtomicU64>` offers the same operations; `benches/table.rs`
//! measures both on 2^28 bits: this version is 1.1-1.3x faster at random
//! test-and-set and 4.2x faster at visiting set bits, and counts as fast on
//! one thread (and on all threads here), so the hot paths use it.

use std::ops::Range;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::header::TableIdentity;
use super::storage::{Backing, WordStorage};
use super::words::{GatheredWrites, count_items, items_in_range, prefetch_word, visit_items};
use crate::error::Result;
use crate::progress::{Progress, Silent};

/// Bits per table word.
pub const BITS_PER_WORD: u64 = 64;

/// A table of single bits, one per rank, on the heap or in a store file.
pub struct OneBitTable {
    storage: WordStorage,
    bits: u64,
}

impl OneBitTable {
    /// Opens (or creates) the table `identity` names (its `states` bits),
    /// all clear, of which at most `resident_bits` will be in use at once
    /// (see [`discard`](Self::discard)); `progress` shows checking a large
    /// file.
    pub fn open(
        backing: &Backing,
        identity: TableIdentity,
        resident_bits: u64,
        progress: &dyn Progress,
    ) -> Result<(Self, Option<Vec<u8>>)> {
        let bits = identity.states;
        let words = bits.div_ceil(BITS_PER_WORD) as usize;
        let resident_words = resident_bits.div_ceil(BITS_PER_WORD) as usize + 2;
        let (storage, checkpoint) =
            WordStorage::open(backing, identity, words, 0, resident_words, progress)?;
        Ok((OneBitTable { storage, bits }, checkpoint))
    }

    /// A working table of `bits` clear bits on the heap, never stored.
    pub fn scratch(descriptor: &str, bits: u64) -> Result<Self> {
        let identity = TableIdentity::scratch(descriptor, 1, bits);
        Ok(Self::open(&Backing::Heap, identity, bits, &Silent)?.0)
    }

    /// Releases the memory of the bits in `range` (whole pages inside it),
    /// which must not be needed again: they read as clear afterwards on the
    /// heap, as last written in a file.
    pub fn discard(&self, range: Range<u64>) -> Result<()> {
        let first = range.start.div_ceil(BITS_PER_WORD) as usize;
        let end = (range.end / BITS_PER_WORD) as usize;
        self.storage.discard(first..end)
    }

    /// Number of bits.
    pub fn len(&self) -> u64 {
        self.bits
    }

    /// True for a table of no bits.
    pub fn is_empty(&self) -> bool {
        self.bits == 0
    }

    /// The words, and the file of a stored table.
    pub fn storage(&self) -> &WordStorage {
        &self.storage
    }

    /// The table's words: bit `i` is bit `i % 64` of word `i / 64`.
    #[inline(always)]
    pub fn words(&self) -> &[AtomicU64] {
        self.storage.words()
    }

    /// Whether bit `index` is set.
    #[inline(always)]
    pub fn get(&self, index: u64) -> bool {
        debug_assert!(index < self.bits);
        let word = self.words()[(index / BITS_PER_WORD) as usize].load(Relaxed);
        (word >> (index % BITS_PER_WORD)) & 1 == 1
    }

    /// Sets of bits that are clear, met in increasing order, gathered a
    /// word at a time ([`GatheredWrites`]: a write of 1 sets a bit).
    pub fn gathered_sets(&self) -> GatheredWrites<'_, 1> {
        GatheredWrites::new(self.words())
    }

    /// Sets a bit; true when it was clear before (test-and-set).
    #[inline(always)]
    pub fn test_and_set(&self, index: u64) -> bool {
        debug_assert!(index < self.bits);
        let bit = 1u64 << (index % BITS_PER_WORD);
        let word = &self.words()[(index / BITS_PER_WORD) as usize];
        // A plain load first: most successors are already set, and a load
        // (unlike a locked instruction) does not stall the pipeline.
        if word.load(Relaxed) & bit != 0 {
            return false;
        }
        word.fetch_or(bit, Relaxed) & bit == 0
    }

    /// Starts loading the word that holds bit `index` into the cache (a
    /// hint: it changes nothing).
    #[inline(always)]
    pub fn prefetch(&self, index: u64) {
        prefetch_word(self.words(), (index / BITS_PER_WORD) as usize);
    }

    /// Sets bit `index`.
    pub fn set(&self, index: u64) {
        self.test_and_set(index);
    }

    /// Clears a bit; true when it was set.
    #[inline]
    pub fn clear(&self, index: u64) -> bool {
        let bit = 1u64 << (index % BITS_PER_WORD);
        self.words()[(index / BITS_PER_WORD) as usize].fetch_and(!bit, Relaxed) & bit != 0
    }

    /// Clears every bit (on the heap by giving the pages back).
    pub fn clear_all(&self) -> Result<()> {
        self.storage.zero_all()
    }

    /// Number of set bits in `range`, counted in parallel.
    pub fn count_in(&self, range: Range<u64>) -> u64 {
        count_items::<1>(self.words(), range, |word| word)
    }

    /// Number of set bits, counted in parallel.
    pub fn count_ones(&self) -> u64 {
        self.count_in(0..self.bits)
    }

    /// Calls `visit(index)` for every set bit in `range`.
    #[inline]
    pub fn for_each_set(&self, range: Range<u64>, visit: impl FnMut(u64)) {
        visit_items::<1>(self.words(), range, |word| word, visit);
    }

    /// Calls `visit(index)` for every clear bit in `range`.
    #[inline]
    pub fn for_each_clear(&self, range: Range<u64>, visit: impl FnMut(u64)) {
        visit_items::<1>(self.words(), range, |word| !word, visit);
    }

    /// The 64 bits starting at bit `start` (bits past the end read as 0).
    #[inline]
    fn bits_at(&self, start: u64) -> u64 {
        let words = self.words();
        let word = (start / BITS_PER_WORD) as usize;
        let shift = start % BITS_PER_WORD;
        let low = words[word].load(Relaxed) >> shift;
        if shift == 0 || word + 1 >= words.len() {
            low
        } else {
            low | (words[word + 1].load(Relaxed) << (BITS_PER_WORD - shift))
        }
    }

    /// `self[destination + i] |= self[source + i]` for `i < len`, in parallel;
    /// the two ranges must not overlap. This is the whole-partition copy of
    /// Algorithm 7, line 12, for moves that keep a state's in-block rank.
    pub fn or_range(&self, source: u64, destination: u64, len: u64) {
        debug_assert!(source + len <= destination || destination + len <= source);
        let destination_range = destination..destination + len;
        let words = self.words();
        let first = destination / BITS_PER_WORD;
        let last = (destination + len - 1) / BITS_PER_WORD;
        (first as usize..last as usize + 1)
            .into_par_iter()
            .with_min_len(1024)
            .for_each(|w| {
                let mask = items_in_range::<1>(w as u64, &destination_range);
                // Bit b of word w is destination bit w*64+b, whose source bit is
                // that index shifted by (source - destination).
                let word_start = w as u64 * BITS_PER_WORD;
                let incoming = if word_start >= destination {
                    self.bits_at(source + (word_start - destination))
                } else {
                    self.bits_at(source) << (destination - word_start)
                };
                let bits = incoming & mask;
                if bits != 0 {
                    words[w].fetch_or(bits, Relaxed);
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_and_set_and_counts() {
        let table = OneBitTable::scratch("t", 200).unwrap();
        assert!(table.test_and_set(3));
        assert!(!table.test_and_set(3));
        table.set(199);
        table.set(64);
        assert_eq!(table.count_ones(), 3);
        assert_eq!(table.count_in(4..199), 1);
        let mut seen = Vec::new();
        table.for_each_set(0..200, |i| seen.push(i));
        assert_eq!(seen, vec![3, 64, 199]);
        let mut clear = Vec::new();
        table.for_each_clear(60..70, |i| clear.push(i));
        assert_eq!(clear, vec![60, 61, 62, 63, 65, 66, 67, 68, 69]);
    }

    #[test]
    fn or_range_copies_at_any_alignment() {
        for (source, destination, len) in [
            (0u64, 300u64, 200u64),
            (5, 137, 70),
            (260, 3, 130),
            (64, 128, 64),
            (1, 450, 1),
        ] {
            let table = OneBitTable::scratch("t", 600).unwrap();
            let mut state = source * 31 + destination;
            let mut expected = vec![false; 600];
            for i in 0..len {
                state = crate::hash::splitmix64(state);
                if state % 3 == 0 {
                    table.set(source + i);
                    expected[(source + i) as usize] = true;
                    expected[(destination + i) as usize] = true;
                }
            }
            // A bit already set in the destination must stay set.
            table.set(destination + len / 2);
            expected[(destination + len / 2) as usize] = true;
            table.or_range(source, destination, len);
            for (i, &bit) in expected.iter().enumerate() {
                assert_eq!(
                    table.get(i as u64),
                    bit,
                    "bit {i} ({source}->{destination}, {len})"
                );
            }
        }
    }
}
