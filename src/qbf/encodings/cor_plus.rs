//! The Corrective+ encoding (COR+) of Mayer-Eichberger and Saffidine,
//! *Positional Games and QBF: A Polished Encoding* (arXiv:2005.05098, 2021),
//! section 3.2, clauses (1)-(13), with the extensions of section 3.3 (initial
//! positions are removed beforehand, first-move symmetry breaking). It handles
//! any turn order and maker-maker games.

use crate::games::positional::Side;
use crate::qbf::builder::Builder;
use crate::qbf::formula::{Cnf, Quantifier::*};
use crate::qbf::prepare::Prepared;

/// The COR+ formula of `game`: true when Black wins within its time points. Called by
/// [`Encoding::encode`](super::Encoding::encode) once the game fits and is undecided.
pub fn encode(game: &Prepared) -> Cnf {
    let (n, depth, bits) = (game.n(), game.depth(), game.bits());
    let mut b = Builder::new();
    // Level 0: the empty board, fixed by the unit clauses (2).
    let board_zero: Vec<[i32; 2]> = (0..n).map(|_| [b.var(Exists), b.var(Exists)]).collect();
    let mut time = Vec::new();
    let mut moves = Vec::new();
    let mut board = vec![board_zero];
    for t in 1..=depth {
        time.push(b.var(Exists));
        let quantifier = if game.turns[t - 1] == Side::White {
            Forall
        } else {
            Exists
        };
        moves.push(b.vars(quantifier, bits));
        let cells: Vec<[i32; 2]> = (0..n).map(|_| [b.var(Exists), b.var(Exists)]).collect();
        board.push(cells);
    }
    let win: Vec<i32> = (0..game.black_sets.len()).map(|_| b.var(Exists)).collect();
    const BLACK: usize = 0;
    const WHITE: usize = 1;

    for cell in &board[0] {
        b.clause([-cell[BLACK]]); // (2)
        b.clause([-cell[WHITE]]);
    }
    for t in 1..=depth {
        let time_t = time[t - 1];
        if t >= 2 {
            b.clause([-time_t, time[t - 2]]); // (1)
        }
        let mover = game.turns[t - 1];
        for (v, (&now, &before)) in board[t].iter().zip(&board[t - 1]).enumerate() {
            b.clause([-now[BLACK], -now[WHITE]]); // (3)
            for a in [BLACK, WHITE] {
                b.clause([-before[a], now[a]]); // (4)
                let a_moves = (a == BLACK) == (mover == Side::Black);
                if !a_moves {
                    b.clause([before[a], -now[a]]); // (5)
                }
                b.clause([time_t, before[a], -now[a]]); // (6)
            }
            let bit = |i: usize| v >> i & 1 == 1;
            match mover {
                Side::White => {
                    // (7): the game runs, v is empty, White's bits name v.
                    let mut clause: Vec<i32> = (0..bits)
                        .map(|i| {
                            if bit(i) {
                                -moves[t - 1][i]
                            } else {
                                moves[t - 1][i]
                            }
                        })
                        .collect();
                    clause.extend([-time_t, before[BLACK], now[WHITE]]);
                    b.clause(clause);
                }
                Side::Black => {
                    // (8)-(9): a new black stone on v fixes the move's bits.
                    for (i, &move_bit) in moves[t - 1].iter().enumerate() {
                        let literal = if bit(i) { move_bit } else { -move_bit };
                        b.clause([before[BLACK], -now[BLACK], literal]);
                    }
                }
            }
        }
    }
    // First-move symmetry breaking: Black's opening stone in the allowed
    // cells (`prepare` keeps the restriction only when Black opens).
    if let Some(allowed) = &game.first_moves {
        for v in (0..n).filter(|v| !allowed.contains(v)) {
            b.clause([board[0][v][BLACK], -board[1][v][BLACK]]);
        }
    }
    let last = &board[depth];
    b.clause(win.iter().copied()); // (10)
    for (set, &w) in game.black_sets.iter().zip(&win) {
        for &v in set {
            b.clause([-w, last[v][BLACK]]); // (11)
        }
        let mut clause = vec![w];
        clause.extend(set.iter().map(|&v| -last[v][BLACK]));
        b.clause(clause); // (13)
    }
    for set in &game.white_sets {
        b.clause(set.iter().map(|&v| -last[v][WHITE])); // (12)
    }
    b.into_cnf()
}
