//! Puzzles read from ksolve / twsearch definition files (`bitsolve bfs
//! ksolve --file PUZZLE.tws`) against an oracle written here from the
//! format's description alone: its own parser, its own move table and a
//! plain breadth-first search over whole decoded states (each seen one kept
//! in a hash set, its bytes packed into a `u128`).
//! Nothing of the library is used, so the oracle shares no parsing, move
//! expansion or hashing with the implementation it checks.
//!
//! The semantics followed (twsearch's reading of the format):
//! * permutations are 1-based and passive: after a move with permutation
//!   `p`, slot `i` holds the piece that was in slot `p[i]`;
//! * a move's orientation line is indexed by the slot the piece comes from:
//!   `new_o[i] = (o[p[i]] + mo[p[i]]) mod ORIENTATIONS`; it may be left out
//!   (all zeros), and so may a whole set the move leaves alone;
//! * a state's (Solved) permutation line may repeat numbers (identical
//!   pieces) and its orientation line is per slot;
//! * every move also yields its powers short of the identity as separate
//!   moves (`M`, `M2`, `M'` for an order-4 move); the quarter metric keeps
//!   only `M` and its inverse.
//!
//! * twsearch's own numbering (`StartState`, `MoveTransformation`,
//!   `ScrambleState`) counts pieces from 0, and a move's orientation line
//!   there is indexed by the slot the piece goes to;
//! * `MoveSequence NAME M1 M2 ...` is a move like a listed one, the moves
//!   named (or their powers, `M2`, `M'`) done in turn; `MoveAlias NAME M`
//!   is a name for sequences only, not a move;
//! * a solved state's labels may skip numbers (`1 1 5 5`): only which
//!   pieces look alike matters.
//!
//! The per-depth counts the oracle must give were produced by twsearch
//! (rokicki/twsearch 268d1a3, `twsearch -g -a 1 -t 1 FILE.tws`, and `-q`
//! for the quarter metric) on the definitions in data/ksolve/ and on the
//! small ones below. The oracle's hash set holds every state, so the largest
//! definitions (the 2x2x2 cube with all six faces, the pyraminx with tips
//! and the dominoes, 75 M to 1.6 G positions) are only compared with
//! twsearch's tables, in tests that are `#[ignore]`d.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::common::ScratchDir;

// ---------------------------------------------------------------------------
// twsearch's tables

const POCKET_FIXED_HTM: [u64; 12] = [
    1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
];
const POCKET_FIXED_QTM: [u64; 15] = [
    1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276,
];
const POCKET_HTM: [u64; 12] = [
    1, 18, 243, 2874, 28000, 205416, 1168516, 5402628, 20776176, 45391616, 15139616, 64736,
];
const POCKET_QTM: [u64; 15] = [
    1, 12, 114, 924, 6539, 39528, 199926, 806136, 2761740, 8656152, 22334112, 32420448, 18780864,
    2166720, 6624,
];
const TWO_COLOURS_HTM: [u64; 9] = [1, 6, 32, 187, 997, 4504, 12144, 7420, 224];
const TWO_COLOURS_QTM: [u64; 11] = [1, 4, 18, 78, 330, 1290, 4285, 9401, 8750, 1356, 2];
const PYRAMINX_NO_TIPS: [u64; 12] = [
    1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32,
];
const PYRAMINX: [u64; 16] = [
    1, 16, 136, 896, 5456, 32296, 182432, 931983, 3829067, 11108868, 20736353, 22907032, 13067528,
    2739808, 40336, 512,
];
const SKEWB: [u64; 12] = [
    1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90,
];
const DOMINO_FIXED_HTM: [u64; 18] = [
    1, 7, 34, 168, 807, 3678, 16346, 72599, 313532, 1304512, 5100516, 17262944, 43068899, 64321173,
    54969879, 16219013, 556468, 2224,
];
const DOMINO_FIXED_QTM: [u64; 19] = [
    1, 6, 27, 120, 529, 2280, 9681, 40674, 167538, 665058, 2490664, 8382550, 23240478, 46035264,
    58725621, 44772186, 16962456, 1708262, 9405,
];
const DOMINO_HTM: [u64; 19] = [
    1, 10, 67, 420, 2335, 12260, 61038, 291004, 1327429, 5821374, 24141784, 89480354, 262907144,
    485409604, 508704668, 232904952, 14508468, 129376, 112,
];
/// twsearch -g on domino-side-colours.tws (four pairs of alike edges).
const DOMINO_SIDE_COLOURS: [u64; 17] = [
    1, 10, 67, 402, 2119, 10624, 49683, 223256, 940282, 3557208, 11041242, 23225609, 29926617,
    25450320, 6982976, 195952, 32,
];
/// twsearch -g on dino-cube.tws (moves and their inverses).
const DINO: [u64; 14] = [
    1, 16, 160, 1408, 11712, 90912, 644756, 4070826, 21433009, 76410122, 109897795, 26611502,
    328215, 366,
];

const DOMINO_QTM: [u64; 20] = [
    1, 8, 48, 260, 1330, 6556, 31301, 144392, 638407, 2709620, 10873023, 39768668, 124815946,
    296531984, 460831364, 435219080, 215035460, 38469576, 624320, 1056,
];

// ---------------------------------------------------------------------------
// Small definitions written here, with twsearch's layers for them.

