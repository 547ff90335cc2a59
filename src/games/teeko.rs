//! Teeko (John Scarne, 1937) through the game kit ([`super::kit`]): a 5 x
//! 5 board, four stones a side. Black moves first; the players drop their
//! stones in turn on empty squares, and once all eight are down a move
//! steps a stone to a neighbouring empty square in any of the eight
//! directions. Four stones in a row (across, down or diagonally) or on
//! the four squares of a 2 x 2 square win. `--advanced` also lets the
//! four corners of a 3 x 3, 4 x 4 or 5 x 5 square win. These are
//! GamesmanOne's rules (its `teeko`, variants 0 and 1), whose stones are X
//! and O; a pattern on the board ends the game against the side to move.
//!
//! Published: the start is a draw (Guy Steele, 1998).

use super::board::Board;
use super::kit::{
    BoardGame, Contents, Moves, Outcome, Piece, Position, SYMMETRY_OPTION, UNMOVES_OPTION,
    one_kind_a_side,
};
use super::registration::{GameOptions, OptionSpec};
use crate::error::Result;
use crate::space::Player;

const SIDE: usize = 5;
const STONES: u8 = 4;
/// The eight directions a stone steps in, as (rows, columns).
const KING_STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// Teeko.
#[derive(Clone, Debug)]
pub struct Teeko {
    board: Board,
    advanced: bool,
    /// The winning patterns, as masks of cells.
    patterns: Vec<u32>,
    /// Each cell's neighbours.
    neighbours: Vec<Vec<usize>>,
}

impl Teeko {
    /// The game; `advanced` adds the corners of the larger squares.
    pub fn new(advanced: bool) -> Result<Self> {
        let board = Board::parse(&["ooooo"; SIDE].join("\n"), "teeko")?;
        let mask = |cells: &[Option<usize>]| -> Option<u32> {
            cells
                .iter()
                .try_fold(0, |mask, cell| Some(mask | 1 << (*cell)?))
        };
        let mut patterns = Vec::new();
        for cell in 0..board.cells() {
            let ray = |step| {
                (0..4)
                    .map(|k| board.step(cell, step, k))
                    .collect::<Vec<_>>()
            };
            patterns.extend([(0, 1), (1, 0), (1, 1), (1, -1)].map(|step| mask(&ray(step))));
            let corners = |k: i32| [(0, 0), (0, k), (k, 0), (k, k)].map(|d| board.step(cell, d, 1));
            patterns.push(mask(&corners(1)));
            if advanced {
                patterns.extend((2..SIDE as i32).map(|k| mask(&corners(k))));
            }
        }
        let patterns: Vec<u32> = patterns.into_iter().flatten().collect();
        let neighbours = (0..board.cells())
            .map(|cell| {
                KING_STEPS
                    .iter()
                    .filter_map(|&step| board.step(cell, step, 1))
                    .collect()
            })
            .collect();
        Ok(Teeko {
            board,
            advanced,
            patterns,
            neighbours,
        })
    }

    /// The number of winning patterns.
    pub fn patterns(&self) -> usize {
        self.patterns.len()
    }
}

impl BoardGame for Teeko {
    const NAME: &'static str = "teeko";
    const SUMMARY: &'static str = "Teeko: four stones a side dropped then stepped on a 5 x 5 board, four in a row or a square wins (two players, through the game kit)";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::flag(
            "advanced",
            "The corners of a 3 x 3, 4 x 4 or 5 x 5 square win too",
        ),
        SYMMETRY_OPTION,
        UNMOVES_OPTION,
    ];
    const PIECES: &'static [Piece] = &one_kind_a_side('X', 'O');
    const SIDE_NAMES: [&'static str; 2] = ["x", "o"];

    fn from_options(options: &GameOptions) -> Result<Self> {
        Teeko::new(options.flag("advanced"))
    }

    fn board(&self) -> &Board {
        &self.board
    }

    /// Layer 1 is the moving phase; layer 2 + k has 7 - k stones down
    /// (black drops the odd ones), so the start is layer 9.
    fn layers(&self) -> Vec<Vec<Contents>> {
        let moving = Contents::board(&[STONES, STONES]);
        let dropping = (0..2 * STONES).rev().map(|down| {
            let (x, o) = (down.div_ceil(2), down / 2);
            Contents {
                on_board: vec![x, o],
                in_hand: [STONES - x, STONES - o],
            }
        });
        std::iter::once(moving)
            .chain(dropping)
            .map(|contents| vec![contents])
            .collect()
    }

    fn acyclic(&self, layer: usize) -> bool {
        layer >= 2
    }

    fn layer_name(&self, layer: usize) -> String {
        match layer {
            0 => "empty board".into(),
            1 => "moving".into(),
            _ => format!("{} stones down", 9 - layer),
        }
    }

    fn parameters(&self) -> String {
        if self.advanced {
            "advanced".into()
        } else {
            String::new()
        }
    }

    fn variant_flags(&self) -> String {
        if self.advanced {
            " --advanced".into()
        } else {
            String::new()
        }
    }

    fn start(&self) -> Position {
        let mut start = Position::empty(Player::First);
        start.set_hand(Player::First, STONES);
        start.set_hand(Player::Second, STONES);
        start
    }

    /// A drop while the stones are going down, steps once all are. A
    /// layer's block holds both sides to move, but the drops alternate:
    /// x's turn when both hold as many stones, o's when it holds one more.
    /// A side to move out of turn is never reached, and has no move (its
    /// drop would lead where no layer lists).
    fn moves(&self, position: &Position, moves: &mut Moves) {
        let side = position.to_move();
        let mine = side as u8 + 1;
        let in_hand = position.hand(side);
        let other = position.hand(side.opponent());
        let my_turn = match side {
            Player::First => in_hand == other,
            Player::Second => in_hand == other + 1,
        };
        if in_hand > 0 && my_turn {
            for cell in (0..SIDE * SIDE).filter(|&cell| position.is_empty(cell)) {
                moves.edit(|next| {
                    next.set(cell, mine);
                    next.set_hand(side, in_hand - 1);
                });
            }
        } else if in_hand == 0 && other == 0 {
            for from in (0..SIDE * SIDE).filter(|&cell| position.at(cell) == mine) {
                for &to in &self.neighbours[from] {
                    if position.is_empty(to) {
                        moves.step(from, to);
                    }
                }
            }
        }
    }

    /// A pattern of either side ends the game against the side to move
    /// (only the side that just moved can have made it).
    fn outcome(&self, position: &Position) -> Option<Outcome> {
        let made = |kind| position.fills_any(kind, SIDE * SIDE, &self.patterns);
        (made(1) || made(2)).then_some(Outcome::Loss)
    }
}
