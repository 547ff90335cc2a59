//! Frogs-and-Toads, and Sam Loyd's Fore and Aft as its k = 3 case
//! (sections 5, 6.1 and 7.2 of Edelkamp et al., *Solving Games in Parallel
//! with Linear-Time Perfect Hash Functions* (TZI report 52, Bremen, 2009),
//! Tables 5 and 6).
//!
//! The board is two k x k squares at opposite corners of a (2k-1)^2 grid,
//! overlapping in the centre cell: 2k^2 - 1 cells, k^2 - 1 black and k^2 - 1
//! white pieces, one empty cell. A piece slides orthogonally into the
//! adjacent empty cell, or jumps orthogonally over one adjacent piece (of
//! either colour) into it. Every cell but one holds a piece, so the moves
//! depend on the empty cell alone.
//!
//! Hash: (empty cell) x binomial rank of the black pieces among the other
//! cells; the blocks are the empty cells, and every in-block rank fits a u32
//! up to k = 4 (C(30, 15) = 155,117,520). Moves are reversible, so the
//! two-bit BFS may check parents once few states are unseen.

use super::board::{Board, Mark, ORTHOGONAL};
use super::registration::{GameOptions, OptionSpec, Registered};
use crate::diagram::{Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::hash::{BinomialRanker, BinomialRun};
use crate::kernel::{self, Program};
use crate::space::{Block, MoveFilter, Picture, Space};

/// The GPU expansion of this game (see [`crate::kernel`]).
const FROGS_TOADS_KERNEL: &str = include_str!("frogs_toads.wgsl");

/// Frogs-and-Toads on a board read from a file or built for size k.
#[derive(Clone, Debug)]
pub struct FrogsToads {
    board: Board,
    ranker: BinomialRanker,
    /// Patterns per empty cell: C(cells - 1, black pieces).
    per_empty: u64,
    start: FrogsState,
    /// Cells whose piece can move into each cell when it is the empty one.
    movers: Vec<Vec<usize>>,
}

/// The empty cell and the mask of black pieces; the other cells are white.
/// It also keeps the run of ranks its unrank came from, so that the next
/// rank of a frontier scan, most often in the same run, is unranked with
/// one lookup (issue 11).
#[derive(Clone, Copy, Debug)]
pub struct FrogsState {
    /// The empty cell.
    pub empty: usize,
    /// Cells holding a black piece.
    pub black: u64,
    run: BinomialRun,
}

impl FrogsState {
    /// A position with the empty cell `empty` and black pieces on the cells of `black`.
    pub fn new(empty: usize, black: u64) -> Self {
        FrogsState {
            empty,
            black,
            run: BinomialRun::default(),
        }
    }
}

impl PartialEq for FrogsState {
    fn eq(&self, other: &Self) -> bool {
        (self.empty, self.black) == (other.empty, other.black)
    }
}

impl Eq for FrogsState {}

/// The standard board of size k, drawn in the board-file format.
pub fn standard_board_text(k: usize) -> String {
    let side = 2 * k - 1;
    let mut text = String::new();
    for r in 0..side {
        for c in 0..side {
            let in_first = r < k && c < k;
            let in_second = r >= k - 1 && c >= k - 1;
            text.push(match (in_first, in_second) {
                (true, true) => '_',
                (true, false) => 'b',
                (false, true) => 'w',
                (false, false) => '.',
            });
        }
        text.push('\n');
    }
    text
}

/// Removes bit `empty` from `mask`, closing the gap: the black pieces as a
/// vector over the cells other than the empty one.
#[inline(always)]
fn squeeze(mask: u64, empty: usize) -> u64 {
    let below = (1u64 << empty) - 1;
    (mask & below) | ((mask >> 1) & !below)
}

/// Inverse of [`squeeze`]: reopens the gap at `empty` with a zero.
#[inline(always)]
fn widen(mask: u64, empty: usize) -> u64 {
    let below = (1u64 << empty) - 1;
    (mask & below) | ((mask & !below) << 1)
}

impl FrogsToads {
    /// The standard game for k >= 2 (k = 3 is Fore and Aft).
    pub fn standard(k: usize) -> Result<Self> {
        if !(2..=5).contains(&k) {
            return Err(Error::InvalidParameter(format!(
                "Frogs-and-Toads needs 2 <= k <= 5 (a (2k-1)^2 grid with at most 64 cells), got k = {k}"
            )));
        }
        let text = standard_board_text(k);
        FrogsToads::new(Board::parse(&text, &format!("k={k}"))?)
    }

    /// A game on any board with `b`/`w` pieces and exactly one `_` cell.
    pub fn new(board: Board) -> Result<Self> {
        let n = board.cells();
        let empties: Vec<usize> = (0..n)
            .filter(|&c| board.marks()[c] == Mark::Empty)
            .collect();
        if empties.len() != 1 || board.marks().contains(&Mark::Cell) {
            return Err(Error::InvalidParameter(format!(
                "{}: a Frogs-and-Toads board needs exactly one empty cell '_' and a piece 'b' or 'w' on every other cell",
                board.name()
            )));
        }
        let black = (0..n)
            .filter(|&c| board.marks()[c] == Mark::Black)
            .fold(0u64, |acc, c| acc | 1 << c);
        let ranker = BinomialRanker::new(n - 1, black.count_ones() as usize)?;
        let movers = (0..n)
            .map(|empty| {
                let mut sources = Vec::new();
                for direction in ORTHOGONAL {
                    // A slide from the neighbour, or a jump from two cells
                    // away over the neighbour (every cell but one holds a piece).
                    if let Some(next) = board.step(empty, direction, 1) {
                        sources.push(next);
                        if let Some(far) = board.step(empty, direction, 2) {
                            sources.push(far);
                        }
                    }
                }
                sources
            })
            .collect();
        let per_empty = ranker.size();
        n.checked_mul(per_empty as usize).ok_or_else(|| {
            Error::SpaceTooLarge(format!(
                "{}: too many patterns for a 64-bit rank",
                board.name()
            ))
        })?;
        Ok(FrogsToads {
            start: FrogsState::new(empties[0], black),
            board,
            ranker,
            per_empty,
            movers,
        })
    }

    /// The board the game is played on.
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline(always)]
    fn rank_of(&self, empty: usize, black: u64) -> u64 {
        empty as u64 * self.per_empty + self.ranker.rank(squeeze(black, empty))
    }

    /// The cells whose piece can move into `empty` when it is the empty
    /// cell: the move table the CPU expansion and the GPU kernel share.
    pub fn movers(&self, empty: usize) -> &[usize] {
        &self.movers[empty]
    }

    /// The number of black pieces (as many as white ones on the standard boards).
    pub fn black_pieces(&self) -> usize {
        self.ranker.ones()
    }

    /// The position the board file gives.
    pub fn start(&self) -> FrogsState {
        self.start
    }

    /// The start with black and white exchanged: the goal of the puzzle.
    pub fn reversed(&self) -> FrogsState {
        // A board may have all 64 cells.
        let all = u64::MAX >> (64 - self.board.cells());
        FrogsState::new(
            self.start.empty,
            all & !self.start.black & !(1 << self.start.empty),
        )
    }
}

