//! Reading a puzzle definition in the ksolve text format as twsearch
//! reads it: `Name`, `Set NAME PIECES ORIENTATIONS`, one `Solved` block,
//! `Move NAME` blocks and `Scramble NAME` blocks, each closed by `End`,
//! with twsearch's additions: `StartState`, `MoveTransformation` and
//! `ScrambleState` (the same blocks in twsearch's own numbering, below),
//! `MoveSequence NAME M1 M2 ...` (a move made of others, searched like a
//! listed one), `MoveAlias NAME M` (a second name, usable in sequences but
//! not a move of the search) and `ScrambleAlg NAME` (a scramble given as
//! lines of moves up to `End`). `#` starts a comment.
//!
//! Inside a block each set is given at most once, as its name, a
//! permutation line and an optional orientation line (all zeros when left
//! out). A set a block leaves out reads as twsearch and ksolve read it: a
//! move leaves it alone, a scramble has it solved, and the Solved block
//! has piece i in slot i. Permutations are *passive*: after a move whose
//! permutation is `p`, slot `i` holds the piece that was in slot `p[i]`.
//! In ksolve's numbering (`Solved`, `Move`, `Scramble`) pieces count from
//! 1 and the orientation line of a move gives, for each slot, the twist
//! its piece gains when the move carries it away; in twsearch's
//! (`StartState`, `MoveTransformation`, `ScrambleState`) pieces count from
//! 0 and a move's twist belongs to the slot the piece arrives in. The
//! orientation line of a state gives each slot's orientation. A state's
//! permutation line may repeat a number: those pieces look the same.
//!
//! What twsearch reads but bitsolve cannot honour is refused by name with
//! the line: `Illegal` (twsearch's pruned placements), `?` (an unknown
//! piece or orientation) and rotations (moves named `x`, `y`, `z` or
//! ending in `v`, which twsearch keeps apart from the moves); so are
//! ksolve's `ForbiddenPairs`, `ForbiddenGroups`, `Ignore` and `Block`.
//! Everything else is refused with the file, the line and what is wrong.
//!
//! The files by role: what a definition says once read (`puzzle`: sets,
//! positions, moves as transforms that compose), the text as lines and
//! words (`lines`), the reader of the file's keywords (`reader`), of its
//! blocks (`blocks`) and of its move sequences (`sequences`), and the
//! moves a search makes of the listed ones (`moves`: metrics, powers,
//! orders).

mod blocks;
mod lines;
mod moves;
mod puzzle;
mod reader;
mod sequences;

pub use moves::{MAX_MOVE_BYTES, MAX_ORDER, Metric, expand_moves};
pub(crate) use puzzle::part_text;
pub use puzzle::{
    Definition, MAX_ORIENTATIONS, MAX_PIECES, NamedMove, PieceSet, Scramble, SetMove, SetState,
    Transform,
};
pub use reader::{MAX_SCRAMBLE_BYTES, parse};

#[cfg(test)]
mod tests {
    /// Four pieces in a ring with two orientations, one turn and one
    /// scramble: the definition the readers' tests vary.
    pub(super) const SQUARE: &str = "# four pieces in a ring, one turn\nName Ring\nSet P 4 2\nSolved\nP\n1 2 3 4\nEnd\nMove T\nP\n2 3 4 1\n1 0 0 1\nEnd\nScramble one\nP\n2 3 4 1\n0 0 1 1\nEnd\n";
}
