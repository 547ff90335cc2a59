//! How a position is judged and how a decided position reaches its
//! predecessors: the per-position work of every pass, shared by the
//! backends that run passes on the host (the CPU and the processes of an
//! MPI job). A backend hands over where each position's cell lives
//! ([`Placement`]); what it holds is read and written at once, and what
//! another process holds comes back as questions and pushes for the
//! backend to send ([`Remote`]).

use std::ops::Range;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::move_counts::{CountedDown, MoveCounts};
use super::open_moves::{OpenMoveTags, PendingWatches};
pub use crate::space::tally::{Tally, Verdict};
use crate::space::{LayeredGame, Player, Successor, Value, WithinLayer};
use crate::table::{OneBitTable, TwoBitTable};

/// Where the cell of a position is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In the tables held here, at this cell.
    Here(u64),
    /// Held by process `owner`, at its cell `cell`.
    Elsewhere {
        /// The process holding the cell.
        owner: usize,
        /// The cell in that process's tables.
        cell: u64,
    },
}

/// Where the cells of a layer and of the layer below are held.
pub trait Placement: Sync {
    /// Every cell is held here and is its rank: the judging then reads
    /// values straight from the tables, without places.
    const HOLDS_ALL: bool = false;

    /// The cell of `rank` in this layer (`lower` false) or the one below.
    fn place(&self, lower: bool, rank: u64) -> Place;

    /// The rank of a cell of this layer held here.
    fn rank_of(&self, cell: u64) -> u64;
}

/// One process holds everything, each rank at its own cell.
pub struct WholeLayer;

impl Placement for WholeLayer {
    const HOLDS_ALL: bool = true;

    #[inline]
    fn place(&self, _lower: bool, rank: u64) -> Place {
        Place::Here(rank)
    }

    #[inline]
    fn rank_of(&self, cell: u64) -> u64 {
        cell
    }
}

/// Cells held here whose ranks are consecutive from `first_rank`: the unit
/// of a pass's parallel work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellRange {
    /// The cells, in the tables held here.
    pub cells: Range<u64>,
    /// Rank of the first cell.
    pub first_rank: u64,
}

impl CellRange {
    fn rank_of(&self, cell: u64) -> u64 {
        self.first_rank + (cell - self.cells.start)
    }
}

/// A pass lists the cells it marks only while they are fewer than one in
/// `LIST_DENSITY` cells held: 8 bytes a cell then stay below the bit
/// table's own size, and walking the list beats scanning the table.
const LIST_DENSITY: u64 = 64;

/// Most listed cells in a unit of parallel work.
const LIST_WORK: usize = 4096;

/// Fewest listed cells in a unit: a short list is still cut into a few
/// units a thread (a Morris position's predecessors and their checks take
/// microseconds, so a list of a few thousand was one thread's work while
/// the others waited).
const MIN_LIST_WORK: usize = 64;

/// Units a thread, at least, for a listed pass that is long enough.
const UNITS_PER_THREAD: usize = 4;

/// Listed cells per unit for a list of `cells` on `threads` threads.
fn list_work(cells: usize, threads: usize) -> usize {
    (cells / (UNITS_PER_THREAD * threads.max(1))).clamp(MIN_LIST_WORK, LIST_WORK)
}

/// The most cells a pass lists when `cells` are held.
pub fn list_limit(cells: u64) -> u64 {
    cells / LIST_DENSITY
}

/// The cells a pass marked in a bit table (each once): how many, and the
/// list of them while it holds no more than `limit` (then only the table
/// knows them, and the list's memory is never more than a bit table's).
/// Late passes decide few positions (Fox-and-Geese g = 11: 253 passes,
/// most deciding a few thousand of 1.8 G positions): the next pass visits
/// the list instead of scanning the tables.
pub struct Marks {
    count: u64,
    cells: Vec<u64>,
    overflowed: bool,
    limit: usize,
}

