//! What a game gives a compute backend to expand its states: a WGSL
//! program made of named u32 constants, the rule tables its kernel reads
//! (the same tables the Rust expansion reads, so a rule is written once and
//! both backends apply it), and WGSL sources. WGSL has no includes, so a
//! program lists the shared modules it needs (`shaders/`), then the game's
//! own expansion (beside the game under `src/games/`); a backend appends an
//! algorithm's entry points and compiles the whole.
//!
//! A game's kernel defines `fn expand(block: u32, local: u32)`, which calls
//! `successor(block, local)` for every successor, and
//! `rank_preserving_successor(block, local)` for the moves its
//! [`BlockLayering`](crate::space::BlockLayering) lists as rank-preserving.
//!
//! A two-player game's retrograde rules
//! ([`GpuRules::retro_gpu_program`](crate::space::GpuRules::retro_gpu_program))
//! are one program per layer L. Positions are (block, local rank) in a
//! layer's [blocks](crate::space::LayeredGame::layer_blocks), values are
//! [`Value`](crate::space::Value)'s bits (0 none or unknown, 1 the first
//! player wins, 2 the second, 3 draw), and the program defines:
//!
//! - `retro_unrank(block: u32, local: u32)`: position (block, local) of
//!   layer L into the program's private state; the others read it.
//! - `retro_mover() -> u32`: 1 when the first player moves, 2 the second.
//! - `retro_rule_value() -> u32`: the value the rules fix, or 0.
//! - `retro_no_move_value() -> u32`: the value when the mover has no move.
//! - `retro_is_representative() -> bool`: with symmetry reduction, whether
//!   the position is the twin that is solved (true without).
//! - `retro_twin() -> vec2<u32>`: (block, local) of the position's rank in
//!   layer L, through the canonical form where the Rust `rank` takes it.
//! - `retro_moves()`: calls `retro_move(lower: bool, block: u32, local:
//!   u32) -> bool` for each move's destination, in the order of the Rust
//!   `successors`, ranked as the Rust `rank` ranks it (`lower`: in layer
//!   L - 1, or, for an acyclic layer whose moves reach several layers, in
//!   those layers as [`LayersBelow`](crate::space::LayersBelow) numbers
//!   their blocks), until it returns false. Before ranking a move within
//!   layer L it may ask `retro_skips_within() -> bool`: where true (the
//!   first look at a fresh layer, which reads only the layers below), the
//!   move has been counted as open and unseen and the rules stop, so only
//!   rules whose moves within the layer come after all of their moves
//!   below ask.
//! - `retro_predecessors()`: calls `retro_predecessor(block: u32, local:
//!   u32)` for each position of layer L with a move to this one, as the
//!   Rust `predecessors` emits them.
//!
//! Keep the rules' loops short. lavapipe, the software Vulkan the tests run
//! on in CI, ends every loop of an invocation once all its loops together
//! have run 65,535 iterations (gallivm's loop limiter), without an error,
//! and one judging invocation handles up to 16 positions with all their
//! moves: rules that loop bit by bit over boards for every move silently
//! lose moves there (Morris did, until its mills and ranks were looked up
//! per stone; `morris.wgsl`).

use crate::error::{Error, Result};

/// WGSL: 64-bit unsigned integers as `vec2<u32>` (low, high).
pub const U64: &str = include_str!("../shaders/u64.wgsl");
/// WGSL: Myrvold–Ruskey rank and unrank of permutations (needs `PERM_CAP`).
pub const PERMUTATION: &str = include_str!("../shaders/permutation.wgsl");
/// WGSL: rank and unrank by the prefix Lehmer code (needs [`PERMUTATION`]).
pub const PREFIX_LEHMER: &str = include_str!("../shaders/prefix_lehmer.wgsl");
/// WGSL: binomial rank and unrank of 64-bit masks (needs [`U64`] and the
/// `BINOMIAL_AT` table).
pub const BINOMIAL: &str = include_str!("../shaders/binomial.wgsl");
/// WGSL: one level of the games' shared multinomial hash, nested colour
/// sets (needs [`BINOMIAL`]: see [`Program::colour_set_hash`]).
pub const COLOUR_SETS: &str = include_str!("../shaders/colour_sets.wgsl");
/// WGSL: multinomial rank and unrank over c colours (needs [`U64`], the
/// `MULTINOMIAL_CAP` constant and a ranker's [`multinomial_words`]).
pub const MULTINOMIAL: &str = include_str!("../shaders/multinomial.wgsl");

/// The parts of one program: named u32 constants, the `tables` buffer the
/// kernels read (constants named `*_AT` give where each table starts), and
/// the WGSL sources in order.
#[derive(Clone, Debug, Default)]
pub struct Program {
    constants: Vec<(String, u32)>,
    tables: Vec<u32>,
    sources: Vec<&'static str>,
}

