//! Boards as data: a set of cells on a grid, read from plain text.
//!
//! One line per grid row; `#` starts a comment line. Characters:
//! `.` or space: no cell; `o`: a cell; `_`: a cell marked empty; `b` / `w`:
//! a cell holding a black / white piece. Cells are numbered row by row and
//! named by column letter and row number (`a1` is the top-left corner of the
//! grid, `d4` the centre of a 7x7 grid).

use std::path::Path;

use super::text_file::read_text;
use crate::diagram::{Cell as DiagramCell, Diagram, Style};
use crate::error::{Error, Result, quoted};

/// A board may have at most 64 cells, so a set of cells is a u64 mask.
pub const MAX_CELLS: usize = 64;

/// What a board file says is on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `o`: a cell, nothing said about it.
    Cell,
    /// `_`: a cell that starts empty.
    Empty,
    /// `b`.
    Black,
    /// `w`.
    White,
}

/// A symmetry of the square: (row, column, rows, columns) -> image point.
type GridMap = fn(i32, i32, i32, i32) -> (i32, i32);

/// The four orthogonal directions as (row, column) steps.
pub const ORTHOGONAL: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A permutation of a board's cells applied to masks of cells by table
/// lookup: one 256-entry table per byte of the mask, so mapping a 33-cell
/// position is five lookups.
#[derive(Clone, Debug)]
pub struct MaskMap {
    bytes: Vec<[u64; 256]>,
}

impl MaskMap {
    /// The map sending cell `c` to `image[c]`.
    pub fn new(image: &[usize]) -> Self {
        let map_cells = |mask: u64| {
            (0..image.len())
                .filter(|&cell| mask >> cell & 1 == 1)
                .fold(0u64, |acc, cell| acc | 1 << image[cell])
        };
        let bytes = (0..image.len().div_ceil(8))
            .map(|byte| {
                let mut table = [0u64; 256];
                for (value, slot) in table.iter_mut().enumerate() {
                    *slot = map_cells((value as u64) << (8 * byte));
                }
                table
            })
            .collect();
        MaskMap { bytes }
    }

    /// The image of a mask of cells: bit `c` set becomes bit `image[c]` set.
    #[inline]
    pub fn apply(&self, mask: u64) -> u64 {
        let mut image = 0u64;
        for (byte, table) in self.bytes.iter().enumerate() {
            image |= table[((mask >> (8 * byte)) & 0xff) as usize];
        }
        image
    }
}

/// A board: its cells, their grid points and what its file marks on each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    name: String,
    rows: usize,
    columns: usize,
    /// (row, column) of each cell, in cell order.
    positions: Vec<(usize, usize)>,
    /// Cell index at each grid point, row-major.
    grid: Vec<Option<usize>>,
    marks: Vec<Mark>,
}

/// Boards shipped with the program, usable by name.
const BUILT_IN: [(&str, &str); 5] = [
    ("english", include_str!("../../data/boards/english.txt")),
    ("french", include_str!("../../data/boards/french.txt")),
    (
        "frogs-toads-2",
        include_str!("../../data/boards/frogs-toads-2.txt"),
    ),
    (
        "fore-and-aft",
        include_str!("../../data/boards/fore-and-aft.txt"),
    ),
    (
        "frogs-toads-4",
        include_str!("../../data/boards/frogs-toads-4.txt"),
    ),
];

