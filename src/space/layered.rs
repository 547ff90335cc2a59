//! The two-player side of the seam between games and algorithms: a game
//! whose positions are ranked layer by layer, each holding a two-bit
//! [`Value`], as the retrograde analysis (`search::retro2`) solves it. It
//! sits beside [`Space`](super::Space) so that the rules implement it
//! without knowing the solver.

use std::ops::Range;

use super::Block;

/// The two players; in a position, the one to move is the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who moves first.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// A position's value, stored in two bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Not decided (yet).
    Unknown = 0,
    /// The first player wins.
    FirstWins = 1,
    /// The second player wins.
    SecondWins = 2,
    /// Neither player wins.
    Draw = 3,
}

impl Value {
    /// The value in which `player` wins.
    pub fn win_for(player: Player) -> Value {
        match player {
            Player::First => Value::FirstWins,
            Player::Second => Value::SecondWins,
        }
    }

    /// The value with the players' parts exchanged: a position's value
    /// seen at its colour twin ([`LayeredGame::colour_twins`]).
    pub fn mirrored(self) -> Value {
        match self {
            Value::FirstWins => Value::SecondWins,
            Value::SecondWins => Value::FirstWins,
            other => other,
        }
    }

    /// The value whose bits are the low two of `bits`.
    pub fn from_bits(bits: u8) -> Value {
        match bits & 3 {
            0 => Value::Unknown,
            1 => Value::FirstWins,
            2 => Value::SecondWins,
            _ => Value::Draw,
        }
    }
}

/// A move's destination: a position of the same layer or of a lower one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Successor {
    /// The destination's layer.
    pub layer: usize,
    /// The destination's rank in its layer.
    pub rank: u64,
}

/// What a look at a position's moves to the layers below saw of its moves
/// within the layer ([`LayeredGame::lower_successors_naming`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WithinLayer {
    /// No move within the layer, or the look stopped before one (a win).
    None,
    /// The rank of the first move within the layer.
    First(u64),
}

/// A two-player game whose positions are ranked layer by layer.
pub trait LayeredGame: Sync {
    /// A decoded position; reused across calls so the passes never allocate.
    type State: Clone + Send;

    /// The game, its parameters and the layer, e.g. "fox-geese g=7": names
    /// the layer's file in a store.
    fn layer_descriptor(&self, layer: usize) -> String;

    /// Number of ranks in `layer`'s table.
    fn layer_size(&self, layer: usize) -> u64;

    /// The layout of a layer's table into blocks, which cover it in order
    /// (units of parallel work, and of [`block_weight`](Self::block_weight)).
    fn layer_blocks(&self, layer: usize) -> Vec<Block> {
        vec![Block {
            start: 0,
            len: self.layer_size(layer),
        }]
    }

    /// How many positions of the whole layer each position of block `block`
    /// stands for: a table may store only the blocks of representatives
    /// (Fox-and-Geese with symmetry stores the canonical fox cells' blocks,
    /// and a block then counts for its cell's orbit). Layer counts are
    /// weighted by it; 1 by default.
    fn block_weight(&self, _layer: usize, _block: usize) -> u64 {
        1
    }

    /// True when `rank` maps positions to a canonical twin under the game's
    /// symmetries (section 8.1): only positions with `rank(unrank(r)) == r`
    /// are solved, and every other position of the table is copied from
    /// its twin at the end.
    fn reduced_by_symmetry(&self) -> bool {
        false
    }

    /// With symmetry reduction: whether the position at `rank` (unranked
    /// into `state`) is the one of its twins that is solved, i.e.
    /// `rank(state) == rank`; a game may answer without ranking.
    fn is_representative(&self, layer: usize, rank: u64, state: &Self::State) -> bool {
        self.rank(layer, state) == rank
    }

    /// With symmetry reduction: the ranks of every position of the table
    /// that `state` stands for (its images under the symmetries that keep
    /// it in the table), itself included.
    fn images<F: FnMut(u64)>(&self, _layer: usize, _state: &Self::State, _emit: F) {}

    /// With symmetry reduction: false when no position of block `block`
    /// has an image other than itself, so that copying values to twins
    /// can pass the block by. Morris's blocks of white patterns that no
    /// symmetry keeps (most of a layer) are such. True by default.
    fn block_has_twins(&self, _layer: usize, _block: usize) -> bool {
        true
    }

