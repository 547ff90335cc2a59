//! The seam between games and algorithms: a state space with a perfect,
//! invertible hash, laid out as contiguous blocks of ranks, whose states can
//! be expanded into successor ranks; and its two-player counterpart, a game
//! in layers solved by retrograde analysis (`layered`, its optional hooks
//! in `layered::hooks`), and the minimax judgement of a position from its
//! moves' values (`tally`).

pub(crate) mod digit_moves;
pub(crate) mod layered;
pub(crate) mod layers_below;
pub(crate) mod tally;

pub use digit_moves::{DigitMoves, DigitTable};
pub use layered::hooks::{ColourTwinHooks, GpuRules, LayerLinks, MoveShortcuts, SymmetryHooks};
pub use layered::{
    AcyclicSweep, LayeredGame, MoveWindow, Player, Successor, SweepCount, Value, WithinLayer,
};
pub use layers_below::LayersBelow;

/// A contiguous range of ranks: one partition of the space (a layer, the
/// position of the blank, ...). Blocks are the unit of parallel work and of
/// move-alternation bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// First rank of the block.
    pub start: u64,
    /// Number of ranks.
    pub len: u64,
}

/// Most blocks a space lays out. Every search lists its blocks (and a
/// few words for each) before its table is allocated, so a space of more
/// is refused when it is opened: at 2^31 ranks a block, 2^51 positions,
/// a two-bit table of 512 TiB, far past any machine.
pub const MAX_BLOCKS: u64 = 1 << 20;

/// The number of a space's blocks and the longest one's length
/// ([`Space::block_shape`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockShape {
    /// Number of blocks.
    pub count: u64,
    /// Ranks in the longest block.
    pub longest: u64,
}

impl Block {
    /// One past the block's last rank.
    pub fn end(&self) -> u64 {
        self.start + self.len
    }

    /// The block's ranks.
    pub fn range(&self) -> std::ops::Range<u64> {
        self.start..self.end()
    }
}

/// Which successors `expand` should emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveFilter {
    /// Every move.
    All,
    /// Leave out the moves listed in [`BlockLayering::rank_preserving`]: the
    /// one-bit BFS applies those to whole blocks at once.
    SkipRankPreserving,
}

/// A move-alternation property (Definition 10) that is constant on blocks:
/// a state of block `b` can only lie in BFS layers `l` with
/// `l % modulus == residues[b]`. Parity of the blank's square colour in the
/// sliding-tile puzzle is one (modulus 2); the number of pegs removed in Peg
/// Solitaire is another (modulus larger than any depth, so the layer is
/// exact).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockLayering {
    /// The modulus of the layer residues.
    pub modulus: u64,
    /// The residue of each block's layers, below `modulus`.
    pub residues: Vec<u64>,
    /// For each block, the blocks that some move reaches while keeping the
    /// state's rank inside its block unchanged (horizontal blank moves in the
    /// sliding-tile puzzle, Algorithm 7 line 11). Target blocks must have the
    /// same length as the source.
    pub rank_preserving: Vec<Vec<usize>>,
    /// True when every state of a block with residue r lies in layer r
    /// itself (Peg Solitaire: the peg count), so each block is expanded in
    /// one pass only and holds one layer.
    pub exact: bool,
}

/// A game's state space under a perfect hash.
///
/// `rank` and `unrank` are inverse bijections between the states a game
/// represents and `0..size()`. Unreachable ranks are allowed (the search
/// finds what is reachable); every rank must unrank to *some* state whose
/// expansion emits ranks below `size()`.
pub trait Space: Sync {
    /// A decoded state; reused across calls so expansion never allocates.
    type State: Clone + Send;

    /// The game and its parameters, e.g. `pancake n=12`: names table files.
    fn descriptor(&self) -> String;

    /// What defines the space beyond its descriptor and its moves, as
    /// `key=value` lines: the contents of a board read from a file, say. A
    /// stored table records it (with fingerprints of the layout and the
    /// moves, `crate::search::identity`) and is refused to a run whose
    /// space differs.
    fn definition(&self) -> String {
        String::new()
    }

