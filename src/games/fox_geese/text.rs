//! Fox-and-Geese as players see it: positions read and written as text,
//! drawn and diagrammed, moves named, the traditional starts, and the
//! rest of what play, query and serve ask of a game ([`TwoPlayerGame`]).

use super::{CELLS, FoxGeese, FoxGeeseState, Rules, Unranked};
use crate::diagram::{Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::games::two_player_game::TwoPlayerGame;
use crate::space::Player;

impl FoxGeese {
    /// A position as text: one character per point in cell order, `F` for
    /// the fox, `g` for a goose, `.` for an empty point, then the side to
    /// move after a colon (`fox` or `geese`); spaces and `/` are ignored.
    pub fn parse(&self, text: &str) -> Result<FoxGeeseState> {
        let (board_text, side) = text.rsplit_once(':').ok_or_else(|| {
            Error::InvalidParameter(
                "a position ends with ':fox' or ':geese' (the side to move)".into(),
            )
        })?;
        let fox_to_move = match side.trim() {
            "fox" | "f" => true,
            "geese" | "g" => false,
            other => {
                return Err(Error::InvalidParameter(format!(
                    "side to move {} is neither 'fox' nor 'geese'",
                    quoted(other)
                )));
            }
        };
        let symbols = self
            .board
            .position_symbols(board_text, "points ('F' fox, 'g' goose, '.' empty)")?;
        let mut fox = None;
        let mut geese = 0u64;
        for (cell, symbol) in symbols.into_iter().enumerate() {
            // Exactly the symbols `draw` and `position_text` write: a
            // position read back is the one shown, never a look-alike.
            let wrong = match symbol {
                'F' if fox.is_none() => {
                    fox = Some(cell);
                    continue;
                }
                'g' => {
                    geese |= 1 << cell;
                    continue;
                }
                '.' => continue,
                'F' => "a second fox (a position has one)",
                'f' => "the fox is written 'F'",
                'G' | 'o' => "a goose is written 'g'",
                _ => "expected 'F' (the fox), 'g' (a goose) or '.' (empty)",
            };
            return Err(Error::InvalidParameter(format!(
                "{} at {}: {wrong}",
                quoted(&symbol.to_string()),
                self.board.cell_name(cell)
            )));
        }
        let fox =
            fox.ok_or_else(|| Error::InvalidParameter("the position has no fox 'F'".into()))?;
        Ok(FoxGeeseState {
            fox,
            geese,
            fox_to_move,
        })
    }

    /// The board with `F` for the fox, `g` for each goose, and the side to move below.
    pub fn draw(&self, state: &FoxGeeseState) -> String {
        let picture = self.board.draw(|cell| symbol(state, cell));
        format!(
            "{picture}{} to move\n",
            if state.fox_to_move { "fox" } else { "geese" }
        )
    }
}

/// A point as positions are written and drawn: `F`, `g` or `.`.
fn symbol(state: &FoxGeeseState, cell: usize) -> char {
    if cell == state.fox {
        'F'
    } else if state.geese >> cell & 1 == 1 {
        'g'
    } else {
        '.'
    }
}

impl TwoPlayerGame for FoxGeese {
    type Position = FoxGeeseState;

    fn side_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "fox",
            Player::Second => "geese",
        }
    }

    fn side_label(&self, player: Player) -> String {
        format!("the {}", self.side_name(player))
    }

    fn max_layer(&self) -> usize {
        self.max_geese()
    }

    fn layer_name(&self, layer: usize) -> String {
        if layer == 1 {
            "1 goose".to_string()
        } else {
            format!("{layer} geese")
        }
    }

    fn default_layers(&self) -> Option<std::ops::RangeInclusive<usize>> {
        // The whole game is hours of solving: the range is the user's call.
        None
    }

    fn variant_flags(&self) -> String {
        let mut flags = String::new();
        if self.rules.capture_wins {
            flags.push_str(" --capture-wins");
        }
        if self.rules.geese_forward {
            flags.push_str(" --geese-forward");
        }
        if self.symmetry {
            flags.push_str(" --symmetry");
        }
        flags
    }

    fn other_variants(&self) -> Vec<FoxGeese> {
        Rules::ALL
            .into_iter()
            .flat_map(|rules| [(rules, false), (rules, true)])
            .filter(|&variant| variant != (self.rules, self.symmetry))
            .filter_map(|(rules, symmetry)| FoxGeese::with_rules(rules, symmetry).ok())
            .collect()
    }

    fn position(&self, state: &Unranked) -> FoxGeeseState {
        state.position
    }

    fn locate(&self, position: &FoxGeeseState) -> (usize, u64) {
        (position.geese.count_ones() as usize, self.rank_of(position))
    }

    fn side_to_move(&self, position: &FoxGeeseState) -> Player {
        Player::first_if(position.fox_to_move)
    }

    fn moves(&self, position: &FoxGeeseState) -> Vec<FoxGeeseState> {
        FoxGeese::moves(self, position)
    }

    /// "d4-d5" for a step, "d4xd6" for a capture.
    fn move_name(&self, from: &FoxGeeseState, to: &FoxGeeseState) -> String {
        let board = &self.board;
        if from.fox_to_move {
            let capture = to.geese != from.geese;
            format!(
                "{}{}{}",
                board.cell_name(from.fox),
                if capture { "x" } else { "-" },
                board.cell_name(to.fox)
            )
        } else {
            let left = (from.geese & !to.geese).trailing_zeros() as usize;
            let arrived = (to.geese & !from.geese).trailing_zeros() as usize;
            board.move_name(left, arrived)
        }
    }

    fn read_position(&self, text: &str) -> Result<FoxGeeseState> {
        self.parse(text)
    }

    /// "..g/..g/.......:geese": the points row by row, then the side.
    fn position_text(&self, position: &FoxGeeseState) -> String {
        let points = self.board.line(|cell| symbol(position, cell));
        let side = if position.fox_to_move { "fox" } else { "geese" };
        format!("{points}:{side}")
    }

    fn draw(&self, position: &FoxGeeseState) -> String {
        FoxGeese::draw(self, position)
    }

    /// The points with `F` and `g` on them, joined by the lines pieces
    /// move along.
    fn diagram(&self, position: &FoxGeeseState) -> Diagram {
        let mut diagram = self
            .board
            .diagram(Style::Points, |cell| match symbol(position, cell) {
                '.' => None,
                piece => Some(piece.to_string()),
            });
        diagram.lines = (0..CELLS)
            .flat_map(|cell| self.lines[cell].iter().map(move |line| [cell, line.next]))
            .filter(|[cell, next]| cell < next)
            .collect();
        diagram
    }

    /// The fox on the centre and `geese` (default 8) geese filling the
    /// board from the bottom row up, the geese to move.
    fn start_position(&self, geese: Option<usize>) -> Result<FoxGeeseState> {
        let geese = geese.unwrap_or(8);
        let board = &self.board;
        let fox = board.centre().expect("the cross has a centre");
        if geese == 0 || geese >= board.cells() - 1 {
            return Err(Error::InvalidParameter(format!(
                "--geese must be between 1 and {}",
                board.cells() - 2
            )));
        }
        // The geese fill the rows from the one farthest from the fox's
        // side, each row right to left, except the fox's own row, which
        // they fill from both ends inwards (right end first): 13 geese
        // are the traditional start on the three lowest rows' 13 points,
        // 17 add the two outer points at each end of the middle row.
        let (middle, centre) = board.position(fox);
        let mut cells: Vec<usize> = (0..board.cells()).filter(|&c| c != fox).collect();
        cells.sort_by_key(|&c| {
            let (row, column) = board.position(c);
            let spread = if row == middle {
                column.abs_diff(centre)
            } else {
                0
            };
            std::cmp::Reverse((row, spread, column))
        });
        let mask = cells[..geese].iter().fold(0u64, |acc, &c| acc | 1 << c);
        Ok(FoxGeeseState {
            fox,
            geese: mask,
            fox_to_move: false,
        })
    }

    fn with_side_to_move(&self, position: &FoxGeeseState, side: Player) -> FoxGeeseState {
        FoxGeeseState {
            fox_to_move: side == Player::First,
            ..*position
        }
    }

    fn placements(&self, start: &FoxGeeseState) -> Result<Vec<(String, FoxGeeseState)>> {
        Ok((0..self.board.cells())
            .filter(|&cell| start.geese >> cell & 1 == 0)
            .map(|fox| {
                let placed = FoxGeeseState { fox, ..*start };
                (self.board.cell_name(fox), placed)
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn the_traditional_starts_have_13_and_17_geese_in_their_places() {
        let game = FoxGeese::new(false, false).unwrap();
        let text = |geese| game.position_text(&game.start_position(Some(geese)).unwrap());
        assert_eq!(text(13), ".../.../......./...F.../ggggggg/ggg/ggg:geese");
        assert_eq!(text(17), ".../.../......./gg.F.gg/ggggggg/ggg/ggg:geese");
        // Below 13 the lowest rows fill right to left, as before.
        assert_eq!(text(8), ".../.../......./...F.../.....gg/ggg/ggg:geese");
        for geese in [13, 17] {
            let start = game.start_position(Some(geese)).unwrap();
            assert_eq!(start.geese.count_ones() as usize, geese);
            assert_eq!(game.board.cell_name(start.fox), "d4");
        }
        // The fox on each of the 33 - 13 free points.
        let start = game.start_position(Some(13)).unwrap();
        let placements = game.placements(&start).unwrap();
        assert_eq!(placements.len(), 20);
        assert!(placements.iter().all(|(_, p)| p.geese == start.geese));
        let fox_first = game.with_side_to_move(&start, Player::First);
        assert!(fox_first.fox_to_move && fox_first.geese == start.geese);
    }
}
