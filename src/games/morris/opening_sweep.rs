//! The sweep of a placing-only opening's layer (Nine Men's Morris,
//! Morabaraba) written for Morris: a white pattern's positions are
//! judged together, so what their moves share is found once a pattern
//! instead of once a move.
//!
//! A layer's block stores, for each stored white pattern W, every black
//! pattern among the points W leaves, in binomial (colex) order. The
//! moves out of those positions lead to few stored white patterns: when
//! black places, W itself (a quiet placement: the successor's black rank
//! is the position's black stones with one more, among the same points)
//! or W less one of its removable stones (a mill); when white places, W
//! with one more stone, at one of the points W leaves. So the sweep finds
//! those patterns' places (stored pattern, symmetry, block) once for W,
//! walks W's black patterns by the next combination instead of unranking
//! each, and ranks a move from its black stones alone. Where a symmetry
//! keeps the white pattern, the least of a position's images under those
//! symmetries is judged and its twins given its value, as the generic
//! sweep does. A pattern whose moves lead to a block the layers below do
//! not hold is left to the generic sweep, which reports the error.

use std::ops::Range;

use super::board::{Board, POINTS};
use super::hash::{LayerKind, MorrisHash, StoredWhite, SymmetryMaps};
use super::rules::{self, FEWEST, Stones, points};
use crate::hash::BinomialRanker;
use crate::hash::binomial::BINOMIALS;
use crate::hash::bits::{compress, expand};
use crate::space::tally::{Tally, Verdict};
use crate::space::{AcyclicSweep, Player, SweepCount, Value};
use crate::table::TwoBitTable;

/// Every point, a bit each.
const BOARD: u32 = (1 << POINTS) - 1;

/// Where one kind of move from a white pattern's positions leads: a
/// stored white pattern in a layer below, and how a successor's black
/// stones are ranked there.
#[derive(Clone, Copy)]
struct Target<'a> {
    table: &'a TwoBitTable,
    /// The rank of the stored pattern's first position (its side to move
    /// included); a successor's black rank, shifted by `shift`, is added.
    base: u64,
    shift: u32,
    white: StoredWhite,
    /// The points the stored pattern leaves, among which black's stones
    /// are ranked, and how many there are.
    free: u32,
    free_points: usize,
}

impl<'a> Target<'a> {
    /// Where positions of white pattern `white` and `black` black stones
    /// in `layer` are stored, with `side` the rank's side bit there;
    /// `None` where the layer or its block is not there.
    fn new(
        hash: &MorrisHash,
        lower: &[Option<&'a TwoBitTable>],
        layer: usize,
        white: u32,
        black: usize,
        white_to_move: bool,
    ) -> Option<Self> {
        let table = (*lower.get(layer)?)?;
        let stored = hash.stored_white(white);
        let w = white.count_ones() as usize;
        let base = hash.pattern_base(layer, (w, black), stored.group, stored.index)?;
        let shift = hash.side_bits(layer);
        let side = u64::from(!white_to_move) & u64::from(shift);
        Some(Target {
            table,
            base: base + side,
            shift,
            white: stored,
            free: !stored.stored & BOARD,
            free_points: POINTS - w,
        })
    }

    /// The value of the successor with `black` black stones (as on the
    /// board before the symmetry that stores the white pattern).
    #[inline(always)]
    fn value(&self, maps: Option<&SymmetryMaps>, black: u32) -> Value {
        let image = self.white.black_image(maps, black);
        let packed = compress(image as u64, self.free as u64);
        self.value_of_packed(packed)
    }

    /// The value of the successor whose black stones, packed among the
    /// free points, are `packed`.
    #[inline(always)]
    fn value_of_packed(&self, packed: u64) -> Value {
        let rank = BinomialRanker::rank_of_bits(self.free_points, packed);
        Value::from_bits(self.table.get(self.base + (rank << self.shift)))
    }
}

/// What one block's sweep needs to know of the layer: where its moves
/// lead, and who moves.
struct Layer<'a, 's> {
    hash: &'a MorrisHash,
    sweep: &'a AcyclicSweep<'s>,
    /// The stones in hand after the mover places.
    hand_after: [u8; 2],
    white_moves: bool,
}

impl<'a, 's> Layer<'a, 's> {
    /// The layer holding the positions with `on_board` stones after the
    /// mover's placement.
    fn target_layer(&self, on_board: usize) -> usize {
        let stones = Stones {
            white: ((1u64 << on_board) - 1) as u32,
            black: 0,
            white_to_move: !self.white_moves,
            in_hand: self.hand_after,
        };
        self.hash.layer_of(&stones)
    }

