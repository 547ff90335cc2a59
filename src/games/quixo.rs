//! Quixo (Thierry Chapeau, 1995) through the game kit ([`super::kit`]),
//! with GamesmanOne's rules (its `quixo`, variants 0 to 2): an n x n board
//! of cubes, blank or marked X or O, all blank at the start. A move takes
//! a cube from the edge of the board, blank or the mover's own, turns it
//! to the mover's mark and pushes it back in at the far end of its row or
//! of its column (never where it came from), the cubes between sliding
//! one place. X moves first. A row, column or long diagonal of one mark
//! ends the game: the side to move wins if the line is its own, even when
//! the other side has one too, and loses otherwise (completing the
//! opponent's line loses).
//!
//! Published: 5 x 5 is a draw (Tanaka, Bonnet, Tixeuil and Tamura, *Quixo
//! Is Solved*, 2020).

use super::board::Board;
use super::kit::{
    BoardGame, Contents, Moves, Outcome, Piece, Position, SYMMETRY_OPTION, UNMOVES_OPTION,
    one_kind_a_side,
};
use super::registration::{GameOptions, OptionSpec};
use crate::error::{Error, Result};
use crate::space::Player;

/// The four pushes, as the step from the cube's place towards the end
/// it is pushed in at: the cubes between slide one place back.
const PUSHES: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// Quixo on an n x n board.
#[derive(Clone, Debug)]
pub struct Quixo {
    n: usize,
    board: Board,
    /// The lines that end the game, as masks of cells.
    lines: Vec<u32>,
    /// Every move: the edge cell a cube is taken from and the cells of
    /// its row or column from there to the far end.
    pushes: Vec<Vec<usize>>,
}

impl Quixo {
    /// Quixo on `n` x `n` cubes, `n` from 3 to 5.
    pub fn new(n: usize) -> Result<Self> {
        if !(3..=5).contains(&n) {
            return Err(Error::InvalidParameter(format!(
                "Quixo is played on boards of 3 to 5 cubes a side, got {n}"
            )));
        }
        let board = Board::parse(&vec!["o".repeat(n); n].join("\n"), "quixo")?;
        let ray = |cell: usize, step| -> Vec<usize> {
            (0..n as i32)
                .map_while(|k| board.step(cell, step, k))
                .collect()
        };
        let mask = |cells: &[usize]| cells.iter().fold(0u32, |mask, &cell| mask | 1 << cell);
        let corner = n * n - 1;
        let mut lines = Vec::new();
        for i in 0..n {
            lines.push(mask(&ray(i * n, (0, 1))));
            lines.push(mask(&ray(i, (1, 0))));
        }
        lines.push(mask(&ray(0, (1, 1))));
        lines.push(mask(&ray(n - 1, (1, -1))));
        let on_edge = |cell: usize| {
            let (row, column) = (cell / n, cell % n);
            row == 0 || column == 0 || row == n - 1 || column == n - 1
        };
        let pushes = (0..=corner)
            .filter(|&cell| on_edge(cell))
            .flat_map(|cell| PUSHES.map(|step| ray(cell, step)))
            .filter(|cells| cells.len() > 1)
            .collect();
        Ok(Quixo {
            n,
            board,
            lines,
            pushes,
        })
    }
}

impl BoardGame for Quixo {
    const NAME: &'static str = "quixo";
    const SUMMARY: &'static str = "Quixo: cubes taken from the edge and pushed back in, n in a row wins, GamesmanOne's rules (two players, through the game kit)";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value("n", "N", "Cubes a side of the board (3..=5)").with_default("4"),
        SYMMETRY_OPTION,
        UNMOVES_OPTION,
    ];
    const PIECES: &'static [Piece] = &one_kind_a_side('X', 'O');
    const SIDE_NAMES: [&'static str; 2] = ["x", "o"];

    fn from_options(options: &GameOptions) -> Result<Self> {
        Quixo::new(options.number("n")?.unwrap_or(4))
    }

    fn board(&self) -> &Board {
        &self.board
    }

    /// A layer for each number of marked cubes, most first (a cube once
    /// marked stays marked); its blocks split them between X and O. The
    /// empty board is the top layer's, as its first move marks a cube.
    fn layers(&self) -> Vec<Vec<Contents>> {
        let cells = (self.n * self.n) as u8;
        let mut layers: Vec<Vec<Contents>> = (1..=cells)
            .rev()
            .map(|marked| {
                (0..=marked)
                    .map(|x| Contents::board(&[x, marked - x]))
                    .collect()
            })
            .collect();
        layers
            .last_mut()
            .expect("a layer")
            .push(Contents::board(&[0, 0]));
        layers
    }

    fn layer_name(&self, layer: usize) -> String {
        let cells = self.n * self.n;
        match layer {
            0 => "no layer".into(),
            _ => format!("{} marked", cells + 1 - layer),
        }
    }

    fn parameters(&self) -> String {
        format!("n={}", self.n)
    }

    fn variant_flags(&self) -> String {
        format!(" --n {}", self.n)
    }

    fn start(&self) -> Position {
        Position::empty(Player::First)
    }

    fn moves(&self, position: &Position, moves: &mut Moves) {
        let mine = position.to_move() as u8 + 1;
        for cells in &self.pushes {
            let taken = position.at(cells[0]);
            if taken != 0 && taken != mine {
                continue;
            }
            moves.edit(|next| {
                for pair in cells.windows(2) {
                    next.set(pair[0], position.at(pair[1]));
                }
                next.set(cells[cells.len() - 1], mine);
            });
        }
    }

    /// A line of the side to move wins for it; else a line of the other
    /// side loses.
    fn outcome(&self, position: &Position) -> Option<Outcome> {
        let has_line =
            |side: Player| position.fills_any(side as u8 + 1, self.n * self.n, &self.lines);
        let mover = position.to_move();
        if has_line(mover) {
            Some(Outcome::Win)
        } else if has_line(mover.opponent()) {
            Some(Outcome::Loss)
        } else {
            None
        }
    }
}
