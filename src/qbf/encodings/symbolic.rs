//! The lifted (LA, LN) and stateless (SA, SN) encodings of
//! Shaik, Mayer-Eichberger, van de Pol and Saffidine, *Implicit State and
//! Goals in QBF Encodings for Positional Games* (arXiv:2301.07345, 2023),
//! sections 3.2, 3.3, 4.3 and 4.4, as QCIR circuits. Moves and witness cells
//! are bit vectors. The lifted encodings check every move on one universal
//! symbolic cell P (Definitions 5-7); the stateless ones only compare moves
//! (Definition 8). Goals: explicit sets (LA, SA: G_win), or a witness path in
//! the neighbour graph with stutter steps on the end border (LN, SN:
//! Definition 9). Maker-breaker, Black first and last.

use crate::qbf::builder::Builder;
use crate::qbf::formula::{Circuit, Quantifier::*};
use crate::qbf::prepare::{Connection, Prepared};

/// How the board is checked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Board {
    /// Every move checked on one universal symbolic cell (LA, LN).
    Lifted,
    /// Moves only compared with each other (SA, SN).
    Stateless,
}

/// Which goal: explicit sets, or a path in the graph.
pub enum Goal<'a> {
    /// Black claims every cell of one of its winning sets (LA, SA).
    Sets,
    /// A witness path of black cells joins Black's borders (LN, SN).
    Path(&'a Connection),
}

/// The LA, LN, SA or SN circuit of `game`: true when Black wins within d moves.
/// Called by [`Encoding::encode`](super::Encoding::encode) once the game fits and is undecided.
pub fn encode(game: &Prepared, board: Board, goal: Goal) -> Circuit {
    let (n, depth, bits) = (game.n(), game.depth(), game.bits());
    let longest = (depth - 1) / 2;
    let mut b = Builder::new();
    let moves: Vec<Vec<i32>> = (1..=depth)
        .map(|t| b.vars(if t % 2 == 1 { Exists } else { Forall }, bits))
        .collect();
    let witness: Vec<Vec<i32>> = (0..=longest).map(|_| b.vars(Exists, bits)).collect();
    let mut conjuncts = Vec::new();

    // BR: Black's moves name cells of the board.
    for t in (0..depth).step_by(2) {
        let inside = b.less_than(&moves[t], n);
        conjuncts.push(inside);
    }
    if let Some(allowed) = &game.first_moves {
        let choices: Vec<i32> = allowed.iter().map(|&v| b.bin(&moves[0], v)).collect();
        let first = b.or(choices);
        conjuncts.push(first);
    }

    match board {
        Board::Lifted => {
            let position = b.vars(Forall, bits);
            // S^t = (o^t, w^t) for t = 1..=d+1, and N for paths.
            let state: Vec<(i32, i32)> = (0..=depth)
                .map(|_| (b.var(Exists), b.var(Exists)))
                .collect();
            let neighbour = matches!(goal, Goal::Path(_)).then(|| b.vars(Exists, bits));
            conjuncts.push(-state[0].0); // the board starts empty: not o^1
            for t in 0..depth {
                let ((o, w), (o_next, w_next)) = (state[t], state[t + 1]);
                let here = b.equal(&position, &moves[t]);
                let keep_w = b.iff(w, w_next);
                let keep_o = b.iff(o, o_next);
                let unchanged = b.and(vec![keep_w, keep_o]);
                if t % 2 == 0 {
                    // Definition 6: Black's cell was empty and turns black.
                    let claimed = b.and(vec![-o, -w_next, o_next]);
                    let first = b.implies(here, claimed);
                    let second = b.implies(-here, unchanged);
                    conjuncts.extend([first, second]);
                } else {
                    // Definition 7: White's cell turns white if it was empty.
                    let takes = b.and(vec![here, -o]);
                    let claimed = b.and(vec![w_next, o_next]);
                    let first = b.implies(takes, claimed);
                    let second = b.implies(-takes, unchanged);
                    conjuncts.extend([first, second]);
                }
            }
            // G_sb: the witness cells are black at the end.
            let (o_end, w_end) = state[depth];
            let on_witness: Vec<i32> = witness.iter().map(|w| b.equal(&position, w)).collect();
            let any = b.or(on_witness);
            let black_end = b.and(vec![-w_end, o_end]);
            let sb = b.implies(any, black_end);
            conjuncts.push(sb);
            match goal {
                Goal::Sets => {
                    let win = sets_goal(&mut b, game, &witness);
                    conjuncts.push(win);
                }
                Goal::Path(connection) => {
                    let neighbour = neighbour.unwrap();
                    let ends = border(&mut b, &witness, connection);
                    conjuncts.push(ends);
                    // bin(P, v) -> N names a neighbour of v. A cell with
                    // none (its neighbours all taken by White, or off the
                    // end border with no neighbour at all) cannot continue
                    // a path: no witness but the last names it. Writing the
                    // empty choice as false would instead make the whole
                    // formula false for P = v, whatever the path.
                    for v in 0..n {
                        let options: Vec<i32> = stutter(connection, v)
                            .into_iter()
                            .map(|w| b.bin(&neighbour, w))
                            .collect();
                        if options.is_empty() {
                            for w in &witness[..longest] {
                                let there = b.bin(w, v);
                                conjuncts.push(-there);
                            }
                            continue;
                        }
                        let at = b.bin(&position, v);
                        let some = b.or(options);
                        let link = b.implies(at, some);
                        conjuncts.push(link);
                    }
                    for i in 0..longest {
                        let at = b.equal(&witness[i], &position);
                        let next = b.equal(&witness[i + 1], &neighbour);
                        let link = b.implies(at, next);
                        conjuncts.push(link);
                    }
                }
            }
        }
        Board::Stateless => {
            // Black never plays a cell played before.
            for t in (0..depth).step_by(2) {
                for i in 0..t {
                    let same = b.equal(&moves[t], &moves[i]);
                    conjuncts.push(-same);
                }
            }
            // G_wb: every witness cell is one of Black's moves.
            for w in &witness {
                let options: Vec<i32> = (0..depth)
                    .step_by(2)
                    .map(|t| b.equal(w, &moves[t]))
                    .collect();
                let played = b.or(options);
                conjuncts.push(played);
            }
            match goal {
                Goal::Sets => {
                    let win = sets_goal(&mut b, game, &witness);
                    conjuncts.push(win);
                }
                Goal::Path(connection) => {
                    let ends = border(&mut b, &witness, connection);
                    conjuncts.push(ends);
                    for i in 0..longest {
                        for v in 0..n {
                            let at = b.bin(&witness[i], v);
                            let options: Vec<i32> = stutter(connection, v)
                                .into_iter()
                                .map(|w| b.bin(&witness[i + 1], w))
                                .collect();
                            let some = b.or(options);
                            let link = b.implies(at, some);
                            conjuncts.push(link);
                        }
                    }
                }
            }
        }
    }
    let output = b.and(conjuncts);
    b.into_circuit(output)
}