/// A cell as positions are written and drawn: `b`, `w`, or `_` if empty.
fn symbol(state: &FrogsState, cell: usize) -> char {
    if cell == state.empty {
        '_'
    } else if state.black >> cell & 1 == 1 {
        'b'
    } else {
        'w'
    }
}

impl Picture for FrogsToads {
    fn goal_label(&self) -> String {
        "reversed position".to_string()
    }

    /// "bbb_www": `b`, `w` and `_` (the empty cell), rows separated by `/`.
    fn position_text(&self, state: &FrogsState) -> String {
        self.board.line(|cell| symbol(state, cell))
    }

    /// "c1-c3": the piece that moves (or jumps) into the empty cell.
    fn move_name(&self, from: &FrogsState, to: &FrogsState) -> String {
        self.board.move_name(to.empty, from.empty)
    }

    /// A position as text: one character per cell in cell order, `b`, `w`
    /// or `_` (the one empty cell); spaces and newlines are ignored, and `/` between rows
    /// may be left out ([`Board::position_symbols`]).
    fn read_position(&self, text: &str) -> Result<FrogsState> {
        let symbols = self.board.position_symbols(text, "cells ('b', 'w', '_')")?;
        let mut state = FrogsState::new(usize::MAX, 0);
        for (cell, symbol) in symbols.into_iter().enumerate() {
            match symbol {
                'b' => state.black |= 1 << cell,
                'w' => {}
                '_' | '.' if state.empty == usize::MAX => state.empty = cell,
                other => {
                    return Err(Error::InvalidParameter(format!(
                        "{} at cell {}: expected 'b', 'w' or one '_'",
                        quoted(&other.to_string()),
                        self.board.cell_name(cell)
                    )));
                }
            }
        }
        if state.empty == usize::MAX {
            return Err(Error::InvalidParameter(
                "the position has no empty cell '_'".into(),
            ));
        }
        if state.black.count_ones() as usize != self.ranker.ones() {
            return Err(Error::InvalidParameter(format!(
                "the position has {} black pieces, the game {}",
                state.black.count_ones(),
                self.ranker.ones()
            )));
        }
        Ok(state)
    }