    /// Where the positions after the mover's placement with white
    /// pattern `white` and `black` black stones are stored.
    fn target(&self, white: u32, black: usize) -> Option<Target<'s>> {
        let on_board = white.count_ones() as usize + black;
        Target::new(
            self.hash,
            self.sweep.lower,
            self.target_layer(on_board),
            white,
            black,
            !self.white_moves,
        )
    }
}

/// Solves `ranks` of placing layer `layer` (see
/// [`LayerLinks::sweep_acyclic_ranks`](crate::space::LayerLinks::sweep_acyclic_ranks));
/// `None` for any other kind of layer or ranks not within one block.
pub(super) fn sweep_placing_ranks(
    hash: &MorrisHash,
    board: &Board,
    layer: usize,
    ranks: Range<u64>,
    sweep: &AcyclicSweep<'_>,
    generic: &mut dyn FnMut(Range<u64>) -> SweepCount,
) -> Option<SweepCount> {
    if hash.kind(layer) != LayerKind::Placing || ranks.is_empty() {
        return None;
    }
    let blocks = hash.blocks(layer);
    let block = blocks.get(blocks.partition_point(|b| b.start + b.len <= ranks.start))?;
    if ranks.end > block.start + block.len {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has the features the function is compiled for.
        return Some(unsafe { sweep_with_bmi2(hash, board, layer, ranks, sweep, generic) });
    }
    Some(sweep_block_ranks(hash, board, layer, ranks, sweep, generic))
}

/// [`sweep_block_ranks`] compiled with BMI2, so that its `pext` and
/// `pdep` are single instructions inlined where they are used instead of
/// calls (the project targets x86-64-v2, which lacks them).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2")]
fn sweep_with_bmi2(
    hash: &MorrisHash,
    board: &Board,
    layer: usize,
    ranks: Range<u64>,
    sweep: &AcyclicSweep<'_>,
    generic: &mut dyn FnMut(Range<u64>) -> SweepCount,
) -> SweepCount {
    sweep_block_ranks(hash, board, layer, ranks, sweep, generic)
}

/// The next set of as many ones in colex order (Gosper's hack): the
/// black patterns of a white pattern follow one another so.
#[inline(always)]
fn next_combination(bits: u64) -> u64 {
    if bits == 0 {
        return 0;
    }
    let lowest = bits & bits.wrapping_neg();
    let ripple = bits + lowest;
    ripple | ((ripple ^ bits) >> 2) >> lowest.trailing_zeros()
}

