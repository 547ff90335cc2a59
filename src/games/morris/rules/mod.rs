//! The moves of the Morris games. In the opening (the placing phase) a
//! player with stones in hand places one on any empty point. Once the
//! mover's hand is empty (the moving phase, which Gasser's databases
//! cover) a stone slides along a line to an empty neighbour, or, for a
//! player down to three stones, flies to any empty point. A stone placed
//! or moved that closes a mill (completes a line of three of its own)
//! removes one opposing stone that stands in no mill, or any opposing
//! stone when all of them stand in mills — one stone even when two mills
//! close at once. A player left with fewer than three stones, on the
//! board and in hand together, has lost.
//!
//! Lasker Morris's opening differs: a player with stones in hand may also
//! move a stone already on the board instead of placing one. Flying stays
//! what it is in the moving phase: three stones on the board and none in
//! hand (sources differ on a player with three stones left counting those
//! in hand; here stones in hand never fly).
//!
//! The moves that take no stone, counted and taken back, are in `quiet`;
//! the opponent's threats to close a mill after one, in `threats`.

mod quiet;
mod threats;

pub(crate) use quiet::{for_each_quiet_predecessor, quiet_moves};
pub use quiet::{has_quiet_move, quiet_move_count};
pub use threats::{MillThreats, Standing};

use super::board::{Board, POINTS};

/// What a player with stones in hand may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpeningRule {
    /// Place only (Nine Men's Morris, Morabaraba): every stone is placed
    /// before any moves.
    Placing,
    /// Place or move (Lasker Morris).
    PlacingOrMoving,
}

/// Stones on the board, a bit per point each, who moves, and the stones
/// each side still has to place (none in the moving phase).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stones {
    /// White's stones, a bit per point.
    pub white: u32,
    /// Black's stones, a bit per point.
    pub black: u32,
    /// Whether white moves next.
    pub white_to_move: bool,
    /// Stones in hand: white's, black's.
    pub in_hand: [u8; 2],
}

/// Stones a player keeps and still plays with; with fewer the game is lost.
pub const FEWEST: u32 = 3;

impl Stones {
    /// (the mover's stones, the opponent's).
    pub fn sides(&self) -> (u32, u32) {
        if self.white_to_move {
            (self.white, self.black)
        } else {
            (self.black, self.white)
        }
    }

    /// The stones the mover has in hand.
    pub fn mover_in_hand(&self) -> u8 {
        self.in_hand[usize::from(!self.white_to_move)]
    }

    /// Whether a side still has stones to place.
    pub fn placing(&self) -> bool {
        self.in_hand != [0, 0]
    }

    /// The position after the mover's stones became `mine` and the
    /// opponent's `theirs`, the opponent to move.
    pub(super) fn after(&self, mine: u32, theirs: u32) -> Stones {
        let (white, black) = if self.white_to_move {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        Stones {
            white,
            black,
            white_to_move: !self.white_to_move,
            in_hand: self.in_hand,
        }
    }

    /// [`after`](Self::after) a stone of the mover's hand was placed.
    fn after_placing(&self, mine: u32, theirs: u32) -> Stones {
        debug_assert!(self.mover_in_hand() > 0);
        // Both hands as one word, so that they are stored as one: a hand
        // written a byte at a time and then read with the other (the
        // layer of the position) stalled the sweep's store forwarding
        // (an opening layer's sweep took 5 % longer).
        let taken: u16 = if self.white_to_move { 1 } else { 1 << 8 };
        Stones {
            in_hand: (u16::from_le_bytes(self.in_hand) - taken).to_le_bytes(),
            ..self.after(mine, theirs)
        }
    }
}

/// The bits of `mask`, lowest first.
#[inline(always)]
pub(super) fn points(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let at = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            at
        })
    })
}

/// Every point, a bit each.
const BOARD: u32 = (1 << POINTS) - 1;

/// Whether the game is over before the mover moves: a side has fewer than
/// three stones on the board and in hand (it lost).
pub fn decided(stones: &Stones) -> bool {
    stones.white.count_ones() + u32::from(stones.in_hand[0]) < FEWEST
        || stones.black.count_ones() + u32::from(stones.in_hand[1]) < FEWEST
}

/// The points of `stones` a mill may take from: those in no mill of their
/// own, or all of them when every one stands in a mill.
pub(super) fn removable(board: &Board, stones: u32) -> u32 {
    let outside_mills = stones & !board.in_mills(stones);
    if outside_mills == 0 {
        stones
    } else {
        outside_mills
    }
}

