//! Fox-and-Geese on the 33-point cross (sections 5, 6.1, 7.2 and 8.1 of
//! Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect Hash
//! Functions* (TZI report 52, Bremen, 2009), Table 7), as a [`LayeredGame`]
//! for two-bit retrograde analysis.
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

use super::board::{Board, MaskMap, ORTHOGONAL};
use super::registration::{GameOptions, OptionSpec, RegisteredTwoPlayer};
use super::two_player_game::TwoPlayerGame;
use crate::diagram::{Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::hash::{BinomialRanker, BinomialRun};
use crate::kernel::{self, Program};
use crate::space::{Block, LayeredGame, MoveWindow, Player, Successor, Value};

/// The number of points on the cross.
pub const CELLS: usize = 33;

/// The rules of the GPU's retrograde passes (see [`crate::kernel`]).
const RETRO_KERNEL: &str = include_str!("fox_geese.wgsl");
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

/// Removes bit `gap` from `mask`, closing the gap.
#[inline(always)]
fn squeeze(mask: u64, gap: usize) -> u64 {
    let below = (1u64 << gap) - 1;
    (mask & below) | ((mask >> 1) & !below)
}

/// Inverse of [`squeeze`]: reopens the gap at `gap` with a zero.
#[inline(always)]
fn widen(mask: u64, gap: usize) -> u64 {
    let below = (1u64 << gap) - 1;
    (mask & below) | ((mask & !below) << 1)
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

    /// Positions per fox cell in layer g: both sides to move.
    fn per_fox(&self, geese: usize) -> u64 {
        2 * self.rankers[geese].size()
    }

    /// The same position as a canonical one: the least image under the
    /// symmetries taking the fox to the least cell of its orbit.
    #[inline]
    pub fn canonical(&self, state: &FoxGeeseState) -> FoxGeeseState {
        if !self.symmetry {
            return *state;
        }
        let apply = |&g: &usize| self.symmetries[g].apply(state.geese);
        let geese = if self.canonical_cell[state.fox] == state.fox {
            // The identity is among the maps: no lookups for it (the
            // solver's moves mostly keep the fox on its stored cell).
            self.fixing[state.fox]
                .iter()
                .map(apply)
                .fold(state.geese, u64::min)
        } else {
            self.to_canonical[state.fox]
                .iter()
                .map(apply)
                .min()
                .unwrap()
        };
        FoxGeeseState {
            fox: self.canonical_cell[state.fox],
            geese,
            fox_to_move: state.fox_to_move,
        }
    }

    /// True when the fox cell is one whose block is stored and solved (all
    /// of them without symmetry).
    pub fn solves_block(&self, fox: usize) -> bool {
        self.block_of[fox].is_some()
    }

    /// The fox cells whose blocks a layer's table holds, in rank order.
    pub fn stored_cells(&self) -> &[usize] {
        &self.stored_cells
    }

    /// Rank of a position whose fox is on a stored cell, as it is (without
    /// mapping it to its canonical twin).
    #[inline]
    fn raw_rank(&self, state: &FoxGeeseState) -> u64 {
        let geese = state.geese.count_ones() as usize;
        let block = self.block_of[state.fox].expect("the fox stands on a stored cell");
        block as u64 * self.per_fox(geese)
            + 2 * self.rankers[geese].rank(squeeze(state.geese, state.fox))
            + (!state.fox_to_move) as u64
    }

    /// Rank of a position in its layer, through the canonical form.
    #[inline]
    pub fn rank_of(&self, state: &FoxGeeseState) -> u64 {
        self.raw_rank(&self.canonical(state))
    }

    fn empty(&self, state: &FoxGeeseState, cell: usize) -> bool {
        cell != state.fox && state.geese >> cell & 1 == 0
    }

    /// The fox's captures (landing cell, captured goose) and steps, and the
    /// geese's steps (from, to), as the positions they lead to.
    pub fn moves(&self, state: &FoxGeeseState) -> Vec<FoxGeeseState> {
        let mut moves = Vec::new();
        self.for_each_move(state, |next| {
            moves.push(next);
            true
        });
        moves
    }

    /// A move's destination as the solver names it: its layer (the geese
    /// left) and rank.
    #[inline(always)]
    fn successor(&self, next: &FoxGeeseState) -> Successor {
        Successor {
            layer: next.geese.count_ones() as usize,
            rank: self.rank_of(next),
        }
    }

    /// Calls `visit` with every position a move leads to, captures first,
    /// until it returns false.
    fn for_each_move(&self, state: &FoxGeeseState, mut visit: impl FnMut(FoxGeeseState) -> bool) {
        if state.fox_to_move {
            if !self.for_each_capture(state, &mut visit) {
                return;
            }
            for line in &self.lines[state.fox] {
                if self.empty(state, line.next) {
                    let next = FoxGeeseState {
                        fox: line.next,
                        geese: state.geese,
                        fox_to_move: false,
                    };
                    if !visit(next) {
                        return;
                    }
                }
            }
        } else {
            let mut geese = state.geese;
            while geese != 0 {
                let from = geese.trailing_zeros() as usize;
                geese &= geese - 1;
                for &to in &self.goose_steps[from] {
                    if self.empty(state, to) {
                        let next = FoxGeeseState {
                            fox: state.fox,
                            geese: state.geese & !(1 << from) | 1 << to,
                            fox_to_move: true,
                        };
                        if !visit(next) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Calls `visit` with every position a capture by the fox (to move)
    /// leads to, until it returns false; false if it did.
    fn for_each_capture(
        &self,
        state: &FoxGeeseState,
        visit: &mut impl FnMut(FoxGeeseState) -> bool,
    ) -> bool {
        for line in &self.lines[state.fox] {
            let Some(beyond) = line.beyond else { continue };
            if state.geese >> line.next & 1 == 1 && self.empty(state, beyond) {
                let next = FoxGeeseState {
                    fox: beyond,
                    geese: state.geese & !(1 << line.next),
                    fox_to_move: false,
                };
                if !visit(next) {
                    return false;
                }
            }
        }
        true
    }

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
        if position.fox_to_move {
            Player::First
        } else {
            Player::Second
        }
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

    fn parse_position(&self, text: &str) -> Result<FoxGeeseState> {
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

impl LayeredGame for FoxGeese {
    type State = Unranked;

    fn layer_descriptor(&self, geese: usize) -> String {
        // The default rule's names predate the other variants: unchanged.
        let capture = if self.rules.capture_wins {
            " capture-wins"
        } else {
            ""
        };
        let forward = if self.rules.geese_forward {
            " geese-forward"
        } else {
            ""
        };
        let symmetry = if self.symmetry { " symmetry" } else { "" };
        format!("fox-geese g={geese}{capture}{forward}{symmetry}")
    }

    fn layer_size(&self, geese: usize) -> u64 {
        self.stored_cells.len() as u64 * self.per_fox(geese)
    }

    fn layer_blocks(&self, geese: usize) -> Vec<Block> {
        let per_fox = self.per_fox(geese);
        (0..self.stored_cells.len() as u64)
            .map(|block| Block {
                start: block * per_fox,
                len: per_fox,
            })
            .collect()
    }

    fn block_weight(&self, _geese: usize, block: usize) -> u64 {
        // Each cell of the orbit has as many positions, with the same values.
        let cell = self.stored_cells[block];
        self.canonical_cell.iter().filter(|&&c| c == cell).count() as u64
    }

    fn reduced_by_symmetry(&self) -> bool {
        self.symmetry
    }

    fn block_has_twins(&self, _geese: usize, block: usize) -> bool {
        // Twins keep the fox on its cell: a cell only the identity fixes
        // leaves each position of its block alone.
        !self.fixing[self.stored_cells[block]].is_empty()
    }

    #[inline]
    fn is_representative(&self, _geese: usize, _rank: u64, state: &Unranked) -> bool {
        // The least of the images under the symmetries fixing the fox's
        // cell (a stored cell's `to_canonical`): no ranking needed, and
        // nothing to do where only the identity fixes the cell.
        self.fixing[state.fox]
            .iter()
            .all(|&g| self.symmetries[g].apply(state.geese) >= state.geese)
    }

    fn images<F: FnMut(u64)>(&self, _geese: usize, state: &Unranked, mut emit: F) {
        // Only images with the fox on the same cell are in the table.
        for (map, image) in self.symmetries.iter().zip(&self.cell_images) {
            if image[state.fox] == state.fox {
                let mapped = FoxGeeseState {
                    geese: map.apply(state.geese),
                    ..**state
                };
                emit(self.raw_rank(&mapped));
            }
        }
    }

    fn new_state(&self) -> Unranked {
        Unranked {
            position: FoxGeeseState {
                fox: self.stored_cells[0],
                geese: 0,
                fox_to_move: true,
            },
            layer: 0,
            run: BinomialRun::default(),
        }
    }

    #[inline]
    fn unrank(&self, geese: usize, rank: u64, state: &mut Unranked) {
        // Both sides of a position are neighbours (rank = 2 * pattern +
        // side in a block of even size), so the run is of rank / 2.
        let pattern = rank >> 1;
        let squeezed = match state.run.get(pattern).filter(|_| state.layer == geese) {
            Some(squeezed) => squeezed,
            None => {
                let per_fox = self.per_fox(geese);
                let block = rank / per_fox;
                state.position.fox = self.stored_cells[block as usize];
                state.layer = geese;
                let first_pattern = block * per_fox / 2;
                self.rankers[geese].unrank_into_run(pattern, first_pattern, &mut state.run)
            }
        };
        state.position.fox_to_move = rank & 1 == 0;
        state.position.geese = widen(squeezed, state.position.fox);
    }

    fn rank(&self, _geese: usize, state: &Unranked) -> u64 {
        self.rank_of(state)
    }

    fn mover(&self, state: &Unranked) -> Player {
        if state.fox_to_move {
            Player::First
        } else {
            Player::Second
        }
    }

    fn mover_of_rank(&self, _geese: usize, rank: u64) -> Option<Player> {
        // Every block has an even size, so the side is the rank's last bit.
        Some(if rank & 1 == 0 {
            Player::First
        } else {
            Player::Second
        })
    }

    #[inline]
    fn successors<F: FnMut(Successor) -> bool>(&self, geese: usize, state: &Unranked, mut emit: F) {
        self.for_each_move(state, |next| {
            let successor = self.successor(&next);
            debug_assert!(successor.layer == geese || successor.layer + 1 == geese);
            emit(successor)
        });
    }

    /// Moves before the range are not ranked (see
    /// [`LayeredGame::successors_in`]).
    #[inline]
    fn successors_in<F: FnMut(Successor)>(
        &self,
        _geese: usize,
        state: &Unranked,
        moves: std::ops::Range<usize>,
        mut emit: F,
    ) -> bool {
        let mut window = MoveWindow::new(moves);
        self.for_each_move(state, |next| window.offer(|| emit(self.successor(&next))));
        window.more()
    }

    #[inline]
    fn lower_successors<F: FnMut(Successor) -> bool>(
        &self,
        geese: usize,
        state: &Unranked,
        mut emit: F,
    ) -> bool {
        // Captures leave the layer; steps stay in it and need no rank.
        if state.fox_to_move {
            self.for_each_capture(state, &mut |next| {
                let rank = self.rank_of(&next);
                emit(Successor {
                    layer: geese - 1,
                    rank,
                })
            });
            self.lines[state.fox]
                .iter()
                .any(|line| self.empty(state, line.next))
        } else {
            let mut geese_left = state.geese;
            while geese_left != 0 {
                let from = geese_left.trailing_zeros() as usize;
                geese_left &= geese_left - 1;
                if self.goose_steps[from]
                    .iter()
                    .any(|&to| self.empty(state, to))
                {
                    return true;
                }
            }
            false
        }
    }

    /// No tags: a check here ranks a handful of moves, and the tags
    /// cost the first pass more than they save the later ones (a step
    /// ranked to name it, under symmetry a canonical image, and a byte
    /// and a watch bit written, for each open position). On two cores,
    /// peak RSS and CPU time with tags and without: capture-wins
    /// `--symmetry --layers 9..9` 509 -> 222 MB, 8.5 -> 6.1 s;
    /// `--layers 1..8` 1.25 GB -> 490 MB, 35.7 -> 19.7 s.
    fn tags_open_moves(&self, _geese: usize) -> bool {
        false
    }

    #[inline]
    fn predecessors<F: FnMut(u64)>(&self, _geese: usize, state: &Unranked, mut emit: F) {
        // The same-layer positions that lead here: the fox's steps are
        // reversible, a goose came from one of its cell's origins.
        let previous = FoxGeeseState {
            fox_to_move: !state.fox_to_move,
            ..**state
        };
        if previous.fox_to_move {
            for line in &self.lines[state.fox] {
                if self.empty(state, line.next) {
                    emit(self.rank_of(&FoxGeeseState {
                        fox: line.next,
                        ..previous
                    }));
                }
            }
        } else {
            let mut geese = state.geese;
            while geese != 0 {
                let at = geese.trailing_zeros() as usize;
                geese &= geese - 1;
                for &origin in &self.goose_origins[at] {
                    if self.empty(state, origin) {
                        let from = state.geese & !(1 << at) | 1 << origin;
                        emit(self.rank_of(&FoxGeeseState {
                            geese: from,
                            ..previous
                        }));
                    }
                }
            }
        }
    }

    fn no_move_value(&self, state: &Unranked) -> Value {
        // A trapped fox loses; so do geese without a move (never for g <= 8).
        if state.fox_to_move {
            Value::SecondWins
        } else {
            Value::FirstWins
        }
    }

    fn rule_value(&self, _geese: usize, state: &Unranked) -> Option<Value> {
        if !self.rules.capture_wins || !state.fox_to_move {
            return None;
        }
        let mut captures = false;
        self.for_each_move(state, |next| {
            captures = next.geese != state.geese;
            false
        });
        captures.then_some(Value::FirstWins)
    }

    fn undecided_value(&self) -> Value {
        Value::FirstWins
    }

    /// `fox_geese.wgsl` over the tables the Rust moves and symmetries read.
    fn retro_gpu_program(&self, geese: usize) -> Result<Program> {
        let lines: Vec<Vec<u32>> = self
            .lines
            .iter()
            .map(|lines| {
                lines
                    .iter()
                    .map(|line| line.next as u32 | line.beyond.map_or(0xff, |b| b as u32) << 8)
                    .collect()
            })
            .collect();
        let lists = |lists: &[Vec<usize>]| {
            let lists: Vec<Vec<u32>> = lists
                .iter()
                .map(|list| list.iter().map(|&g| g as u32).collect())
                .collect();
            kernel::per_cell_lists(&lists)
        };
        let (line_starts, lines) = kernel::per_cell_lists(&lines);
        let (goose_step_starts, goose_steps) = lists(&self.goose_steps);
        let (goose_origin_starts, goose_origins) = lists(&self.goose_origins);
        let (fixing_starts, fixing) = lists(&self.fixing);
        let (to_canonical_starts, to_canonical) = lists(&self.to_canonical);
        let as_u32 = |cells: &[usize]| cells.iter().map(|&c| c as u32).collect::<Vec<_>>();
        let block_of: Vec<u32> = self
            .block_of
            .iter()
            .map(|block| block.map_or(u32::MAX, |b| b as u32))
            .collect();
        let images: Vec<u32> = self.cell_images.iter().flat_map(|i| as_u32(i)).collect();
        let mut program = Program::default();
        program
            .constant("FG_CELLS", CELLS as u32)
            .constant("FG_CAPTURE_WINS", self.rules.capture_wins as u32)
            .constant("FG_SYMMETRY", self.symmetry as u32)
            .table("FG_LINE_STARTS_AT", &line_starts)
            .table("FG_LINES_AT", &lines)
            .table("FG_GOOSE_STEP_STARTS_AT", &goose_step_starts)
            .table("FG_GOOSE_STEPS_AT", &goose_steps)
            .table("FG_GOOSE_ORIGIN_STARTS_AT", &goose_origin_starts)
            .table("FG_GOOSE_ORIGINS_AT", &goose_origins)
            .table("FG_STORED_CELLS_AT", &as_u32(&self.stored_cells))
            .table("FG_BLOCK_OF_AT", &block_of)
            .table("FG_CANONICAL_CELL_AT", &as_u32(&self.canonical_cell))
            .table("FG_SYMMETRY_IMAGES_AT", &images)
            .table("FG_FIXING_STARTS_AT", &fixing_starts)
            .table("FG_FIXING_AT", &fixing)
            .table("FG_TO_CANONICAL_STARTS_AT", &to_canonical_starts)
            .table("FG_TO_CANONICAL_AT", &to_canonical)
            .binomial_hash()
            // The layer in a table, not a constant: every layer's program
            // is then the same text, compiled once a run.
            .table("FG_GEESE_AT", &[geese as u32])
            .source(RETRO_KERNEL);
        Ok(program)
    }

    fn independent_layers(&self) -> bool {
        // Captures are the only moves that leave a layer, and with
        // capture-wins a position with one is the fox's by rule.
        self.rules.capture_wins
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::WithinLayer;

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
    fn rank_and_unrank_agree_and_layer_sizes_match() {
        let game = FoxGeese::new(false, false).unwrap();
        let sizes: Vec<u64> = (1..=5).map(|g| game.layer_size(g)).collect();
        assert_eq!(sizes, vec![2_112, 32_736, 327_360, 2_373_360, 13_290_816]);
        let mut state = game.new_state();
        for rank in 0..game.layer_size(2) {
            game.unrank(2, rank, &mut state);
            assert_eq!(game.rank(2, &state), rank);
        }
    }

    const FORWARD: Rules = Rules {
        capture_wins: false,
        geese_forward: true,
    };

    #[test]
    fn predecessors_are_exactly_the_positions_with_a_move_here() {
        for rules in [Rules::default(), FORWARD] {
            let game = FoxGeese::with_rules(rules, false).unwrap();
            let mut state = game.new_state();
            // Every position of layer 3 with a same-layer move to `rank`.
            let mut expected = vec![Vec::new(); game.layer_size(3) as usize];
            for rank in 0..game.layer_size(3) {
                game.unrank(3, rank, &mut state);
                game.successors(3, &state, |s| {
                    if s.layer == 3 {
                        expected[s.rank as usize].push(rank);
                    }
                    true
                });
            }
            for rank in (0..game.layer_size(3)).step_by(97) {
                game.unrank(3, rank, &mut state);
                let mut got = Vec::new();
                game.predecessors(3, &state, |predecessor| got.push(predecessor));
                got.sort_unstable();
                expected[rank as usize].sort_unstable();
                assert_eq!(got, expected[rank as usize], "{rules:?} rank {rank}");
            }
        }
    }

    #[test]
    fn forward_geese_never_step_down_and_keep_only_the_mirror() {
        let game = FoxGeese::with_rules(FORWARD, true).unwrap();
        let row = |cell: usize| game.board.position(cell).0;
        for (cell, steps) in game.goose_steps.iter().enumerate() {
            assert!(steps.iter().all(|&to| row(to) <= row(cell)));
            // Up, sideways and diagonally up: every line but the downward ones.
            let down = game.lines[cell].iter().filter(|l| row(l.next) > row(cell));
            assert_eq!(steps.len() + down.count(), game.lines[cell].len());
        }
        // At the start no goose has a point below it free: the same 10
        // moves up (straight, or diagonally from a5, c5, e5, g5) as by
        // default.
        let start = game.start_position(Some(13)).unwrap();
        let default = FoxGeese::new(false, true).unwrap();
        assert_eq!(game.moves(&start), default.moves(&start));
        assert_eq!(game.moves(&start).len(), 10);
        // A lone goose on d2 (a point with diagonals): 8 steps by default,
        // 5 forward (not to c3, d3, e3).
        let lone = game
            .parse("... .g. F...... ....... ....... ... ...:geese")
            .unwrap();
        assert_eq!(default.moves(&lone).len(), 8);
        assert_eq!(game.moves(&lone).len(), 5);
        // The identity and the mirror; the fox's cells of columns a..d stored.
        assert_eq!(game.symmetries.len(), 2);
        assert_eq!(game.stored_cells().len(), 20);
        let weights: u64 = (0..20).map(|b| game.block_weight(4, b)).sum();
        assert_eq!(weights, 33);
        assert_eq!(
            game.layer_descriptor(13),
            "fox-geese g=13 geese-forward symmetry"
        );
    }

    #[test]
    fn lower_successors_are_the_captures_and_say_whether_a_step_exists() {
        let both = Rules {
            capture_wins: true,
            geese_forward: true,
        };
        for (rules, symmetry) in [(Rules::default(), false), (FORWARD, true), (both, false)] {
            let game = FoxGeese::with_rules(rules, symmetry).unwrap();
            let mut state = game.new_state();
            for geese in [3, 9, 20, 31] {
                for rank in (0..game.layer_size(geese)).step_by(997) {
                    game.unrank(geese, rank, &mut state);
                    let (mut expected, mut stays) = (Vec::new(), false);
                    game.successors(geese, &state, |s| {
                        if s.layer == geese {
                            stays = true;
                        } else {
                            expected.push(s);
                        }
                        true
                    });
                    let mut got = Vec::new();
                    let got_stays = game.lower_successors(geese, &state, |s| {
                        got.push(s);
                        true
                    });
                    // The default naming walk: the same moves, and the
                    // first step named.
                    let mut named = Vec::new();
                    let within = game.lower_successors_naming(geese, &state, |s| {
                        named.push(s);
                        true
                    });
                    let mut first = None;
                    game.successors(geese, &state, |s| {
                        first = first.or((s.layer == geese).then_some(s.rank));
                        true
                    });
                    assert_eq!(named, expected, "g {geese} rank {rank}");
                    assert_eq!(
                        within,
                        first.map_or(WithinLayer::None, WithinLayer::First),
                        "g {geese} rank {rank}"
                    );
                    assert_eq!((got, got_stays), (expected, stays), "g {geese} rank {rank}");
                }
            }
        }
    }

    #[test]
    fn representatives_are_the_positions_that_rank_to_themselves() {
        for rules in [Rules::default(), FORWARD] {
            let game = FoxGeese::with_rules(rules, true).unwrap();
            let mut state = game.new_state();
            for geese in [2, 7] {
                for rank in (0..game.layer_size(geese)).step_by(13) {
                    game.unrank(geese, rank, &mut state);
                    assert_eq!(
                        game.is_representative(geese, rank, &state),
                        game.rank(geese, &state) == rank,
                        "{rules:?} g {geese} rank {rank}"
                    );
                }
            }
        }
        let game = FoxGeese::new(false, true).unwrap();
        assert_eq!(game.stored_cells().len(), 7);
        let weights: u64 = (0..7).map(|b| game.block_weight(4, b)).sum();
        assert_eq!(weights, 33, "the stored cells' orbits cover the board");
    }

    #[test]
    fn symmetric_ranks_are_shared_by_mirror_images() {
        let game = FoxGeese::new(false, true).unwrap();
        let state = game
            .parse("..g ... ....... ...F... ....... ... ...:fox")
            .unwrap();
        let mirrored = FoxGeeseState {
            geese: 1 << game.board.parse_cell("c1").unwrap(),
            ..state
        };
        assert_ne!(mirrored, state);
        assert_eq!(game.rank_of(&state), game.rank_of(&mirrored));
        assert!(game.solves_block(game.canonical(&state).fox));
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