    /// `Some(player)` when every position of `layer` has a colour twin in
    /// it, the position with the two sides' stones exchanged and the
    /// other side to move, whose value is its mirror image (Morris's
    /// moving phase, where the rules treat both colours alike). The
    /// passes on one CPU process, where moves are
    /// [counted](Self::counts_moves_within), then judge only the
    /// positions where `player` moves, and each one decided goes to its
    /// predecessors through its twin ([`colour_twin_rank`](Self::colour_twin_rank)),
    /// whose value is written then. Half the positions are judged, and each
    /// decision's predecessors are generated once, not once for each
    /// colour. A game names the player whose twins' predecessors are the
    /// cheaper to rank. `None` (the default): both sides are solved.
    fn colour_twins(&self, _layer: usize) -> Option<Player> {
        None
    }

    /// With [colour twins](Self::colour_twins): the rank of the colour
    /// twin of `state`, a position of `layer` where the named player moves.
    fn colour_twin_rank(&self, _layer: usize, _state: &Self::State) -> u64 {
        unreachable!("the game has no colour twins")
    }

    /// True when a layer is solved without reading the layer below (no move
    /// leaves a layer, or the rules decide every position that has such a
    /// move): any range of layers can then be solved alone.
    fn independent_layers(&self) -> bool {
        false
    }

    /// `Some(layers)` when every move of `layer` leads into one of the
    /// lower `layers`, not necessarily the one just below (Nine Men's
    /// Morris's opening: a placement leads to the next count of stones in
    /// hand, the last one into the moving phase at any count of stones on
    /// the board). Such a layer is solved in one sweep that reads its
    /// moves' values from those layers, solved in the store (or, when
    /// they are only the layer below, that layer as the driver carries
    /// it, in memory without a store: a positional game's placements),
    /// and needs no predecessors. `None` (the default): moves may stay in
    /// the layer.
    fn acyclic_layer(&self, _layer: usize) -> Option<Vec<usize>> {
        None
    }

    /// `Some(layers)` when a layer whose moves may stay in it (not
    /// [acyclic](Self::acyclic_layer)) has moves leaving to several lower
    /// `layers` (Lasker Morris's opening: a placement leads to one stone
    /// fewer in hand, a capture to one stone fewer on the board). Its
    /// passes read them all, solved in the store. `None` (the default):
    /// moves leave only to the layer just below.
    fn several_layers_below(&self, _layer: usize) -> Option<Vec<usize>> {
        None
    }

    /// A state to unrank into.
    fn new_state(&self) -> Self::State;

    /// Decodes the position at `rank` of `layer` into `state`.
    fn unrank(&self, layer: usize, rank: u64, state: &mut Self::State);

    /// The rank of `state` in `layer`: with symmetry reduction, its canonical
    /// twin's.
    fn rank(&self, layer: usize, state: &Self::State) -> u64;

    /// The player to move.
    fn mover(&self, state: &Self::State) -> Player;

    /// The player to move at a rank, when the ranking says it without
    /// unranking (Algorithm 4 interleaves the sides: even and odd ranks).
    fn mover_of_rank(&self, _layer: usize, _rank: u64) -> Option<Player> {
        None
    }

    /// Emits every move's destination (duplicates allowed), those in lower
    /// layers first, until `emit` returns false. Moves alternate: the
    /// mover of a successor is always the opponent.
    fn successors<F: FnMut(Successor) -> bool>(&self, layer: usize, state: &Self::State, emit: F);

    /// Emits the destinations of the moves numbered `moves` in the order
    /// of [`successors`](Self::successors) (0 its first), and tells whether
    /// the position has a move past the range. A pass checking a candidate
    /// stops at its first open move, so it ranks its moves a few at a
    /// time; a game overrides this to skip the moves before the range
    /// without ranking them (the default ranks and drops them).
    fn successors_in<F: FnMut(Successor)>(
        &self,
        layer: usize,
        state: &Self::State,
        moves: Range<usize>,
        mut emit: F,
    ) -> bool {
        let mut window = MoveWindow::new(moves);
        self.successors(layer, state, |successor| window.offer(|| emit(successor)));
        window.more()
    }

