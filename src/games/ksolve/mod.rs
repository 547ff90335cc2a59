//! Any permutation puzzle from a definition file in the ksolve format
//! (`bitsolve bfs ksolve --file PUZZLE.tws`): the file is read
//! ([`definition`]), its moves expanded to their powers, and its positions
//! hashed perfectly through independent coordinates with the invariants
//! the moves keep folded out ([`coordinates`]). One Space, so every
//! search, backend and store works on it as on a built-in game.

pub mod coordinates;
pub mod definition;
pub mod split;

use std::path::Path;

use coordinates::{Coordinates, Kind, scientific};
use definition::{Definition, Metric, NamedMove, SetState};

use super::registration::{GameOptions, OptionSpec, Registered};
use super::text_file::read_text;
use crate::diagram::{Cell, Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::kernel::Program;
use crate::space::{
    Block, BlockLayering, BlockShape, DigitMoves, DigitTable, MAX_BLOCKS, MoveFilter, Picture,
    Space, digit_moves::PickedColumns,
};

/// The GPU expansion (see [`crate::kernel`]).
const KSOLVE_KERNEL: &str = include_str!("ksolve.wgsl");

/// Block length when the coordinates give no split (see
/// [`Coordinates::block_split`]).
const BLOCK_LEN: u64 = 1 << 31;

/// Most words of move tables the GPU kernel takes: 128 MiB, the smallest
/// storage binding a device must allow.
const GPU_TABLE_WORDS: usize = 1 << 25;

/// Most groups of coordinates the table expansion takes (a stack array
/// of rows).
const FAST_COORDINATES: usize = 16;

/// Most slots of a permutation coordinate the GPU kernel computes without
/// a move table (its prefix Lehmer rank is a u32).
const MAX_COMPUTED_SLOTS: usize = 12;

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
            canonical(&definition, &hash).as_bytes(),
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
            Error::InvalidParameter(format!(
                "cannot read the definition {}: {error}",
                quoted(&path.display().to_string())
            ))
        })?;
        Self::from_text(&text, &path.display().to_string(), metric)
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

    /// The text of a position given per set (reachable or not): each
    /// set's name, its pieces (1-based) and, when it has orientations, a
    /// '/' and theirs.
    pub fn text_of(&self, sets: &[SetState]) -> String {
        let parts: Vec<String> = self
            .definition
            .sets
            .iter()
            .zip(sets)
            .map(|(set, part)| {
                let slots: Vec<usize> = (0..set.pieces).collect();
                format!("{} {}", set.name, definition::part_text(set, part, &slots))
            })
            .collect();
        parts.join("; ")
    }

    fn parse_sets(&self, text: &str) -> Result<Vec<SetState>> {
        let usage = || {
            format!(
                "a {} position is each set's name, its pieces and, for pieces with orientations, '/' and their orientations, sets separated by ';' (e.g. {}), 'scramble NAME' or 'moves M1 M2 ...'",
                self.definition.name,
                quoted(&self.text_of(&self.definition.solved))
            )
        };
        let mut sets: Vec<Option<SetState>> = vec![None; self.definition.sets.len()];
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let (head, orientations) = match part.split_once('/') {
                Some((head, tail)) => (head, Some(tail)),
                None => (part, None),
            };
            let mut words = head.split_whitespace();
            let name = words.next().unwrap_or_default();
            let Some(index) = self.definition.sets.iter().position(|s| s.name == name) else {
                return Err(Error::InvalidParameter(format!(
                    "{} is not a set of {}: {}",
                    quoted(name),
                    self.definition.name,
                    usage()
                )));
            };
            let set = &self.definition.sets[index];
            let numbers = |words: &mut dyn Iterator<Item = &str>,
                           what: &str,
                           low: u32,
                           high: u32|
             -> Result<Vec<u8>> {
                let values = words
                    .map(|w| match w.parse::<u32>() {
                        Ok(v) if (low..=high).contains(&v) => Ok(v as u8),
                        _ => Err(Error::InvalidParameter(format!(
                            "set {}: {what} {} is not one of {low}..{high}",
                            quoted(&set.name),
                            quoted(w)
                        ))),
                    })
                    .collect::<Result<Vec<u8>>>()?;
                if values.len() != set.pieces {
                    return Err(Error::InvalidParameter(format!(
                        "set {} has {} pieces, the position gives {} {what}s",
                        quoted(&set.name),
                        set.pieces,
                        values.len()
                    )));
                }
                Ok(values)
            };
            let labels: Vec<u8> = numbers(&mut words, "piece", 1, set.pieces as u32)?
                .iter()
                .map(|l| l - 1)
                .collect();
            let orientations = match orientations {
                Some(tail) => numbers(
                    &mut tail.split_whitespace(),
                    "orientation",
                    0,
                    set.orientations as u32 - 1,
                )?,
                None => vec![0; set.pieces],
            };
            if sets[index]
                .replace(SetState {
                    labels,
                    orientations,
                })
                .is_some()
            {
                return Err(Error::InvalidParameter(format!(
                    "the position gives set {} twice",
                    quoted(&set.name)
                )));
            }
        }
        sets.into_iter()
            .zip(&self.definition.sets)
            .map(|(part, set)| {
                part.ok_or_else(|| {
                    Error::InvalidParameter(format!(
                        "the position does not give set {}: {}",
                        quoted(&set.name),
                        usage()
                    ))
                })
            })
            .collect()
    }

    /// The facts `info` prints about the hash.
    pub fn hash_summary(&self) -> String {
        let parts: Vec<String> = self
            .hash
            .coordinates
            .iter()
            .map(|c| {
                let set = &self.definition.sets[c.set].name;
                let what = match &c.kind {
                    Kind::Permutation => format!("{}! arrangements", c.slots.len()),
                    Kind::Multiset(_) => "arrangements of alike pieces".to_string(),
                    Kind::Alternation => return "moves made mod 2 = 2".to_string(),
                    Kind::Orientation {
                        orientations,
                        implied_sum,
                    } => format!(
                        "{orientations}^{} orientations{}",
                        c.slots.len() - implied_sum.is_some() as usize,
                        if implied_sum.is_some() {
                            " (sum kept)"
                        } else {
                            ""
                        }
                    ),
                };
                let folded = if c.radix < c.values {
                    ", parity folded"
                } else {
                    ""
                };
                let by_piece = match (&c.split, c.by_piece) {
                    (Some(split), _) => format!(
                        ", ranked by piece, split into {} placements x runs of {}",
                        split.placements, split.run_len
                    ),
                    (None, true) => ", ranked by piece".to_string(),
                    (None, false) => String::new(),
                };
                format!(
                    "{set}[{} slots]: {what} = {}{folded}{by_piece}",
                    c.slots.len(),
                    c.radix
                )
            })
            .collect();
        parts.join("; ")
    }
}