/// The format's own example: one 4-cycle, no twists.
const EXAMPLE: &str = "# comment
Name Pocket
Set CORNERS 8 3
Solved
CORNERS
1 2 3 4 5 6 7 8
0 0 0 0 0 0 0 0
End
Move U
CORNERS
4 1 2 3 5 6 7 8
0 0 0 0 0 0 0 0
End
";

/// Orientation lines that give 24 positions when indexed by the slot a piece
/// comes from (ksolve's convention, which twsearch follows) but 648 when
/// read as indexed by the slot it goes to.
const FROM_SLOT_TWISTS: &str = "Name Conv
Set A 4 3
Solved
A
1 2 3 4
0 0 0 0
End
Move X
A
3 4 2 1
1 1 1 0
End
Move Y
A
4 2 3 1
1 0 0 2
End
";
const FROM_SLOT_TWISTS_LAYERS: [u64; 5] = [1, 4, 6, 10, 3];
const FROM_SLOT_TWISTS_QUARTER: [u64; 7] = [1, 3, 5, 6, 5, 3, 1];

/// A ring of six blocks in three identical pairs: a rotation and a swap of
/// the first two (which leaves the solved ring as it is).
const RING: &str = "Name Ring
Set P 6 1
Solved
P
1 1 2 2 3 3
End
Move T
P
2 3 4 5 6 1
End
Move S
P
2 1 3 4 5 6
End
";
const RING_LAYERS: [u64; 10] = [1, 5, 3, 15, 12, 24, 18, 6, 3, 3];
const RING_QUARTER: [u64; 11] = [1, 2, 4, 5, 9, 14, 15, 19, 11, 5, 5];

/// Identical pieces with a twisted solved state, a move of order 8 (a
/// 4-cycle that flips one piece) and one of order 18.
const TWIN: &str = "Name Twin
Set P 4 2
Set Q 3 3
Solved
P
1 1 2 2
0 1 0 0
Q
1 2 3
0 0 0
End
Move M
P
2 3 4 1
1 0 0 0
Q
1 2 3
End
Move N
P
1 3 2 4
Q
2 3 1
0 0 2
End
";
/// The same puzzle with set Q left out of the Solved block and of move M,
/// which twsearch reads as the identity (pieces 1..n, no twist).
fn twin_left_out() -> String {
    let solved_q = "Q\n1 2 3\n0 0 0\n";
    let move_m_q = "Q\n1 2 3\n";
    assert!(TWIN.contains(solved_q) && TWIN.matches(move_m_q).count() == 2);
    TWIN.replacen(solved_q, "", 1).replacen(move_m_q, "", 1)
}
const TWIN_LAYERS: [u64; 7] = [1, 24, 155, 162, 234, 234, 54];
const TWIN_QUARTER: [u64; 11] = [1, 4, 12, 30, 69, 138, 216, 222, 134, 32, 6];

// ---------------------------------------------------------------------------
// The oracle: parser

/// `Set NAME SIZE ORIENTATIONS`, placed at `offset` in a state: `size`
/// piece labels, then `size` orientations.
#[derive(Debug)]
struct PieceSet {
    name: String,
    size: usize,
    orientations: u8,
    offset: usize,
}

/// A map of whole states: entry `k` of the result is entry `from[k]` of the
/// state plus `add[k]`, modulo `modulus[k]` (0 for piece labels, which are
/// only moved).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Action {
    from: Vec<usize>,
    add: Vec<u8>,
    modulus: Vec<u8>,
}

impl Action {
    fn identity(modulus: &[u8]) -> Self {
        Action {
            from: (0..modulus.len()).collect(),
            add: vec![0; modulus.len()],
            modulus: modulus.to_vec(),
        }
    }

    /// The state this action makes of `state`, written to `into`.
    fn apply(&self, state: &[u8], into: &mut [u8]) {
        for (k, entry) in into.iter_mut().enumerate() {
            let value = state[self.from[k]];
            *entry = match self.modulus[k] {
                0 => value,
                m => (value + self.add[k]) % m,
            };
        }
    }

    /// This action followed by `next`.
    fn then(&self, next: &Action) -> Action {
        let n = self.from.len();
        let mut result = Action::identity(&self.modulus);
        for k in 0..n {
            let via = next.from[k];
            result.from[k] = self.from[via];
            result.add[k] = match self.modulus[k] {
                0 => 0,
                m => (self.add[via] + next.add[k]) % m,
            };
        }
        result
    }
}

#[derive(Debug)]
struct Definition {
    sets: Vec<PieceSet>,
    solved: Vec<u8>,
    /// The moves as written, before their powers are added.
    moves: Vec<(String, Action)>,
}

impl Definition {
    fn state_len(&self) -> usize {
        self.sets.iter().map(|s| 2 * s.size).sum()
    }

    fn modulus(&self) -> Vec<u8> {
        let mut modulus = vec![0; self.state_len()];
        for set in &self.sets {
            for i in 0..set.size {
                modulus[set.offset + set.size + i] = set.orientations;
            }
        }
        modulus
    }

    fn set_named(&self, name: &str) -> &PieceSet {
        self.sets
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("unknown set {name}"))
    }
}

fn numbers(tokens: &[&str]) -> Vec<usize> {
    tokens
        .iter()
        .map(|t| t.parse().unwrap_or_else(|_| panic!("not a number: {t}")))
        .collect()
}