#[inline(always)]
fn sweep_block_ranks(
    hash: &MorrisHash,
    board: &Board,
    layer: usize,
    ranks: Range<u64>,
    sweep: &AcyclicSweep<'_>,
    generic: &mut dyn FnMut(Range<u64>) -> SweepCount,
) -> SweepCount {
    let blocks = hash.blocks(layer);
    let block = blocks[blocks.partition_point(|b| b.start + b.len <= ranks.start)];
    let (w, b) = (block.white, block.black);
    let free_points = POINTS - w;
    // A placing layer has no side bit: its hands say who moves.
    let per_pattern = BINOMIALS[free_points][b];
    let in_hand = hash.in_hand(layer);
    let white_moves = in_hand[0] == in_hand[1];
    let mover_side = usize::from(!white_moves);
    let mut hand_after = in_hand;
    hand_after[mover_side] -= 1;
    let context = Layer {
        hash,
        sweep,
        hand_after,
        white_moves,
    };
    // A side with fewer than three stones on the board and in hand has
    // lost: the whole block's value.
    let rule_value = if w + usize::from(in_hand[0]) < FEWEST as usize {
        Some(Value::SecondWins)
    } else if b + usize::from(in_hand[1]) < FEWEST as usize {
        Some(Value::FirstWins)
    } else {
        None
    };
    let mover = Player::first_if(white_moves);
    let values = sweep.values;
    let maps = hash.maps();
    let mut count = SweepCount::default();
    // Black's targets: the pattern kept, and the pattern less each stone
    // a mill may take.
    let mut keeping: Option<Target> = None;
    let mut taking: Vec<Target> = Vec::with_capacity(POINTS);
    // White's: the pattern with a stone at each point, and with it taking
    // a black stone where the stone closes a mill.
    let mut placing: Vec<Option<Target>> = vec![None; POINTS];
    let mut placing_and_taking: Vec<Option<Target>> = vec![None; POINTS];
    let first_pattern = (ranks.start - block.start) / per_pattern;
    let last_pattern = (ranks.end - 1 - block.start) / per_pattern;
    for index in first_pattern..=last_pattern {
        let pattern_start = block.start + index * per_pattern;
        let run = ranks.start.max(pattern_start)..ranks.end.min(pattern_start + per_pattern);
        let white = hash.stored_pattern(w, block.group, index);
        let stabilizer = hash.stabilizer(white);
        let free = !white & BOARD;
        // Where this pattern's moves lead, found once for its positions.
        let found = rule_value.is_some()
            || if white_moves {
                let closing = board.closing_points(white, free);
                points(free).all(|point| {
                    let placed = white | 1 << point;
                    placing[point] = context.target(placed, b);
                    placing_and_taking[point] = if closing & 1 << point != 0 && b > 0 {
                        context.target(placed, b - 1)
                    } else {
                        None
                    };
                    placing[point].is_some()
                        && (closing & 1 << point == 0
                            || b == 0
                            || placing_and_taking[point].is_some())
                })
            } else {
                taking.clear();
                let removable = if white == 0 {
                    0
                } else {
                    rules::removable(board, white)
                };
                keeping = context.target(white, b + 1);
                keeping.is_some()
                    && points(removable).all(|point| {
                        match context.target(white & !(1 << point), b + 1) {
                            Some(target) => {
                                taking.push(target);
                                true
                            }
                            None => false,
                        }
                    })
            };
        if !found {
            count += generic(run);
            continue;
        }
        let moves = PatternMoves {
            board,
            maps,
            values,
            mover,
            white_moves,
            rule_value,
            keeping: keeping.as_ref(),
            taking: &taking,
            placing: &placing,
            placing_and_taking: &placing_and_taking,
            white,
            free,
            free_points,
            pattern_start,
            stabilizer,
        };
        let first = hash.black_pattern(w, b, run.start - pattern_start);
        // Two loops: the patterns no symmetry keeps (nearly all) without
        // the twins' code, which slowed the black placements' loop by a
        // tenth when it was there too.
        count += if stabilizer == 0 {
            moves.judge::<false>(run, first)
        } else {
            moves.judge::<true>(run, first)
        };
    }
    count
}

/// What judging the positions of one white pattern needs: the rules,
/// the tables, and where the pattern's moves lead.
struct PatternMoves<'a, 't> {
    board: &'a Board,
    maps: Option<&'a SymmetryMaps>,
    values: &'t TwoBitTable,
    mover: Player,
    white_moves: bool,
    /// The value of every position of the block, when a side has lost.
    rule_value: Option<Value>,
    keeping: Option<&'a Target<'t>>,
    taking: &'a [Target<'t>],
    placing: &'a [Option<Target<'t>>],
    placing_and_taking: &'a [Option<Target<'t>>],
    white: u32,
    /// The points the pattern leaves, and how many.
    free: u32,
    free_points: usize,
    /// The rank of the pattern's first position.
    pattern_start: u64,
    /// The symmetries that keep the pattern, a bit each.
    stabilizer: u16,
}

impl PatternMoves<'_, '_> {
    /// Judges the positions of `run` (ranks of this pattern, the first
    /// with black stones `packed` among the free points) not yet
    /// decided; `KEPT` when a symmetry keeps the pattern.
    #[inline(always)]
    fn judge<const KEPT: bool>(&self, run: Range<u64>, mut packed: u64) -> SweepCount {
        let mut count = SweepCount::default();
        // The run's values are written a word at a time: each cell holds
        // 0 until it is decided here (a twin's value, written at once by
        // its least image, is the same).
        let mut writes = self.values.gathered_writes();
        for rank in run {
            if self.values.get(rank) != Value::Unknown as u8 {
                packed = next_combination(packed);
                continue;
            }
            let black = expand(packed, self.free as u64) as u32;
            // Of the images of a position under the symmetries that keep
            // white's pattern (its twins) the least is judged for all.
            if KEPT && !least_image(self.maps, self.stabilizer, black) {
                packed = next_combination(packed);
                continue;
            }
            count.examined += 1;
            // No closure around this: one is compiled apart from the
            // BMI2 function, and its `pext` became a call again.
            let verdict = if let Some(value) = self.rule_value {
                Verdict::Decided(value)
            } else {
                let empty = self.free & !black;
                let mut tally = Tally::new(self.mover, false);
                if self.white_moves {
                    see_white_placements(
                        &mut tally,
                        self.maps,
                        self.board,
                        black,
                        empty,
                        self.placing,
                        self.placing_and_taking,
                    );
                } else {
                    let quiet = self.keeping.expect("found for the pattern");
                    see_black_placements::<KEPT>(
                        &mut tally,
                        self.maps,
                        self.board,
                        (self.white, black, packed),
                        (self.free, empty),
                        quiet,
                        self.taking,
                    );
                }
                tally.verdict(|| Value::win_for(self.mover.opponent()))
            };
            match verdict {
                Verdict::Decided(value) => {
                    writes.write(rank, value as u8);
                    if KEPT {
                        for_each_twin(self.maps, self.stabilizer, black, |twin| {
                            let packed = compress(twin as u64, self.free as u64);
                            let twin = BinomialRanker::rank_of_bits(self.free_points, packed);
                            self.values.set(self.pattern_start + twin, value as u8);
                        });
                    }
                }
                Verdict::Open => count.open += 1,
            }
            packed = next_combination(packed);
        }
        count
    }
}

