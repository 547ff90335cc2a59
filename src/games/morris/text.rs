//! The Morris games as people read and write them ([`TwoPlayerGame`],
//! the commands' trait): positions as text ("a1,a4/d2:white:hand=7,7")
//! and the checks that refuse what the tables do not rank, moves by name
//! ("b4-a4xd2"), layers by name and the flags of the variant, the board
//! drawn for a terminal and as a diagram, the start.

use super::Morris;
use super::board::{Board, POINTS};
use super::hash::LayerKind;
use super::layered::Unranked;
use super::rules::{OpeningRule, Stones};
use crate::diagram::{Cell, Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::games::TwoPlayerGame;
use crate::space::Player;

impl Morris {
    /// The points of `stones`, as names ("a1,d7").
    fn names(stones: u32) -> String {
        let mut names: Vec<String> = (0..POINTS)
            .filter(|&p| stones >> p & 1 == 1)
            .map(Board::name)
            .collect();
        names.sort();
        names.join(",")
    }

    fn symbol(stones: &Stones, point: usize) -> char {
        if stones.white >> point & 1 == 1 {
            'W'
        } else if stones.black >> point & 1 == 1 {
            'B'
        } else {
            '.'
        }
    }

    /// The file (0 = a) and rank (0 = 1) of a point, from its name.
    fn file_rank(point: usize) -> (usize, usize) {
        let name = Board::name(point);
        let bytes = name.as_bytes();
        ((bytes[0] - b'a') as usize, (bytes[1] - b'1') as usize)
    }

    fn parse_points(&self, text: &str, colour: &str) -> Result<u32> {
        let mut stones = 0u32;
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let point = Board::point_named(name).ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "{} is not a point of the Morris board (a1..g7 on the three squares)",
                    quoted(name)
                ))
            })?;
            if stones >> point & 1 == 1 {
                return Err(Error::InvalidParameter(format!(
                    "{name} is listed twice for {colour}"
                )));
            }
            stones |= 1 << point;
        }
        if stones.count_ones() as usize > self.men() {
            return Err(Error::InvalidParameter(format!(
                "{} {colour} stones; each side has {} in {}",
                stones.count_ones(),
                self.men(),
                self.full_name()
            )));
        }
        Ok(stones)
    }

    /// "8,8": the stones in hand, white's and black's.
    fn parse_hand(&self, text: &str) -> Result<[u8; 2]> {
        let most = self.men();
        // An example in this game's own counts (`--men 3`: 'hand=2,2').
        let example = format!("hand={0},{0}", most.saturating_sub(1));
        let count = |part: &str| {
            part.trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n <= most)
                .map(|n| n as u8)
                .ok_or_else(|| {
                    Error::InvalidParameter(format!(
                        "stones in hand are two counts from 0 to {most} ('{example}', white's first), got {}",
                        quoted(text)
                    ))
                })
        };
        let (white, black) = text.split_once(',').ok_or_else(|| {
            Error::InvalidParameter(format!(
                "stones in hand are white's and black's count ('{example}'), got {}",
                quoted(text)
            ))
        })?;
        Ok([count(white)?, count(black)?])
    }

    /// Refuses, with one line, a position the tables do not rank: hands
    /// that do not follow from alternate placements (where a player only
    /// places), more stones than placed, or a side already down to fewer
    /// than two (or both to two).
    fn check_position(&self, stones: &Stones) -> Result<()> {
        let most = self.men();
        let [white, black] = stones.in_hand;
        if stones.placing() && self.variant.opening_rule() == OpeningRule::Placing {
            let (expected, side) = if stones.white_to_move {
                (white, "white")
            } else {
                (white + 1, "black")
            };
            if black != expected {
                return Err(Error::InvalidParameter(format!(
                    "white places first, so with {side} to move black holds {expected} in hand when white holds {white}, got {black}"
                )));
            }
        }
        for (name, board, hand) in [
            ("white", stones.white, white),
            ("black", stones.black, black),
        ] {
            let placed = most - hand as usize;
            let on_board = board.count_ones() as usize;
            if on_board > placed {
                return Err(Error::InvalidParameter(format!(
                    "{name} has {on_board} stones on the board but has placed only {placed}"
                )));
            }
            if on_board + (hand as usize) < super::hash::FEWEST_STORED {
                return Err(Error::InvalidParameter(format!(
                    "{name} has {on_board} stones on the board and {hand} in hand: the game ended when it fell to two"
                )));
            }
        }
        if !self.hash.holds(stones) {
            return Err(Error::InvalidParameter(format!(
                "both sides have two stones left in {}: the game ended before",
                self.position_text(stones)
            )));
        }
        Ok(())
    }
}

