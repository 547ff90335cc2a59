//! Any permutation puzzle from a definition file in the ksolve format
//! (`bitsolve bfs ksolve --file PUZZLE.tws`): the file is read
//! ([`definition`]), its moves expanded to their powers, and its positions
//! hashed perfectly through independent coordinates with the invariants
//! the moves keep folded out (`coordinates`). One Space, so every
//! search, backend and store works on it as on a built-in game.
//!
//! The files by role: the definition file's reader ([`definition`]), the
//! hash (`coordinates`, one coordinate in `coordinate`, the parity
//! algebra in `parities`, the tables' budgets in `limits`, a permutation
//! too large for a table moved in runs by `split`), positions as text and
//! pictures (`picture`), what `info` says (`info`), the definition as a
//! store's identity records it (`identity`) and the GPU's expansion
//! (`gpu`, over `ksolve.wgsl`). The space itself, its blocks and its
//! expansion, is here.

mod coordinate;
pub(crate) mod coordinates;
pub mod definition;
mod gpu;
mod identity;
mod info;
mod limits;
mod parities;
mod picture;
pub(crate) mod split;

use std::path::Path;

use coordinates::Coordinates;
use definition::{Definition, Metric, NamedMove, SetState};

use super::registration::{GameOptions, OptionSpec, Registered};
use super::text_file::read_text;
use crate::error::{Error, Result, quoted};
use crate::kernel::Program;
use crate::space::{
    Block, BlockLayering, BlockShape, DigitMoves, DigitTable, MAX_BLOCKS, MoveFilter, Space,
    digit_moves::PickedColumns,
};

/// Block length when the coordinates give no split (see
/// [`Coordinates::block_split`]).
const BLOCK_LEN: u64 = 1 << 31;

/// Most groups of coordinates the table expansion takes (a stack array
/// of rows).
const FAST_COORDINATES: usize = 16;

/// Scratch bytes for computing a coordinate without a table.
const SCRATCH: usize = 2 * definition::MAX_PIECES + 2;

/// Most coordinates without a move table that the expansion decodes once
/// per state (a table-less coordinate has over 2^26 values, so a u64
/// index holds at most two of them beside small ones).
const DECODED: usize = 4;

/// A puzzle read from a ksolve definition, under one move metric, hashed by its coordinates.
#[derive(Clone, Debug)]
pub struct Ksolve {
    definition: Definition,
    metric: Metric,
    moves: Vec<NamedMove>,
    hash: Coordinates,
    /// The file as given, for messages.
    file: String,
    /// A fingerprint of the definition (not of the path): names the
    /// tables, so two puzzles never share a file name.
    fingerprint: u64,
    /// When every coordinate has a move table: the tables of groups of
    /// them, merged where small, for the expansion.
    groups: Option<Vec<coordinates::Group>>,
}

/// A position: each coordinate's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KsolveState {
    values: Vec<u64>,
}

impl Ksolve {
    /// The puzzle `text` defines (`file` names it in errors).
    pub fn from_text(text: &str, file: &str, metric: Metric) -> Result<Self> {
        let definition = definition::parse(text, file)?;
        // A space too large is refused from the listed moves, before their
        // powers are made (thousands of them for a move of a high order).
        let layout = Coordinates::layout(&definition, &definition.moves, file)?;
        let blocks = layout.size.div_ceil(block_len(&layout));
        if blocks > MAX_BLOCKS {
            return Err(Error::SpaceTooLarge(format!(
                "{file}: the folded space has {} positions in {blocks} blocks, more than the {MAX_BLOCKS} blocks a search lays out",
                coordinates::scientific(layout.size as f64)
            )));
        }
        let moves = definition::expand_moves(&definition, metric, file)?;
        let hash = Coordinates::new(&definition, &moves, file)?;
        let fingerprint = crate::hash::splitmix64(xxhash_rust::xxh3::xxh3_64(
            identity::canonical(&definition, &hash).as_bytes(),
        ));
        let groups = hash
            .expansion_groups()
            .filter(|groups| groups.len() <= FAST_COORDINATES);
        Ok(Ksolve {
            groups,
            definition,
            metric,
            moves,
            hash,
            file: file.to_string(),
            fingerprint,
        })
    }

