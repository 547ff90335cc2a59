//! The explicit-board encodings of Shaik, Mayer-Eichberger, van de Pol and
//! Saffidine, *Implicit State and Goals in QBF Encodings for Positional Games*
//! (arXiv:2301.07345, 2023): boards kept after Black's moves only, moves
//! encoded in binary (section 3.1, equations (1)-(6)), with three goals: EA,
//! explicit winning sets (7)-(9); EN, a witness path in the neighbour graph
//! (10)-(14); ET, no White path in the transversal game (15)-(18).
//! Maker-breaker, Black first and last.

use crate::qbf::builder::{Builder, spell};
use crate::qbf::formula::{Cnf, Quantifier::*};
use crate::qbf::prepare::{Connection, Prepared};

/// Which goal follows the board.
pub enum Goal<'a> {
    /// EA: one of the black sets is black at the end.
    Sets,
    /// EN: a path of at most l + 1 black cells joins the borders.
    Path(&'a Connection),
    /// ET: no path of non-black cells joins White's borders.
    Transversal(&'a Connection),
}

/// The EA, EN or ET formula of `game` with `goal`: true when Black wins within d moves.
/// Called by [`Encoding::encode`](super::Encoding::encode) once the game fits and is undecided.
pub fn encode(game: &Prepared, goal: Goal) -> Cnf {
    let (n, depth, bits) = (game.n(), game.depth(), game.bits());
    let mut b = Builder::new();
    // (1): moves M^t, and the board P^t = {b_v^t, w_v^t} after black moves.
    let mut moves: Vec<Vec<i32>> = Vec::new();
    let mut black: Vec<Option<Vec<i32>>> = vec![None; depth + 1];
    let mut white: Vec<Option<Vec<i32>>> = vec![None; depth + 1];
    for t in 1..=depth {
        if t % 2 == 1 {
            moves.push(b.vars(Exists, bits));
            black[t] = Some(b.vars(Exists, n));
            white[t] = Some(b.vars(Exists, n));
        } else {
            moves.push(b.vars(Forall, bits));
        }
    }
    for t in (1..=depth).step_by(2) {
        let (now_b, now_w) = (black[t].clone().unwrap(), white[t].clone().unwrap());
        let before =
            (t >= 3).then(|| (black[t - 2].clone().unwrap(), white[t - 2].clone().unwrap()));
        for v in 0..n {
            if let Some((before_b, before_w)) = &before {
                b.clause([-before_w[v], now_w[v]]); // (2)
                // (3): White's move at t-1 names v, and v was not black.
                let mut clause: Vec<i32> =
                    spell(&moves[t - 2], v).into_iter().map(|l| -l).collect();
                clause.extend([before_b[v], now_w[v]]);
                b.clause(clause);
            }
            b.clause([-now_w[v], -now_b[v]]); // (4)
            for (j, &move_bit) in moves[t - 1].iter().enumerate() {
                // (5)/(6): a new black stone needs every bit of the move to match v.
                let disagree = if v >> j & 1 == 1 { -move_bit } else { move_bit };
                let mut clause = vec![-disagree, -now_b[v]];
                if let Some((before_b, _)) = &before {
                    clause.insert(1, before_b[v]);
                }
                b.clause(clause);
            }
        }
    }
    if let Some(allowed) = &game.first_moves {
        let first = black[1].clone().unwrap();
        for v in (0..n).filter(|v| !allowed.contains(v)) {
            b.clause([-first[v]]);
        }
    }
    let last = black[depth].clone().unwrap();
    let longest = (depth - 1) / 2; // l: a witness has at most l + 1 cells
    match goal {
        Goal::Sets => {
            let h: Vec<i32> = b.vars(Exists, game.black_sets.len()); // (7)
            b.clause(h.iter().copied()); // (8)
            for (set, &h) in game.black_sets.iter().zip(&h) {
                for &v in set {
                    b.clause([-h, last[v]]); // (9)
                }
            }
        }
        Goal::Path(connection) => {
            // (10): p[i][v], v is the i-th cell of the witness path.
            let p: Vec<Vec<i32>> = (0..=longest).map(|_| b.vars(Exists, n)).collect();
            let is_end = |v: usize| connection.end.contains(&v);
            for i in 0..=longest {
                for v in 0..n {
                    b.clause([-p[i][v], last[v]]); // (11)
                    if !is_end(v) {
                        if i < longest {
                            let mut clause = vec![-p[i][v]];
                            clause.extend(connection.neighbours[v].iter().map(|&w| p[i + 1][w]));
                            b.clause(clause); // (13)
                        } else {
                            b.clause([-p[i][v]]); // (14)
                        }
                    }
                }
            }
            b.clause(connection.start.iter().map(|&v| p[0][v])); // (12)
        }
        Goal::Transversal(connection) => {
            let r: Vec<i32> = b.vars(Exists, n); // (15)
            for &v in &connection.start {
                b.clause([last[v], r[v]]); // (16)
            }
            for v in 0..n {
                for &w in &connection.neighbours[v] {
                    b.clause([-r[v], last[w], r[w]]); // (17)
                }
            }
            for &v in &connection.end {
                b.clause([-r[v]]); // (18)
            }
        }
    }
    b.into_cnf()
}
