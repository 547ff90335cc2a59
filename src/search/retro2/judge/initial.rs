//! Pass 0 of a layer: every position judged from what can be known of
//! its moves (rules, no move, the layers below, the first sweep's values),
//! the decided ones written and put into the frontier.

use super::layer::{Judged, LayerJudge, UNKNOWN, settle};
use super::lower::LowerLayers;
use super::marks::Marks;
use super::placement::{CellRange, Placement};
use super::remote::{Question, Remote};
use crate::search::retro2::move_counts::MoveCounts;
use crate::search::retro2::open_moves::OpenMoveTags;
use crate::space::tally::{Tally, Verdict};
use crate::space::{LayeredGame, Player, Successor, Value, WithinLayer};
use crate::table::OneBitTable;

/// Whether a position decided in pass 0 with `value` joins the frontier
/// (see [`LayerJudge::decide_initial`]).
#[inline(always)]
fn enters_frontier(value: Value, sweep: Player, counted: bool) -> bool {
    counted || sweep == Player::Second || value == Value::SecondWins
}

impl<G: LayeredGame, P: Placement, L: LowerLayers> LayerJudge<'_, G, P, L> {
    /// Judges a position of pass 0 from the moves that can be known:
    /// `lower_only` when moves within the layer lead to unknown positions
    /// (lower layers come first; once the moves reach the layer nothing
    /// more can be learned).
    ///
    /// Also returns, when `name_open` and the position is left open, the
    /// move that keeps it open: where the full look stopped (the first
    /// open one), or after a look at the layers below, its first move
    /// within the layer (all of whose positions are unknown then); and
    /// whether the moves seen may all lose (none drew).
    fn judge_initial(
        &self,
        state: &G::State,
        lower_only: bool,
        name_open: bool,
        asked: &mut Vec<Question>,
    ) -> (Judged, Option<u64>, bool) {
        if let Some(value) = self.game.rule_value(self.layer, state) {
            return (Judged::Known(Verdict::Decided(value)), None, false);
        }
        let mut tally = Tally::new(self.game.mover(state), lower_only);
        let mut last = 0;
        let look = |successor: Successor| {
            last = successor.rank;
            self.see_successor(&mut tally, successor, asked)
        };
        let mut first_within = None;
        if lower_only && name_open {
            if let WithinLayer::First(rank) =
                self.game.lower_successors_naming(self.layer, state, look)
            {
                tally.stays_in_layer();
                first_within = Some(rank);
            }
        } else if lower_only {
            if self.game.lower_successors(self.layer, state, look) {
                tally.stays_in_layer();
            }
        } else {
            self.game.successors(self.layer, state, look);
        }
        let open_move = match (name_open && tally.open && !tally.won, lower_only) {
            (false, _) => None,
            (true, false) => Some(last),
            (true, true) => first_within,
        };
        let can_lose = !tally.draws;
        (
            self.conclude(tally, asked, true, state),
            open_move,
            can_lose,
        )
    }

    /// Records a verdict of pass 0 at `cell`; into the frontier go the
    /// positions whose predecessors have not seen their value: every
    /// second-sweep decision, and first-sweep positions that win for the
    /// second player (their predecessors' evaluation may have stopped
    /// before reaching them); every decision where moves are `counted`
    /// (the second sweep did not look within the layer).
    #[inline(always)]
    pub fn decide_initial(
        &self,
        cell: u64,
        verdict: Verdict,
        sweep: Player,
        counted: bool,
        frontier: &OneBitTable,
        marks: &mut Marks,
    ) {
        if let Some(value) = settle(self.recorded, verdict) {
            self.values.set(cell, value as u8);
            if enters_frontier(value, sweep, counted) && frontier.test_and_set(cell) {
                marks.push(cell);
            }
        }
    }

    /// Pass 0 over the positions of `range` whose mover is `sweep`: rules,
    /// positions without moves, wins and losses through lower layers, and
    /// (second sweep) losses through first-sweep positions. Positions
    /// already decided (a resumed layer) all join the frontier. Returns
    /// the positions examined.
    ///
    /// A position the full look finds open through a move of the layer has
    /// that move recorded in `open_moves`, if given; with `counts`, its
    /// moves within the layer counted instead, after a look at the layers
    /// below only (in both sweeps: every decision enters the frontier).
    #[allow(clippy::too_many_arguments)]
    pub fn initial_range(
        &self,
        range: &CellRange,
        sweep: Player,
        frontier: &OneBitTable,
        open_moves: Option<&OpenMoveTags>,
        counts: Option<&MoveCounts>,
        marks: &mut Marks,
        remote: &mut Remote,
    ) -> u64 {
        let mut state = self.game.new_state();
        let mut asked = Vec::new();
        let mut examined = 0;
        // Tags and counts are kept where every cell is its rank.
        let open_moves = open_moves.filter(|_| P::HOLDS_ALL);
        let counts = counts.filter(|_| P::HOLDS_ALL);
        // The second sweep needs the whole look only where it can learn
        // a loss from the first sweep's values; a win through the layer's
        // own positions arrives later through the frontier anyway.
        let only_lower_wins = counts.is_some()
            || sweep == Player::First
            || self.recorded == Some(Value::win_for(sweep));
        // Where no look reads the layer, the range's own cells, met in
        // order, are written a word at a time: each is unknown and out of
        // the frontier until decided here (no other unit writes them in
        // pass 0).
        let mut value_writes = self.values.gathered_writes();
        let mut frontier_sets = frontier.gathered_sets();
        for cell in range.cells.clone() {
            let rank = range.rank_of(cell);
            let mover = match self.game.mover_of_rank(self.layer, rank) {
                Some(mover) => mover,
                None => {
                    self.game.unrank(self.layer, rank, &mut state);
                    self.game.mover(&state)
                }
            };
            if mover != sweep {
                continue;
            }
            if self.values.get(cell) != UNKNOWN {
                if frontier.test_and_set(cell) {
                    marks.push(cell);
                }
                continue;
            }
            self.game.unrank(self.layer, rank, &mut state);
            if self.game.reduced_by_symmetry()
                && !self.game.is_representative(self.layer, rank, &state)
            {
                // Not canonical: copied from its twin at the end.
                continue;
            }
            examined += 1;
            asked.clear();
            let (judged, open_move, can_lose) =
                self.judge_initial(&state, only_lower_wins, open_moves.is_some(), &mut asked);
            match judged {
                Judged::Known(verdict) => {
                    if let Verdict::Open = verdict {
                        if let Some(counts) = counts {
                            let moves = self.game.moves_within_count(self.layer, &state);
                            counts.record(cell, moves, can_lose);
                        } else if let Some(tags) = open_moves {
                            match open_move {
                                Some(open) => tags.record(cell, open),
                                None => tags.record_unknown(cell),
                            }
                        }
                    }
                    let counted = counts.is_some();
                    match settle(self.recorded, verdict) {
                        Some(value) if only_lower_wins => {
                            value_writes.write(cell, value as u8);
                            if enters_frontier(value, sweep, counted) {
                                frontier_sets.write(cell, 1);
                                marks.push(cell);
                            }
                        }
                        _ => self.decide_initial(cell, verdict, sweep, counted, frontier, marks),
                    }
                }
                Judged::Asks(tally) => remote.wait(cell, tally, &asked),
            }
        }
        examined
    }
}