/// The index layout, part of a definition's identity: a store written
/// under another layout (before 2026-11-28 the smallest coordinates came
/// first) holds other ranks, and is refused as another game.
const INDEX_LAYOUT: &str = "index largest coordinates first\n";

/// Added to the layout where a permutation too large for a table is
/// ranked by piece and put last (before 2026-11-29 it was ranked by slot
/// among the others): only those definitions' stores changed meaning.
const BY_PIECE_LAYOUT: &str = "permutations without a table ranked by piece, last\n";

/// Added to the layout where pieces look alike: their arrangements are
/// ranked as nested colour sets, the games' shared multinomial hash
/// (before 2026-11-29, by Algorithm 10's order, which numbers them
/// otherwise): only those definitions' stores changed meaning.
const ALIKE_LAYOUT: &str = "alike pieces ranked as nested colour sets\n";

/// The definition as the table identity records it: what the file means,
/// not how it is written, and the layout of its index.
fn canonical(definition: &Definition, hash: &Coordinates) -> String {
    let mut text = String::from(INDEX_LAYOUT);
    if hash.coordinates.iter().any(|c| c.by_piece) {
        text.push_str(BY_PIECE_LAYOUT);
    }
    if hash
        .coordinates
        .iter()
        .any(|c| matches!(c.kind, Kind::Multiset(_)))
    {
        text.push_str(ALIKE_LAYOUT);
    }
    for set in &definition.sets {
        text.push_str(&format!(
            "set {} {} {}\n",
            set.name, set.pieces, set.orientations
        ));
    }
    for part in &definition.solved {
        text.push_str(&format!(
            "solved {:?} {:?}\n",
            part.labels, part.orientations
        ));
    }
    for named in &definition.moves {
        text.push_str(&format!("move {}", named.name));
        for part in &named.transform.sets {
            text.push_str(&format!(" {:?} {:?}", part.from, part.twist));
        }
        text.push('\n');
    }
    text
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
        format!("ksolve\n{}", canonical(&self.definition, &self.hash))
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
    /// so do a split permutation's two parts (see [`split`]) when its
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
        info_lines(self)
    }

    fn gpu_program(&self) -> Result<Program> {
        gpu_program(self)
    }
}