impl Marks {
    /// No marks yet; the list holds at most `limit` cells.
    pub fn new(limit: u64) -> Self {
        Marks {
            count: 0,
            cells: Vec::new(),
            overflowed: false,
            limit: limit as usize,
        }
    }

    /// Cells marked.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Marks `cell` (each cell once); the list is dropped once it would pass the
    /// limit.
    pub fn push(&mut self, cell: u64) {
        self.count += 1;
        if self.overflowed {
            return;
        }
        if self.cells.len() < self.limit {
            self.cells.push(cell);
        } else {
            self.overflow();
        }
    }

    fn overflow(&mut self) {
        self.overflowed = true;
        self.cells = Vec::new();
    }

    /// The marks of two units of work together; listed only while both are and
    /// the two lists together stay within the limit.
    pub fn merge(mut self, mut other: Marks) -> Marks {
        self.count += other.count;
        if self.overflowed || other.overflowed || self.cells.len() + other.cells.len() > self.limit
        {
            self.overflow();
        } else {
            if self.cells.len() < other.cells.len() {
                std::mem::swap(&mut self.cells, &mut other.cells);
            }
            self.cells.extend_from_slice(&other.cells);
        }
        self
    }

    /// Keeps the list only while the lists kept so far by the units of a
    /// pass (`kept`, shared) stay within the limit, so that the lists
    /// waiting to be [joined](Self::join) never hold much more than the
    /// limit in all.
    pub fn kept_within(mut self, kept: &AtomicU64) -> Marks {
        if !self.overflowed {
            let listed = self.cells.len() as u64;
            if kept.fetch_add(listed, Relaxed) + listed > self.limit as u64 {
                self.overflow();
            }
        }
        self
    }

    /// The marks of many units of work together, as [`merge`](Self::merge)
    /// would join them two at a time, but copying each listed cell once:
    /// merged by rayon's reduction, a cell was copied once per level of the
    /// tree into vectors grown by reallocation (2.9 % of Nine Men's Morris's
    /// layer 11).
    pub fn join<'a>(parts: impl Iterator<Item = &'a Marks> + Clone, limit: u64) -> Marks {
        let mut joined = Marks::new(limit);
        joined.count = parts.clone().map(|part| part.count).sum();
        let listed: usize = parts.clone().map(|part| part.cells.len()).sum();
        if parts.clone().any(|part| part.overflowed) || listed > joined.limit {
            joined.overflow();
        } else {
            joined.cells.reserve_exact(listed);
            for part in parts {
                joined.cells.extend_from_slice(&part.cells);
            }
        }
        joined
    }

    /// The list of every mark, unless there were too many to list.
    pub fn listed(&mut self) -> Option<Vec<u64>> {
        (!self.overflowed).then(|| std::mem::take(&mut self.cells))
    }
}

/// A unit of a pass's source: listed cells, or the set bits of a range of
/// a bit table.
pub enum Unit<'s> {
    /// Cells the pass before listed.
    Listed(&'s [u64]),
    /// The set bits of a range of cells.
    Scanned(&'s CellRange),
}

/// The units of a pass whose source is `list` when the pass before listed
/// its marks, else the set bits of `ranges` in the pass's table.
pub fn units<'s>(list: Option<&'s [u64]>, ranges: &'s [CellRange]) -> Vec<Unit<'s>> {
    match list {
        Some(list) => list
            .chunks(list_work(list.len(), rayon::current_num_threads()))
            .map(Unit::Listed)
            .collect(),
        None => ranges.iter().map(Unit::Scanned).collect(),
    }
}

impl Unit<'_> {
    /// Calls `visit` with each (cell, rank) of the unit: each listed cell,
    /// or each set bit of `table` in the range.
    pub fn for_each(
        &self,
        table: &OneBitTable,
        placement: &impl Placement,
        mut visit: impl FnMut(u64, u64),
    ) {
        match self {
            Unit::Listed(cells) => cells
                .iter()
                .for_each(|&cell| visit(cell, placement.rank_of(cell))),
            Unit::Scanned(range) => {
                table.for_each_set(range.cells.clone(), |cell| visit(cell, range.rank_of(cell)))
            }
        }
    }

    /// Whether the unit is a range of the table (progress counts those).
    pub fn is_scanned(&self) -> bool {
        matches!(self, Unit::Scanned(_))
    }
}

