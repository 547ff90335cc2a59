//! The optional hooks of a two-player layered game, in companion traits of
//! [`LayeredGame`] grouped by what they enable (symmetry, colour twins,
//! links between layers, shortcuts through the moves, GPU rules). Every
//! method has a default, so a new game writes `impl SymmetryHooks for Game
//! {}` and the like and never has to read them; the engine reaches them
//! through `LayeredGame`'s supertraits, statically as before.

use std::ops::Range;

use super::{AcyclicSweep, LayeredGame, MoveWindow, Player, Successor, SweepCount, WithinLayer};

/// Symmetry reduction (section 8.1): what lets a game solve one position of
/// each class of symmetric twins and copy its value to the others — how
/// much a stored block stands for, which position of a class is solved,
/// the twins it stands for, and which blocks have twins to copy to. A game
/// without symmetry keeps every default: `impl SymmetryHooks for Game {}`.
pub trait SymmetryHooks {
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
    fn is_representative(
        &self,
        layer: usize,
        rank: u64,
        state: &<Self as LayeredGame>::State,
    ) -> bool
    where
        Self: LayeredGame,
    {
        self.rank(layer, state) == rank
    }

    /// With symmetry reduction: the ranks of every position of the table
    /// that `state` stands for (its images under the symmetries that keep
    /// it in the table), itself included.
    fn images<F: FnMut(u64)>(&self, _layer: usize, _state: &<Self as LayeredGame>::State, _emit: F)
    where
        Self: LayeredGame,
    {
    }

    /// With symmetry reduction: false when no position of block `block`
    /// has an image other than itself, so that copying values to twins
    /// can pass the block by. Morris's blocks of white patterns that no
    /// symmetry keeps (most of a layer) are such. True by default.
    fn block_has_twins(&self, _layer: usize, _block: usize) -> bool {
        true
    }
}

/// Colour twins: what lets the passes of a layer whose rules treat both
/// colours alike judge only one side's positions, and reach the other
/// side's through each position's twin (stones exchanged, value mirrored).
/// By default both sides are solved.
pub trait ColourTwinHooks {
    /// `Some(player)` when every position of `layer` has a colour twin in
    /// it, the position with the two sides' stones exchanged and the
    /// other side to move, whose value is its mirror image (Morris's
    /// moving phase, where the rules treat both colours alike). The
    /// passes on one CPU process, where moves are
    /// [counted](MoveShortcuts::counts_moves_within), then judge only the
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
    fn colour_twin_rank(&self, _layer: usize, _state: &<Self as LayeredGame>::State) -> u64
    where
        Self: LayeredGame,
    {
        unreachable!("the game has no colour twins")
    }
}

/// Where a layer's moves lead, when not only within it and to the layer
/// just below: layers solved alone, acyclic layers solved in one sweep
/// (with a sweep a game may write for them), and several lower layers read
/// by a layer's passes. By default a move stays in its layer or goes to
/// the one just below.
pub trait LayerLinks {
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
}

/// Shortcuts through a position's moves, each one a faster answer to what
/// [`successors`](LayeredGame::successors) and
/// [`predecessors`](LayeredGame::predecessors) already say: the mover read
/// off a rank, a window of the moves, the moves to the layers below alone,
/// a count of the moves within the layer. The defaults derive each from
/// `successors` or do without, so a game overrides one for speed, never
/// for a different value.
pub trait MoveShortcuts {
    /// The player to move at a rank, when the ranking says it without
    /// unranking (Algorithm 4 interleaves the sides: even and odd ranks).
    fn mover_of_rank(&self, _layer: usize, _rank: u64) -> Option<Player> {
        None
    }

    /// Emits the destinations of the moves numbered `moves` in the order
    /// of [`successors`](LayeredGame::successors) (0 its first), and tells whether
    /// the position has a move past the range. A pass checking a candidate
    /// stops at its first open move, so it ranks its moves a few at a
    /// time; a game overrides this to skip the moves before the range
    /// without ranking them (the default ranks and drops them).
    fn successors_in<F: FnMut(Successor)>(
        &self,
        layer: usize,
        state: &<Self as LayeredGame>::State,
        moves: Range<usize>,
        mut emit: F,
    ) -> bool
    where
        Self: LayeredGame,
    {
        let mut window = MoveWindow::new(moves);
        self.successors(layer, state, |successor| window.offer(|| emit(successor)));
        window.more()
    }

    /// Emits the moves to lower layers (as [`successors`](LayeredGame::successors)
    /// does, until `emit` returns false) and tells whether the position
    /// also has a move within its layer (once `emit` has asked to stop,
    /// only a move met before counts: the caller's verdict is settled
    /// then). The first pass of a layer needs no more, as the layer's own
    /// positions are all unknown then; a game may answer without ranking
    /// the moves within the layer.
    fn lower_successors<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &<Self as LayeredGame>::State,
        mut emit: F,
    ) -> bool
    where
        Self: LayeredGame,
    {
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
    /// first (in the order of [`successors`](LayeredGame::successors)), ranked
    /// from the same walk over the moves.
    fn lower_successors_naming<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &<Self as LayeredGame>::State,
        mut emit: F,
    ) -> WithinLayer
    where
        Self: LayeredGame,
    {
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

    /// How many times [`predecessors`](LayeredGame::predecessors), called on
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
    fn moves_within_count(&self, _layer: usize, _state: &<Self as LayeredGame>::State) -> u32
    where
        Self: LayeredGame,
    {
        unreachable!("the game does not count its moves within a layer")
    }
}

/// The GPU's retrograde passes: the rules of a layer as a WGSL program. By
/// default a game has none and is refused on the GPU with its name.
pub trait GpuRules {
    /// The rules of `layer` as a WGSL program for the GPU's retrograde
    /// passes (the functions it defines are listed in [`crate::kernel`]);
    /// a game without them is refused with its name.
    fn retro_gpu_program(&self, layer: usize) -> crate::Result<crate::kernel::Program>
    where
        Self: LayeredGame,
    {
        crate::kernel::no_retro_rules(&self.layer_descriptor(layer))
    }
}