/// The lines of a `Solved` / `Move` block up to `End`: for each set named,
/// its one or two number lines (a permutation in twsearch's numbering is
/// moved up by one here, so every block counts from 1 after reading).
fn read_block<'a>(
    lines: &mut impl Iterator<Item = Vec<&'a str>>,
    from_zero: bool,
) -> Vec<(String, Vec<Vec<usize>>)> {
    let mut sections: Vec<(String, Vec<Vec<usize>>)> = Vec::new();
    loop {
        let tokens = lines.next().expect("a block ends with End");
        if tokens[0] == "End" {
            return sections;
        }
        if tokens[0].chars().all(|c| c.is_ascii_digit()) {
            let section = sections.last_mut().expect("numbers after a set name");
            assert!(section.1.len() < 2, "at most two number lines per set");
            let mut values = numbers(&tokens);
            if from_zero && section.1.is_empty() {
                values.iter_mut().for_each(|v| *v += 1);
            }
            section.1.push(values);
        } else {
            assert_eq!(tokens.len(), 1, "a set name alone on its line");
            sections.push((tokens[0].to_string(), Vec::new()));
        }
    }
}

fn parse(text: &str) -> Definition {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.split_whitespace().collect::<Vec<_>>());
    let mut definition = Definition {
        sets: Vec::new(),
        solved: Vec::new(),
        moves: Vec::new(),
    };
    let mut solved: Option<Vec<(String, Vec<Vec<usize>>)>> = None;
    let mut moves = Vec::new();
    // (name, the moves it names, whether it is an alias only)
    let mut sequences: Vec<(String, Vec<String>, bool)> = Vec::new();
    while let Some(tokens) = lines.next() {
        match tokens[0] {
            "Name" => {}
            "Set" => {
                assert_eq!(tokens.len(), 4, "Set NAME SIZE ORIENTATIONS");
                let offset = definition.state_len();
                definition.sets.push(PieceSet {
                    name: tokens[1].to_string(),
                    size: tokens[2].parse().unwrap(),
                    orientations: tokens[3].parse().unwrap(),
                    offset,
                });
            }
            "Solved" | "StartState" => {
                solved = Some(read_block(&mut lines, tokens[0] == "StartState"))
            }
            "Move" | "MoveTransformation" => {
                let name = tokens[1].to_string();
                let twsearch_numbering = tokens[0] == "MoveTransformation";
                moves.push((
                    name,
                    twsearch_numbering,
                    read_block(&mut lines, twsearch_numbering),
                ));
            }
            "MoveSequence" | "MoveAlias" => {
                let named = tokens[2..].iter().map(|t| t.to_string()).collect();
                sequences.push((tokens[1].to_string(), named, tokens[0] == "MoveAlias"));
            }
            // bitsolve takes scrambles in the definition; twsearch only
            // reads them from a second file. Nothing here uses them.
            "Scramble" | "ScrambleState" | "ScrambleAlg" => {
                while lines.next().expect("a scramble ends with End")[0] != "End" {}
            }
            other => panic!("unexpected line starting {other}"),
        }
    }

    // The solved state: labels as written, or 1..n for a set left out.
    let mut state = vec![0u8; definition.state_len()];
    for set in &definition.sets {
        for i in 0..set.size {
            state[set.offset + i] = (i + 1) as u8;
        }
    }
    for (name, lines) in solved.expect("a Solved block") {
        let set = definition.set_named(&name);
        assert!(!lines.is_empty());
        for (i, &label) in lines[0].iter().enumerate() {
            state[set.offset + i] = label as u8;
        }
        if let Some(twists) = lines.get(1) {
            for (i, &twist) in twists.iter().enumerate() {
                assert!(twist < set.orientations as usize);
                state[set.offset + set.size + i] = twist as u8;
            }
        }
    }
    definition.solved = state;

    // Each move as an action on whole states.
    let modulus = definition.modulus();
    for (name, twsearch_numbering, sections) in moves {
        let mut action = Action::identity(&modulus);
        for (set_name, lines) in sections {
            let set = definition.set_named(&set_name);
            let perm: Vec<usize> = lines[0].iter().map(|&p| p - 1).collect();
            assert_eq!(perm.len(), set.size, "{name}: {set_name}");
            let mut sorted = perm.clone();
            sorted.sort_unstable();
            assert!(
                sorted.iter().copied().eq(0..set.size),
                "{name}: not a permutation"
            );
            let twists = lines.get(1).cloned().unwrap_or(vec![0; set.size]);
            for i in 0..set.size {
                action.from[set.offset + i] = set.offset + perm[i];
                let o = set.offset + set.size;
                action.from[o + i] = o + perm[i];
                // indexed by the slot the piece comes from (ksolve's
                // numbering) or goes to (twsearch's)
                let twist = if twsearch_numbering {
                    twists[i]
                } else {
                    twists[perm[i]]
                };
                action.add[o + i] = (twist % set.orientations as usize) as u8;
            }
        }
        definition.moves.push((name, action));
    }

    // Moves made of others, resolved in rounds (one may name a later one).
    let mut named: HashMap<String, Action> = definition.moves.iter().cloned().collect();
    let identity = Action::identity(&modulus);
    while !sequences.is_empty() {
        let before = sequences.len();
        sequences.retain(|(name, words, alias)| {
            let product = words.iter().try_fold(identity.clone(), |product, word| {
                named_power(&named, &identity, word).map(|m| product.then(&m))
            });
            match product {
                Some(action) => {
                    named.insert(name.clone(), action.clone());
                    if !alias {
                        definition.moves.push((name.clone(), action));
                    }
                    false
                }
                None => true,
            }
        });
        assert!(
            sequences.len() < before,
            "unresolved sequences: {sequences:?}"
        );
    }
    definition
}

