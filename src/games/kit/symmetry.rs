//! Symmetry from a list of cell permutations: a position's canonical
//! twin is the one of least rank among its images, so that ranking a
//! position ranks its class. The engine solves the canonical twins and
//! copies each value to the rest of its class.
//!
//! The least rank is found without ranking every image. A block's rank is
//! the colour-set hash's digits in order, level j's digit the
//! colexicographic rank of the cells above colour j packed onto the cells
//! above colour j - 1 — and colexicographic order is the order of those
//! packed masks as numbers. So the image whose level masks, packed so,
//! are least in order holds the least rank: the images are compared as a
//! few masks mapped by table lookups, and only the least is ranked.

use super::layers::LayerTable;
use super::position::Position;
use crate::error::{Error, Result};
use crate::games::board::{MAX_CELLS, MaskMap};
use crate::hash::bits::compress;

/// The most levels of a kit position's hash: one a kind of piece.
const MAX_LEVELS: usize = 15;

/// The symmetries of a board as cell permutations, the identity left out
/// (it is always applied).
#[derive(Clone, Debug, Default)]
pub struct Symmetries {
    cells: usize,
    others: Vec<Vec<u8>>,
    /// The same permutations on masks of cells.
    on_masks: Vec<MaskMap>,
}

impl Symmetries {
    /// No symmetry: every position is its own class.
    pub fn none(cells: usize) -> Self {
        Symmetries {
            cells,
            others: Vec::new(),
            on_masks: Vec::new(),
        }
    }

    /// The group given by `images` (`image[cell]` for each permutation) on
    /// `cells` cells; each must be a permutation of the cells.
    pub fn new(cells: usize, images: &[Vec<usize>]) -> Result<Self> {
        let mut others = Vec::new();
        let mut on_masks = Vec::new();
        for image in images {
            let mut seen = [false; MAX_CELLS];
            let valid = image.len() == cells
                && image
                    .iter()
                    .all(|&to| to < cells && !std::mem::replace(&mut seen[to], true));
            if !valid {
                return Err(Error::InvalidParameter(format!(
                    "a symmetry must map the {cells} cells one to one, got {image:?}"
                )));
            }
            if image.iter().enumerate().any(|(from, &to)| from != to) {
                others.push(image.iter().map(|&to| to as u8).collect());
                on_masks.push(MaskMap::new(image));
            }
        }
        Ok(Symmetries {
            cells,
            others,
            on_masks,
        })
    }

    /// Whether there is a symmetry besides the identity.
    pub fn any(&self) -> bool {
        !self.others.is_empty()
    }

    /// Calls `visit` with the cells of each image of `position` under a
    /// symmetry other than the identity.
    #[inline]
    pub fn each_image(&self, position: &Position, mut visit: impl FnMut(&[u8])) {
        let mut image = [0u8; MAX_CELLS];
        let cells = position.cells(self.cells);
        for map in &self.others {
            for (from, &to) in map.iter().enumerate() {
                image[to as usize] = cells[from];
            }
            visit(&image[..self.cells]);
        }
    }

    /// The rank of `position`'s canonical twin in its block: the least
    /// rank among its images (the least levels, see the module's notes).
    #[inline]
    pub fn canonical_rank(
        &self,
        table: &LayerTable,
        (layer, block): (usize, usize),
        position: &Position,
    ) -> u64 {
        let to_move = position.to_move();
        if self.on_masks.is_empty() {
            return table.rank_in(layer, block, position.cells(self.cells), to_move);
        }
        let levels = table.kinds();
        // above[j]: the cells holding a colour above j (kind k is colour
        // k + 1, empty is 0).
        let mut above = [0u64; MAX_LEVELS];
        for cell in 0..self.cells {
            let colour = position.at(cell) as usize;
            if colour > 0 {
                above[colour - 1] |= 1 << cell;
            }
        }
        for j in (0..levels.saturating_sub(1)).rev() {
            above[j] |= above[j + 1];
        }
        let key = |sets: &[u64]| {
            let mut key = [0u64; MAX_LEVELS];
            key[0] = sets[0];
            for j in 1..levels {
                key[j] = compress(sets[j], sets[j - 1]);
            }
            key
        };
        let mut least = above;
        let mut least_key = key(&above[..levels]);
        let mut image = [0u64; MAX_LEVELS];
        for map in &self.on_masks {
            for j in 0..levels {
                image[j] = map.apply(above[j]);
            }
            let image_key = key(&image[..levels]);
            if image_key[..levels] < least_key[..levels] {
                least = image;
                least_key = image_key;
            }
        }
        table.rank_sets_in(layer, block, &least[..levels], to_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::board::Board;
    use crate::games::kit::layers::Contents;
    use crate::space::Player;

    /// The least rank found from the level masks is the least rank of
    /// every image, ranked in full, for every position of a few blocks of
    /// a 4 x 4 board with two and three kinds of pieces.
    #[test]
    fn the_least_masks_rank_least_among_the_images() {
        let board = Board::parse("oooo\noooo\noooo\noooo", "test").unwrap();
        for on_board in [vec![3, 2], vec![5, 5], vec![2, 3, 4], vec![0, 4]] {
            let kinds = on_board.len();
            let layers = vec![vec![Contents::board(&on_board)]];
            let table = LayerTable::new(16, kinds, &layers).unwrap();
            let symmetries = Symmetries::new(16, &board.symmetries()).unwrap();
            let mut position = Position::empty(Player::First);
            for rank in 0..table.size(0) {
                table.unrank(0, rank, &mut position);
                let mut least = table.rank_in(0, 0, position.cells(16), position.to_move());
                symmetries.each_image(&position, |image| {
                    least = least.min(table.rank_in(0, 0, image, position.to_move()));
                });
                assert_eq!(
                    symmetries.canonical_rank(&table, (0, 0), &position),
                    least,
                    "{on_board:?} rank {rank}"
                );
            }
        }
    }
}
