//! The Morris games as the solver sees them ([`LayeredGame`]): layers and
//! their blocks, the state a pass unranks ([`Unranked`], which keeps what
//! consecutive ranks share), the moves ranked from it, the predecessors
//! and colour twins of the moving phase, and the rules' verdicts.

use super::Morris;
use super::board::POINTS;
use super::hash::{LayerKind, MixedTarget};
use super::opening_sweep;
use super::rules::{self, OpeningRule, Stones};
use crate::error::Result;
use crate::games::TwoPlayerGame;
use crate::hash::BinomialRun;
use crate::hash::bits::expand;
use crate::kernel::Program;
use crate::space::{
    AcyclicSweep, Block, ColourTwinHooks, GpuRules, LayerLinks, LayeredGame, MoveShortcuts,
    MoveWindow, Player, Successor, SweepCount, SymmetryHooks, Value, WithinLayer,
};

/// Every point, a bit each.
const BOARD: u32 = (1 << POINTS) - 1;

/// A position the solver works on, with what its white pattern's
/// symmetries are and the black patterns of the ranks that follow (kept
/// while consecutive ranks share the white pattern).
#[derive(Clone, Copy, Debug)]
pub struct Unranked {
    pub(super) stones: Stones,
    /// The layer `run` belongs to.
    layer: usize,
    run: BinomialRun,
    /// The white pattern `stabilizer` and `place` belong to.
    pattern: u32,
    /// Its group and index
    /// ([`MorrisHash::white_place`](super::hash::MorrisHash::white_place)):
    /// a successor that keeps the pattern is ranked without looking it up.
    place: (usize, u64),
    /// The symmetries other than the identity that keep the white
    /// pattern, a bit each.
    stabilizer: u16,
}

impl std::ops::Deref for Unranked {
    type Target = Stones;

    fn deref(&self) -> &Stones {
        &self.stones
    }
}

impl Morris {
    /// The rank of `next`, a position one move from `state`: a move that
    /// keeps white's pattern (black's moves and placements, most of the
    /// moves of a layer's sweep) reuses the pattern's place.
    #[inline]
    fn rank_near(&self, state: &Unranked, next: &Stones) -> u64 {
        if next.white == state.pattern {
            self.hash
                .rank_with_stored_white(state.place, state.stabilizer, next)
        } else {
            self.hash.rank(next)
        }
    }

    /// The moves of `state` to the layers below, emitted until `emit`
    /// returns false: whether it also has a move within `layer`, and when
    /// `name_first` asks, the rank of one to name as its open move: the
    /// first after which the opponent cannot close a mill, or the first
    /// when each lets it ([`rules::MillThreats`]).
    #[inline(always)]
    fn look_below<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &Unranked,
        mut emit: F,
        name_first: bool,
    ) -> (bool, Option<u64>) {
        // Placements and captures come first: reaching a quiet move
        // answers the question; only a stop asked by `emit` leaves it open.
        if self.hash.kind(layer) == LayerKind::Placing {
            // Every placement leaves the layer (a stone fewer in hand).
            self.successors(layer, state, emit);
            return (false, None);
        }
        let mut first = None;
        // The first quiet move, named when every quiet move lets the
        // opponent close a mill.
        let mut threatened = None;
        let mut threats = None;
        let rule = self.variant.opening_rule();
        rules::for_each_successor(&self.board, rule, &state.stones, |next| {
            let next_layer = self.hash.layer_of(&next);
            if next_layer == layer {
                if !name_first {
                    first = Some(None);
                    return false;
                }
                let threats = threats
                    .get_or_insert_with(|| rules::MillThreats::new(&self.board, &state.stones));
                // A threat now: only a stone moved onto it can take it
                // away, found without walking the other moves.
                let named = match threats.standing() {
                    rules::Standing::None
                        if threats.after_move(&self.board, &state.stones, &next) =>
                    {
                        None
                    }
                    rules::Standing::None | rules::Standing::Unavoidable => Some(next),
                    rules::Standing::One => {
                        Some(threats.block(&self.board, &state.stones).unwrap_or(next))
                    }
                };
                if let Some(named) = named {
                    first = Some(Some(self.rank_near(state, &named)));
                    return false;
                }
                threatened.get_or_insert(next);
                return true;
            }
            emit(Successor {
                layer: next_layer,
                rank: self.rank_near(state, &next),
            })
        });
        match (first, threatened) {
            (Some(rank), _) => (true, rank),
            (None, Some(next)) => (true, Some(self.rank_near(state, &next))),
            // No quiet move met: it has none, or `emit` stopped at a
            // capture first, which settled its verdict; a look for a
            // quiet move then changed nothing (and cost a few per cent of
            // Morabaraba's first passes).
            (None, None) => (false, None),
        }
    }

    /// The move from `state` to `next` as the solver names it: the layer
    /// and rank of `next`.
    #[inline(always)]
    fn successor(&self, state: &Unranked, next: &Stones) -> Successor {
        Successor {
            layer: self.hash.layer_of(next),
            rank: self.rank_near(state, next),
        }
    }
}