impl Board {
    /// The names of the boards shipped with the program.
    pub fn built_in_names() -> Vec<&'static str> {
        BUILT_IN.iter().map(|(name, _)| *name).collect()
    }

    /// A built-in board by name, or else a board file at that path.
    pub fn load(name_or_path: &str) -> Result<Board> {
        if let Some((name, text)) = BUILT_IN.iter().find(|(name, _)| *name == name_or_path) {
            return Board::parse(text, name);
        }
        let path = Path::new(name_or_path);
        let text = read_text(path).map_err(|e| {
            let known: Vec<&str> = BUILT_IN.iter().map(|(name, _)| *name).collect();
            Error::io_at(
                format!(
                    "board {} is neither a built-in board ({}) nor a readable file",
                    quoted(name_or_path),
                    known.join(", ")
                ),
                path,
                e,
            )
        })?;
        Board::parse(&text, &path.display().to_string()).map_err(|e| e.in_file(path))
    }

    /// Parses board text; `origin` names it in error messages.
    pub fn parse(text: &str, origin: &str) -> Result<Board> {
        let mut rows: Vec<(usize, Vec<Option<Mark>>)> = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line_number = number + 1;
            if line.trim_start().starts_with('#') {
                continue;
            }
            let mut row = Vec::new();
            for (column, c) in line.trim_end().chars().enumerate() {
                row.push(match c {
                    '.' | ' ' => None,
                    'o' => Some(Mark::Cell),
                    '_' => Some(Mark::Empty),
                    'b' => Some(Mark::Black),
                    'w' => Some(Mark::White),
                    other => {
                        return Err(Error::InvalidParameter(format!(
                            "{origin}, line {line_number}, column {}: {} is not one of . o _ b w",
                            column + 1,
                            quoted(&other.to_string())
                        )));
                    }
                });
            }
            rows.push((line_number, row));
        }
        // Blank lines at either end are layout, not rows.
        while rows.last().is_some_and(|(_, row)| row.is_empty()) {
            rows.pop();
        }
        while rows.first().is_some_and(|(_, row)| row.is_empty()) {
            rows.remove(0);
        }
        let columns = rows.iter().map(|(_, row)| row.len()).max().unwrap_or(0);
        let mut positions = Vec::new();
        let mut marks = Vec::new();
        let mut grid = vec![None; rows.len() * columns];
        for (r, (line_number, row)) in rows.iter().enumerate() {
            for (c, mark) in row.iter().enumerate() {
                if let Some(mark) = mark {
                    if positions.len() == MAX_CELLS {
                        return Err(Error::InvalidParameter(format!(
                            "{origin}, line {line_number}: more than {MAX_CELLS} cells"
                        )));
                    }
                    grid[r * columns + c] = Some(positions.len());
                    positions.push((r, c));
                    marks.push(*mark);
                }
            }
        }
        if positions.is_empty() {
            return Err(Error::InvalidParameter(format!(
                "{origin}: the board has no cells"
            )));
        }
        if columns > 26 {
            return Err(Error::InvalidParameter(format!(
                "{origin}: more than 26 columns cannot be named a-z"
            )));
        }
        Ok(Board {
            name: origin.to_string(),
            rows: rows.len(),
            columns,
            positions,
            grid,
            marks,
        })
    }

    /// Where the board came from: its built-in name, its file's path, or the origin
    /// [`parse`](Self::parse) was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The board as `board-row=` lines in its file's characters, comments
    /// and trailing blanks dropped: what defines it, wherever it was read
    /// from (part of a stored table's identity).
    pub fn definition(&self) -> String {
        (0..self.rows)
            .map(|row| {
                let line: String = (0..self.columns)
                    .map(|column| match self.grid[row * self.columns + column] {
                        None => '.',
                        Some(cell) => match self.marks[cell] {
                            Mark::Cell => 'o',
                            Mark::Empty => '_',
                            Mark::Black => 'b',
                            Mark::White => 'w',
                        },
                    })
                    .collect();
                format!("board-row={line}\n")
            })
            .collect()
    }

    /// The number of cells on the board.
    pub fn cells(&self) -> usize {
        self.positions.len()
    }

    /// The number of grid rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of grid columns.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// What the board file marks on each cell, in cell order.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// The (row, column) grid point of a cell, counted from 0 at the top left.
    pub fn position(&self, cell: usize) -> (usize, usize) {
        self.positions[cell]
    }

    /// The cell at a grid point, if the board has one there.
    pub fn cell_at(&self, row: i32, column: i32) -> Option<usize> {
        if row < 0 || column < 0 || row as usize >= self.rows || column as usize >= self.columns {
            return None;
        }
        self.grid[row as usize * self.columns + column as usize]
    }

    /// The cell `steps` steps from `cell` in direction `(dr, dc)`.
    pub fn step(&self, cell: usize, (dr, dc): (i32, i32), steps: i32) -> Option<usize> {
        let (r, c) = self.positions[cell];
        self.cell_at(r as i32 + dr * steps, c as i32 + dc * steps)
    }

    /// "d4" for the cell in column d, row 4.
    pub fn cell_name(&self, cell: usize) -> String {
        let (r, c) = self.positions[cell];
        format!("{}{}", (b'a' + c as u8) as char, r + 1)
    }

    /// A cell given as a name ("d4") or a cell index ("16").
    pub fn parse_cell(&self, text: &str) -> Result<usize> {
        let text = text.trim();
        if let Ok(index) = text.parse::<usize>() {
            return if index < self.cells() {
                Ok(index)
            } else {
                Err(Error::InvalidParameter(format!(
                    "cell {index} is not below the board's {} cells",
                    self.cells()
                )))
            };
        }
        let mut chars = text.chars();
        let column = chars
            .next()
            .filter(|c| c.is_ascii_lowercase())
            .map(|c| c as i32 - 'a' as i32);
        let row = chars
            .as_str()
            .parse::<i32>()
            .ok()
            .and_then(|r| r.checked_sub(1));
        match (column, row) {
            (Some(column), Some(row)) => self.cell_at(row, column).ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "{} is not a cell of the board {}",
                    quoted(text),
                    self.name
                ))
            }),
            _ => Err(Error::InvalidParameter(format!(
                "{} is not a cell: give a column letter and a row number (e.g. d4) or a cell index",
                quoted(text)
            ))),
        }
    }

    /// The cell at the centre of the grid, if there is one.
    pub fn centre(&self) -> Option<usize> {
        if self.rows % 2 == 1 && self.columns % 2 == 1 {
            self.cell_at(self.rows as i32 / 2, self.columns as i32 / 2)
        } else {
            None
        }
    }

    /// The symmetries of the square (rotations and reflections) that map
    /// the board onto itself, each as the image of every cell. The identity
    /// comes first.
    pub fn symmetries(&self) -> Vec<Vec<usize>> {
        let (rows, columns) = (self.rows as i32, self.columns as i32);
        let maps: [GridMap; 8] = [
            |r, c, _, _| (r, c),
            |r, c, h, _| (h - 1 - r, c),
            |r, c, _, w| (r, w - 1 - c),
            |r, c, h, w| (h - 1 - r, w - 1 - c),
            |r, c, _, _| (c, r),
            |r, c, _, w| (w - 1 - c, r),
            |r, c, h, _| (c, h - 1 - r),
            |r, c, h, w| (w - 1 - c, h - 1 - r),
        ];
        let mut found = Vec::new();
        for (i, map) in maps.iter().enumerate() {
            // The last four transpose the grid: only a square grid allows them.
            if i >= 4 && rows != columns {
                continue;
            }
            let image: Option<Vec<usize>> = self
                .positions
                .iter()
                .map(|&(r, c)| {
                    let (r2, c2) = map(r as i32, c as i32, rows, columns);
                    self.cell_at(r2, c2)
                })
                .collect();
            if let Some(image) = image.filter(|image| !found.contains(image)) {
                found.push(image);
            }
        }
        found
    }

    /// The cells' symbols on one line, in cell order, rows separated by
    /// `/`: the text form of a position that parsers read back.
    pub fn line(&self, symbol: impl Fn(usize) -> char) -> String {
        let mut text = String::new();
        for cell in 0..self.cells() {
            if cell > 0 && self.position(cell).0 != self.position(cell - 1).0 {
                text.push('/');
            }
            text.push(symbol(cell));
        }
        text
    }

    /// The symbols of a position written as [`line`](Self::line) writes it,
    /// in cell order; white space is ignored and the row separators `/` may
    /// be left out, but where they are given every row must hold as many
    /// symbols as the board's row has cells (a fox written one row down
    /// must not be read at another point). `what` names the symbols for
    /// the count's message: "cells ('o' peg, '.' hole)".
    pub fn position_symbols(&self, text: &str, what: &str) -> Result<Vec<char>> {
        let symbols: Vec<char> = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '/')
            .collect();
        if symbols.len() != self.cells() {
            return Err(Error::InvalidParameter(format!(
                "a position on {} needs {} {what}, got {}",
                self.name(),
                self.cells(),
                symbols.len()
            )));
        }
        if text.contains('/') {
            let mut widths = vec![0usize; 0];
            for cell in 0..self.cells() {
                if cell == 0 || self.position(cell).0 != self.position(cell - 1).0 {
                    widths.push(0);
                }
                *widths.last_mut().expect("a row was opened") += 1;
            }
            let given: Vec<usize> = text
                .split('/')
                .map(|row| row.chars().filter(|c| !c.is_whitespace()).count())
                .collect();
            if given != widths {
                let list = |w: &[usize]| {
                    w.iter()
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join("/")
                };
                return Err(Error::InvalidParameter(format!(
                    "rows of {} points where the rows of {} hold {} (the '/' between rows may be left out, not moved)",
                    list(&given),
                    self.name(),
                    list(&widths)
                )));
            }
        }
        Ok(symbols)
    }

    /// "d2-d4": a piece's move from one cell to another.
    pub fn move_name(&self, from: usize, to: usize) -> String {
        format!("{}-{}", self.cell_name(from), self.cell_name(to))
    }

    /// The board as a diagram: every cell at its grid point, named as
    /// moves name it, with `piece(cell)` on it.
    pub fn diagram(&self, style: Style, piece: impl Fn(usize) -> Option<String>) -> Diagram {
        let cells = (0..self.cells())
            .map(|cell| {
                let (row, column) = self.positions[cell];
                DiagramCell {
                    name: self.cell_name(cell),
                    row,
                    column,
                    piece: piece(cell),
                }
            })
            .collect();
        Diagram {
            rows: self.rows,
            columns: self.columns,
            ..Diagram::new(style, cells)
        }
    }

    /// The board drawn with `symbol(cell)` on each cell and spaces between.
    pub fn draw(&self, symbol: impl Fn(usize) -> char) -> String {
        let mut text = String::new();
        text.push_str("   ");
        for c in 0..self.columns {
            text.push(' ');
            text.push((b'a' + c as u8) as char);
        }
        text.push('\n');
        for r in 0..self.rows {
            text.push_str(&format!("{:>3}", r + 1));
            for c in 0..self.columns {
                text.push(' ');
                text.push(match self.grid[r * self.columns + c] {
                    Some(cell) => symbol(cell),
                    None => ' ',
                });
            }
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_boards_have_the_expected_cells() {
        let english = Board::load("english").unwrap();
        assert_eq!(english.cells(), 33);
        assert_eq!(english.cell_name(english.centre().unwrap()), "d4");
        assert_eq!(english.symmetries().len(), 8);
        assert_eq!(Board::load("french").unwrap().cells(), 37);
        assert_eq!(Board::load("frogs-toads-2").unwrap().cells(), 7);
        let fore_and_aft = Board::load("fore-and-aft").unwrap();
        assert_eq!(fore_and_aft.cells(), 17);
        // The two squares sit at opposite corners: the board is symmetric
        // under a half turn and the two diagonal reflections only.
        assert_eq!(fore_and_aft.symmetries().len(), 4);
        assert_eq!(Board::load("frogs-toads-4").unwrap().cells(), 31);
    }

    #[test]
    fn cells_by_name_and_index() {
        let english = Board::load("english").unwrap();
        assert_eq!(english.parse_cell("c1").unwrap(), 0);
        assert_eq!(english.parse_cell("d4").unwrap(), 16);
        assert_eq!(english.parse_cell("16").unwrap(), 16);
        assert!(english.parse_cell("a1").is_err());
        assert!(english.parse_cell("33").is_err());
        assert!(english.parse_cell("zz").is_err());
    }

    #[test]
    fn bad_board_files_name_the_line() {
        let error = Board::parse("ooo\no?o\n", "test.txt")
            .unwrap_err()
            .to_string();
        assert!(error.contains("test.txt, line 2, column 2"), "{error}");
        assert!(
            Board::parse("# nothing\n...\n", "empty.txt")
                .unwrap_err()
                .to_string()
                .contains("no cells")
        );
        let too_many = "oooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooo";
        assert!(Board::parse(too_many, "wide").is_err());
        assert!(
            Board::load("no-such-board")
                .unwrap_err()
                .to_string()
                .contains("built-in")
        );
    }
}
