//! The mover's moves that take no stone (those that stay in a layer of
//! the moving phase or of Lasker Morris's opening): each, their count,
//! and the positions they come from, which a retrograde pass walks back.

use super::{BOARD, Stones, decided, flies, points, targets};
use crate::games::morris::board::Board;

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
/// of Lasker Morris's opening), in the order of
/// [`for_each_successor`](super::for_each_successor); none when the game
/// is over. The opponent's stones stay as they are.
pub(crate) fn quiet_moves(board: &Board, stones: &Stones) -> impl Iterator<Item = u32> {
    QuietLook::new(board, stones)
        .into_iter()
        .flat_map(move |look| {
            points(look.mine).flat_map(move |from| {
                let (to_points, taking) = look.targets(board, from);
                points(to_points & !taking).map(move |to| look.moved(from, to))
            })
        })
}

/// How many `quiet_moves` the mover has: every move of a stone to an
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
/// (`quiet_moves`).
pub fn has_quiet_move(board: &Board, stones: &Stones) -> bool {
    quiet_moves(board, stones).next().is_some()
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
pub(crate) fn for_each_quiet_predecessor(
    board: &Board,
    stones: &Stones,
    mut emit: impl FnMut(Stones),
) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::morris::rules::tests::{random_lasker_position, random_stones};
    use crate::games::morris::rules::{OpeningRule, for_each_successor};
    use std::collections::BTreeSet;

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
}
