//! Fox-and-Geese on the 33-point cross (sections 5, 6.1, 7.2 and 8.1 of
//! Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect Hash
//! Functions* (TZI report 52, Bremen, 2009), Table 7), as a
//! [`LayeredGame`](crate::space::LayeredGame) for two-bit retrograde
//! analysis.
//!
//! The board is the English Peg Solitaire board. Lines run orthogonally
//! everywhere and diagonally through the points whose row + column is even
//! (7x7 coordinates), as on the traditional board. The fox and the geese
//! step along a line to an adjacent empty point, in any direction; the fox
//! may instead jump along a line over an adjacent goose to the empty point
//! beyond, capturing it (one capture a move). The geese win when the fox is
//! to move and cannot; geese that cannot move lose (for up to 8 geese this
//! never matters). Positions the analysis leaves undecided count as won for
//! the fox (section 7.2); with `capture_wins` any capture wins for the fox.
//! With `geese_forward` (the rule usually played with 17 geese) a goose
//! never steps to a lower row (further from the fox's side of the start,
//! the top); its steps are then not reversible, so a goose's steps and the
//! steps that end on a cell are kept apart, and only the mirror that keeps
//! rows (columns a..g reversed) is a symmetry of the game.
//!
//! Layer g holds the positions with g geese, ranked as
//! `fox * 2 C(32, g) + 2 * (binomial rank of the geese among the other 32
//! points) + side` (side 0: fox to move, 1: geese), so the two sides of a
//! position are neighbours, as in Algorithm 4. Blocks are the fox cells.
//! The fox is the first player.
//!
//! With `symmetry`, only the blocks of the fox cells that are least in
//! their orbit under the board's 8 symmetries are stored (7 of 33 cells, so
//! a layer takes 7/33 of the memory and disk): a position with the fox
//! anywhere else is looked up through the symmetry that takes its fox to
//! such a cell, and within a block only the least of a position's images
//! under the symmetries fixing the fox's cell is solved, the others copied
//! from it (section 8.1). Counts weigh each block by its cell's orbit.
//!
//! The files by role: the moves and the game as the retrograde analysis
//! walks it (`rules`), the perfect hash with its symmetries (`hash`),
//! positions as text and pictures and the game as play shows it (`text`),
//! and the GPU's rules (`gpu`, over `fox_geese.wgsl`).

mod gpu;
mod hash;
mod rules;
mod text;

use super::board::{Board, MaskMap, ORTHOGONAL};
use super::registration::{GameOptions, OptionSpec, RegisteredTwoPlayer};
use crate::error::{Error, Result};
use crate::hash::{BinomialRanker, BinomialRun};

/// The number of points on the cross.
pub const CELLS: usize = 33;

const DIAGONAL: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// A position: the fox's cell, the geese as a mask of cells, the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FoxGeeseState {
    /// The fox's cell.
    pub fox: usize,
    /// Cells holding a goose.
    pub geese: u64,
    /// Whether the fox moves next.
    pub fox_to_move: bool,
}

/// A position as the solver holds it: also the run of ranks its unrank
/// came from (in its layer), so that the next rank of a scan, most often
/// in the same run, is unranked with one lookup. It reads as the
/// [`FoxGeeseState`] it holds.
#[derive(Clone, Copy, Debug)]
pub struct Unranked {
    position: FoxGeeseState,
    layer: usize,
    run: BinomialRun,
}

impl std::ops::Deref for Unranked {
    type Target = FoxGeeseState;

    fn deref(&self) -> &FoxGeeseState {
        &self.position
    }
}

/// A step from a cell and the jump beyond it, along one line.
#[derive(Clone, Copy, Debug)]
struct Line {
    next: usize,
    beyond: Option<usize>,
}

/// The rule variant: what a capture means and where geese may step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Any capture wins for the fox (the paper's layers are independent).
    pub capture_wins: bool,
    /// Geese never step to a lower row.
    pub geese_forward: bool,
}

impl Rules {
    /// Geese step only forward, and a capture is just a move: the variant
    /// the tests take beside the default.
    #[cfg(test)]
    pub(crate) const GEESE_FORWARD: Rules = Rules {
        capture_wins: false,
        geese_forward: true,
    };

    /// Every variant, for messages about a store that holds another one.
    const ALL: [Rules; 4] = [
        Rules {
            capture_wins: false,
            geese_forward: false,
        },
        Rules {
            capture_wins: true,
            geese_forward: false,
        },
        Rules {
            capture_wins: false,
            geese_forward: true,
        },
        Rules {
            capture_wins: true,
            geese_forward: true,
        },
    ];
}

