//! Moves that act on each digit of a mixed-radix index by a table: a
//! definition file's puzzle whose coordinates (a permutation, an
//! orientation, an arrangement of alike pieces) each move independently.
//!
//! Such a space's successors need no unranking. The ranks that share
//! every digit but the last (a *run*, `inner` ranks long) have their
//! successors under one move in one run of the same length, so a scan in
//! rank order finds each move's target run once per run and then reads
//! one table row per state, and every successor it marks lies in a few
//! runs that stay in the cache. The generic path unranks every state and
//! batches and prefetches successors that may land anywhere.

/// One digit of the index and how the moves change it.
#[derive(Clone, Copy, Debug)]
pub struct DigitTable<'a> {
    /// The values the digit takes.
    pub radix: u64,
    /// Its weight in the index (the product of the radices after it).
    pub weight: u64,
    /// `table[d * moves + m]`: the digit after move `m` from digit `d`.
    pub table: &'a [u32],
}

/// A space whose every move acts digit by digit ([`Space::digit_moves`](crate::space::Space::digit_moves)).
#[derive(Clone, Debug)]
pub struct DigitMoves<'a> {
    /// Moves per state (every state has them all).
    pub moves: usize,
    /// The digits, most significant first; the last has weight 1.
    pub digits: Vec<DigitTable<'a>>,
}

/// Runs shorter than this many ranks take the generic path: their
/// successors' runs change too often for the cache to hold them.
pub const MIN_RUN: u64 = 256;

impl DigitMoves<'_> {
    /// The length of a run: the last digit's radix.
    pub fn run_len(&self) -> u64 {
        self.digits.last().map_or(1, |d| d.radix)
    }

    /// Whether the scan by runs pays here (runs long enough, and more than
    /// one digit: with one, the whole index is one run).
    pub fn worth_it(&self) -> bool {
        self.digits.len() >= 2 && self.run_len() >= MIN_RUN
    }
}

/// The tables a scan by runs reads: each move's column of the last
/// digit's table (`columns[m * run_len + d]`), so that a run's cells are
/// taken one move at a time, the move's target run and column in the L1
/// cache (in state order, the last digit's whole table streamed through it
/// once a run and pushed the targets out).
#[derive(Clone, Debug)]
pub struct DigitRuns<'a> {
    moves: DigitMoves<'a>,
    run_len: u64,
    columns: Vec<u32>,
}

impl<'a> DigitRuns<'a> {
    /// The columns of `moves`' last digit.
    pub fn new(moves: DigitMoves<'a>) -> Self {
        let run_len = moves.run_len();
        debug_assert!(
            moves
                .digits
                .windows(2)
                .all(|d| d[0].weight == d[1].weight * d[1].radix)
                && moves.digits.last().is_some_and(|d| d.weight == 1),
            "digits most significant first, each weight the product of the radices after it"
        );
        let last = moves.digits.last().expect("a digit").table;
        let columns = (0..moves.moves)
            .flat_map(|m| (0..run_len as usize).map(move |d| last[d * moves.moves + m]))
            .collect();
        DigitRuns {
            moves,
            run_len,
            columns,
        }
    }

    /// Moves per state.
    pub fn moves(&self) -> usize {
        self.moves.moves
    }

    /// The length of a run.
    pub fn run_len(&self) -> u64 {
        self.run_len
    }

    /// Per move, the first rank of the run that move leads run `run` to
    /// (a run is a rank divided by the run length), into `bases`.
    pub fn bases(&self, run: u64, bases: &mut [u64]) {
        let moves = self.moves.moves;
        bases.iter_mut().for_each(|b| *b = 0);
        let digits = &self.moves.digits;
        for digit in &digits[..digits.len() - 1] {
            let value = (run / (digit.weight / self.run_len) % digit.radix) as usize;
            let row = &digit.table[value * moves..(value + 1) * moves];
            for (base, &next) in bases.iter_mut().zip(row) {
                *base += next as u64 * digit.weight;
            }
        }
    }

    /// Move `m`'s last digit after each last digit.
    #[inline(always)]
    pub fn column(&self, m: usize) -> &[u32] {
        let len = self.run_len as usize;
        &self.columns[m * len..(m + 1) * len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three digits (radices 3, 4, 5) and two moves: the successors read
    /// by runs are the digit-wise images.
    #[test]
    fn runs_give_each_digits_image() {
        let tables: Vec<Vec<u32>> = [3u32, 4, 5]
            .iter()
            .map(|&r| {
                (0..r)
                    .flat_map(|d| [(d + 1) % r, (d + r - 1) % r])
                    .collect()
            })
            .collect();
        let moves = DigitMoves {
            moves: 2,
            digits: vec![
                DigitTable {
                    radix: 3,
                    weight: 20,
                    table: &tables[0],
                },
                DigitTable {
                    radix: 4,
                    weight: 5,
                    table: &tables[1],
                },
                DigitTable {
                    radix: 5,
                    weight: 1,
                    table: &tables[2],
                },
            ],
        };
        let image = |rank: u64, m: usize| -> u64 {
            let digits = [rank / 20, rank / 5 % 4, rank % 5];
            digits
                .iter()
                .zip([20u64, 5, 1])
                .zip(&tables)
                .map(|((&d, w), t)| t[d as usize * 2 + m] as u64 * w)
                .sum()
        };
        assert_eq!(moves.run_len(), 5);
        assert!(!moves.worth_it());
        let runs = DigitRuns::new(moves);
        let mut bases = [0u64; 2];
        for rank in 0..60 {
            runs.bases(rank / 5, &mut bases);
            for (m, &base) in bases.iter().enumerate() {
                let next = base + runs.column(m)[(rank % 5) as usize] as u64;
                assert_eq!(next, image(rank, m), "rank {rank} move {m}");
            }
        }
    }
}
