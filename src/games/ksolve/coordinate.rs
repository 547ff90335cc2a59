//! One coordinate of a puzzle's hash: what its value encodes (an orbit's
//! arrangement or orientations, or the parity of the moves made), how a
//! value is read from a position and written back, and how each move
//! changes it, by its move table or computed from the decoded slots.

use super::definition::{self, SetState};
use super::split::SplitTables;
use crate::hash::colour_sets::{ColourSetRanker, MAX_COLOUR_CELLS};
use crate::hash::prefix_lehmer;

/// The value of a permutation coordinate with `half` = n!/2 (0 for n < 2):
/// the prefix Lehmer rank with its weight-1 digit (which the other digits'
/// parity and the permutation's parity decide) moved to the top, weight
/// n!/2. So `value mod n!/2` is the folded rank and adding n!/2 flips the
/// parity, as Myrvold–Ruskey's top digit does; the Lehmer digits come from
/// independent population counts where Myrvold–Ruskey's swaps form one
/// chain of dependent loads (the Dino Cube's 12 pieces, 16 moves a state,
/// one thread: 85 s with Myrvold–Ruskey, 44.9 s with this).
///
/// `cells` lists each slot's piece. With `by_piece` the rank is that of the
/// inverse, each piece's slot (see [`Coordinate::by_piece`]).
#[inline(always)]
fn permutation_value(cells: &[u8], half: u64, by_piece: bool) -> u64 {
    let rank = if by_piece {
        let mut slots = [0u8; definition::MAX_PIECES];
        let slots = &mut slots[..cells.len()];
        invert(cells, slots);
        prefix_lehmer::rank(slots)
    } else {
        prefix_lehmer::rank(cells)
    };
    if half == 0 {
        return rank;
    }
    (rank & 1) * half + (rank >> 1)
}

/// The permutation of a permutation coordinate's value (the inverse of
/// `permutation_value`): each slot's piece into `cells`.
#[inline(always)]
pub(super) fn permutation_cells(value: u64, half: u64, by_piece: bool, cells: &mut [u8]) {
    let rank = permutation_rank(value, half);
    if by_piece {
        let mut slots = [0u8; definition::MAX_PIECES];
        let slots = &mut slots[..cells.len()];
        prefix_lehmer::unrank(rank, slots);
        invert(slots, cells);
    } else {
        prefix_lehmer::unrank(rank, cells);
    }
}

/// `inverse[perm[i]] = i`.
#[inline(always)]
fn invert(perm: &[u8], inverse: &mut [u8]) {
    for (i, &p) in perm.iter().enumerate() {
        inverse[p as usize] = i as u8;
    }
}

/// The prefix Lehmer rank of a permutation coordinate's value.
#[inline(always)]
fn permutation_rank(value: u64, half: u64) -> u64 {
    if half == 0 {
        value
    } else {
        ((value % half) << 1) | (value / half)
    }
}

/// What a coordinate's value encodes.
#[derive(Clone, Debug)]
pub enum Kind {
    /// Distinct pieces: the rank of the slot -> piece permutation
    /// (`permutation_value`; pieces numbered by their order among the
    /// orbit's).
    Permutation,
    /// Pieces that look alike: the multinomial rank (nested colour sets)
    /// of each slot's colour.
    Multiset(ColourSetRanker),
    /// Each slot's orientation as a base-`orientations` digit, the first
    /// slot's the most significant; with `implied_sum`, the last slot's
    /// digit is left out and makes the sum that value (mod orientations).
    Orientation {
        /// The number of orientations each piece has.
        orientations: u8,
        /// The orientation sum every move keeps (mod `orientations`), if any.
        implied_sum: Option<u8>,
    },
    /// The parity of the number of moves made (0 or 1), when every move
    /// changes a sum of permutation parities: the most significant digit,
    /// so the two halves of the index are the even and odd BFS layers and
    /// the one-bit BFS can run (a move-alternation property, Definition 10
    /// of Edelkamp et al.). One permutation coordinate's parity then
    /// follows from it.
    Alternation,
}

/// How a permutation coordinate's parity is known in the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parity {
    /// Free: the index holds the full rank.
    Free,
    /// Follows from others: the parity is `solved` xor the changes
    /// (relative to solved) of the listed free coordinates, and the index
    /// holds the folded rank.
    Follows {
        /// The parity of the solved state's arrangement.
        solved: bool,
        /// The free coordinates (indices among the coordinates) whose changes it follows.
        from: Vec<usize>,
    },
}