    /// Emits the moves to lower layers (as [`successors`](Self::successors)
    /// does, until `emit` returns false) and tells whether the position
    /// also has a move within its layer (once `emit` has asked to stop,
    /// only a move met before counts: the caller's verdict is settled
    /// then). The first pass of a layer needs no more, as the layer's own
    /// positions are all unknown then; a game may answer without ranking
    /// the moves within the layer.
    fn lower_successors<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &Self::State,
        mut emit: F,
    ) -> bool {
        let mut stays = false;
        self.successors(layer, state, |successor| {
            if successor.layer == layer {
                stays = true;
                return false;
            }
            emit(successor)
        });
        stays
    }

    /// [`lower_successors`](Self::lower_successors), naming one of the
    /// position's moves within the layer where it has one: what a pass
    /// records as the open move of a position that looked only at the
    /// layers below (see `search::retro2::open_moves`). Any such move is
    /// right, as every position of the layer is unknown then; one less
    /// likely to be decided soon saves checks later. The default names the
    /// first (in the order of [`successors`](Self::successors)), ranked
    /// from the same walk over the moves.
    fn lower_successors_naming<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &Self::State,
        mut emit: F,
    ) -> WithinLayer {
        let mut within = WithinLayer::None;
        self.successors(layer, state, |successor| {
            if successor.layer == layer {
                within = WithinLayer::First(successor.rank);
                return false;
            }
            emit(successor)
        });
        within
    }

    /// Emits the rank of every same-layer position with a move to `state`
    /// (called only where [`has_predecessors`](Self::has_predecessors)
    /// says so).
    fn predecessors<F: FnMut(u64)>(&self, layer: usize, state: &Self::State, emit: F);

    /// Whether [`predecessors`](Self::predecessors) answers in `layer`.
    /// Where it does not (a game that gives only its moves: see
    /// [`crate::games::kit`]), the passes after the first re-judge every
    /// undecided position from its moves until a pass decides none (value
    /// iteration), on the CPU only; `--distances` needs predecessors.
    /// True by default. Called once a layer before its passes, so a game
    /// may prepare its predecessors then.
    fn has_predecessors(&self, _layer: usize) -> bool {
        true
    }

    /// True when [`moves_within_count`](Self::moves_within_count) answers
    /// for every position of `layer`: its passes then count down each
    /// open position's moves instead of checking it again (see
    /// `search::retro2::move_counts`). False by default.
    fn counts_moves_within(&self, _layer: usize) -> bool {
        false
    }

    /// Whether the passes of `layer`, where its moves are not counted,
    /// tag each open position with the move that keeps it open (a byte
    /// and a bit a position, while memory allows: see
    /// `search::retro2::open_moves`). The tags spare later passes checks
    /// but cost the first pass a write, and where it looks only at the
    /// layers below a rank, for each position it leaves open. True by
    /// default; a game whose checks are cheap may do better without.
    fn tags_open_moves(&self, _layer: usize) -> bool {
        true
    }

    /// How many times [`predecessors`](Self::predecessors), called on
    /// every solved position of `layer`, emits the position `state`, a
    /// representative: once for each of its moves within the layer. Under
    /// symmetry reduction a move to a position whose class is smaller
    /// than this one's counts for more: the moves into a class X number M,
    /// the predecessors of X's representative into this class U, and
    /// |class of this|·M = |X|·U, so each move counts |Stab(its
    /// destination)| / |Stab(this)| and their sum over X is the integer
    /// U. Counted only where
    /// [`counts_moves_within`](Self::counts_moves_within) says so; a
    /// count wrong by one would decide a position wrongly, so a game
    /// implementing it tests it against `predecessors`.
    fn moves_within_count(&self, _layer: usize, _state: &Self::State) -> u32 {
        unreachable!("the game does not count its moves within a layer")
    }

    /// The value when the mover has no move.
    fn no_move_value(&self, state: &Self::State) -> Value;

    /// A value fixed by the rules before any search (e.g. Fox-and-Geese's
    /// variant in which any capture wins for the fox); `None` by default.
    fn rule_value(&self, _layer: usize, _state: &Self::State) -> Option<Value> {
        None
    }

    /// Solves `ranks` (part of one block) of an
    /// [acyclic](Self::acyclic_layer) layer with a sweep written for the
    /// game, writing each position's value to `sweep.values` as the
    /// generic sweep would, and handing to `generic` the ranks it leaves
    /// to that sweep; `None` (the default) where the game has none for
    /// `layer`. A game's own sweep walks a block in its order (Morris: a
    /// white pattern's positions together) and reuses what they share.
    fn sweep_acyclic_ranks(
        &self,
        _layer: usize,
        _ranks: Range<u64>,
        _sweep: &AcyclicSweep<'_>,
        _generic: &mut dyn FnMut(Range<u64>) -> SweepCount,
    ) -> Option<SweepCount> {
        None
    }

    /// The value of positions the fixpoint leaves undecided.
    fn undecided_value(&self) -> Value {
        Value::Draw
    }

    /// The rules of `layer` as a WGSL program for the GPU's retrograde
    /// passes (the functions it defines are listed in [`crate::kernel`]);
    /// a game without them is refused with its name.
    fn retro_gpu_program(&self, layer: usize) -> crate::Result<crate::kernel::Program> {
        crate::kernel::no_retro_rules(&self.layer_descriptor(layer))
    }
}