/// The only value recorded before the final fill, when the rules make
/// undecided positions wins for one player (see [`super`]).
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
}

/// What a decided position of the frontier brings a predecessor.
#[derive(Clone, Copy, Debug)]
pub struct Decision {
    /// The decided position's value.
    pub value: Value,
    /// Whether that value wins for the predecessor's mover.
    pub wins: bool,
    /// The decided position's [tag](OpenMoveTags::tag_of), or 0 where not
    /// known (a value pushed by another process).
    pub tag: u8,
}

/// What a judgement found.
enum Judged {
    Known(Verdict),
    /// Only the answers to the questions asked can settle it.
    Asks(Tally),
}

/// Whether a position decided in pass 0 with `value` joins the frontier
/// (see [`LayerJudge::decide_initial`]).
#[inline(always)]
fn enters_frontier(value: Value, sweep: Player, counted: bool) -> bool {
    counted || sweep == Player::Second || value == Value::SecondWins
}

/// Ranks of a pass's source handled together: the words of a batch's
/// cells, and then of their predecessors or moves, are prefetched before
/// any is read, so that the cache misses of a batch overlap instead of
/// following one another. Big layers spend their time on these random
/// lookups into tables of gigabytes.
const BATCH: usize = 64;

/// The moves of a candidate that a check (see [`LayerJudge::check_unit`])
/// ranks first; those that the first wave leaves unsettled have the rest
/// of theirs ranked in a second. Measured and left out elsewhere: an
/// acyclic layer's sweep (in the Morris openings 87–99 % of the positions
/// need more than eight moves; two waves made the six-stone opening 1.33×
/// slower) and pass 0's second sweep (whose first move within the layer is
/// mostly open: 1.13× slower on Nine Men's Morris's layer 10).
const FIRST_WAVE: usize = 8;

/// A candidate of a check, its first wave of moves ranked.
struct Candidate {
    cell: u64,
    rank: u64,
    mover: Player,
    /// The end of its moves in the scratch's `moves`.
    moves_end: usize,
    /// Its verdict, when known without its moves (a rule, or no move).
    known: Option<Verdict>,
    /// Whether it has moves past the first wave.
    more: bool,
}

/// A worker's buffers for a pass.
pub struct Scratch<S> {
    state: S,
    /// Checks: the state the second wave's candidates unrank into, apart
    /// from `state`, whose unranking goes on from rank to rank.
    second_wave_state: S,
    batch: Vec<(u64, u64)>,
    /// Propagation: each predecessor of the batch held here, with what the
    /// frontier position it moves to brings it.
    predecessors: Vec<(u64, Decision)>,
    /// Checks: the moves of the batch's open candidates, in order.
    moves: Vec<(Place, usize)>,
    /// Checks: each candidate to judge.
    candidates: Vec<Candidate>,
    /// Checks: `(cell, rank, tally, moves' end)` of the candidates that the
    /// first wave of their moves left unsettled.
    unsettled: Vec<(u64, u64, Tally, usize)>,
    /// Questions of the position being judged.
    asked: Vec<Question>,
    /// Checks: the open moves recorded, their watches not yet set.
    watches: PendingWatches,
    /// Colour twins: each twin of the batch with its value, written once
    /// the batch's twins are ranked.
    twins: Vec<(u64, u8)>,
}

impl<S: Clone> Scratch<S> {
    /// Empty buffers, with `state` to unrank positions into.
    pub fn new(state: S) -> Self {
        Scratch {
            second_wave_state: state.clone(),
            state,
            batch: Vec::with_capacity(BATCH),
            predecessors: Vec::new(),
            moves: Vec::new(),
            candidates: Vec::with_capacity(BATCH),
            unsettled: Vec::with_capacity(BATCH),
            asked: Vec::new(),
            watches: PendingWatches::default(),
            twins: Vec::with_capacity(BATCH),
        }
    }