impl LayeredGame for Morris {
    type State = Unranked;

    fn layer_descriptor(&self, layer: usize) -> String {
        let symmetry = if self.symmetry() { " symmetry" } else { "" };
        let name = self.full_name();
        let [white, black] = self.hash.in_hand(layer);
        match self.hash.kind(layer) {
            LayerKind::Moving => format!("morris {name} stones={layer} moving{symmetry}"),
            LayerKind::Placing => {
                format!("morris {name} hand={} opening{symmetry}", white + black)
            }
            LayerKind::PlacingOrMoving => format!(
                "morris {name} hand={white},{black} stones={} opening{symmetry}",
                self.hash.on_board(layer).unwrap_or(0)
            ),
        }
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.hash.layer_size(layer)
    }

    fn layer_blocks(&self, layer: usize) -> Vec<Block> {
        self.hash
            .blocks(layer)
            .iter()
            .map(|b| Block {
                start: b.start,
                len: b.len,
            })
            .collect()
    }

    fn new_state(&self) -> Unranked {
        Unranked {
            stones: Stones {
                white_to_move: true,
                ..Stones::default()
            },
            layer: usize::MAX,
            run: BinomialRun::default(),
            pattern: u32::MAX,
            place: (0, 0),
            stabilizer: 0,
        }
    }

    #[inline]
    fn unrank(&self, layer: usize, rank: u64, state: &mut Unranked) {
        let side_bits = self.hash.side_bits(layer);
        if state.layer == layer
            && let Some(packed) = state.run.get(rank >> side_bits)
        {
            // The same white pattern as the rank before (and in the
            // opening the same side to move and hands).
            state.stones.black = expand(packed, (!state.stones.white & BOARD) as u64) as u32;
            if side_bits == 1 {
                state.stones.white_to_move = rank & 1 == 0;
            }
            return;
        }
        state.layer = layer;
        state.stones = self.hash.unrank_into_run(layer, rank, &mut state.run);
        if state.stones.white != state.pattern {
            state.pattern = state.stones.white;
            state.stabilizer = self.hash.stabilizer(state.pattern);
            state.place = self.hash.white_place(state.pattern);
        }
    }

    fn rank(&self, _layer: usize, state: &Unranked) -> u64 {
        self.hash.rank(&state.stones)
    }

    fn mover(&self, state: &Unranked) -> Player {
        self.side_to_move(&state.stones)
    }

    #[inline]
    fn successors<F: FnMut(Successor) -> bool>(
        &self,
        _layer: usize,
        state: &Unranked,
        mut emit: F,
    ) {
        rules::for_each_successor(
            &self.board,
            self.variant.opening_rule(),
            &state.stones,
            |next| emit(self.successor(state, &next)),
        );
    }

    #[inline]
    fn predecessors<F: FnMut(u64)>(&self, layer: usize, state: &Unranked, mut emit: F) {
        if self.hash.kind(layer) == LayerKind::Placing {
            // No move stays in an opening layer.
            return;
        }
        rules::for_each_quiet_predecessor(&self.board, &state.stones, |before| {
            emit(self.rank_near(state, &before))
        });
    }

    /// A side without a move has lost.
    fn no_move_value(&self, state: &Unranked) -> Value {
        Value::win_for(self.mover(state).opponent())
    }