    /// Number of ranks.
    fn size(&self) -> u64;

    /// The layout: consecutive blocks covering `0..size()` in order.
    fn blocks(&self) -> Vec<Block> {
        vec![Block {
            start: 0,
            len: self.size(),
        }]
    }

    /// Whether [`Space::layering`] gives a layering, decided without
    /// building one (whose lists run over every block).
    fn has_layering(&self) -> bool {
        self.layering().is_some()
    }

    /// How many blocks [`Space::blocks`] lists and the longest one's
    /// length, without listing them: a space too large to search (a
    /// definition file of 2^62 positions) is described, never laid out.
    fn block_shape(&self) -> BlockShape {
        let blocks = self.blocks();
        BlockShape {
            count: blocks.len() as u64,
            longest: blocks.iter().map(|b| b.len).max().unwrap_or(0),
        }
    }

    /// Ranks of the states the search starts from (layer 0).
    fn start_ranks(&self) -> Vec<u64>;

    /// A state to unrank into.
    fn new_state(&self) -> Self::State;

    /// Decodes the state at `rank` into `state`.
    fn unrank(&self, rank: u64, state: &mut Self::State);

    /// The rank of `state`, in `0..size()`.
    fn rank(&self, state: &Self::State) -> u64;

    /// Emits the rank of every successor of `state` (duplicates allowed).
    fn expand<F: FnMut(u64)>(&self, state: &Self::State, moves: MoveFilter, emit: F);