    /// Feeds the (cell, rank) pairs of `unit` to `handle` a batch at a time.
    fn in_batches(
        &mut self,
        unit: &Unit,
        table: &OneBitTable,
        placement: &impl Placement,
        mut handle: impl FnMut(&mut Self, &[(u64, u64)]) -> u64,
    ) -> u64 {
        let mut examined = 0;
        let mut batch = std::mem::take(&mut self.batch);
        unit.for_each(table, placement, |cell, rank| {
            batch.push((cell, rank));
            if batch.len() == BATCH {
                examined += handle(self, &batch);
                batch.clear();
            }
        });
        examined += handle(self, &batch);
        batch.clear();
        self.batch = batch;
        examined
    }
}

/// The bit tables of a layer's passes, over the cells held here: the
/// frontier, the next frontier and the candidates; and, where one process
/// holds the whole layer and there is room, each position's open move.
pub struct PassTables {
    /// The frontier: positions decided in the pass before.
    pub current: OneBitTable,
    /// The next frontier: positions decided in this pass.
    pub next: OneBitTable,
    /// Unknown positions a decided move reached without winning for them: to be
    /// judged.
    pub candidates: OneBitTable,
    /// The move that keeps each position open, as far as known: a decided
    /// move makes a position a candidate only if it may be that one.
    pub open_moves: Option<OpenMoveTags>,
    /// Each open position's moves within the layer not yet decided, where
    /// the game counts them (then instead of the open moves).
    pub move_counts: Option<MoveCounts>,
}

impl PassTables {
    /// Three clear tables of `cells` bits on the heap; where the cells are
    /// the layer's ranks, all held here (`whole`), and there is room, the
    /// moves' counts when `counted` (the game counts them), else the open
    /// moves' tags.
    pub fn new(cells: u64, whole: bool, counted: bool) -> crate::error::Result<Self> {
        let move_counts = (whole && counted).then(|| MoveCounts::new(cells)).flatten();
        let tagged = whole && move_counts.is_none();
        Ok(PassTables {
            current: OneBitTable::scratch("frontier", cells)?,
            next: OneBitTable::scratch("next frontier", cells)?,
            candidates: OneBitTable::scratch("candidates", cells)?,
            open_moves: tagged.then(|| OpenMoveTags::new(cells)).flatten(),
            move_counts,
        })
    }

    /// After a pass: the frontier's bits (those of `list` when it was
    /// listed) are cleared and the next frontier becomes the frontier.
    pub fn advance(&mut self, list: Option<&[u64]>) -> crate::error::Result<()> {
        match list {
            Some(list) => list.par_iter().for_each(|&cell| {
                self.current.clear(cell);
            }),
            None => self.current.clear_all()?,
        }
        std::mem::swap(&mut self.current, &mut self.next);
        Ok(())
    }
}

/// The solved layers below that a layer's moves reach, as the judge reads
/// them: a type per case, so that the common one (the next layer only)
/// compiles to the lookup it always was. Read through one enum
/// ([`Below`](super::seam::Below)) with a branch per move, Fox-and-Geese's
/// passes took 7–10 % longer (capture-wins `--symmetry` layer 9, default
/// rule layers 1..8).
pub trait LowerLayers: Copy + Sync {
    /// The table of lower layer `at`; a panic when it is not held (a
    /// game's layering is wrong).
    fn table(&self, at: usize) -> &TwoBitTable;
}

/// The layer just below, if any (none for layer 0 and layers solved alone).
#[derive(Clone, Copy)]
pub struct NextLayer<'a>(pub Option<&'a TwoBitTable>);

impl LowerLayers for NextLayer<'_> {
    #[inline(always)]
    fn table(&self, _at: usize) -> &TwoBitTable {
        self.0
            .expect("a move to a lower layer needs that layer solved")
    }
}

