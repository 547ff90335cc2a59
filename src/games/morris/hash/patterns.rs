//! The white patterns a table stores, a count of stones at a time: every
//! pattern, or with symmetry the least of each orbit, grouped by orbit
//! size; and where a white pattern of any shape is stored
//! ([`StoredWhite`]), found with one lookup by its binomial rank.

use super::{MorrisHash, SymmetryMaps};
use crate::error::Result;
use crate::games::morris::board::POINTS;
use crate::hash::BinomialRanker;

/// The white patterns of one count that a table stores, with the same
/// orbit size: every pattern (without symmetry), or the least of each
/// orbit of that size, in increasing order.
#[derive(Clone, Debug)]
pub(super) enum Patterns {
    Every(BinomialRanker),
    Least(Vec<u32>),
}

#[derive(Clone, Debug)]
pub(super) struct PatternGroup {
    /// Positions each stored one stands for: the orbit's size (1 without
    /// symmetry).
    pub(super) orbit: u64,
    pub(super) patterns: Patterns,
}

impl PatternGroup {
    pub(super) fn len(&self) -> u64 {
        match &self.patterns {
            Patterns::Every(ranker) => ranker.size(),
            Patterns::Least(list) => list.len() as u64,
        }
    }

    #[inline]
    pub(super) fn pattern(&self, index: u64) -> u32 {
        match &self.patterns {
            Patterns::Every(ranker) => ranker.unrank(index) as u32,
            Patterns::Least(list) => list[index as usize],
        }
    }
}

/// Where a white pattern is stored, packed in a word: its stored
/// pattern's index in its group (bits 24..), the group (16..24) and the
/// symmetries that map it to the stored pattern (0..16, a bit each).
#[derive(Clone, Copy, Debug)]
pub(super) struct Placement(u64);

impl Placement {
    pub(super) fn new(index: u64, group: usize, to_least: u16) -> Self {
        Placement(index << 24 | (group as u64) << 16 | to_least as u64)
    }

    #[inline]
    pub(super) fn index(self) -> u64 {
        self.0 >> 24
    }

    #[inline]
    pub(super) fn group(self) -> usize {
        (self.0 >> 16 & 0xff) as usize
    }

    #[inline]
    pub(super) fn to_least(self) -> u16 {
        self.0 as u16
    }
}

/// The stored white patterns of `count` stones, grouped by orbit size
/// (largest first), and with symmetry where each pattern is stored, by
/// the pattern's binomial rank: one lookup instead of the 16 images and a
/// search on every rank (the solver ranks every move it looks at).
pub(super) fn pattern_groups(
    count: usize,
    maps: Option<&SymmetryMaps>,
) -> Result<(Vec<PatternGroup>, Vec<Placement>)> {
    let ranker = BinomialRanker::new(POINTS, count)?;
    let Some(maps) = maps else {
        let every = PatternGroup {
            orbit: 1,
            patterns: Patterns::Every(ranker),
        };
        return Ok((vec![every], Vec::new()));
    };
    let mut by_orbit: Vec<(u64, Vec<u32>)> = Vec::new();
    let mut canonical = Vec::with_capacity(ranker.size() as usize);
    for rank in 0..ranker.size() {
        let pattern = ranker.unrank(rank) as u32;
        let (least, to_least) = maps.canonical(pattern);
        canonical.push((least, to_least));
        if least != pattern {
            continue;
        }
        // The symmetries mapping a least pattern to itself are its
        // stabilizer; the orbit has 16 / |stabilizer| members.
        let orbit = (maps.len() / to_least.count_ones() as usize) as u64;
        match by_orbit.iter_mut().find(|(o, _)| *o == orbit) {
            Some((_, list)) => list.push(pattern),
            None => by_orbit.push((orbit, vec![pattern])),
        }
    }
    by_orbit.sort_by_key(|(orbit, _)| std::cmp::Reverse(*orbit));
    // Ranks ascend with masks (colex order), so each list is sorted.
    let placements = canonical
        .iter()
        .map(|&(least, to_least)| {
            let orbit = (maps.len() / to_least.count_ones() as usize) as u64;
            let group = by_orbit.iter().position(|(o, _)| *o == orbit).unwrap();
            let index = by_orbit[group].1.binary_search(&least).unwrap();
            Placement::new(index as u64, group, to_least)
        })
        .collect();
    let groups = by_orbit
        .into_iter()
        .map(|(orbit, patterns)| PatternGroup {
            orbit,
            patterns: Patterns::Least(patterns),
        })
        .collect();
    Ok((groups, placements))
}

