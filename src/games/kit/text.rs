//! A kit game's positions as people read and write them, from the
//! board's grid: one line (rows separated by `/`, then the side to move
//! and, where the game has a placing phase, the stones in hand), a
//! terminal picture, a diagram for the explorer, and move names.

use super::adapter::Kit;
use super::position::{EMPTY, Position};
use super::{BoardGame, layers::Contents};
use crate::diagram::{Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::space::Player;

impl<G: BoardGame> Kit<G> {
    /// The symbol of what a cell holds: '.' when empty.
    fn symbol(&self, what: u8) -> char {
        if what == EMPTY {
            '.'
        } else {
            G::PIECES[what as usize - 1].symbol
        }
    }

    /// What the symbols mean, for messages: "'B' blue, 'R' red, '.' empty".
    fn legend(&self) -> String {
        let mut parts: Vec<String> = G::PIECES
            .iter()
            .map(|piece| format!("'{}' {}", piece.symbol, G::SIDE_NAMES[piece.side as usize]))
            .collect();
        parts.push("'.' empty".into());
        parts.join(", ")
    }

    /// "B../B../.RR:blue", with ":2,1" after where stones are in hand.
    pub(super) fn write_position(&self, position: &Position) -> String {
        let board = self.game.board();
        let mut text = board.line(|cell| self.symbol(position.at(cell)));
        text.push(':');
        text.push_str(G::SIDE_NAMES[position.to_move() as usize]);
        if self.has_hands {
            text.push_str(&format!(
                ":{},{}",
                position.hand(Player::First),
                position.hand(Player::Second)
            ));
        }
        text
    }

    /// A position from [`write_position`](Self::write_position)'s form.
    pub(super) fn read_position(&self, text: &str) -> Result<Position> {
        let names = G::SIDE_NAMES;
        let hands = if self.has_hands { ":H,H (in hand)" } else { "" };
        let form = || {
            format!(
                "a {} position is the cells row by row ({}) with '/' between rows, then ':{}' or ':{}'{hands}",
                G::NAME,
                self.legend(),
                names[0],
                names[1]
            )
        };
        let mut parts = text.split(':');
        let (Some(board_text), Some(side_text)) = (parts.next(), parts.next()) else {
            return Err(Error::InvalidParameter(format!(
                "{}, got {}",
                form(),
                quoted(text)
            )));
        };
        let to_move = match names.iter().position(|name| *name == side_text.trim()) {
            Some(0) => Player::First,
            Some(_) => Player::Second,
            None => {
                return Err(Error::InvalidParameter(format!(
                    "the side to move is '{}' or '{}', got {}",
                    names[0],
                    names[1],
                    quoted(side_text)
                )));
            }
        };
        let mut position = Position::empty(to_move);
        match (parts.next(), self.has_hands) {
            (Some(hand), true) => {
                let counts: Vec<Option<u8>> =
                    hand.split(',').map(|n| n.trim().parse().ok()).collect();
                let [Some(first), Some(second)] = counts[..] else {
                    return Err(Error::InvalidParameter(format!(
                        "stones in hand are two counts, '{}' then '{}', as ':4,3', got {}",
                        names[0],
                        names[1],
                        quoted(hand)
                    )));
                };
                position.set_hand(Player::First, first);
                position.set_hand(Player::Second, second);
            }
            (None, false) => {}
            _ => {
                return Err(Error::InvalidParameter(format!(
                    "{}, got {}",
                    form(),
                    quoted(text)
                )));
            }
        }
        let board = self.game.board();
        let symbols = board.position_symbols(board_text, &format!("cells ({})", self.legend()))?;
        for (cell, symbol) in symbols.into_iter().enumerate() {
            let what = if symbol == '.' || symbol == '_' {
                EMPTY
            } else {
                let pieces = G::PIECES;
                let kind = pieces
                    .iter()
                    .position(|piece| piece.symbol == symbol)
                    .or_else(|| {
                        pieces
                            .iter()
                            .position(|piece| piece.symbol.eq_ignore_ascii_case(&symbol))
                    })
                    .ok_or_else(|| {
                        Error::InvalidParameter(format!(
                            "{} at {} is not one of {}",
                            quoted(&symbol.to_string()),
                            board.cell_name(cell),
                            self.legend()
                        ))
                    })?;
                kind as u8 + 1
            };
            position.set(cell, what);
        }
        if self.place(&position).is_none() {
            let contents = Contents::of(&position, self.cells, self.kinds);
            let pieces: Vec<String> = G::PIECES
                .iter()
                .zip(&contents.on_board)
                .map(|(piece, count)| format!("{count} '{}'", piece.symbol))
                .collect();
            return Err(Error::InvalidParameter(format!(
                "no position of {} holds {}{}",
                G::NAME,
                pieces.join(" and "),
                if self.has_hands {
                    format!(
                        " with {},{} in hand",
                        contents.in_hand[0], contents.in_hand[1]
                    )
                } else {
                    String::new()
                }
            )));
        }
        Ok(position)
    }

    /// The board drawn for a terminal, the side to move under it.
    pub(super) fn picture(&self, position: &Position) -> String {
        let mut picture = self
            .game
            .board()
            .draw(|cell| self.symbol(position.at(cell)));
        if self.has_hands {
            let names = G::SIDE_NAMES;
            picture.push_str(&format!(
                "in hand: {} {}, {} {}\n",
                names[0],
                position.hand(Player::First),
                names[1],
                position.hand(Player::Second)
            ));
        }
        picture.push_str(&format!(
            "{} to move\n",
            G::SIDE_NAMES[position.to_move() as usize]
        ));
        picture
    }

    /// The board as the explorer draws it.
    pub(super) fn board_diagram(&self, position: &Position) -> Diagram {
        self.game.board().diagram(Style::Squares, |cell| {
            let what = position.at(cell);
            (what != EMPTY).then(|| self.symbol(what).to_string())
        })
    }

    /// "a2-b2" for a piece that moved, "a2-off" for one that left the
    /// board, "b2" for one placed from hand, with "xc3" for each piece of
    /// the other side taken.
    pub(super) fn name_move(&self, from: &Position, to: &Position) -> String {
        let board = self.game.board();
        let mover = from.to_move();
        let mine =
            |position: &Position, cell: usize| self.game.side_of(position.at(cell)) == Some(mover);
        let theirs = |position: &Position, cell: usize| {
            self.game.side_of(position.at(cell)) == Some(mover.opponent())
        };
        let cells = 0..self.cells;
        let names = |cells: Vec<usize>| {
            cells
                .into_iter()
                .map(|cell| board.cell_name(cell))
                .collect::<Vec<_>>()
                .join(",")
        };
        let left: Vec<usize> = cells
            .clone()
            .filter(|&cell| mine(from, cell) && from.at(cell) != to.at(cell))
            .collect();
        let arrived: Vec<usize> = cells
            .clone()
            .filter(|&cell| mine(to, cell) && from.at(cell) != to.at(cell))
            .collect();
        let taken: Vec<usize> = cells
            .filter(|&cell| theirs(from, cell) && !theirs(to, cell))
            .collect();
        let mut name = match (left.is_empty(), arrived.is_empty()) {
            (true, true) => "pass".to_string(),
            (true, false) => names(arrived),
            (false, true) => format!("{}-off", names(left)),
            (false, false) => format!("{}-{}", names(left), names(arrived)),
        };
        if !taken.is_empty() {
            name.push_str(&format!("x{}", names(taken)));
        }
        name
    }
}