    /// The puzzle the definition file at `path` defines.
    pub fn from_file(path: &Path, metric: Metric) -> Result<Self> {
        let text = read_text(path).map_err(|error| {
            Error::io_at(
                format!(
                    "cannot read the definition {}",
                    quoted(&path.display().to_string())
                ),
                path,
                error,
            )
        })?;
        Self::from_text(&text, &path.display().to_string(), metric).map_err(|e| e.in_file(path))
    }

    /// The length of every block but perhaps the last.
    fn block_len(&self) -> u64 {
        block_len(&self.hash)
    }

    /// The definition as read from the file.
    pub fn definition(&self) -> &Definition {
        &self.definition
    }

    /// The moves of the search: the listed moves with the powers the metric makes moves.
    pub fn moves(&self) -> &[NamedMove] {
        &self.moves
    }

    /// The perfect hash of the puzzle's positions.
    pub fn coordinates(&self) -> &Coordinates {
        &self.hash
    }

    /// Which powers of the listed moves count as moves.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The state of a position given per set.
    pub fn state_of(&self, sets: &[SetState]) -> Result<KsolveState> {
        Ok(KsolveState {
            values: self.hash.values_of_state(&self.definition, sets)?,
        })
    }

    /// The position per set.
    pub fn sets_of(&self, state: &KsolveState) -> Vec<SetState> {
        self.hash.state_of(&self.definition, &state.values)
    }

    /// The index of the position move `m` leads to.
    #[inline(always)]
    fn successor(&self, m: usize, values: &[u64], scratch: &mut [u8; SCRATCH]) -> u64 {
        self.hash
            .coordinates
            .iter()
            .zip(values)
            .fold(0u64, |index, (c, &v)| {
                index * c.radix + c.next_digit(m, v, scratch)
            })
    }
}

/// The length of every block but perhaps the last of the index `hash`.
fn block_len(hash: &Coordinates) -> u64 {
    match hash.block_split() {
        Some((len, _)) => len,
        None => BLOCK_LEN.min(hash.size),
    }
}

impl Registered for Ksolve {
    const NAME: &'static str = "ksolve";
    const SUMMARY: &'static str =
        "any permutation puzzle from a ksolve/twsearch definition file (--file PUZZLE.tws)";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::file("file", "FILE", "the puzzle's definition (Name, Set, Solved, Move, Scramble blocks)"),
        OptionSpec::value(
            "metric",
            "METRIC",
            "powers (every power of a listed move is one move, as twsearch counts) or quarter (a move and its inverse)",
        )
        .with_default("powers"),
    ];

    fn from_options(options: &GameOptions) -> Result<Self> {
        let Some(file) = options.get("file") else {
            return Err(Error::InvalidParameter(
                "ksolve needs --file PUZZLE.tws, a puzzle definition".into(),
            ));
        };
        let metric = options.get("metric").unwrap_or("powers").parse()?;
        Ksolve::from_file(Path::new(file), metric)
    }
}

impl Space for Ksolve {
    type State = KsolveState;

    fn descriptor(&self) -> String {
        let name: String = self
            .definition
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        format!(
            "ksolve {name} metric={} definition={:016x}",
            self.metric.name(),
            self.fingerprint
        )
    }

    fn definition(&self) -> String {
        format!(
            "ksolve\n{}",
            identity::canonical(&self.definition, &self.hash)
        )
    }

    fn size(&self) -> u64 {
        self.hash.size
    }

    fn blocks(&self) -> Vec<Block> {
        let size = self.hash.size;
        let len = self.block_len();
        (0..size.div_ceil(len))
            .map(|b| Block {
                start: b * len,
                len: len.min(size - b * len),
            })
            .collect()
    }

    fn block_shape(&self) -> BlockShape {
        let len = self.block_len();
        BlockShape {
            count: self.hash.size.div_ceil(len),
            longest: len,
        }
    }

    fn start_ranks(&self) -> Vec<u64> {
        let state = self
            .state_of(&self.definition.solved)
            .expect("the solved state is reachable");
        vec![self.rank(&state)]
    }

    fn goal_ranks(&self) -> Vec<u64> {
        Vec::new()
    }

    fn new_state(&self) -> KsolveState {
        KsolveState {
            values: vec![0; self.hash.coordinates.len()],
        }
    }

    #[inline]
    fn unrank(&self, rank: u64, state: &mut KsolveState) {
        self.hash.values(rank, &mut state.values);
    }

    #[inline]
    fn rank(&self, state: &KsolveState) -> u64 {
        self.hash.index(&state.values)
    }