    fn draw(&self, state: &FrogsState) -> String {
        self.board.draw(|cell| symbol(state, cell))
    }

    /// The cells with `b` and `w` pieces; the empty cell holds none.
    fn diagram(&self, state: &FrogsState) -> Diagram {
        self.board
            .diagram(Style::Squares, |cell| match symbol(state, cell) {
                '_' => None,
                piece => Some(piece.to_string()),
            })
    }
}

impl Registered for FrogsToads {
    const NAME: &'static str = "frogs-toads";
    const SUMMARY: &'static str = "Frogs-and-Toads: k x k squares of black and white pieces change places by sliding and jumping (k = 3 is Sam Loyd's Fore and Aft)";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value("k", "K", "Size of the squares (2..=5); the standard board"),
        OptionSpec::file(
            "board",
            "BOARD",
            "A board file with 'b' and 'w' pieces and one empty cell '_'",
        ),
    ];

    fn from_options(options: &GameOptions) -> Result<Self> {
        match (options.number("k")?, options.get("board")) {
            (Some(k), None) => FrogsToads::standard(k),
            (None, Some(board)) => FrogsToads::new(Board::load(board)?),
            (Some(_), Some(_)) => Err(Error::InvalidParameter(
                "give --k or --board, not both".into(),
            )),
            (None, None) => Err(Error::InvalidParameter("give --k or --board".into())),
        }
    }
}

impl Space for FrogsToads {
    fn gpu_program(&self) -> Result<Program> {
        let cells = self.board().cells();
        let lists: Vec<Vec<u32>> = (0..cells)
            .map(|empty| self.movers(empty).iter().map(|&c| c as u32).collect())
            .collect();
        let (starts, movers) = kernel::per_cell_lists(&lists);
        let mut program = Program::default();
        program
            .constant("CELLS", cells as u32)
            .constant("BLACK_PIECES", self.black_pieces() as u32)
            .table("MOVER_STARTS_AT", &starts)
            .table("MOVERS_AT", &movers)
            .binomial_hash()
            .source(FROGS_TOADS_KERNEL);
        Ok(program)
    }

    type State = FrogsState;

    fn definition(&self) -> String {
        self.board.definition()
    }

    fn descriptor(&self) -> String {
        format!("frogs-toads {}", self.board.name())
    }

    fn size(&self) -> u64 {
        self.per_empty * self.board.cells() as u64
    }

    fn blocks(&self) -> Vec<Block> {
        (0..self.board.cells() as u64)
            .map(|empty| Block {
                start: empty * self.per_empty,
                len: self.per_empty,
            })
            .collect()
    }

    fn start_ranks(&self) -> Vec<u64> {
        vec![self.rank(&self.start)]
    }

    fn goal_ranks(&self) -> Vec<u64> {
        // With more pieces of one colour than the other the reversed
        // position is not in the space: there is no goal to rank.
        let reversed = self.reversed();
        if reversed.black.count_ones() as usize == self.ranker.ones() {
            vec![self.rank(&reversed)]
        } else {
            Vec::new()
        }
    }

    fn new_state(&self) -> FrogsState {
        self.start
    }

    #[inline]
    fn unrank(&self, rank: u64, state: &mut FrogsState) {
        let squeezed = match state.run.get(rank) {
            Some(squeezed) => squeezed,
            None => {
                state.empty = (rank / self.per_empty) as usize;
                let offset = state.empty as u64 * self.per_empty;
                self.ranker.unrank_into_run(rank, offset, &mut state.run)
            }
        };
        state.black = widen(squeezed, state.empty);
    }

    #[inline]
    fn rank(&self, state: &FrogsState) -> u64 {
        self.rank_of(state.empty, state.black)
    }