impl Program {
    /// Defines the WGSL constant `name: u32 = value`.
    pub fn constant(&mut self, name: &str, value: u32) -> &mut Self {
        self.constants.push((name.to_string(), value));
        self
    }

    /// Appends `values` to the tables; constant `name` holds their offset.
    pub fn table(&mut self, name: &str, values: &[u32]) -> &mut Self {
        let offset = self.tables.len() as u32;
        self.constant(name, offset);
        self.tables.extend_from_slice(values);
        self
    }

    /// Appends a WGSL source, unless the program has it already.
    pub fn source(&mut self, source: &'static str) -> &mut Self {
        if !self.sources.contains(&source) {
            self.sources.push(source);
        }
        self
    }

    /// The binomial hash and its table: C(n, k) for n, k <= 64, saturated at
    /// 2^32 - 1 (see shaders/binomial.wgsl for why that is exact).
    pub fn binomial_hash(&mut self) -> &mut Self {
        let table: Vec<u32> = (0..=64)
            .flat_map(|n| {
                (0..=64).map(move |k| {
                    crate::hash::binomial::binomial(n, k as i64).min(u32::MAX as u64) as u32
                })
            })
            .collect();
        self.source(U64)
            .source(BINOMIAL)
            .table("BINOMIAL_AT", &table)
    }

    /// The shared multinomial hash's levels (nested colour sets) with the
    /// binomial hash they rank by.
    pub fn colour_set_hash(&mut self) -> &mut Self {
        self.binomial_hash().source(COLOUR_SETS)
    }

    /// The permutation hash, with arrays of `capacity` entries.
    pub fn permutation_hash(&mut self, capacity: usize) -> &mut Self {
        self.constant("PERM_CAP", capacity.max(2) as u32)
            .source(PERMUTATION)
    }

    /// The prefix Lehmer hash (with the permutation arrays it works on).
    pub fn prefix_lehmer_hash(&mut self, capacity: usize) -> &mut Self {
        self.permutation_hash(capacity).source(PREFIX_LEHMER)
    }

    /// The `tables` buffer the kernels read: every table appended, in order.
    pub fn tables(&self) -> &[u32] {
        &self.tables
    }

    /// The whole WGSL text, with `extra` (generated declarations) after the
    /// constants.
    pub fn text(&self, extra: &str) -> String {
        let mut text = String::new();
        for (name, value) in &self.constants {
            text.push_str(&format!("const {name}: u32 = {value}u;\n"));
        }
        text.push_str(extra);
        for source in &self.sources {
            text.push('\n');
            text.push_str(source);
        }
        text
    }
}

/// A multinomial ranker's tables as the WGSL hash reads them.
#[derive(Clone, Debug)]
pub struct MultinomialWords {
    /// Mixed-radix stride of each colour's count digit.
    pub strides: Vec<u32>,
    /// Per count vector and colour, the 64-bit prefix sum as (low, high).
    pub prefix: Vec<u32>,
    /// Index of the full count vector.
    pub full_index: u32,
}

/// The tables of `ranker` for shaders/multinomial.wgsl; `None` when the
/// ranker computes its multinomials on the fly (no lookup table).
pub fn multinomial_words(ranker: &crate::hash::MultinomialRanker) -> Option<MultinomialWords> {
    let (prefix, strides, full_index) = ranker.lookup_tables()?;
    Some(MultinomialWords {
        strides: strides.iter().map(|&s| s as u32).collect(),
        prefix: prefix
            .iter()
            .flat_map(|&v| [v as u32, (v >> 32) as u32])
            .collect(),
        full_index: full_index as u32,
    })
}

/// Offsets into the move lists of each cell, then the lists: the layout of
/// per-cell rule tables (Peg Solitaire's jumps, Frogs-and-Toads' movers).
pub fn per_cell_lists(lists: &[Vec<u32>]) -> (Vec<u32>, Vec<u32>) {
    let mut starts = vec![0u32];
    let mut entries = Vec::new();
    for list in lists {
        entries.extend_from_slice(list);
        starts.push(entries.len() as u32);
    }
    (starts, entries)
}

/// What ends the message of a run the GPU cannot do; `bench`, which has
/// no `--backend`, puts its own advice in its place.
pub const CPU_HINT: &str = "(run it with --backend cpu)";

/// The error of a game instance its kernel cannot run.
pub fn unsupported(what: String) -> Error {
    Error::Unsupported(format!("{what} {CPU_HINT}"))
}

/// A space without GPU kernels.
pub fn no_kernels(descriptor: &str) -> Result<Program> {
    Err(Error::Unsupported(format!(
        "no GPU kernels for {descriptor} {CPU_HINT}"
    )))
}

/// A two-player game without GPU retrograde rules.
pub fn no_retro_rules(descriptor: &str) -> Result<Program> {
    Err(Error::Unsupported(format!(
        "no GPU retrograde rules for {descriptor} {CPU_HINT}"
    )))
}
