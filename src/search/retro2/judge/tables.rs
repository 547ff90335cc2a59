//! The bit tables of a layer's passes ([`PassTables`]): the frontier,
//! the next frontier, the candidates, and what is known of each open
//! position's moves.

use rayon::prelude::*;

use crate::search::retro2::move_counts::MoveCounts;
use crate::search::retro2::open_moves::OpenMoveTags;
use crate::table::OneBitTable;

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
    /// moves' tags when `tagged` (the game wants them).
    pub fn new(cells: u64, whole: bool, counted: bool, tagged: bool) -> crate::error::Result<Self> {
        let move_counts = (whole && counted).then(|| MoveCounts::new(cells)).flatten();
        let tagged = whole && tagged && move_counts.is_none();
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
