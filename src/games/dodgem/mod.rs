//! Dodgem (Colin Vout; Berlekamp, Conway and Guy, *Winning Ways*, chapter
//! 22) on an n x n board, as a
//! [`LayeredGame`](crate::space::LayeredGame) for two-bit retrograde
//! analysis.
//!
//! Blue has n-1 cars on the left edge, red n-1 on the bottom edge (the
//! bottom-left square empty); blue moves first. A blue car moves one square
//! right (forward), up or down; a red car up (forward), left or right; only
//! onto empty squares. A car on the far edge (blue: the right column, red:
//! the top row) may drive forward off the board and is out of the game. The
//! player who has no legal move on their turn (every car gone, or blocked)
//! wins. Play can cycle for ever: such positions are draws. Published
//! values: 3 x 3 is a first-player win (*Winning Ways*, which tabulates
//! every position); 4 x 4 and 5 x 5 are draws with perfect play (David des
//! Jardins, 1996).
//!
//! Layer L holds the positions with L cars on the board (a car that leaves
//! never comes back, so moves stay in a layer or go one lower). A layer is
//! cut into blocks by the number of blue cars b (red: L - b), and a
//! position's rank in its block is `2 * (rank of the blue cars among the n²
//! squares * C(n² - b, r) + rank of the red cars among the other squares) +
//! side` (side 0: blue to move). Squares are numbered row by row from the
//! bottom-left (a1 = 0).
//!
//! The files by role: the moves and the game as the retrograde analysis
//! walks it (`rules`), the hash of a layer's blocks (`hash`), positions as
//! text and pictures and the game as play shows it (`text`), and the GPU's
//! rules (`gpu`, over `dodgem.wgsl`).

mod gpu;
mod hash;
pub(crate) mod kit;
mod rules;
mod text;

use super::registration::{GameOptions, OptionSpec, RegisteredTwoPlayer};
use crate::error::{Error, Result};
use crate::hash::BinomialRanker;

/// A position: blue and red cars as masks of squares, the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DodgemState {
    /// Squares holding a blue car, bit `row * n + column`.
    pub blue: u64,
    /// Squares holding a red car, bit `row * n + column`.
    pub red: u64,
    /// Whether blue moves next.
    pub blue_to_move: bool,
}

/// A car's step: (rows, columns); blue's forward is right, red's is up.
const BLUE_STEPS: [(i32, i32); 3] = [(0, 1), (1, 0), (-1, 0)];
const RED_STEPS: [(i32, i32); 3] = [(1, 0), (0, -1), (0, 1)];

/// Dodgem on an n x n board, with the rankers that number its positions.
#[derive(Clone, Debug)]
pub struct Dodgem {
    n: usize,
    /// `blue_rankers[b]`: b blue cars among the n² squares.
    blue_rankers: Vec<BinomialRanker>,
    /// `red_rankers[b][r]`: r red cars among the n² - b squares left.
    red_rankers: Vec<Vec<BinomialRanker>>,
}

impl Dodgem {
    /// Boards from 3 x 3 to 5 x 5 (6 x 6 has layers of 128 G positions).
    pub const SIZES: std::ops::RangeInclusive<usize> = 3..=5;

    /// Dodgem on an `n` x `n` board; `n` must lie in [`Self::SIZES`].
    pub fn new(n: usize) -> Result<Self> {
        if !Self::SIZES.contains(&n) {
            return Err(Error::InvalidParameter(format!(
                "Dodgem is played on boards of {} to {} squares a side, got {n}",
                Self::SIZES.start(),
                Self::SIZES.end()
            )));
        }
        let squares = n * n;
        let cars = n - 1;
        let blue_rankers = (0..=cars)
            .map(|b| BinomialRanker::new(squares, b))
            .collect::<Result<Vec<_>>>()?;
        let red_rankers = (0..=cars)
            .map(|b| {
                (0..=cars)
                    .map(|r| BinomialRanker::new(squares - b, r))
                    .collect::<Result<Vec<_>>>()
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Dodgem {
            n,
            blue_rankers,
            red_rankers,
        })
    }

    /// The number of squares along a side of the board.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Cars each side starts with.
    pub fn cars(&self) -> usize {
        self.n - 1
    }

    fn all_squares(&self) -> u64 {
        (1u64 << (self.n * self.n)) - 1
    }

    /// The start: blue on a2..a(n), red on b1..(n)1, blue to move.
    pub fn start(&self) -> DodgemState {
        let n = self.n;
        DodgemState {
            blue: (1..n).fold(0, |mask, row| mask | 1 << (row * n)),
            red: (1..n).fold(0, |mask, column| mask | 1 << column),
            blue_to_move: true,
        }
    }

    fn square(&self, row: i32, column: i32) -> Option<usize> {
        let n = self.n as i32;
        ((0..n).contains(&row) && (0..n).contains(&column)).then(|| (row * n + column) as usize)
    }

    fn row_column(&self, square: usize) -> (i32, i32) {
        ((square / self.n) as i32, (square % self.n) as i32)
    }

    /// "a1" is the bottom-left square.
    pub fn square_name(&self, square: usize) -> String {
        let (row, column) = self.row_column(square);
        format!("{}{}", (b'a' + column as u8) as char, row + 1)
    }
}

impl RegisteredTwoPlayer for Dodgem {
    const NAME: &'static str = "dodgem";
    const SUMMARY: &'static str = "Dodgem: n-1 blue and n-1 red cars race across an n x n board (two players, draws by cycles)";
    const OPTIONS: &'static [OptionSpec] = &[OptionSpec::value(
        "n",
        "N",
        "Squares a side of the board (3..=5); each side has n-1 cars",
    )
    .with_default("3")];

    fn from_options(options: &GameOptions) -> Result<Self> {
        Dodgem::new(options.number("n")?.unwrap_or(3))
    }
}
