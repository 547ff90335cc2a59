//! [`Kit`]: a [`BoardGame`] with what the engine and the commands need
//! besides, as [`LayeredGame`], [`TwoPlayerGame`] and
//! [`RegisteredTwoPlayer`].

use std::sync::OnceLock;

use super::layers::{Contents, LayerTable, Levels, MAX_KINDS};
use super::position::{Moves, Outcome, Position};
use super::symmetry::Symmetries;
use super::unmoves::{ReverseGraph, Unmoves};
use super::{BoardGame, SYMMETRY_OPTION, UNMOVES_OPTION};
use crate::error::{Error, Result};
use crate::games::board::MAX_CELLS;
use crate::games::registration::{GameOptions, OptionSpec, RegisteredTwoPlayer};
use crate::games::two_player_game::TwoPlayerGame;
use crate::space::{
    Block, ColourTwinHooks, GpuRules, LayerLinks, LayeredGame, MoveShortcuts, Player, Successor,
    SymmetryHooks, Value, WithinLayer,
};
use crate::table::storage::available_memory;

/// A [`BoardGame`] made solvable: its layers ranked, its symmetries and
/// its reverse graphs at hand.
pub struct Kit<G: BoardGame> {
    pub(super) game: G,
    pub(super) table: LayerTable,
    pub(super) cells: usize,
    pub(super) kinds: usize,
    symmetries: Symmetries,
    unmoves: Unmoves,
    /// Each layer's reverse graph, built when the engine first asks
    /// ([`Unmoves::Graph`]); `None` inside where it did not fit.
    graphs: Vec<OnceLock<Option<ReverseGraph>>>,
    /// Whether some layer holds stones in hand (the text then says them).
    pub(super) has_hands: bool,
    /// Whether a move of each layer may leave it (asked once a layer, not
    /// once a position).
    leaves: Vec<bool>,
}

impl<G: BoardGame> Kit<G> {
    /// `game` ranked by its layers; with `symmetry`, one position of each
    /// class under [`BoardGame::symmetries`] solved; layers solved without
    /// unmoves as `unmoves` says.
    pub fn new(game: G, symmetry: bool, unmoves: Unmoves) -> Result<Self> {
        let cells = game.board().cells();
        let kinds = G::PIECES.len();
        if cells > MAX_CELLS || kinds == 0 || kinds > MAX_KINDS {
            return Err(Error::InvalidParameter(format!(
                "{} has {kinds} kinds of pieces on {cells} cells; the kit takes 1 to {MAX_KINDS} kinds on up to {MAX_CELLS} cells",
                G::NAME
            )));
        }
        // Layer 0 is the empty board, as in every two-player game here
        // (the commands report from layer 1), unless a game's move fills
        // the empty board and the game lists it with the layer it fills
        // (Quixo): layer 0 is then empty.
        let empty = Contents::board(&vec![0; kinds]);
        let listed = game.layers();
        let lists_empty = listed.iter().flatten().any(|contents| *contents == empty);
        let mut layers = vec![if lists_empty { Vec::new() } else { vec![empty] }];
        layers.extend(listed);
        let table = LayerTable::new(cells, kinds, &layers)?;
        let symmetries = if symmetry {
            Symmetries::new(cells, &game.symmetries())?
        } else {
            Symmetries::none(cells)
        };
        let has_hands = layers
            .iter()
            .flatten()
            .any(|contents| contents.in_hand != [0, 0]);
        let leaves = (0..layers.len())
            .map(|layer| !game.layers_below(layer).is_empty())
            .collect();
        let kit = Kit {
            leaves,
            graphs: (0..table.layers()).map(|_| OnceLock::new()).collect(),
            game,
            table,
            cells,
            kinds,
            symmetries,
            unmoves,
            has_hands,
        };
        let start = kit.game.start();
        kit.place(&start).ok_or_else(|| {
            Error::InvalidParameter(format!(
                "{}'s start holds {:?}, which no layer lists",
                G::NAME,
                Contents::of(&start, cells, kinds)
            ))
        })?;
        Ok(kit)
    }

    /// The game's rules.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The (layer, block) of a position, if a layer lists its contents.
    pub(super) fn place(&self, position: &Position) -> Option<(usize, usize)> {
        self.table.place_of(position)
    }

