//! The second half of a later pass: each candidate is judged from its
//! moves, in two waves of ranked and prefetched moves, and decided into
//! the next frontier when they are now all known.

use std::ops::Range;

use super::layer::{Judged, LayerJudge, UNKNOWN, settle};
use super::lower::LowerLayers;
use super::marks::Marks;
use super::placement::{Place, Placement, Unit};
use super::remote::{Question, Remote};
use super::scratch::{Candidate, Scratch};
use super::tables::PassTables;
use crate::search::retro2::open_moves::{OpenMoveTags, PendingWatches};
use crate::space::LayeredGame;
use crate::space::tally::{Tally, Verdict};
use crate::table::OneBitTable;

/// The moves of a candidate that a check (see [`LayerJudge::check_unit`])
/// ranks first; those that the first wave leaves unsettled have the rest
/// of theirs ranked in a second. Measured and left out elsewhere: an
/// acyclic layer's sweep (in the Morris openings 87–99 % of the positions
/// need more than eight moves; two waves made the six-stone opening 1.33×
/// slower) and pass 0's second sweep (whose first move within the layer is
/// mostly open: 1.13× slower on Nine Men's Morris's layer 10).
const FIRST_WAVE: usize = 8;

impl<G: LayeredGame, P: Placement, L: LowerLayers> LayerJudge<'_, G, P, L> {
    /// Records a verdict of a later pass at `cell`, if it is still unknown
    /// there; a decision goes into the next frontier.
    #[inline(always)]
    pub fn decide_later(&self, cell: u64, verdict: Verdict, next: &OneBitTable, marks: &mut Marks) {
        if settle(self.recorded, verdict)
            .is_some_and(|value| self.values.compare_and_set(cell, UNKNOWN, value as u8))
            && next.test_and_set(cell)
        {
            marks.push(cell);
        }
    }

    /// Judges the candidates of `batch` (pairs of cell and rank) that
    /// `admit` lets through, each from its moves, and hands each judgement
    /// to `decide` with the questions it asked. Returns the candidates
    /// judged.
    ///
    /// A judgement ends at the position's first open move (or first win).
    /// In Nine Men's Morris's layer 10 a candidate of a check has 29 moves
    /// on average, of which the check looked at 11, and 69 % of the
    /// candidates are settled by their first eight. So the batch's moves
    /// are ranked in two waves, each prefetched before any is read: the
    /// first [`FIRST_WAVE`] moves of every position, then the rest of
    /// those that all of them left unsettled. (Where some cells are held
    /// elsewhere the questions of one position go out together, so every
    /// move is ranked at once.)
    ///
    /// A candidate left open has the move that keeps it open recorded in
    /// `open_moves`, if given.
    fn judge_in_waves(
        &self,
        scratch: &mut Scratch<G::State>,
        batch: &[(u64, u64)],
        open_moves: Option<&OpenMoveTags>,
        mut admit: impl FnMut(u64) -> bool,
        mut decide: impl FnMut(u64, Judged, &[Question]),
    ) -> u64 {
        let first_wave = if P::HOLDS_ALL { FIRST_WAVE } else { usize::MAX };
        let Scratch {
            state,
            second_wave_state,
            moves,
            candidates: open,
            unsettled,
            asked,
            watches,
            ..
        } = scratch;
        moves.clear();
        open.clear();
        unsettled.clear();
        // Ranks the moves of `range` into `moves`, prefetching their
        // cells; whether the position has moves past it.
        let rank_moves = |state: &G::State, range: Range<usize>, moves: &mut Vec<_>| {
            self.game
                .successors_in(self.layer, state, range, |successor| {
                    let place = self.place_of(successor);
                    if let (Place::Here(cell), at) = place {
                        self.table(at).prefetch(cell);
                    }
                    moves.push(place);
                })
        };
        for &(cell, rank) in batch {
            if !admit(cell) {
                continue;
            }
            self.game.unrank(self.layer, rank, state);
            let mover = self.game.mover(state);
            let first = moves.len();
            let (known, more) = match self.game.rule_value(self.layer, state) {
                Some(value) => (Some(Verdict::Decided(value)), false),
                None => {
                    let more = rank_moves(state, 0..first_wave, moves);
                    let no_moves = (moves.len() == first && !more)
                        .then(|| Verdict::Decided(self.game.no_move_value(state)));
                    (no_moves, more)
                }
            };
            open.push(Candidate {
                cell,
                rank,
                mover,
                moves_end: moves.len(),
                known,
                more,
            });
        }
        let judged = open.len() as u64;
        // Sees `moves` until one settles the tally: whether one did. A
        // position left open by a move has that move recorded.
        let see_all = |cell: u64,
                       tally: &mut Tally,
                       moves: &[(Place, usize)],
                       asked: &mut Vec<_>,
                       watches: &mut PendingWatches| {
            let settling = moves
                .iter()
                .find(|&&place| !self.see_move(tally, place, asked));
            if let (Some(tags), Some(&(place, _)), false) = (open_moves, settling, tally.won) {
                match place {
                    Place::Here(open) => tags.record_deferred(cell, open, watches),
                    Place::Elsewhere { .. } => tags.record_unknown(cell),
                }
            }
            settling.is_some()
        };
        // Value iteration (a game without predecessors) has no frontier
        // to bring a win later: an open move must not end the look.
        let look_past_open = !self.game.has_predecessors(self.layer);
        let mut start = 0;
        for candidate in open.drain(..) {
            let its_moves = &moves[start..candidate.moves_end];
            start = candidate.moves_end;
            if let Some(verdict) = candidate.known {
                decide(candidate.cell, Judged::Known(verdict), &[]);
                continue;
            }
            let mut tally = Tally::new(candidate.mover, look_past_open);
            asked.clear();
            if !see_all(candidate.cell, &mut tally, its_moves, asked, watches) && candidate.more {
                unsettled.push((candidate.cell, candidate.rank, tally, 0));
                continue;
            }
            // The position has moves: the no-move value is never needed.
            let judged = self.conclude(tally, asked, false, state);
            decide(candidate.cell, judged, asked);
        }
        // The second wave: the rest of the moves of those left open (often
        // none; the watches are set once, after both waves).
        moves.clear();
        for (_, rank, _, moves_end) in unsettled.iter_mut() {
            self.game.unrank(self.layer, *rank, second_wave_state);
            rank_moves(second_wave_state, first_wave..usize::MAX, moves);
            *moves_end = moves.len();
        }
        let mut start = 0;
        for (cell, _, mut tally, moves_end) in unsettled.drain(..) {
            let its_moves = &moves[start..moves_end];
            start = moves_end;
            asked.clear();
            see_all(cell, &mut tally, its_moves, asked, watches);
            let judged = self.conclude(tally, asked, false, state);
            decide(cell, judged, asked);
        }
        if let Some(tags) = open_moves {
            watches.flush(tags);
        }
        judged
    }

    /// The second half of a later pass over one unit of candidates: a
    /// candidate whose moves now all lose (or all end and some draw) is
    /// decided, into the next frontier. Returns the candidates examined
    /// (those still unknown).
    pub fn check_unit(
        &self,
        unit: &Unit,
        scratch: &mut Scratch<G::State>,
        tables: &PassTables,
        next_marks: &mut Marks,
        remote: &mut Remote,
    ) -> u64 {
        let candidates = &tables.candidates;
        scratch.in_batches(unit, candidates, self.placement, |scratch, batch| {
            for &(cell, _) in batch {
                self.values.prefetch(cell);
                candidates.prefetch(cell);
            }
            self.judge_in_waves(
                scratch,
                batch,
                tables.open_moves.as_ref().filter(|_| P::HOLDS_ALL),
                |cell| {
                    candidates.clear(cell);
                    self.values.get(cell) == UNKNOWN
                },
                |cell, judged, asked| match judged {
                    Judged::Known(verdict) => {
                        self.decide_later(cell, verdict, &tables.next, next_marks)
                    }
                    Judged::Asks(tally) => remote.wait(cell, tally, asked),
                },
            )
        })
    }
}