    /// A side with two stones (on the board and in hand) has lost.
    fn rule_value(&self, _layer: usize, state: &Unranked) -> Option<Value> {
        let left = |board: u32, hand: u8| board.count_ones() + u32::from(hand);
        if left(state.white, state.in_hand[0]) < rules::FEWEST {
            Some(Value::SecondWins)
        } else if left(state.black, state.in_hand[1]) < rules::FEWEST {
            Some(Value::FirstWins)
        } else {
            None
        }
    }

    fn undecided_value(&self) -> Value {
        Value::Draw
    }
}

impl SymmetryHooks for Morris {
    fn block_weight(&self, layer: usize, block: usize) -> u64 {
        self.hash.blocks(layer)[block].weight
    }

    fn reduced_by_symmetry(&self) -> bool {
        self.symmetry()
    }

    fn block_has_twins(&self, layer: usize, block: usize) -> bool {
        // A block's weight is its white patterns' orbit: a full orbit
        // means no symmetry but the identity keeps the pattern, and a
        // position's only image is itself.
        self.hash
            .maps()
            .is_some_and(|maps| self.hash.blocks(layer)[block].weight < maps.len() as u64)
    }

    #[inline]
    fn is_representative(&self, _layer: usize, _rank: u64, state: &Unranked) -> bool {
        // The least black mask among the images that keep white's pattern.
        let Some(maps) = self.hash.maps() else {
            return true;
        };
        let mut rest = state.stabilizer;
        while rest != 0 {
            let index = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if maps.apply(index, state.black) < state.black {
                return false;
            }
        }
        true
    }

    fn images<F: FnMut(u64)>(&self, _layer: usize, state: &Unranked, mut emit: F) {
        let Some(maps) = self.hash.maps() else {
            return;
        };
        let (group, pattern) = state.place;
        let mut symmetries = state.stabilizer | 1;
        while symmetries != 0 {
            let index = symmetries.trailing_zeros() as usize;
            symmetries &= symmetries - 1;
            let image = Stones {
                black: maps.apply(index, state.black),
                ..state.stones
            };
            emit(self.hash.stored_rank(group, pattern, &image));
        }
    }
}

impl ColourTwinHooks for Morris {
    /// The moving phase: its rules treat both colours alike. Black's
    /// positions are the ones judged, so that the predecessors generated
    /// are those of white-to-move twins: the stones black moved back,
    /// white's pattern kept, which `rank_near` ranks
    /// without looking the pattern up.
    fn colour_twins(&self, layer: usize) -> Option<Player> {
        (self.hash.kind(layer) == LayerKind::Moving).then_some(Player::Second)
    }

    fn colour_twin_rank(&self, _layer: usize, state: &Unranked) -> u64 {
        self.hash.rank(&Stones {
            white: state.black,
            black: state.white,
            white_to_move: !state.white_to_move,
            ..state.stones
        })
    }
}

impl LayerLinks for Morris {
    /// A placing-only opening: a placement leads to one stone fewer in
    /// hand, the last one into the moving phase.
    fn acyclic_layer(&self, layer: usize) -> Option<Vec<usize>> {
        let top = self.hash.moving_top();
        match layer {
            _ if self.hash.kind(layer) != LayerKind::Placing => None,
            _ if layer == top + 1 => {
                Some((0..=top).filter(|&l| self.hash.layer_size(l) > 0).collect())
            }
            _ => Some(vec![layer - 1]),
        }
    }

    /// Lasker Morris's opening: a capture leads to one stone fewer on the
    /// board, a placement to one fewer in hand and one more on the board
    /// (or as many, when it takes one); the last placement into the
    /// moving phase.
    fn several_layers_below(&self, layer: usize) -> Option<Vec<usize>> {
        if self.hash.kind(layer) != LayerKind::PlacingOrMoving {
            return None;
        }
        let mut reached: Vec<usize> = MixedTarget::ALL
            .into_iter()
            .filter_map(|target| self.hash.mixed_target(layer, target))
            .collect();
        reached.sort_unstable();
        reached.dedup();
        Some(reached)
    }