    /// Calls `visit` with each move of `from`, its level sets and its
    /// (layer, block), until it returns false. A move to contents no layer
    /// lists is skipped where `from` is ended by the rules (the engine
    /// never plays it: a table's identity only samples it), and a game's
    /// error otherwise.
    #[inline]
    fn each_placed_move(
        &self,
        from: &Position,
        mut visit: impl FnMut(&Position, &Levels, (usize, usize)) -> bool,
    ) {
        self.each_move(from, |next| {
            let above = self.table.levels(next);
            match self.table.place_of_levels(&above, next) {
                Some(place) => visit(next, &above, place),
                None if self.game.outcome(from).is_some() => true,
                None => self.unlisted(next),
            }
        });
    }

    /// A move into contents no layer lists: a game's error.
    #[cold]
    fn unlisted(&self, position: &Position) -> ! {
        panic!(
            "a move of {} leads to {:?}, which no layer lists",
            G::NAME,
            Contents::of(position, self.cells, self.kinds)
        )
    }

    /// The layer and rank of a position at `place` with level sets
    /// `above`.
    #[inline]
    fn at(&self, place: (usize, usize), above: &Levels, position: &Position) -> Successor {
        Successor {
            layer: place.0,
            rank: self
                .symmetries
                .canonical_rank(&self.table, place, above, position.to_move()),
        }
    }

    /// The layer and rank of a position reached by the rules.
    #[inline]
    fn locate_move(&self, position: &Position) -> Successor {
        let above = self.table.levels(position);
        let place = self
            .table
            .place_of_levels(&above, position)
            .unwrap_or_else(|| self.unlisted(position));
        self.at(place, &above, position)
    }

    /// Whether `position` is its own canonical twin.
    #[inline]
    fn is_canonical(&self, position: &Position) -> bool {
        self.symmetries
            .is_least(self.kinds, &self.table.levels(position))
    }

    /// Calls `visit` with each move of `position`, until it returns false.
    #[inline]
    fn each_move(&self, position: &Position, mut visit: impl FnMut(&Position) -> bool) {
        let mut emit = |next: &Position| visit(next);
        let mut moves = Moves::new(position, &mut emit);
        self.game.moves(position, &mut moves);
    }

    /// The value `outcome` is for the side to move in `position`.
    fn value(position: &Position, outcome: Outcome) -> Value {
        let mover = position.to_move();
        match outcome {
            Outcome::Win => Value::win_for(mover),
            Outcome::Loss => Value::win_for(mover.opponent()),
            Outcome::Draw => Value::Draw,
        }
    }

    /// Layer `layer`'s reverse graph, built on the first call; `None`
    /// where it does not fit half the memory available.
    fn graph(&self, layer: usize) -> Option<&ReverseGraph> {
        self.graphs[layer]
            .get_or_init(|| {
                let budget = available_memory().unwrap_or(4 << 30) / 2;
                ReverseGraph::build(self.table.size(layer), budget, |rank, targets| {
                    let mut position = self.new_state();
                    self.unrank(layer, rank, &mut position);
                    if !self.is_canonical(&position) || self.game.outcome(&position).is_some() {
                        return;
                    }
                    self.each_move(&position, |next| {
                        let successor = self.locate_move(next);
                        if successor.layer == layer {
                            targets.push(successor.rank);
                        }
                        true
                    });
                })
            })
            .as_ref()
    }
}

impl<G: BoardGame> LayeredGame for Kit<G> {
    type State = Position;

    fn layer_descriptor(&self, layer: usize) -> String {
        let parameters = self.game.parameters();
        let space = if parameters.is_empty() { "" } else { " " };
        format!("{}{space}{parameters} layer={layer}", G::NAME)
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.table.size(layer)
    }

    fn layer_blocks(&self, layer: usize) -> Vec<Block> {
        self.table.blocks(layer)
    }

    fn new_state(&self) -> Position {
        self.game.start()
    }

    fn unrank(&self, layer: usize, rank: u64, state: &mut Position) {
        self.table.unrank(layer, rank, state);
    }

    fn rank(&self, _layer: usize, state: &Position) -> u64 {
        self.locate_move(state).rank
    }

    fn mover(&self, state: &Position) -> Player {
        state.to_move()
    }

