//! What a kit game's rules work on: a [`Position`] (a piece or nothing on
//! each cell, stones in hand, the side to move), the [`Piece`] kinds that
//! stand on cells, and [`Moves`], the sink a game's move generator writes
//! its moves into as edits of the board.

use crate::games::board::MAX_CELLS;
use crate::space::Player;

/// A kind of piece: the symbol that writes it and the side it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its letter in a position's text ('B', 'W', 'V'); read in either case.
    pub symbol: char,
    /// The side that moves it.
    pub side: Player,
}

/// One kind of piece a side, the first player's written `first`, the
/// second's `second`: the pieces of most games.
pub const fn one_kind_a_side(first: char, second: char) -> [Piece; 2] {
    [
        Piece {
            symbol: first,
            side: Player::First,
        },
        Piece {
            symbol: second,
            side: Player::Second,
        },
    ]
}

/// A position of a kit game. Cell `c` holds `0` (empty) or `k + 1`, a
/// piece of kind `k` of the game's [`PIECES`](super::BoardGame::PIECES);
/// each side may hold stones in hand (games with a placing phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    cells: [u8; MAX_CELLS],
    hand: [u8; 2],
    to_move: Player,
}

/// What a cell holds: nothing, or a piece of the kind given.
pub const EMPTY: u8 = 0;

impl Position {
    /// Every cell empty, nothing in hand, `to_move` to move.
    pub fn empty(to_move: Player) -> Self {
        Position {
            cells: [EMPTY; MAX_CELLS],
            hand: [0; 2],
            to_move,
        }
    }

