//! Kaooa, the Indian game of the vulture and the crows on a pentagram,
//! through the game kit ([`super::kit`]), with GamesmanOne's rules (its
//! `mkaooa`): six crows and one vulture on the star's ten points. The
//! crows move first and drop all six before any crow moves; the vulture
//! drops on its first turn. A crow steps to a neighbouring empty point.
//! The vulture steps so, or jumps along a line over a neighbouring crow to
//! the empty point beyond, capturing it (one capture a move, and only if
//! it chooses). Three crows captured win for the vulture; a vulture with
//! no move loses. A side with no move otherwise draws, as GamesmanOne's
//! value iteration leaves it. (The published game has seven crows and
//! the vulture needs four captures.)
//!
//! The points are numbered as GamesmanOne numbers them: the tips 0 to 4
//! clockwise from the top, then the inner points 5 to 9, point 5 between
//! tips 0 and 1. The board draws them on a grid, so cells are numbered
//! row by row there ([`POINT_CELL`]).

use super::board::Board;
use super::kit::{
    BoardGame, Contents, Moves, Outcome, Piece, Position, SYMMETRY_OPTION, UNMOVES_OPTION,
    one_kind_a_side,
};
use super::registration::{GameOptions, OptionSpec};
use crate::error::Result;
use crate::space::Player;

/// The star on a grid: tip 0 at the top, the line 4-9-5-1 across, the
/// inner points 8 and 6, then 7, then the tips 3 and 2 at the bottom.
const STAR: &str = ".....o.....\no...o.o...o\n...o...o...\n.....o.....\n..o.....o..\n";
/// The cell of each point of the star.
pub const POINT_CELL: [usize; 10] = [0, 4, 9, 8, 1, 3, 6, 7, 5, 2];
/// The five lines of four points.
const LINES: [[usize; 4]; 5] = [
    [4, 9, 5, 1],
    [0, 9, 8, 3],
    [0, 5, 6, 2],
    [4, 8, 7, 2],
    [1, 6, 7, 3],
];
const CROWS: u8 = 6;
/// Crows the vulture must capture to win.
const CAPTURES_TO_WIN: u8 = 3;
const CROW: u8 = 1;
const VULTURE: u8 = 2;

/// Kaooa.
#[derive(Clone, Debug)]
pub struct Kaooa {
    board: Board,
    /// Each cell's neighbours along the lines.
    neighbours: [Vec<usize>; 10],
    /// Each cell's jumps: (the neighbour jumped over, the cell landed on).
    jumps: [Vec<(usize, usize)>; 10],
}

impl Kaooa {
    /// The game on the star's ten points.
    pub fn new() -> Result<Self> {
        let mut neighbours: [Vec<usize>; 10] = Default::default();
        let mut jumps: [Vec<(usize, usize)>; 10] = Default::default();
        for line in LINES.map(|line| line.map(|point| POINT_CELL[point])) {
            for (a, b) in [(0, 1), (1, 2), (2, 3)] {
                neighbours[line[a]].push(line[b]);
                neighbours[line[b]].push(line[a]);
            }
            for (from, over, to) in [(0, 1, 2), (1, 2, 3), (2, 1, 0), (3, 2, 1)] {
                jumps[line[from]].push((line[over], line[to]));
            }
        }
        Ok(Kaooa {
            board: Board::parse(STAR, "kaooa")?,
            neighbours,
            jumps,
        })
    }

    /// Whether the vulture on `cell` has no point to step or land on: all
    /// its neighbours and landing points are taken.
    fn vulture_trapped(&self, position: &Position, cell: usize) -> bool {
        let taken = |cell: usize| !position.is_empty(cell);
        self.neighbours[cell].iter().all(|&next| taken(next))
            && self.jumps[cell].iter().all(|&(_, to)| taken(to))
    }
}

