//! Positions as data for drawing programs (the explorer's SVG boards): the
//! cells of a board, stack, ring or cube net laid out on a grid, each with
//! its name and what lies on it. `Picture::draw` gives the same position as
//! terminal text; a diagram lets a client draw it without knowing the
//! game's rules, and two diagrams tell which cells a move changed.

use serde::Serialize;

/// How a client should draw a diagram's cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    /// Pieces on the points of a board, joined by the lines they move along
    /// (Fox-and-Geese).
    Points,
    /// Pieces (pegs, frogs, cars, tiles, stones) on the cells of a board.
    Squares,
    /// A stack from the top, one cell a row; a piece is a size, negative
    /// for a burned side up (Pancake).
    Stack,
    /// Tokens around a ring in one row, the turnstile over the first
    /// `window` of them (Top-Spin).
    Ring,
    /// A cube's faces unfolded; each piece names the colour of a sticker.
    Net,
    /// The cells of a Hex board: row r is shifted half a cell right of
    /// row r - 1.
    Hex,
}

/// One cell of a diagram: its name, its place on the grid and what lies on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The cell's name as moves spell it ("d4"), or its index.
    pub name: String,
    /// Row of the grid, from the top.
    pub row: usize,
    /// Column of the grid, from the left.
    pub column: usize,
    /// What lies on the cell: a piece's symbol ("F", "g", "o", "5"), or
    /// `None` for an empty cell.
    pub piece: Option<String>,
}

/// A position laid out on a grid for drawing: its cells and how to draw them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagram {
    /// How to draw the cells.
    pub style: Style,
    /// Rows of the grid: enough for every cell.
    pub rows: usize,
    /// Columns of the grid: enough for every cell.
    pub columns: usize,
    /// The board's cells; lines and sketches name a cell by its index here.
    pub cells: Vec<Cell>,
    /// Lines between cells (indices into `cells`) that the board draws.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<[usize; 2]>,
    /// Top-Spin: how many tokens the turnstile reverses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<usize>,
}

impl Diagram {
    /// A diagram of cells given as (name, row, column, piece).
    pub fn new(style: Style, cells: Vec<Cell>) -> Self {
        let rows = cells.iter().map(|c| c.row + 1).max().unwrap_or(0);
        let columns = cells.iter().map(|c| c.column + 1).max().unwrap_or(0);
        Diagram {
            style,
            rows,
            columns,
            cells,
            lines: Vec::new(),
            window: None,
        }
    }

    /// One row of cells named by their index, with these pieces.
    pub fn row(style: Style, pieces: impl IntoIterator<Item = Option<String>>) -> Self {
        let cells = pieces
            .into_iter()
            .enumerate()
            .map(|(index, piece)| Cell {
                name: index.to_string(),
                row: 0,
                column: index,
                piece,
            })
            .collect();
        Diagram::new(style, cells)
    }

    /// One column of cells from the top, named by their index.
    pub fn column(style: Style, pieces: impl IntoIterator<Item = Option<String>>) -> Self {
        let cells = pieces
            .into_iter()
            .enumerate()
            .map(|(index, piece)| Cell {
                name: index.to_string(),
                row: index,
                column: 0,
                piece,
            })
            .collect();
        Diagram::new(style, cells)
    }
}

/// What a move does to a diagram, for drawing it on the board: the piece
/// that moved (`from` → `to`; `to` is `None` when it left the board, `from`
/// is `None` when a piece was placed), the pieces it removed, and every
/// cell that changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MoveSketch {
    /// Index of the cell the moved piece left; `None` when it was placed.
    pub from: Option<usize>,
    /// Index of the cell the moved piece reached; `None` when it left the board.
    pub to: Option<usize>,
    /// Indices of the cells whose pieces the move removed.
    pub removed: Vec<usize>,
    /// Indices of every cell whose piece changed.
    pub changed: Vec<usize>,
}

/// The sketch of the move from `before` to `after` (two diagrams of one
/// game). A piece that lands on an empty cell came from an emptied cell
/// holding the same piece; of several (a peg jump empties the jumping
/// peg's cell and the jumped one), the farthest from the landing cell
/// moved, as a jump passes over the nearer one.
pub fn sketch(before: &Diagram, after: &Diagram) -> MoveSketch {
    let mut sketch = MoveSketch::default();
    if before.cells.len() != after.cells.len() {
        return sketch;
    }
    let pairs: Vec<(&Cell, &Cell)> = before.cells.iter().zip(&after.cells).collect();
    sketch.changed = (0..pairs.len())
        .filter(|&i| pairs[i].0.piece != pairs[i].1.piece)
        .collect();
    let emptied: Vec<usize> = sketch
        .changed
        .iter()
        .copied()
        .filter(|&i| pairs[i].0.piece.is_some() && pairs[i].1.piece.is_none())
        .collect();
    let filled: Vec<usize> = sketch
        .changed
        .iter()
        .copied()
        .filter(|&i| pairs[i].0.piece.is_none() && pairs[i].1.piece.is_some())
        .collect();
    match filled.as_slice() {
        [to] => {
            let piece = &pairs[*to].1.piece;
            let distance = |i: usize| {
                let (a, b) = (&before.cells[i], &before.cells[*to]);
                a.row.abs_diff(b.row) + a.column.abs_diff(b.column)
            };
            sketch.from = emptied
                .iter()
                .copied()
                .filter(|&i| pairs[i].0.piece == *piece)
                .max_by_key(|&i| distance(i));
            sketch.to = Some(*to);
        }
        [] if emptied.len() == 1 => sketch.from = Some(emptied[0]),
        _ => {}
    }
    sketch.removed = emptied
        .into_iter()
        .filter(|&i| Some(i) != sketch.from)
        .collect();
    sketch
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(pieces: &[Option<&str>]) -> Diagram {
        Diagram::row(Style::Squares, pieces.iter().map(|p| p.map(str::to_string)))
    }

    #[test]
    fn a_jump_moves_the_far_piece_and_removes_the_near_one() {
        let before = board(&[Some("o"), Some("o"), None, Some("o")]);
        let after = board(&[None, None, Some("o"), Some("o")]);
        let found = sketch(&before, &after);
        assert_eq!((found.from, found.to), (Some(0), Some(2)));
        assert_eq!(found.removed, vec![1]);
        assert_eq!(found.changed, vec![0, 1, 2]);
    }

    #[test]
    fn a_capture_moves_the_piece_of_the_same_kind() {
        let before = board(&[None, Some("g"), Some("F")]);
        let after = board(&[Some("F"), None, None]);
        let found = sketch(&before, &after);
        assert_eq!((found.from, found.to), (Some(2), Some(0)));
        assert_eq!(found.removed, vec![1]);
    }

    #[test]
    fn leaving_placing_and_rearranging() {
        let off = sketch(&board(&[Some("B"), None]), &board(&[None, None]));
        assert_eq!((off.from, off.to), (Some(0), None));
        let placed = sketch(&board(&[None, None]), &board(&[None, Some("x")]));
        assert_eq!((placed.from, placed.to), (None, Some(1)));
        let flip = sketch(
            &board(&[Some("2"), Some("1"), Some("3")]),
            &board(&[Some("1"), Some("2"), Some("3")]),
        );
        assert_eq!((flip.from, flip.to), (None, None));
        assert_eq!(flip.changed, vec![0, 1]);
    }
}