    /// What cell `cell` holds: [`EMPTY`] or a kind's number plus one.
    #[inline(always)]
    pub fn at(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Whether cell `cell` is empty.
    #[inline(always)]
    pub fn is_empty(&self, cell: usize) -> bool {
        self.cells[cell] == EMPTY
    }

    /// Puts `what` ([`EMPTY`], or kind `k` as `k + 1`) on cell `cell`.
    #[inline(always)]
    pub fn set(&mut self, cell: usize, what: u8) {
        self.cells[cell] = what;
    }

    /// The piece on `from` moved to `to` (which it replaces).
    #[inline(always)]
    pub fn relocate(&mut self, from: usize, to: usize) {
        self.cells[to] = self.cells[from];
        self.cells[from] = EMPTY;
    }

    /// The first `n` cells, as the colour-set hash ranks them.
    #[inline(always)]
    pub fn cells(&self, n: usize) -> &[u8] {
        &self.cells[..n]
    }

    /// Cells `8 * word` to `8 * word + 7` as one little-endian word (the
    /// cells past the board's are empty).
    #[inline(always)]
    pub fn cell_word(&self, word: usize) -> u64 {
        let bytes: [u8; 8] = self.cells[8 * word..8 * word + 8]
            .try_into()
            .expect("eight cells");
        u64::from_le_bytes(bytes)
    }

    /// The cells among the first `n` that hold `what`, as a mask: eight
    /// cells compared at a time.
    #[inline(always)]
    pub fn cells_holding(&self, what: u8, n: usize) -> u64 {
        let mut mask = 0u64;
        for word in 0..n.div_ceil(8) {
            mask |= bytes_equal_mask(self.cell_word(word), what) << (8 * word);
        }
        if n < 64 { mask & ((1 << n) - 1) } else { mask }
    }

    /// Whether the cells among the first `n` holding `what` cover one of
    /// `patterns` (masks of cells): a line made, for games won by one.
    #[inline]
    pub fn fills_any(&self, what: u8, n: usize, patterns: &[u32]) -> bool {
        let held = self.cells_holding(what, n);
        patterns
            .iter()
            .any(|&pattern| u64::from(pattern) & !held == 0)
    }

    /// The first `n` cells, to write.
    #[inline(always)]
    pub fn cells_mut(&mut self, n: usize) -> &mut [u8] {
        &mut self.cells[..n]
    }

    /// Stones `side` holds in hand.
    #[inline(always)]
    pub fn hand(&self, side: Player) -> u8 {
        self.hand[side as usize]
    }

    /// Sets the stones `side` holds in hand.
    #[inline(always)]
    pub fn set_hand(&mut self, side: Player, stones: u8) {
        self.hand[side as usize] = stones;
    }

    /// The side to move.
    #[inline(always)]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Sets the side to move.
    #[inline(always)]
    pub fn set_to_move(&mut self, side: Player) {
        self.to_move = side;
    }
}

/// The bytes of `word` equal to `value`, as eight bits (bit i for byte
/// i). Each byte of `word ^ value` that is zero gets its top bit set,
/// exactly (no borrow crosses bytes); the multiply gathers the eight top
/// bits into the top byte, every partial product on a bit of its own.
#[inline(always)]
pub(super) fn bytes_equal_mask(word: u64, value: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = word ^ (u64::from(value) * 0x0101_0101_0101_0101);
    let zero_tops = !(((x & LOW7) + LOW7) | x | LOW7);
    ((zero_tops >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// A game's verdict on a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Neither side wins.
    Draw,
}

/// Where a game's move generator puts its moves: each is the position it
/// moves from, edited, with the other side to move. A sink may ask to stop
/// (a solver that has seen enough); [`stopped`](Self::stopped) tells the
/// generator so that it can return early, and later moves are dropped.
pub struct Moves<'a> {
    from: &'a Position,
    emit: &'a mut dyn FnMut(&Position) -> bool,
    stopped: bool,
}

impl<'a> Moves<'a> {
    /// A sink for the moves from `from` that hands each to `emit` until it
    /// returns false.
    pub fn new(from: &'a Position, emit: &'a mut dyn FnMut(&Position) -> bool) -> Self {
        Moves {
            from,
            emit,
            stopped: false,
        }
    }

    /// The position the moves start from.
    #[inline(always)]
    pub fn from(&self) -> &Position {
        self.from
    }

    /// A move: the position edited by `edit` (applied to a copy, the side
    /// to move already handed over).
    #[inline(always)]
    pub fn edit(&mut self, edit: impl FnOnce(&mut Position)) {
        if self.stopped {
            return;
        }
        let mut next = *self.from;
        next.to_move = self.from.to_move.opponent();
        edit(&mut next);
        self.stopped = !(self.emit)(&next);
    }

    /// A move of the piece on `from` to the cell `to`.
    #[inline(always)]
    pub fn step(&mut self, from: usize, to: usize) {
        self.edit(|next| next.relocate(from, to));
    }

    /// Whether the sink asked to stop: the generator may return.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_found_by_value_a_word_at_a_time() {
        let word = u64::from_le_bytes([0, 1, 2, 1, 255, 128, 1, 0]);
        assert_eq!(bytes_equal_mask(word, 0), 0b1000_0001);
        assert_eq!(bytes_equal_mask(word, 1), 0b0100_1010);
        assert_eq!(bytes_equal_mask(word, 2), 0b0000_0100);
        assert_eq!(bytes_equal_mask(word, 128), 0b0010_0000);
        assert_eq!(bytes_equal_mask(word, 255), 0b0001_0000);
        assert_eq!(bytes_equal_mask(word, 3), 0);
    }

    #[test]
    fn the_cells_holding_a_kind_are_its_cells() {
        let mut position = Position::empty(Player::First);
        for cell in [0, 7, 8, 24, 63] {
            position.set(cell, 2);
        }
        position.set(9, 1);
        assert_eq!(position.cells_holding(2, 25), 1 | 1 << 7 | 1 << 8 | 1 << 24);
        assert_eq!(
            position.cells_holding(2, 64),
            1 | 1 << 7 | 1 << 8 | 1 << 24 | 1 << 63
        );
        assert_eq!(position.cells_holding(1, 25), 1 << 9);
        assert_eq!(position.cells_holding(EMPTY, 10), 0b00_0111_1110);
    }
}
