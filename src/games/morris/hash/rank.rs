//! The ranks of positions in their layer and back: a block's first rank,
//! then the stored white pattern's index in its group, the black stones'
//! binomial rank among the points white leaves and the side to move's
//! bit; unranking keeps the black patterns of the ranks that follow.

use super::{BOARD, COUNTS, MorrisHash, NO_BLOCK, count_slot};
use crate::games::morris::board::POINTS;
use crate::games::morris::rules::Stones;
use crate::hash::binomial::BINOMIALS;
use crate::hash::bits::{compress, expand};
use crate::hash::{BinomialRanker, BinomialRun};

impl MorrisHash {
    /// The rank of the stored position `stones` (white's pattern is the
    /// stored one of index `index` in group `group`) in its layer.
    ///
    /// Always inlined, as is [`stored`](Self::stored): the solver ranks
    /// every move it looks at, and as calls their positions and results
    /// went through the stack (an opening layer's sweep took a fifth
    /// longer).
    #[inline(always)]
    pub fn stored_rank(&self, group: usize, index: u64, stones: &Stones) -> u64 {
        let w = stones.white.count_ones() as usize;
        let b = stones.black.count_ones() as usize;
        let layer = &self.layers[self.layer_of(stones)];
        let start = layer.block_start[count_slot(w, b, group)];
        // The black stones' ranker of (w, b) is C(24 − w, b): computed
        // here rather than loaded from `blacks`, a load less on each rank.
        let free_points = POINTS - w;
        let patterns_of_black = BINOMIALS[free_points][b];
        let free = (!stones.white & BOARD) as u64;
        let pattern = index * patterns_of_black
            + BinomialRanker::rank_of_bits(free_points, compress(stones.black as u64, free));
        // The side's bit is masked off where the layer fixes the side.
        let side = u64::from(!stones.white_to_move) & u64::from(layer.side_bits);
        start + (pattern << layer.side_bits) + side
    }

    /// The stored position that stands for `stones`, with its white
    /// pattern's group and index there.
    #[inline(always)]
    pub fn stored(&self, stones: &Stones) -> (Stones, usize, u64) {
        let place = self.stored_white(stones.white);
        let stored = Stones {
            white: place.stored,
            black: place.black_image(self.maps.as_ref(), stones.black),
            ..*stones
        };
        (stored, place.group, place.index)
    }

    /// The `b` black stones of rank `rank` among the 24 − `w` points
    /// white leaves, packed into the low 24 − `w` bits.
    pub fn black_pattern(&self, w: usize, b: usize, rank: u64) -> u64 {
        self.blacks[w][b].unrank(rank)
    }

    /// The rank in `layer` of the first position whose white pattern is
    /// the stored one of `index` in group `group`, with `w` white and `b`
    /// black stones (the black stones' rank, shifted past the side's bit,
    /// is added to it); `None` where the layer holds no such block.
    pub fn pattern_base(
        &self,
        layer: usize,
        (w, b): (usize, usize),
        group: usize,
        index: u64,
    ) -> Option<u64> {
        let hash_layer = self.layers.get(layer)?;
        let slot = count_slot(w, b, group);
        if w >= COUNTS || b >= COUNTS || hash_layer.block_at[slot] == NO_BLOCK {
            return None;
        }
        let patterns_of_black = BINOMIALS[POINTS - w][b];
        Some(hash_layer.block_start[slot] + ((index * patterns_of_black) << hash_layer.side_bits))
    }

    /// [`rank`](Self::rank) of a position whose white pattern is a stored
    /// one, of place `place` ([`white_place`](Self::white_place)) and
    /// stabilizer `stabilizer`, without looking the pattern up again: the
    /// symmetries that keep it are those that bring it to its least image.
    /// A move of black's, or a placement, keeps white's pattern, and its
    /// place is the position's.
    #[inline]
    pub fn rank_with_stored_white(
        &self,
        place: (usize, u64),
        stabilizer: u16,
        stones: &Stones,
    ) -> u64 {
        let mut black = stones.black;
        if let Some(maps) = &self.maps {
            let mut rest = stabilizer;
            while rest != 0 {
                let index = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                black = black.min(maps.apply(index, stones.black));
            }
        }
        self.stored_rank(place.0, place.1, &Stones { black, ..*stones })
    }

    /// The rank of any position of the stored counts in its layer.
    #[inline]
    pub fn rank(&self, stones: &Stones) -> u64 {
        let (stored, group, index) = self.stored(stones);
        self.stored_rank(group, index, &stored)
    }

    /// The stored position at `rank` of layer `layer`.
    #[inline]
    pub fn unrank(&self, layer: usize, rank: u64) -> Stones {
        self.unrank_into_run(layer, rank, &mut BinomialRun::default())
    }

