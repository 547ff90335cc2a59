//! The minimax judgement of a two-player position from its moves' values,
//! one move at a time: the one rule every retrograde sweep and pass
//! applies (the engine's passes, and a game's own sweep of an acyclic
//! layer, [`LayerLinks::sweep_acyclic_ranks`](super::LayerLinks::sweep_acyclic_ranks)).

use super::{Player, Value};

/// What a position's moves show so far.
#[derive(Clone, Copy)]
pub enum Verdict {
    /// The position's value is known.
    Decided(Value),
    /// A move's value is still unknown: the position waits.
    Open,
}

/// The values of a position's moves, seen one by one.
#[derive(Clone, Copy)]
pub struct Tally {
    /// The value in which the mover wins.
    pub(crate) win: Value,
    loss: Value,
    /// In pass 0 a later (lower-layer) move may still win after an open one.
    lower_only: bool,
    moves: u64,
    pub(crate) draws: bool,
    /// A move's value was unknown.
    pub(crate) open: bool,
    /// A move won for the mover.
    pub(crate) won: bool,
}

impl Tally {
    /// No moves seen yet of a position where `mover` moves; `lower_only` in pass
    /// 0, where the moves within the layer are not looked up.
    pub fn new(mover: Player, lower_only: bool) -> Self {
        Tally {
            win: Value::win_for(mover),
            loss: Value::win_for(mover.opponent()),
            lower_only,
            moves: 0,
            draws: false,
            open: false,
            won: false,
        }
    }

    /// Counts a move leading to `value`; false once more moves cannot
    /// change the verdict (a win settles it; an open move leaves nothing
    /// to settle, except in pass 0).
    pub fn see(&mut self, value: Value) -> bool {
        self.moves += 1;
        match value {
            value if value == self.win => self.won = true,
            value if value == self.loss => {}
            Value::Draw => self.draws = true,
            _ => self.open = true,
        }
        !(self.won || self.open && !self.lower_only)
    }

    /// In pass 0: the position also has a move within its layer, whose
    /// value is not known yet.
    pub(crate) fn stays_in_layer(&mut self) {
        self.open = true;
    }

    /// The verdict once every move is seen: a win if one move wins, open if one
    /// move is, `no_move_value` without moves, a draw if one move draws, else a
    /// loss.
    pub fn verdict(self, no_move_value: impl FnOnce() -> Value) -> Verdict {
        if self.won {
            Verdict::Decided(self.win)
        } else if self.open {
            Verdict::Open
        } else if self.moves == 0 {
            Verdict::Decided(no_move_value())
        } else if self.draws {
            Verdict::Decided(Value::Draw)
        } else {
            Verdict::Decided(self.loss)
        }
    }
}
