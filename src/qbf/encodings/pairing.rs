//! The pairing encoding of Boucher and Villemaire, *Quantified Boolean Solving
//! for Achievement Games* (KI 2021, LNAI 12873), section 5, constraints
//! (10)-(35): a play of k moves in which White (existential) may stop the game
//! and pave the free cells with pairs so that every black winning set holds a
//! white stone or a whole pair. It is true exactly when White has such a
//! pair-paving blocking strategy, so it answers the opposite question: true
//! means Black cannot win (the game played to the end, maker-breaker); false
//! with k = all cells means Black wins. Black's moves are universal and
//! binary, White's are chosen by the ladder encoding; the paper's target
//! shapes at positions are here Black's winning sets, so any positional game
//! with explicit sets works.

use crate::qbf::builder::{Builder, spell};
use crate::qbf::formula::{Cnf, Quantifier::*};
use crate::qbf::prepare::Prepared;

/// The pairing formula of `game`: true when White has a pair-paving blocking strategy
/// within its d moves, so that Black cannot win.
pub fn encode(game: &Prepared) -> Cnf {
    let (n, k, bits) = (game.n(), game.depth(), game.bits());
    let mut b = Builder::new();
    let mut time = vec![b.var(Exists)]; // (10)
    let mut move_bits = vec![Vec::new()];
    let mut moved = vec![Vec::new()];
    let mut ladder = vec![Vec::new()];
    let mut black = vec![Vec::new()];
    let mut white = vec![Vec::new()];
    let mut occupied = vec![Vec::new()];
    // Turns 0..=k: turn 0 holds the empty board.
    black[0] = b.vars(Exists, n);
    white[0] = b.vars(Exists, n);
    occupied[0] = b.vars(Exists, n);
    for t in 1..=k {
        time.push(b.var(Exists)); // (11)
        move_bits.push(if t % 2 == 1 {
            b.vars(Forall, bits)
        } else {
            Vec::new()
        }); // (12)
        moved.push(b.vars(Exists, n)); // (13)
        ladder.push(b.vars(Exists, n));
        black.push(b.vars(Exists, n));
        white.push(b.vars(Exists, n));
        occupied.push(b.vars(Exists, n));
    }
    // (14): pairs inside some winning set (other pairs never cancel one),
    // and one "canceled" variable per winning set.
    let mut pairs = Vec::new();
    for x in 0..n {
        for y in x + 1..n {
            if game
                .black_sets
                .iter()
                .any(|set| set.contains(&x) && set.contains(&y))
            {
                pairs.push((x, y));
            }
        }
    }
    let pair: Vec<i32> = b.vars(Exists, pairs.len());
    let canceled: Vec<i32> = b.vars(Exists, game.black_sets.len());

    for v in 0..n {
        b.clause([-black[0][v]]); // (16)
        b.clause([-white[0][v]]);
        b.clause([-occupied[0][v]]);
    }
    for t in 1..=k {
        b.clause([time[t - 1], -time[t]]); // (15)
        let (player, other) = if t % 2 == 1 {
            (&black, &white)
        } else {
            (&white, &black)
        };
        for v in 0..n {
            b.clause([-black[t][v], -white[t][v]]); // (17)
            b.clause([-black[t - 1][v], black[t][v]]); // (18)
            b.clause([-white[t - 1][v], white[t][v]]);
            b.clause([time[t], black[t - 1][v], -black[t][v]]); // (19)
            b.clause([time[t], white[t - 1][v], -white[t][v]]);
            b.clause([-black[t][v], occupied[t][v]]); // (20)
            b.clause([-white[t][v], occupied[t][v]]);
            b.clause([-occupied[t][v], black[t][v], white[t][v]]); // (21)
            b.clause([time[t], -moved[t][v]]); // (22)
            b.clause([-occupied[t - 1][v], -moved[t][v]]); // (23)
            b.clause([-moved[t][v], player[t][v]]); // (24)
            b.clause([moved[t][v], player[t - 1][v], -player[t][v]]); // (26)
            b.clause([other[t - 1][v], -other[t][v]]);
        }
        if t % 2 == 1 {
            // (25): Black's bits name a free cell, which is then played;
            // the first black move only in the symmetry-breaking cells.
            let allowed: Vec<usize> = match (&game.first_moves, t) {
                (Some(cells), 1) => cells.clone(),
                _ => (0..n).collect(),
            };
            for v in allowed {
                let mut clause = vec![-time[t], occupied[t - 1][v]];
                clause.extend(spell(&move_bits[t], v).into_iter().map(|l| -l));
                clause.push(moved[t][v]);
                b.clause(clause);
            }
        }
        // (27)-(29): the ladder picks exactly one move while the game runs.
        for m in 0..n {
            if m + 1 < n {
                b.clause([-ladder[t][m], ladder[t][m + 1]]);
            }
            if m == 0 {
                b.clause([-ladder[t][0], moved[t][0]]);
            } else {
                b.clause([ladder[t][m - 1], -ladder[t][m], moved[t][m]]);
                b.clause([-moved[t][m], -ladder[t][m - 1]]);
            }
            b.clause([-moved[t][m], ladder[t][m]]);
        }
        b.clause([-time[t], ladder[t][n - 1]]);
    }
    // (30)-(35): the paving of free cells cancels every winning set.
    for (id, &(x, y)) in pairs.iter().enumerate() {
        b.clause([-pair[id], -occupied[k][x]]); // (30)
        b.clause([-pair[id], -occupied[k][y]]);
        for (other, &(u, w)) in pairs.iter().enumerate().skip(id + 1) {
            if u == x || u == y || w == x || w == y {
                b.clause([-pair[id], -pair[other]]); // (31)
            }
        }
    }
    for (s, set) in game.black_sets.iter().enumerate() {
        let inside: Vec<usize> = (0..pairs.len())
            .filter(|&id| set.contains(&pairs[id].0) && set.contains(&pairs[id].1))
            .collect();
        for &id in &inside {
            b.clause([-pair[id], canceled[s]]); // (32)
        }
        for &v in set {
            b.clause([-white[k][v], canceled[s]]); // (33)
        }
        let mut clause = vec![-canceled[s]];
        clause.extend(set.iter().map(|&v| white[k][v]));
        clause.extend(inside.iter().map(|&id| pair[id]));
        b.clause(clause); // (34)
        b.clause([canceled[s]]); // (35)
    }
    b.into_cnf()
}
