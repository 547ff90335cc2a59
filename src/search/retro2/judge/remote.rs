//! What a position asks of, and sends to, the cells another process
//! holds ([`Question`], [`Push`], gathered in [`Remote`]), and what a
//! decided position brings a predecessor ([`Decision`]), the form a push
//! takes once it arrives.

use std::ops::Range;

use crate::space::Value;
use crate::space::tally::Tally;

/// A question about a move held elsewhere: its owner, its cell there, and
/// whether it is in the layer below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    /// The process holding the move's cell.
    pub owner: usize,
    /// The cell in that process's tables.
    pub cell: u64,
    /// Whether the cell is in the layer below.
    pub lower: bool,
}

/// A decided position's value for a predecessor held elsewhere: the
/// predecessor's owner and cell, the value, and whether it wins for the
/// predecessor's mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Push {
    /// The process holding the predecessor.
    pub owner: usize,
    /// The predecessor's cell in that process's tables.
    pub cell: u64,
    /// The decided position's value.
    pub value: Value,
    /// Whether `value` wins for the predecessor's mover.
    pub wins: bool,
}

/// What a unit of a pass leaves for other processes: the positions whose
/// verdict waits for answers (with the questions each asked), the values
/// for predecessors held elsewhere, and the twins' values held elsewhere.
/// Always empty when one process holds everything.
#[derive(Default)]
pub struct Remote {
    /// `(pending, questions)`: a position's cell and tally so far, and the
    /// range of `questions` it asked.
    pub pending: Vec<(u64, Tally, Range<usize>)>,
    /// The questions, in the ranges `pending` names.
    pub questions: Vec<Question>,
    /// Values for predecessors held elsewhere.
    pub pushes: Vec<Push>,
    /// `(owner, cell, value)` of twins held elsewhere.
    pub twins: Vec<(usize, u64, u8)>,
}

impl Remote {
    /// Items buffered for other processes.
    pub fn buffered(&self) -> usize {
        self.questions.len() + self.pushes.len() + self.twins.len()
    }

    /// A position at `cell` waits for the answers to `asked`.
    pub(super) fn wait(&mut self, cell: u64, tally: Tally, asked: &[Question]) {
        let start = self.questions.len();
        self.questions.extend_from_slice(asked);
        self.pending
            .push((cell, tally, start..self.questions.len()));
    }
}

/// What a decided position of the frontier brings a predecessor.
#[derive(Clone, Copy, Debug)]
pub struct Decision {
    /// The decided position's value.
    pub value: Value,
    /// Whether that value wins for the predecessor's mover.
    pub wins: bool,
    /// The decided position's tag, or 0 where not
    /// known (a value pushed by another process).
    pub tag: u8,
}