/// One coordinate of the hash: the arrangement or orientations of one orbit's slots, or the
/// parity of the number of moves made.
#[derive(Clone, Debug)]
pub struct Coordinate {
    /// The set (index into the definition's sets) whose orbit it covers; 0 for
    /// [`Kind::Alternation`].
    pub set: usize,
    /// The orbit's slots, ascending.
    pub slots: Vec<usize>,
    /// What the value encodes.
    pub kind: Kind,
    /// How many values the coordinate takes.
    pub values: u64,
    /// How many values its digit in the index takes (half `values` when
    /// the parity follows from others).
    pub radix: u64,
    /// How the coordinate's parity is known in the index.
    pub parity: Parity,
    /// The parity of the solved state's arrangement (permutations only).
    pub solved_parity: bool,
    /// For each orbit piece label (the set's 0-based label), its colour or
    /// its number among the orbit's pieces.
    pub code_of_label: Vec<u8>,
    /// The labels back from codes.
    pub label_of_code: Vec<u8>,
    /// Per move: slot `i` of the orbit takes the piece of orbit slot
    /// `from[i]` and its orientation grows by `twist[i]`.
    pub moves: Vec<LocalMove>,
    /// `table[v * moves + m]`: the index digit of the value after move `m`
    /// (folded already), when small enough. A value's moves lie side by
    /// side, so a state's expansion reads one row per coordinate.
    pub table: Option<Vec<u32>>,
    /// The parity of each value, for permutation coordinates with a table.
    pub parities: Option<Vec<u64>>,
    /// A permutation too large for a move table ranks where each piece
    /// lies (the inverse permutation) rather than which piece each slot
    /// holds: then a move sends each piece's slot to a slot of its own,
    /// and the rank's high digits (the slots of the last pieces) move by
    /// themselves, which [`SplitTables`] tabulates.
    pub by_piece: bool,
    /// The tables that move such a permutation's value in runs, when it
    /// is the index's last digit (see [`super::split`]).
    pub split: Option<SplitTables>,
}

/// One move's action on an orbit, in the orbit's slot numbers.
#[derive(Clone, Debug)]
pub struct LocalMove {
    /// Orbit slot `i` takes the piece of orbit slot `from[i]`.
    pub from: Vec<u8>,
    /// The orientation the piece arriving in orbit slot `i` gains.
    pub twist: Vec<u8>,
}

impl LocalMove {
    /// Where the move sends the piece in each orbit slot: the slot that
    /// takes from it (the inverse of `from`).
    pub fn destinations(&self) -> Vec<u8> {
        let mut to = vec![0u8; self.from.len()];
        for (slot, &from) in self.from.iter().enumerate() {
            to[from as usize] = slot as u8;
        }
        to
    }
}

impl Coordinate {
    /// The coordinate's value in `state` (its set's part).
    pub fn value_of(&self, part: &SetState, scratch: &mut [u8]) -> u64 {
        let cells = &mut scratch[..self.slots.len()];
        match &self.kind {
            Kind::Permutation => {
                for (cell, &slot) in cells.iter_mut().zip(&self.slots) {
                    *cell = self.code_of_label[part.labels[slot] as usize];
                }
                permutation_value(cells, self.values / 2, self.by_piece)
            }
            Kind::Multiset(ranker) => {
                for (cell, &slot) in cells.iter_mut().zip(&self.slots) {
                    *cell = self.code_of_label[part.labels[slot] as usize];
                }
                ranker.rank(cells)
            }
            Kind::Orientation {
                orientations,
                implied_sum,
            } => {
                let stored = self.slots.len() - implied_sum.is_some() as usize;
                self.slots[..stored].iter().fold(0u64, |v, &slot| {
                    v * *orientations as u64 + part.orientations[slot] as u64
                })
            }
            // Set by Coordinates::values_of_state from the others.
            Kind::Alternation => 0,
        }
    }

    /// Writes value `value` into `part` (its slots only).
    pub fn write(&self, value: u64, part: &mut SetState, scratch: &mut [u8]) {
        let cells = &mut scratch[..self.slots.len()];
        self.decode(value, cells);
        for (&cell, &slot) in cells.iter().zip(&self.slots) {
            match &self.kind {
                Kind::Permutation | Kind::Multiset(_) => {
                    part.labels[slot] = self.label_of_code[cell as usize]
                }
                Kind::Orientation { .. } => part.orientations[slot] = cell,
                Kind::Alternation => {}
            }
        }
    }

    /// The value after move `m`, computed (no table).
    pub fn compute_next(&self, m: usize, value: u64, scratch: &mut [u8]) -> u64 {
        let (cells, moved) = scratch.split_at_mut(self.slots.len());
        self.decode(value, cells);
        self.next_of_decoded(m, value, cells, moved)
    }