/// The tables an acyclic layer's sweep reads and writes
/// ([`LayeredGame::sweep_acyclic_ranks`]).
#[derive(Clone, Copy)]
pub struct AcyclicSweep<'a> {
    /// The layer's values, written as positions are solved.
    pub values: &'a crate::table::TwoBitTable,
    /// The solved layers below, by layer number (`None` where not open).
    pub lower: &'a [Option<&'a crate::table::TwoBitTable>],
}

/// What a part of an acyclic layer's sweep did: the positions it judged
/// (one per set of symmetric twins), and those it left open because a
/// move led to an undecided position (a layer below not solved: an
/// error the caller reports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepCount {
    /// Positions judged.
    pub examined: u64,
    /// Positions left open.
    pub open: u64,
}

impl std::ops::AddAssign for SweepCount {
    fn add_assign(&mut self, other: SweepCount) {
        self.examined += other.examined;
        self.open += other.open;
    }
}

/// The moves of a position numbered in order, and the range of them that a
/// [`LayeredGame::successors_in`] call ranks: one counter for every game.
#[derive(Clone, Debug)]
pub struct MoveWindow {
    range: Range<usize>,
    index: usize,
    more: bool,
}

impl MoveWindow {
    /// Before the first move, ranking those numbered `range`.
    pub fn new(range: Range<usize>) -> Self {
        MoveWindow {
            range,
            index: 0,
            more: false,
        }
    }

    /// Offers the next move in order: `take` ranks and emits it when it
    /// is in the range; whether the generation should go on.
    #[inline(always)]
    pub fn offer(&mut self, take: impl FnOnce()) -> bool {
        if self.index >= self.range.end {
            self.more = true;
            return false;
        }
        self.index += 1;
        if self.index > self.range.start {
            take();
        }
        true
    }

    /// Whether a move past the range was met.
    pub fn more(&self) -> bool {
        self.more
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TwoPlayerGame;
    use crate::games::dodgem::Dodgem;
    use crate::games::fox_geese::FoxGeese;
    use crate::games::morris::{Morris, Variant};

    /// Every window of a position's moves, ranked by the game's own
    /// `successors_in`, is that slice of its `successors`, and says
    /// rightly whether moves follow it; sampled ranks of every layer.
    fn assert_windows_are_slices_of_the_moves<G: LayeredGame + TwoPlayerGame>(
        game: &G,
        name: &str,
    ) {
        let mut state = game.new_state();
        let mut checked = 0;
        for layer in 0..=game.max_layer() {
            let size = game.layer_size(layer);
            let step = (size / 300).max(1);
            for rank in (0..size).step_by(step as usize) {
                game.unrank(layer, rank, &mut state);
                let mut all = Vec::new();
                game.successors(layer, &state, |successor| {
                    all.push(successor);
                    true
                });
                for start in 0..=all.len() + 1 {
                    for end in [start, start + 1, start + 3, start + 8, usize::MAX] {
                        let mut got = Vec::new();
                        let more = game.successors_in(layer, &state, start..end, |s| got.push(s));
                        let expected = &all[start.min(all.len())..end.min(all.len())];
                        assert_eq!(
                            got, expected,
                            "{name} layer {layer} rank {rank} {start}..{end}"
                        );
                        assert_eq!(
                            more,
                            end < all.len(),
                            "{name} layer {layer} rank {rank} {start}..{end}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "{name}: only {checked} windows");
    }

    #[test]
    fn successors_in_ranks_the_window_of_the_moves_it_is_given() {
        for variant in Variant::ALL {
            for symmetry in [false, true] {
                let game = Morris::with_men(variant, 4, symmetry).unwrap();
                assert_windows_are_slices_of_the_moves(&game, &format!("{variant:?} {symmetry}"));
            }
        }
        for (capture_wins, symmetry) in [(false, false), (true, true)] {
            let game = FoxGeese::new(capture_wins, symmetry).unwrap();
            assert_windows_are_slices_of_the_moves(&game, "fox-geese");
        }
        assert_windows_are_slices_of_the_moves(&Dodgem::new(4).unwrap(), "dodgem");
    }
}
