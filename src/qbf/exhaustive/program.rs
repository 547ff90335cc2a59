//! The GPU's view of a query's layers: blocks of whole occupied sets whose
//! ranks fit 32 bits, and the program of `rules.wgsl` for one layer (its
//! rankers' constants, the sets as bit masks, the connection goal).

use super::QueryLayers;
use crate::error::{Error, Result};
use crate::games::positional::Side;
use crate::hash::StoneRanker;
use crate::hash::binomial::low_bits;
use crate::kernel::{CPU_HINT, Program};
use crate::space::{Block, LayeredGame};

/// Most positions in a block: a rank in a block, and the occupied ranks
/// the kernels compute, are u32.
const BLOCK_POSITIONS: u64 = 1 << 31;

/// Occupied sets per block under `ranker` (each holds C(k, b) positions).
fn occupied_per_block(ranker: &StoneRanker) -> u64 {
    (BLOCK_POSITIONS / ranker.colourings()).max(1)
}

/// The blocks of a layer ranked by `ranker`: runs of
/// [`occupied_per_block`] occupied sets.
pub(super) fn blocks(ranker: &StoneRanker) -> Vec<Block> {
    let per_block = occupied_per_block(ranker);
    let occupied = ranker.size() / ranker.colourings();
    (0..occupied)
        .step_by(per_block as usize)
        .map(|first| Block {
            start: first * ranker.colourings(),
            len: per_block.min(occupied - first) * ranker.colourings(),
        })
        .collect()
}

/// Masks of packed free cells as (low, high) words.
fn mask_words(masks: &[u64]) -> Vec<u32> {
    masks
        .iter()
        .flat_map(|&m| [m as u32, (m >> 32) as u32])
        .collect()
}

impl QueryLayers<'_> {
    /// The constants of `ranker` under `prefix`, refused where its ranks
    /// leave the kernels' 32 bits.
    fn ranker_constants(
        &self,
        program: &mut Program,
        prefix: &str,
        ranker: &StoneRanker,
        layer: usize,
    ) -> Result<()> {
        let occupied = ranker.size() / ranker.colourings();
        if occupied > u32::MAX as u64 || ranker.colourings() >= BLOCK_POSITIONS {
            return Err(Error::Unsupported(format!(
                "{}: boards of {} stones on {} cells do not fit the GPU kernels' 32-bit ranks {CPU_HINT}",
                self.layer_descriptor(layer),
                ranker.stones(),
                ranker.cells()
            )));
        }
        program
            .constant(&format!("{prefix}BLACK"), ranker.black_stones() as u32)
            .constant(&format!("{prefix}COLOURINGS"), ranker.colourings() as u32)
            .constant(
                &format!("{prefix}OCCUPIED_PER_BLOCK"),
                occupied_per_block(ranker) as u32,
            );
        Ok(())
    }

    /// `rules.wgsl` for `layer`.
    pub(super) fn gpu_program(&self, layer: usize) -> Result<Program> {
        let stones = self.stones_at(layer);
        let ranker = &self.rankers[stones];
        let mut program = Program::default();
        self.ranker_constants(&mut program, "PG_", ranker, layer)?;
        // The boards one stone later: the moves' (none in the bottom
        // layer, where the last move's sets still count).
        let next = stones + 1;
        match self.rankers.get(next).filter(|_| layer > 0) {
            Some(below) => self.ranker_constants(&mut program, "PG_NEXT_", below, layer)?,
            None => {
                program
                    .constant("PG_NEXT_BLACK", 0)
                    .constant("PG_NEXT_COLOURINGS", 1)
                    .constant("PG_NEXT_OCCUPIED_PER_BLOCK", 1);
            }
        }
        let none = Default::default();
        let next_sets = self.sets.get(next).unwrap_or(&none);
        let all = low_bits(ranker.cells());
        let allowed = self.allowed(stones) & all;
        program
            .constant("PG_CELLS", ranker.cells() as u32)
            .constant("PG_ALL_LOW", all as u32)
            .constant("PG_ALL_HIGH", (all >> 32) as u32)
            .constant("PG_STONES", stones as u32)
            .constant(
                "PG_MOVER",
                match self.turns.get(stones) {
                    Some(Side::White) => 2,
                    _ => 1,
                },
            )
            .constant(
                "PG_PLACES_BLACK",
                (self.turns.get(stones) == Some(&Side::Black)) as u32,
            )
            .constant("PG_HAS_MOVES", (layer > 0) as u32)
            .constant("PG_LAST_MOVE", (layer == 0 && self.last_move == 1) as u32)
            .constant("PG_MAKER_MAKER", self.game.is_maker_maker() as u32)
            .constant("PG_ALLOWED_LOW", allowed as u32)
            .constant("PG_ALLOWED_HIGH", (allowed >> 32) as u32)
            .constant("PG_BLACK_SETS", self.sets[stones].black.len() as u32)
            .table("PG_BLACK_SETS_AT", &mask_words(&self.sets[stones].black))
            .constant("PG_WHITE_SETS", self.sets[stones].white.len() as u32)
            .table("PG_WHITE_SETS_AT", &mask_words(&self.sets[stones].white))
            .constant("PG_NEXT_BLACK_SETS", next_sets.black.len() as u32)
            .table("PG_NEXT_BLACK_SETS_AT", &mask_words(&next_sets.black))
            .constant("PG_NEXT_WHITE_SETS", next_sets.white.len() as u32)
            .table("PG_NEXT_WHITE_SETS_AT", &mask_words(&next_sets.white));
        let free_cells: Vec<u32> = self.game.free_cells().iter().map(|&c| c as u32).collect();
        match &self.connection {
            Some(goal) => program
                .constant("PG_CONNECTION", 1)
                .table("PG_FREE_CELLS_AT", &free_cells)
                .table("PG_NEIGHBOURS_AT", &mask_words(&goal.neighbours))
                .table(
                    "PG_GOAL_AT",
                    &mask_words(&[self.black_stones, goal.start, goal.end]),
                ),
            None => program
                .constant("PG_CONNECTION", 0)
                .table("PG_FREE_CELLS_AT", &[0])
                .table("PG_NEIGHBOURS_AT", &[0, 0])
                .table("PG_GOAL_AT", &[0; 6]),
        };
        program.colour_set_hash().source(RULES);
        Ok(program)
    }
}

const RULES: &str = include_str!("rules.wgsl");
