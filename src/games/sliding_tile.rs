//! The w x h sliding-tile puzzle (section 4.2 of Edelkamp et al., *Solving
//! Games in Parallel with Linear-Time Perfect Hash Functions* (TZI report 52,
//! Bremen, 2009)).
//!
//! Cells are numbered row by row. A state is the blank's cell plus the
//! order of the w*h-1 tiles read row by row skipping the blank. Moving the
//! blank sideways leaves that order unchanged; moving it up or down rotates
//! w consecutive entries, a permutation of parity w-1. So within the block
//! of one blank cell every reachable order has one fixed parity, and the
//! order is ranked with a folded rank (Theorem 7):
//! rank = blank * (w*h-1)!/2 + folded rank, (w*h)!/2 ranks in all. The paper
//! folds Myrvold–Ruskey; here the folded prefix Lehmer code
//! (`crate::hash::prefix_lehmer`) ranks the order, in which a vertical move
//! changes only the w digits of the entries it rotates, so a successor's
//! rank comes from its parent's in O(w) (issue 11).
//!
//! The blank's square colour (row + column mod 2) flips with every move: a
//! move-alternation property on blocks, which drives the one-bit BFS of
//! Algorithm 7, with the sideways moves applied as whole-block ORs.

use super::permutation_state::{PermutationBuffer, check_permutation, parse_numbers};
use super::registration::{GameOptions, OptionSpec, Registered};
use crate::diagram::{Cell, Diagram, Style};
use crate::error::{Error, Result};
use crate::hash::permutation::{factorial, is_odd};
use crate::hash::prefix_lehmer::{self, UnrankCache};
use crate::kernel::Program;
use crate::space::{Block, BlockLayering, MoveFilter, Picture, Space};

/// The GPU expansion of this game (see [`crate::kernel`]).
const SLIDING_TILE_KERNEL: &str = include_str!("sliding_tile.wgsl");

/// (w*h)!/2 must fit a u64.
pub const MAX_CELLS: usize = 20;

/// The sliding-tile puzzle on a width x height board, one cell blank.
#[derive(Clone, Debug)]
pub struct SlidingTile {
    width: usize,
    height: usize,
    /// States per blank cell: (w*h-1)!/2.
    per_blank: u64,
    start_blank: usize,
    start_tiles: PermutationBuffer,
    /// Parity (true = odd) of the tile order of reachable states, per blank cell.
    odd_in_block: Vec<bool>,
}

/// A position: the blank's cell and the tiles in the other cells.
#[derive(Clone, Debug)]
pub struct SlidingTileState {
    blank: usize,
    /// Tiles (numbered from 0) in cell order, skipping the blank.
    tiles: PermutationBuffer,
    in_block: u64,
    /// What the last unrank into this state decoded (only `unrank` changes
    /// the tiles of a state after it is made).
    cache: UnrankCache,
}

impl SlidingTile {
    /// The puzzle whose search starts from the goal with the blank in the
    /// top-left corner and the tiles in order.
    pub fn new(width: usize, height: usize) -> Result<Self> {
        if width < 2 || height < 2 {
            return Err(Error::InvalidParameter(format!(
                "the sliding-tile board must be at least 2 x 2, got {width} x {height}"
            )));
        }
        let cells = width
            .checked_mul(height)
            .filter(|&c| c <= MAX_CELLS)
            .ok_or_else(|| {
                Error::SpaceTooLarge(format!(
                    "a {width} x {height} board: (w*h)!/2 states do not fit a 64-bit rank (at most {MAX_CELLS} cells)"
                ))
            })?;
        let start_tiles = PermutationBuffer::identity(cells - 1);
        let mut puzzle = SlidingTile {
            width,
            height,
            per_blank: factorial(cells - 1)? / 2,
            start_blank: 0,
            start_tiles,
            odd_in_block: Vec::new(),
        };
        puzzle.odd_in_block = (0..cells)
            .map(|blank| puzzle.reachable_parity(blank))
            .collect();
        Ok(puzzle)
    }