impl Picture for Ksolve {
    fn position_text(&self, state: &KsolveState) -> String {
        self.text_of(&self.sets_of(state))
    }

    /// A position as `SET p p p / o o o; SET ...`, `scramble NAME` (a
    /// Scramble block of the definition) or `moves M1 M2 ...` (moves from
    /// the solved state).
    fn parse_position(&self, text: &str) -> Result<KsolveState> {
        let trimmed = text.trim();
        if let Some(name) = trimmed.strip_prefix("scramble ") {
            let name = name.trim();
            let Some(scramble) = self.definition.scrambles.iter().find(|s| s.name == name) else {
                let names: Vec<&str> = self
                    .definition
                    .scrambles
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect();
                return Err(Error::InvalidParameter(format!(
                    "{} has no scramble {} ({})",
                    self.file,
                    quoted(name),
                    if names.is_empty() {
                        "it defines none".to_string()
                    } else {
                        format!("it defines {}", names.join(", "))
                    }
                )));
            };
            return self.state_of(&scramble.state);
        }
        if let Some(sequence) = trimmed.strip_prefix("moves") {
            let mut sets = self.definition.solved.clone();
            for word in sequence.split_whitespace() {
                // A move of the search, or a name a MoveAlias line gives.
                let Some(named) = self
                    .moves
                    .iter()
                    .chain(&self.definition.aliases)
                    .find(|m| m.name == word)
                else {
                    let names: Vec<&str> = self.moves.iter().map(|m| m.name.as_str()).collect();
                    return Err(Error::InvalidParameter(format!(
                        "{} is not a move of {} in the {} metric (its moves: {})",
                        quoted(word),
                        self.definition.name,
                        self.metric.name(),
                        names.join(" ")
                    )));
                };
                sets = named.transform.apply(&sets, &self.definition.sets);
            }
            return self.state_of(&sets);
        }
        let sets = self.parse_sets(trimmed)?;
        self.state_of(&sets)
    }

    fn move_name(&self, from: &KsolveState, to: &KsolveState) -> String {
        let target = self.rank(to);
        let mut scratch = [0u8; SCRATCH];
        (0..self.moves.len())
            .find(|&m| self.successor(m, &from.values, &mut scratch) == target)
            .map_or_else(|| "no move".to_string(), |m| self.moves[m].name.clone())
    }

    /// One row per set, one cell per slot: the piece (1-based) and, after
    /// a colon, its orientation when it has one.
    fn diagram(&self, state: &KsolveState) -> Diagram {
        let sets = self.sets_of(state);
        let cells = self
            .definition
            .sets
            .iter()
            .zip(&sets)
            .enumerate()
            .flat_map(|(row, (set, part))| {
                (0..set.pieces).map(move |slot| Cell {
                    name: format!("{}{}", set.name, slot + 1),
                    row,
                    column: slot,
                    piece: Some(if set.orientations > 1 {
                        format!(
                            "{}:{}",
                            part.labels[slot] as u32 + 1,
                            part.orientations[slot]
                        )
                    } else {
                        (part.labels[slot] as u32 + 1).to_string()
                    }),
                })
            })
            .collect();
        Diagram::new(Style::Squares, cells)
    }

    fn draw(&self, state: &KsolveState) -> String {
        let sets = self.sets_of(state);
        let mut picture = String::new();
        for (set, part) in self.definition.sets.iter().zip(&sets) {
            let pieces: Vec<String> = part
                .labels
                .iter()
                .map(|l| format!("{:>3}", *l as u32 + 1))
                .collect();
            picture.push_str(&format!("{:<10}{}\n", set.name, pieces.join("")));
            if set.orientations > 1 {
                let twists: Vec<String> = part
                    .orientations
                    .iter()
                    .map(|o| format!("{o:>3}"))
                    .collect();
                picture.push_str(&format!("{:<10}{}\n", "", twists.join("")));
            }
        }
        picture.push_str(&format!("position {}\n", self.text_of(&sets)));
        picture
    }

    fn goal_label(&self) -> String {
        "solved".to_string()
    }
}

