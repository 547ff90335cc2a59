//! All Queens Chess (Jonathan Schmidt, published by Thinkfun) through the
//! game kit ([`super::kit`]), with GamesmanOne's rules (its
//! `mallqueenschess`): a 5 x 5 board, six queens a side, white first.
//! Every piece moves as a chess queen, any distance in any of the eight
//! directions over empty squares; nothing is captured or jumped. Four of
//! one side's queens in a row (across, down or diagonally) win: a line on
//! the board ends the game against the side to move (only the side that
//! just moved can have made it). A side with no move draws, as
//! GamesmanOne's value iteration leaves such a position; endless play is
//! a draw.
//!
//! `--queens K` (4 to 6; fewer cannot make a line) plays with the first
//! K queens of each side of the start instead: smaller games of ours,
//! with no published counterpart, that this machine solves whole (six
//! queens a side is 9,610,154,400 positions, four 151,420,500).

use super::board::Board;
use super::kit::{
    BoardGame, Contents, Moves, Outcome, Piece, Position, SYMMETRY_OPTION, UNMOVES_OPTION,
    one_kind_a_side,
};
use super::registration::{GameOptions, OptionSpec};
use crate::error::{Error, Result};
use crate::space::Player;

const SIDE: usize = 5;
/// The queens of each side at the start, in the order `--queens` keeps
/// them: white on the top row's odd files and the right of the middle
/// row, black facing them (GamesmanOne's
/// `WBWBW-----B---W-----BWBWB`).
const START: [[usize; 6]; 2] = [[0, 2, 4, 14, 21, 23], [1, 3, 10, 20, 22, 24]];
/// The eight directions a queen slides in, as (rows, columns).
const QUEEN_STEPS: [(i32, i32); 8] = [
    (0, -1),
    (0, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

/// All Queens Chess.
#[derive(Clone, Debug)]
pub struct AllQueensChess {
    board: Board,
    queens: u8,
    /// The lines of four that win, as masks of cells.
    lines: Vec<u32>,
    /// From each cell, the cells a queen passes in each direction, nearest
    /// first.
    rays: Vec<Vec<Vec<usize>>>,
}

impl AllQueensChess {
    /// The game with `queens` queens a side (6 is the published game).
    pub fn new(queens: u8) -> Result<Self> {
        if !(4..=6).contains(&queens) {
            return Err(Error::InvalidParameter(format!(
                "All Queens Chess takes 4 to 6 queens a side (fewer cannot make a line), got {queens}"
            )));
        }
        let board = Board::parse(&["ooooo"; SIDE].join("\n"), "all-queens-chess")?;
        let ray = |cell: usize, step, len: usize| -> Vec<usize> {
            (1..=len as i32)
                .map_while(|k| board.step(cell, step, k))
                .collect()
        };
        let mut lines = Vec::new();
        for cell in 0..board.cells() {
            for step in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let rest = ray(cell, step, 3);
                if rest.len() == 3 {
                    lines.push(rest.iter().fold(1u32 << cell, |mask, &c| mask | 1 << c));
                }
            }
        }
        let rays = (0..board.cells())
            .map(|cell| {
                QUEEN_STEPS
                    .iter()
                    .map(|&step| ray(cell, step, SIDE))
                    .collect()
            })
            .collect();
        Ok(AllQueensChess {
            board,
            queens,
            lines,
            rays,
        })
    }

    /// The number of lines of four on the board.
    pub fn lines(&self) -> usize {
        self.lines.len()
    }
}

impl BoardGame for AllQueensChess {
    const NAME: &'static str = "all-queens-chess";
    const SUMMARY: &'static str = "All Queens Chess: six queens a side on a 5 x 5 board, moving as chess queens without capture, four in a row wins, GamesmanOne's rules (two players, through the game kit)";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value(
            "queens",
            "K",
            "Queens a side (4..=6): the first K of each side's start",
        )
        .with_default("6"),
        SYMMETRY_OPTION,
        UNMOVES_OPTION,
    ];
    const PIECES: &'static [Piece] = &one_kind_a_side('W', 'B');
    const SIDE_NAMES: [&'static str; 2] = ["white", "black"];

    fn from_options(options: &GameOptions) -> Result<Self> {
        let queens = options.number("queens")?.unwrap_or(6);
        let queens = u8::try_from(queens).unwrap_or(u8::MAX);
        AllQueensChess::new(queens)
    }

    fn board(&self) -> &Board {
        &self.board
    }

    /// One layer: every queen is always on the board.
    fn layers(&self) -> Vec<Vec<Contents>> {
        vec![vec![Contents::board(&[self.queens, self.queens])]]
    }

    fn layer_name(&self, layer: usize) -> String {
        match layer {
            0 => "empty board".into(),
            _ => format!("{} queens a side", self.queens),
        }
    }

    fn parameters(&self) -> String {
        format!("queens={}", self.queens)
    }

    fn variant_flags(&self) -> String {
        format!(" --queens {}", self.queens)
    }

    fn start(&self) -> Position {
        let mut start = Position::empty(Player::First);
        for (kind, cells) in START.iter().enumerate() {
            for &cell in &cells[..self.queens as usize] {
                start.set(cell, kind as u8 + 1);
            }
        }
        start
    }

    /// Each queen of the side to move, in cell order, slides in each
    /// direction as far as the first occupied square.
    fn moves(&self, position: &Position, moves: &mut Moves) {
        let mine = position.to_move() as u8 + 1;
        for from in 0..SIDE * SIDE {
            if position.at(from) != mine {
                continue;
            }
            for ray in &self.rays[from] {
                for &to in ray.iter().take_while(|&&to| position.is_empty(to)) {
                    moves.step(from, to);
                }
            }
        }
    }

    /// A line of either side ends the game against the side to move.
    fn outcome(&self, position: &Position) -> Option<Outcome> {
        let made = |kind| position.fills_any(kind, SIDE * SIDE, &self.lines);
        (made(1) || made(2)).then_some(Outcome::Loss)
    }

    /// GamesmanOne's value iteration leaves a side without a move drawn.
    fn no_moves(&self, _position: &Position) -> Outcome {
        Outcome::Draw
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count_moves(game: &AllQueensChess, position: &Position) -> usize {
        let mut found = 0;
        let mut emit = |_: &Position| {
            found += 1;
            true
        };
        game.moves(position, &mut Moves::new(position, &mut emit));
        found
    }

    /// The 28 lines GamesmanOne checks: 10 in the rows, 10 in the
    /// columns, 4 on the long diagonals and 4 on the diagonals of four.
    #[test]
    fn the_board_has_twenty_eight_lines_of_four() {
        assert_eq!(AllQueensChess::new(6).unwrap().lines(), 28);
    }

    /// The start's moves, counted by hand on the board
    /// (W on 0, 2, 4, 14, 21, 23; B on 1, 3, 10, 20, 22, 24):
    /// queen 0 down 1 and down-right 3; queen 2 down 3, down-left 1,
    /// down-right 1; queen 4 down 1, down-left 3; queen 14 left 3, up 1,
    /// down 1, up-left 1, down-left 1; queens 21 and 23 up 3 and 3 + 1 on
    /// their diagonals.
    #[test]
    fn the_start_has_the_moves_counted_by_hand() {
        let game = AllQueensChess::new(6).unwrap();
        let start = game.start();
        let by_hand: [usize; 6] = [4, 5, 4, 7, 7, 7];
        assert_eq!(count_moves(&game, &start), by_hand.iter().sum::<usize>());
    }

    #[test]
    fn four_in_a_row_ends_the_game_against_the_side_to_move() {
        let game = AllQueensChess::new(6).unwrap();
        let mut position = Position::empty(Player::Second);
        for cell in [6, 12, 18, 24] {
            position.set(cell, 1);
        }
        assert_eq!(game.outcome(&position), Some(Outcome::Loss));
        position.set(24, 0);
        position.set(0, 1);
        assert_eq!(game.outcome(&position), Some(Outcome::Loss));
        position.set(0, 2);
        assert_eq!(game.outcome(&position), None);
    }

    #[test]
    fn a_queen_count_outside_four_to_six_is_refused() {
        assert!(AllQueensChess::new(3).is_err());
        assert!(AllQueensChess::new(7).is_err());
    }
}
