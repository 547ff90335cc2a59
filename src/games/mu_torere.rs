//! Mū tōrere, the Māori game of the eight-pointed star, through the game
//! kit ([`super::kit`]): eight points (kewai) around a centre (pūtahi),
//! four pieces a side. Black starts on four neighbouring points, white on
//! the other four, the centre empty, black to move. A piece moves to the
//! one empty point: along the circle to a neighbouring point, from the
//! centre to any point, or from a point to the centre, but only when an
//! opponent's piece stands on a neighbouring point. A side that cannot
//! move loses.
//!
//! Published: the start is a draw with perfect play, and of the 1,180
//! positions reachable from it, 208 are wins, 128 losses and 844 draws
//! for the side to move (Philip D. Straffin, *Position Graphs for Pong
//! Hau K'i and Mu Torere*, Mathematics Magazine 68, 1995).
//!
//! The board is drawn on a 3 x 3 grid: the points around its edge in
//! circle order, the centre in the middle.

use super::board::Board;
use super::kit::{
    BoardGame, Contents, Moves, Piece, Position, SYMMETRY_OPTION, UNMOVES_OPTION, one_kind_a_side,
};
use super::registration::{GameOptions, OptionSpec};
use crate::error::Result;
use crate::space::Player;

/// The points around the circle, as cells of the 3 x 3 grid, in order.
const CIRCLE: [usize; 8] = [0, 1, 2, 5, 8, 7, 6, 3];
/// The centre's cell.
const CENTRE: usize = 4;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

/// Mū tōrere.
#[derive(Clone, Debug)]
pub struct MuTorere {
    board: Board,
}

impl MuTorere {
    /// The game on its nine points.
    pub fn new() -> Result<Self> {
        Ok(MuTorere {
            board: Board::parse("ooo\nooo\nooo\n", "mu-torere")?,
        })
    }
}

impl BoardGame for MuTorere {
    const NAME: &'static str = "mu-torere";
    const SUMMARY: &'static str = "Mū tōrere: four pieces a side on an eight-pointed star and its centre (two players, through the game kit)";
    const OPTIONS: &'static [OptionSpec] = &[SYMMETRY_OPTION, UNMOVES_OPTION];
    const PIECES: &'static [Piece] = &one_kind_a_side('B', 'W');
    const SIDE_NAMES: [&'static str; 2] = ["black", "white"];

    fn from_options(_options: &GameOptions) -> Result<Self> {
        MuTorere::new()
    }

    fn board(&self) -> &Board {
        &self.board
    }

    /// One layer: every position has four pieces a side.
    fn layers(&self) -> Vec<Vec<Contents>> {
        vec![vec![Contents::board(&[4, 4])]]
    }

    fn layer_name(&self, _layer: usize) -> String {
        "4 pieces a side".into()
    }

    fn start(&self) -> Position {
        let mut start = Position::empty(Player::First);
        for (at, &cell) in CIRCLE.iter().enumerate() {
            start.set(cell, if at < 4 { BLACK } else { WHITE });
        }
        start
    }

    fn moves(&self, position: &Position, moves: &mut Moves) {
        let mine = position.to_move() as u8 + 1;
        let theirs = 3 - mine;
        let around = |at: usize, step: usize| CIRCLE[(at + step) % 8];
        if position.is_empty(CENTRE) {
            for (at, &cell) in CIRCLE.iter().enumerate() {
                let beside_theirs =
                    position.at(around(at, 1)) == theirs || position.at(around(at, 7)) == theirs;
                if position.at(cell) == mine && beside_theirs {
                    moves.step(cell, CENTRE);
                }
            }
            return;
        }
        let Some(empty) = CIRCLE.iter().position(|&cell| position.is_empty(cell)) else {
            return;
        };
        for from in [around(empty, 1), around(empty, 7), CENTRE] {
            if position.at(from) == mine {
                moves.step(from, CIRCLE[empty]);
            }
        }
    }

    /// The star's sixteen symmetries: turns of the circle, and its
    /// reflections; the centre stays.
    fn symmetries(&self) -> Vec<Vec<usize>> {
        let mut all = Vec::new();
        for turn in 0..8 {
            for reflect in [false, true] {
                let mut image = vec![CENTRE; 9];
                for (at, &cell) in CIRCLE.iter().enumerate() {
                    let to = if reflect {
                        (8 + turn - at) % 8
                    } else {
                        (at + turn) % 8
                    };
                    image[cell] = CIRCLE[to];
                }
                all.push(image);
            }
        }
        all
    }
}
