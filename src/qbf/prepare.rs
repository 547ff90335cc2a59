//! Turning a positional game and a query into the board every encoding
//! works on: stones already placed are taken out (the COR+ paper's
//! extension for initial positions; for Hex the contraction into
//! Generalized Hex of the implicit-goals paper, section 4.1), and,
//! optionally, the other preprocessing of that section and first-move
//! symmetry breaking.

use crate::error::{Error, Result};
use crate::games::positional::{PositionalGame, Query, Side, mask_of};

/// Which of section 4.1's reductions to apply (stone removal is always done).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Preprocessing {
    /// Drop winning sets with more cells than Black has moves, and sets
    /// that contain another set.
    pub prune_sets: bool,
    /// Drop cells in no remaining winning set (maker-breaker with explicit
    /// sets): they may as well be White's.
    pub drop_useless_cells: bool,
    /// Restrict the game's first move to its symmetry-breaking cells.
    pub symmetry_breaking: bool,
}

/// A neighbour relation on the remaining cells with two borders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connection {
    /// Each cell's neighbours, by cell index.
    pub neighbours: Vec<Vec<usize>>,
    /// The cells on the first border.
    pub start: Vec<usize>,
    /// The cells on the second border.
    pub end: Vec<usize>,
}

/// The board the encodings see: cells 0..n, no stones on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    /// The free cells' names: cell i of the encodings is `cells[i]`.
    pub cells: Vec<String>,
    /// Black's winning sets less the black stones (sets holding a white stone dropped).
    pub black_sets: Vec<Vec<usize>>,
    /// White's winning sets less the white stones (sets holding a black stone dropped).
    pub white_sets: Vec<Vec<usize>>,
    /// Black's goal as a connection (Generalized Hex after contracting the
    /// black stones), when the game has a graph.
    pub black_connection: Option<Connection>,
    /// White's connection game after contracting the white stones, for the
    /// transversal goal (ET): Black wins exactly when White cannot connect.
    pub white_connection: Option<Connection>,
    /// The side to move at each time point (at most one per free cell).
    pub turns: Vec<Side>,
    /// Cells Black's first move may take, when symmetry breaking restricts it.
    pub first_moves: Option<Vec<usize>>,
    /// Settled before any move: Black has already won (true) or can no
    /// longer win (false).
    pub decided: Option<bool>,
}

impl Prepared {
    /// The number of cells n.
    pub fn n(&self) -> usize {
        self.cells.len()
    }

    /// The number of time points d.
    pub fn depth(&self) -> usize {
        self.turns.len()
    }

    /// Whether White has winning sets of its own (a maker-maker game).
    pub fn is_maker_maker(&self) -> bool {
        !self.white_sets.is_empty()
    }

    /// Number of bits of a cell index (at least one).
    pub fn bits(&self) -> usize {
        bits_for(self.n())
    }

    /// The number of time points at which Black moves.
    pub fn black_moves(&self) -> usize {
        self.turns.iter().filter(|&&s| s == Side::Black).count()
    }

    /// True for Black first, alternating, Black last (odd d): the setting
    /// of the implicit-goals paper's encodings.
    pub fn standard_turns(&self) -> bool {
        self.depth() % 2 == 1
            && Query {
                turns: self.turns.clone(),
            }
            .is_standard()
    }
}

/// ceil(log2 n), at least 1.
pub(crate) fn bits_for(n: usize) -> usize {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1) as usize
}

