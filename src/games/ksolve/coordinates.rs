//! The perfect hash of a puzzle definition: a position as a few
//! independent *coordinates*, combined in mixed radix.
//!
//! The moves split each set's slots into orbits (slots a piece can travel
//! between). Each orbit has an arrangement coordinate — a Lehmer rank of
//! the permutation when its pieces all differ (see `permutation_value`),
//! the games' shared multinomial rank of the colours when some look alike
//! ([`ColourSetRanker`], nested colour sets) — and, when
//! its pieces have orientations, an orientation coordinate (the slots'
//! orientations as digits). Because a definition's orientations belong to
//! slots, a move acts on each coordinate alone: the arrangement after a
//! move depends only on the arrangement before, and the orientations only
//! on the orientations. So a coordinate whose values are few gets a table
//! of its value after each move, and expanding a position is a lookup per
//! coordinate and move.
//!
//! Invariants every move keeps are folded out of the index, found from the
//! moves themselves:
//! - an orbit whose moves all keep the orientation sum stores one digit
//!   fewer (the last follows from the sum in the solved state);
//! - the permutation parities of the orbits with distinct pieces span a
//!   subspace of GF(2)^orbits under the moves; each parity outside that
//!   span's pivots follows from the pivots' (an orbit whose moves are all
//!   even, or two orbits whose parities always change together, as the
//!   corners and edges of a cube), and that orbit stores its folded rank,
//!   half as many values (the n!/2 fold, Theorem 7 of Edelkamp et al.,
//!   *Solving Games in Parallel with Linear-Time Perfect Hash Functions*,
//!   2009, here on the prefix Lehmer code).
//!
//! One coordinate, its values and its moves, is `coordinate`'s; the parity
//! algebra over the moves, `parities`'s; the tables' budgets, `limits`'s.

use rayon::prelude::*;

use super::coordinate::permutation_cells;
use super::definition::{self, Definition, NamedMove, SetState};
use super::parities::{add_alternation, fold_parities};
use super::split::SplitTables;
use crate::error::{Error, Result, quoted};
use crate::hash::colour_sets::ColourSetRanker;
use crate::hash::permutation::is_odd;

pub use super::coordinate::{Coordinate, Kind, LocalMove, Parity};
pub use super::limits::{
    MAX_GROUP_TABLES_BYTES, MAX_GROUP_VALUES, MAX_TABLE_ENTRIES, MAX_TABLES_BYTES,
};

/// Whether a coordinate of `values` values under `moves` moves gets a move
/// table.
fn fits_a_table(values: u64, moves: usize) -> bool {
    values <= u32::MAX as u64 && values.saturating_mul(moves as u64) <= MAX_TABLE_ENTRIES
}

/// `n!`, or `None` past u64.
fn factorial(n: usize) -> Option<u64> {
    (1..=n as u64).try_fold(1u64, |f, k| f.checked_mul(k))
}

