//! What a definition says once read: its sets of pieces, positions per
//! set, moves as transforms that compose and apply, and scrambles.

/// Most pieces a set may have (ranks keep a slot's piece in a byte, and
/// the multinomial hash takes at most 64 cells).
pub const MAX_PIECES: usize = 64;
/// Most orientations a piece may have.
pub const MAX_ORIENTATIONS: usize = 255;

/// One kind of piece: `Set NAME PIECES ORIENTATIONS`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSet {
    /// The set's name.
    pub name: String,
    /// The number of pieces, and of slots, in the set.
    pub pieces: usize,
    /// The number of orientations each piece has (1: none to tell apart).
    pub orientations: u8,
}

/// One set's part of a position: the piece (0-based label) in each slot
/// and each slot's orientation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetState {
    /// The piece in each slot, as a 0-based label (alike pieces share one).
    pub labels: Vec<u8>,
    /// Each slot's orientation.
    pub orientations: Vec<u8>,
}

/// One set's part of a move, in the form states compose with: slot `i`
/// receives the piece from slot `from[i]`, whose orientation grows by
/// `twist[i]` (modulo the set's orientations).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetMove {
    /// Slot `i` receives the piece from slot `from[i]` (0-based).
    pub from: Vec<u8>,
    /// The orientation the piece arriving in slot `i` gains.
    pub twist: Vec<u8>,
}

/// A move of the whole puzzle, one [`SetMove`] per set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// One part per set, in the definition's set order.
    pub sets: Vec<SetMove>,
}

/// A move with its name: a `Move` block, or a power of one (`M2`, `M'`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedMove {
    /// The move's name.
    pub name: String,
    /// What the move does.
    pub transform: Transform,
}

/// A `Scramble` block: a named position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scramble {
    /// The scramble's name.
    pub name: String,
    /// The position, one part per set (sets the block leaves out are solved).
    pub state: Vec<SetState>,
}

/// A definition as read: what the file says, checked, with moves in the
/// form states compose with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The `Name` line's name (`unnamed` without one).
    pub name: String,
    /// The sets, in the order declared.
    pub sets: Vec<PieceSet>,
    /// The solved position, one part per set.
    pub solved: Vec<SetState>,
    /// The moves of the `Move` blocks as listed, without powers (see
    /// [`expand_moves`](super::expand_moves)).
    pub moves: Vec<NamedMove>,
    /// The `Scramble` blocks, in file order.
    pub scrambles: Vec<Scramble>,
    /// The `MoveAlias` lines: names a sequence may use that are not moves
    /// of the search.
    pub aliases: Vec<NamedMove>,
    /// The rotations of the whole puzzle, as twsearch tells them by name
    /// (`x`, `y`, `z`, capitals ending in `v`): moves and sequences a
    /// sequence or scramble may name, not moves of the search.
    pub rotations: Vec<NamedMove>,
}

/// The pieces (1-based) of `slots` of a set's part of a position and,
/// when its pieces have orientations, a '/' and theirs: `2 1` or
/// `3 1 2 / 0 2 1`, as positions are written.
pub(crate) fn part_text(set: &PieceSet, part: &SetState, slots: &[usize]) -> String {
    let pieces: Vec<String> = slots
        .iter()
        .map(|&s| (part.labels[s] as u32 + 1).to_string())
        .collect();
    if set.orientations == 1 {
        return pieces.join(" ");
    }
    let twists: Vec<String> = slots
        .iter()
        .map(|&s| part.orientations[s].to_string())
        .collect();
    format!("{} / {}", pieces.join(" "), twists.join(" "))
}

impl Transform {
    /// The move that changes nothing, over `sets`.
    pub fn identity(sets: &[PieceSet]) -> Self {
        Transform {
            sets: sets
                .iter()
                .map(|set| SetMove {
                    from: (0..set.pieces as u8).collect(),
                    twist: vec![0; set.pieces],
                })
                .collect(),
        }
    }

    /// This move followed by `next`.
    pub fn then(&self, next: &Transform, sets: &[PieceSet]) -> Transform {
        let parts = self
            .sets
            .iter()
            .zip(&next.sets)
            .zip(sets)
            .map(|((first, second), set)| SetMove {
                from: second
                    .from
                    .iter()
                    .map(|&via| first.from[via as usize])
                    .collect(),
                twist: second
                    .from
                    .iter()
                    .zip(&second.twist)
                    .map(|(&via, &twist)| {
                        ((first.twist[via as usize] as u16 + twist as u16)
                            % set.orientations as u16) as u8
                    })
                    .collect(),
            })
            .collect();
        Transform { sets: parts }
    }

    /// The state this move leads to from `state`.
    pub fn apply(&self, state: &[SetState], sets: &[PieceSet]) -> Vec<SetState> {
        self.sets
            .iter()
            .zip(state)
            .zip(sets)
            .map(|((part, before), set)| SetState {
                labels: part
                    .from
                    .iter()
                    .map(|&s| before.labels[s as usize])
                    .collect(),
                orientations: part
                    .from
                    .iter()
                    .zip(&part.twist)
                    .map(|(&s, &twist)| {
                        ((before.orientations[s as usize] as u16 + twist as u16)
                            % set.orientations as u16) as u8
                    })
                    .collect(),
            })
            .collect()
    }

    /// This move made `count` times over (by squaring: a power costs a
    /// few products, not `count`).
    pub fn power(&self, mut count: usize, sets: &[PieceSet]) -> Transform {
        let mut result = Transform::identity(sets);
        let mut square = self.clone();
        while count > 0 {
            if count & 1 == 1 {
                result = result.then(&square, sets);
            }
            count >>= 1;
            if count > 0 {
                square = square.then(&square, sets);
            }
        }
        result
    }

    /// Whether the move leaves every piece in its slot with its orientation.
    pub fn is_identity(&self) -> bool {
        self.sets.iter().all(|part| {
            part.twist.iter().all(|&t| t == 0)
                && part.from.iter().enumerate().all(|(i, &s)| s as usize == i)
        })
    }
}

/// The bytes one move or one position takes: two byte vectors per set,
/// with their bookkeeping.
pub(super) fn position_bytes(sets: &[PieceSet]) -> u64 {
    sets.iter().map(|set| 2 * set.pieces as u64 + 64).sum()
}