/// Contracts the stones of one player into a connection game on the free
/// cells: the player's stones vanish, their neighbourhoods becoming cliques
/// (a border stone hands its border to its neighbours), and the opponent's
/// stones are deleted. Returns `None` when the stones already connect.
fn contract(
    neighbours: &[Vec<usize>],
    start: &[usize],
    end: &[usize],
    own: u64,
    opponent: u64,
    free: &[usize],
) -> Option<Connection> {
    let n = neighbours.len();
    let mut adjacency: Vec<u64> = neighbours.iter().map(|list| mask_of(list)).collect();
    let (mut start, mut end) = (mask_of(start), mask_of(end));
    for cell in (0..n).filter(|&c| own >> c & 1 == 1) {
        let around = adjacency[cell] & !(1 << cell);
        if start >> cell & 1 == 1 && end >> cell & 1 == 1 {
            return None;
        }
        if start >> cell & 1 == 1 {
            start |= around;
        }
        if end >> cell & 1 == 1 {
            end |= around;
        }
        for other in (0..n).filter(|&o| around >> o & 1 == 1) {
            adjacency[other] |= around;
            adjacency[other] &= !(1 << other) & !(1 << cell);
        }
        adjacency[cell] = 0;
        start &= !(1 << cell);
        end &= !(1 << cell);
    }
    let keep = !(own | opponent);
    let index_of = |cell: usize| free.iter().position(|&f| f == cell);
    let relabel = |mask: u64| -> Vec<usize> {
        (0..n)
            .filter(|&c| (mask & keep) >> c & 1 == 1)
            .filter_map(index_of)
            .collect()
    };
    Some(Connection {
        neighbours: free.iter().map(|&cell| relabel(adjacency[cell])).collect(),
        start: relabel(start),
        end: relabel(end),
    })
}

/// Drops sets that contain another set.
fn minimal(sets: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    let masks: Vec<u64> = sets.iter().map(|s| mask_of(s)).collect();
    sets.into_iter()
        .enumerate()
        .filter(|&(i, _)| {
            !masks
                .iter()
                .enumerate()
                .any(|(j, &m)| j != i && m & !masks[i] == 0 && (m != masks[i] || j < i))
        })
        .map(|(_, set)| set)
        .collect()
}

