//! Symmetry from a list of cell permutations: a position's canonical
//! twin is the one of least rank among its images, so that ranking a
//! position ranks its class. The engine solves the canonical twins and
//! copies each value to the rest of its class.
//!
//! The least rank is found without ranking every image. A block's rank is
//! the colour-set hash's digits in order, level j's digit the
//! colexicographic rank of the cells above colour j packed onto the cells
//! above colour j - 1 — and colexicographic order is the order of those
//! packed masks as numbers. Where two images agree on the levels below j,
//! they pack level j onto the same cells, and packing onto fixed cells
//! keeps the order of the masks: so the image whose level sets are least
//! in order, compared as plain masks, holds the least rank. The images
//! are compared as a few masks mapped by table lookups, and only the
//! least is ranked.

use super::layers::{LayerTable, Levels, MAX_KINDS};
use super::position::Position;
use crate::error::{Error, Result};
use crate::games::board::{MAX_CELLS, MaskMap};
use crate::space::Player;

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

    /// The rank of the canonical twin of the position with level sets
    /// `above` and `to_move` to move, in its block `(layer, block)`: the
    /// least rank among its images (see the module's notes).
    #[inline]
    pub fn canonical_rank(
        &self,
        table: &LayerTable,
        (layer, block): (usize, usize),
        above: &Levels,
        to_move: Player,
    ) -> u64 {
        let levels = table.kinds();
        // The least image so far is kept as its map, not its sets: the
        // images are compared level by level, the occupied cells first,
        // where most lose, and whole arrays of sets are never copied.
        let mut least: Option<&MaskMap> = None;
        let mut least_occupied = above[0];
        for map in &self.on_masks {
            let occupied = map.apply(above[0]);
            if occupied < least_occupied
                || (occupied == least_occupied && image_less(map, least, above, levels))
            {
                least = Some(map);
                least_occupied = occupied;
            }
        }
        match least {
            None => table.rank_sets_in(layer, block, &above[..levels], to_move),
            Some(map) => {
                let mut image = [0u64; MAX_KINDS + 1];
                for j in 0..levels {
                    image[j] = map.apply(above[j]);
                }
                table.rank_sets_in(layer, block, &image[..levels], to_move)
            }
        }
    }

    /// Whether the position with level sets `above` is its own canonical
    /// twin: no image holds less (stops at the first that does).
    #[inline]
    pub fn is_least(&self, levels: usize, above: &Levels) -> bool {
        self.on_masks.iter().all(|map| {
            let occupied = map.apply(above[0]);
            occupied > above[0] || (occupied == above[0] && !image_less(map, None, above, levels))
        })
    }
}

/// Whether the image of the sets `above` under `map` is less than their
/// image under `least` (the identity where `None`), given equal occupied
/// cells: compared from level 1 up.
#[inline]
fn image_less(map: &MaskMap, least: Option<&MaskMap>, above: &Levels, levels: usize) -> bool {
    for &set in &above[1..levels] {
        let image = map.apply(set);
        let least = least.map_or(set, |least| least.apply(set));
        if image != least {
            return image < least;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::board::Board;
    use crate::games::kit::layers::Contents;

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
                let above = table.levels(&position);
                assert_eq!(
                    symmetries.canonical_rank(&table, (0, 0), &above, position.to_move()),
                    least,
                    "{on_board:?} rank {rank}"
                );
                assert_eq!(
                    symmetries.is_least(kinds, &above),
                    least == rank,
                    "{on_board:?} rank {rank}"
                );
            }
        }
    }
}