    #[inline]
    fn expand<F: FnMut(u64)>(&self, state: &FrogsState, _moves: MoveFilter, mut emit: F) {
        for &from in &self.movers[state.empty] {
            // The piece on `from` moves to the empty cell, which `from` becomes.
            let moved = state.black >> from & 1;
            let black = (state.black & !(1u64 << from)) | (moved << state.empty);
            emit(self.rank_of(from, black));
        }
    }

    fn reversible(&self) -> bool {
        true
    }

    fn inverse_rank(&self, state: &FrogsState) -> Option<u64> {
        // A board may have all 64 cells.
        let all = u64::MAX >> (64 - self.board.cells());
        let swapped = FrogsState::new(state.empty, all & !state.black & !(1 << state.empty));
        // Only boards whose colours swap onto each other have this symmetry.
        (swapped.black.count_ones() as usize == self.ranker.ones()).then(|| self.rank(&swapped))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reused_states_expand_like_fresh_ones() {
        // 18 cells besides the empty one: runs with bits above the low 16.
        let row = Board::parse("bbbbbbbbb_wwwwwwwww\n", "row").unwrap();
        crate::space::assert_reused_states_expand_like_fresh_ones(&FrogsToads::new(row).unwrap());
        crate::space::assert_reused_states_expand_like_fresh_ones(
            &FrogsToads::standard(3).unwrap(),
        );
    }

    #[test]
    fn positions_and_moves_are_named() {
        let game = FrogsToads::standard(2).unwrap();
        crate::space::assert_positions_and_moves_are_named(&game);
        let row = Board::parse("bb_ww\n", "row").unwrap();
        let game = FrogsToads::new(row).unwrap();
        crate::space::assert_positions_and_moves_are_named(&game);
        let from = game.parse_position("bb_ww").unwrap();
        let to = game.parse_position("_bbww").unwrap();
        assert_eq!(game.position_text(&to), "_bbww");
        assert_eq!(game.move_name(&from, &to), "a1-c1");
    }

    #[test]
    fn standard_boards_match_the_shipped_files() {
        for (k, name) in [
            (2, "frogs-toads-2"),
            (3, "fore-and-aft"),
            (4, "frogs-toads-4"),
        ] {
            let generated = FrogsToads::standard(k).unwrap();
            let shipped = FrogsToads::new(Board::load(name).unwrap()).unwrap();
            assert_eq!(
                generated.board().marks(),
                shipped.board().marks(),
                "k = {k}"
            );
            assert_eq!(generated.board().cells(), 2 * k * k - 1);
        }
        assert_eq!(FrogsToads::standard(4).unwrap().size(), 4_808_643_120);
    }

    #[test]
    fn squeeze_and_widen_are_inverse() {
        for empty in 0..17 {
            for mask in [0u64, 0b1_0110_1101_1001_0101, 0x1_ffff & !(1 << empty)] {
                let mask = mask & !(1 << empty);
                assert_eq!(widen(squeeze(mask, empty), empty), mask);
            }
        }
    }

    #[test]
    fn rank_and_unrank_agree_and_moves_swap_one_piece_with_the_gap() {
        let game = FrogsToads::standard(2).unwrap();
        crate::space::assert_rank_inverts_unrank(&game);
        let fore = FrogsToads::standard(3).unwrap();
        let mut state = fore.new_state();
        let mut next = fore.new_state();
        for rank in (0..fore.size()).step_by(997) {
            fore.unrank(rank, &mut state);
            fore.expand(&state, MoveFilter::All, |r| {
                fore.unrank(r, &mut next);
                // The old gap now holds the piece that left `next.empty`.
                assert_eq!(next.black >> state.empty & 1, state.black >> next.empty & 1);
                let others = !(1u64 << state.empty | 1u64 << next.empty);
                assert_eq!(next.black & others, state.black & others);
            });
        }
    }

    #[test]
    fn positions_parse() {
        let game = FrogsToads::standard(3).unwrap();
        let start = "bbb bbb bb_ww www www";
        assert_eq!(game.parse_position(start).unwrap(), game.start());
        assert_eq!(
            game.parse_position("www www ww_bb bbb bbb").unwrap(),
            game.reversed()
        );
        assert!(game.parse_position("bbb bbb bbbww www ww_").is_err());
        assert!(game.parse_position("bbb").is_err());
    }
}