/// The board the encodings see for `game` under `query`, reduced as `options` asks;
/// errors when the game is malformed or the depth is 0.
pub fn prepare(game: &PositionalGame, query: &Query, options: Preprocessing) -> Result<Prepared> {
    game.validate()?;
    if query.depth() == 0 {
        return Err(Error::InvalidParameter(
            "the depth must be at least 1".into(),
        ));
    }
    let black = mask_of(&game.black_stones);
    let white = mask_of(&game.white_stones);
    let mut free = game.free_cells();
    let mut turns = query.turns.clone();
    turns.truncate(free.len().max(1));
    let relabel_sets =
        |sets: &[Vec<usize>], own: u64, opponent: u64, free: &[usize]| -> (Vec<Vec<usize>>, bool) {
            let mut already = false;
            let mut kept = Vec::new();
            for set in sets {
                let mask = mask_of(set);
                if mask & opponent != 0 {
                    continue;
                }
                let rest: Vec<usize> = set
                    .iter()
                    .filter(|&&c| own >> c & 1 == 0)
                    .map(|&c| free.iter().position(|&f| f == c).unwrap())
                    .collect();
                if rest.is_empty() {
                    already = true;
                }
                kept.push(rest);
            }
            (kept, already)
        };
    let (mut black_sets, black_done) = relabel_sets(&game.black_wins, black, white, &free);
    let (white_sets, white_done) = relabel_sets(&game.white_wins, white, black, &free);
    let mut decided = if black_done {
        Some(true)
    } else if white_done {
        Some(false)
    } else {
        None
    };

    let (mut black_connection, mut white_connection) = (None, None);
    if let Some(graph) = &game.graph {
        black_connection = contract(
            &graph.neighbours,
            &graph.start,
            &graph.end,
            black,
            white,
            &free,
        );
        if black_connection.is_none() {
            decided = Some(true);
        }
        white_connection = contract(
            &graph.neighbours,
            &graph.white_start,
            &graph.white_end,
            white,
            black,
            &free,
        );
        if white_connection.is_none() {
            decided.get_or_insert(false);
        }
    }

    let black_moves = turns.iter().filter(|&&s| s == Side::Black).count();
    if options.prune_sets {
        black_sets.retain(|set| set.len() <= black_moves);
        black_sets = minimal(black_sets);
    }
    let mut cells: Vec<String> = free.iter().map(|&c| game.cells[c].clone()).collect();
    // Only Black's choices can be restricted by clauses: Black's moves are
    // existential. A restriction of White's (universal) opening would make
    // every other opening falsify the formula, so then it is left out.
    let black_opens = turns.first() == Some(&Side::Black);
    let mut first_moves = if options.symmetry_breaking && black_opens {
        game.first_move_restriction()
            .map(|allowed| {
                let allowed = mask_of(allowed);
                (0..free.len())
                    .filter(|&i| allowed >> free[i] & 1 == 1)
                    .collect::<Vec<_>>()
            })
            // Cells all taken by stones restrict nothing, as for the
            // exhaustive solver.
            .filter(|cells| !cells.is_empty())
    } else {
        None
    };

    if options.drop_useless_cells && white_sets.is_empty() && game.graph.is_none() {
        let used = black_sets.iter().fold(0u64, |acc, set| acc | mask_of(set));
        let keep: Vec<usize> = (0..cells.len()).filter(|&i| used >> i & 1 == 1).collect();
        let new_index = |old: usize| keep.iter().position(|&k| k == old).unwrap();
        black_sets = black_sets
            .iter()
            .map(|set| set.iter().map(|&c| new_index(c)).collect())
            .collect();
        cells = keep.iter().map(|&i| cells[i].clone()).collect();
        free = keep.iter().map(|&i| free[i]).collect();
        first_moves = first_moves.map(|cells| {
            cells
                .into_iter()
                .filter(|c| used >> c & 1 == 1)
                .map(new_index)
                .collect()
        });
    }
    if black_sets.is_empty() && black_connection.is_none() && decided.is_none() {
        decided = Some(false);
    }
    let _ = free;
    Ok(Prepared {
        cells,
        black_sets,
        white_sets,
        black_connection,
        white_connection,
        turns,
        first_moves,
        decided,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::positional::builtins::{hex, tic_tac_toe};

    #[test]
    fn bits_for_cell_indices() {
        assert_eq!(
            [
                bits_for(1),
                bits_for(2),
                bits_for(3),
                bits_for(8),
                bits_for(9)
            ],
            [1, 1, 2, 3, 4]
        );
    }

    #[test]
    fn stones_leave_the_board() {
        let game = tic_tac_toe(3, 3, 3, false)
            .unwrap()
            .with_position("X.. .O. ...")
            .unwrap();
        let prepared = prepare(&game, &Query::alternating(5), Preprocessing::default()).unwrap();
        assert_eq!(prepared.n(), 7);
        // Lines through the white centre are gone; lines through a1 lost it.
        assert_eq!(prepared.black_sets.len(), 4);
        assert!(prepared.black_sets.iter().any(|s| s.len() == 2));
    }

    #[test]
    fn hex_contraction_joins_borders_through_black_stones() {
        // 2x2 with Black on a1: a1 was on the top border, so b1 (top) and
        // a2 (its neighbours) are on it now, and a2 is on the bottom.
        let game = hex(2, false).unwrap().with_position("X. ..").unwrap();
        let prepared = prepare(&game, &Query::alternating(1), Preprocessing::default()).unwrap();
        let connection = prepared.black_connection.unwrap();
        assert_eq!(prepared.cells, vec!["b1", "a2", "b2"]);
        assert!(connection.start.contains(&1) && connection.end.contains(&1));
        let filled = hex(2, false).unwrap().with_position("X. X.").unwrap();
        assert_eq!(
            prepare(&filled, &Query::alternating(1), Preprocessing::default())
                .unwrap()
                .decided,
            Some(true)
        );
    }
}
