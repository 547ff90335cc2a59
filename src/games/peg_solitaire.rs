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

use super::board::{Board, Mark, MaskMap, ORTHOGONAL};
use super::registration::{GameOptions, OptionSpec, Registered};
use crate::diagram::{Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::hash::{BinomialRanker, BinomialRun};
use crate::kernel::{self, Program};
use crate::space::{Block, BlockLayering, MoveFilter, Picture, Space};

/// The GPU expansion of this game (see [`crate::kernel`]).
const PEG_SOLITAIRE_KERNEL: &str = include_str!("peg_solitaire.wgsl");

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

/// `mask` moved so that bit `i` holds what bit `i + step` held.
#[inline(always)]
fn bits_from(mask: u64, step: i32) -> u64 {
    if step >= 0 {
        mask >> step
    } else {
        mask << -step
    }
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

    /// Number of ranks holding positions with `pegs` pegs.
    pub fn positions_with(&self, pegs: usize) -> u64 {
        self.rankers[pegs].size()
    }

    /// The position stored for `pegs`: the least of its images.
    #[inline]
    pub fn canonical(&self, pegs: u64) -> u64 {
        self.symmetries
            .iter()
            .map(|map| map.apply(pegs))
            .min()
            .unwrap_or(pegs)
    }

    #[inline]
    fn rank_mask(&self, pegs: u64) -> u64 {
        let count = pegs.count_ones() as usize;
        self.offsets[count] + self.rankers[count].rank(pegs)
    }

    /// Rank of a position given as a mask, checked.
    pub fn rank_of(&self, pegs: u64) -> Result<u64> {
        let count = pegs.count_ones() as usize;
        Ok(self.offsets[count] + self.rankers[count].try_rank(pegs)?)
    }

    /// The peg mask of a rank.
    pub fn mask_of(&self, rank: u64) -> u64 {
        let count = self.offsets.partition_point(|&offset| offset <= rank) - 1;
        self.rankers[count].unrank(rank - self.offsets[count])
    }
}

fn low_mask(cells: usize) -> u64 {
    if cells >= 64 {
        u64::MAX
    } else {
        (1u64 << cells) - 1
    }
}

impl Picture for PegSolitaire {
    fn goal_label(&self) -> String {
        "one peg left in the start hole".to_string()
    }

    /// A position as text: one character per cell in cell order, `o` for a
    /// peg and `.` for an empty hole; spaces and newlines are ignored, and `/` between rows
    /// may be left out ([`Board::position_symbols`]).
    fn parse_position(&self, text: &str) -> Result<Pegs> {
        let symbols = self
            .board
            .position_symbols(text, "cells ('o' peg, '.' hole)")?;
        let mut pegs = 0u64;
        for (cell, symbol) in symbols.into_iter().enumerate() {
            match symbol {
                'o' | 'x' | '*' => pegs |= 1 << cell,
                '.' | '_' => {}
                other => {
                    return Err(Error::InvalidParameter(format!(
                        "{} at cell {} is neither 'o' (peg) nor '.' (hole)",
                        quoted(&other.to_string()),
                        self.board.cell_name(cell)
                    )));
                }
            }
        }
        Ok(Pegs::new(pegs))
    }

    /// "..ooo../...": `o` for a peg, `.` for a hole, rows separated by `/`.
    fn position_text(&self, pegs: &Pegs) -> String {
        self.board
            .line(|cell| if pegs.mask >> cell & 1 == 1 { 'o' } else { '.' })
    }

    /// "d2-d4": the jumping peg's cell and the hole it lands in.
    fn move_name(&self, from: &Pegs, to: &Pegs) -> String {
        let landed = (to.mask & !from.mask).trailing_zeros() as usize;
        let left = from.mask & !to.mask;
        let distance = |cell: usize| {
            let ((r, c), (lr, lc)) = (self.board.position(cell), self.board.position(landed));
            r.abs_diff(lr) + c.abs_diff(lc)
        };
        // Of the two cells emptied, the jumper's is the farther from the
        // landing hole (the other is the peg jumped over).
        let first = left.trailing_zeros() as usize;
        let second = (left & (left - 1)).trailing_zeros() as usize;
        let jumper = if distance(first) > distance(second) {
            first
        } else {
            second
        };
        self.board.move_name(jumper, landed)
    }

    /// The holes, with `o` on those holding a peg.
    fn diagram(&self, pegs: &Pegs) -> Diagram {
        self.board.diagram(Style::Squares, |cell| {
            (pegs.mask >> cell & 1 == 1).then(|| "o".to_string())
        })
    }

    /// The board with pegs drawn as `o` and holes as `.`.
    fn draw(&self, pegs: &Pegs) -> String {
        self.board
            .draw(|cell| if pegs.mask >> cell & 1 == 1 { 'o' } else { '.' })
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

impl Space for PegSolitaire {
    fn gpu_program(&self) -> Result<Program> {
        if self.symmetry_count() > 1 {
            return Err(kernel::unsupported(
                "--symmetry is not implemented in the GPU kernels".into(),
            ));
        }
        let cells = self.cells();
        let lists: Vec<Vec<u32>> = (0..cells)
            .map(|to| {
                self.jumps_into(to)
                    .flat_map(|emptied| [emptied as u32, (emptied >> 32) as u32])
                    .collect()
            })
            .collect();
        let (mut starts, jumps) = kernel::per_cell_lists(&lists);
        // Offsets count jumps, two words each.
        starts.iter_mut().for_each(|start| *start /= 2);
        let mut program = Program::default();
        program
            .constant("CELLS", cells as u32)
            .table("JUMP_STARTS_AT", &starts)
            .table("JUMPS_AT", &jumps)
            .binomial_hash()
            .source(PEG_SOLITAIRE_KERNEL);
        Ok(program)
    }

    type State = Pegs;

    fn definition(&self) -> String {
        self.board.definition()
    }

    fn descriptor(&self) -> String {
        let holes: Vec<String> = (0..self.cells())
            .filter(|&cell| self.start >> cell & 1 == 0)
            .map(|cell| self.board.cell_name(cell))
            .collect();
        let symmetry = if self.symmetries.len() > 1 {
            " symmetry"
        } else {
            ""
        };
        format!(
            "peg-solitaire {} start-hole={}{symmetry}",
            self.board.name(),
            holes.join(",")
        )
    }

    fn size(&self) -> u64 {
        *self.offsets.last().unwrap()
    }

    fn blocks(&self) -> Vec<Block> {
        self.offsets
            .windows(2)
            .map(|w| Block {
                start: w[0],
                len: w[1] - w[0],
            })
            .collect()
    }

    fn start_ranks(&self) -> Vec<u64> {
        vec![self.rank_mask(self.canonical(self.start))]
    }

    fn goal_ranks(&self) -> Vec<u64> {
        self.goal
            .map(|goal| self.rank_mask(self.canonical(goal)))
            .into_iter()
            .collect()
    }

    fn new_state(&self) -> Pegs {
        Pegs::new(0)
    }

    #[inline]
    fn unrank(&self, rank: u64, state: &mut Pegs) {
        state.mask = match state.run.get(rank) {
            Some(mask) => mask,
            None => {
                let count = self.offsets.partition_point(|&offset| offset <= rank) - 1;
                let offset = self.offsets[count];
                self.rankers[count].unrank_into_run(rank, offset, &mut state.run)
            }
        };
    }

    fn rank(&self, state: &Pegs) -> u64 {
        self.rank_mask(state.mask)
    }

    #[inline]
    fn expand<F: FnMut(u64)>(&self, state: &Pegs, _moves: MoveFilter, mut emit: F) {
        let pegs = state.mask;
        let count = pegs.count_ones() as usize;
        if count == 0 {
            return;
        }
        let (offset, ranker) = (self.offsets[count - 1], &self.rankers[count - 1]);
        // The parent's images; lanes past the symmetries in use hold the
        // largest mask, which no minimum picks.
        let mut images = [u64::MAX; MAX_SYMMETRIES];
        for (image, map) in images.iter_mut().zip(&self.symmetries) {
            *image = map.apply(pegs);
        }
        let holes = !pegs & low_mask(self.cells());
        for class in &self.classes {
            let mut movers = class.froms
                & pegs
                & bits_from(pegs, class.over_step)
                & bits_from(holes, class.to_step);
            while movers != 0 {
                let from = movers.trailing_zeros();
                movers &= movers - 1;
                let next = if self.symmetries.is_empty() {
                    pegs ^ class.toggled(from)
                } else {
                    // The least image: `canonical` of the successor.
                    let toggled = &class.images[from as usize];
                    (0..MAX_SYMMETRIES)
                        .map(|g| images[g] ^ toggled[g])
                        .fold(u64::MAX, u64::min)
                };
                emit(offset + ranker.rank(next));
            }
        }
    }

    fn layering(&self) -> Option<BlockLayering> {
        // The layer of a position with p pegs is start_pegs - p (at most n);
        // blocks with more pegs than the start are never reached and get
        // residues n + 1 + p that no layer has. (With modulus n + 1 they
        // would wrap onto layers past the last, pairing the 0-peg block
        // with the (start + 1)-peg one: a streamed GPU run then had to hold
        // the whole table between them.)
        let n = self.cells() as u64;
        let start = self.start_pegs() as u64;
        Some(BlockLayering {
            modulus: 2 * (n + 1),
            residues: (0..=n)
                .map(|p| if p <= start { start - p } else { n + 1 + p })
                .collect(),
            rank_preserving: vec![Vec::new(); self.cells() + 1],
            exact: true,
        })
    }

    fn orbit_size(&self, state: &Pegs) -> u64 {
        if self.symmetries.len() <= 1 {
            return 1;
        }
        // The symmetries fixing the start are a group, so the orbit has
        // |group| / |stabiliser| positions: no list of images to sort (that
        // list was a fifth of a `--symmetry` search, in layer counting).
        let fixed = self
            .symmetries
            .iter()
            .filter(|map| map.apply(state.mask) == state.mask)
            .count();
        (self.symmetries.len() / fixed) as u64
    }

    fn inverse_rank(&self, state: &Pegs) -> Option<u64> {
        // Only a board full of pegs but one hole has the goal as its inverse.
        self.goal?;
        let complement = !state.mask & low_mask(self.cells());
        Some(self.rank_mask(self.canonical(complement)))
    }

    fn layer_name(&self, layer: usize) -> Option<String> {
        let pegs = self.start_pegs().checked_sub(layer)?;
        Some(format!("{pegs} peg{}", if pegs == 1 { "" } else { "s" }))
    }

    fn symmetry_reduced(&self) -> bool {
        self.symmetries.len() > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english(symmetry: bool) -> PegSolitaire {
        let board = Board::load("english").unwrap();
        let centre = board.centre().unwrap();
        PegSolitaire::new(board, &[centre], symmetry).unwrap()
    }

    #[test]
    fn the_space_is_every_subset_of_the_board() {
        let game = english(false);
        assert_eq!(game.size(), 1u64 << 33);
        assert_eq!(game.blocks().len(), 34);
        assert_eq!(game.positions_with(16), 1_166_803_110);
        let mut state = game.new_state();
        for rank in [0, 1, 5_000_000_000, (1u64 << 33) - 1] {
            game.unrank(rank, &mut state);
            assert_eq!(game.rank(&state), rank);
        }
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

    #[test]
    fn the_centre_start_has_four_jumps() {
        let game = english(false);
        let mut successors = Vec::new();
        game.expand(&Pegs::new(game.start), MoveFilter::All, |r| {
            successors.push(r)
        });
        assert_eq!(successors.len(), 4);
        let mut state = game.new_state();
        for rank in successors {
            game.unrank(rank, &mut state);
            assert_eq!(state.mask.count_ones(), 31);
            assert_eq!(state.mask >> 16 & 1, 1, "a peg lands in the centre");
        }
    }

    #[test]
    fn symmetry_maps_the_four_first_moves_to_one() {
        let game = english(true);
        assert_eq!(game.symmetry_count(), 8);
        let mut successors = Vec::new();
        game.expand(&Pegs::new(game.start), MoveFilter::All, |r| {
            successors.push(r)
        });
        successors.sort();
        successors.dedup();
        assert_eq!(successors.len(), 1);
        let mut state = game.new_state();
        game.unrank(successors[0], &mut state);
        assert_eq!(game.orbit_size(&state), 4);
        assert_eq!(game.orbit_size(&Pegs::new(game.start)), 1);
    }

    #[test]
    fn positions_parse_and_draw() {
        let game = english(false);
        let text = "ooo ooo ooooooo ooo.ooo ooooooo ooo ooo";
        assert_eq!(game.parse_position(text).unwrap().mask, game.start);
        assert!(game.parse_position("ooo").is_err());
        assert!(game.parse_position(&text.replace('.', "?")).is_err());
        assert!(game.draw(&Pegs::new(game.start)).contains("o o o . o o o"));
    }

    #[test]
    fn successor_images_toggled_from_the_parent_are_the_canonical_positions() {
        let (reduced, full) = (english(true), english(false));
        let mut seed = 3u64;
        for _ in 0..3000 {
            seed = crate::hash::splitmix64(seed);
            let pegs = Pegs::new(seed & ((1u64 << 33) - 1));
            let mut expected = Vec::new();
            full.expand(&pegs, MoveFilter::All, |rank| {
                let next = full.mask_of(rank);
                expected.push(reduced.rank_mask(reduced.canonical(next)));
            });
            let mut got = Vec::new();
            reduced.expand(&pegs, MoveFilter::All, |rank| got.push(rank));
            assert_eq!(got, expected, "pegs {:#x}", pegs.mask);
        }
    }

    #[test]
    fn jump_classes_find_exactly_the_jumps_of_the_rule_table() {
        // The classes against the per-hole rule table the GPU kernel uses,
        // on both boards and positions of every density.
        for name in ["english", "french"] {
            let board = Board::load(name).unwrap();
            let centre = board.centre().unwrap();
            let game = PegSolitaire::new(board, &[centre], false).unwrap();
            if name == "english" {
                assert_eq!(game.classes.len(), 12);
            }
            let all = low_mask(game.cells());
            let mut seed = 5u64;
            for round in 0..4000 {
                seed = crate::hash::splitmix64(seed);
                let mut pegs = seed & all;
                for _ in 0..round % 3 {
                    seed = crate::hash::splitmix64(seed);
                    pegs &= seed;
                }
                let mut expected = Vec::new();
                for to in (0..game.cells()).filter(|&to| pegs >> to & 1 == 0) {
                    for emptied in game.jumps_into(to) {
                        if pegs & emptied == emptied {
                            expected.push(game.rank_mask(pegs ^ emptied | 1 << to));
                        }
                    }
                }
                let mut got = Vec::new();
                game.expand(&Pegs::new(pegs), MoveFilter::All, |rank| got.push(rank));
                expected.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, expected, "pegs {pegs:#x}");
            }
        }
    }

    #[test]
    fn reused_positions_expand_like_fresh_ones() {
        // 20 cells: runs with bits above the low 16, every block visited.
        let board = Board::parse("ooooo\nooooo\nooooo\nooooo\n", "4x5").unwrap();
        for symmetry in [false, true] {
            let game = PegSolitaire::new(board.clone(), &[7], symmetry).unwrap();
            crate::space::assert_reused_states_expand_like_fresh_ones(&game);
        }
    }

    #[test]
    fn positions_and_jumps_are_named() {
        let board = Board::parse("ooo\nooo\nooo\nooo\n", "3x4").unwrap();
        let game = PegSolitaire::new(board, &[4], false).unwrap();
        crate::space::assert_positions_and_moves_are_named(&game);
        let game = english(false);
        let from = game
            .parse_position(&game.position_text(&Pegs::new(game.start)))
            .unwrap();
        assert_eq!(
            game.position_text(&from),
            "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo"
        );
        let mut jumped = game.new_state();
        let mut names = Vec::new();
        game.expand(&from, MoveFilter::All, |rank| {
            game.unrank(rank, &mut jumped);
            names.push(game.move_name(&from, &jumped));
        });
        names.sort();
        assert_eq!(names, ["b4-d4", "d2-d4", "d6-d4", "f4-d4"]);
    }

    #[test]
    fn one_reused_position_unranks_a_scan_across_blocks_and_jumps_back() {
        // Ranks in increasing order cross runs and blocks (peg counts); a
        // smaller rank after them must not be answered from the last run.
        let game = english(false);
        let mut state = game.new_state();
        let mut seed = 11u64;
        let mut rank = game.offsets[15] - 70_000;
        let check = |rank: u64, state: &mut Pegs| {
            game.unrank(rank, state);
            assert_eq!(state.mask, game.mask_of(rank), "rank {rank}");
            assert_eq!(game.rank(state), rank);
        };
        while rank < game.offsets[15] + 200_000 {
            check(rank, &mut state);
            seed = crate::hash::splitmix64(seed);
            rank += 1 + seed % 300;
        }
        for rank in [
            5,
            game.offsets[15] + 10,
            game.offsets[15] + 9,
            game.size() - 1,
            0,
        ] {
            check(rank, &mut state);
        }
    }
}