/// The move `word` names among `named`: a name, or a power of one as
/// `M2` (twice), `M'` (the inverse) or `M2'` (the inverse twice).
fn named_power(named: &HashMap<String, Action>, identity: &Action, word: &str) -> Option<Action> {
    if let Some(action) = named.get(word) {
        return Some(action.clone());
    }
    let (stem, inverse) = match word.strip_suffix('\'') {
        Some(stem) => (stem, true),
        None => (word, false),
    };
    let base_len = stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let count: usize = if base_len == stem.len() {
        1
    } else {
        stem[base_len..].parse().ok()?
    };
    let base = named.get(&stem[..base_len])?;
    // The powers of the base up to the identity: its order.
    let mut powers = vec![identity.clone()];
    loop {
        let next = powers.last().unwrap().then(base);
        if next == *identity {
            break;
        }
        powers.push(next);
    }
    let order = powers.len();
    let exponent = if inverse {
        (order - count % order) % order
    } else {
        count % order
    };
    Some(powers[exponent].clone())
}

// ---------------------------------------------------------------------------
// The oracle: moves with their powers, and the breadth-first search

/// Every move's powers short of the identity, or only the move and its
/// inverse (the quarter metric; for a move of order 2 that is the move).
fn expanded_moves(definition: &Definition, quarter: bool) -> Vec<Action> {
    let identity = Action::identity(&definition.modulus());
    let mut all = Vec::new();
    for (name, base) in &definition.moves {
        let mut powers = vec![base.clone()];
        loop {
            let next = powers.last().unwrap().then(base);
            if next == identity {
                break;
            }
            powers.push(next);
            assert!(powers.len() < 10_000, "{name}: order too high");
        }
        let order = powers.len() + 1;
        for (k, power) in powers.into_iter().enumerate() {
            let exponent = k + 1;
            if !quarter || exponent == 1 || exponent == order - 1 {
                all.push(power);
            }
        }
    }
    all
}

/// States go into the hash set packed into one `u128`, each entry in as
/// few bits as its values need (a set of `Vec<u8>` spends most of its time
/// on cache misses following the vectors' pointers).
struct Packer {
    bits: Vec<u32>,
}

impl Packer {
    fn new(definition: &Definition) -> Self {
        let width = |most: u8| u8::BITS - most.leading_zeros();
        let mut bits = vec![0; definition.state_len()];
        for set in &definition.sets {
            let labels = set.offset..set.offset + set.size;
            let most = definition.solved[labels.clone()].iter().copied().max();
            for k in labels {
                bits[k] = width(most.unwrap_or(0));
                bits[k + set.size] = width(set.orientations.saturating_sub(1));
            }
        }
        let total: u32 = bits.iter().sum();
        assert!(total <= 128, "{total} bits: too big for the oracle");
        Packer { bits }
    }

    fn pack(&self, state: &[u8]) -> u128 {
        state
            .iter()
            .zip(&self.bits)
            .fold(0u128, |key, (&value, &bits)| (key << bits) | value as u128)
    }
}

fn oracle_bfs(definition: &Definition, quarter: bool) -> Vec<u64> {
    oracle_bfs_to(definition, quarter, usize::MAX)
}

/// The oracle's layers up to `max_depth` moves.
fn oracle_bfs_to(definition: &Definition, quarter: bool, max_depth: usize) -> Vec<u64> {
    let moves = expanded_moves(definition, quarter);
    let start = definition.solved.clone();
    let packer = Packer::new(definition);
    let mut seen: HashSet<u128> = HashSet::new();
    seen.insert(packer.pack(&start));
    let mut moved = vec![0u8; start.len()];
    let mut frontier = vec![start];
    let mut layers = vec![1u64];
    loop {
        let mut next = Vec::new();
        for state in &frontier {
            for action in &moves {
                action.apply(state, &mut moved);
                if seen.insert(packer.pack(&moved)) {
                    next.push(moved.clone());
                }
            }
        }
        if next.is_empty() || layers.len() > max_depth {
            return layers;
        }
        layers.push(next.len() as u64);
        frontier = next;
    }
}

type Layers = Arc<OnceLock<Vec<u64>>>;

/// The oracle's distance layers of the definition in `path`. Each file and
/// metric is searched once: several tests ask for the same one, and a test
/// asking while another test's search runs waits for its result.
fn oracle_layers(path: &Path, quarter: bool) -> Vec<u64> {
    static DONE: OnceLock<Mutex<HashMap<(PathBuf, bool), Layers>>> = OnceLock::new();
    let cell = DONE
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry((path.to_path_buf(), quarter))
        .or_default()
        .clone();
    cell.get_or_init(|| {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        oracle_bfs(&parse(&text), quarter)
    })
    .clone()
}

// ---------------------------------------------------------------------------
// Files and the command line

fn definition(name: &str) -> PathBuf {
    Path::new(crate::common::ROOT)
        .join("data/ksolve")
        .join(name)
}