/// Fox-and-Geese under one rule variant, with its lines, rankers and symmetries.
#[derive(Clone, Debug)]
pub struct FoxGeese {
    board: Board,
    rules: Rules,
    symmetry: bool,
    /// The lines from each cell: the fox's steps and jumps.
    lines: Vec<Vec<Line>>,
    /// `goose_steps[cell]`: the cells a goose on `cell` may step to.
    goose_steps: Vec<Vec<usize>>,
    /// `goose_origins[cell]`: the cells from which a goose steps to `cell`
    /// (the same lists as `goose_steps` when every step is reversible).
    goose_origins: Vec<Vec<usize>>,
    /// `rankers[g]`: g geese among the 32 points other than the fox's.
    rankers: Vec<BinomialRanker>,
    /// The board's symmetries, applied to masks and to single cells.
    symmetries: Vec<MaskMap>,
    cell_images: Vec<Vec<usize>>,
    /// For each cell, the symmetries that take it to the least cell of its orbit.
    to_canonical: Vec<Vec<usize>>,
    /// For each cell, the symmetries other than the identity that fix it.
    fixing: Vec<Vec<usize>>,
    canonical_cell: Vec<usize>,
    /// The fox cells whose blocks are stored, in rank order: the canonical
    /// cells with symmetry, every cell without.
    stored_cells: Vec<usize>,
    /// `block_of[cell]`: the cell's block among the stored ones, if stored.
    block_of: Vec<Option<usize>>,
}

impl FoxGeese {
    /// The game under the default rule (`geese_forward` off).
    pub fn new(capture_wins: bool, symmetry: bool) -> Result<Self> {
        Self::with_rules(
            Rules {
                capture_wins,
                geese_forward: false,
            },
            symmetry,
        )
    }

    /// The game under `rules`; with `symmetry`, only the blocks of fox cells least in their
    /// orbit are stored.
    pub fn with_rules(rules: Rules, symmetry: bool) -> Result<Self> {
        let board = Board::load("english")?;
        if board.cells() != CELLS {
            return Err(Error::InvalidParameter(
                "the Fox-and-Geese board must have 33 points".into(),
            ));
        }
        let lines = (0..CELLS)
            .map(|cell| {
                let (row, column) = board.position(cell);
                let diagonal = (row + column) % 2 == 0;
                let directions =
                    ORTHOGONAL
                        .iter()
                        .chain(if diagonal { &DIAGONAL[..] } else { &[] });
                directions
                    .filter_map(|&d| {
                        let next = board.step(cell, d, 1)?;
                        Some(Line {
                            next,
                            beyond: board.step(cell, d, 2),
                        })
                    })
                    .collect()
            })
            .collect::<Vec<Vec<Line>>>();
        // Rows count from the top (the fox's side), so a forward goose
        // never steps to a row with a larger number.
        let row = |cell: usize| board.position(cell).0;
        // Per cell, the cells at the end of its lines that `keep` keeps.
        let along_lines = |keep: &dyn Fn(usize, usize) -> bool| -> Vec<Vec<usize>> {
            lines
                .iter()
                .enumerate()
                .map(|(cell, lines)| {
                    let ends = lines.iter().map(|line| line.next);
                    ends.filter(|&end| keep(cell, end)).collect()
                })
                .collect()
        };
        let goose_steps = along_lines(&|cell, next| !rules.geese_forward || row(next) <= row(cell));
        // Listed in the order of the cell's lines, as the default rule's
        // predecessors always were: a store's identity hashes them in order.
        let goose_origins = along_lines(&|cell, from| goose_steps[from].contains(&cell));
        let rankers = (0..CELLS)
            .map(|g| BinomialRanker::new(CELLS - 1, g))
            .collect::<Result<_>>()?;
        // Forward geese tell the rows apart: only the symmetries that keep
        // every cell on its row (the identity and the mirror) remain.
        let symmetries: Vec<Vec<usize>> = board
            .symmetries()
            .into_iter()
            .filter(|image| !rules.geese_forward || (0..CELLS).all(|c| row(image[c]) == row(c)))
            .collect();
        let canonical_cell: Vec<usize> = (0..CELLS)
            .map(|cell| symmetries.iter().map(|image| image[cell]).min().unwrap())
            .collect();
        let to_canonical = (0..CELLS)
            .map(|cell| {
                (0..symmetries.len())
                    .filter(|&g| symmetries[g][cell] == canonical_cell[cell])
                    .collect()
            })
            .collect();
        let fixing = (0..CELLS)
            .map(|cell| {
                (0..symmetries.len())
                    .filter(|&g| symmetries[g][cell] == cell)
                    .filter(|&g| symmetries[g].iter().enumerate().any(|(c, &i)| c != i))
                    .collect()
            })
            .collect();
        let maps = symmetries.iter().map(|image| MaskMap::new(image)).collect();
        let stored_cells: Vec<usize> = (0..CELLS)
            .filter(|&cell| !symmetry || canonical_cell[cell] == cell)
            .collect();
        let mut block_of = vec![None; CELLS];
        for (block, &cell) in stored_cells.iter().enumerate() {
            block_of[cell] = Some(block);
        }
        Ok(FoxGeese {
            board,
            rules,
            symmetry,
            lines,
            goose_steps,
            goose_origins,
            rankers,
            symmetries: maps,
            cell_images: symmetries,
            to_canonical,
            fixing,
            canonical_cell,
            stored_cells,
            block_of,
        })
    }

