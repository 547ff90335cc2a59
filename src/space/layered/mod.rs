//! The two-player side of the seam between games and algorithms: a game
//! whose positions are ranked layer by layer, each holding a two-bit
//! [`Value`], as the retrograde analysis (`search::retro2`) solves it. It
//! sits beside [`Space`](super::Space) so that the rules implement it
//! without knowing the solver.

use std::ops::Range;

pub mod hooks;

use super::Block;
pub use hooks::{ColourTwinHooks, GpuRules, LayerLinks, MoveShortcuts, SymmetryHooks};

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

    /// The first player when `first` holds, else the second: a position's
    /// mover from its side-to-move flag.
    pub fn first_if(first: bool) -> Player {
        if first { Player::First } else { Player::Second }
    }

    /// The mover of a position of rank `rank` in a layer whose blocks all
    /// start at even ranks and alternate the sides: the rank's last bit.
    pub fn of_rank_parity(rank: u64) -> Player {
        Player::first_if(rank & 1 == 0)
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
    /// seen at its colour twin ([`ColourTwinHooks::colour_twins`]).
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
/// within the layer ([`MoveShortcuts::lower_successors_naming`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WithinLayer {
    /// No move within the layer, or the look stopped before one (a win).
    None,
    /// The rank of the first move within the layer.
    First(u64),
}

/// A two-player game whose positions are ranked layer by layer.
///
/// Its optional hooks live in companion traits, its supertraits
/// ([`SymmetryHooks`], [`ColourTwinHooks`], [`LayerLinks`],
/// [`MoveShortcuts`], [`GpuRules`]), each method with a default, so that a
/// new game implements them empty and reads only the methods here.
pub trait LayeredGame:
    SymmetryHooks + ColourTwinHooks + LayerLinks + MoveShortcuts + GpuRules + Sync
{
    /// A decoded position; reused across calls so the passes never allocate.
    type State: Clone + Send;

    /// The game, its parameters and the layer, e.g. "fox-geese g=7": names
    /// the layer's file in a store.
    fn layer_descriptor(&self, layer: usize) -> String;

    /// Number of ranks in `layer`'s table.
    fn layer_size(&self, layer: usize) -> u64;

    /// The layout of a layer's table into blocks, which cover it in order
    /// (units of parallel work, and of [`block_weight`](SymmetryHooks::block_weight)).
    fn layer_blocks(&self, layer: usize) -> Vec<Block> {
        vec![Block {
            start: 0,
            len: self.layer_size(layer),
        }]
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

    /// Emits every move's destination (duplicates allowed), those in lower
    /// layers first, until `emit` returns false. Moves alternate: the
    /// mover of a successor is always the opponent.
    fn successors<F: FnMut(Successor) -> bool>(&self, layer: usize, state: &Self::State, emit: F);

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

    /// Whether [`predecessors`](Self::predecessors) are the game's own
    /// rules, which a table's identity then samples beside the moves.
    /// False for predecessors derived from the moves (the kit's reverse
    /// graph): the moves already pin them down, their order depends on
    /// the threads that built the graph, and sampling them would build it
    /// to open a table. True by default.
    fn predecessors_are_rules(&self) -> bool {
        true
    }

    /// The value when the mover has no move.
    fn no_move_value(&self, state: &Self::State) -> Value;

    /// A value fixed by the rules before any search (e.g. Fox-and-Geese's
    /// variant in which any capture wins for the fox); `None` by default.
    fn rule_value(&self, _layer: usize, _state: &Self::State) -> Option<Value> {
        None
    }

    /// The value of positions the fixpoint leaves undecided.
    fn undecided_value(&self) -> Value {
        Value::Draw
    }
}

/// The tables an acyclic layer's sweep reads and writes
/// ([`LayerLinks::sweep_acyclic_ranks`]).
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
/// [`MoveShortcuts::successors_in`] call ranks: one counter for every game.
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
