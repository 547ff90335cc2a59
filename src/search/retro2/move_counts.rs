//! Each open position's moves within its layer, counted down as the
//! positions they reach are decided won for the opponent: the last one
//! decides it lost then and there, and it is never checked again.
//!
//! This is the classical form of retrograde analysis (a counter a
//! position, as in Gasser, *Solving Nine Men's Morris*, 1996), beside the
//! passes' own: a frontier position that does not win for its predecessors makes
//! them candidates, each judged again from all its moves (an unrank, and
//! a rank and a random read for each move up to the first open one).
//! Those checks were 60 % of Nine Men's Morris's later passes on layer 11
//! (2026-12-03); a count costs a byte a cell, as the open-move tags did,
//! which it replaces.
//!
//! Pass 0 counts, for each position it leaves open, how many times the
//! predecessors of the layer's positions will name it
//! ([`MoveShortcuts::moves_within_count`](crate::space::MoveShortcuts::moves_within_count)):
//! a move within the layer each, weighed under symmetry reduction. Every
//! position decided from then on enters a frontier once and reaches each
//! of its predecessors once per such naming, so a count reaches 0 exactly
//! when every move within the layer has been decided lost for the mover.
//! A draw reached is never counted down, and a position with a drawing
//! move to the layers below is never counted at all ([`CANNOT_LOSE`]):
//! neither can lose, and both end as draws unless a move wins.
//!
//! A resumed layer counts afresh: its pass 0 puts every position decided
//! before the stop into the frontier, so each is counted down once again.
//! A count that does not fit a byte ([`UNCOUNTED`]) leaves its position
//! to the checks, as does a layer without room for the counts.

use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::Relaxed;

use super::open_moves::zeroed_bytes;
use crate::table::prefetch_address;
use crate::table::storage::available_memory;

/// Not counted: the position is checked again (a candidate) when a move
/// of it is decided, as without counts.
pub const UNCOUNTED: u8 = 0;

/// The position has a move that draws: it is never lost, so decisions of
/// its other moves need not reach it unless they win for it.
pub const CANNOT_LOSE: u8 = u8::MAX;

/// A byte per cell of the layer being solved.
pub struct MoveCounts {
    /// Plain heap memory, zeroed pages touched only where written.
    counts: Box<[AtomicU8]>,
}

/// The counts take a byte a cell beside the layer's values and the layer
/// below: only when that leaves this share of the available memory free
/// (as the open-move tags did).
const MEMORY_SHARE_LEFT: u64 = 4;

/// What a decided move does to a counted position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountedDown {
    /// Its last move within the layer: the position is lost.
    Lost,
    /// Moves are left, or it cannot lose.
    Open,
    /// Not counted: judge it from its moves.
    Check,
}

impl MoveCounts {
    /// Counts for `cells` cells, all [`UNCOUNTED`]; `None` when they and
    /// the passes' bit tables would not leave a quarter of the available
    /// memory free. The passes then check candidates.
    pub fn new(cells: u64) -> Option<Self> {
        // A byte a cell, and the passes' three bits.
        let needed = cells + cells / 2;
        if available_memory().is_some_and(|free| needed > free - free / MEMORY_SHARE_LEFT) {
            return None;
        }
        Some(MoveCounts {
            counts: zeroed_bytes(cells)?,
        })
    }

    /// Records the count of the open position at `cell`: `moves` namings
    /// by predecessors, or [`CANNOT_LOSE`] when it has a drawing move.
    /// A count past a byte leaves it [`UNCOUNTED`].
    #[inline(always)]
    pub fn record(&self, cell: u64, moves: u32, can_lose: bool) {
        let count = match (can_lose, u8::try_from(moves)) {
            (false, _) => CANNOT_LOSE,
            (true, Ok(count)) if count != CANNOT_LOSE && count != UNCOUNTED => count,
            _ => UNCOUNTED,
        };
        self.counts[cell as usize].store(count, Relaxed);
    }

    /// Whether a move of the position at `cell`, decided lost for its
    /// mover (or drawn, `drawn`), may change it.
    #[inline(always)]
    pub fn may_change(&self, cell: u64, drawn: bool) -> bool {
        match self.counts[cell as usize].load(Relaxed) {
            UNCOUNTED => true,
            CANNOT_LOSE => false,
            _ => !drawn,
        }
    }

    /// A move of the position at `cell` has been decided lost for its
    /// mover (or drawn, `drawn`): counted down, what that leaves.
    #[inline(always)]
    pub fn count_down(&self, cell: u64, drawn: bool) -> CountedDown {
        let count = &self.counts[cell as usize];
        match count.load(Relaxed) {
            UNCOUNTED => CountedDown::Check,
            CANNOT_LOSE => CountedDown::Open,
            _ if drawn => CountedDown::Open,
            _ => match count.fetch_sub(1, Relaxed) {
                1 => CountedDown::Lost,
                // Each naming counts down once, so a counted position never
                // goes below 1 before its last.
                left => {
                    debug_assert!(left > 1 && left != CANNOT_LOSE, "count {left} at {cell}");
                    CountedDown::Open
                }
            },
        }
    }

    /// Starts loading the count of `cell` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, cell: u64) {
        prefetch_address(self.counts.as_ptr().wrapping_add(cell as usize));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_decides_at_its_last_move_and_only_losses_count() {
        let counts = MoveCounts::new(8).unwrap();
        counts.record(0, 3, true);
        counts.record(1, 2, false);
        counts.record(2, 300, true);
        counts.record(3, 255, true);
        assert!(counts.may_change(0, false) && !counts.may_change(0, true));
        // A draw reached leaves the count.
        assert_eq!(counts.count_down(0, true), CountedDown::Open);
        assert_eq!(counts.count_down(0, false), CountedDown::Open);
        assert_eq!(counts.count_down(0, false), CountedDown::Open);
        assert_eq!(counts.count_down(0, false), CountedDown::Lost);
        // A drawing move: never lost.
        assert!(!counts.may_change(1, false));
        for _ in 0..4 {
            assert_eq!(counts.count_down(1, false), CountedDown::Open);
        }
        // Past a byte, and the two marks' own values: judged from moves.
        for cell in [2, 3, 4] {
            assert!(counts.may_change(cell, true));
            assert_eq!(counts.count_down(cell, false), CountedDown::Check);
        }
    }
}
