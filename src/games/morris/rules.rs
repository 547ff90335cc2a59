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

/// What a mover's quiet moves are found from: its stones, the empty
/// points, whether it flies, and the points where a move of its may take
/// a stone. None when the game is over.
#[derive(Clone, Copy)]
struct QuietLook {
    mine: u32,
    empty: u32,
    flying: bool,
    closing_points: u32,
}

impl QuietLook {
    fn new(board: &Board, stones: &Stones) -> Option<Self> {
        if decided(stones) {
            return None;
        }
        let (mine, theirs) = stones.sides();
        let empty = !(mine | theirs) & BOARD;
        // A mill takes nothing from an opponent with no stone on the board
        // (Lasker Morris's opening): such a move stays too. As in
        // `for_each_successor`, only a move to a closing point can take one.
        let closing_points = if theirs != 0 {
            board.closing_points(mine, empty)
        } else {
            0
        };
        Some(QuietLook {
            mine,
            empty,
            flying: flies(mine, stones.mover_in_hand()),
            closing_points,
        })
    }

    /// The mover's stones after the stone at `from` goes to `to`.
    fn moved(&self, from: usize, to: usize) -> u32 {
        self.mine & !(1 << from) | 1 << to
    }

    /// The points the stone at `from` may go to, and those of them where
    /// it would take a stone.
    fn targets(&self, board: &Board, from: usize) -> (u32, u32) {
        let to_points = targets(board, from, self.empty, self.flying);
        let taking = points(to_points & self.closing_points)
            .filter(|&to| board.in_mill(self.moved(from, to), to))
            .fold(0, |mask, to| mask | 1 << to);
        (to_points, taking)
    }
}

/// The mover's stones after each of its moves of a stone on the board
/// that takes none (those that stay in its layer: of the moving phase, or
/// of Lasker Morris's opening), in the order of [`for_each_successor`];
/// none when the game is over. The opponent's stones stay as they are.
pub fn quiet_moves(board: &Board, stones: &Stones) -> impl Iterator<Item = u32> {
    QuietLook::new(board, stones)
        .into_iter()
        .flat_map(move |look| {
            points(look.mine).flat_map(move |from| {
                let (to_points, taking) = look.targets(board, from);
                points(to_points & !taking).map(move |to| look.moved(from, to))
            })
        })
}

/// How many [`quiet_moves`] the mover has: every move of a stone to an
/// empty point ([`Board::neighbour_pairs`], all points at once), less
/// those that close a mill, looked for only from the few closing points.
pub fn quiet_move_count(board: &Board, stones: &Stones) -> u32 {
    QuietLook::new(board, stones).map_or(0, |look| {
        let moves = if look.flying {
            look.mine.count_ones() * look.empty.count_ones()
        } else {
            board.neighbour_pairs(look.mine, look.empty)
        };
        let closing: usize = points(look.closing_points)
            .map(|to| {
                let from_points = if look.flying {
                    look.mine
                } else {
                    board.neighbours(to) & look.mine
                };
                points(from_points)
                    .filter(|&from| board.in_mill(look.moved(from, to), to))
                    .count()
            })
            .sum();
        moves - closing as u32
    })
}

/// Whether the mover has a move of a stone on the board that takes none
/// ([`quiet_moves`]).
pub fn has_quiet_move(board: &Board, stones: &Stones) -> bool {
    quiet_moves(board, stones).next().is_some()
}

/// Whether the opponent of a position's mover could close a mill (and so
/// take a stone) right after one of the mover's quiet moves, found from
/// the position's own threats. Morris's first pass names, as the move
/// that keeps a position open, one that leaves the opponent no such move
/// where it can: the opponent's captures decide positions early, and each
/// position that named one had to be checked again.
pub struct MillThreats {
    /// The opponent's stones (a quiet move takes none).
    theirs: u32,
    /// The empty points where an opponent's stone, placed or moved there
    /// by a move the opponent has now, would close a mill.
    reachable: u32,
    /// Whether the opponent flies (three stones left).
    flying: bool,
    /// Whether the opponent has a stone in hand to place (Lasker Morris's
    /// opening): any closing point will do.
    placing: bool,
    /// What the threats are to the mover.
    standing: Standing,
}