/// Several layers below, indexed by layer
/// ([`LayerLinks::several_layers_below`](crate::space::LayerLinks::several_layers_below)).
#[derive(Clone, Copy)]
pub struct SeveralLayers<'a>(pub &'a [Option<TwoBitTable>]);

impl LowerLayers for SeveralLayers<'_> {
    #[inline(always)]
    fn table(&self, at: usize) -> &TwoBitTable {
        self.0
            .get(at)
            .and_then(Option::as_ref)
            .expect("a move to a lower layer needs that layer solved")
    }
}

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

const UNKNOWN: u8 = Value::Unknown as u8;

impl<G: LayeredGame, P: Placement, L: LowerLayers> LayerJudge<'_, G, P, L> {
    /// The table holding the cells of layer `at`: this one or one below.
    #[inline(always)]
    fn table(&self, at: usize) -> &TwoBitTable {
        if at == self.layer {
            self.values
        } else {
            self.lower.table(at)
        }
    }

    /// Where a move's destination is, and its layer.
    #[inline(always)]
    fn place_of(&self, successor: Successor) -> (Place, usize) {
        let lower = successor.layer != self.layer;
        (self.placement.place(lower, successor.rank), successor.layer)
    }

    /// Sees a move: its value if held here (false once the tally is
    /// settled), or a question to its owner.
    #[inline(always)]
    fn see_move(
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
    fn see_successor(
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
    fn conclude(
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

    /// With colour twins, the first step of a later pass, over one unit
    /// of the frontier: each position of the judged player decided in the
    /// pass before writes its value's mirror at its colour twin and puts
    /// the twin into the frontier (marked in `marks`), where the second
    /// step, [`propagate_unit`](Self::propagate_unit), takes the twins to
    /// their predecessors in the order of their ranks: the predecessors of
    /// neighbouring twins lie near each other, where those of the
    /// positions' own twins, met in the positions' order, would be all
    /// over the table. The twins of a batch (64 positions, as the
    /// propagation's) are ranked and their words prefetched before any is
    /// written. Every cell is its rank here.
    /// Returns the positions examined.
    pub fn twins_unit(
        &self,
        unit: &Unit,
        scratch: &mut Scratch<G::State>,
        tables: &PassTables,
        marks: &mut Marks,
    ) -> u64 {
        let judged = self.colour_twins.expect("a layer of colour twins");
        scratch.in_batches(unit, &tables.current, self.placement, |scratch, batch| {
            let Scratch { state, twins, .. } = scratch;
            twins.clear();
            for &(cell, rank) in batch {
                // Unranked once: before the mover is known only where the
                // rank does not say it.
                let known_mover = self.game.mover_of_rank(self.layer, rank);
                if known_mover.is_none() {
                    self.game.unrank(self.layer, rank, state);
                }
                if known_mover.unwrap_or_else(|| self.game.mover(state)) != judged {
                    // A twin another unit has just marked.
                    continue;
                }
                if known_mover.is_some() {
                    self.game.unrank(self.layer, rank, state);
                }
                let twin = self.game.colour_twin_rank(self.layer, state);
                // A twin lies anywhere in the layer: its words load while
                // the batch's other twins are ranked instead of stalling
                // each write (those stalls were nearly half of
                // Morabaraba's layer 13's second pass).
                self.values.prefetch(twin);
                tables.current.prefetch(twin);
                let value = Value::from_bits(self.values.get(cell)).mirrored();
                twins.push((twin, value as u8));
            }
            for &(twin, value) in twins.iter() {
                self.values.compare_and_set(twin, UNKNOWN, value);
                if tables.current.test_and_set(twin) {
                    marks.push(twin);
                }
            }
            twins.len() as u64
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

    /// With symmetry reduction, the values of the positions of `range`
    /// go to their twins, here at once or to their owners. When one value
    /// was recorded (the others are the fill, already in place) only the
    /// positions holding it are copied, which are few; otherwise every
    /// representative's.
    pub fn copy_to_twins(&self, range: &CellRange, remote: &mut Remote) {
        let mut state = self.game.new_state();
        let mut copy = |cell: u64, require_representative: bool| {
            let rank = range.rank_of(cell);
            self.game.unrank(self.layer, rank, &mut state);
            if require_representative && !self.game.is_representative(self.layer, rank, &state) {
                return;
            }
            let value = self.values.get(cell);
            self.game.images(self.layer, &state, |image| {
                match self.placement.place(false, image) {
                    Place::Here(cell) => self.values.set(cell, value),
                    Place::Elsewhere { owner, cell } => remote.twins.push((owner, cell, value)),
                }
            });
        };
        match self.recorded {
            Some(value) => self
                .values
                .for_each_equal(range.cells.clone(), value as u8, |cell| copy(cell, false)),
            None => range.cells.clone().for_each(|cell| copy(cell, true)),
        }
    }
}

impl Remote {
    /// A position at `cell` waits for the answers to `asked`.
    fn wait(&mut self, cell: u64, tally: Tally, asked: &[Question]) {
        let start = self.questions.len();
        self.questions.extend_from_slice(asked);
        self.pending
            .push((cell, tally, start..self.questions.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_marks_list_every_part_once_or_nothing_past_the_limit() {
        let marks = |cells: &[u64]| {
            let mut marks = Marks::new(10);
            cells.iter().for_each(|&cell| marks.push(cell));
            marks
        };
        let parts = [marks(&[1, 2]), marks(&[]), marks(&[7, 3, 5])];
        let mut joined = Marks::join(parts.iter(), 10);
        assert_eq!(joined.count(), 5);
        let mut listed = joined.listed().unwrap();
        listed.sort_unstable();
        assert_eq!(listed, [1, 2, 3, 5, 7]);
        // The same cells as merging them two at a time.
        let mut merged = marks(&[1, 2]).merge(marks(&[])).merge(marks(&[7, 3, 5]));
        let mut merged_list = merged.listed().unwrap();
        merged_list.sort_unstable();
        assert_eq!(merged_list, listed);
        // Past the limit together: counted, not listed.
        let parts = [marks(&[1, 2, 3, 4, 5, 6]), marks(&[7, 8, 9, 10, 11])];
        let mut over = Marks::join(parts.iter(), 10);
        assert_eq!(over.count(), 11);
        assert!(over.listed().is_none());
        // A part past its own limit: not listed either.
        let long: Vec<u64> = (0..11).collect();
        let parts = [marks(&long), marks(&[20])];
        let mut over = Marks::join(parts.iter(), 10);
        assert_eq!(over.count(), 12);
        assert!(over.listed().is_none());
        assert_eq!(Marks::join([].iter(), 10).count(), 0);
        // Units' lists kept while they fit together: the third is dropped.
        let kept = AtomicU64::new(0);
        let parts = [
            marks(&[1, 2, 3, 4]).kept_within(&kept),
            marks(&[5, 6, 7, 8, 9, 10]).kept_within(&kept),
            marks(&[11]).kept_within(&kept),
        ];
        assert!(!parts[0].overflowed && !parts[1].overflowed && parts[2].overflowed);
        let mut joined = Marks::join(parts.iter(), 10);
        assert_eq!(joined.count(), 11);
        assert!(joined.listed().is_none());
    }

    #[test]
    fn a_short_list_is_cut_into_units_for_every_thread_and_a_long_one_bounded() {
        // A few thousand cells on two threads: eight units, not one.
        assert_eq!(list_work(4096, 2), 512);
        // Never below the floor, never above the ceiling.
        assert_eq!(list_work(10, 2), MIN_LIST_WORK);
        assert_eq!(list_work(100_000_000, 2), LIST_WORK);
        assert_eq!(list_work(4096, 0), 1024);
        let list: Vec<u64> = (0..4096).collect();
        let units = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
            .install(|| units(Some(list.as_slice()), &[]).len());
        assert_eq!(units, 8);
    }
}