    /// [`unrank`](Self::unrank), leaving in `run` the black patterns of
    /// the ranks that follow with the same white pattern, keyed by
    /// `rank >> side_bits(layer)` (in the moving phase both sides of a
    /// position are neighbours): a scan then unranks them with a lookup
    /// and [`expand`].
    #[inline]
    pub fn unrank_into_run(&self, layer: usize, rank: u64, run: &mut BinomialRun) -> Stones {
        let hash_layer = &self.layers[layer];
        let blocks = &hash_layer.blocks;
        let shift = hash_layer.side_bits;
        let block = &blocks[blocks.partition_point(|b| b.start + b.len <= rank)];
        let within = rank - block.start;
        let blacks = &self.blacks[block.white][block.black];
        let index = (within >> shift) / blacks.size();
        let white = self.groups[block.white][block.group].pattern(index);
        let first = (block.start >> shift) + index * blacks.size();
        let packed = blacks.unrank_into_run(rank >> shift, first, run);
        let white_to_move = if shift == 1 {
            within & 1 == 0
        } else {
            hash_layer.in_hand[0] == hash_layer.in_hand[1]
        };
        Stones {
            white,
            black: expand(packed, (!white & BOARD) as u64) as u32,
            white_to_move,
            in_hand: hash_layer.in_hand,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::morris::hash::{LayerKind, SymmetryMaps};
    use crate::games::morris::rules::OpeningRule;
    use crate::hash::splitmix64;

    fn random_stones(hash: &MorrisHash, seed: u64) -> Stones {
        let layers: Vec<usize> = (0..=hash.max_layer())
            .filter(|&l| hash.layer_size(l) > 0)
            .collect();
        let layer = layers[(splitmix64(seed) % layers.len() as u64) as usize];
        let blocks = hash.blocks(layer);
        let size = blocks.last().unwrap().start + blocks.last().unwrap().len;
        // Unranked, then scrambled by a random symmetry.
        let stored = hash.unrank(layer, splitmix64(seed ^ 7) % size);
        let symmetry = (splitmix64(seed ^ 9) % 16) as usize;
        let maps = SymmetryMaps::new();
        Stones {
            white: maps.apply(symmetry, stored.white),
            black: maps.apply(symmetry, stored.black),
            ..stored
        }
    }

    #[test]
    fn a_stored_white_pattern_ranks_without_its_lookup_as_with_it() {
        for symmetry in [false, true] {
            let hash = MorrisHash::new(9, symmetry, OpeningRule::Placing).unwrap();
            for seed in 0..20_000u64 {
                let (stored, _, _) = hash.stored(&random_stones(&hash, seed));
                // Black's stones put anywhere else on the free points, as
                // a black move or placement would (counts kept).
                let free = !stored.white & BOARD;
                let mut black = 0u32;
                let mut points: Vec<u32> = (0..24).filter(|p| free >> p & 1 == 1).collect();
                for i in 0..stored.black.count_ones() as usize {
                    let pick =
                        i + (splitmix64(seed ^ i as u64) % (points.len() - i) as u64) as usize;
                    points.swap(i, pick);
                    black |= 1 << points[i];
                }
                let moved = Stones { black, ..stored };
                let place = hash.white_place(moved.white);
                let stabilizer = hash.stabilizer(moved.white);
                assert_eq!(
                    hash.rank_with_stored_white(place, stabilizer, &moved),
                    hash.rank(&moved),
                    "{moved:?}"
                );
            }
        }
    }

    #[test]
    fn ranks_invert_unranks_over_small_layers_and_samples() {
        let maps = SymmetryMaps::new();
        for symmetry in [false, true] {
            let hash = MorrisHash::new(9, symmetry, OpeningRule::Placing).unwrap();
            // Two small layers of the moving phase, and the opening's
            // smallest: every stone in hand down to six each (up to 3-3
            // on the board, one side to move).
            let opening = hash.moving_top() + 12..=hash.max_layer();
            for layer in (5..=6).chain(opening) {
                let mut representatives = 0;
                for rank in 0..hash.layer_size(layer) {
                    let stones = hash.unrank(layer, rank);
                    assert_eq!(hash.layer_of(&stones), layer);
                    assert!(hash.holds(&stones));
                    assert_eq!(stones.white & stones.black, 0);
                    // With symmetry a pattern kept by some symmetries is
                    // stored with each image of black's stones under them,
                    // and the least of those is the one ranks lead to.
                    let stabilizer = hash.stabilizer(stones.white);
                    let least = (1..16)
                        .filter(|s| stabilizer >> s & 1 == 1)
                        .all(|s| maps.apply(s, stones.black) >= stones.black);
                    let ranked = hash.rank(&stones);
                    if least {
                        assert_eq!(ranked, rank, "{stones:?}");
                        representatives += 1;
                    } else {
                        assert_eq!(hash.rank(&hash.unrank(layer, ranked)), ranked);
                    }
                }
                // (The opening's small layers have patterns with many
                // symmetries, and so fewer representatives.)
                assert!(
                    hash.kind(layer) != LayerKind::Moving
                        || representatives > hash.layer_size(layer) / 2,
                    "{representatives} of {}",
                    hash.layer_size(layer)
                );
            }
            for seed in 0..20_000 {
                let stones = random_stones(&hash, seed);
                let layer = hash.layer_of(&stones);
                let rank = hash.rank(&stones);
                let stored = hash.unrank(layer, rank);
                // The stored twin ranks to itself and is an image.
                assert_eq!(hash.rank(&stored), rank);
                assert!((0..16).any(|s| {
                    maps.apply(s, stones.white) == stored.white
                        && maps.apply(s, stones.black) == stored.black
                }));
                assert_eq!(stored.white_to_move, stones.white_to_move);
                assert_eq!(stored.in_hand, stones.in_hand);
            }
        }
    }
}
