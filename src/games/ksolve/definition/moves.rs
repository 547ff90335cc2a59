//! The moves a search makes of a definition's listed moves: under a
//! metric, every power of each (named as twsearch names them) or each and
//! its inverse, with their orders found from their cycles and their
//! memory bounded before one is built.

use std::collections::HashMap;

use super::puzzle::{Definition, NamedMove, PieceSet, Transform, position_bytes};
use crate::error::{Error, Result, quoted};

/// Which moves a search makes of the listed ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Every power of each listed move short of the identity (twsearch's
    /// default: an order-4 move gives M, M2 and M').
    Powers,
    /// Each listed move and its inverse only.
    Quarter,
}

impl Metric {
    /// The metric's name as options give it.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Powers => "powers",
            Metric::Quarter => "quarter",
        }
    }

    /// The metric in words, for help text.
    pub fn describe(self) -> &'static str {
        match self {
            Metric::Powers => "every power of each listed move counts one move",
            Metric::Quarter => "each listed move and its inverse count one move",
        }
    }
}

impl std::str::FromStr for Metric {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        match text {
            "powers" => Ok(Metric::Powers),
            "quarter" => Ok(Metric::Quarter),
            other => Err(Error::InvalidParameter(format!(
                "the ksolve metric is powers (every power of a move, twsearch's default) or quarter (a move and its inverse), got {}",
                quoted(other)
            ))),
        }
    }
}

/// The name of power `k` of move `name` whose order is `order`: `M`,
/// `M2`, ..., and for powers past half the order the inverse's, `M'`,
/// `M2'`.
fn power_name(name: &str, k: usize, order: usize) -> String {
    let (count, prime) = if 2 * k > order {
        (order - k, "'")
    } else {
        (k, "")
    };
    if count == 1 {
        format!("{name}{prime}")
    } else {
        format!("{name}{count}{prime}")
    }
}

/// Most powers a move may have before the identity: a listed move of a
/// larger order is refused (each power is a move of the search; a
/// megaminx face has order 5).
pub const MAX_ORDER: usize = 1 << 12;

/// Most bytes the moves of a search may take, each power a permutation
/// and twists of every set (with two vectors' bookkeeping per set): far
/// above any real puzzle's, and it keeps a small file (one move of order
/// 4,096 beside thousands of sets) from asking for gigabytes.
pub const MAX_MOVE_BYTES: u64 = 64 << 20;

/// The order of `transform`, computed from its cycles (a cycle of length
/// `l` whose twists add to `t` modulo `o` comes back after `l * o /
/// gcd(t, o)` steps; the move after the least common multiple of its
/// cycles'), or `None` when it exceeds [`MAX_ORDER`].
pub(crate) fn order_of(transform: &Transform, sets: &[PieceSet]) -> Option<usize> {
    let mut order = 1usize;
    for (part, set) in transform.sets.iter().zip(sets) {
        let mut seen = vec![false; part.from.len()];
        for start in 0..part.from.len() {
            if seen[start] {
                continue;
            }
            let (mut length, mut twist, mut slot) = (0usize, 0usize, start);
            while !seen[slot] {
                seen[slot] = true;
                twist += part.twist[slot] as usize;
                length += 1;
                slot = part.from[slot] as usize;
            }
            let o = set.orientations as usize;
            let cycle = length * (o / num_integer::gcd(twist % o, o));
            order = num_integer::lcm(order, cycle);
            if order > MAX_ORDER {
                return None;
            }
        }
    }
    Some(order)
}

