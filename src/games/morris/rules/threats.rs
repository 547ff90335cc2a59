//! The opponent's threats to close a mill after one of the mover's quiet
//! moves, found from the position's own: the first pass names a move
//! that leaves none where there is one.

use super::{BOARD, Stones, flies, points};
use crate::games::morris::board::Board;

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
    /// [`for_each_successor`](super::for_each_successor)) that stands a
    /// stone on the threat and opens no other, found without walking the
    /// other moves: `None` when there is none.
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