    /// The number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The number of cells, the blank's included.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Per blank cell, whether the reachable tile orders there are odd (the
    /// class the folded hash unranks into).
    pub fn odd_orders(&self) -> &[bool] {
        &self.odd_in_block
    }

    /// Parity of the tile orders reachable with the blank at `blank`: each
    /// row the blank changes adds a rotation of w entries (parity w-1).
    fn reachable_parity(&self, blank: usize) -> bool {
        let rows_moved = (blank / self.width).abs_diff(self.start_blank / self.width);
        let flips = (self.width - 1) % 2 == 1 && rows_moved % 2 == 1;
        is_odd(self.start_tiles.as_slice()) ^ flips
    }

    fn colour(&self, cell: usize) -> u64 {
        ((cell / self.width + cell % self.width) % 2) as u64
    }

    /// The board as tile numbers (1-based, 0 for the blank), row by row.
    pub fn board(&self, state: &SlidingTileState) -> Vec<u8> {
        let mut board = Vec::with_capacity(self.cells());
        let mut tiles = state.tiles.as_slice().iter();
        for cell in 0..self.cells() {
            if cell == state.blank {
                board.push(0);
            } else {
                board.push(tiles.next().unwrap() + 1);
            }
        }
        board
    }
}

impl Registered for SlidingTile {
    const NAME: &'static str = "sliding-tile";
    const SUMMARY: &'static str =
        "w x h sliding-tile puzzle, searched from the goal with the blank in the top-left corner";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value("width", "WIDTH", "Board width (columns)"),
        OptionSpec::value("height", "HEIGHT", "Board height (rows)"),
    ];

    fn from_options(options: &GameOptions) -> Result<Self> {
        SlidingTile::new(
            options.required_number("width")?,
            options.required_number("height")?,
        )
    }
}

impl Space for SlidingTile {
    fn gpu_program(&self) -> Result<Program> {
        let odd: Vec<u32> = self.odd_orders().iter().map(|&o| o as u32).collect();
        let mut program = Program::default();
        program
            .constant("WIDTH", self.width() as u32)
            .constant("HEIGHT", self.height() as u32)
            .table("ODD_AT", &odd)
            .prefix_lehmer_hash(self.cells())
            .source(SLIDING_TILE_KERNEL);
        Ok(program)
    }

    type State = SlidingTileState;

    fn descriptor(&self) -> String {
        format!("sliding-tile {}x{}", self.width, self.height)
    }

    fn size(&self) -> u64 {
        self.per_blank * self.cells() as u64
    }

    fn blocks(&self) -> Vec<Block> {
        (0..self.cells() as u64)
            .map(|blank| Block {
                start: blank * self.per_blank,
                len: self.per_blank,
            })
            .collect()
    }

    fn start_ranks(&self) -> Vec<u64> {
        let state = SlidingTileState {
            blank: self.start_blank,
            tiles: self.start_tiles.clone(),
            in_block: 0,
            cache: UnrankCache::default(),
        };
        vec![self.rank(&state)]
    }

    fn new_state(&self) -> SlidingTileState {
        SlidingTileState {
            blank: 0,
            tiles: PermutationBuffer::identity(self.cells() - 1),
            in_block: 0,
            cache: UnrankCache::default(),
        }
    }

    #[inline]
    fn unrank(&self, rank: u64, state: &mut SlidingTileState) {
        let blank = (rank / self.per_blank) as usize;
        state.blank = blank;
        state.in_block = rank % self.per_blank;
        prefix_lehmer::unrank_folded_cached(
            state.in_block,
            self.odd_in_block[blank],
            state.tiles.as_mut_slice(),
            &mut state.cache,
        );
    }

    fn rank(&self, state: &SlidingTileState) -> u64 {
        state.blank as u64 * self.per_blank + prefix_lehmer::rank_folded(state.tiles.as_slice())
    }