impl TwoPlayerGame for Morris {
    type Position = Stones;

    fn side_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "white",
            Player::Second => "black",
        }
    }

    fn max_layer(&self) -> usize {
        self.hash.max_layer()
    }

    fn layer_name(&self, layer: usize) -> String {
        let [white, black] = self.hash.in_hand(layer);
        match self.hash.kind(layer) {
            LayerKind::Moving => {
                if layer == 1 {
                    "1 stone".to_string()
                } else {
                    format!("{layer} stones")
                }
            }
            LayerKind::Placing => format!("opening, {} in hand", white + black),
            LayerKind::PlacingOrMoving => format!(
                "opening, in hand {white},{black}, {} on the board",
                self.hash.on_board(layer).unwrap_or(0)
            ),
        }
    }

    /// The whole game with up to four stones a side (seconds); with more it
    /// is a run of hours, so the range is the user's call.
    fn default_layers(&self) -> Option<std::ops::RangeInclusive<usize>> {
        (self.men() <= 4).then(|| 1..=self.max_layer())
    }

    fn variant_flags(&self) -> String {
        let mut flags = format!(" --variant {}", self.variant.name());
        if self.men() != self.variant.stones() {
            flags.push_str(&format!(" --men {}", self.men()));
        }
        if self.symmetry() {
            flags.push_str(" --symmetry");
        }
        flags
    }

    fn other_variants(&self) -> Vec<Morris> {
        [false, true]
            .into_iter()
            .filter(|&symmetry| symmetry != self.symmetry())
            .filter_map(|symmetry| Morris::with_men(self.variant, self.men(), symmetry).ok())
            .collect()
    }

    fn locate(&self, position: &Stones) -> (usize, u64) {
        (self.hash.layer_of(position), self.hash.rank(position))
    }

    fn position(&self, state: &Unranked) -> Stones {
        state.stones
    }

    fn side_to_move(&self, position: &Stones) -> Player {
        Player::first_if(position.white_to_move)
    }

    fn moves(&self, position: &Stones) -> Vec<Stones> {
        Morris::moves(self, position)
    }

    /// A placement "d2", a move "d2-d3", a flight "a1-g7", and a mill's
    /// capture after an x: "b4-a4xd2", "a4xd2".
    fn move_name(&self, from: &Stones, to: &Stones) -> String {
        let (before, after, theirs_before, theirs_after) = if from.white_to_move {
            (from.white, to.white, from.black, to.black)
        } else {
            (from.black, to.black, from.white, to.white)
        };
        let arrived = Board::name((after & !before).trailing_zeros() as usize);
        let mut name = if after.count_ones() > before.count_ones() {
            arrived
        } else {
            let left = (before & !after).trailing_zeros() as usize;
            format!("{}-{arrived}", Board::name(left))
        };
        let taken = theirs_before & !theirs_after;
        if taken != 0 {
            name.push('x');
            name.push_str(&Board::name(taken.trailing_zeros() as usize));
        }
        name
    }

    /// "a1,a4,a7/d1,d2,d3:white": white's points, black's, the side to
    /// move; in the opening the stones in hand follow, white's and
    /// black's: "d2/a1:white:hand=8,8".
    fn read_position(&self, text: &str) -> Result<Stones> {
        let format = || {
            Error::InvalidParameter(format!(
                "a Morris position is white's points, '/', black's points (each a comma-separated list such as a1,d2), then ':white' or ':black' for the side to move, and in the opening ':hand=W,B' for the stones in hand; got {}",
                quoted(text)
            ))
        };
        let (text_before_hand, in_hand) = match text.split_once(":hand=") {
            Some((before, hand)) => (before, Some(self.parse_hand(hand)?)),
            None => (text, None),
        };
        let (board, side) = text_before_hand.rsplit_once(':').ok_or_else(format)?;
        let (white, black) = board.split_once('/').ok_or_else(format)?;
        let white_to_move = match side.trim() {
            "white" => true,
            "black" => false,
            other => {
                return Err(Error::InvalidParameter(format!(
                    "the side to move is 'white' or 'black', got {}",
                    quoted(other)
                )));
            }
        };
        let white = self.parse_points(white, "white")?;
        let black = self.parse_points(black, "black")?;
        if white & black != 0 {
            return Err(Error::InvalidParameter(format!(
                "{} holds a white and a black stone",
                Board::name((white & black).trailing_zeros() as usize)
            )));
        }
        let stones = Stones {
            white,
            black,
            white_to_move,
            in_hand: in_hand.unwrap_or([0, 0]),
        };
        self.check_position(&stones)?;
        Ok(stones)
    }

    fn position_text(&self, position: &Stones) -> String {
        let side = if position.white_to_move {
            "white"
        } else {
            "black"
        };
        let mut text = format!(
            "{}/{}:{side}",
            Morris::names(position.white),
            Morris::names(position.black)
        );
        if position.placing() {
            let [white, black] = position.in_hand;
            text.push_str(&format!(":hand={white},{black}"));
        }
        text
    }

    /// The three squares with their lines, rank 7 at the top ('W' white,
    /// 'B' black, '.' empty).
    fn draw(&self, position: &Stones) -> String {
        const ROWS: usize = 13;
        const COLUMNS: usize = 25;
        let mut grid = vec![vec![' '; COLUMNS]; ROWS];
        let at = |point: usize| {
            let (file, rank) = Morris::file_rank(point);
            (2 * (6 - rank), 4 * file)
        };
        for p in 0..POINTS {
            let (row, column) = at(p);
            for q in (p + 1..POINTS).filter(|&q| self.board.neighbours(p) >> q & 1 == 1) {
                let (to_row, to_column) = at(q);
                if row == to_row {
                    grid[row][column.min(to_column) + 1..column.max(to_column)].fill('-');
                } else if column == to_column {
                    for line in grid
                        .iter_mut()
                        .take(row.max(to_row))
                        .skip(row.min(to_row) + 1)
                    {
                        line[column] = '|';
                    }
                } else {
                    // Morabaraba's diagonals join neighbouring squares'
                    // corners: one mark halfway.
                    let falling = (to_row > row) == (to_column > column);
                    grid[(row + to_row) / 2][(column + to_column) / 2] =
                        if falling { '\\' } else { '/' };
                }
            }
        }
        for p in 0..POINTS {
            let (row, column) = at(p);
            grid[row][column] = Morris::symbol(position, p);
        }
        let mut picture = String::new();
        for (index, row) in grid.iter().enumerate() {
            let label = if index % 2 == 0 {
                format!("{} ", 7 - index / 2)
            } else {
                "  ".to_string()
            };
            let line: String = row.iter().collect();
            picture.push_str(&label);
            picture.push_str(line.trim_end());
            picture.push('\n');
        }
        picture.push_str("  a   b   c   d   e   f   g\n");
        picture.push_str(if position.white_to_move {
            "white to move"
        } else {
            "black to move"
        });
        if position.placing() {
            let [white, black] = position.in_hand;
            picture.push_str(&format!(" · in hand: white {white}, black {black}"));
        }
        picture.push('\n');
        picture
    }

    /// The points on a 7 x 7 grid joined by the board's lines.
    fn diagram(&self, position: &Stones) -> Diagram {
        let cells = (0..POINTS)
            .map(|point| {
                let (file, rank) = Morris::file_rank(point);
                Cell {
                    name: Board::name(point),
                    row: 6 - rank,
                    column: file,
                    piece: match Morris::symbol(position, point) {
                        '.' => None,
                        stone => Some(stone.to_string()),
                    },
                }
            })
            .collect();
        let mut diagram = Diagram::new(Style::Points, cells);
        diagram.lines = (0..POINTS)
            .flat_map(|p| {
                (p + 1..POINTS)
                    .filter(move |&q| self.board.neighbours(p) >> q & 1 == 1)
                    .map(move |q| [p, q])
            })
            .collect();
        diagram
    }

    /// The empty board, every stone in hand, white to place; a count of
    /// stones, if given, must be the stones a side (`--men` sets them).
    fn start_position(&self, size: Option<usize>) -> Result<Stones> {
        if let Some(count) = size.filter(|&count| count != self.men()) {
            return Err(Error::InvalidParameter(format!(
                "the start of {} has its {} stones a side in hand, not {count}: give --start alone, or --men {count} for a game of {count} stones a side",
                self.full_name(),
                self.men()
            )));
        }
        let stones = self.men() as u8;
        Ok(Stones {
            white_to_move: true,
            in_hand: [stones, stones],
            ..Stones::default()
        })
    }

    fn with_side_to_move(&self, position: &Stones, side: Player) -> Stones {
        Stones {
            white_to_move: side == Player::First,
            ..*position
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::morris::Variant;

    #[test]
    fn positions_read_back_from_their_text_and_errors_are_one_line() {
        let game = Morris::new(Variant::NineMensMorris, false).unwrap();
        let text = "a1,a4,a7,d2/d6,g1,g4,g7:black";
        let stones = game.parse_position(text).unwrap();
        assert_eq!(stones.white.count_ones(), 4);
        assert!(!stones.white_to_move);
        assert_eq!(game.position_text(&stones), text);
        for (bad, expected) in [
            ("a1,a4/d1", "':white' or ':black'"),
            ("a1,a4/d1:green", "'green'"),
            ("a1,z9/d1:white", "'z9'"),
            ("a1,a1/d1:white", "a1 is listed twice"),
            ("a1/a1:white", "a1 holds a white and a black"),
            (
                "a1,a4,a7,b2,b4,b6,c3,c4,c5,d1/d2:white",
                "10 white stones; each side has 9",
            ),
        ] {
            let message = game.parse_position(bad).unwrap_err().to_string();
            assert!(message.contains(expected), "{bad}: {message}");
            assert!(!message.contains('\n'));
        }
        // The opening: stones in hand after the side to move.
        let start = game.start_position(None).unwrap();
        assert_eq!(game.position_text(&start), "/:white:hand=9,9");
        assert_eq!(game.parse_position("/:white:hand=9,9").unwrap(), start);
        let text = "a1,d2/g7:black:hand=7,8";
        let stones = game.parse_position(text).unwrap();
        assert_eq!(stones.in_hand, [7, 8]);
        assert_eq!(game.position_text(&stones), text);
        for (bad, expected) in [
            (
                "/:white:hand=9,8",
                "black holds 9 in hand when white holds 9",
            ),
            (
                "a1,a4/:black:hand=8,9",
                "white has 2 stones on the board but has placed only 1",
            ),
            ("/:white:hand=10,10", "two counts from 0 to 9"),
            ("/:white:hand=9", "white's and black's count"),
            (
                "a1/d1,d2,d3:white",
                "white has 1 stones on the board and 0 in hand",
            ),
        ] {
            let message = game.parse_position(bad).unwrap_err().to_string();
            assert!(message.contains(expected), "{bad}: {message}");
            assert!(!message.contains('\n'));
        }
        assert_eq!(game.start_position(Some(9)).unwrap(), start);
        let message = game.start_position(Some(5)).unwrap_err().to_string();
        assert!(message.contains("--men 5"), "{message}");
        // Lasker Morris: any hands, either side to move (a player may
        // move instead of placing).
        let lasker = Morris::new(Variant::Lasker, false).unwrap();
        let start = lasker.start_position(None).unwrap();
        assert_eq!(lasker.position_text(&start), "/:white:hand=10,10");
        for text in ["a1,d2/g7:black:hand=3,5", "a1,d2,d3/g4,g7:white:hand=0,4"] {
            let stones = lasker.parse_position(text).unwrap();
            assert_eq!(lasker.position_text(&stones), text);
        }
        for (bad, expected) in [
            (
                "a1,a4/d1:white:hand=9,3",
                "white has 2 stones on the board but has placed only 1",
            ),
            (
                "a1/d1,d2,d3:white:hand=0,1",
                "white has 1 stones on the board and 0 in hand",
            ),
            ("a1,a4/d1:white:hand=0,1", "both sides have two stones left"),
        ] {
            let message = lasker.parse_position(bad).unwrap_err().to_string();
            assert!(message.contains(expected), "{bad}: {message}");
        }
    }

    #[test]
    fn placements_are_named_by_their_point_and_capture() {
        let game = Morris::new(Variant::NineMensMorris, false).unwrap();
        let from = game.parse_position("a1,a4/d1,g1:white:hand=7,7").unwrap();
        let moves = game.moves(&from);
        let names: Vec<String> = moves.iter().map(|to| game.move_name(&from, to)).collect();
        // a7 closes the mill a1-a4-a7 and takes either black stone.
        assert!(names.contains(&"a7xd1".to_string()), "{names:?}");
        assert!(names.contains(&"a7xg1".to_string()), "{names:?}");
        assert!(names.contains(&"d2".to_string()), "{names:?}");
        // 20 empty points, one of them closing with two stones to take.
        assert_eq!(moves.len(), 21);
        assert!(
            moves
                .iter()
                .all(|to| to.in_hand == [6, 7] && !to.white_to_move)
        );
    }

    #[test]
    fn moves_are_named_with_their_captures() {
        let game = Morris::new(Variant::NineMensMorris, false).unwrap();
        let from = game
            .parse_position("a1,a7,b4,d6/g1,g4,g7,d2:white")
            .unwrap();
        let names: Vec<String> = game
            .moves(&from)
            .iter()
            .map(|to| game.move_name(&from, to))
            .collect();
        assert!(names.contains(&"b4-a4xd2".to_string()), "{names:?}");
        assert!(names.contains(&"d6-d7".to_string()), "{names:?}");
    }

    #[test]
    fn a_bad_hand_is_explained_in_the_games_own_counts() {
        let small = Morris::with_men(Variant::NineMensMorris, 3, false).unwrap();
        for bad in ["a7/g1:white:hand=4,4", "a7/g1:white:hand=2"] {
            let message = small.parse_position(bad).unwrap_err().to_string();
            assert!(message.contains("'hand=2,2'"), "{message}");
            assert!(!message.contains("8,8"), "{message}");
        }
        let nine = Morris::new(Variant::NineMensMorris, false).unwrap();
        let message = nine.parse_position("a7/g1:white:hand=10,1").unwrap_err();
        assert!(message.to_string().contains("'hand=8,8'"), "{message}");
    }

    #[test]
    fn the_board_is_drawn_with_its_lines() {
        let game = Morris::new(Variant::NineMensMorris, false).unwrap();
        let stones = game.parse_position("a7,d2/g1:white:hand=7,7").unwrap();
        let picture = game.draw(&stones);
        let lines: Vec<&str> = picture.lines().collect();
        assert_eq!(lines[0], "7 W-----------.-----------.");
        assert_eq!(lines[12], "1 .-----------.-----------B");
        assert_eq!(lines[6], "4 .---.---.       .---.---.");
        assert_eq!(lines[13], "  a   b   c   d   e   f   g");
        assert_eq!(lines[14], "white to move · in hand: white 7, black 7");
        let morabaraba = Morris::new(Variant::Morabaraba, false).unwrap();
        let picture = morabaraba.draw(&stones);
        assert!(picture.lines().nth(1).unwrap().contains('\\'), "{picture}");
        assert_eq!(game.diagram(&stones).lines.len(), 32);
        assert_eq!(morabaraba.diagram(&stones).lines.len(), 40);
    }
}
