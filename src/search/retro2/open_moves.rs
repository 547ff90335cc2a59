//! Which unknown move last kept each position of a layer open, as a byte
//! tag per cell: a candidate is checked again only when the position that
//! was decided is, by its tag, the one that kept it open.
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

use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::Relaxed;

use crate::table::prefetch_address;
use crate::table::storage::available_memory;

/// A byte per cell of the layer being solved.
pub struct OpenMoveTags {
    /// Plain heap memory, on 4 KiB pages: the tables' huge pages
    /// (`WordStorage`) made Nine Men's Morris's layer 12 no faster (209 s
    /// against 190 s, one pair).
    tags: Box<[AtomicU8]>,
}

/// The tags take a byte a cell beside the layer's values and the layer
/// below: only when that leaves this share of the available memory free.
const MEMORY_SHARE_LEFT: u64 = 4;

impl OpenMoveTags {
    /// Tags for `cells` cells, all 0; `None` when they and the passes' bit
    /// tables (allocated but not yet touched, so not yet missing from the
    /// available memory) would not leave a quarter of it free. The passes
    /// then run without tags, checking more candidates.
    pub fn new(cells: u64) -> Option<Self> {
        let needed = cells + cells / 2;
        if available_memory().is_some_and(|free| needed > free - free / MEMORY_SHARE_LEFT) {
            return None;
        }
        // Zeroed pages from the allocator, touched only where written.
        let zeroes = vec![0u8; usize::try_from(cells).ok()?].into_boxed_slice();
        let len = zeroes.len();
        let bytes = Box::into_raw(zeroes) as *mut AtomicU8;
        // SAFETY: `AtomicU8` has the size, alignment and bit validity of
        // `u8`, so the allocation is a valid `[AtomicU8]` of the same length.
        let tags = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(bytes, len)) };
        Some(OpenMoveTags { tags })
    }

    /// The tag of the position at `cell`: 1..=255, spread by a
    /// multiplicative hash so that neighbouring ranks differ.
    #[inline(always)]
    pub fn tag_of(cell: u64) -> u8 {
        ((cell.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8).max(1)
    }

    /// Records that the position at `cell` is open through a move to the
    /// position at `open`.
    #[inline(always)]
    pub fn record(&self, cell: u64, open: u64) {
        self.tags[cell as usize].store(Self::tag_of(open), Relaxed);
    }

    /// Whether the decision of a position tagged `decided` (0: not known)
    /// may settle its predecessor at `cell` (as a loss or a draw): when
    /// no open move of it is known, or the known one may be that position.
    #[inline(always)]
    pub fn may_settle(&self, cell: u64, decided: u8) -> bool {
        let tag = self.tags[cell as usize].load(Relaxed);
        decided == 0 || tag == 0 || tag == decided
    }

    /// Starts loading the tag of `cell` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, cell: u64) {
        prefetch_address(self.tags.as_ptr().wrapping_add(cell as usize));
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
}
