//! Dodgem through the game kit ([`crate::games::kit`]): the rules of
//! [`super::Dodgem`] and nothing else (no hash, text or unmoves of its
//! own), registered as `dodgem-kit` so that every value can be checked
//! against the hand-written game's and the two timed side by side.

use crate::error::{Error, Result};
use crate::games::board::Board;
use crate::games::kit::{
    BoardGame, Contents, Moves, Outcome, Piece, Position, UNMOVES_OPTION, one_kind_a_side,
};
use crate::games::registration::{GameOptions, OptionSpec};
use crate::space::Player;

const BLUE: u8 = 1;
const RED: u8 = 2;

/// A car's steps as (rows, columns) on the grid, rows from the top: the
/// forward step first (off the far edge it leaves the board).
const BLUE_STEPS: [(i32, i32); 3] = [(0, 1), (-1, 0), (1, 0)];
const RED_STEPS: [(i32, i32); 3] = [(-1, 0), (0, -1), (0, 1)];

/// Dodgem on an n x n board through the kit.
#[derive(Clone, Debug)]
pub struct DodgemKit {
    n: usize,
    board: Board,
}

impl DodgemKit {
    /// Dodgem on `n` x `n` squares, `n` from 3 to 5.
    pub fn new(n: usize) -> Result<Self> {
        if !(3..=5).contains(&n) {
            return Err(Error::InvalidParameter(format!(
                "Dodgem is played on boards of 3 to 5 squares a side, got {n}"
            )));
        }
        let rows = vec!["o".repeat(n); n].join("\n");
        Ok(DodgemKit {
            n,
            board: Board::parse(&rows, "dodgem")?,
        })
    }
}

impl BoardGame for DodgemKit {
    const NAME: &'static str = "dodgem-kit";
    const SUMMARY: &'static str = "Dodgem through the game kit: the game of 'dodgem' from its moves alone, to check the kit against it";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value("n", "N", "Squares a side of the board (3..=5)").with_default("3"),
        UNMOVES_OPTION,
    ];
    const PIECES: &'static [Piece] = &one_kind_a_side('B', 'R');
    const SIDE_NAMES: [&'static str; 2] = ["blue", "red"];

    fn from_options(options: &GameOptions) -> Result<Self> {
        DodgemKit::new(options.number("n")?.unwrap_or(3))
    }

    fn board(&self) -> &Board {
        &self.board
    }

    /// Layer L: L cars on the board (the kit's layer 0 has none); a
    /// block for each count of blue cars.
    fn layers(&self) -> Vec<Vec<Contents>> {
        let cars = self.n as u8 - 1;
        (1..=2 * cars)
            .map(|layer| {
                (layer.saturating_sub(cars)..=layer.min(cars))
                    .map(|blue| Contents::board(&[blue, layer - blue]))
                    .collect()
            })
            .collect()
    }

    fn layer_name(&self, layer: usize) -> String {
        format!("{layer} cars")
    }

    fn parameters(&self) -> String {
        format!("n={}", self.n)
    }

    fn variant_flags(&self) -> String {
        format!(" --n {}", self.n)
    }

    /// Blue down the left edge, red along the bottom, the corner empty.
    fn start(&self) -> Position {
        let n = self.n;
        let mut start = Position::empty(Player::First);
        for i in 0..n - 1 {
            start.set(i * n, BLUE);
            start.set((n - 1) * n + i + 1, RED);
        }
        start
    }

    fn moves(&self, position: &Position, moves: &mut Moves) {
        let (car, steps) = match position.to_move() {
            Player::First => (BLUE, &BLUE_STEPS),
            Player::Second => (RED, &RED_STEPS),
        };
        for cell in 0..self.n * self.n {
            if position.at(cell) != car {
                continue;
            }
            for (index, &step) in steps.iter().enumerate() {
                match self.board.step(cell, step, 1) {
                    Some(to) if position.is_empty(to) => moves.step(cell, to),
                    None if index == 0 => moves.edit(|next| next.set(cell, 0)),
                    _ => {}
                }
            }
        }
    }

    /// The side with no move on its turn wins.
    fn no_moves(&self, _position: &Position) -> Outcome {
        Outcome::Win
    }

    /// The board's turns and reflections are no symmetries of Dodgem.
    fn symmetries(&self) -> Vec<Vec<usize>> {
        Vec::new()
    }
}