/// A small definition written to a scratch file of its own (tests run side
/// by side, so no two calls share a file), in a directory removed when
/// the guard returned with it is dropped.
fn scratch_definition(name: &str, text: &str) -> (ScratchDir, PathBuf) {
    static WRITTEN: AtomicUsize = AtomicUsize::new(0);
    let serial = WRITTEN.fetch_add(1, Ordering::Relaxed);
    let dir = ScratchDir::new("ksolve-oracle", &format!("{name}-{serial}"));
    let path = dir.join(&format!("{name}.tws"));
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// `bitsolve bfs ksolve ARGS --json`, and the per-depth counts of its JSON.
fn bitsolve_layers(args: &[&str]) -> Vec<u64> {
    let json = crate::common::bitsolve_json(&[&["bfs", "ksolve"], args, &["--json"]].concat());
    json["layers"]
        .as_array()
        .unwrap_or_else(|| panic!("no layers in {json}"))
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

/// bitsolve's layers of a definition file in one metric.
fn bitsolve_file_layers(path: &Path, quarter: bool) -> Vec<u64> {
    let file = path.to_str().unwrap();
    if quarter {
        bitsolve_layers(&["--file", file, "--metric", "quarter"])
    } else {
        bitsolve_layers(&["--file", file])
    }
}

/// bitsolve's layers of the definition in `path` are the oracle's, in the
/// quarter metric or not as each of `metrics` says.
fn assert_bitsolve_equals_oracle(path: &Path, metrics: &[bool]) {
    for &quarter in metrics {
        let expected = oracle_layers(path, quarter);
        assert_eq!(
            bitsolve_file_layers(path, quarter),
            expected,
            "{path:?}, quarter metric: {quarter}"
        );
    }
}

/// `layers` gives a definition's layers in the half-turn metric as
/// `expected` and in the quarter metric as `quarter`.
fn assert_metrics(layers: impl Fn(bool) -> Vec<u64>, expected: &[u64], quarter: &[u64]) {
    assert_eq!(layers(false), expected);
    assert_eq!(layers(true), quarter);
}

/// The oracle's layers of the definition in `path` in both metrics.
fn assert_oracle_gives(path: &Path, expected: &[u64], quarter: &[u64]) {
    assert_metrics(|quarter| oracle_layers(path, quarter), expected, quarter);
}

/// bitsolve's layers of the definition in `path` in both metrics.
fn assert_bitsolve_gives(path: &Path, expected: &[u64], quarter: &[u64]) {
    assert_metrics(
        |quarter| bitsolve_file_layers(path, quarter),
        expected,
        quarter,
    );
}

// ---------------------------------------------------------------------------
// The oracle against twsearch

#[test]
fn oracle_reads_the_formats_example() {
    let (_path_dir, path) = scratch_definition("example", EXAMPLE);
    assert_oracle_gives(&path, &[1, 3], &[1, 2, 1]);
}

#[test]
fn oracle_indexes_move_twists_by_the_slot_a_piece_comes_from() {
    let (_path_dir, path) = scratch_definition("from-slot-twists", FROM_SLOT_TWISTS);
    assert_oracle_gives(&path, &FROM_SLOT_TWISTS_LAYERS, &FROM_SLOT_TWISTS_QUARTER);
    // The other reading, twists indexed by the slot a piece goes to, gives
    // a different puzzle: the test above would catch an oracle that read it.
    let mut other = parse(FROM_SLOT_TWISTS);
    for (_, action) in &mut other.moves {
        let perm: Vec<usize> = action.from[..4].to_vec();
        let from_indexed: Vec<u8> = action.add[4..].to_vec();
        for i in 0..4 {
            action.add[4 + perm[i]] = from_indexed[i];
        }
    }
    assert_eq!(oracle_bfs(&other, false).iter().sum::<u64>(), 648);
}

#[test]
fn oracle_handles_identical_pieces() {
    let (_ring_dir, ring) = scratch_definition("ring", RING);
    assert_oracle_gives(&ring, &RING_LAYERS, &RING_QUARTER);
    let (_twin_dir, twin) = scratch_definition("twin", TWIN);
    assert_oracle_gives(&twin, &TWIN_LAYERS, &TWIN_QUARTER);
}

#[test]
fn oracle_reads_a_set_left_out_of_a_block_as_untouched() {
    let (_path_dir, path) = scratch_definition("twin-left-out", &twin_left_out());
    assert_oracle_gives(&path, &TWIN_LAYERS, &TWIN_QUARTER);
}

#[test]
fn oracle_gives_twsearchs_pocket_cube_fixed_corner() {
    assert_oracle_gives(
        &definition("pocket-cube-fixed-corner.tws"),
        &POCKET_FIXED_HTM,
        &POCKET_FIXED_QTM,
    );
}

#[test]
fn oracle_gives_twsearchs_pocket_cube_two_colours() {
    assert_oracle_gives(
        &definition("pocket-cube-two-colours.tws"),
        &TWO_COLOURS_HTM,
        &TWO_COLOURS_QTM,
    );
}

#[test]
fn oracle_gives_twsearchs_pyraminx_no_tips() {
    // Every move has order 3: its inverse is its square, and the quarter
    // metric keeps both.
    assert_oracle_gives(
        &definition("pyraminx-no-tips.tws"),
        &PYRAMINX_NO_TIPS,
        &PYRAMINX_NO_TIPS,
    );
}

#[test]
fn oracle_gives_twsearchs_skewb() {
    assert_eq!(oracle_layers(&definition("skewb.tws"), false), SKEWB);
}

/// The pyraminx with tips is too big for the oracle's hash set, but a tip
/// turn commutes with every move and a big turn twists its tip as it
/// twists its centre: a position is as far as its tipless part, plus one
/// move for each tip not lined up with its centre. Convolving the tipless
/// layers with the 4 tips (C(4,k) * 2^k ways for k of them off) must give
/// twsearch's table.
#[test]
fn twsearchs_pyraminx_is_the_tipless_one_plus_a_move_per_tip() {
    let tipless = oracle_layers(&definition("pyraminx-no-tips.tws"), false);
    let tips: [u64; 5] = [1, 4 * 2, 6 * 4, 4 * 8, 16];
    let mut layers = vec![0u64; tipless.len() + tips.len() - 1];
    for (d, &count) in tipless.iter().enumerate() {
        for (k, &ways) in tips.iter().enumerate() {
            layers[d + k] += count * ways;
        }
    }
    assert_eq!(layers, PYRAMINX);
}

/// The oracle reads the big definitions too (it just cannot search them
/// here), and twsearch's tables add up to the known sizes.
#[test]
fn the_big_definitions_parse_and_their_tables_add_up() {
    for (file, sets, moves, size) in [
        ("pocket-cube.tws", 1, 6 * 3, 88_179_840u64),
        ("pyraminx.tws", 3, 8 * 2, 75_582_720),
        ("domino-fixed-corner.tws", 2, 3 + 4, 203_212_800),
        ("domino.tws", 2, 2 * 3 + 4, 1_625_702_400),
        ("dino-cube.tws", 1, 8 * 2, 239_500_800),
        ("domino-side-colours.tws", 2, 2 * 3 + 4, 101_606_400),
    ] {
        let text = std::fs::read_to_string(definition(file)).unwrap();
        let parsed = parse(&text);
        assert_eq!(parsed.sets.len(), sets, "{file}");
        assert_eq!(expanded_moves(&parsed, false).len(), moves, "{file}");
        let table: &[u64] = match file {
            "pocket-cube.tws" => &POCKET_HTM,
            "pyraminx.tws" => &PYRAMINX,
            "domino-fixed-corner.tws" => &DOMINO_FIXED_HTM,
            "dino-cube.tws" => &DINO,
            "domino-side-colours.tws" => &DOMINO_SIDE_COLOURS,
            _ => &DOMINO_HTM,
        };
        assert_eq!(table.iter().sum::<u64>(), size, "{file}");
    }
    assert_eq!(POCKET_QTM.iter().sum::<u64>(), 88_179_840);
    assert_eq!(DOMINO_FIXED_QTM.iter().sum::<u64>(), 203_212_800);
    assert_eq!(DOMINO_QTM.iter().sum::<u64>(), 1_625_702_400);
    // 8! * 3^7, 6!/2 * 2^5 * 3^8, 7! * 8!, 8! * 8!
    assert_eq!(40320 * 2187, 88_179_840u64);
    assert_eq!(360 * 32 * 6561, 75_582_720u64);
    assert_eq!(5040 * 40320, 203_212_800u64);
    assert_eq!(40320 * 40320, 1_625_702_400u64);
}

// ---------------------------------------------------------------------------
// bitsolve against the oracle (fail until `bfs ksolve` exists)

#[test]
fn ksolve_bfs_equals_the_oracle_pocket_cube_fixed_corner() {
    assert_bitsolve_equals_oracle(&definition("pocket-cube-fixed-corner.tws"), &[false, true]);
}

#[test]
fn ksolve_bfs_equals_the_oracle_pocket_cube_two_colours() {
    assert_bitsolve_equals_oracle(&definition("pocket-cube-two-colours.tws"), &[false, true]);
}

#[test]
fn ksolve_bfs_equals_the_oracle_pyraminx_no_tips() {
    assert_bitsolve_equals_oracle(&definition("pyraminx-no-tips.tws"), &[false]);
}

#[test]
fn ksolve_bfs_equals_the_oracle_skewb() {
    assert_bitsolve_equals_oracle(&definition("skewb.tws"), &[false]);
}

#[test]
fn ksolve_bfs_equals_the_oracle_small_definitions() {
    for (name, text) in [
        ("example", EXAMPLE),
        ("from-slot-twists", FROM_SLOT_TWISTS),
        ("ring", RING),
        ("twin", TWIN),
    ] {
        let (_dir, path) = scratch_definition(name, text);
        assert_bitsolve_equals_oracle(&path, &[false, true]);
    }
}

/// twsearch takes a set that a Solved or Move block leaves out as
/// untouched (identity, no twist), as PuzzleGeometry's files rely on;
/// `bfs ksolve` reads such a block the same way: the layers of the puzzle
/// with set Q left out equal the oracle's and those of the puzzle written
/// out in full.
#[test]
fn ksolve_reads_a_block_that_leaves_a_set_out_as_twsearch_does() {
    let (_path_dir, path) = scratch_definition("twin-left-out", &twin_left_out());
    assert_bitsolve_equals_oracle(&path, &[false, true]);
    assert_bitsolve_gives(&path, &TWIN_LAYERS, &TWIN_QUARTER);
}

// ---------------------------------------------------------------------------
// bitsolve against twsearch's tables on the big definitions

#[test]
#[ignore = "88 M positions"]
fn ksolve_bfs_matches_twsearch_pocket_cube() {
    assert_bitsolve_gives(&definition("pocket-cube.tws"), &POCKET_HTM, &POCKET_QTM);
}

#[test]
#[ignore = "76 M positions"]
fn ksolve_bfs_matches_twsearch_pyraminx() {
    assert_eq!(
        bitsolve_file_layers(&definition("pyraminx.tws"), false),
        PYRAMINX
    );
}

#[test]
#[ignore = "203 M positions"]
fn ksolve_bfs_matches_twsearch_domino_fixed_corner() {
    assert_bitsolve_gives(
        &definition("domino-fixed-corner.tws"),
        &DOMINO_FIXED_HTM,
        &DOMINO_FIXED_QTM,
    );
}

#[test]
#[ignore = "1.6 G positions"]
fn ksolve_bfs_matches_twsearch_domino() {
    assert_bitsolve_gives(&definition("domino.tws"), &DOMINO_HTM, &DOMINO_QTM);
}

#[test]
fn ksolve_bfs_of_a_permutation_too_big_for_a_table_starts_as_twsearchs_dino_cube() {
    // One 12-piece permutation: ranked per move, not read from a table.
    let path = definition("dino-cube.tws");
    let layers = bitsolve_layers(&["--file", path.to_str().unwrap(), "--max-depth", "6"]);
    assert_eq!(layers, DINO[..7]);
}

#[test]
fn the_dino_cube_s_permutation_is_computed_on_the_gpu_and_starts_as_twsearchs() {
    // Its 12!/2 values are too many for a move table: the kernel reads
    // its split tables (placements and runs), as the CPU does.
    if !crate::common::gpu::available() {
        return;
    }
    let path = definition("dino-cube.tws");
    let file = path.to_str().unwrap();
    let layers = bitsolve_layers(&["--file", file, "--max-depth", "6", "--backend", "gpu"]);
    assert_eq!(layers, DINO[..7]);
}

/// Alike pieces (14 slots in colours of 4, 4, 3 and 3: 4,204,200
/// arrangements), orientations (15 alike pieces of three orientations:
/// 3^15 values, or 3^14 with their sum kept) and a permutation of 11
/// pieces with an odd move (11! values, its parity free, so not split
/// into runs), each under 11 to 18 moves: too many values times moves for
/// a move table. The CPU decodes them once a position, the GPU kernel per
/// move; both give the oracle's first layers. (The Dino Cube's split
/// permutation is the test above.)
#[test]
fn coordinates_too_big_for_a_table_are_computed_on_the_gpu_as_on_the_cpu() {
    let cycle = |n: usize| -> String {
        (2..=n)
            .chain(1..2)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let identity =
        |n: usize| -> String { (1..=n).map(|i| i.to_string()).collect::<Vec<_>>().join(" ") };
    let alike = format!(
        "Name Alike\nSet C 14 1\nSolved\nC\n1 1 1 1 2 2 2 2 3 3 3 4 4 4\nEnd\n\
         Move A\nC\n{}\nEnd\n\
         Move B\nC\n5 2 3 4 9 6 7 8 1 10 11 12 13 14\nEnd\n\
         Move D\nC\n1 2 3 4 5 6 7 8 9 10 14 12 11 13\nEnd\n\
         Move E\nC\n1 7 3 4 5 6 2 8 9 10 11 12 13 14\nEnd\n",
        cycle(14)
    );
    let twists = |first: &str| format!("{first}{}", " 0".repeat(15 - first.split(' ').count()));
    let turned = |name: &str, twist: &str| {
        format!(
            "Name {name}\nSet O 15 3\nSolved\nO\n{}\nEnd\n\
             Move R\nO\n{}\n{}\nEnd\n\
             Move T\nO\n{}\n{}\nEnd\n",
            ["1"; 15].join(" "),
            cycle(15),
            twists("0"),
            identity(15),
            twists(twist)
        )
    };
    let eleven = format!(
        "Name ElevenOdd\nSet P 11 1\nSolved\nP\n{}\nEnd\n\
         Move A\nP\n2 3 1 4 5 6 7 8 9 10 11\nEnd\n\
         Move B\nP\n1 2 4 5 6 7 8 9 10 11 3\nEnd\n\
         Move C\nP\n2 1 3 4 5 6 7 8 9 10 11\nEnd\n",
        identity(11)
    );
    for (name, text, depth) in [
        ("alike", alike, 4),
        ("eleven-odd", eleven, 5),
        ("turned", turned("Turned", "1"), 5),
        ("turned-sum-kept", turned("TurnedSumKept", "1 2"), 5),
    ] {
        let (_path_dir, path) = scratch_definition(name, &text);
        let file = path.to_str().unwrap();
        let info = crate::common::bitsolve_json(&["info", "ksolve", "--file", file, "--json"]);
        assert_eq!(info["details"]["move tables"], "0 bytes", "{name}: {info}");
        assert_eq!(info["gpu"], true, "{name}: {info}");
        let expected = oracle_bfs_to(&parse(&text), false, depth);
        let max_depth = depth.to_string();
        let cpu = bitsolve_layers(&["--file", file, "--max-depth", &max_depth]);
        assert_eq!(cpu, expected, "{name} on the CPU");
        if crate::common::gpu::available() {
            let gpu = bitsolve_layers(&[
                "--file",
                file,
                "--max-depth",
                &max_depth,
                "--backend",
                "gpu",
            ]);
            assert_eq!(gpu, expected, "{name} on the GPU");
        }
    }
}

#[test]
#[ignore = "240 M positions: over 8 minutes on lavapipe on 2 cores; for a real GPU"]
fn the_dino_cube_on_the_gpu_matches_twsearch() {
    if !crate::common::gpu::available() {
        return;
    }
    let path = definition("dino-cube.tws");
    let layers = bitsolve_layers(&["--file", path.to_str().unwrap(), "--backend", "gpu"]);
    assert_eq!(layers, DINO);
}

#[test]
#[ignore = "102 M positions"]
fn ksolve_bfs_matches_twsearch_domino_with_alike_edges() {
    assert_eq!(
        bitsolve_file_layers(&definition("domino-side-colours.tws"), false),
        DOMINO_SIDE_COLOURS
    );
}

#[test]
#[ignore = "240 M positions"]
fn ksolve_bfs_matches_twsearch_dino_cube() {
    assert_eq!(
        bitsolve_file_layers(&definition("dino-cube.tws"), false),
        DINO
    );
}

// ---------------------------------------------------------------------------
// Definitions written the way PuzzleGeometry writes them for twsearch

/// The definitions of data/ksolve/twsearch-style/: each rewrites the one of
/// the same name in data/ksolve/ with the sets a move leaves alone left
/// out, orientation lines of zeros left out, some in twsearch's numbering,
/// one with alike pieces numbered 1 and 5, one with a MoveSequence, a
/// MoveAlias and a ScrambleAlg.
const TWSEARCH_STYLE: [&str; 7] = [
    "pocket-cube.tws",
    "pocket-cube-fixed-corner.tws",
    "pocket-cube-two-colours.tws",
    "pyraminx.tws",
    "pyraminx-no-tips.tws",
    "skewb.tws",
    "dino-cube.tws",
];

fn twsearch_style(name: &str) -> PathBuf {
    definition("twsearch-style").join(name)
}

/// What the oracle makes of a definition, in a form two writings of one
/// puzzle share: the sets, the solved state with each set's labels
/// renumbered by their order (only which pieces look alike matters), and
/// the distinct moves of each metric.
type Meaning = (
    Vec<(String, usize, u8)>,
    Vec<u8>,
    [Vec<(Vec<usize>, Vec<u8>)>; 2],
);

fn meaning(path: &Path) -> Meaning {
    let parsed = parse(&std::fs::read_to_string(path).unwrap());
    let sets = parsed
        .sets
        .iter()
        .map(|s| (s.name.clone(), s.size, s.orientations))
        .collect();
    let mut solved = parsed.solved.clone();
    for set in &parsed.sets {
        let labels = &mut solved[set.offset..set.offset + set.size];
        let mut distinct = labels.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        for label in labels.iter_mut() {
            *label = distinct.binary_search(label).unwrap() as u8;
        }
    }
    let moves = [false, true].map(|quarter| {
        let mut distinct: Vec<(Vec<usize>, Vec<u8>)> = expanded_moves(&parsed, quarter)
            .into_iter()
            .map(|action| (action.from, action.add))
            .collect();
        distinct.sort();
        distinct.dedup();
        distinct
    });
    (sets, solved, moves)
}

#[test]
fn oracle_reads_each_twsearch_style_definition_as_the_one_it_rewrites() {
    for name in TWSEARCH_STYLE {
        assert_eq!(
            meaning(&twsearch_style(name)),
            meaning(&definition(name)),
            "{name}"
        );
    }
}

/// The twsearch-style files small enough for every run, searched by
/// bitsolve: twsearch's tables of the files they rewrite.
#[test]
fn ksolve_reads_twsearch_style_definitions_as_twsearch_does() {
    assert_bitsolve_gives(
        &twsearch_style("pocket-cube-fixed-corner.tws"),
        &POCKET_FIXED_HTM,
        &POCKET_FIXED_QTM,
    );
    assert_bitsolve_gives(
        &twsearch_style("pocket-cube-two-colours.tws"),
        &TWO_COLOURS_HTM,
        &TWO_COLOURS_QTM,
    );
    assert_eq!(
        bitsolve_file_layers(&twsearch_style("pyraminx-no-tips.tws"), false),
        PYRAMINX_NO_TIPS
    );
    assert_eq!(
        bitsolve_file_layers(&twsearch_style("skewb.tws"), false),
        SKEWB
    );
}

#[test]
#[ignore = "76 M to 240 M positions"]
fn ksolve_reads_the_big_twsearch_style_definitions_as_twsearch_does() {
    assert_bitsolve_gives(&twsearch_style("pocket-cube.tws"), &POCKET_HTM, &POCKET_QTM);
    assert_eq!(
        bitsolve_file_layers(&twsearch_style("pyraminx.tws"), false),
        PYRAMINX
    );
    assert_eq!(
        bitsolve_file_layers(&twsearch_style("dino-cube.tws"), false),
        DINO
    );
}

/// A ScrambleAlg block is the position its moves make from the solved
/// state, and a MoveAlias name may be used where moves are given.
#[test]
fn a_scramble_given_by_moves_is_the_position_its_moves_make() {
    let file = twsearch_style("pocket-cube-fixed-corner.tws");
    let file = file.to_str().unwrap();
    let solve = |how: &str, what: &str| {
        crate::common::bitsolve_json(&["solve", "ksolve", "--file", file, how, what, "--json"])
    };
    let scrambled = solve("--scramble", "sune");
    let moved = solve("--moves", "R U R' U R U2 R'");
    assert_eq!(scrambled["position"], moved["position"]);
    assert_eq!(scrambled["length"], moved["length"]);
    assert!(scrambled["length"].as_u64().unwrap() > 0, "{scrambled}");
    let aliased = solve("--moves", "R Top R' Top R U2 R'");
    assert_eq!(aliased["position"], moved["position"]);
}