    #[inline]
    fn expand<F: FnMut(u64)>(&self, state: &KsolveState, _moves: MoveFilter, mut emit: F) {
        let moves = self.moves.len();
        if let Some(groups) = &self.groups {
            // The state's row of each group's table, then per move a
            // weighted sum of the rows' digits.
            let mut rows: [&[u32]; FAST_COORDINATES] = [&[]; FAST_COORDINATES];
            for (row, group) in rows.iter_mut().zip(groups) {
                let value: u64 = group
                    .members
                    .clone()
                    .zip(&group.inner_weights)
                    .map(|(j, &w)| state.values[j] * w)
                    .sum();
                let at = value as usize * moves;
                *row = &group.table[at..at + moves];
            }
            // One, two or three groups (most puzzles) in loops of their
            // own, without a loop over the groups per move.
            match (&rows[..groups.len()], &groups[..]) {
                ([a], [ga]) => {
                    for &x in a.iter() {
                        emit(x as u64 * ga.weight);
                    }
                }
                ([a, b], [ga, gb]) => {
                    for (&x, &y) in a.iter().zip(b.iter()) {
                        emit(x as u64 * ga.weight + y as u64 * gb.weight);
                    }
                }
                ([a, b, c], [ga, gb, gc]) => {
                    for ((&x, &y), &z) in a.iter().zip(b.iter()).zip(c.iter()) {
                        emit(x as u64 * ga.weight + y as u64 * gb.weight + z as u64 * gc.weight);
                    }
                }
                (rows, _) => {
                    for m in 0..moves {
                        emit(
                            rows.iter()
                                .zip(groups)
                                .map(|(row, g)| row[m] as u64 * g.weight)
                                .sum(),
                        );
                    }
                }
            }
            return;
        }
        let mut scratch = [0u8; SCRATCH];
        let coordinates = &self.hash.coordinates;
        let computed = coordinates.iter().filter(|c| !c.has_table()).count();
        if computed > DECODED {
            for m in 0..moves {
                emit(self.successor(m, &state.values, &mut scratch));
            }
            return;
        }
        // Coordinates without a table (a permutation of many pieces): their
        // slots decoded once for all the moves.
        let mut decoded = [[0u8; definition::MAX_PIECES]; DECODED];
        let mut at = 0;
        for (c, &v) in coordinates.iter().zip(&state.values) {
            if !c.has_table() {
                c.decode(v, &mut decoded[at]);
                at += 1;
            }
        }
        for m in 0..moves {
            let mut at = 0;
            emit(
                coordinates
                    .iter()
                    .zip(&state.values)
                    .fold(0u64, |index, (c, &v)| {
                        let digit = if c.has_table() {
                            c.next_digit(m, v, &mut scratch)
                        } else {
                            at += 1;
                            c.digit(c.next_of_decoded(m, v, &decoded[at - 1], &mut scratch))
                        };
                        index * c.radix + digit
                    }),
            );
        }
    }

