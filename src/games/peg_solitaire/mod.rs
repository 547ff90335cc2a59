//! Peg Solitaire on any board (sections 5 and 7.2 of
//! Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect Hash
//! Functions* (TZI report 52, Bremen, 2009), Table 4).
//!
//! A position is the set of cells holding pegs, a u64 mask. A move jumps a
//! peg orthogonally over a neighbouring peg into the empty cell beyond and
//! removes the jumped peg, so every move removes one peg: the peg count is
//! the BFS layer, exactly. Positions with p pegs are ranked with the
//! binomial hash among C(n, p) (Algorithms 8 and 9), one block per peg
//! count; the one-bit BFS then expands each block once, in the pass of its
//! layer (Algorithm 3 with the layer given by the block).
//!
//! With `symmetry`, only the least of a position's images under the board
//! symmetries that fix the start (all 8 on the English board from the
//! centre) is stored; the searches still report the full counts, weighting
//! each stored position by the size of its orbit (section 8.1).
//!
//! The files by role: the jumps and the space as the searches walk it
//! (`rules`), the binomial hash with its symmetries (`hash`), positions
//! as text and pictures (`text`), and the GPU's expansion (`gpu`, over
//! `peg_solitaire.wgsl`).

mod gpu;
mod hash;
mod rules;
mod text;

use super::board::{Board, Mark, MaskMap, ORTHOGONAL};
use super::registration::{GameOptions, OptionSpec, Registered};
use crate::error::{Error, Result};
use crate::hash::{BinomialRanker, BinomialRun};

/// At most the eight symmetries of a square.
const MAX_SYMMETRIES: usize = 8;

/// The jumps that move alike in cell numbers: from a cell `from` in
/// `froms` over `from + over_step` into `from + to_step`. On a board whose
/// rows differ in length a jump's cells are not a fixed shift apart, but
/// they are within each class (the English board has 12 classes), so one
/// class finds all its legal jumps with a few word operations: no branch
/// per hole and candidate jump (issue 11: the jump tests were a third of
/// an expansion).
#[derive(Clone, Debug)]
struct JumpClass {
    over_step: i32,
    to_step: i32,
    froms: u64,
    /// With symmetry, by `from`: the images under each symmetry in use of
    /// the three cells the jump toggles (0 past the last). The image of a
    /// successor is the parent's image toggled by these: eight XORs instead
    /// of eight table-driven maps per successor.
    images: Vec<[u64; MAX_SYMMETRIES]>,
}

impl JumpClass {
    /// The cells the jump from `from` toggles.
    #[inline(always)]
    fn toggled(&self, from: u32) -> u64 {
        let at = |step: i32| 1u64 << (from as i32 + step);
        at(0) | at(self.over_step) | at(self.to_step)
    }
}

/// A position: the cells holding pegs. It also keeps the run of ranks its
/// unrank came from, so that the next rank of a frontier scan, most often
/// in the same run, is unranked with one lookup (issue 11).
#[derive(Clone, Copy, Debug)]
pub struct Pegs {
    /// Cells holding a peg.
    pub mask: u64,
    run: BinomialRun,
}

impl Pegs {
    /// The position with pegs on the cells of `mask`.
    pub fn new(mask: u64) -> Self {
        Pegs {
            mask,
            run: BinomialRun::default(),
        }
    }
}

/// Peg Solitaire on a board, from a start with one or more holes.
#[derive(Clone, Debug)]
pub struct PegSolitaire {
    board: Board,
    start: u64,
    /// The single-peg position in the start hole, when there is one hole.
    goal: Option<u64>,
    /// `rankers[p]`: positions with p pegs.
    rankers: Vec<BinomialRanker>,
    /// `offsets[p]`: first rank of the block of p pegs.
    offsets: Vec<u64>,
    /// Jumps that land in each cell, as the mask of the two cells each
    /// empties (the GPU kernel's rule table).
    jumps_into: Vec<Vec<u64>>,
    /// The same jumps grouped by how they move (the CPU expansion).
    classes: Vec<JumpClass>,
    /// The symmetries that fix the start, applied to peg masks.
    symmetries: Vec<MaskMap>,
}

