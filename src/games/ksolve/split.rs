//! A permutation too large for a move table, moved a run at a time.
//!
//! Such a coordinate ranks where each piece lies (the inverse
//! permutation,
//! [`Coordinate::by_piece`](super::coordinates::Coordinate::by_piece)) by
//! the prefix Lehmer code, whose digit at position `p` depends only on the
//! entry there and the set of entries before it. So the rank divided by `L!` is a function of the
//! last `n - L` pieces' slots alone: their *placement*, which a move
//! changes by itself (each piece goes where the move sends its slot) and
//! a table of `n!/L!` rows holds. The rank modulo `L!` is the order of
//! the first `L` pieces among the slots the placement leaves free, and a
//! move permutes that order by a permutation `pi` of `L` things that the
//! placement and the move decide: the free slots go, in order, to the
//! free slots of the next placement.
//!
//! With the parity folded (every move even on the orbit, as the Dino
//! Cube's 3-cycles), the index digit is `placement * L!/2 + order / 2`,
//! and the order's parity follows from the placement's. The ranks that
//! share a placement form a run of `L!/2` cells (360 for `L = 6`), a run's
//! successors under one move fill one run, and the cell each one reaches
//! is a column of a small table, picked by `pi` and the parity: the scan
//! by runs of [`crate::space::digit_moves`] applies, with no ranking at
//! all (the Dino Cube's twelve edges, 16 moves: see docs/performance.md).

use rayon::prelude::*;

use super::limits::MAX_TABLE_ENTRIES;
use crate::hash::{permutation, prefix_lehmer};

/// The pieces whose order makes a run: 6! / 2 = 360 cells, long enough
/// for the scan by runs, and the columns (1440 of 360 entries) stay in
/// the L2 cache. Column numbers fit 16 bits.
pub const RUN_PIECES: usize = 6;

/// The tables that move a split permutation (see the module's text).
#[derive(Clone, Debug)]
pub struct SplitTables {
    /// Placements of the last `n - RUN_PIECES` pieces: `n! / RUN_PIECES!`.
    pub placements: u64,
    /// Cells a run: the folded orders of the first pieces, `RUN_PIECES!/2`.
    pub run_len: u64,
    /// `next[h * moves + m]`: the placement after move `m` from placement `h`.
    pub next: Vec<u32>,
    /// `pick[h * moves + m]`: the column move `m` takes in a run of
    /// placement `h` (twice the rank of `pi`, plus the parity of the
    /// run's orders).
    pub pick: Vec<u16>,
    /// Column `c` is `columns[c * run_len..(c + 1) * run_len]`: the
    /// folded order after the move from each folded order.
    pub columns: Vec<u32>,
}

/// `n!` of a permutation coordinate's slots (at most 20: it fits).
fn factorial(n: usize) -> u64 {
    permutation::factorial(n).expect("a permutation coordinate has at most 20 slots")
}

impl SplitTables {
    /// Bytes the tables of a permutation of `slots` pieces under `moves`
    /// moves take, when it has more pieces than a run and its tables fit.
    /// Whether a coordinate may be split at all (ranked by piece, the
    /// order's parity following from the placement's alone) is for the
    /// coordinate to say
    /// ([`Coordinate::split_bytes`](super::coordinates::Coordinate::split_bytes)).
    pub fn planned_bytes(slots: usize, moves: usize) -> Option<u64> {
        let n = slots;
        let fits = n > RUN_PIECES;
        let placements = factorial(n) / factorial(RUN_PIECES);
        let moves = moves as u64;
        (fits
            && placements.saturating_mul(moves) <= MAX_TABLE_ENTRIES
            && placements <= u32::MAX as u64)
            .then(|| {
                let columns = 2 * factorial(RUN_PIECES) * (factorial(RUN_PIECES) / 2);
                6 * placements * moves + 4 * columns
            })
    }

    /// The tables of a permutation of `slots` pieces whose moves send the
    /// piece in slot s to slot `destinations[m][s]` (the slot that takes
    /// from s), its parity `solved` in every position (see
    /// [`SplitTables::planned_bytes`]).
    pub fn build(slots: usize, destinations: &[Vec<u8>], solved: bool) -> Option<Self> {
        SplitTables::planned_bytes(slots, destinations.len())?;
        let n = slots;
        let moves = destinations.len();
        let order_len = factorial(RUN_PIECES);
        let placements = factorial(n) / order_len;
        let mut next = vec![0u32; placements as usize * moves];
        let mut pick = vec![0u16; placements as usize * moves];
        next.par_chunks_mut(moves)
            .zip(pick.par_chunks_mut(moves))
            .enumerate()
            .for_each(|(h, (next, pick))| {
                let h = h as u64;
                // The placement with the first pieces in the free slots in
                // increasing order (order rank 0).
                let mut slots = vec![0u8; n];
                prefix_lehmer::unrank(h * order_len, &mut slots);
                // The orders' parity: the whole permutation's (`solved`,
                // which no move changes) less the placement's digits'.
                let odd_orders = solved ^ prefix_lehmer::is_odd_rank(h * order_len, n);
                let mut moved = vec![0u8; n];
                let mut pi = [0u8; RUN_PIECES];
                for ((to, next), pick) in destinations.iter().zip(next).zip(pick) {
                    for (m, &s) in moved.iter_mut().zip(&slots) {
                        *m = to[s as usize];
                    }
                    *next = (prefix_lehmer::rank(&moved) / order_len) as u32;
                    // The free slots went, in order, to these slots; pi
                    // numbers them among the next placement's free slots.
                    let free = &moved[..RUN_PIECES];
                    for (p, &slot) in pi.iter_mut().zip(free) {
                        *p = free.iter().filter(|&&other| other < slot).count() as u8;
                    }
                    *pick = (2 * prefix_lehmer::rank(&pi) + odd_orders as u64) as u16;
                }
            });
        let run_len = order_len / 2;
        let columns = (0..2 * order_len)
            .into_par_iter()
            .flat_map_iter(|column| {
                let mut pi = [0u8; RUN_PIECES];
                prefix_lehmer::unrank(column / 2, &mut pi);
                let odd = column % 2 == 1;
                (0..run_len).map(move |folded| {
                    let mut order = [0u8; RUN_PIECES];
                    prefix_lehmer::unrank_folded(folded, odd, &mut order);
                    let mut after = [0u8; RUN_PIECES];
                    for (a, &o) in after.iter_mut().zip(&order) {
                        *a = pi[o as usize];
                    }
                    prefix_lehmer::rank_folded(&after) as u32
                })
            })
            .collect();
        Some(SplitTables {
            placements,
            run_len,
            next,
            pick,
            columns,
        })
    }

    /// Bytes the tables take.
    pub fn bytes(&self) -> u64 {
        (4 * self.next.len() + 2 * self.pick.len() + 4 * self.columns.len()) as u64
    }
}