    /// Writes the slots' contents of `value` into `cells` (one entry per
    /// slot: a piece code, or an orientation digit), for
    /// `next_of_decoded`. The expansion decodes a table-less coordinate
    /// once per state, not once per move (Dino Cube, 16 moves on a
    /// 12-piece permutation, one thread: 114 s -> 85 s).
    #[inline]
    pub fn decode(&self, value: u64, cells: &mut [u8]) {
        let k = self.slots.len();
        let cells = &mut cells[..k];
        match &self.kind {
            Kind::Permutation => permutation_cells(value, self.values / 2, self.by_piece, cells),
            Kind::Multiset(ranker) => ranker.unrank(value, cells),
            Kind::Orientation {
                orientations,
                implied_sum,
            } => {
                let o = *orientations as u64;
                let stored = k - implied_sum.is_some() as usize;
                let mut rest = value;
                let mut sum = 0u64;
                for cell in cells[..stored].iter_mut().rev() {
                    *cell = (rest % o) as u8;
                    sum += rest % o;
                    rest /= o;
                }
                if let Some(target) = implied_sum {
                    cells[k - 1] = ((*target as u64 + o * 64 - sum % o) % o) as u8;
                }
            }
            Kind::Alternation => {}
        }
    }

    /// The value after move `m` of the value `value` whose slots `decode`
    /// wrote into `cells`; `moved` is scratch of at least the slots' count.
    #[inline]
    pub fn next_of_decoded(&self, m: usize, value: u64, cells: &[u8], moved: &mut [u8]) -> u64 {
        let k = self.slots.len();
        let moved = &mut moved[..k];
        let local = &self.moves[m];
        match &self.kind {
            Kind::Multiset(ranker) => {
                // The moved colours packed eight to a word, each word
                // built in a register (or-ing bytes into the array in
                // memory chains every slot through a store).
                let mut words = [0u64; MAX_COLOUR_CELLS / 8];
                for (word, from) in words.iter_mut().zip(local.from.chunks(8)) {
                    *word = from.iter().enumerate().fold(0u64, |word, (i, &from)| {
                        word | (cells[from as usize] as u64) << (8 * i)
                    });
                }
                ranker.rank_words(&words[..k.div_ceil(8)])
            }
            Kind::Permutation => {
                for (slot, &from) in moved.iter_mut().zip(&local.from) {
                    *slot = cells[from as usize];
                }
                permutation_value(moved, self.values / 2, self.by_piece)
            }
            Kind::Orientation {
                orientations,
                implied_sum,
            } => {
                let o = *orientations as u64;
                let stored = k - implied_sum.is_some() as usize;
                (0..stored).fold(0u64, |v, i| {
                    let from = local.from[i] as usize;
                    v * o + (cells[from] as u64 + local.twist[i] as u64) % o
                })
            }
            Kind::Alternation => 1 - value,
        }
    }

    /// Whether the expansion reads this coordinate's next digits from a
    /// table (else it computes them from the decoded slots).
    pub fn has_table(&self) -> bool {
        self.table.is_some()
    }

    /// The index digit of the value after move `m`.
    #[inline(always)]
    pub fn next_digit(&self, m: usize, value: u64, scratch: &mut [u8]) -> u64 {
        match &self.table {
            Some(table) => table[value as usize * self.moves.len() + m] as u64,
            None => self.digit(self.compute_next(m, value, scratch)),
        }
    }

    /// Whether a permutation coordinate's value is an odd permutation.
    pub fn is_odd_value(&self, value: u64) -> bool {
        match &self.parities {
            Some(bits) => bits[(value / 64) as usize] >> (value % 64) & 1 == 1,
            None => prefix_lehmer::is_odd_rank(
                permutation_rank(value, self.values / 2),
                self.slots.len(),
            ),
        }
    }

    /// The index digit of `value`.
    #[inline(always)]
    pub fn digit(&self, value: u64) -> u64 {
        // A permutation value's top digit has weight n!/2 and follows from
        // the parity: the folded rank is the value modulo n!/2.
        if self.radix == self.values {
            value
        } else {
            value % self.radix
        }
    }

    /// The parity of the solved arrangement, when the coordinate's value
    /// may move in runs ([`SplitTables`], which ask also for more pieces
    /// than a run): a permutation ranked by piece whose parity follows
    /// from no other coordinate's, so that the order's parity follows from
    /// the placement's alone (every move keeps the orbit's parity).
    fn split_parity(&self) -> Option<bool> {
        match &self.parity {
            Parity::Follows { solved, from }
                if matches!(self.kind, Kind::Permutation) && self.by_piece && from.is_empty() =>
            {
                Some(*solved)
            }
            _ => None,
        }
    }

    /// Bytes the coordinate's split tables take, when it can be split
    /// (see [`SplitTables::planned_bytes`]).
    pub fn split_bytes(&self) -> Option<u64> {
        self.split_parity()?;
        SplitTables::planned_bytes(self.slots.len(), self.moves.len())
    }

    /// The coordinate's split tables, when it can be split.
    pub fn split_tables(&self) -> Option<SplitTables> {
        let solved = self.split_parity()?;
        let destinations: Vec<Vec<u8>> = self.moves.iter().map(LocalMove::destinations).collect();
        SplitTables::build(self.slots.len(), &destinations, solved)
    }
}
