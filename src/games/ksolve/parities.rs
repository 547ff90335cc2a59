//! The parity invariants the moves of a puzzle keep, found over GF(2):
//! the permutation coordinates whose parity follows from others' (and is
//! folded out of the index), and a sum of parities that every move
//! changes (the alternation digit of the move-alternation property).

use super::coordinate::{Coordinate, Kind, LocalMove, Parity};
use crate::hash::permutation::is_odd;

/// Row-reduces `rows` over GF(2) on bits `0..columns`: the pivots (bit,
/// row) in reduced echelon form and the rows left without a pivot.
fn row_reduce(mut rows: Vec<u64>, columns: usize) -> (Vec<(usize, u64)>, Vec<u64>) {
    let mut pivots: Vec<(usize, u64)> = Vec::new();
    for bit in 0..columns {
        let Some(at) = rows.iter().position(|&row| row >> bit & 1 == 1) else {
            continue;
        };
        let pivot = rows.swap_remove(at);
        for row in rows.iter_mut().chain(pivots.iter_mut().map(|(_, r)| r)) {
            if *row >> bit & 1 == 1 {
                *row ^= pivot;
            }
        }
        pivots.push((bit, pivot));
    }
    (pivots, rows)
}

/// The permutation coordinates that take part in the parity algebra (at
/// most 63: a row of bits holds them and one more).
fn permutation_coordinates(coordinates: &[Coordinate]) -> Vec<usize> {
    (0..coordinates.len())
        .filter(|&j| matches!(coordinates[j].kind, Kind::Permutation))
        .take(63)
        .collect()
}

/// The parity invariants: row-reduces the moves' parity vectors over the
/// permutation coordinates (GF(2)); each coordinate that is not a pivot
/// gets the rule its parity follows.
pub(super) fn fold_parities(coordinates: &mut [Coordinate]) {
    let permutations = permutation_coordinates(coordinates);
    if permutations.is_empty() {
        return;
    }
    let (pivots, _) = row_reduce(
        move_parities(coordinates, &permutations),
        permutations.len(),
    );
    for (bit, &j) in permutations.iter().enumerate() {
        if pivots.iter().any(|&(p, _)| p == bit) {
            continue;
        }
        let from: Vec<usize> = pivots
            .iter()
            .filter(|&&(_, row)| row >> bit & 1 == 1)
            .map(|&(p, _)| permutations[p])
            .collect();
        let c = &mut coordinates[j];
        c.parity = Parity::Follows {
            solved: c.solved_parity,
            from,
        };
        c.radix = c.values / 2;
    }
}

/// The parities of the permutation coordinates relative to solved, as
/// bits, for each move.
fn move_parities(coordinates: &[Coordinate], permutations: &[usize]) -> Vec<u64> {
    let moves = coordinates[permutations[0]].moves.len();
    (0..moves)
        .map(|m| {
            permutations
                .iter()
                .enumerate()
                .fold(0u64, |row, (bit, &j)| {
                    row | (is_odd(&coordinates[j].moves[m].from) as u64) << bit
                })
        })
        .collect()
}

/// Looks for a sum of permutation parities that every move changes (the
/// quarter turns of a cube all change the corners'): solves c . v_m = 1
/// over GF(2) for the moves' parity vectors v_m. When there is one, adds
/// the [`Kind::Alternation`] coordinate as the most significant and lets
/// one free coordinate in the sum follow from it; returns the sum's
/// coordinates.
pub(super) fn add_alternation(coordinates: &mut Vec<Coordinate>) -> Option<Vec<usize>> {
    let permutations = permutation_coordinates(coordinates);
    if permutations.is_empty() {
        return None;
    }
    let columns = permutations.len();
    // Rows [v_m | 1]: eliminate, then read a solution off the pivots.
    let rows = move_parities(coordinates, &permutations)
        .into_iter()
        .map(|row| row | 1 << columns)
        .collect();
    let (pivots, rows) = row_reduce(rows, columns);
    // A remaining row 0 = 1: no sum changes with every move.
    if rows.iter().any(|&row| row == 1 << columns) {
        return None;
    }
    let sum: Vec<usize> = pivots
        .iter()
        .filter(|&&(_, row)| row >> columns & 1 == 1)
        .map(|&(bit, _)| permutations[bit])
        .collect();
    // The sum as parities of free coordinates: a coordinate that follows
    // stands for the free ones it follows.
    let mut in_free = vec![false; coordinates.len()];
    for &j in &sum {
        match &coordinates[j].parity {
            Parity::Free => in_free[j] ^= true,
            Parity::Follows { from, .. } => {
                for &f in from {
                    in_free[f] ^= true;
                }
            }
        }
    }
    let follower = (0..coordinates.len()).find(|&j| in_free[j])?;
    // Indices shift by one: the alternation goes first.
    let shift = |j: usize| j + 1;
    for c in coordinates.iter_mut() {
        if let Parity::Follows { from, .. } = &mut c.parity {
            for f in from.iter_mut() {
                *f = shift(*f);
            }
        }
    }
    let others: Vec<usize> = (0..coordinates.len())
        .filter(|&j| in_free[j] && j != follower)
        .map(shift)
        .collect();
    {
        let c = &mut coordinates[follower];
        c.parity = Parity::Follows {
            solved: c.solved_parity,
            from: std::iter::once(0).chain(others).collect(),
        };
        c.radix = c.values / 2;
    }
    let moves = coordinates[0].moves.len();
    coordinates.insert(
        0,
        Coordinate {
            set: 0,
            slots: Vec::new(),
            kind: Kind::Alternation,
            values: 2,
            radix: 2,
            parity: Parity::Free,
            solved_parity: false,
            code_of_label: Vec::new(),
            label_of_code: Vec::new(),
            moves: vec![
                LocalMove {
                    from: Vec::new(),
                    twist: Vec::new()
                };
                moves
            ],
            table: None,
            parities: None,
            by_piece: false,
            split: None,
        },
    );
    Some(sum.into_iter().map(shift).collect())
}
