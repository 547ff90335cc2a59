//! Symmetry from a list of cell permutations: a position's canonical
//! twin is the one of least rank among its images, so that ranking a
//! position ranks its class. The engine solves the canonical twins and
//! copies each value to the rest of its class.

use super::layers::LayerTable;
use super::position::Position;
use crate::error::{Error, Result};
use crate::games::board::MAX_CELLS;

/// The symmetries of a board as cell permutations, the identity left out
/// (it is always applied).
#[derive(Clone, Debug, Default)]
pub struct Symmetries {
    cells: usize,
    others: Vec<Vec<u8>>,
}

impl Symmetries {
    /// No symmetry: every position is its own class.
    pub fn none(cells: usize) -> Self {
        Symmetries {
            cells,
            others: Vec::new(),
        }
    }

    /// The group given by `images` (`image[cell]` for each permutation) on
    /// `cells` cells; each must be a permutation of the cells.
    pub fn new(cells: usize, images: &[Vec<usize>]) -> Result<Self> {
        let mut others = Vec::new();
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
            }
        }
        Ok(Symmetries { cells, others })
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
    /// rank among its images.
    #[inline]
    pub fn canonical_rank(
        &self,
        table: &LayerTable,
        (layer, block): (usize, usize),
        position: &Position,
    ) -> u64 {
        let to_move = position.to_move();
        let mut least = table.rank_in(layer, block, position.cells(self.cells), to_move);
        self.each_image(position, |image| {
            least = least.min(table.rank_in(layer, block, image, to_move));
        });
        least
    }
}