    /// The moves as tables that act on each digit of the index apart, when
    /// they do (a definition file's puzzle whose coordinates are
    /// independent): the searches then find successors without unranking
    /// (`digit_moves`). They must agree with [`expand`](Self::expand)
    /// under [`MoveFilter::All`], in the same order.
    fn digit_moves(&self) -> Option<DigitMoves<'_>> {
        None
    }

    /// The move-alternation property, when the game has one on its blocks.
    fn layering(&self) -> Option<BlockLayering> {
        None
    }

    /// True when every move can be undone by a move, so a state's successors
    /// are also its predecessors; lets the two-bit BFS switch to checking
    /// parents of unseen states once they are fewer than the frontier.
    fn reversible(&self) -> bool {
        false
    }

    /// Positions whose distance from the start the searches report (the
    /// reversed position of Frogs-and-Toads, the one-peg goal of Peg
    /// Solitaire).
    fn goal_ranks(&self) -> Vec<u64> {
        Vec::new()
    }

    /// True when the space stores one representative per symmetry class
    /// (its successors are canonical ranks): the searches then count each
    /// stored state [`orbit_size`](Self::orbit_size) times, so the layers
    /// are those of the full space.
    fn symmetry_reduced(&self) -> bool {
        false
    }

    /// Number of positions `state` stands for under the symmetries in use.
    fn orbit_size(&self, _state: &Self::State) -> u64 {
        1
    }

    /// The rank of the inverse of `state`, for games whose inversion (Peg
    /// Solitaire's complement, Frogs-and-Toads' colour swap) maps the start
    /// onto the goal and moves onto reversed moves (section 8.1): a state is
    /// d moves from the goal exactly when its inverse is d moves from the
    /// start.
    fn inverse_rank(&self, _state: &Self::State) -> Option<u64> {
        None
    }

    /// What layer `layer` holds, for reports ("31 pegs"), when the layering
    /// says it exactly.
    fn layer_name(&self, _layer: usize) -> Option<String> {
        None
    }

    /// Facts about the space beyond its size and blocks, as (name, value)
    /// pairs `info` prints: how a definition file's puzzle is hashed, say.
    fn details(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The WGSL program that expands this space on a GPU (see
    /// [`crate::kernel`]), or why there is none: a game without kernels
    /// keeps this default and runs on the CPU only.
    fn gpu_program(&self) -> crate::Result<crate::kernel::Program> {
        crate::kernel::no_kernels(&self.descriptor())
    }
}

/// Positions as text and as pictures for people: what `bitsolve show` and
/// the deepest positions of a report print.
pub trait Picture: Space {
    /// The state drawn for a terminal (several lines).
    fn draw(&self, state: &Self::State) -> String;

    /// A state from its text form (the format is the game's; errors say
    /// it): what a game implements, and [`parse_position`](Self::parse_position)
    /// calls.
    fn read_position(&self, text: &str) -> crate::Result<Self::State>;

    /// The state the text `text` names; text that names none is an
    /// [`Error::BadPosition`](crate::Error::BadPosition) saying why.
    fn parse_position(&self, text: &str) -> crate::Result<Self::State> {
        self.read_position(text)
            .map_err(|error| error.in_position(text))
    }

    /// The state in the one-line text form [`parse_position`](Self::parse_position)
    /// reads back.
    fn position_text(&self, state: &Self::State) -> String;

    /// The numbers of the state's text, in order, written into `row`
    /// without making the text (the array form bindings hand out); false
    /// when the game has no such shortcut, and its text is read instead.
    fn write_numbers(&self, _state: &Self::State, _row: &mut [i64]) -> bool {
        false
    }

    /// The state whose text has the numbers `row`, checked as
    /// [`parse_position`](Self::parse_position) checks text; `None` when
    /// the game has no such shortcut.
    fn read_numbers(&self, _row: &[i64]) -> Option<crate::Result<Self::State>> {
        None
    }

    /// A short name for the move from `from` to `to`, one of its successors
    /// ("flip 4", "U2", "d2-d4"): what a solution prints.
    fn move_name(&self, from: &Self::State, to: &Self::State) -> String;

    /// The state as data for drawing programs (the explorer's boards).
    fn diagram(&self, state: &Self::State) -> crate::diagram::Diagram;

    /// What the space's goal positions are, for reports.
    fn goal_label(&self) -> String {
        "goal".to_string()
    }
}

/// Checks that `rank` inverts `unrank` on every rank of a (small) space.
#[cfg(test)]
pub(crate) fn assert_rank_inverts_unrank<S: Space>(space: &S) {
    let mut state = space.new_state();
    for rank in 0..space.size() {
        space.unrank(rank, &mut state);
        assert_eq!(space.rank(&state), rank, "{}", space.descriptor());
    }
}

/// Checks, on every rank of a (small) space, that a state's text form
/// parses back to the same rank and that each successor's move has a name
/// that tells it from the state's other moves.
#[cfg(test)]
pub(crate) fn assert_positions_and_moves_are_named<S: Space + Picture>(space: &S) {
    let mut state = space.new_state();
    let mut next = space.new_state();
    for rank in 0..space.size() {
        space.unrank(rank, &mut state);
        let text = space.position_text(&state);
        let parsed = space
            .parse_position(&text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(space.rank(&parsed), rank, "{text}");
        let mut successors = Vec::new();
        space.expand(&state, MoveFilter::All, |r| successors.push(r));
        successors.sort_unstable();
        successors.dedup();
        let mut names = Vec::new();
        for &successor in &successors {
            space.unrank(successor, &mut next);
            let name = space.move_name(&state, &next);
            assert!(!name.is_empty() && !name.contains('\n'), "{text}: '{name}'");
            names.push(name);
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), successors.len(), "{text}: {names:?}");
    }
}

/// Checks that a state reused across unranks (as the searches reuse it,
/// with whatever it caches) expands exactly like a fresh one, on every rank
/// of a (small) space visited in increasing order and then in a scattered
/// order.
#[cfg(test)]
pub(crate) fn assert_reused_states_expand_like_fresh_ones<S: Space>(space: &S) {
    let mut reused = space.new_state();
    let successors = |state: &S::State| {
        let mut list = Vec::new();
        space.expand(state, MoveFilter::All, |rank| list.push(rank));
        list
    };
    let size = space.size();
    let scattered = (0..size).map(|i| (i * 7919) % size);
    for rank in (0..size).chain(scattered) {
        let mut fresh = space.new_state();
        space.unrank(rank, &mut fresh);
        space.unrank(rank, &mut reused);
        assert_eq!(successors(&reused), successors(&fresh), "rank {rank}");
        assert!(successors(&fresh).iter().all(|&next| next < size));
    }
}