/// G_win (Definition 5): the witness spells one of Black's sets (sets
/// smaller than l + 1 leave the last witnesses free).
fn sets_goal(b: &mut Builder, game: &Prepared, witness: &[Vec<i32>]) -> i32 {
    let options: Vec<i32> = game
        .black_sets
        .iter()
        .filter(|set| set.len() <= witness.len())
        .map(|set| {
            let cells: Vec<i32> = set
                .iter()
                .enumerate()
                .map(|(i, &v)| b.bin(&witness[i], v))
                .collect();
            b.and(cells)
        })
        .collect();
    if options.is_empty() {
        b.falsity()
    } else {
        b.or(options)
    }
}

/// SC and TG (Definition 9): the path starts on the start border and its
/// last witness is on the end border.
fn border(b: &mut Builder, witness: &[Vec<i32>], connection: &Connection) -> i32 {
    let first: Vec<i32> = connection
        .start
        .iter()
        .map(|&v| b.bin(&witness[0], v))
        .collect();
    let last: Vec<i32> = connection
        .end
        .iter()
        .map(|&v| b.bin(witness.last().unwrap(), v))
        .collect();
    let source = if first.is_empty() {
        b.falsity()
    } else {
        b.or(first)
    };
    let target = if last.is_empty() {
        b.falsity()
    } else {
        b.or(last)
    };
    b.and(vec![source, target])
}

/// The neighbours of v, and v itself on the end border: paths shorter than
/// l + 1 cells repeat their last cell ("stutter steps", section 4.3).
fn stutter(connection: &Connection, v: usize) -> Vec<usize> {
    let mut next = connection.neighbours[v].clone();
    if connection.end.contains(&v) && !next.contains(&v) {
        next.push(v);
    }
    next
}
