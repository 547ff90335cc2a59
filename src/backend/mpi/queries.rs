//! Questions to other processes about cells they own, asked in a round's
//! exchange and answered with one byte each (a two-bit cell's value, or
//! whether it is in a frontier).

use rayon::prelude::*;

use super::exchange::Exchange;

/// Work waiting for answers (`pending`, one entry per asker) and the
/// questions it asked, grouped by the process asked.
pub(super) struct Queries<P> {
    pub pending: Vec<P>,
    /// `cells[p]`: what is asked of process `p`.
    cells: Vec<Vec<u64>>,
    /// `asker[p][i]`: the entry of `pending` that asked `cells[p][i]`.
    asker: Vec<Vec<u32>>,
}

impl<P: Send> Queries<P> {
    pub fn new(processes: usize) -> Self {
        Queries {
            pending: Vec::new(),
            cells: vec![Vec::new(); processes],
            asker: vec![Vec::new(); processes],
        }
    }

    /// Asks `owner` about `cell` for the entry pushed next.
    pub fn ask(&mut self, owner: usize, cell: u64) {
        self.cells[owner].push(cell);
        self.asker[owner].push(self.pending.len() as u32);
    }

    /// Adds the entry that the questions since the last push belong to.
    pub fn push(&mut self, pending: P) {
        self.pending.push(pending);
    }

    /// Questions buffered.
    pub fn asked(&self) -> usize {
        self.cells.iter().map(Vec::len).sum()
    }

    /// Takes `other`'s entries and questions after this one's.
    pub fn append(&mut self, mut other: Queries<P>) {
        let offset = self.pending.len() as u32;
        self.pending.append(&mut other.pending);
        for (mine, theirs) in self.cells.iter_mut().zip(&mut other.cells) {
            mine.append(theirs);
        }
        for (mine, theirs) in self.asker.iter_mut().zip(other.asker) {
            mine.extend(theirs.into_iter().map(|asker| asker + offset));
        }
    }

    /// Exchanges the questions: every process answers those it received
    /// with `answer` (in parallel) and sends the answers back. Returns the
    /// pending entries and, for each question this process asked, the
    /// entry that asked it with its answer. `me` asks itself nothing.
    pub fn answered(
        self,
        exchange: &mut Exchange,
        me: usize,
        answer: impl Fn(u64) -> u8 + Sync,
    ) -> (Vec<P>, Vec<(u32, u8)>) {
        let (asked, askers) = exchange.all_to_all(&self.cells);
        drop(self.cells);
        let answers: Vec<u8> = asked.par_iter().map(|&cell| answer(cell)).collect();
        drop(asked);
        let (replies, _) = exchange.send_partitioned(&answers, &askers);
        let asked_by_me = self
            .asker
            .iter()
            .enumerate()
            .filter(|&(p, _)| p != me)
            .flat_map(|(_, askers)| askers.iter().copied());
        let answered = asked_by_me.zip(replies).collect();
        (self.pending, answered)
    }
}