impl PegSolitaire {
    /// The board full of pegs but for the cells in `holes`.
    pub fn new(board: Board, holes: &[usize], symmetry: bool) -> Result<Self> {
        let n = board.cells();
        // Every set of pegs is a rank, 2^n in all: a u64 rank (and with it a
        // table's length) holds them only below 64 cells. Refused here, as the
        // sum of the blocks would wrap to 0 and the search allocate unbounded.
        if n >= 64 {
            return Err(Error::SpaceTooLarge(format!(
                "{}: a board of {n} cells has 2^{n} positions, more than a 64-bit rank can index (Peg Solitaire boards hold at most 63 cells)",
                board.name()
            )));
        }
        if holes.is_empty() {
            return Err(Error::InvalidParameter(
                "Peg Solitaire starts with at least one hole".into(),
            ));
        }
        let all = (1u64 << n) - 1;
        let mut start = all;
        for &hole in holes {
            if hole >= n {
                return Err(Error::InvalidParameter(format!(
                    "hole {hole} is not a cell"
                )));
            }
            start &= !(1u64 << hole);
        }
        let goal = (holes.len() == 1).then(|| 1u64 << holes[0]);
        let rankers: Vec<BinomialRanker> = (0..=n)
            .map(|p| BinomialRanker::new(n, p))
            .collect::<Result<_>>()?;
        let mut offsets = Vec::with_capacity(n + 2);
        let mut total = 0u64;
        for ranker in &rankers {
            offsets.push(total);
            total += ranker.size();
        }
        offsets.push(total);

        let mut jumps_into = vec![Vec::new(); n];
        let mut classes: Vec<JumpClass> = Vec::new();
        for from in 0..n {
            for direction in ORTHOGONAL {
                if let (Some(over), Some(to)) = (
                    board.step(from, direction, 1),
                    board.step(from, direction, 2),
                ) {
                    jumps_into[to].push((1u64 << from) | (1u64 << over));
                    let (over_step, to_step) = (over as i32 - from as i32, to as i32 - from as i32);
                    let class = match classes
                        .iter()
                        .position(|c| (c.over_step, c.to_step) == (over_step, to_step))
                    {
                        Some(class) => class,
                        None => {
                            classes.push(JumpClass {
                                over_step,
                                to_step,
                                froms: 0,
                                images: Vec::new(),
                            });
                            classes.len() - 1
                        }
                    };
                    classes[class].froms |= 1u64 << from;
                }
            }
        }

        let mut puzzle = PegSolitaire {
            board,
            start,
            goal,
            rankers,
            offsets,
            jumps_into,
            classes,
            symmetries: Vec::new(),
        };
        if symmetry {
            let maps = puzzle
                .board
                .symmetries()
                .iter()
                .map(|image| MaskMap::new(image))
                .collect::<Vec<_>>();
            puzzle.symmetries = maps
                .into_iter()
                .filter(|map| map.apply(start) == start)
                .collect();
            assert!(puzzle.symmetries.len() <= MAX_SYMMETRIES);
            for class in &mut puzzle.classes {
                class.images = (0..n as u32)
                    .map(|from| {
                        let mut images = [0; MAX_SYMMETRIES];
                        if class.froms >> from & 1 == 1 {
                            let toggled = class.toggled(from);
                            for (image, map) in images.iter_mut().zip(&puzzle.symmetries) {
                                *image = map.apply(toggled);
                            }
                        }
                        images
                    })
                    .collect();
            }
        }
        Ok(puzzle)
    }

    /// The board the game is played on.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The number of cells on the board.
    pub fn cells(&self) -> usize {
        self.board.cells()
    }

    /// The start position: cells holding a peg.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// The number of pegs at the start.
    pub fn start_pegs(&self) -> usize {
        self.start.count_ones() as usize
    }

    /// The jumps landing in cell `to`, each as the mask of the two cells it
    /// empties: the rule table the CPU expansion and the GPU kernel share.
    pub fn jumps_into(&self, to: usize) -> impl Iterator<Item = u64> + '_ {
        self.jumps_into[to].iter().copied()
    }

    /// Symmetries in use (1 when reduction is off).
    pub fn symmetry_count(&self) -> usize {
        self.symmetries.len().max(1)
    }
}

impl Registered for PegSolitaire {
    const NAME: &'static str = "peg-solitaire";
    const SUMMARY: &'static str =
        "Peg Solitaire: jump a peg over a neighbour into a hole, removing the neighbour";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::file(
            "board",
            "BOARD",
            "Board: english (33 holes), french (37 holes), or a board file",
        )
        .with_default("english"),
        OptionSpec::value(
            "start-hole",
            "CELL",
            "The empty hole of the start position (e.g. d4 or a cell number; default the centre)",
        ),
        OptionSpec::flag(
            "symmetry",
            "Store one position per class of board symmetries fixing the start (counts are still those of the full space)",
        ),
    ];

    fn from_options(options: &GameOptions) -> Result<Self> {
        let board = Board::load(options.get("board").unwrap_or("english"))?;
        if board
            .marks()
            .iter()
            .any(|m| matches!(m, Mark::Black | Mark::White))
        {
            return Err(Error::InvalidParameter(format!(
                "{}: Peg Solitaire boards mark cells 'o' (peg) or '_' (hole), not 'b' or 'w'",
                board.name()
            )));
        }
        // Holes marked '_' on the board are the start's holes.
        let marked: Vec<usize> = (0..board.cells())
            .filter(|&c| board.marks()[c] == Mark::Empty)
            .collect();
        let holes = match (options.get("start-hole"), marked.is_empty()) {
            (Some(_), false) => {
                return Err(Error::InvalidParameter(format!(
                    "{} marks its start holes with '_': give --start-hole or the marks, not both",
                    board.name()
                )));
            }
            (Some(cell), true) => vec![board.parse_cell(cell)?],
            (None, false) => marked,
            (None, true) => vec![board.centre().ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "{} has no centre cell: give --start-hole or mark holes '_'",
                    board.name()
                ))
            })?],
        };
        PegSolitaire::new(board, &holes, options.flag("symmetry"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Space;
    pub(super) fn english(symmetry: bool) -> PegSolitaire {
        let board = Board::load("english").unwrap();
        let centre = board.centre().unwrap();
        PegSolitaire::new(board, &[centre], symmetry).unwrap()
    }

    #[test]
    fn a_board_of_64_cells_is_refused_and_63_fit() {
        let square = |cells: usize| {
            let text: String = (0..cells)
                .map(|c| if c % 8 == 7 { "o\n" } else { "o" })
                .collect();
            Board::parse(&text, "square").unwrap()
        };
        let error = PegSolitaire::new(square(64), &[0], false).unwrap_err();
        assert!(matches!(error, Error::SpaceTooLarge(_)), "{error}");
        assert!(error.to_string().contains("2^64"), "{error}");
        let game = PegSolitaire::new(square(63), &[0], false).unwrap();
        assert_eq!(game.size(), 1u64 << 63);
    }
}