    /// A placing-only opening's layer is swept a white pattern at a
    /// time (`opening_sweep`); Lasker Morris's opening has passes.
    fn sweep_acyclic_ranks(
        &self,
        layer: usize,
        ranks: std::ops::Range<u64>,
        sweep: &AcyclicSweep<'_>,
        generic: &mut dyn FnMut(std::ops::Range<u64>) -> SweepCount,
    ) -> Option<SweepCount> {
        if self.variant.opening_rule() != OpeningRule::Placing {
            return None;
        }
        opening_sweep::sweep_placing_ranks(&self.hash, &self.board, layer, ranks, sweep, generic)
    }
}

impl MoveShortcuts for Morris {
    fn mover_of_rank(&self, layer: usize, rank: u64) -> Option<Player> {
        if self.hash.kind(layer) == LayerKind::Placing {
            let [white, black] = self.hash.in_hand(layer);
            return Some(Player::first_if(white == black));
        }
        // Every block has an even length: the side is the rank's last bit.
        Some(Player::of_rank_parity(rank))
    }

    /// Moves before the range are generated but not ranked: a pass's
    /// check of a candidate needs its moves only up to the first open one
    /// (about 11 of 29 on average in layer 10), and ranking is most of a
    /// move's cost.
    #[inline]
    fn successors_in<F: FnMut(Successor)>(
        &self,
        _layer: usize,
        state: &Unranked,
        moves: std::ops::Range<usize>,
        mut emit: F,
    ) -> bool {
        let mut window = MoveWindow::new(moves);
        rules::for_each_successor(
            &self.board,
            self.variant.opening_rule(),
            &state.stones,
            |next| window.offer(|| emit(self.successor(state, &next))),
        );
        window.more()
    }

    #[inline]
    fn lower_successors<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &Unranked,
        emit: F,
    ) -> bool {
        self.look_below(layer, state, emit, false).0
    }

    /// Ranks only the quiet move it names: the first that leaves the
    /// opponent no mill to close, where there is one. A move the opponent
    /// answers with a capture is often decided in the same pass, and every
    /// position that named it is then checked again (Nine Men's Morris's
    /// layer 10: the second pass reached 54 M predecessors instead of 182
    /// M).
    #[inline]
    fn lower_successors_naming<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &Unranked,
        emit: F,
    ) -> WithinLayer {
        match self.look_below(layer, state, emit, true).1 {
            Some(first) => WithinLayer::First(first),
            None => WithinLayer::None,
        }
    }

    /// The moving phase and Lasker Morris's opening (a placement leaves
    /// the layer, a move taking no stone stays).
    fn counts_moves_within(&self, layer: usize) -> bool {
        self.hash.kind(layer) != LayerKind::Placing
    }

    /// The quiet moves; under symmetry each weighed by the symmetries that
    /// keep the position it reaches, over those that keep this one. Both
    /// keep the stones of the side not moving, so where no symmetry but
    /// the identity keeps those (most positions) every weight is 1.
    #[inline]
    fn moves_within_count(&self, _layer: usize, state: &Unranked) -> u32 {
        let count = || rules::quiet_move_count(&self.board, &state.stones);
        let Some(maps) = self.hash.maps() else {
            return count();
        };
        let (mine, theirs) = state.stones.sides();
        let keeping_theirs = maps.stabilizer_of(theirs);
        if keeping_theirs == 1 {
            return count();
        }
        let kept_by = |mine: u32| (keeping_theirs & maps.stabilizer_of(mine)).count_ones();
        let weights: u32 = rules::quiet_moves(&self.board, &state.stones)
            .map(kept_by)
            .sum();
        let own = kept_by(mine);
        debug_assert_eq!(weights % own, 0, "{:?}", state.stones);
        weights / own
    }
}