/// The opponent's threats to close a mill in a position, as the mover's
/// quiet moves may meet them ([`MillThreats::standing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// None: a quiet move leaves none unless the point it leaves opens one.
    None,
    /// One, which a stone of the mover's can reach.
    One,
    /// More than one (a stone blocks one point), or one the mover's
    /// stones cannot reach.
    Unavoidable,
}

impl MillThreats {
    /// The threats of the opponent of `stones`'s mover.
    pub fn new(board: &Board, stones: &Stones) -> Self {
        let (mine, theirs) = stones.sides();
        let empty = !(mine | theirs) & BOARD;
        let their_hand = stones.in_hand[usize::from(stones.white_to_move)];
        let mut threats = MillThreats {
            theirs,
            reachable: 0,
            flying: flies(theirs, their_hand),
            placing: their_hand > 0,
            standing: Standing::None,
        };
        threats.reachable = points(board.closing_points(theirs, empty))
            .filter(|&at| threats.reaches(board, at))
            .fold(0, |reachable, at| reachable | 1 << at);
        threats.standing = match threats.reachable.count_ones() {
            0 => Standing::None,
            1 => {
                let at = threats.reachable.trailing_zeros() as usize;
                if flies(mine, stones.mover_in_hand()) || board.neighbours(at) & mine != 0 {
                    Standing::One
                } else {
                    Standing::Unavoidable
                }
            }
            _ => Standing::Unavoidable,
        };
        threats
    }

    /// Whether an opponent's stone can come to the closing point `at`
    /// (placed, flown, or from a neighbour outside the mill it closes).
    #[inline]
    fn reaches(&self, board: &Board, at: usize) -> bool {
        let theirs = self.theirs;
        if self.placing {
            return true;
        }
        let sources = if self.flying {
            theirs
        } else {
            board.neighbours(at) & theirs
        };
        points(sources).any(|source| board.in_mill(theirs & !(1 << source) | 1 << at, at))
    }

    /// The opponent's threats in the position itself.
    pub fn standing(&self) -> Standing {
        self.standing
    }

    /// Whether the opponent can close a mill after the mover's quiet move
    /// from `stones` to `next`.
    #[inline]
    pub fn after_move(&self, board: &Board, stones: &Stones, next: &Stones) -> bool {
        let (mine, _) = stones.sides();
        let (_, moved) = next.sides();
        let from = (mine & !moved).trailing_zeros() as usize;
        let to = (moved & !mine).trailing_zeros() as usize;
        self.after(board, from, to)
    }

    /// [`after_move`](Self::after_move) of a stone from `from` to `to`: it
    /// blocks a closing point, and the point it left may open one.
    #[inline]
    fn after(&self, board: &Board, from: usize, to: usize) -> bool {
        self.reachable & !(1 << to) != 0
            || (board.in_mill(self.theirs | 1 << from, from) && self.reaches(board, from))
    }

    /// With [`Standing::One`], the first quiet move (in the order of
    /// [`for_each_successor`]) that stands a stone on the threat and opens
    /// no other, found without walking the other moves: `None` when there
    /// is none.
    pub fn block(&self, board: &Board, stones: &Stones) -> Option<Stones> {
        let (mine, theirs) = stones.sides();
        let at = self.reachable.trailing_zeros() as usize;
        let sources = if flies(mine, stones.mover_in_hand()) {
            mine
        } else {
            board.neighbours(at) & mine
        };
        points(sources).find_map(|from| {
            let moved = mine & !(1 << from) | 1 << at;
            // A block that closes a mill of the mover's takes a stone: not
            // a quiet move.
            let quiet = !board.in_mill(moved, at) && !self.after(board, from, at);
            quiet.then(|| stones.after(moved, theirs))
        })
    }
}