/// The moves a search makes: the listed moves with their powers (or
/// inverses), in the order listed. Orders are computed before any power
/// is, and the moves' memory is bounded ([`MAX_ORDER`],
/// [`MAX_MOVE_BYTES`]) before one is built.
pub fn expand_moves(definition: &Definition, metric: Metric, file: &str) -> Result<Vec<NamedMove>> {
    let sets = &definition.sets;
    let mut orders = Vec::with_capacity(definition.moves.len());
    for listed in &definition.moves {
        let order = order_of(&listed.transform, sets).ok_or_else(|| {
            Error::InvalidParameter(format!(
                "{file}: move {} has an order above {MAX_ORDER}",
                quoted(&listed.name)
            ))
        })?;
        if order == 1 {
            return Err(Error::InvalidParameter(format!(
                "{file}: move {} moves nothing",
                quoted(&listed.name)
            )));
        }
        orders.push(order);
    }
    // Whether power `k` of a move of order `order` is a move of the search.
    let chosen = |k: usize, order: usize| match metric {
        Metric::Powers => true,
        Metric::Quarter => k == 1 || k == order - 1,
    };
    let search_moves: u64 = orders
        .iter()
        .map(|&order| (1..order).filter(|&k| chosen(k, order)).count() as u64)
        .sum();
    let bytes = search_moves.saturating_mul(position_bytes(sets));
    if bytes > MAX_MOVE_BYTES {
        return Err(Error::SpaceTooLarge(format!(
            "{file}: the {search_moves} moves of the search (each listed move with its powers) over {} sets would take {} MiB, more than the {} MiB a definition's moves may take",
            sets.len(),
            bytes >> 20,
            MAX_MOVE_BYTES >> 20
        )));
    }
    let mut moves: Vec<NamedMove> = Vec::new();
    let mut names: HashMap<String, String> = HashMap::new();
    for (listed, &order) in definition.moves.iter().zip(&orders) {
        // One power at a time, kept only where the metric makes it a move.
        let mut power = listed.transform.clone();
        for k in 1..order {
            if k > 1 {
                power = power.then(&listed.transform, sets);
            }
            if !chosen(k, order) {
                continue;
            }
            let name = power_name(&listed.name, k, order);
            if let Some(owner) = names.insert(name.clone(), listed.name.clone()) {
                return Err(Error::InvalidParameter(format!(
                    "{file}: moves {} and {} both give a move named {}",
                    quoted(&owner),
                    quoted(&listed.name),
                    quoted(&name)
                )));
            }
            moves.push(NamedMove {
                name,
                transform: power.clone(),
            });
        }
        debug_assert!(power.then(&listed.transform, sets).is_identity());
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::super::puzzle::SetMove;
    use super::super::tests::SQUARE;
    use super::*;

    #[test]
    fn a_moves_order_from_its_cycles_is_the_count_of_its_powers() {
        let sets = vec![
            PieceSet {
                name: "A".into(),
                pieces: 7,
                orientations: 6,
            },
            PieceSet {
                name: "B".into(),
                pieces: 5,
                orientations: 1,
            },
        ];
        // Seeded moves of every shape: random permutations and twists.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: usize| {
            seed = crate::hash::splitmix64(seed);
            (seed % below as u64) as usize
        };
        for _ in 0..200 {
            let parts = sets
                .iter()
                .map(|set| {
                    let mut from: Vec<u8> = (0..set.pieces as u8).collect();
                    for i in (1..from.len()).rev() {
                        from.swap(i, next(i + 1));
                    }
                    let twist = (0..set.pieces)
                        .map(|_| next(set.orientations as usize) as u8)
                        .collect();
                    SetMove { from, twist }
                })
                .collect();
            let transform = Transform { sets: parts };
            let mut power = transform.clone();
            let mut counted = 1;
            while !power.is_identity() {
                power = power.then(&transform, &sets);
                counted += 1;
            }
            assert_eq!(order_of(&transform, &sets), Some(counted));
        }
    }

    #[test]
    fn powers_are_named_as_twsearch_names_them() {
        let definition = parse(SQUARE, "ring.tws").unwrap();
        let names = |metric| {
            expand_moves(&definition, metric, "ring.tws")
                .unwrap()
                .iter()
                .map(|m| m.name.clone())
                .collect::<Vec<_>>()
                .join(" ")
        };
        // Four steps bring each piece home, its twist grown by 1 + 1.
        assert_eq!(names(Metric::Powers), "T T2 T'");
        assert_eq!(names(Metric::Quarter), "T T'");
        assert_eq!(power_name("U", 2, 4), "U2");
        assert_eq!(power_name("U", 3, 4), "U'");
        assert_eq!(power_name("X", 3, 5), "X2'");
        assert_eq!(power_name("X", 4, 8), "X4");
        assert_eq!(power_name("X", 5, 8), "X3'");
    }
}