/// Whether the side with `stones` on the board and `in_hand` to place
/// flies: three on the board, none in hand.
#[inline]
fn flies(stones: u32, in_hand: u8) -> bool {
    stones.count_ones() == FEWEST && in_hand == 0
}

/// The points a stone of the mover's at `from` may go to: an empty
/// neighbour, or any empty point when the mover is down to three stones.
fn targets(board: &Board, from: usize, empty: u32, flying: bool) -> u32 {
    if flying {
        empty
    } else {
        board.neighbours(from) & empty
    }
}

/// Calls `emit` with every position one move of the mover leads to, those
/// that take a stone (and so leave the layer of stones on the board)
/// first, until `emit` returns false; a position reached by two moves
/// comes twice. None when the game is over ([`decided`]). A mover with
/// stones in hand places one; under [`OpeningRule::PlacingOrMoving`] its
/// moves follow its placements (every placement leaves a layer of the
/// opening, the moves that take no stone stay in it).
pub fn for_each_successor(
    board: &Board,
    opening: OpeningRule,
    stones: &Stones,
    mut emit: impl FnMut(Stones) -> bool,
) {
    if decided(stones) {
        return;
    }
    if stones.mover_in_hand() > 0 {
        let more = for_each_placement(board, stones, &mut emit);
        if !more || opening == OpeningRule::Placing {
            return;
        }
    }
    let (mine, theirs) = stones.sides();
    let empty = !(mine | theirs) & BOARD;
    let flying = flies(mine, stones.mover_in_hand());
    // Two sweeps over the moves, mills first, rather than a list of the
    // quiet ones kept for later: the list's allocation cost the solver
    // a tenth of its time.
    let mut taking: Option<u32> = None;
    let mut next = |moved: u32, left: u32| emit(stones.after(moved, left));
    // Only a move to one of these points can close a mill (the mill's
    // other two stones were there before it, the moving one being
    // elsewhere), so only those are tested: most moves close none, and
    // each sweep tested every move.
    let closing_points = board.closing_points(mine, empty);
    // The mills' sweep looks only at the stones next to a closing point
    // (any stone, flying), found from those few points: a look at every
    // stone, most of them with no closing point near, was most of the
    // move generation's time in pass 0 (a profile of Morabaraba's layer
    // 13). The moves come in the same order.
    let reaching = match closing_points {
        0 => 0,
        _ if flying => mine,
        _ => points(closing_points).fold(0, |near, to| near | board.neighbours(to)) & mine,
    };
    for (closing, movers) in [(true, reaching), (false, mine)] {
        for from in points(movers) {
            let mut to_points = targets(board, from, empty, flying);
            if closing {
                to_points &= closing_points;
            }
            for to in points(to_points) {
                let moved = mine & !(1 << from) | 1 << to;
                let closes = closing_points & 1 << to != 0 && board.in_mill(moved, to);
                if closes == closing
                    && !arrive(board, moved, theirs, closing, &mut taking, &mut next)
                {
                    return;
                }
            }
        }
    }
}

/// [`for_each_successor`] for a mover with stones in hand: a stone on
/// each empty point, those that close a mill first (once per stone it
/// may take). False once `emit` asks to stop.
fn for_each_placement(
    board: &Board,
    stones: &Stones,
    mut emit: impl FnMut(Stones) -> bool,
) -> bool {
    let (mine, theirs) = stones.sides();
    let empty = !(mine | theirs) & BOARD;
    let mut taking: Option<u32> = None;
    let mut next = |placed: u32, left: u32| emit(stones.after_placing(placed, left));
    // The points where a stone closes a mill, found once: tested again
    // for the quiet placements, the mill cost 6 % of the instructions of
    // an opening's move (benches/morris_moves.rs).
    let closing = board.closing_points(mine, empty);
    for (targets, closes) in [(closing, true), (empty & !closing, false)] {
        for to in points(targets) {
            let placed = mine | 1 << to;
            if !arrive(board, placed, theirs, closes, &mut taking, &mut next) {
                return false;
            }
        }
    }
    true
}

