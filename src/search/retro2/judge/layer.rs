//! What a pass needs to judge positions of one layer ([`LayerJudge`]),
//! and the lookups every part of a pass shares: where a move leads, what
//! its value says, and what a tally concludes; the value recorded for a
//! verdict.

use super::lower::{LowerLayers, NextLayer};
use super::placement::{Place, Placement};
use super::remote::Question;
use crate::space::tally::{Tally, Verdict};
use crate::space::{LayeredGame, Player, Successor, Value};
use crate::table::TwoBitTable;

/// What a pass needs to judge positions of one layer: the game, the values
/// held here of this layer and of the layers below, and where every cell is.
pub struct LayerJudge<'a, G, P, L = NextLayer<'a>> {
    /// The game.
    pub game: &'a G,
    /// The layer being solved.
    pub layer: usize,
    /// The values of this layer's cells held here.
    pub values: &'a TwoBitTable,
    /// The values of the solved layers below that moves reach.
    pub lower: L,
    /// Where every cell is held.
    pub placement: &'a P,
    /// The only value recorded before the final fill, if not every value.
    pub recorded: Option<Value>,
    /// `Some(player)` when only `player`'s positions are judged and the
    /// others are written from their colour twins as these propagate
    /// ([`ColourTwinHooks::colour_twins`](crate::space::ColourTwinHooks::colour_twins));
    /// only where one process holds every cell and moves are counted.
    pub colour_twins: Option<Player>,
}

/// An unknown value's two bits, as the tables hold them.
pub(super) const UNKNOWN: u8 = Value::Unknown as u8;

/// The only value recorded before the final fill, when the rules make
/// undecided positions wins for one player (see [`retro2`](crate::search::retro2)).
pub fn recorded_value<G: LayeredGame>(game: &G) -> Option<Value> {
    match game.undecided_value() {
        Value::FirstWins => Some(Value::SecondWins),
        Value::SecondWins => Some(Value::FirstWins),
        _ => None,
    }
}

/// The value to record for a verdict, when only `recorded` is (if any).
pub fn settle(recorded: Option<Value>, verdict: Verdict) -> Option<Value> {
    match verdict {
        Verdict::Decided(value) if recorded.is_none_or(|only| only == value) => Some(value),
        _ => None,
    }
}

/// What a judgement found.
pub(super) enum Judged {
    Known(Verdict),
    /// Only the answers to the questions asked can settle it.
    Asks(Tally),
}

impl<G: LayeredGame, P: Placement, L: LowerLayers> LayerJudge<'_, G, P, L> {
    /// The table holding the cells of layer `at`: this one or one below.
    #[inline(always)]
    pub(super) fn table(&self, at: usize) -> &TwoBitTable {
        if at == self.layer {
            self.values
        } else {
            self.lower.table(at)
        }
    }

    /// Where a move's destination is, and its layer.
    #[inline(always)]
    pub(super) fn place_of(&self, successor: Successor) -> (Place, usize) {
        let lower = successor.layer != self.layer;
        (self.placement.place(lower, successor.rank), successor.layer)
    }

    /// Sees a move: its value if held here (false once the tally is
    /// settled), or a question to its owner.
    #[inline(always)]
    pub(super) fn see_move(
        &self,
        tally: &mut Tally,
        (place, at): (Place, usize),
        asked: &mut Vec<Question>,
    ) -> bool {
        match place {
            Place::Here(cell) => tally.see(Value::from_bits(self.table(at).get(cell))),
            Place::Elsewhere { owner, cell } => {
                let lower = at != self.layer;
                asked.push(Question { owner, cell, lower });
                true
            }
        }
    }

    /// Sees the move to `successor` (see [`see_move`](Self::see_move)).
    #[inline(always)]
    pub(super) fn see_successor(
        &self,
        tally: &mut Tally,
        successor: Successor,
        asked: &mut Vec<Question>,
    ) -> bool {
        if P::HOLDS_ALL {
            let table = self.table(successor.layer);
            return tally.see(Value::from_bits(table.get(successor.rank)));
        }
        self.see_move(tally, self.place_of(successor), asked)
    }

    /// The verdict of a tally whose questions are `asked`, or `Asks` when
    /// an answer could change it (or change what is recorded). `initial`:
    /// pass 0, where a win through the layer below, which no frontier ever
    /// brings back, may hide behind a question; in later passes a win
    /// arrives through the frontier, so an open position waits for it.
    #[inline(always)]
    pub(super) fn conclude(
        &self,
        tally: Tally,
        asked: &[Question],
        initial: bool,
        state: &G::State,
    ) -> Judged {
        if tally.won || asked.is_empty() {
            return Judged::Known(tally.verdict(|| self.game.no_move_value(state)));
        }
        if tally.open && (!initial || self.recorded.is_some_and(|only| only != tally.win)) {
            return Judged::Known(Verdict::Open);
        }
        Judged::Asks(tally)
    }
}
