//! Peg Solitaire positions as players see them: read and written as text,
//! drawn and diagrammed, jumps named ([`Picture`]).

use super::{PegSolitaire, Pegs};
use crate::diagram::{Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::space::Picture;

impl Picture for PegSolitaire {
    fn goal_label(&self) -> String {
        "one peg left in the start hole".to_string()
    }

    /// A position as text: one character per cell in cell order, `o` for a
    /// peg and `.` for an empty hole; spaces and newlines are ignored, and `/` between rows
    /// may be left out
    /// ([`Board::position_symbols`](crate::games::Board::position_symbols)).
    fn read_position(&self, text: &str) -> Result<Pegs> {
        let symbols = self
            .board
            .position_symbols(text, "cells ('o' peg, '.' hole)")?;
        let mut pegs = 0u64;
        for (cell, symbol) in symbols.into_iter().enumerate() {
            match symbol {
                'o' | 'x' | '*' => pegs |= 1 << cell,
                '.' | '_' => {}
                other => {
                    return Err(Error::InvalidParameter(format!(
                        "{} at cell {} is neither 'o' (peg) nor '.' (hole)",
                        quoted(&other.to_string()),
                        self.board.cell_name(cell)
                    )));
                }
            }
        }
        Ok(Pegs::new(pegs))
    }

    /// "..ooo../...": `o` for a peg, `.` for a hole, rows separated by `/`.
    fn position_text(&self, pegs: &Pegs) -> String {
        self.board
            .line(|cell| if pegs.mask >> cell & 1 == 1 { 'o' } else { '.' })
    }

    /// "d2-d4": the jumping peg's cell and the hole it lands in.
    fn move_name(&self, from: &Pegs, to: &Pegs) -> String {
        let landed = (to.mask & !from.mask).trailing_zeros() as usize;
        let left = from.mask & !to.mask;
        let distance = |cell: usize| {
            let ((r, c), (lr, lc)) = (self.board.position(cell), self.board.position(landed));
            r.abs_diff(lr) + c.abs_diff(lc)
        };
        // Of the two cells emptied, the jumper's is the farther from the
        // landing hole (the other is the peg jumped over).
        let first = left.trailing_zeros() as usize;
        let second = (left & (left - 1)).trailing_zeros() as usize;
        let jumper = if distance(first) > distance(second) {
            first
        } else {
            second
        };
        self.board.move_name(jumper, landed)
    }

    /// The holes, with `o` on those holding a peg.
    fn diagram(&self, pegs: &Pegs) -> Diagram {
        self.board.diagram(Style::Squares, |cell| {
            (pegs.mask >> cell & 1 == 1).then(|| "o".to_string())
        })
    }

    /// The board with pegs drawn as `o` and holes as `.`.
    fn draw(&self, pegs: &Pegs) -> String {
        self.board
            .draw(|cell| if pegs.mask >> cell & 1 == 1 { 'o' } else { '.' })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::english;
    use super::*;
    use crate::games::Board;
    use crate::space::{MoveFilter, Space};
    #[test]
    fn positions_parse_and_draw() {
        let game = english(false);
        let text = "ooo ooo ooooooo ooo.ooo ooooooo ooo ooo";
        assert_eq!(game.parse_position(text).unwrap().mask, game.start);
        assert!(game.parse_position("ooo").is_err());
        assert!(game.parse_position(&text.replace('.', "?")).is_err());
        assert!(game.draw(&Pegs::new(game.start)).contains("o o o . o o o"));
    }

    #[test]
    fn positions_and_jumps_are_named() {
        let board = Board::parse("ooo\nooo\nooo\nooo\n", "3x4").unwrap();
        let game = PegSolitaire::new(board, &[4], false).unwrap();
        crate::space::assert_positions_and_moves_are_named(&game);
        let game = english(false);
        let from = game
            .parse_position(&game.position_text(&Pegs::new(game.start)))
            .unwrap();
        assert_eq!(
            game.position_text(&from),
            "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo"
        );
        let mut jumped = game.new_state();
        let mut names = Vec::new();
        game.expand(&from, MoveFilter::All, |rank| {
            game.unrank(rank, &mut jumped);
            names.push(game.move_name(&from, &jumped));
        });
        names.sort();
        assert_eq!(names, ["b4-d4", "d2-d4", "d6-d4", "f4-d4"]);
    }
}
