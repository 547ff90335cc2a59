//! Which unknown move last kept each position of a layer open, as a byte
//! tag per cell: a candidate is checked again only when the position that
//! was decided is, by its tag, the one that kept it open. A game that
//! counts its moves within a layer has them counted down instead
//! ([`super::move_counts`]), with no checks to save.
//!
//! A position with an unknown move cannot be lost or drawn. A check that
//! finds a position open stops at such a move, to a position x of the same
//! layer (the layers below are solved, so never unknown), and records x's
//! tag. Until x is decided the position stays open whatever else its
//! moves reach; once x is decided, x enters the frontier, reaches the
//! position as a predecessor with a matching tag and makes it a candidate
//! again. A win still decides a predecessor at once, tag or not. Two
//! positions sharing a tag cost a check that was not needed, never a
//! missed one. Nine Men's Morris's layer 11 checked 348 M candidates
//! without tags and 262 M with them (the wall time 0.92–0.97×; the
//! six-stone game's moving phase 0.89×).
//!
//! A check saved may have found a move decided earlier in its own pass,
//! so a position can be decided a pass later than without tags: the
//! values are the same, the passes and positions examined may differ.
//!
//! Tag 0 means no open move is known (never checked, or checked on another
//! process): such a position is a candidate whenever one of its moves is
//! decided, as without tags.
//!
//! The tags are also watched from the other side, as a SAT solver watches
//! literals: a bit a cell says that some position recorded it as its open
//! move. A decided position that does not win for its predecessors'
//! mover can only make candidates of the positions it kept open, so when
//! no position named it, its predecessors need not be generated (each is a
//! rank) at all. That holds only while every open position has a tag:
//! pass 0 records one for every position it leaves open, the positions
//! that looked only at the layers below included (their first move within
//! the layer), and the first open position left without one (a game that
//! did not name that move) turns the watches off for the rest of the
//! layer. A watch is never cleared: a position that moved its tag on may
//! leave it set, which costs a propagation, never a missed check.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64};

use crate::table::prefetch_address;
use crate::table::storage::available_memory;

/// A byte per cell of the layer being solved.
pub struct OpenMoveTags {
    /// Plain heap memory, on 4 KiB pages: the tables' huge pages
    /// (`WordStorage`) made Nine Men's Morris's layer 12 no faster (209 s
    /// against 190 s, one pair).
    tags: Box<[AtomicU8]>,
    /// A bit a cell: some position recorded it as its open move.
    watched: Box<[AtomicU64]>,
    /// Every open position has a tag, so an unwatched decision that does
    /// not win for its predecessors reaches no candidate.
    watches_hold: AtomicBool,
}

/// The tags take a byte a cell beside the layer's values and the layer
/// below: only when that leaves this share of the available memory free.
const MEMORY_SHARE_LEFT: u64 = 4;

impl OpenMoveTags {
    /// Tags for `cells` cells, all 0, and no watches; `None` when they and
    /// the passes' bit tables (allocated but not yet touched, so not yet
    /// missing from the available memory) would not leave a quarter of it
    /// free. The passes then run without tags, checking more candidates.
    pub fn new(cells: u64) -> Option<Self> {
        // A byte and a bit a cell, and the passes' three bits.
        let needed = cells + cells / 8 + cells / 2;
        if available_memory().is_some_and(|free| needed > free - free / MEMORY_SHARE_LEFT) {
            return None;
        }
        let tags = zeroed_bytes(cells)?;
        let words = usize::try_from(cells.div_ceil(64)).ok()?;
        let watched = (0..words).map(|_| AtomicU64::new(0)).collect();
        Some(OpenMoveTags {
            tags,
            watched,
            watches_hold: AtomicBool::new(true),
        })
    }

    /// The tag of the position at `cell`: 1..=255, spread by a
    /// multiplicative hash so that neighbouring ranks differ.
    #[inline(always)]
    pub fn tag_of(cell: u64) -> u8 {
        ((cell.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8).max(1)
    }

    /// Records that the position at `cell` is open through a move to the
    /// position at `open`, which is then watched.
    #[inline(always)]
    pub fn record(&self, cell: u64, open: u64) {
        self.tags[cell as usize].store(Self::tag_of(open), Relaxed);
        self.watch(open);
    }

    /// [`record`](Self::record), with the watch set later by `pending`
    /// (its word prefetched now). A check's open move is a far cell, and
    /// its watch, read and set at once, waited on a cache miss: deferred,
    /// the later passes of Nine Men's Morris's layer 11 took 0.91–0.94×.
    /// Pass 0, which names the moves of its positions in order, kept
    /// [`record`](Self::record): deferring there, with its captures
    /// prefetched and (2026-12-03) alone, made it no faster.
    #[inline(always)]
    pub fn record_deferred(&self, cell: u64, open: u64, pending: &mut PendingWatches) {
        self.tags[cell as usize].store(Self::tag_of(open), Relaxed);
        self.prefetch_watch(open);
        pending.cells.push(open);
        if pending.cells.len() == PendingWatches::BATCH {
            pending.flush(self);
        }
    }

    #[inline(always)]
    fn watch(&self, open: u64) {
        let word = &self.watched[(open / 64) as usize];
        let bit = 1u64 << (open % 64);
        // Read first: most watched cells are named again and again, and a
        // write would take their cache line from the other threads.
        if word.load(Relaxed) & bit == 0 {
            word.fetch_or(bit, Relaxed);
        }
    }

    /// Records that the position at `cell` is open without knowing through
    /// which move: it keeps tag 0 (a candidate on any decided move), and
    /// the watches no longer hold for the layer.
    #[cold]
    pub fn record_unknown(&self, cell: u64) {
        self.tags[cell as usize].store(0, Relaxed);
        self.watches_hold.store(false, Relaxed);
    }

    /// Whether a decision at `cell` that does not win for its predecessors'
    /// mover may make a candidate of one of them: when some position
    /// recorded it as its open move, or the watches do not hold. Read in
    /// the pass after the records (the passes are the barrier).
    #[inline(always)]
    pub fn may_reopen(&self, cell: u64) -> bool {
        !self.watches_hold.load(Relaxed)
            || self.watched[(cell / 64) as usize].load(Relaxed) & (1 << (cell % 64)) != 0
    }

    /// Whether the decision of a position tagged `decided` (0: not known)
    /// may settle its predecessor at `cell` (as a loss or a draw): when
    /// no open move of it is known, or the known one may be that position.
    #[inline(always)]
    pub fn may_settle(&self, cell: u64, decided: u8) -> bool {
        let tag = self.tags[cell as usize].load(Relaxed);
        decided == 0 || tag == 0 || tag == decided
    }

    /// Starts loading the watch bit of `cell` into the cache.
    #[inline(always)]
    pub fn prefetch_watch(&self, cell: u64) {
        prefetch_address(self.watched.as_ptr().wrapping_add((cell / 64) as usize));
    }

    /// Starts loading the tag of `cell` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, cell: u64) {
        prefetch_address(self.tags.as_ptr().wrapping_add(cell as usize));
    }
}