/// Sees white's placements from a position with `black` black stones and
/// `empty` points: at each, the pattern's target there (`placing`), or
/// where it closes a mill, one per black stone it may take
/// (`placing_and_taking`; every placement is quiet while black has no
/// stone on the board).
#[inline(always)]
fn see_white_placements(
    tally: &mut Tally,
    maps: Option<&SymmetryMaps>,
    board: &Board,
    black: u32,
    empty: u32,
    placing: &[Option<Target>],
    placing_and_taking: &[Option<Target>],
) {
    let mut closing = 0;
    for point in points(empty) {
        match &placing_and_taking[point] {
            Some(_) if black != 0 => closing |= 1 << point,
            _ => {
                let target = placing[point].as_ref().expect("found for the pattern");
                if !tally.see(target.value(maps, black)) {
                    return;
                }
            }
        }
    }
    if closing == 0 {
        return;
    }
    let removable = rules::removable(board, black);
    for point in points(closing) {
        let target = placing_and_taking[point]
            .as_ref()
            .expect("found for the pattern");
        for taken in points(removable) {
            if !tally.see(target.value(maps, black & !(1 << taken))) {
                return;
            }
        }
    }
}

/// Sees black's placements from a position of white pattern `white` and
/// `black` black stones (`packed` among the pattern's `free` points): a
/// quiet one keeps the pattern (`quiet`, ranked from `packed` with one
/// more), one that closes a mill takes a removable white stone
/// (`taking`, one target per stone, in order; quiet while white has no
/// stone on the board).
#[inline(always)]
fn see_black_placements<const KEPT: bool>(
    tally: &mut Tally,
    maps: Option<&SymmetryMaps>,
    board: &Board,
    (white, black, packed): (u32, u32, u64),
    (free, empty): (u32, u32),
    quiet: &Target,
    taking: &[Target],
) {
    let closing = if white == 0 {
        0
    } else {
        board.closing_points(black, empty)
    };
    if !KEPT {
        // No symmetry keeps the pattern: a successor's black stones are
        // the position's with one more, among the same points.
        let mut rest = compress((empty & !closing) as u64, free as u64);
        while rest != 0 {
            let at = rest.trailing_zeros();
            rest &= rest - 1;
            if !tally.see(quiet.value_of_packed(packed | 1 << at)) {
                return;
            }
        }
    } else {
        for point in points(empty & !closing) {
            if !tally.see(quiet.value(maps, black | 1 << point)) {
                return;
            }
        }
    }
    for point in points(closing) {
        let placed = black | 1 << point;
        for target in taking {
            if !tally.see(target.value(maps, placed)) {
                return;
            }
        }
    }
}

/// Whether `black` is the least of its images under the symmetries
/// `stabilizer` (a bit each; none without symmetry).
#[inline(always)]
fn least_image(maps: Option<&SymmetryMaps>, stabilizer: u16, black: u32) -> bool {
    let mut least = true;
    for_each_twin(maps, stabilizer, black, |image| least &= image >= black);
    least
}