impl BoardGame for Kaooa {
    const NAME: &'static str = "kaooa";
    const SUMMARY: &'static str = "Kaooa: a vulture against six crows on a pentagram, GamesmanOne's rules (two players, through the game kit)";
    const OPTIONS: &'static [OptionSpec] = &[SYMMETRY_OPTION, UNMOVES_OPTION];
    const PIECES: &'static [Piece] = &one_kind_a_side('C', 'V');
    const SIDE_NAMES: [&'static str; 2] = ["crows", "vulture"];

    fn from_options(_options: &GameOptions) -> Result<Self> {
        Kaooa::new()
    }

    fn board(&self) -> &Board {
        &self.board
    }

    /// Layer L + 1 holds the positions with 2 x (crows in hand) + (the
    /// vulture in hand) + (crows on the board) = L: a drop (a crow from
    /// hand onto the board, or the vulture) or a capture takes a move one
    /// layer down, and a step keeps it in its layer. Its blocks are the
    /// ways to hold that.
    fn layers(&self) -> Vec<Vec<Contents>> {
        let mut layers = vec![Vec::new(); 3 * CROWS as usize + 2];
        for crows_in_hand in 0..=CROWS {
            let dropped = CROWS - crows_in_hand;
            let captured_at_most = dropped.min(CAPTURES_TO_WIN);
            for crows in dropped - captured_at_most..=dropped {
                for vulture_in_hand in 0..=1u8 {
                    let level = 2 * crows_in_hand + vulture_in_hand + crows;
                    layers[level as usize].push(Contents {
                        on_board: vec![crows, 1 - vulture_in_hand],
                        in_hand: [crows_in_hand, vulture_in_hand],
                    });
                }
            }
        }
        // Levels below 3 hold no position (more than three captures), and
        // the levels above them are all held: the layers stay consecutive.
        layers.retain(|blocks| !blocks.is_empty());
        layers
    }

    fn start(&self) -> Position {
        let mut start = Position::empty(Player::First);
        start.set_hand(Player::First, CROWS);
        start.set_hand(Player::Second, 1);
        start
    }

    fn moves(&self, position: &Position, moves: &mut Moves) {
        let (mine, side) = match position.to_move() {
            Player::First => (CROW, Player::First),
            Player::Second => (VULTURE, Player::Second),
        };
        let in_hand = position.hand(side);
        if in_hand > 0 {
            for cell in (0..10).filter(|&cell| position.is_empty(cell)) {
                moves.edit(|next| {
                    next.set(cell, mine);
                    next.set_hand(side, in_hand - 1);
                });
            }
            return;
        }
        for from in (0..10).filter(|&cell| position.at(cell) == mine) {
            for &to in &self.neighbours[from] {
                if position.is_empty(to) {
                    moves.step(from, to);
                }
            }
            if mine == VULTURE {
                for &(over, to) in &self.jumps[from] {
                    if position.at(over) == CROW && position.is_empty(to) {
                        moves.edit(|next| {
                            next.relocate(from, to);
                            next.set(over, 0);
                        });
                    }
                }
            }
        }
    }

    /// Three crows captured, or the vulture trapped, end the game against
    /// the side to move (on either side's turn, as GamesmanOne rules:
    /// only the losing side's turn is reached in play).
    fn outcome(&self, position: &Position) -> Option<Outcome> {
        let on_board = (0..10).filter(|&cell| position.at(cell) == CROW).count() as u8;
        let dropped = CROWS.saturating_sub(position.hand(Player::First));
        let captured = dropped.saturating_sub(on_board);
        let trapped = (0..10)
            .find(|&cell| position.at(cell) == VULTURE)
            .is_some_and(|cell| self.vulture_trapped(position, cell));
        (captured >= CAPTURES_TO_WIN || trapped).then_some(Outcome::Loss)
    }

    /// Never reached by the crows in play; GamesmanOne's value iteration
    /// leaves such a position drawn.
    fn no_moves(&self, _position: &Position) -> Outcome {
        Outcome::Draw
    }

    /// The star's ten symmetries: its five turns, each with and without
    /// the reflection through tip 0.
    fn symmetries(&self) -> Vec<Vec<usize>> {
        let turn = |point: usize, by: usize| {
            if point < 5 {
                (point + by) % 5
            } else {
                5 + (point - 5 + by) % 5
            }
        };
        let reflect = |point: usize| {
            if point < 5 {
                (5 - point) % 5
            } else {
                5 + (9 - point) % 5
            }
        };
        let mut all = Vec::new();
        for by in 0..5 {
            for reflected in [false, true] {
                let mut image = vec![0; 10];
                for point in 0..10 {
                    let moved = turn(if reflected { reflect(point) } else { point }, by);
                    image[POINT_CELL[point]] = POINT_CELL[moved];
                }
                all.push(image);
            }
        }
        all
    }
}