/// Emits, as (the mover's stones, the opponent's), what a stone arriving
/// leads to when the mover's stones became `mine`: the opponent's stones
/// as they are, or, when the arrival `closes` a mill, once per stone it
/// may take (`taking` keeps which those are; in the opening a mill may
/// close while the opponent has no stone on the board, and takes none).
/// False once `emit` asks to stop.
#[inline]
fn arrive(
    board: &Board,
    mine: u32,
    theirs: u32,
    closes: bool,
    taking: &mut Option<u32>,
    emit: &mut impl FnMut(u32, u32) -> bool,
) -> bool {
    if !closes || theirs == 0 {
        return emit(mine, theirs);
    }
    let removable = *taking.get_or_insert_with(|| removable(board, theirs));
    points(removable).all(|taken| emit(mine, theirs & !(1 << taken)))
}
/// Every position one move of the mover leads to (duplicates removed);
/// none when the game is over ([`decided`]).
pub fn successors(board: &Board, opening: OpeningRule, stones: &Stones) -> Vec<Stones> {
    let mut next = Vec::new();
    for_each_successor(board, opening, stones, |s| {
        next.push(s);
        true
    });
    next.sort_unstable_by_key(|s| (s.white, s.black));
    next.dedup();
    next
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::splitmix64;
    use std::collections::BTreeSet;

    /// The rules again, from the board's printed diagram instead of the
    /// module's squares and places: points by name, lines as listed in the
    /// rule books, mills as the runs of three along them.
    struct Independent {
        lines: Vec<[&'static str; 3]>,
    }

    impl Independent {
        fn new(diagonals: bool) -> Self {
            let mut lines = vec![
                ["a7", "d7", "g7"],
                ["b6", "d6", "f6"],
                ["c5", "d5", "e5"],
                ["a4", "b4", "c4"],
                ["e4", "f4", "g4"],
                ["c3", "d3", "e3"],
                ["b2", "d2", "f2"],
                ["a1", "d1", "g1"],
                ["a7", "a4", "a1"],
                ["b6", "b4", "b2"],
                ["c5", "c4", "c3"],
                ["d7", "d6", "d5"],
                ["d3", "d2", "d1"],
                ["e5", "e4", "e3"],
                ["f6", "f4", "f2"],
                ["g7", "g4", "g1"],
            ];
            if diagonals {
                lines.extend([
                    ["a7", "b6", "c5"],
                    ["g7", "f6", "e5"],
                    ["a1", "b2", "c3"],
                    ["g1", "f2", "e3"],
                ]);
            }
            Independent { lines }
        }

        fn adjacent(&self, a: &str, b: &str) -> bool {
            self.lines.iter().any(|l| {
                (l[0] == a && l[1] == b)
                    || (l[1] == a && (l[0] == b || l[2] == b))
                    || (l[2] == a && l[1] == b)
            })
        }

        fn mill_at(&self, own: &BTreeSet<String>, at: &str) -> bool {
            self.lines
                .iter()
                .any(|l| l.contains(&at) && l.iter().all(|p| own.contains(*p)))
        }

        /// What the opponent may keep after the mover's stones became
        /// `own` with a stone arriving at `at`: each choice of a stone to
        /// take when it closes a mill (one in no mill, else any; nothing
        /// when the opponent has no stone on the board), else all of them.
        fn left_to_them(
            &self,
            own: &BTreeSet<String>,
            at: &str,
            theirs: &BTreeSet<String>,
        ) -> Vec<BTreeSet<String>> {
            if !self.mill_at(own, at) || theirs.is_empty() {
                return vec![theirs.clone()];
            }
            let free: Vec<&String> = theirs.iter().filter(|p| !self.mill_at(theirs, p)).collect();
            let choices: Vec<&String> = if free.is_empty() {
                theirs.iter().collect()
            } else {
                free
            };
            choices
                .into_iter()
                .map(|taken| {
                    let mut left = theirs.clone();
                    left.remove(taken);
                    left
                })
                .collect()
        }

        /// Every successor as (white names, black names, white to move).
        fn successors(
            &self,
            white: &BTreeSet<String>,
            black: &BTreeSet<String>,
            white_to_move: bool,
        ) -> BTreeSet<(BTreeSet<String>, BTreeSet<String>, bool)> {
            let all: Vec<String> = (0..POINTS).map(Board::name).collect();
            let (mine, theirs) = if white_to_move {
                (white, black)
            } else {
                (black, white)
            };
            let mut found = BTreeSet::new();
            // A side down to two stones has lost: the game is over.
            if mine.len() < 3 || theirs.len() < 3 {
                return found;
            }
            for from in mine {
                for to in &all {
                    if mine.contains(to) || theirs.contains(to) {
                        continue;
                    }
                    if mine.len() > 3 && !self.adjacent(from, to) {
                        continue;
                    }
                    let mut moved = mine.clone();
                    moved.remove(from);
                    moved.insert(to.clone());
                    for left in self.left_to_them(&moved, to, theirs) {
                        found.insert(if white_to_move {
                            (moved.clone(), left, false)
                        } else {
                            (left, moved.clone(), true)
                        });
                    }
                }
            }
            found
        }
    }

    impl Independent {
        /// Every placement by a mover with stones in hand, as (white
        /// names, black names, white to move, hands after).
        #[allow(clippy::type_complexity)]
        fn placements(
            &self,
            white: &BTreeSet<String>,
            black: &BTreeSet<String>,
            white_to_move: bool,
            hands: [u8; 2],
        ) -> BTreeSet<(BTreeSet<String>, BTreeSet<String>, bool, [u8; 2])> {
            let (mine, theirs) = if white_to_move {
                (white, black)
            } else {
                (black, white)
            };
            let mut found = BTreeSet::new();
            // Fewer than three stones, on the board and in hand: lost.
            if white.len() + (hands[0] as usize) < 3 || black.len() + (hands[1] as usize) < 3 {
                return found;
            }
            let mut after_hands = hands;
            after_hands[usize::from(!white_to_move)] -= 1;
            for to in (0..POINTS).map(Board::name) {
                if mine.contains(&to) || theirs.contains(&to) {
                    continue;
                }
                let mut placed = mine.clone();
                placed.insert(to.clone());
                for left in self.left_to_them(&placed, &to, theirs) {
                    found.insert(if white_to_move {
                        (placed.clone(), left, false, after_hands)
                    } else {
                        (left, placed.clone(), true, after_hands)
                    });
                }
            }
            found
        }
    }

    fn names(mask: u32) -> BTreeSet<String> {
        points(mask).map(Board::name).collect()
    }

    #[test]
    fn placements_equal_an_independent_generator_on_random_positions() {
        for diagonals in [false, true] {
            let board = Board::new(diagonals);
            let independent = Independent::new(diagonals);
            let (mut removals, mut lost) = (0, 0);
            for seed in 0..3000 {
                // Up to 8 stones a side on the board, and stones in hand.
                let mut stones = random_stones(seed, 8);
                let r = splitmix64(seed ^ 0xabc);
                stones.in_hand = [(r % 8) as u8, (r >> 8) as u8 % 8];
                stones.in_hand[usize::from(!stones.white_to_move)] += 1;
                if seed % 5 == 0 {
                    // Some without a stone of one side on the board.
                    stones.black = 0;
                }
                let ours: BTreeSet<_> = successors(&board, OpeningRule::Placing, &stones)
                    .iter()
                    .map(|s| (names(s.white), names(s.black), s.white_to_move, s.in_hand))
                    .collect();
                let theirs = independent.placements(
                    &names(stones.white),
                    &names(stones.black),
                    stones.white_to_move,
                    stones.in_hand,
                );
                assert_eq!(ours, theirs, "{stones:?}");
                // A placement that takes a stone leaves the opponent fewer.
                let (_, opponent) = stones.sides();
                removals += successors(&board, OpeningRule::Placing, &stones)
                    .iter()
                    .filter(|s| s.sides().0.count_ones() < opponent.count_ones())
                    .count();
                lost += usize::from(decided(&stones));
            }
            // The random positions do close mills, and some are over.
            assert!(removals > 100 && lost > 10, "{removals} {lost}");
        }
    }

    /// A random position: up to `most` stones a side on distinct points.
    pub(super) fn random_stones(seed: u64, most: u64) -> Stones {
        let mut order: Vec<usize> = (0..POINTS).collect();
        let mut s = seed;
        for i in (1..POINTS).rev() {
            s = splitmix64(s);
            order.swap(i, (s % (i as u64 + 1)) as usize);
        }
        let white_count = 2 + (splitmix64(s ^ 1) % (most - 1)) as usize;
        let black_count = 2 + (splitmix64(s ^ 2) % (most - 1)) as usize;
        let mask = |range: &[usize]| range.iter().fold(0u32, |m, &p| m | 1 << p);
        Stones {
            white: mask(&order[..white_count]),
            black: mask(&order[white_count..white_count + black_count]),
            white_to_move: s & 1 == 0,
            in_hand: [0, 0],
        }
    }

    #[test]
    fn moves_equal_an_independent_generator_on_random_positions() {
        for diagonals in [false, true] {
            let board = Board::new(diagonals);
            let independent = Independent::new(diagonals);
            let mut removals = 0;
            for seed in 0..3000 {
                let stones = random_stones(seed, if diagonals { 12 } else { 9 });
                let ours: BTreeSet<_> = successors(&board, OpeningRule::Placing, &stones)
                    .iter()
                    .map(|s| (names(s.white), names(s.black), s.white_to_move))
                    .collect();
                let theirs = independent.successors(
                    &names(stones.white),
                    &names(stones.black),
                    stones.white_to_move,
                );
                assert_eq!(ours, theirs, "{stones:?}");
                let (_, opponent) = stones.sides();
                removals += successors(&board, OpeningRule::Placing, &stones)
                    .iter()
                    .filter(|s| s.sides().0.count_ones() < opponent.count_ones())
                    .count();
            }
            // The random positions do close mills.
            assert!(removals > 100, "{removals}");
        }
    }
    /// A random position of Lasker Morris's opening: up to 7 stones a side
    /// on the board and up to 3 in hand, one side's hand not empty.
    pub(super) fn random_lasker_position(seed: u64) -> Stones {
        let mut stones = random_stones(seed, 7);
        let r = splitmix64(seed ^ 0x1a5c);
        stones.in_hand = [(r % 4) as u8, (r >> 8) as u8 % 4];
        if stones.in_hand == [0, 0] {
            stones.in_hand[(r >> 16) as usize % 2] = 1;
        }
        if seed.is_multiple_of(7) {
            // Some with (at most) three white stones on the board: no
            // flying with stones in hand.
            stones.white = points(stones.white).take(3).fold(0, |m, p| m | 1 << p);
        }
        if seed % 5 == 1 {
            // Some with one side's stones all in hand (none placed yet, or
            // all taken): a mill of the other side's takes none and stays
            // in the layer.
            if r >> 24 & 1 == 0 {
                stones.white = 0;
                stones.in_hand[0] = 3;
            } else {
                stones.black = 0;
                stones.in_hand[1] = 3;
            }
        }
        stones
    }
    impl Independent {
        /// Every move of Lasker Morris's opening, as (white names, black
        /// names, white to move, hands after): a mover with stones in hand
        /// places one, or moves one on the board along a line, as any
        /// mover does; a stone flies only for a mover with three on the
        /// board and none in hand.
        #[allow(clippy::type_complexity)]
        fn lasker_moves(
            &self,
            white: &BTreeSet<String>,
            black: &BTreeSet<String>,
            white_to_move: bool,
            hands: [u8; 2],
        ) -> BTreeSet<(BTreeSet<String>, BTreeSet<String>, bool, [u8; 2])> {
            if white.len() + (hands[0] as usize) < 3 || black.len() + (hands[1] as usize) < 3 {
                return BTreeSet::new();
            }
            let my_hand = hands[usize::from(!white_to_move)];
            let mut found = if my_hand > 0 {
                self.placements(white, black, white_to_move, hands)
            } else {
                BTreeSet::new()
            };
            let (mine, theirs) = if white_to_move {
                (white, black)
            } else {
                (black, white)
            };
            let all: Vec<String> = (0..POINTS).map(Board::name).collect();
            let flies = mine.len() == 3 && my_hand == 0;
            for from in mine {
                for to in all
                    .iter()
                    .filter(|p| !mine.contains(*p) && !theirs.contains(*p))
                {
                    if !flies && !self.adjacent(from, to) {
                        continue;
                    }
                    let mut moved = mine.clone();
                    moved.remove(from);
                    moved.insert(to.clone());
                    for left in self.left_to_them(&moved, to, theirs) {
                        found.insert(if white_to_move {
                            (moved.clone(), left, false, hands)
                        } else {
                            (left, moved.clone(), true, hands)
                        });
                    }
                }
            }
            found
        }
    }

    #[test]
    fn lasker_opening_moves_equal_an_independent_generator_on_random_positions() {
        let board = Board::new(false);
        let independent = Independent::new(false);
        let (mut placements, mut moves, mut removals) = (0, 0, 0);
        for seed in 0..3000 {
            let stones = random_lasker_position(seed);
            let ours: Vec<Stones> = successors(&board, OpeningRule::PlacingOrMoving, &stones);
            let mine = stones.sides().0.count_ones();
            placements += ours
                .iter()
                .filter(|s| s.sides().1.count_ones() > mine)
                .count();
            moves += ours
                .iter()
                .filter(|s| s.sides().1.count_ones() == mine)
                .count();
            removals += ours
                .iter()
                .filter(|s| s.sides().0.count_ones() < stones.sides().1.count_ones())
                .count();
            let ours: BTreeSet<_> = ours
                .iter()
                .map(|s| (names(s.white), names(s.black), s.white_to_move, s.in_hand))
                .collect();
            let theirs = independent.lasker_moves(
                &names(stones.white),
                &names(stones.black),
                stones.white_to_move,
                stones.in_hand,
            );
            assert_eq!(ours, theirs, "{stones:?}");
            // Placing only: the placements alone, when the mover has some.
            if stones.mover_in_hand() > 0 {
                let placing: BTreeSet<_> = successors(&board, OpeningRule::Placing, &stones)
                    .iter()
                    .map(|s| (names(s.white), names(s.black), s.white_to_move, s.in_hand))
                    .collect();
                let expected = independent.placements(
                    &names(stones.white),
                    &names(stones.black),
                    stones.white_to_move,
                    stones.in_hand,
                );
                assert_eq!(placing, expected, "{stones:?}");
            }
        }
        // Both kinds of move occur, and mills that take.
        assert!(
            placements > 1000 && moves > 1000 && removals > 100,
            "{placements} {moves} {removals}"
        );
    }

    #[test]
    fn moves_that_leave_the_layer_come_first() {
        // A layer: the stones on the board and in hand. What takes a
        // stone or places one leaves it; the quiet moves come last.
        let board = Board::new(false);
        for seed in 0..1000u64 {
            let (stones, opening) = if seed.is_multiple_of(2) {
                (random_stones(seed, 9), OpeningRule::Placing)
            } else {
                (random_lasker_position(seed), OpeningRule::PlacingOrMoving)
            };
            let layer = |s: &Stones| (s.white.count_ones() + s.black.count_ones(), s.in_hand);
            let mut left_layer = true;
            for_each_successor(&board, opening, &stones, |s| {
                let leaves = layer(&s) != layer(&stones);
                assert!(!leaves || left_layer, "{stones:?}");
                left_layer &= leaves;
                true
            });
        }
    }

    #[test]
    fn a_mill_removes_a_stone_outside_mills_else_any() {
        let board = Board::new(false);
        let at = |names: &[&str]| {
            names
                .iter()
                .fold(0u32, |m, n| m | 1 << Board::point_named(n).unwrap())
        };
        // White closes a1-a4-a7 by b4-a4; black's g-file mill is
        // protected while d2 is free to take.
        let mill = at(&["a1", "a4", "a7"]);
        let stones = Stones {
            white: at(&["a1", "a7", "b4", "d6"]),
            black: at(&["g1", "g4", "g7", "d2"]),
            white_to_move: true,
            in_hand: [0, 0],
        };
        let closing: Vec<Stones> = successors(&board, OpeningRule::Placing, &stones)
            .into_iter()
            .filter(|s| s.white & mill == mill)
            .collect();
        assert_eq!(closing.len(), 1);
        assert_eq!(closing[0].black, at(&["g1", "g4", "g7"]));
        // With every black stone in a mill, any may go.
        let stones = Stones {
            black: at(&["g1", "g4", "g7"]),
            ..stones
        };
        let closing = successors(&board, OpeningRule::Placing, &stones)
            .into_iter()
            .filter(|s| s.white & mill == mill)
            .count();
        assert_eq!(closing, 3);
        // Three stones fly; two cannot move at all.
        let flying = Stones {
            white: at(&["a1", "a7", "g7"]),
            black: at(&["d1", "d2", "d3", "b2"]),
            white_to_move: true,
            in_hand: [0, 0],
        };
        // Any of 3 stones to any of 17 empty points; the two that close a
        // mill (g7-a4, a1-d7) may take only b2, black's stone outside the
        // d1-d2-d3 mill.
        let moves = successors(&board, OpeningRule::Placing, &flying);
        assert_eq!(moves.len(), 3 * (POINTS - 7));
        let taking: Vec<&Stones> = moves.iter().filter(|s| s.black != flying.black).collect();
        assert_eq!(taking.len(), 2);
        assert!(taking.iter().all(|s| s.black == at(&["d1", "d2", "d3"])));
        let two = Stones {
            white: at(&["a1", "a7"]),
            ..flying
        };
        assert!(successors(&board, OpeningRule::Placing, &two).is_empty());
    }
}