    #[inline]
    fn expand<F: FnMut(u64)>(&self, state: &SlidingTileState, moves: MoveFilter, mut emit: F) {
        let (w, blank) = (self.width, state.blank);
        let (row, column) = (blank / w, blank % w);
        if moves == MoveFilter::All {
            // Sideways: same tile order, neighbouring block, same rank in it.
            if column > 0 {
                emit((blank as u64 - 1) * self.per_blank + state.in_block);
            }
            if column + 1 < w {
                emit((blank as u64 + 1) * self.per_blank + state.in_block);
            }
        }
        let tiles = state.tiles.as_slice();
        let rank = prefix_lehmer::unfold(state.in_block, tiles);
        if row + 1 < self.height {
            // Blank down: the tile below (order index blank+w-1) moves to
            // index `blank`, the w-1 tiles in between shift right.
            let window = std::iter::once(tiles[blank + w - 1])
                .chain((blank..blank + w - 1).map(|i| tiles[i]));
            let moved = prefix_lehmer::rank_with_window(rank, tiles, blank, w, window) >> 1;
            emit((blank + w) as u64 * self.per_blank + moved);
        }
        if row > 0 {
            // Blank up: the tile above (index blank-w) moves to index blank-1.
            let window = (blank - w + 1..blank)
                .map(|i| tiles[i])
                .chain(std::iter::once(tiles[blank - w]));
            let moved = prefix_lehmer::rank_with_window(rank, tiles, blank - w, w, window) >> 1;
            emit((blank - w) as u64 * self.per_blank + moved);
        }
    }

    fn layering(&self) -> Option<BlockLayering> {
        let cells = self.cells();
        let start_colour = self.colour(self.start_blank);
        Some(BlockLayering {
            modulus: 2,
            residues: (0..cells).map(|b| self.colour(b) ^ start_colour).collect(),
            rank_preserving: (0..cells)
                .map(|b| {
                    let column = b % self.width;
                    let mut targets = Vec::new();
                    if column > 0 {
                        targets.push(b - 1);
                    }
                    if column + 1 < self.width {
                        targets.push(b + 1);
                    }
                    targets
                })
                .collect(),
            exact: false,
        })
    }

    fn reversible(&self) -> bool {
        true
    }
}

impl Picture for SlidingTile {
    /// "1,2,3,4,0,5": the tiles row by row, 0 for the blank.
    fn position_text(&self, state: &SlidingTileState) -> String {
        let tiles: Vec<String> = self.board(state).iter().map(u8::to_string).collect();
        tiles.join(",")
    }

    /// "5 up": the tile that slides into the blank, and where it goes.
    fn move_name(&self, from: &SlidingTileState, to: &SlidingTileState) -> String {
        let tile = self.board(to)[from.blank];
        let direction = if to.blank + self.width == from.blank {
            "down"
        } else if from.blank + self.width == to.blank {
            "up"
        } else if to.blank + 1 == from.blank {
            "right"
        } else {
            "left"
        };
        format!("{tile} {direction}")
    }

    /// The tiles on their squares by number; the blank holds none.
    fn diagram(&self, state: &SlidingTileState) -> Diagram {
        let cells = self
            .board(state)
            .into_iter()
            .enumerate()
            .map(|(square, tile)| Cell {
                name: square.to_string(),
                row: square / self.width,
                column: square % self.width,
                piece: (tile != 0).then(|| tile.to_string()),
            })
            .collect();
        Diagram::new(Style::Squares, cells)
    }

    fn draw(&self, state: &SlidingTileState) -> String {
        let board = self.board(state);
        let mut picture = String::new();
        for row in board.chunks(self.width) {
            let cells: Vec<String> = row
                .iter()
                .map(|&tile| {
                    if tile == 0 {
                        "  .".to_string()
                    } else {
                        format!("{tile:>3}")
                    }
                })
                .collect();
            picture.push_str(&cells.join(" "));
            picture.push('\n');
        }
        picture
    }