/// Orbits of a set's slots under the moves (union-find over `i -- from[i]`).
fn orbits(pieces: usize, set: usize, moves: &[NamedMove]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..pieces).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for named in moves {
        for (slot, &from) in named.transform.sets[set].from.iter().enumerate() {
            let (a, b) = (root(&mut parent, slot), root(&mut parent, from as usize));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of_root = vec![usize::MAX; pieces];
    for slot in 0..pieces {
        let r = root(&mut parent, slot);
        if group_of_root[r] == usize::MAX {
            group_of_root[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[group_of_root[r]].push(slot);
    }
    groups
}

/// Consecutive coordinates whose digits the expansion reads from one
/// table: small unfolded coordinates merged (a pyraminx's eight tips and
/// centres, 3 values each, become one of 6561), any other alone.
#[derive(Clone, Debug)]
pub struct Group {
    /// The coordinates, consecutive in the index.
    pub members: std::ops::Range<usize>,
    /// Each member's weight in the group's value.
    pub inner_weights: Vec<u64>,
    /// The group's weight in the index (its last member's).
    pub weight: u64,
    /// `table[g * moves + m]`: the index digits of the group's members
    /// after move `m`, combined as the index combines them.
    pub table: Vec<u32>,
}

/// The whole hash: coordinates, most significant first.
#[derive(Clone, Debug)]
pub struct Coordinates {
    /// The coordinates, most significant first.
    pub coordinates: Vec<Coordinate>,
    /// The product of all `values`, as a float (it may exceed u64).
    pub product_space: f64,
    /// The index's size: the product of the radices.
    pub size: u64,
    /// Each coordinate's weight in the index: the product of the radices
    /// after it.
    pub weights: Vec<u64>,
    /// The coordinates whose parity follows, in an order where each comes
    /// after those it follows.
    pub unfold_order: Vec<usize>,
    /// With an [`Kind::Alternation`] coordinate: the permutation
    /// coordinates whose parities (relative to solved) sum to it.
    pub alternating: Option<Vec<usize>>,
}

impl Coordinates {
    /// The hash of `definition` under `moves` (the search's moves, powers
    /// included), with its move tables built.
    pub fn new(definition: &Definition, moves: &[NamedMove], file: &str) -> Result<Self> {
        let mut built = Coordinates::layout(definition, moves, file)?;
        built.build_tables(file)?;
        Ok(built)
    }

    /// The coordinates, their sizes and folds without the move tables.
    /// Everything it decides (orbits, twists that keep their sum, parities
    /// that follow one another) holds for the powers of moves when it
    /// holds for the moves, so under a definition's listed moves alone it
    /// finds the same layout: the cheap check that refuses a space too
    /// large before the powers of its moves are made.
    pub fn layout(definition: &Definition, moves: &[NamedMove], file: &str) -> Result<Self> {
        let mut coordinates = Vec::new();
        for (set_index, set) in definition.sets.iter().enumerate() {
            let solved = &definition.solved[set_index];
            for slots in orbits(set.pieces, set_index, moves) {
                // An orbit of alike, unturnable pieces has one arrangement:
                // no coordinate (and no copy of every move for it).
                let alike = slots
                    .iter()
                    .all(|&slot| solved.labels[slot] == solved.labels[slots[0]]);
                if alike && set.orientations == 1 {
                    continue;
                }
                let local_moves: Vec<LocalMove> = moves
                    .iter()
                    .map(|named| {
                        let part = &named.transform.sets[set_index];
                        LocalMove {
                            from: slots
                                .iter()
                                .map(|&slot| {
                                    let from = part.from[slot] as usize;
                                    slots.binary_search(&from).expect("a move keeps an orbit") as u8
                                })
                                .collect(),
                            twist: slots.iter().map(|&slot| part.twist[slot]).collect(),
                        }
                    })
                    .collect();
                let mut labels: Vec<u8> = slots.iter().map(|&slot| solved.labels[slot]).collect();
                labels.sort_unstable();
                let mut distinct = labels.clone();
                distinct.dedup();
                let mut code_of_label = vec![u8::MAX; set.pieces];
                for (code, &label) in distinct.iter().enumerate() {
                    code_of_label[label as usize] = code as u8;
                }
                let base = Coordinate {
                    set: set_index,
                    slots: slots.clone(),
                    kind: Kind::Permutation,
                    values: 1,
                    radix: 1,
                    parity: Parity::Free,
                    solved_parity: false,
                    code_of_label,
                    label_of_code: distinct.clone(),
                    moves: local_moves.clone(),
                    table: None,
                    parities: None,
                    by_piece: false,
                    split: None,
                };
                let k = slots.len();
                if distinct.len() == k && k >= 2 {
                    let values = factorial(k).filter(|_| k <= crate::hash::permutation::MAX_PERMUTATION_LEN).ok_or_else(|| {
                        Error::SpaceTooLarge(format!(
                            "{file}: an orbit of {k} distinct pieces of set {} has more than 20! arrangements",
                            quoted(&set.name)
                        ))
                    })?;
                    let codes: Vec<u8> = slots
                        .iter()
                        .map(|&s| base.code_of_label[solved.labels[s] as usize])
                        .collect();
                    coordinates.push(Coordinate {
                        values,
                        radix: values,
                        solved_parity: is_odd(&codes),
                        by_piece: !fits_a_table(values, moves.len()),
                        ..base.clone()
                    });
                } else if distinct.len() >= 2 {
                    let counts: Vec<u8> = distinct
                        .iter()
                        .map(|&label| labels.iter().filter(|&&l| l == label).count() as u8)
                        .collect();
                    let ranker = ColourSetRanker::new(&counts).map_err(|error| {
                        Error::SpaceTooLarge(format!("{file}: set {}: {error}", quoted(&set.name)))
                    })?;
                    let values = ranker.size();
                    coordinates.push(Coordinate {
                        kind: Kind::Multiset(ranker),
                        values,
                        radix: values,
                        ..base.clone()
                    });
                }
                if set.orientations > 1 {
                    let o = set.orientations;
                    let keeps_sum = local_moves
                        .iter()
                        .all(|m| m.twist.iter().map(|&t| t as u64).sum::<u64>() % o as u64 == 0);
                    let implied_sum = keeps_sum.then(|| {
                        (slots
                            .iter()
                            .map(|&s| solved.orientations[s] as u64)
                            .sum::<u64>()
                            % o as u64) as u8
                    });
                    let digits = k - keeps_sum as usize;
                    let values = (o as u64).checked_pow(digits as u32).ok_or_else(|| {
                        Error::SpaceTooLarge(format!(
                            "{file}: the orientations of set {} ({o}^{digits}) do not fit a 64-bit rank",
                            quoted(&set.name)
                        ))
                    })?;
                    if values > 1 {
                        coordinates.push(Coordinate {
                            kind: Kind::Orientation {
                                orientations: o,
                                implied_sum,
                            },
                            values,
                            radix: values,
                            ..base
                        });
                    }
                }
            }
        }
        // The largest coordinates first (most significant), as twsearch's
        // two-bit loop splits its index: the states that share them (a
        // run of the frontier) send each move's successors into one short
        // stretch of the table, the small coordinates' values, which stays
        // in the cache, and read each large coordinate's row of its move
        // table once for the run (the pocket cube on one thread: 1.6x
        // faster than the smallest first). Stores record the layout: see
        // `INDEX_LAYOUT`.
        // A permutation too large for a table comes last, whatever its
        // size: its runs (see `split`) are then runs of the index.
        coordinates.sort_by_key(|c| (c.by_piece, std::cmp::Reverse(c.radix)));
        fold_parities(&mut coordinates);
        let alternating = add_alternation(&mut coordinates);
        // The coordinate that follows the alternation first: others may
        // follow it.
        let mut unfold_order: Vec<usize> = (0..coordinates.len())
            .filter(|&j| matches!(coordinates[j].parity, Parity::Follows { .. }))
            .collect();
        unfold_order.sort_by_key(|&j| {
            let Parity::Follows { from, .. } = &coordinates[j].parity else {
                unreachable!()
            };
            !from
                .iter()
                .any(|&f| matches!(coordinates[f].kind, Kind::Alternation))
        });
        // What a hash of each set as a whole would index: its arrangements
        // times every orientation of every piece.
        let product_space = definition
            .sets
            .iter()
            .zip(&definition.solved)
            .map(|(set, solved)| {
                let mut counts = std::collections::HashMap::new();
                for &label in &solved.labels {
                    *counts.entry(label).or_insert(0u32) += 1;
                }
                let factorial = |n: u32| (1..=n).map(f64::from).product::<f64>();
                let arrangements = counts
                    .values()
                    .fold(factorial(set.pieces as u32), |a, &c| a / factorial(c));
                arrangements * (set.orientations as f64).powi(set.pieces as i32)
            })
            .product();
        let size = coordinates
            .iter()
            .try_fold(1u64, |size, c| size.checked_mul(c.radix))
            .ok_or_else(|| {
                Error::SpaceTooLarge(format!(
                    "{file}: the folded space has {} positions, more than a 64-bit rank indexes",
                    scientific(coordinates.iter().map(|c| c.radix as f64).product())
                ))
            })?;
        let weights = {
            let mut weight = 1u64;
            let mut weights: Vec<u64> = coordinates
                .iter()
                .rev()
                .map(|c| {
                    let w = weight;
                    weight = weight.wrapping_mul(c.radix);
                    w
                })
                .collect();
            weights.reverse();
            weights
        };
        Ok(Coordinates {
            weights,
            coordinates,
            product_space,
            size,
            unfold_order,
            alternating,
        })
    }

    /// Builds a move table for every coordinate small enough to have one,
    /// after checking that all of them together stay within
    /// [`MAX_TABLES_BYTES`] (many coordinates times many moves would
    /// otherwise take what a small file asks for).
    fn build_tables(&mut self, file: &str) -> Result<()> {
        let tabled = |c: &Coordinate| fits_a_table(c.values, c.moves.len());
        let planned: u64 = self
            .coordinates
            .iter()
            .filter(|c| tabled(c))
            .map(|c| 4 * c.values * c.moves.len() as u64 + c.values.div_ceil(8))
            .sum::<u64>()
            + self
                .split_candidate()
                .map_or(0, |c| c.split_bytes().unwrap_or(0));
        if planned > MAX_TABLES_BYTES {
            return Err(Error::SpaceTooLarge(format!(
                "{file}: the move tables of its {} coordinates under {} moves would take {} MiB, more than the {} MiB a definition's tables may take",
                self.coordinates.len(),
                self.coordinates.first().map_or(0, |c| c.moves.len()),
                planned >> 20,
                MAX_TABLES_BYTES >> 20
            )));
        }
        for coordinate in &mut self.coordinates {
            let moves = coordinate.moves.len() as u64;
            if !tabled(coordinate) {
                continue;
            }
            let values = coordinate.values;
            let k = coordinate.slots.len();
            // A row per value: the value decoded once, then every move's
            // successor from its slots (decoding it again for each move
            // was most of the time a small puzzle took to open: the 3x3
            // Loopover's 2.2 M entries in 0.15 s of its 0.18 s).
            let mut table = vec![0u32; (moves * values) as usize];
            table
                .par_chunks_mut(moves as usize)
                .enumerate()
                .for_each_init(
                    || vec![0u8; 2 * k + 2],
                    |scratch, (value, row)| {
                        let (cells, moved) = scratch.split_at_mut(k);
                        coordinate.decode(value as u64, cells);
                        for (m, entry) in row.iter_mut().enumerate() {
                            let next = coordinate.next_of_decoded(m, value as u64, cells, moved);
                            *entry = coordinate.digit(next) as u32;
                        }
                    },
                );
            if matches!(coordinate.kind, Kind::Alternation) {
                coordinate.parities = Some(vec![0b10]);
            } else if matches!(coordinate.kind, Kind::Permutation) {
                let mut bits = vec![0u64; values.div_ceil(64) as usize];
                let mut scratch = vec![0u8; k];
                for value in 0..values {
                    permutation_cells(value, values / 2, coordinate.by_piece, &mut scratch);
                    if is_odd(&scratch) {
                        bits[(value / 64) as usize] |= 1 << (value % 64);
                    }
                }
                coordinate.parities = Some(bits);
            }
            coordinate.table = Some(table);
        }
        let split = self.split_candidate().and_then(Coordinate::split_tables);
        if let Some(last) = self.coordinates.last_mut() {
            last.split = split;
        }
        Ok(())
    }

    /// The coordinate whose value may move in runs: the last, the index's
    /// least significant digit.
    fn split_candidate(&self) -> Option<&Coordinate> {
        self.coordinates.last().filter(|c| c.by_piece)
    }

    /// The expansion's groups, when every coordinate has a table.
    pub fn expansion_groups(&self) -> Option<Vec<Group>> {
        if self.coordinates.iter().any(|c| c.table.is_none()) {
            return None;
        }
        let moves = self.coordinates.first()?.moves.len();
        let mergeable =
            |c: &Coordinate| c.radix == c.values && !matches!(c.kind, Kind::Alternation);
        let mut groups = Vec::new();
        let mut start = 0;
        let mut group_bytes = 0u64;
        while start < self.coordinates.len() {
            let mut end = start + 1;
            let mut values = self.coordinates[start].values;
            if mergeable(&self.coordinates[start]) {
                while end < self.coordinates.len()
                    && mergeable(&self.coordinates[end])
                    && values * self.coordinates[end].values <= MAX_GROUP_VALUES
                {
                    values *= self.coordinates[end].values;
                    end += 1;
                }
            }
            // Groups copy or merge tables: past their budget, none.
            group_bytes += 4 * values * moves as u64;
            if group_bytes > MAX_GROUP_TABLES_BYTES {
                return None;
            }
            let members = start..end;
            let last = end - 1;
            let inner_weights: Vec<u64> = members
                .clone()
                .map(|j| self.weights[j] / self.weights[last])
                .collect();
            let table = if end - start == 1 {
                self.coordinates[start].table.clone().expect("a table")
            } else {
                let mut table = vec![0u32; values as usize * moves];
                for g in 0..values {
                    for m in 0..moves {
                        let mut digits = 0u64;
                        for (j, &w) in members.clone().zip(&inner_weights) {
                            let c = &self.coordinates[j];
                            let value = g / w % c.values;
                            let after =
                                c.table.as_ref().expect("a table")[value as usize * moves + m];
                            digits += after as u64 * w;
                        }
                        table[g as usize * moves + m] = digits as u32;
                    }
                }
                table
            };
            groups.push(Group {
                members,
                inner_weights,
                weight: self.weights[last],
                table,
            });
            start = end;
        }
        Some(groups)
    }

    /// The block layout: (length, first coordinate of the local rank) when
    /// the trailing coordinates multiply to at most 2^32 - 1 positions and
    /// leave at most 2^24 blocks; `None` otherwise.
    pub fn block_split(&self) -> Option<(u64, usize)> {
        let mut len = 1u64;
        let mut split = self.coordinates.len();
        // The alternation digit is never inside a block: its two halves
        // are the even and odd layers.
        let first = self.alternating.is_some() as usize;
        for (j, c) in self.coordinates.iter().enumerate().skip(first).rev() {
            match len.checked_mul(c.radix) {
                Some(next) if next <= u32::MAX as u64 => {
                    len = next;
                    split = j;
                }
                _ => break,
            }
        }
        (self.size / len <= 1 << 24).then_some((len, split))
    }

    /// Bytes the move tables take.
    pub fn table_bytes(&self) -> u64 {
        self.coordinates
            .iter()
            .map(|c| {
                c.table.as_ref().map_or(0, |t| 4 * t.len() as u64)
                    + c.parities.as_ref().map_or(0, |p| 8 * p.len() as u64)
                    + c.split.as_ref().map_or(0, SplitTables::bytes)
            })
            .sum()
    }

    /// The index of the position whose coordinates are `values`.
    #[inline(always)]
    pub fn index(&self, values: &[u64]) -> u64 {
        self.coordinates
            .iter()
            .zip(values)
            .fold(0u64, |index, (c, &v)| index * c.radix + c.digit(v))
    }

    /// The coordinates of index `index` (which is below `size`).
    pub fn values(&self, index: u64, values: &mut [u64]) {
        let mut rest = index;
        for (c, value) in self.coordinates.iter().zip(values.iter_mut()).rev() {
            *value = rest % c.radix;
            rest /= c.radix;
        }
        // Folded parities: the free coordinates are whole; each folded one
        // takes the parity its rule gives.
        for &j in &self.unfold_order {
            let c = &self.coordinates[j];
            if c.is_odd_value(values[j]) != self.parity_rule(j, values) {
                values[j] += c.radix;
            }
        }
    }

    /// The parity coordinate `j` must have by its rule, given the values
    /// of those it follows.
    fn parity_rule(&self, j: usize, values: &[u64]) -> bool {
        let Parity::Follows { solved, from } = &self.coordinates[j].parity else {
            unreachable!("only coordinates that follow have a rule")
        };
        let mut odd = *solved;
        for &free in from {
            let f = &self.coordinates[free];
            odd ^= f.is_odd_value(values[free]) ^ f.solved_parity;
        }
        odd
    }

    /// The coordinates of a position given per set, or why the position
    /// cannot be reached from the solved state (a piece outside its orbit,
    /// an orientation sum or a parity no move sequence makes).
    pub fn values_of_state(&self, definition: &Definition, state: &[SetState]) -> Result<Vec<u64>> {
        let mut scratch = vec![0u8; 2 * crate::games::ksolve::definition::MAX_PIECES + 2];
        let mut values = Vec::with_capacity(self.coordinates.len());
        for c in &self.coordinates {
            let set = &definition.sets[c.set];
            let part = &state[c.set];
            let mut have: Vec<u8> = c.slots.iter().map(|&s| part.labels[s]).collect();
            let mut want: Vec<u8> = c
                .slots
                .iter()
                .map(|&s| definition.solved[c.set].labels[s])
                .collect();
            have.sort_unstable();
            want.sort_unstable();
            if have != want {
                return Err(Error::InvalidParameter(format!(
                    "no move sequence reaches this position: slots {} of set {} hold pieces {} where the solved state has {}",
                    one_based(&c.slots),
                    quoted(&set.name),
                    one_based_labels(&have),
                    one_based_labels(&want)
                )));
            }
            if let Kind::Orientation {
                orientations,
                implied_sum: Some(target),
            } = c.kind
            {
                let sum = c
                    .slots
                    .iter()
                    .map(|&s| part.orientations[s] as u64)
                    .sum::<u64>()
                    % orientations as u64;
                if sum != target as u64 {
                    return Err(Error::InvalidParameter(format!(
                        "no move sequence reaches this position: the orientations of slots {} of set {} sum to {sum} mod {orientations}, every move keeps it {target}",
                        one_based(&c.slots),
                        quoted(&set.name)
                    )));
                }
            }
            values.push(c.value_of(part, &mut scratch));
        }
        if let Some(alternating) = &self.alternating {
            let moves_made = alternating.iter().fold(false, |odd, &j| {
                let c = &self.coordinates[j];
                odd ^ c.is_odd_value(values[j]) ^ c.solved_parity
            });
            let at = self
                .coordinates
                .iter()
                .position(|c| matches!(c.kind, Kind::Alternation));
            values[at.expect("the alternation coordinate")] = moves_made as u64;
        }
        for (j, c) in self.coordinates.iter().enumerate() {
            if let Parity::Follows { from, .. } = &c.parity {
                let odd = self.parity_rule(j, &values);
                if c.is_odd_value(values[j]) != odd {
                    return Err(Error::InvalidParameter(format!(
                        "no move sequence reaches this position: the permutation of slots {} of set {} has the wrong parity{}",
                        one_based(&c.slots),
                        quoted(&definition.sets[c.set].name),
                        if from.is_empty() {
                            " (every move permutes them evenly)".to_string()
                        } else {
                            " for the other sets' permutations".to_string()
                        }
                    )));
                }
            }
        }
        self.check_uncoded_slots(definition, state, &values)?;
        Ok(values)
    }

    /// Refuses a position that differs from the one its coordinates give
    /// back: what it holds outside every coordinate (a set no move
    /// touches, an orbit of alike pieces, an orientation no move changes)
    /// is what every reachable position holds there, and the index keeps
    /// nothing of it, so ranking such a position would rewrite it.
    fn check_uncoded_slots(
        &self,
        definition: &Definition,
        state: &[SetState],
        values: &[u64],
    ) -> Result<()> {
        let coded = self.state_of(definition, values);
        for (index, ((given, fixed), set)) in
            state.iter().zip(&coded).zip(&definition.sets).enumerate()
        {
            if given == fixed {
                continue;
            }
            // A set with a coordinate is named by the slots that differ;
            // one without, whole.
            let moved = self
                .coordinates
                .iter()
                .any(|c| c.set == index && !matches!(c.kind, Kind::Alternation));
            let slots: Vec<usize> = if moved {
                (0..set.pieces)
                    .filter(|&s| {
                        given.labels[s] != fixed.labels[s]
                            || given.orientations[s] != fixed.orientations[s]
                    })
                    .collect()
            } else {
                (0..set.pieces).collect()
            };
            let place = match (moved, slots.len()) {
                (false, _) => format!("set {} holds", quoted(&set.name)),
                (true, 1) => format!(
                    "slot {} of set {} holds",
                    one_based(&slots),
                    quoted(&set.name)
                ),
                (true, _) => format!(
                    "slots {} of set {} hold",
                    one_based(&slots),
                    quoted(&set.name)
                ),
            };
            return Err(Error::InvalidParameter(format!(
                "no move sequence reaches this position: {place} {} where every reachable position holds {}",
                definition::part_text(set, given, &slots),
                definition::part_text(set, fixed, &slots)
            )));
        }
        Ok(())
    }

    /// The position of coordinates `values`, per set.
    pub fn state_of(&self, definition: &Definition, values: &[u64]) -> Vec<SetState> {
        let mut state = definition.solved.clone();
        let mut scratch = vec![0u8; 2 * crate::games::ksolve::definition::MAX_PIECES + 2];
        for (c, &value) in self.coordinates.iter().zip(values) {
            c.write(value, &mut state[c.set], &mut scratch);
        }
        state
    }
}

fn one_based(slots: &[usize]) -> String {
    let list: Vec<String> = slots.iter().map(|s| (s + 1).to_string()).collect();
    list.join(",")
}

fn one_based_labels(labels: &[u8]) -> String {
    let list: Vec<String> = labels.iter().map(|l| (*l as u32 + 1).to_string()).collect();
    list.join(",")
}

/// `value` as 1.23e45.
pub fn scientific(value: f64) -> String {
    format!("{value:.3e}")
}