impl GpuRules for Morris {
    /// The program `gpu.rs` builds: `morris.wgsl` over the board's
    /// tables and the hash's.
    fn retro_gpu_program(&self, layer: usize) -> Result<Program> {
        self.retro_program(layer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::morris::Variant;
    use crate::hash::splitmix64;

    /// A position's count of moves within its layer is the number of
    /// times the predecessors of the layer's solved positions name it
    /// (what the passes count down): every variant with four stones a
    /// side, with and without symmetry, every layer that stays within
    /// itself, whole.
    #[test]
    fn moves_within_count_as_often_as_predecessors_name_the_position() {
        let mut counted = 0u64;
        let mut weighed = 0u64;
        for variant in Variant::ALL {
            for symmetry in [false, true] {
                let game = Morris::with_men(variant, 4, symmetry).unwrap();
                let mut state = game.new_state();
                for layer in 0..=game.hash().max_layer() {
                    let size = game.layer_size(layer);
                    if size == 0 || !game.counts_moves_within(layer) || size > 3_000_000 {
                        continue;
                    }
                    let representative = |rank: u64, state: &mut Unranked| {
                        game.unrank(layer, rank, state);
                        !symmetry || game.is_representative(layer, rank, state)
                    };
                    let mut named = vec![0u32; size as usize];
                    for rank in 0..size {
                        if representative(rank, &mut state) {
                            game.predecessors(layer, &state, |before| named[before as usize] += 1);
                        }
                    }
                    for rank in 0..size {
                        if !representative(rank, &mut state) {
                            assert_eq!(named[rank as usize], 0, "{variant:?} {layer} {rank}");
                            continue;
                        }
                        let count = game.moves_within_count(layer, &state);
                        assert_eq!(
                            count, named[rank as usize],
                            "{variant:?} symmetry {symmetry} layer {layer} rank {rank}: {:?}",
                            state.stones
                        );
                        counted += 1;
                        weighed += u64::from(
                            symmetry
                                && count != rules::quiet_moves(&game.board, &state).count() as u32,
                        );
                    }
                }
            }
        }
        // Whole layers of every variant, and positions whose moves count
        // for more or less than one under symmetry among them.
        assert!(
            counted > 1_000_000 && weighed > 1_000,
            "{counted} {weighed}"
        );
    }

    /// The passes judge black's positions of a moving layer and reach
    /// white's through their colour twins: each twin is a stored position
    /// (a representative) where white moves, an image of the position
    /// with the stones exchanged under one of the board's symmetries, and
    /// every such position is the twin of exactly one of black's. Every
    /// variant with four stones a side, with and without symmetry, every
    /// moving layer of up to 3 M positions, whole.
    #[test]
    fn colour_twins_pair_the_stored_positions_of_the_two_sides() {
        let mut paired = 0u64;
        for variant in Variant::ALL {
            for symmetry in [false, true] {
                let game = Morris::with_men(variant, 4, symmetry).unwrap();
                let (mut state, mut twin) = (game.new_state(), game.new_state());
                for layer in 0..=game.hash().max_layer() {
                    let size = game.layer_size(layer);
                    if game.colour_twins(layer).is_none() {
                        assert_ne!(game.hash().kind(layer), LayerKind::Moving);
                        continue;
                    }
                    assert_eq!(game.colour_twins(layer), Some(Player::Second));
                    if size > 3_000_000 {
                        continue;
                    }
                    let stored = |rank: u64, state: &mut Unranked| {
                        game.unrank(layer, rank, state);
                        game.is_representative(layer, rank, state)
                    };
                    let mut twin_of = vec![None; size as usize];
                    for rank in 0..size {
                        if !stored(rank, &mut state) || game.mover(&state) != Player::Second {
                            continue;
                        }
                        let twin_rank = game.colour_twin_rank(layer, &state);
                        game.unrank(layer, twin_rank, &mut twin);
                        assert_eq!(game.mover(&twin), Player::First);
                        assert!(stored(twin_rank, &mut twin), "{:?}", state.stones);
                        let exchanged = |index: usize| match game.hash().maps() {
                            Some(maps) => (
                                maps.apply(index, state.black),
                                maps.apply(index, state.white),
                            ),
                            None => (state.black, state.white),
                        };
                        let images = game.hash().maps().map_or(1, |maps| maps.len());
                        assert!(
                            (0..images).any(|index| exchanged(index) == (twin.white, twin.black)),
                            "{variant:?} layer {layer}: {:?} -> {:?}",
                            state.stones,
                            twin.stones
                        );
                        let slot = &mut twin_of[twin_rank as usize];
                        assert_eq!(*slot, None, "two positions share the twin {twin_rank}");
                        *slot = Some(rank);
                        paired += 1;
                    }
                    for rank in 0..size {
                        if stored(rank, &mut state) && game.mover(&state) == Player::First {
                            assert!(
                                twin_of[rank as usize].is_some(),
                                "{variant:?} {layer} {rank}"
                            );
                        }
                    }
                }
            }
        }
        assert!(paired > 1_000_000, "{paired}");
    }

    /// The solver's moves, ranked from what their position keeps (the
    /// place of white's pattern, reused when a move keeps it), rank as
    /// the positions they lead to: every variant, with and without
    /// symmetry, runs of consecutive ranks in every layer (so that the
    /// positions come through the unranking's runs, as a sweep's do).
    #[test]
    fn moves_ranked_from_their_position_rank_as_the_positions_they_reach() {
        for variant in Variant::ALL {
            for symmetry in [false, true] {
                let game = Morris::with_men(variant, 5, symmetry).unwrap();
                let hash = game.hash();
                let rule = variant.opening_rule();
                let mut state = game.new_state();
                for layer in 0..=hash.max_layer() {
                    let size = hash.layer_size(layer);
                    if size == 0 {
                        continue;
                    }
                    for run in 0..4u64 {
                        let start = splitmix64(layer as u64 * 8 + run) % size;
                        for rank in start..(start + 48).min(size) {
                            game.unrank(layer, rank, &mut state);
                            let mut expected = Vec::new();
                            rules::for_each_successor(&game.board, rule, &state, |next| {
                                expected.push((hash.layer_of(&next), hash.rank(&next)));
                                true
                            });
                            let mut got = Vec::new();
                            game.successors(layer, &state, |next| {
                                got.push((next.layer, next.rank));
                                true
                            });
                            assert_eq!(
                                got, expected,
                                "{variant:?} {symmetry} layer {layer} rank {rank}"
                            );
                            // The look below: every move leaving the layer
                            // (they come first), whether one stays, and
                            // the first that does, named.
                            let below: Vec<_> =
                                got.iter().copied().filter(|&(at, _)| at != layer).collect();
                            let first = got.iter().find(|&&(at, _)| at == layer).map(|m| m.1);
                            // Named: the first move within the layer after
                            // which the opponent can take no stone, or the
                            // first when each lets it take one.
                            let mut quiet = Vec::new();
                            rules::for_each_successor(&game.board, rule, &state, |next| {
                                if hash.layer_of(&next) == layer {
                                    quiet.push(next);
                                }
                                true
                            });
                            let takes = |next: &Stones| {
                                let (_, theirs) = next.sides();
                                let mut takes = false;
                                rules::for_each_successor(&game.board, rule, next, |after| {
                                    takes |= after.sides().0.count_ones() < theirs.count_ones();
                                    !takes
                                });
                                takes
                            };
                            let safe = quiet.iter().find(|next| !takes(next)).or(quiet.first());
                            let named_first = safe.map(|next| hash.rank(next));
                            let (mut seen, mut named) = (Vec::new(), Vec::new());
                            let stays = game.lower_successors(layer, &state, |s| {
                                seen.push((s.layer, s.rank));
                                true
                            });
                            let within = game.lower_successors_naming(layer, &state, |s| {
                                named.push((s.layer, s.rank));
                                true
                            });
                            let context =
                                format!("{variant:?} {symmetry} layer {layer} rank {rank}");
                            assert_eq!((&seen, stays), (&below, first.is_some()), "{context}");
                            assert_eq!(named, below, "{context}");
                            let expected_within =
                                named_first.map_or(WithinLayer::None, WithinLayer::First);
                            assert_eq!(within, expected_within, "{context}");
                            if hash.kind(layer) == LayerKind::Placing {
                                continue;
                            }
                            let mut expected = Vec::new();
                            rules::for_each_quiet_predecessor(&game.board, &state, |before| {
                                expected.push(hash.rank(&before));
                            });
                            let mut got = Vec::new();
                            game.predecessors(layer, &state, |before| got.push(before));
                            assert_eq!(
                                got, expected,
                                "{variant:?} {symmetry} layer {layer} rank {rank}"
                            );
                        }
                    }
                }
            }
        }
    }
}