    /// The moves to lower layers first (the engine's order), then those
    /// within the layer, kept aside meanwhile: the moves are generated
    /// once.
    fn successors<F: FnMut(Successor) -> bool>(&self, layer: usize, state: &Position, mut emit: F) {
        if !self.leaves[layer] {
            self.each_placed_move(state, |next, above, place| {
                emit(self.at(place, above, next))
            });
            return;
        }
        let mut within = KeptRanks::default();
        let mut going = true;
        self.each_placed_move(state, |next, above, place| {
            let successor = self.at(place, above, next);
            if place.0 == layer {
                within.push(successor.rank);
            } else {
                going = emit(successor);
            }
            going
        });
        if going {
            within.each(|rank| emit(Successor { layer, rank }));
        }
    }

    fn has_predecessors(&self, layer: usize) -> bool {
        self.unmoves == Unmoves::Graph && self.graph(layer).is_some()
    }

    /// Derived from the moves, in an order the building threads set.
    fn predecessors_are_rules(&self) -> bool {
        false
    }

    fn predecessors<F: FnMut(u64)>(&self, layer: usize, state: &Position, emit: F) {
        let graph = self
            .graph(layer)
            .expect("predecessors are asked only where has_predecessors says so");
        graph.predecessors(self.rank(layer, state), emit);
    }

    fn no_move_value(&self, state: &Position) -> Value {
        Self::value(state, self.game.no_moves(state))
    }

    fn rule_value(&self, _layer: usize, state: &Position) -> Option<Value> {
        self.game
            .outcome(state)
            .map(|outcome| Self::value(state, outcome))
    }
}

impl<G: BoardGame> SymmetryHooks for Kit<G> {
    fn reduced_by_symmetry(&self) -> bool {
        self.symmetries.any()
    }

    /// Compared as level sets, without ranking.
    fn is_representative(
        &self,
        _layer: usize,
        _rank: u64,
        state: &<Self as LayeredGame>::State,
    ) -> bool {
        self.is_canonical(state)
    }

    // The state is written as the trait writes it: in an impl generic over
    // `G`, `&Position` does not match the trait's
    // `&<Self as LayeredGame>::State`, which its `Self: LayeredGame` bound
    // keeps from being resolved.
    fn images<F: FnMut(u64)>(
        &self,
        layer: usize,
        state: &<Self as LayeredGame>::State,
        mut emit: F,
    ) {
        let (_, block) = self.place(state).expect("a position of the layer");
        let to_move = state.to_move();
        emit(
            self.table
                .rank_in(layer, block, state.cells(self.cells), to_move),
        );
        self.symmetries.each_image(state, |image| {
            emit(self.table.rank_in(layer, block, image, to_move));
        });
    }
}

impl<G: BoardGame> ColourTwinHooks for Kit<G> {}

impl<G: BoardGame> LayerLinks for Kit<G> {
    fn acyclic_layer(&self, layer: usize) -> Option<Vec<usize>> {
        self.game
            .acyclic(layer)
            .then(|| self.game.layers_below(layer))
    }

    fn several_layers_below(&self, layer: usize) -> Option<Vec<usize>> {
        let below = self.game.layers_below(layer);
        (below.len() > 1 || below.iter().any(|&lower| lower + 1 != layer)).then_some(below)
    }
}

impl<G: BoardGame> MoveShortcuts for Kit<G> {
    fn mover_of_rank(&self, _layer: usize, rank: u64) -> Option<Player> {
        // Blocks start at even ranks: the side is the rank's last bit.
        Some(Player::of_rank_parity(rank))
    }

    /// The moves within the layer are placed, not ranked.
    fn lower_successors<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &<Self as LayeredGame>::State,
        mut emit: F,
    ) -> bool {
        let mut stays = false;
        self.each_placed_move(state, |next, above, place| {
            if place.0 == layer {
                stays = true;
                true
            } else {
                emit(self.at(place, above, next))
            }
        });
        stays
    }

    /// Only the first move within the layer is ranked.
    fn lower_successors_naming<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &<Self as LayeredGame>::State,
        mut emit: F,
    ) -> WithinLayer {
        let mut within = WithinLayer::None;
        self.each_placed_move(state, |next, above, place| {
            if place.0 != layer {
                emit(self.at(place, above, next))
            } else {
                if within == WithinLayer::None {
                    within = WithinLayer::First(self.at(place, above, next).rank);
                }
                true
            }
        });
        within
    }
}

