//! Dodgem as players see it: positions read and written as text, drawn
//! and diagrammed, moves named, and the rest of what play, query and
//! serve ask of a game ([`TwoPlayerGame`]).

use super::{Dodgem, DodgemState};
use crate::diagram::{Cell, Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::games::two_player_game::TwoPlayerGame;
use crate::space::{LayeredGame, Player};

impl Dodgem {
    fn symbol(&self, state: &DodgemState, square: usize) -> char {
        if state.blue >> square & 1 == 1 {
            'B'
        } else if state.red >> square & 1 == 1 {
            'R'
        } else {
            '.'
        }
    }
}

impl TwoPlayerGame for Dodgem {
    type Position = DodgemState;

    /// The most cars on the board: the start's layer.
    fn max_layer(&self) -> usize {
        2 * self.cars()
    }

    /// The board, top row first ('B' blue, 'R' red, '.' empty), with
    /// coordinates and the side to move.
    fn draw(&self, state: &DodgemState) -> String {
        let n = self.n;
        let mut picture = String::new();
        for row in (0..n).rev() {
            picture.push_str(&format!("{:>3} ", row + 1));
            for column in 0..n {
                let square = row * n + column;
                picture.push(' ');
                picture.push(self.symbol(state, square));
            }
            picture.push('\n');
        }
        picture.push_str("    ");
        for column in 0..n {
            picture.push(' ');
            picture.push((b'a' + column as u8) as char);
        }
        picture.push('\n');
        picture.push_str(if state.blue_to_move {
            "blue to move\n"
        } else {
            "red to move\n"
        });
        picture
    }

    /// The squares top row first, named as moves name them ("a1" is the
    /// bottom left), with `B` and `R` cars.
    fn diagram(&self, state: &DodgemState) -> Diagram {
        let n = self.n;
        let cells = (0..n * n)
            .map(|square| {
                let (row, column) = (square / n, square % n);
                Cell {
                    name: format!("{}{}", (b'a' + column as u8) as char, row + 1),
                    row: n - 1 - row,
                    column,
                    piece: match self.symbol(state, square) {
                        '.' => None,
                        car => Some(car.to_string()),
                    },
                }
            })
            .collect();
        Diagram::new(Style::Squares, cells)
    }

    /// "B../B../.RR:blue": rows from the top, then the side to move.
    fn position_text(&self, state: &DodgemState) -> String {
        let n = self.n;
        let rows: Vec<String> = (0..n)
            .rev()
            .map(|row| {
                (0..n)
                    .map(|column| self.symbol(state, row * n + column))
                    .collect()
            })
            .collect();
        let side = if state.blue_to_move { "blue" } else { "red" };
        format!("{}:{side}", rows.join("/"))
    }

    /// A position from [`position_text`](Self::position_text)'s form;
    /// spaces are ignored.
    fn read_position(&self, text: &str) -> Result<DodgemState> {
        let n = self.n;
        let invalid = |why: String| Error::InvalidParameter(why);
        let Some((board, side)) = text.rsplit_once(':') else {
            return Err(invalid(format!(
                "a Dodgem position is {n} rows from the top ('B' blue, 'R' red, either case, '.' empty) separated by '/', then ':blue' or ':red' for the side to move, got {}",
                quoted(text)
            )));
        };
        let blue_to_move = match side.trim() {
            "blue" => true,
            "red" => false,
            other => {
                return Err(invalid(format!(
                    "the side to move is 'blue' or 'red', got {}",
                    quoted(other)
                )));
            }
        };
        let rows: Vec<String> = board
            .split('/')
            .map(|row| row.chars().filter(|c| !c.is_whitespace()).collect())
            .collect();
        if rows.len() != n || rows.iter().any(|row| row.chars().count() != n) {
            return Err(invalid(format!(
                "a Dodgem position on {n} x {n} needs {n} rows of {n} squares, got {}",
                quoted(board)
            )));
        }
        let mut state = DodgemState {
            blue: 0,
            red: 0,
            blue_to_move,
        };
        for (from_top, row) in rows.iter().enumerate() {
            for (column, symbol) in row.chars().enumerate() {
                let square = (n - 1 - from_top) * n + column;
                match symbol {
                    'B' | 'b' => state.blue |= 1 << square,
                    'R' | 'r' => state.red |= 1 << square,
                    '.' | '_' => {}
                    other => {
                        return Err(invalid(format!(
                            "{} at {} is not 'B', 'R' or '.'",
                            quoted(&other.to_string()),
                            self.square_name(square)
                        )));
                    }
                }
            }
        }
        for (count, colour) in [(state.blue, "blue"), (state.red, "red")] {
            if count.count_ones() as usize > self.cars() {
                return Err(invalid(format!(
                    "{} {colour} cars on the board; each side has {}",
                    count.count_ones(),
                    self.cars()
                )));
            }
        }
        Ok(state)
    }

    /// "b1-b2" for a step, "c2-off" for a car that leaves the board.
    fn move_name(&self, from: &DodgemState, to: &DodgemState) -> String {
        let (before, after) = if from.blue_to_move {
            (from.blue, to.blue)
        } else {
            (from.red, to.red)
        };
        let left = (before & !after).trailing_zeros() as usize;
        let arrived = after & !before;
        if arrived == 0 {
            format!("{}-off", self.square_name(left))
        } else {
            format!(
                "{}-{}",
                self.square_name(left),
                self.square_name(arrived.trailing_zeros() as usize)
            )
        }
    }

    fn side_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "blue",
            Player::Second => "red",
        }
    }

    fn layer_name(&self, layer: usize) -> String {
        if layer == 1 {
            "1 car".to_string()
        } else {
            format!("{layer} cars")
        }
    }

    fn default_layers(&self) -> Option<std::ops::RangeInclusive<usize>> {
        Some(0..=self.max_layer())
    }

    fn variant_flags(&self) -> String {
        format!(" --n {}", self.n)
    }

    fn position(&self, state: &DodgemState) -> DodgemState {
        *state
    }

    fn locate(&self, position: &DodgemState) -> (usize, u64) {
        (self.layer_of(position), self.rank_of(position))
    }

    fn side_to_move(&self, position: &DodgemState) -> Player {
        self.mover(position)
    }

    fn moves(&self, position: &DodgemState) -> Vec<DodgemState> {
        let mut moves = Vec::new();
        self.for_each_move(position, |next| {
            moves.push(next);
            true
        });
        moves
    }

    fn start_position(&self, size: Option<usize>) -> Result<DodgemState> {
        match size {
            None => Ok(self.start()),
            Some(_) => Err(Error::InvalidParameter(
                "Dodgem starts with n-1 cars a side: choose the board with --n, or give --position"
                    .into(),
            )),
        }
    }

    fn with_side_to_move(&self, position: &DodgemState, side: Player) -> DodgemState {
        DodgemState {
            blue_to_move: side == Player::First,
            ..*position
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn bad_positions_are_one_line_errors() {
        let game = Dodgem::new(3).unwrap();
        for (text, expected) in [
            ("B../B../.RR", "':blue' or ':red'"),
            ("B../B../.RR:green", "'green'"),
            ("B../B..:blue", "3 rows of 3"),
            ("BB./B../.RR:blue", "3 blue cars"),
            ("B../B.x/.RR:blue", "'x' at c2"),
        ] {
            let message = game.parse_position(text).unwrap_err().to_string();
            assert!(message.contains(expected), "{text}: {message}");
        }
        assert!(Dodgem::new(6).is_err());
    }
}