    /// The English board the game is played on.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether only the blocks of fox cells least in their orbit are stored.
    pub fn symmetry(&self) -> bool {
        self.symmetry
    }

    /// Whether any capture wins for the fox.
    pub fn capture_wins(&self) -> bool {
        self.rules.capture_wins
    }

    /// The rule variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The highest layer: 32 geese around the fox.
    pub fn max_geese(&self) -> usize {
        CELLS - 1
    }
}

impl RegisteredTwoPlayer for FoxGeese {
    const NAME: &'static str = "fox-geese";
    const SUMMARY: &'static str =
        "Fox-and-Geese: 13 to 17 geese try to trap a fox that captures by jumping";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::flag("capture-wins", "Any capture counts as a win for the fox"),
        OptionSpec::flag(
            "geese-forward",
            "Geese never step to a lower row, away from the fox's side (the rule usually played with 17 geese)",
        ),
        OptionSpec::flag(
            "symmetry",
            "Store and solve only the blocks of fox cells least in their orbit under the board's symmetries (8; with --geese-forward only the mirror), and fill the others by mapping",
        ),
    ];

    fn from_options(options: &GameOptions) -> Result<Self> {
        FoxGeese::with_rules(
            Rules {
                capture_wins: options.flag("capture-wins"),
                geese_forward: options.flag("geese-forward"),
            },
            options.flag("symmetry"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORWARD: Rules = Rules::GEESE_FORWARD;

    #[test]
    fn the_board_has_the_traditional_lines() {
        let game = FoxGeese::new(false, false).unwrap();
        let centre = game.board.parse_cell("d4").unwrap();
        assert_eq!(game.lines[centre].len(), 8, "the centre has 8 lines");
        let odd = game.board.parse_cell("d3").unwrap();
        assert_eq!(
            game.lines[odd].len(),
            4,
            "an odd point has orthogonal lines only"
        );
        let corner = game.board.parse_cell("c1").unwrap();
        assert_eq!(
            game.lines[corner].len(),
            3,
            "c1: right, down, and the diagonal to d2"
        );
    }

    #[test]
    fn the_default_rules_store_identities_never_change() {
        // Stores solved for days are found by these names and move hashes:
        // a change to how the rules are written (not to what they are) must
        // keep them, or every existing store is refused.
        use crate::search::identity::layer_identity;
        for (symmetry, definition) in [
            (
                false,
                "layout=33 blocks=a899d6bf27396f3a\nsymmetry=false\nmoves=a5207f87899f4809\n",
            ),
            (
                true,
                "layout=7 blocks=c7c859827d2a1c3e\nsymmetry=true\nmoves=ac1d27e426514345\n",
            ),
        ] {
            let game = FoxGeese::new(false, symmetry).unwrap();
            let identity = layer_identity(&game, 6, "retrograde values", 2);
            assert_eq!(identity.definition, definition, "symmetry {symmetry}");
        }
        // The forward rule's tables are others, under another name.
        let forward = FoxGeese::with_rules(FORWARD, true).unwrap();
        let identity = layer_identity(&forward, 6, "retrograde values", 2);
        assert_eq!(
            identity.descriptor,
            "fox-geese g=6 geese-forward symmetry; retrograde values"
        );
    }
}