/// Calls `emit` with every position from which a move that takes no stone
/// leads to `stones`: the side that just moved (the one not to move)
/// brought a stone to a point where it stands in no mill of its own (a
/// mill would have taken a stone; in Lasker Morris's opening, where the
/// side to move may have none on the board, it took none and the mill
/// may stand), from an empty neighbour, or from any empty point when it
/// flies. None when the game is over. The stones in
/// hand stay as they are (a move places none): in the moving phase none,
/// in Lasker Morris's opening those of the position.
pub fn for_each_quiet_predecessor(board: &Board, stones: &Stones, mut emit: impl FnMut(Stones)) {
    if decided(stones) {
        return;
    }
    let (waiting, moved) = stones.sides();
    let empty = !(waiting | moved) & BOARD;
    let moved_in_hand = stones.in_hand[usize::from(stones.white_to_move)];
    let flying = flies(moved, moved_in_hand);
    let took = waiting != 0;
    for to in points(moved) {
        if took && board.in_mill(moved, to) {
            continue;
        }
        for from in points(targets(board, to, empty, flying)) {
            let before = moved & !(1 << to) | 1 << from;
            emit(if stones.white_to_move {
                Stones {
                    white: waiting,
                    black: before,
                    white_to_move: false,
                    in_hand: stones.in_hand,
                }
            } else {
                Stones {
                    white: before,
                    black: waiting,
                    white_to_move: true,
                    in_hand: stones.in_hand,
                }
            });
        }
    }
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
    fn random_stones(seed: u64, most: u64) -> Stones {
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

    /// The moves that take no stone and place none, as the set of
    /// positions they reach (under Lasker Morris's rule, which is the
    /// other rules' where no stone is in hand).
    fn quiet_successors(board: &Board, stones: &Stones) -> BTreeSet<(u32, u32, bool)> {
        let counts = (stones.white.count_ones(), stones.black.count_ones());
        let mut found = BTreeSet::new();
        for_each_successor(board, OpeningRule::PlacingOrMoving, stones, |s| {
            if (s.white.count_ones(), s.black.count_ones()) == counts && s.in_hand == stones.in_hand
            {
                found.insert((s.white, s.black, s.white_to_move));
            }
            true
        });
        found
    }

    /// A random position of Lasker Morris's opening: up to 7 stones a side
    /// on the board and up to 3 in hand, one side's hand not empty.
    fn random_lasker_position(seed: u64) -> Stones {
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

    #[test]
    fn quiet_predecessors_are_exactly_the_positions_with_a_quiet_move_here() {
        for (diagonals, lasker) in [(false, false), (true, false), (false, true)] {
            let board = Board::new(diagonals);
            let mut checked = 0;
            for seed in 0..2000 {
                let stones = if lasker {
                    random_lasker_position(seed)
                } else {
                    random_stones(seed, if diagonals { 12 } else { 9 })
                };
                let here = (stones.white, stones.black, stones.white_to_move);
                // Each predecessor has a quiet move here...
                for_each_quiet_predecessor(&board, &stones, |before| {
                    assert!(
                        quiet_successors(&board, &before).contains(&here),
                        "{before:?} -> {stones:?}"
                    );
                    checked += 1;
                });
                // ...and each quiet move leads to a position that lists
                // this one among its predecessors.
                for (white, black, white_to_move) in quiet_successors(&board, &stones) {
                    let next = Stones {
                        white,
                        black,
                        white_to_move,
                        in_hand: stones.in_hand,
                    };
                    let mut listed = false;
                    for_each_quiet_predecessor(&board, &next, |before| listed |= before == stones);
                    assert!(listed, "{stones:?} -> {next:?}");
                }
                // The quiet moves, apart, are those moves, once each, and
                // say whether there is one.
                let apart: Vec<(u32, u32, bool)> = quiet_moves(&board, &stones)
                    .map(|mine| {
                        let (white, black) = if stones.white_to_move {
                            (mine, stones.black)
                        } else {
                            (stones.white, mine)
                        };
                        (white, black, !stones.white_to_move)
                    })
                    .collect();
                let successors = quiet_successors(&board, &stones);
                assert_eq!(apart.len(), successors.len(), "{stones:?}");
                assert_eq!(quiet_move_count(&board, &stones) as usize, apart.len());
                assert_eq!(apart.into_iter().collect::<BTreeSet<_>>(), successors);
                assert_eq!(has_quiet_move(&board, &stones), !successors.is_empty());
            }
            assert!(checked > 10_000, "{checked}");
        }
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