    /// The tiles row by row, 0 for the blank, e.g. "1,2,3,4,0,5,7,8,6".
    fn read_position(&self, text: &str) -> Result<SlidingTileState> {
        let numbers = parse_numbers(text)?;
        if numbers.len() != self.cells() {
            return Err(Error::InvalidParameter(format!(
                "a {} x {} board needs {} numbers, got {}",
                self.width,
                self.height,
                self.cells(),
                numbers.len()
            )));
        }
        check_permutation(&numbers, 0, "the board")?;
        let blank = numbers.iter().position(|&t| t == 0).unwrap();
        let mut state = self.new_state();
        let tiles: Vec<u8> = numbers
            .iter()
            .filter(|&&t| t != 0)
            .map(|&t| (t - 1) as u8)
            .collect();
        state.tiles.as_mut_slice().copy_from_slice(&tiles);
        state.blank = blank;
        if is_odd(state.tiles.as_slice()) != self.odd_in_block[blank] {
            return Err(Error::InvalidParameter(
                "this board cannot be reached from the goal (wrong permutation parity)".into(),
            ));
        }
        state.in_block = prefix_lehmer::rank_folded(state.tiles.as_slice());
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_slides_are_named() {
        for (w, h) in [(2, 2), (2, 3), (3, 2)] {
            crate::space::assert_positions_and_moves_are_named(&SlidingTile::new(w, h).unwrap());
        }
        let space = SlidingTile::new(3, 2).unwrap();
        let from = space.parse_position("1,2,3,4,0,5").unwrap();
        assert_eq!(space.position_text(&from), "1,2,3,4,0,5");
        let name = |text| space.move_name(&from, &space.parse_position(text).unwrap());
        assert_eq!(name("1,0,3,4,2,5"), "2 down");
        assert_eq!(name("1,2,3,0,4,5"), "4 right");
        assert_eq!(name("1,2,3,4,5,0"), "5 left");
    }

    #[test]
    fn rank_and_unrank_agree_on_the_whole_space() {
        for (w, h) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
            crate::space::assert_rank_inverts_unrank(&SlidingTile::new(w, h).unwrap());
        }
        // 3 x 3 and 2 x 4: 8 and 7 tiles, past the 6 the unrank caches.
        for (w, h) in [(3, 3), (4, 2), (2, 4)] {
            crate::space::assert_reused_states_expand_like_fresh_ones(
                &SlidingTile::new(w, h).unwrap(),
            );
        }
    }

    /// Moves checked on the board picture: the tile next to the blank swaps
    /// with it, nothing else changes.
    #[test]
    fn moves_swap_the_blank_with_a_neighbouring_tile() {
        let space = SlidingTile::new(3, 3).unwrap();
        let mut state = space.new_state();
        let mut successor = space.new_state();
        for rank in (0..space.size()).step_by(101) {
            space.unrank(rank, &mut state);
            let board = space.board(&state);
            let mut successors = 0;
            space.expand(&state, MoveFilter::All, |r| {
                successors += 1;
                space.unrank(r, &mut successor);
                let next = space.board(&successor);
                let (a, b) = (state.blank, successor.blank);
                let (row_a, col_a, row_b, col_b) = (a / 3, a % 3, b / 3, b % 3);
                assert_eq!(row_a.abs_diff(row_b) + col_a.abs_diff(col_b), 1);
                let mut expected = board.clone();
                expected.swap(a, b);
                assert_eq!(next, expected);
            });
            let (row, col) = (state.blank / 3, state.blank % 3);
            let neighbours = [row > 0, row < 2, col > 0, col < 2]
                .iter()
                .filter(|&&x| x)
                .count();
            assert_eq!(successors, neighbours);
        }
    }

    #[test]
    fn boards_below_two_by_two_or_beyond_u64_are_errors() {
        assert!(SlidingTile::new(1, 5).is_err());
        assert!(SlidingTile::new(4, 5).is_ok());
        assert!(matches!(
            SlidingTile::new(3, 7),
            Err(Error::SpaceTooLarge(_))
        ));
    }
}