/// Calls `emit` with the image of `black` under each symmetry of
/// `stabilizer` (a bit each; none without symmetry).
#[inline(always)]
fn for_each_twin(
    maps: Option<&SymmetryMaps>,
    stabilizer: u16,
    black: u32,
    mut emit: impl FnMut(u32),
) {
    let Some(maps) = maps else {
        return;
    };
    let mut rest = stabilizer;
    while rest != 0 {
        let index = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        emit(maps.apply(index, black));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::splitmix64;
    use rules::OpeningRule;

    /// A layer's table with a random decided value in every cell, so that
    /// a move ranked to the wrong cell shows in its position's value.
    fn random_table(layer: usize, cells: u64) -> TwoBitTable {
        let table = TwoBitTable::scratch("random layer", cells, 0).unwrap();
        for cell in 0..cells {
            let random = splitmix64(cell ^ (layer as u64) << 40);
            table.set(cell, (random % 3 + 1) as u8);
        }
        table
    }

    /// The value of `stones` as the rules define it: the rule's when a
    /// side has lost, else the best of its moves ranked one by one.
    fn reference_value(
        hash: &MorrisHash,
        board: &Board,
        lower: &[Option<&TwoBitTable>],
        stones: &Stones,
    ) -> Value {
        let left = |board: u32, hand: u8| board.count_ones() + u32::from(hand);
        if left(stones.white, stones.in_hand[0]) < FEWEST {
            return Value::SecondWins;
        }
        if left(stones.black, stones.in_hand[1]) < FEWEST {
            return Value::FirstWins;
        }
        let mover = Player::first_if(stones.white_to_move);
        let mut tally = Tally::new(mover, false);
        for next in rules::successors(board, OpeningRule::Placing, stones) {
            let table = lower[hash.layer_of(&next)].expect("a layer below");
            if !tally.see(Value::from_bits(table.get(hash.rank(&next)))) {
                break;
            }
        }
        match tally.verdict(|| Value::win_for(mover.opponent())) {
            Verdict::Decided(value) => value,
            Verdict::Open => Value::Unknown,
        }
    }

    /// Sweeps every opening layer of the game with `men` stones a side
    /// over random values below, in chunks of an odd size (so that runs
    /// of a white pattern are cut), and compares every position it
    /// solves (twins too) with the rules' value; it leaves none to the
    /// generic sweep, the layers below being there.
    fn sweep_equals_the_rules(men: usize, diagonals: bool, symmetry: bool) {
        let hash = MorrisHash::new(men, symmetry, OpeningRule::Placing).unwrap();
        let board = Board::new(diagonals);
        let tables: Vec<TwoBitTable> = (0..=hash.max_layer())
            .map(|layer| random_table(layer, hash.layer_size(layer).max(1)))
            .collect();
        let mut swept = 0;
        for layer in hash.moving_top() + 1..=hash.max_layer() {
            let values = TwoBitTable::scratch("swept layer", hash.layer_size(layer), 0).unwrap();
            let lower: Vec<Option<&TwoBitTable>> = (0..layer).map(|l| Some(&tables[l])).collect();
            let sweep = AcyclicSweep {
                values: &values,
                lower: &lower,
            };
            let mut left = Vec::new();
            for block in hash.blocks(layer) {
                let mut start = block.start;
                while start < block.start + block.len {
                    let end = (start + 777).min(block.start + block.len);
                    let mut generic = |ranks: Range<u64>| {
                        left.push(ranks);
                        SweepCount::default()
                    };
                    let count =
                        sweep_placing_ranks(&hash, &board, layer, start..end, &sweep, &mut generic)
                            .expect("a placing layer's ranks within a block");
                    assert_eq!(count.open, 0);
                    start = end;
                }
            }
            assert_eq!(left, [], "layer {layer}: left to the generic sweep");
            for rank in 0..hash.layer_size(layer) {
                // A twin (a symmetry keeps white's pattern) was given its
                // least image's value; its moves reach the same stored
                // positions, so the rules' value is the same.
                let stones = hash.unrank(layer, rank);
                let expected = reference_value(&hash, &board, &lower, &stones);
                assert_eq!(
                    values.get(rank),
                    expected as u8,
                    "men {men}, diagonals {diagonals}, symmetry {symmetry}: layer {layer} rank {rank}, {stones:?}"
                );
                swept += 1;
            }
        }
        assert!(swept > 0);
    }

    #[test]
    fn nine_mens_morris_openings_swept_by_pattern_equal_the_rules() {
        sweep_equals_the_rules(3, false, false);
        sweep_equals_the_rules(4, false, true);
    }

    #[test]
    fn morabaraba_openings_swept_by_pattern_equal_the_rules() {
        sweep_equals_the_rules(3, true, false);
        sweep_equals_the_rules(4, true, true);
    }

    #[test]
    fn the_next_combination_follows_the_binomial_order() {
        let ranker = BinomialRanker::new(12, 5).unwrap();
        let mut bits = ranker.unrank(0);
        for rank in 1..ranker.size() {
            bits = next_combination(bits);
            assert_eq!(bits, ranker.unrank(rank));
        }
    }
}
