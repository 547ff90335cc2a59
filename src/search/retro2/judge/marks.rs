//! The cells a pass marks into the next frontier or the candidates
//! ([`Marks`]): counted always, listed while few, so that the next pass
//! visits the list instead of scanning a table.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// A pass lists the cells it marks only while they are fewer than one in
/// `LIST_DENSITY` cells held: 8 bytes a cell then stay below the bit
/// table's own size, and walking the list beats scanning the table.
const LIST_DENSITY: u64 = 64;

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
}
