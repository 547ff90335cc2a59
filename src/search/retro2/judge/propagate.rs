//! The first half of a later pass: each position of the frontier takes
//! its value to its predecessors, which are won at once, counted down, or
//! made candidates (or its value goes to their owners).

use super::layer::{LayerJudge, UNKNOWN};
use super::lower::LowerLayers;
use super::marks::Marks;
use super::placement::{Place, Placement, Unit};
use super::remote::{Decision, Push, Remote};
use super::scratch::Scratch;
use super::tables::PassTables;
use crate::search::retro2::move_counts::CountedDown;
use crate::search::retro2::open_moves::OpenMoveTags;
use crate::space::{LayeredGame, Value};

impl<G: LayeredGame, P: Placement, L: LowerLayers> LayerJudge<'_, G, P, L> {
    /// Applies a frontier position's decision to its predecessor at `cell`
    /// here: won at once (into the next frontier) if the value wins for the
    /// predecessor's mover; else, where its moves are counted, counted
    /// down and lost at its last (into the next frontier); else a
    /// candidate for a loss or a draw, unless the tables' open moves show
    /// that another move keeps it open.
    #[inline(always)]
    pub fn apply(
        &self,
        cell: u64,
        decision: Decision,
        tables: &PassTables,
        next_marks: &mut Marks,
        candidate_marks: &mut Marks,
    ) {
        if !self.may_change(cell, decision, tables) {
            return;
        }
        let Decision { value, wins, .. } = decision;
        let counted = match &tables.move_counts {
            Some(counts) if !wins => counts.count_down(cell, value == Value::Draw),
            _ => CountedDown::Check,
        };
        if wins || counted == CountedDown::Lost {
            // Lost: every move wins for the opponent, as `value` does.
            if self.values.compare_and_set(cell, UNKNOWN, value as u8)
                && tables.next.test_and_set(cell)
            {
                next_marks.push(cell);
            }
        } else if counted == CountedDown::Check && tables.candidates.test_and_set(cell) {
            candidate_marks.push(cell);
        }
    }

    /// The first half of a later pass over one unit of the frontier: each
    /// position's value goes to its predecessors (see [`apply`](Self::apply)),
    /// or to their owners. Returns the predecessors examined.
    pub fn propagate_unit(
        &self,
        unit: &Unit,
        scratch: &mut Scratch<G::State>,
        tables: &PassTables,
        marks: (&mut Marks, &mut Marks),
        remote: &mut Remote,
    ) -> u64 {
        let (next_marks, candidate_marks) = marks;
        scratch.in_batches(unit, &tables.current, self.placement, |scratch, batch| {
            for &(cell, _) in batch {
                self.values.prefetch(cell);
                if let Some(tags) = &tables.open_moves {
                    tags.prefetch_watch(cell);
                }
            }
            let Scratch {
                state,
                predecessors,
                ..
            } = scratch;
            predecessors.clear();
            let mut examined = 0;
            for &(cell, rank) in batch {
                let value = Value::from_bits(self.values.get(cell));
                // Unranked only when the rank does not say who moves, or
                // when the predecessors are generated.
                let known_mover = self.game.mover_of_rank(self.layer, rank);
                if known_mover.is_none() {
                    self.game.unrank(self.layer, rank, state);
                }
                let mover = known_mover.unwrap_or_else(|| self.game.mover(state));
                if self.colour_twins == Some(mover) {
                    // Gone to its predecessors through its twin.
                    continue;
                }
                let wins = value == Value::win_for(mover.opponent());
                // No position named it as its open move: its predecessors
                // that it does not win stay open whatever it is.
                if !wins
                    && tables
                        .open_moves
                        .as_ref()
                        .is_some_and(|tags| !tags.may_reopen(cell))
                {
                    continue;
                }
                if known_mover.is_some() {
                    self.game.unrank(self.layer, rank, state);
                }
                let tag = OpenMoveTags::tag_of(cell);
                let open_moves = tables.open_moves.as_ref().filter(|_| !wins);
                let counts = tables.move_counts.as_ref().filter(|_| !wins);
                self.game.predecessors(self.layer, state, |predecessor| {
                    examined += 1;
                    match self.placement.place(false, predecessor) {
                        Place::Here(cell) => {
                            self.values.prefetch(cell);
                            if let Some(tags) = open_moves {
                                tags.prefetch(cell);
                            }
                            if let Some(counts) = counts {
                                counts.prefetch(cell);
                            }
                            predecessors.push((cell, Decision { value, wins, tag }));
                        }
                        Place::Elsewhere { owner, cell } => remote.pushes.push(Push {
                            owner,
                            cell,
                            value,
                            wins,
                        }),
                    }
                });
            }
            // A predecessor already decided, or one whose open move is
            // another, is left as it is (half of those reached on Nine
            // Men's Morris's layer 10): only the others need their mark's
            // word, loaded now, so the loads of a batch are fewer. A count
            // is mostly counted down without a mark.
            predecessors.retain(|&(cell, decision)| {
                let changes = self.may_change(cell, decision, tables);
                if changes && decision.wins {
                    tables.next.prefetch(cell);
                } else if changes && tables.move_counts.is_none() {
                    tables.candidates.prefetch(cell);
                }
                changes
            });
            for &(cell, decision) in predecessors.iter() {
                self.apply(cell, decision, tables, next_marks, candidate_marks);
            }
            examined
        })
    }

    /// Whether `decision` may change the predecessor at `cell`: it is
    /// unknown, and a move that does not win for it counts towards a loss
    /// or may be its open move.
    #[inline(always)]
    fn may_change(&self, cell: u64, decision: Decision, tables: &PassTables) -> bool {
        if self.values.get(cell) != UNKNOWN {
            return false;
        }
        if decision.wins {
            return true;
        }
        match (&tables.move_counts, &tables.open_moves) {
            (Some(counts), _) => counts.may_change(cell, decision.value == Value::Draw),
            (None, Some(tags)) => tags.may_settle(cell, decision.tag),
            (None, None) => true,
        }
    }
}