    /// Every group of coordinates moves by its own table when no parity is
    /// folded (a folded coordinate's value needs the others' parities);
    /// so do a split permutation's two parts (see `split`) when its
    /// parity is the only one folded and the other coordinates have
    /// tables.
    fn digit_moves(&self) -> Option<DigitMoves<'_>> {
        let moves = self.moves.len();
        if self.hash.unfold_order.is_empty() {
            let digits = self
                .groups
                .as_ref()?
                .iter()
                .map(|group| DigitTable {
                    radix: (group.table.len() / moves) as u64,
                    weight: group.weight,
                    table: &group.table,
                })
                .collect();
            return Some(DigitMoves {
                moves,
                digits,
                picked: None,
            });
        }
        let coordinates = &self.hash.coordinates;
        let (last, others) = coordinates.split_last()?;
        let split = last.split.as_ref()?;
        if self.hash.unfold_order != [coordinates.len() - 1] {
            return None;
        }
        let mut digits = others
            .iter()
            .zip(&self.hash.weights)
            .map(|(c, &weight)| {
                Some(DigitTable {
                    radix: c.radix,
                    weight,
                    table: c.table.as_deref()?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        digits.push(DigitTable {
            radix: split.placements,
            weight: split.run_len,
            table: &split.next,
        });
        digits.push(DigitTable {
            radix: split.run_len,
            weight: 1,
            table: &[],
        });
        Some(DigitMoves {
            moves,
            digits,
            picked: Some(PickedColumns {
                pick: &split.pick,
                columns: &split.columns,
            }),
        })
    }

    /// With an alternation digit, the first half of the index holds the
    /// positions an even number of moves from solved, the second half the
    /// odd ones.
    fn layering(&self) -> Option<BlockLayering> {
        self.hash.alternating.as_ref()?;
        let half = self.hash.size / 2;
        let blocks = self.blocks();
        Some(BlockLayering {
            modulus: 2,
            residues: blocks.iter().map(|b| (b.start >= half) as u64).collect(),
            rank_preserving: vec![Vec::new(); blocks.len()],
            exact: false,
        })
    }

    fn has_layering(&self) -> bool {
        self.hash.alternating.is_some()
    }

    fn reversible(&self) -> bool {
        // Both metrics hold every move's inverse (a power, or the inverse
        // itself).
        true
    }

    fn details(&self) -> Vec<(String, String)> {
        self.info_lines()
    }

    fn gpu_program(&self) -> Result<Program> {
        self.kernel_program()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Picture;

    /// The 2x2x2 cube with DBL fixed: U, R and F turns of seven corners.
    pub(super) const CUBE: &str = "Name Cube7\nSet C 7 3\nSolved\nC\n1 2 3 4 5 6 7\nEnd\nMove U\nC\n4 1 2 3 5 6 7\nEnd\nMove R\nC\n5 2 3 1 7 6 4\n1 0 0 2 2 0 1\nEnd\nMove F\nC\n2 6 3 4 1 5 7\n2 1 0 0 1 2 0\nEnd\nScramble sexy\nC\n5 2 3 1 7 6 4\n1 0 0 0 0 0 0\nEnd\n";

    /// Two sets whose parities change together (a transposition in each),
    /// one whose every move is even (3-cycles), and a set of alike pieces.
    pub(super) const TIED: &str = "Name Tied\nSet A 4 1\nSet B 3 2\nSet E 5 1\nSet K 4 1\nSolved\nA\n1 2 3 4\nB\n1 2 3\nE\n1 2 3 4 5\nK\n1 1 2 2\nEnd\n\
        Move S\nA\n2 1 3 4\nB\n2 1 3\n1 1 0\nE\n2 3 1 4 5\nK\n2 1 3 4\nEnd\n\
        Move T\nA\n1 3 4 2\nB\n2 3 1\nE\n1 2 4 5 3\nK\n1 3 4 2\nEnd\n";

    pub(super) fn puzzle(text: &str, metric: Metric) -> Ksolve {
        Ksolve::from_text(text, "test.tws", metric).unwrap()
    }

    /// Every rank reached from the start, by a plain search over ranks.
    fn reachable(space: &Ksolve) -> u64 {
        let mut seen = vec![false; space.size() as usize];
        let mut queue: Vec<u64> = space.start_ranks();
        for &rank in &queue {
            seen[rank as usize] = true;
        }
        let mut state = space.new_state();
        while let Some(rank) = queue.pop() {
            space.unrank(rank, &mut state);
            space.expand(&state, MoveFilter::All, |next| {
                if !std::mem::replace(&mut seen[next as usize], true) {
                    queue.push(next);
                }
            });
        }
        seen.iter().filter(|&&s| s).count() as u64
    }

    #[test]
    fn the_cube_folds_to_exactly_its_reachable_positions() {
        let cube = puzzle(CUBE, Metric::Powers);
        assert_eq!(cube.size(), 3_674_160);
        assert_eq!(cube.coordinates().product_space, 3_674_160.0 * 3.0);
        assert_eq!(reachable(&cube), cube.size());
        crate::space::assert_rank_inverts_unrank(&cube);
        assert_eq!(cube.moves().len(), 9);
        assert_eq!(puzzle(CUBE, Metric::Quarter).moves().len(), 6);
    }

    /// Successors computed from the coordinates' rules alone (no table).
    fn computed_successors(space: &Ksolve, state: &KsolveState) -> Vec<u64> {
        let mut scratch = [0u8; SCRATCH];
        (0..space.moves.len())
            .map(|m| {
                space
                    .hash
                    .coordinates
                    .iter()
                    .zip(&state.values)
                    .fold(0u64, |index, (c, &v)| {
                        index * c.radix + c.digit(c.compute_next(m, v, &mut scratch))
                    })
            })
            .collect()
    }

    /// Without folded parities the moves act digit by digit, and the
    /// digit tables give the successors the rules compute, move by move;
    /// with a folded parity there are no digit moves.
    #[test]
    fn digit_moves_are_the_rules_successors() {
        use crate::space::digit_moves::DigitRuns;
        for (text, metric, runs) in [
            (CUBE, Metric::Powers, 729),
            (
                include_str!("../../../data/ksolve/domino-side-colours.tws"),
                Metric::Powers,
                2520,
            ),
            // Small coordinates merge into one digit.
            (
                include_str!("../../../data/ksolve/pocket-cube-two-colours.tws"),
                Metric::Quarter,
                25_515,
            ),
        ] {
            let space = puzzle(text, metric);
            let digits = space.digit_moves().expect("no folded parity");
            assert_eq!(digits.run_len(), runs);
            let runs = DigitRuns::new(digits);
            let mut state = space.new_state();
            let mut targets = runs.new_targets();
            for rank in (0..space.size()).step_by(997) {
                space.unrank(rank, &mut state);
                runs.targets(rank / runs.run_len(), &mut targets);
                let last = (rank % runs.run_len()) as usize;
                let by_digits: Vec<u64> = (0..runs.moves())
                    .map(|m| targets.bases[m] + runs.column(targets.columns[m])[last] as u64)
                    .collect();
                assert_eq!(
                    by_digits,
                    computed_successors(&space, &state),
                    "rank {rank}"
                );
            }
        }
        // The quarter turns' alternation digit folds the permutation's parity.
        assert!(puzzle(CUBE, Metric::Quarter).digit_moves().is_none());
        assert!(puzzle(TIED, Metric::Powers).digit_moves().is_none());
    }

    #[test]
    fn the_merged_tables_expand_as_the_rules_compute() {
        // Small orientation coordinates merge; folded and alternating ones
        // stay alone.
        for (text, metric) in [
            (CUBE, Metric::Powers),
            (CUBE, Metric::Quarter),
            (TIED, Metric::Powers),
        ] {
            let space = puzzle(text, metric);
            let groups = space.groups.as_ref().expect("every coordinate has a table");
            assert!(groups.len() <= space.hash.coordinates.len());
            let mut state = space.new_state();
            for rank in (0..space.size()).step_by(101) {
                space.unrank(rank, &mut state);
                let mut expanded = Vec::new();
                space.expand(&state, MoveFilter::All, |next| expanded.push(next));
                assert_eq!(expanded, computed_successors(&space, &state), "rank {rank}");
            }
        }
        let tied = puzzle(TIED, Metric::Powers);
        assert!(
            tied.groups.as_ref().unwrap().len() < tied.hash.coordinates.len(),
            "{:?}",
            tied.hash_summary()
        );
    }

    /// Eleven pieces turned by a 3-cycle and a 9-cycle (every move even):
    /// 11!/2 positions, a permutation too large for a move table.
    const ELEVEN: &str = "Name Eleven\nSet P 11 1\nSolved\nP\n1 2 3 4 5 6 7 8 9 10 11\nEnd\n\
        Move A\nP\n2 3 1 4 5 6 7 8 9 10 11\nEnd\n\
        Move B\nP\n1 2 4 5 6 7 8 9 10 11 3\nEnd\n";

    /// A permutation too large for a table is ranked by piece and split:
    /// its runs' targets and picked columns give the successors its rule
    /// computes, and its values go to positions and back.
    #[test]
    fn a_permutation_too_large_for_a_table_moves_in_runs() {
        use crate::space::digit_moves::DigitRuns;
        let space = puzzle(ELEVEN, Metric::Powers);
        assert_eq!(space.size(), 19_958_400);
        let c = &space.hash.coordinates[0];
        assert!(c.by_piece && c.table.is_none());
        let split = c.split.as_ref().expect("split tables");
        assert_eq!((split.placements, split.run_len), (55_440, 360));
        let digits = space
            .digit_moves()
            .expect("the split permutation moves by digits");
        assert!(digits.worth_it());
        let runs = DigitRuns::new(digits);
        let mut state = space.new_state();
        let mut targets = runs.new_targets();
        for rank in (0..space.size()).step_by(9_973) {
            space.unrank(rank, &mut state);
            assert_eq!(space.rank(&state), rank);
            let sets = space.sets_of(&state);
            assert_eq!(space.state_of(&sets).unwrap(), state, "rank {rank}");
            runs.targets(rank / runs.run_len(), &mut targets);
            let last = (rank % runs.run_len()) as usize;
            let by_runs: Vec<u64> = (0..runs.moves())
                .map(|m| targets.bases[m] + runs.column(targets.columns[m])[last] as u64)
                .collect();
            assert_eq!(by_runs, computed_successors(&space, &state), "rank {rank}");
            // Each successor is the position the move makes of the sets.
            for (m, &next) in by_runs.iter().enumerate() {
                let moved = space.moves[m]
                    .transform
                    .apply(&sets, &space.definition.sets);
                assert_eq!(space.rank(&space.state_of(&moved).unwrap()), next);
            }
        }
    }

    #[test]
    fn without_tables_the_decoded_expansion_and_parities_agree() {
        // The path of coordinates too big for a table (decoded once per
        // position, parities from the rank), run on small puzzles by
        // dropping their tables.
        for (text, metric) in [
            (CUBE, Metric::Powers),
            (CUBE, Metric::Quarter),
            (TIED, Metric::Powers),
        ] {
            let tabled = puzzle(text, metric);
            let mut bare = tabled.clone();
            bare.groups = None;
            for c in &mut bare.hash.coordinates {
                c.table = None;
                if !matches!(c.kind, coordinates::Kind::Alternation) {
                    c.parities = None;
                }
            }
            let (mut a, mut b) = (tabled.new_state(), bare.new_state());
            for rank in (0..tabled.size()).step_by(97) {
                tabled.unrank(rank, &mut a);
                bare.unrank(rank, &mut b);
                assert_eq!(a, b, "rank {rank}");
                assert_eq!(bare.rank(&b), rank);
                let (mut from_tables, mut decoded) = (Vec::new(), Vec::new());
                tabled.expand(&a, MoveFilter::All, |next| from_tables.push(next));
                bare.expand(&b, MoveFilter::All, |next| decoded.push(next));
                assert_eq!(decoded, from_tables, "rank {rank}");
            }
        }
    }

    #[test]
    fn quarter_turns_alternate_the_halves_of_the_index() {
        let cube = puzzle(CUBE, Metric::Quarter);
        assert_eq!(cube.size(), 3_674_160);
        assert!(
            puzzle(CUBE, Metric::Powers).layering().is_none(),
            "U2 is even"
        );
        let layering = cube
            .layering()
            .expect("every quarter turn is odd on the corners");
        assert_eq!(layering.modulus, 2);
        let blocks = cube.blocks();
        assert_eq!(layering.residues, vec![0, 1]);
        assert_eq!(blocks[0].len, cube.size() / 2);
        assert!(cube.start_ranks()[0] < blocks[1].start);
        crate::space::assert_rank_inverts_unrank(&cube);
        let mut state = cube.new_state();
        for rank in (0..cube.size()).step_by(997) {
            cube.unrank(rank, &mut state);
            let half = rank >= blocks[1].start;
            cube.expand(&state, MoveFilter::All, |next| {
                assert_ne!(next >= blocks[1].start, half)
            });
        }
        assert_eq!(reachable(&cube), cube.size());
    }

    #[test]
    fn tied_parities_even_moves_and_alike_pieces_fold_and_rank_back() {
        let tied = puzzle(TIED, Metric::Powers);
        // A: 4! with its parity free; B: 3!/2 (its parity tied to A's,
        // the larger coordinate coming first) and 2^2 orientations (S
        // keeps the sum); E: 5!/2 (every move even); K: 4!/(2!2!)
        // arrangements.
        assert_eq!(tied.size(), 24 * 3 * 4 * 60 * 6);
        let by_kind = tied.hash_summary();
        assert!(
            by_kind.contains("A[4 slots]: 4! arrangements = 24;")
                && by_kind.contains("B[3 slots]: 3! arrangements = 3, parity folded"),
            "{by_kind}"
        );
        assert!(
            by_kind.contains("E[5 slots]: 5! arrangements = 60, parity folded"),
            "{by_kind}"
        );
        crate::space::assert_rank_inverts_unrank(&tied);
        let reached = reachable(&tied);
        assert!(reached <= tied.size());
        // Whatever the moves reach, the hash holds and reads back.
        let mut state = tied.new_state();
        let mut other = tied.new_state();
        for rank in 0..tied.size() {
            tied.unrank(rank, &mut state);
            let text = tied.position_text(&state);
            other = tied
                .parse_position(&text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(tied.rank(&other), rank, "{text}");
        }
        let _ = other;
    }
}
