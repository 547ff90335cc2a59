//! Scans shared by the one- and two-bit tables: a table is a run of u64
//! words holding items of `BITS` bits each; a scan turns every word into a
//! mask with the low bit of each item of interest set, and visits or counts
//! those items.

use std::ops::Range;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

/// The low bit of every `BITS`-bit item of a word.
const fn low_bits_of_items<const BITS: u32>() -> u64 {
    match BITS {
        1 => u64::MAX,
        2 => 0x5555_5555_5555_5555,
        _ => panic!("items of 1 or 2 bits"),
    }
}

/// Values for items that hold 0, written in increasing order of the items
/// (a sweep over a range of a layer): one word's values are gathered and
/// written with one atomic `fetch_or`, not one locked update an item,
/// which stalls the core (a fifth of a Morris opening layer's sweep went
/// to those). Other threads may write the word's other items meanwhile.
/// An item written here must hold 0 until its word is written, or the
/// same value (written twice, it is unchanged). The last word is written
/// by [`flush`](Self::flush) or when the writes are dropped.
pub struct GatheredWrites<'a, const BITS: u32> {
    words: &'a [AtomicU64],
    /// The word being gathered (`usize::MAX` before the first write).
    word: usize,
    bits: u64,
}

impl<'a, const BITS: u32> GatheredWrites<'a, BITS> {
    /// Writes into `words`, of `BITS`-bit items.
    pub(super) fn new(words: &'a [AtomicU64]) -> Self {
        GatheredWrites {
            words,
            word: usize::MAX,
            bits: 0,
        }
    }

    /// Gathers `value` for item `index`, writing the word gathered before
    /// when `index` is past it.
    #[inline(always)]
    pub fn write(&mut self, index: u64, value: u8) {
        let items_per_word = 64 / BITS as u64;
        let word = (index / items_per_word) as usize;
        if word != self.word {
            self.flush();
            self.word = word;
        }
        let value = value as u64 & ((1 << BITS) - 1);
        self.bits |= value << (BITS as u64 * (index % items_per_word));
    }

    /// Writes what is gathered.
    #[inline]
    pub fn flush(&mut self) {
        if self.bits != 0 {
            self.words[self.word].fetch_or(self.bits, Relaxed);
            self.bits = 0;
        }
    }
}

impl<const BITS: u32> Drop for GatheredWrites<'_, BITS> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// Low-bit mask of the items of word `word` that lie inside `range`.
#[inline]
pub(super) fn items_in_range<const BITS: u32>(word: u64, range: &Range<u64>) -> u64 {
    let items_per_word = 64 / BITS as u64;
    let first = word * items_per_word;
    let low = range.start.saturating_sub(first).min(items_per_word);
    let high = range.end.saturating_sub(first).min(items_per_word);
    let upto = |items: u64| {
        if items >= items_per_word {
            u64::MAX
        } else {
            (1u64 << (BITS as u64 * items)) - 1
        }
    };
    upto(high) & !upto(low) & low_bits_of_items::<BITS>()
}

/// Calls `visit(item)` for every item in `range` whose low bit is set in
/// `select(word)` (one relaxed load per word).
#[inline]
pub(super) fn visit_items<const BITS: u32>(
    words: &[AtomicU64],
    range: Range<u64>,
    select: impl Fn(u64) -> u64,
    mut visit: impl FnMut(u64),
) {
    if range.is_empty() {
        return;
    }
    let items_per_word = 64 / BITS as u64;
    for w in range.start / items_per_word..=(range.end - 1) / items_per_word {
        let mut mask = select(words[w as usize].load(Relaxed));
        if mask == 0 {
            continue;
        }
        mask &= items_in_range::<BITS>(w, &range);
        while mask != 0 {
            let bit = mask.trailing_zeros() as u64;
            mask &= mask - 1;
            visit(w * items_per_word + bit / BITS as u64);
        }
    }
}

/// Starts loading `words[word]` into the cache (a hint: it changes
/// nothing, and does nothing off x86-64). The passes prefetch a successor's
/// word when its rank is computed and read it a batch of ranks later.
#[inline(always)]
pub(crate) fn prefetch_word(words: &[AtomicU64], word: usize) {
    prefetch_address(words.as_ptr().wrapping_add(word));
}

/// Starts loading the cache line at `address` (see [`prefetch_word`]).
#[inline(always)]
pub(crate) fn prefetch_address<T>(address: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing into the
    // program, whatever the address (SSE is in every x86-64 CPU).
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(address as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// Number of items in `range` whose low bit is set in `select(word)`,
/// counted in parallel. Only the two end words need masking; the words
/// between are counted whole.
pub(super) fn count_items<const BITS: u32>(
    words: &[AtomicU64],
    range: Range<u64>,
    select: impl Fn(u64) -> u64 + Sync,
) -> u64 {
    if range.is_empty() {
        return 0;
    }
    let items_per_word = 64 / BITS as u64;
    let first = (range.start / items_per_word) as usize;
    let last = ((range.end - 1) / items_per_word) as usize;
    let end_word = |w: usize| {
        (select(words[w].load(Relaxed)) & items_in_range::<BITS>(w as u64, &range)).count_ones()
            as u64
    };
    if first == last {
        return end_word(first);
    }
    let inner: u64 = words[first + 1..last]
        .par_chunks(1 << 14)
        .map(|chunk| {
            chunk
                .iter()
                .map(|w| select(w.load(Relaxed)).count_ones() as u64)
                .sum::<u64>()
        })
        .sum();
    end_word(first) + inner + end_word(last)
}
