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

use std::borrow::Cow;

/// One digit of the index and how the moves change it.
#[derive(Clone, Copy, Debug)]
pub struct DigitTable<'a> {
    /// The values the digit takes.
    pub radix: u64,
    /// Its weight in the index (the product of the radices after it).
    pub weight: u64,
    /// `table[d * moves + m]`: the digit after move `m` from digit `d`
    /// (empty for a last digit whose columns are picked).
    pub table: &'a [u32],
}

/// A last digit that moves by a permutation the digit before it picks
/// (a large permutation split in two, `games::ksolve::split`), not by a
/// table of its own.
#[derive(Clone, Copy, Debug)]
pub struct PickedColumns<'a> {
    /// `pick[d * moves + m]`: the column move `m` takes where the digit
    /// before the last is `d`.
    pub pick: &'a [u16],
    /// Column `c` is `columns[c * radix..(c + 1) * radix]` (`radix` the
    /// last digit's): the last digit after the move from each last digit.
    pub columns: &'a [u32],
}

/// A space whose every move acts digit by digit ([`Space::digit_moves`](crate::space::Space::digit_moves)).
#[derive(Clone, Debug)]
pub struct DigitMoves<'a> {
    /// Moves per state (every state has them all).
    pub moves: usize,
    /// The digits, most significant first; the last has weight 1.
    pub digits: Vec<DigitTable<'a>>,
    /// When set, the last digit moves by these columns, not its table.
    pub picked: Option<PickedColumns<'a>>,
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

/// The tables a scan by runs reads: the columns of the last digit
/// (`columns[c * run_len + d]`), so that a run's cells are taken one move
/// at a time, the move's target run and column in the L1 cache (in state
/// order, the last digit's whole table streamed through it once a run and
/// pushed the targets out). A last digit with a table has a column per
/// move; a picked one has its own set.
#[derive(Clone, Debug)]
pub struct DigitRuns<'a> {
    moves: DigitMoves<'a>,
    run_len: u64,
    columns: Cow<'a, [u32]>,
}

/// Where a run's cells go under each move: the first rank of the target
/// run and the column of last digits (see [`DigitRuns::targets`]).
#[derive(Clone, Debug, Default)]
pub struct RunTargets {
    /// Per move, the first rank of the run it leads to.
    pub bases: Vec<u64>,
    /// Per move, the column its cells take.
    pub columns: Vec<u32>,
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
        let columns = match moves.picked {
            Some(picked) => {
                debug_assert!(
                    moves.digits.len() >= 2
                        && (picked.columns.len() as u64).is_multiple_of(run_len)
                        && picked.pick.len()
                            == moves.digits[moves.digits.len() - 2].radix as usize * moves.moves,
                    "a pick per move and value of the digit before the last, whole columns"
                );
                Cow::Borrowed(picked.columns)
            }
            None => {
                let last = moves.digits.last().expect("a digit").table;
                Cow::Owned(
                    (0..moves.moves)
                        .flat_map(|m| (0..run_len as usize).map(move |d| last[d * moves.moves + m]))
                        .collect(),
                )
            }
        };
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

    /// Room for [`DigitRuns::targets`].
    pub fn new_targets(&self) -> RunTargets {
        RunTargets {
            bases: vec![0; self.moves.moves],
            columns: (0..self.moves.moves as u32).collect(),
        }
    }

    /// Per move, the first rank of the run that move leads run `run` to
    /// (a run is a rank divided by the run length) and the column of last
    /// digits it takes, into `targets`.
    pub fn targets(&self, run: u64, targets: &mut RunTargets) {
        let moves = self.moves.moves;
        let bases = &mut targets.bases;
        bases.iter_mut().for_each(|b| *b = 0);
        let digits = &self.moves.digits;
        let mut value = 0;
        for digit in &digits[..digits.len() - 1] {
            value = (run / (digit.weight / self.run_len) % digit.radix) as usize;
            let row = &digit.table[value * moves..(value + 1) * moves];
            for (base, &next) in bases.iter_mut().zip(row) {
                *base += next as u64 * digit.weight;
            }
        }
        if let Some(picked) = &self.moves.picked {
            // `value` is now the digit before the last's.
            let row = &picked.pick[value * moves..(value + 1) * moves];
            for (column, &c) in targets.columns.iter_mut().zip(row) {
                *column = c as u32;
            }
        }
    }

    /// Column `c` of last digits: the last digit after the move from each.
    #[inline(always)]
    pub fn column(&self, c: u32) -> &[u32] {
        let len = self.run_len as usize;
        &self.columns[c as usize * len..(c as usize + 1) * len]
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
            picked: None,
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
        let mut targets = runs.new_targets();
        for rank in 0..60 {
            runs.targets(rank / 5, &mut targets);
            for (m, &base) in targets.bases.iter().enumerate() {
                let next = base + runs.column(targets.columns[m])[(rank % 5) as usize] as u64;
                assert_eq!(next, image(rank, m), "rank {rank} move {m}");
            }
        }
    }

    /// A last digit moved by columns the digit before it picks: the
    /// successors are each digit's image, the last one through its pick.
    #[test]
    fn picked_columns_move_the_last_digit() {
        // Digit 0: radix 3, moves +1 and -1; digit 1: radix 4, moved by
        // column 0 (identity), 1 (rotation) or 2 (reversal).
        let table: Vec<u32> = (0..3u32).flat_map(|d| [(d + 1) % 3, (d + 2) % 3]).collect();
        let columns: Vec<u32> = vec![0, 1, 2, 3, 1, 2, 3, 0, 3, 2, 1, 0];
        let pick: Vec<u16> = vec![0, 1, 2, 0, 1, 2];
        let moves = DigitMoves {
            moves: 2,
            digits: vec![
                DigitTable {
                    radix: 3,
                    weight: 4,
                    table: &table,
                },
                DigitTable {
                    radix: 4,
                    weight: 1,
                    table: &[],
                },
            ],
            picked: Some(PickedColumns {
                pick: &pick,
                columns: &columns,
            }),
        };
        let runs = DigitRuns::new(moves);
        let mut targets = runs.new_targets();
        for rank in 0..12u64 {
            let (high, low) = ((rank / 4) as usize, (rank % 4) as usize);
            runs.targets(rank / 4, &mut targets);
            for m in 0..2 {
                let column = pick[high * 2 + m] as usize;
                let expected = table[high * 2 + m] as u64 * 4 + columns[column * 4 + low] as u64;
                let next = targets.bases[m] + runs.column(targets.columns[m])[low] as u64;
                assert_eq!(next, expected, "rank {rank} move {m}");
            }
        }
    }
}