/// `cells` atomic bytes, all 0: zeroed pages from the allocator, touched
/// only where written. `None` past the address space.
pub fn zeroed_bytes(cells: u64) -> Option<Box<[AtomicU8]>> {
    let zeroes = vec![0u8; usize::try_from(cells).ok()?].into_boxed_slice();
    let len = zeroes.len();
    let bytes = Box::into_raw(zeroes) as *mut AtomicU8;
    // SAFETY: `AtomicU8` has the size, alignment and bit validity of `u8`,
    // so the allocation is a valid `[AtomicU8]` of the same length.
    Some(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(bytes, len)) })
}

/// Watches recorded but not yet set ([`OpenMoveTags::record_deferred`]),
/// a worker's own. They are read only in the pass after the one that
/// records them, so each unit of work flushes its own before it ends.
#[derive(Default)]
pub struct PendingWatches {
    cells: Vec<u64>,
}

impl PendingWatches {
    /// Watches held before they are set: enough for their prefetches to
    /// land first.
    const BATCH: usize = 32;

    /// Sets every pending watch.
    pub fn flush(&mut self, tags: &OpenMoveTags) {
        for open in self.cells.drain(..) {
            tags.watch(open);
        }
    }
}

impl Drop for PendingWatches {
    fn drop(&mut self) {
        // A watch lost would leave a position open for ever: a wrong draw.
        debug_assert!(
            self.cells.is_empty() || std::thread::panicking(),
            "pending watches dropped unset"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_settled_only_through_its_open_move_or_when_none_is_known() {
        let tags = OpenMoveTags::new(1000).unwrap();
        assert!(tags.may_settle(7, OpenMoveTags::tag_of(123)));
        assert!(tags.may_settle(7, 0));
        tags.record(7, 500);
        assert!(tags.may_settle(7, OpenMoveTags::tag_of(500)));
        // Another position, of another tag, leaves it open.
        let other = (0..1000)
            .find(|&c| OpenMoveTags::tag_of(c) != OpenMoveTags::tag_of(500))
            .unwrap();
        assert!(!tags.may_settle(7, OpenMoveTags::tag_of(other)));
        // A decision whose tag is not known may settle anything.
        assert!(tags.may_settle(7, 0));
        // Tags are never 0 and spread over the byte.
        let seen: std::collections::HashSet<u8> = (0..100_000).map(OpenMoveTags::tag_of).collect();
        assert!(!seen.contains(&0));
        assert!(seen.len() > 250, "{}", seen.len());
    }

    #[test]
    fn only_a_recorded_open_move_is_watched_until_a_position_is_left_untagged() {
        let tags = OpenMoveTags::new(1000).unwrap();
        assert!((0..1000).all(|cell| !tags.may_reopen(cell)));
        tags.record(7, 500);
        tags.record(8, 500);
        tags.record(9, 63);
        tags.record(10, 64);
        let watched: Vec<u64> = (0..1000).filter(|&c| tags.may_reopen(c)).collect();
        assert_eq!(watched, [63, 64, 500]);
        // A position moving its tag on leaves the old watch set.
        tags.record(7, 999);
        assert!(tags.may_reopen(500) && tags.may_reopen(999));
        // A deferred record tags at once and watches once flushed, or once
        // a batch of them is pending.
        let mut pending = PendingWatches::default();
        tags.record_deferred(20, 700, &mut pending);
        assert!(tags.may_settle(20, OpenMoveTags::tag_of(700)));
        assert!(!tags.may_reopen(700));
        pending.flush(&tags);
        assert!(tags.may_reopen(700));
        let batch: Vec<u64> = (800..800 + PendingWatches::BATCH as u64).collect();
        for &open in &batch {
            tags.record_deferred(21, open, &mut pending);
        }
        assert!(batch.iter().all(|&cell| tags.may_reopen(cell)));
        // An open position without a known move: every decision may reopen.
        tags.record_unknown(11);
        assert!(tags.may_settle(11, OpenMoveTags::tag_of(3)));
        assert!((0..1000).all(|cell| tags.may_reopen(cell)));
    }
}