/// Where a white pattern is stored ([`MorrisHash::stored_white`]): the
/// stored pattern, its group and index, the symmetry that maps the
/// pattern there and the others that do too (their least black image is
/// the stored one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredWhite {
    /// The stored pattern.
    pub stored: u32,
    /// Its group (orbit size) among the patterns of its count.
    pub group: usize,
    /// Its index in that group.
    pub index: u64,
    /// The first symmetry mapping the pattern to the stored one.
    pub symmetry: usize,
    /// The other symmetries that do, a bit each.
    pub also: u16,
}

impl StoredWhite {
    /// The stored black stones of a position with this white pattern and
    /// `black`: the least image under the symmetries that store the
    /// pattern (as [`MorrisHash::stored`] finds them).
    #[inline(always)]
    pub fn black_image(&self, maps: Option<&SymmetryMaps>, black: u32) -> u32 {
        let Some(maps) = maps else {
            return black;
        };
        let mut image = maps.apply(self.symmetry, black);
        let mut rest = self.also;
        while rest != 0 {
            let index = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            image = image.min(maps.apply(index, black));
        }
        image
    }
}

impl MorrisHash {
    /// The stored white pattern of index `index` in group `group` of the
    /// patterns of `w` stones.
    pub fn stored_pattern(&self, w: usize, group: usize, index: u64) -> u32 {
        self.groups[w][group].pattern(index)
    }

    /// Where a white pattern of any shape is stored ([`StoredWhite`]):
    /// [`stored`](Self::stored) finds it for each position it ranks, the
    /// opening's sweep once for the positions that share the pattern.
    #[inline(always)]
    pub fn stored_white(&self, white: u32) -> StoredWhite {
        let w = white.count_ones() as usize;
        let white_rank = self.whites[w].rank(white as u64);
        let Some(maps) = &self.maps else {
            return StoredWhite {
                stored: white,
                group: 0,
                index: white_rank,
                symmetry: 0,
                also: 0,
            };
        };
        let placement = self.placements[w][white_rank as usize];
        let to_least = placement.to_least();
        let symmetry = to_least.trailing_zeros() as usize;
        StoredWhite {
            stored: maps.apply(symmetry, white),
            group: placement.group(),
            index: placement.index(),
            symmetry,
            also: to_least & (to_least - 1),
        }
    }

    /// Where the ranks of the stored white pattern `white` lie: its
    /// group and index (as [`stored`](Self::stored) finds them).
    #[inline]
    pub fn white_place(&self, white: u32) -> (usize, u64) {
        let w = white.count_ones() as usize;
        let white_rank = self.whites[w].rank(white as u64);
        match &self.maps {
            None => (0, white_rank),
            Some(_) => {
                let placement = self.placements[w][white_rank as usize];
                (placement.group(), placement.index())
            }
        }
    }

    /// The symmetries other than the identity that keep `white` (a stored
    /// pattern), a bit each; none without symmetry.
    pub fn stabilizer(&self, white: u32) -> u16 {
        self.maps
            .as_ref()
            .map_or(0, |maps| maps.canonical(white).1 & !1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::morris::board::{apply, symmetries};
    use crate::games::morris::rules::OpeningRule;

    #[test]
    fn stored_patterns_weighed_by_orbit_cover_the_layers_as_burnside_counts() {
        let full = MorrisHash::new(9, false, OpeningRule::Placing).unwrap();
        let folded = MorrisHash::new(9, true, OpeningRule::Placing).unwrap();
        let all = symmetries();
        for layer in [5, 6, 9, 13, 18] {
            let covered: u64 = folded.blocks(layer).iter().map(|b| b.len * b.weight).sum();
            assert_eq!(covered, full.layer_size(layer), "layer {layer}");
        }
        // Burnside on the white patterns of 4 stones: orbits are the
        // average number of patterns a symmetry fixes.
        let ranker = BinomialRanker::new(POINTS, 4).unwrap();
        let fixed: u64 = all
            .iter()
            .map(|s| {
                (0..ranker.size())
                    .filter(|&r| {
                        let p = ranker.unrank(r) as u32;
                        apply(s, p) == p
                    })
                    .count() as u64
            })
            .sum();
        let orbits: u64 = folded.groups[4].iter().map(PatternGroup::len).sum();
        assert_eq!(folded.placements[4].len() as u64, ranker.size());
        assert_eq!(orbits * all.len() as u64, fixed);
        // The symmetric table is about a sixteenth of the full one.
        let ratio = full.layer_size(18) as f64 / folded.layer_size(18) as f64;
        assert!((15.5..16.0).contains(&ratio), "{ratio}");
    }
}