impl<G: BoardGame> GpuRules for Kit<G> {}

impl<G: BoardGame> TwoPlayerGame for Kit<G> {
    type Position = Position;

    fn side_name(&self, player: Player) -> &'static str {
        G::SIDE_NAMES[player as usize]
    }

    fn max_layer(&self) -> usize {
        self.table.layers() - 1
    }

    fn layer_name(&self, layer: usize) -> String {
        self.game.layer_name(layer)
    }

    fn default_layers(&self) -> Option<std::ops::RangeInclusive<usize>> {
        Some(0..=self.max_layer())
    }

    /// The game's flags, and `--symmetry` where it is solved with
    /// symmetry (its tables' identity says so).
    fn variant_flags(&self) -> String {
        let symmetry = if self.symmetries.any() {
            " --symmetry"
        } else {
            ""
        };
        format!("{}{symmetry}", self.game.variant_flags())
    }

    fn locate(&self, position: &Position) -> (usize, u64) {
        let successor = self.locate_move(position);
        (successor.layer, successor.rank)
    }

    fn position(&self, state: &Position) -> Position {
        *state
    }

    fn side_to_move(&self, position: &Position) -> Player {
        position.to_move()
    }

    fn moves(&self, position: &Position) -> Vec<Position> {
        let mut found = Vec::new();
        self.each_move(position, |next| {
            found.push(*next);
            true
        });
        found
    }

    fn move_name(&self, from: &Position, to: &Position) -> String {
        self.name_move(from, to)
    }

    fn read_position(&self, text: &str) -> Result<Position> {
        self.read_position(text)
    }

    fn position_text(&self, position: &Position) -> String {
        self.write_position(position)
    }

    fn draw(&self, position: &Position) -> String {
        self.picture(position)
    }

    fn diagram(&self, position: &Position) -> crate::diagram::Diagram {
        self.board_diagram(position)
    }

    fn start_position(&self, size: Option<usize>) -> Result<Position> {
        match size {
            None => Ok(self.game.start()),
            Some(_) => Err(Error::InvalidParameter(format!(
                "{} has one start: give --position for another",
                G::NAME
            ))),
        }
    }

    fn with_side_to_move(&self, position: &Position, side: Player) -> Position {
        let mut turned = *position;
        turned.set_to_move(side);
        turned
    }
}

impl<G: BoardGame> RegisteredTwoPlayer for Kit<G> {
    const NAME: &'static str = G::NAME;
    const SUMMARY: &'static str = G::SUMMARY;
    const OPTIONS: &'static [OptionSpec] = G::OPTIONS;

    fn from_options(options: &GameOptions) -> Result<Self> {
        let listed = |spec: OptionSpec| G::OPTIONS.iter().any(|o| o.name == spec.name);
        let symmetry = listed(SYMMETRY_OPTION) && options.flag(SYMMETRY_OPTION.name);
        let unmoves = match options.get(UNMOVES_OPTION.name) {
            Some(mode) if listed(UNMOVES_OPTION) => Unmoves::parse(mode)?,
            _ => Unmoves::Graph,
        };
        Kit::new(G::from_options(options)?, symmetry, unmoves)
    }
}

/// The ranks of a position's moves within its own layer, kept while the
/// moves to other layers are handed on: on the stack for the few moves of
/// most positions, on the heap past them.
struct KeptRanks {
    few: [u64; 64],
    len: usize,
    more: Vec<u64>,
}

impl Default for KeptRanks {
    fn default() -> Self {
        KeptRanks {
            few: [0; 64],
            len: 0,
            more: Vec::new(),
        }
    }
}

impl KeptRanks {
    #[inline]
    fn push(&mut self, rank: u64) {
        match self.few.get_mut(self.len) {
            Some(slot) => {
                *slot = rank;
                self.len += 1;
            }
            None => self.more.push(rank),
        }
    }

    /// Calls `visit` with each rank in the order pushed, until it returns
    /// false.
    #[inline]
    fn each(&self, mut visit: impl FnMut(u64) -> bool) {
        let _ = self.few[..self.len]
            .iter()
            .chain(&self.more)
            .all(|&rank| visit(rank));
    }
}