/// What `info` says of the space beyond its size.
pub fn info_lines(puzzle: &Ksolve) -> Vec<(String, String)> {
    vec![
        (
            "definition".into(),
            format!("{} ({})", puzzle.definition.name, puzzle.file),
        ),
        (
            "moves".into(),
            format!(
                "{} ({}: {})",
                puzzle.moves.len(),
                puzzle.metric.name(),
                puzzle.metric.describe()
            ),
        ),
        (
            "product space".into(),
            scientific(puzzle.hash.product_space),
        ),
        ("folded space".into(), puzzle.hash.size.to_string()),
        ("hash".into(), puzzle.hash_summary()),
        (
            "move tables".into(),
            format!("{} bytes", puzzle.hash.table_bytes()),
        ),
    ]
}

/// How the kernel moves a coordinate without a table (`COMPUTED_*` in
/// ksolve.wgsl).
#[derive(Clone, Copy)]
enum Computed {
    No = 0,
    Permutation = 1,
    Multiset = 2,
    Orientation = 3,
    Split = 4,
}

/// Bits of a split permutation's next placement in the kernel's packed
/// entry (the column above them): 12!/6! = 665,280 placements fit.
const SPLIT_PLACEMENT_BITS: u32 = 20;

/// The generic kernel's program: the coordinates' layout and move tables.
fn gpu_program(puzzle: &Ksolve) -> Result<Program> {
    let unsupported =
        |why: String| crate::kernel::unsupported(format!("{}: {why}", puzzle.descriptor()));
    let Some((_, split)) = puzzle.hash.block_split() else {
        return Err(unsupported(
            "its coordinates give no blocks of at most 2^32 positions".into(),
        ));
    };
    if puzzle.block_shape().count > u32::MAX as u64 {
        return Err(unsupported("more than 2^32 blocks".into()));
    }
    let coordinates = &puzzle.hash.coordinates;
    // See ksolve.wgsl for the fields.
    const FIELDS: usize = 16;
    let mut words: Vec<u32> = vec![0; FIELDS * coordinates.len()];
    let mut cells_cap = 1;
    for (j, c) in coordinates.iter().enumerate() {
        let table_at = words.len() as u32;
        let mut extra = [0u32; 4];
        // A coordinate without a table is computed in the kernel from the
        // moves, as the CPU computes it.
        let computed = match (&c.table, &c.kind) {
            (Some(table), _) => {
                words.extend_from_slice(table);
                Computed::No
            }
            (None, _) if c.values > u32::MAX as u64 => {
                return Err(unsupported(format!(
                    "a coordinate of set {} takes {} values, too many for a move table and for the kernel's 32-bit values",
                    quoted(&puzzle.definition.sets[c.set].name),
                    c.values
                )));
            }
            // Split in placements and runs (see `split`): the same two
            // table reads as the CPU's, the placement's next value and its
            // column packed in one word.
            (None, Kind::Permutation)
                if c.split.as_ref().is_some_and(|split| {
                    split.placements <= 1 << SPLIT_PLACEMENT_BITS
                        && split.columns.len() as u64 / split.run_len
                            <= 1 << (32 - SPLIT_PLACEMENT_BITS)
                }) =>
            {
                let split = c.split.as_ref().expect("a split");
                let entries_at = words.len() as u32;
                words.extend(
                    split
                        .next
                        .iter()
                        .zip(&split.pick)
                        .map(|(&next, &pick)| next | (pick as u32) << SPLIT_PLACEMENT_BITS),
                );
                let columns_at = words.len() as u32;
                words.extend_from_slice(&split.columns);
                extra = [split.run_len as u32, entries_at, columns_at, 0];
                Computed::Split
            }
            (None, Kind::Permutation) if c.by_piece && c.slots.len() <= MAX_COMPUTED_SLOTS => {
                Computed::Permutation
            }
            (None, Kind::Multiset(ranker)) => {
                let levels_at = words.len() as u32;
                for level in ranker.levels() {
                    // Every radix divides the coordinate's values, which
                    // fit 32 bits (checked above).
                    words.extend([level.chosen as u32, level.size as u32, level.weight as u32]);
                }
                extra = [ranker.colours() as u32 - 1, levels_at, 0, 0];
                Computed::Multiset
            }
            (
                None,
                Kind::Orientation {
                    orientations,
                    implied_sum,
                },
            ) => {
                let twists_at = words.len() as u32;
                words.extend(
                    c.moves
                        .iter()
                        .flat_map(|m| m.twist.iter().map(|&t| t as u32)),
                );
                extra = [
                    *orientations as u32,
                    implied_sum.map_or(0, |sum| sum as u32 + 1),
                    twists_at,
                    0,
                ];
                Computed::Orientation
            }
            (None, _) => {
                return Err(unsupported(format!(
                    "the permutation of set {} has {} slots, too many for a move table, and the kernel computes permutations of up to {MAX_COMPUTED_SLOTS}",
                    quoted(&puzzle.definition.sets[c.set].name),
                    c.slots.len()
                )));
            }
        };
        let moves_at = words.len() as u32;
        match computed {
            Computed::No | Computed::Split => {}
            Computed::Permutation => {
                // Where each move sends the piece in each slot.
                for m in &c.moves {
                    words.extend(m.destinations().iter().map(|&to| to as u32));
                }
            }
            Computed::Multiset | Computed::Orientation => {
                cells_cap = cells_cap.max(c.slots.len());
                words.extend(
                    c.moves
                        .iter()
                        .flat_map(|m| m.from.iter().map(|&f| f as u32)),
                );
            }
        }
        let parity_at = words.len() as u32;
        if let Some(bits) = &c.parities {
            words.extend(bits.iter().flat_map(|&w| [w as u32, (w >> 32) as u32]));
        }
        let (follows, rule_solved, from) = match &c.parity {
            coordinates::Parity::Free => (0, 0, Vec::new()),
            coordinates::Parity::Follows { solved, from } => {
                (1, *solved as u32, from.iter().map(|&f| f as u32).collect())
            }
        };
        let from_at = words.len() as u32;
        words.extend_from_slice(&from);
        words[FIELDS * j..FIELDS * (j + 1)].copy_from_slice(&[
            c.values as u32,
            c.radix as u32,
            table_at,
            parity_at,
            follows,
            rule_solved,
            from_at,
            from.len() as u32,
            c.solved_parity as u32,
            computed as u32,
            c.slots.len() as u32,
            moves_at,
            extra[0],
            extra[1],
            extra[2],
            extra[3],
        ]);
        if words.len() > GPU_TABLE_WORDS {
            return Err(unsupported(format!(
                "its move tables take more than {} MiB",
                (GPU_TABLE_WORDS * 4) >> 20
            )));
        }
    }
    let mut program = Program::default();
    program
        .constant("COORD_COUNT", coordinates.len() as u32)
        .constant("COORD_CAP", coordinates.len().max(1) as u32)
        .constant("SPLIT", split as u32)
        .constant("MOVE_COUNT", puzzle.moves.len() as u32)
        .constant("SPLIT_PLACEMENT_BITS", SPLIT_PLACEMENT_BITS)
        .table("COORDS_AT", &words)
        .constant("SLOT_CAP", cells_cap as u32)
        .prefix_lehmer_hash(MAX_COMPUTED_SLOTS)
        .colour_set_hash()
        .source(KSOLVE_KERNEL);
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 2x2x2 cube with DBL fixed: U, R and F turns of seven corners.
    pub const CUBE: &str = "Name Cube7\nSet C 7 3\nSolved\nC\n1 2 3 4 5 6 7\nEnd\nMove U\nC\n4 1 2 3 5 6 7\nEnd\nMove R\nC\n5 2 3 1 7 6 4\n1 0 0 2 2 0 1\nEnd\nMove F\nC\n2 6 3 4 1 5 7\n2 1 0 0 1 2 0\nEnd\nScramble sexy\nC\n5 2 3 1 7 6 4\n1 0 0 0 0 0 0\nEnd\n";

    /// Two sets whose parities change together (a transposition in each),
    /// one whose every move is even (3-cycles), and a set of alike pieces.
    const TIED: &str = "Name Tied\nSet A 4 1\nSet B 3 2\nSet E 5 1\nSet K 4 1\nSolved\nA\n1 2 3 4\nB\n1 2 3\nE\n1 2 3 4 5\nK\n1 1 2 2\nEnd\n\
        Move S\nA\n2 1 3 4\nB\n2 1 3\n1 1 0\nE\n2 3 1 4 5\nK\n2 1 3 4\nEnd\n\
        Move T\nA\n1 3 4 2\nB\n2 3 1\nE\n1 2 4 5 3\nK\n1 3 4 2\nEnd\n";

    fn puzzle(text: &str, metric: Metric) -> Ksolve {
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

    #[test]
    fn positions_come_as_text_scrambles_or_move_sequences() {
        let cube = puzzle(CUBE, Metric::Powers);
        let solved = cube.start_ranks()[0];
        let rank_of = |text: &str| cube.rank(&cube.parse_position(text).unwrap());
        assert_eq!(rank_of("C 1 2 3 4 5 6 7 / 0 0 0 0 0 0 0"), solved);
        assert_eq!(rank_of("moves"), solved);
        assert_eq!(rank_of("moves U U'"), solved);
        assert_eq!(rank_of("moves R U R' U'"), rank_of("moves R U R' U'"));
        let turned = cube.parse_position("moves R").unwrap();
        assert_eq!(
            cube.position_text(&turned),
            "C 5 2 3 1 7 6 4 / 2 0 0 1 1 0 2"
        );
        assert_eq!(
            cube.move_name(&cube.parse_position("moves").unwrap(), &turned),
            "R"
        );
        for (text, expected) in [
            (
                "scramble sexy",
                "the orientations of slots 1,2,3,4,5,6,7 of set 'C' sum to 1 mod 3, every move keeps it 0",
            ),
            ("scramble nope", "has no scramble 'nope' (it defines sexy)"),
            (
                "moves U X",
                "'X' is not a move of Cube7 in the powers metric (its moves: U U2 U' R R2 R' F F2 F')",
            ),
            (
                "C 1 2 3 4 5 6 6 / 0 0 0 0 0 0 0",
                "no move sequence reaches this position: slots 1,2,3,4,5,6,7 of set 'C' hold pieces 1,2,3,4,5,6,6",
            ),
            ("C 1 2 3 4 5 6 7 / 1 0 0 0 0 0 0", "sum to 1 mod 3"),
            (
                "C 1 2 3 4 5 6 7 / 3 0 0 0 0 0 0",
                "orientation '3' is not one of 0..2",
            ),
            (
                "C 1 2 3 4 5 6",
                "set 'C' has 7 pieces, the position gives 6 pieces",
            ),
            ("D 1", "'D' is not a set of Cube7"),
            ("", "the position does not give set 'C'"),
            ("C 1 2 3 4 5 6 7; C 1 2 3 4 5 6 7", "gives set 'C' twice"),
        ] {
            let message = cube.parse_position(text).unwrap_err().to_string();
            assert!(message.contains(expected), "{text}: {message}");
            assert_eq!(message.lines().count(), 1);
        }
        // A parity no move makes.
        let tied = puzzle(TIED, Metric::Powers);
        let message = tied
            .parse_position("A 1 2 3 4; B 2 1 3 / 1 1 0; E 1 2 3 4 5; K 1 1 2 2")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("slots 1,2,3 of set 'B' has the wrong parity for the other sets'"),
            "{message}"
        );
    }

    #[test]
    fn the_identity_is_the_definition_not_the_path_or_the_layout_of_the_file() {
        let cube = puzzle(CUBE, Metric::Powers);
        let respaced = puzzle(
            &format!(
                "# a comment\n{}",
                CUBE.replace("Move U\n", "Move U # the top\n")
            ),
            Metric::Powers,
        );
        assert_eq!(cube.descriptor(), respaced.descriptor());
        let other = puzzle(&CUBE.replace("Move F", "Move G"), Metric::Powers);
        assert_ne!(cube.descriptor(), other.descriptor());
        assert!(
            cube.descriptor()
                .starts_with("ksolve Cube7 metric=powers definition=")
        );
        assert_ne!(
            cube.descriptor(),
            puzzle(CUBE, Metric::Quarter).descriptor()
        );
    }

    /// A definition whose index changed order records it, so that a store
    /// written under the old order is refused; the others keep their
    /// identity (and their stores).
    #[test]
    fn only_definitions_whose_index_changed_say_so_in_their_identity() {
        let tied = puzzle(TIED, Metric::Powers);
        let alike = canonical(&tied.definition, &tied.hash);
        assert!(alike.contains(ALIKE_LAYOUT), "{alike}");
        assert!(!alike.contains(BY_PIECE_LAYOUT));
        let cube = puzzle(CUBE, Metric::Powers);
        let text = canonical(&cube.definition, &cube.hash);
        assert!(text.starts_with(INDEX_LAYOUT));
        assert!(!text.contains(ALIKE_LAYOUT) && !text.contains(BY_PIECE_LAYOUT));
    }
}
