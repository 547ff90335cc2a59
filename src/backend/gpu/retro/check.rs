//! A game's retrograde rules on the device
//! ([`GpuRules::retro_gpu_program`](crate::space::GpuRules::retro_gpu_program))
//! run over lists of positions, and the same facts from its Rust rules, so
//! tests (and anyone porting a game)
//! can compare them position by position: the mover, the values the rules
//! fix, the symmetric twin, every move's destination and every
//! predecessor, in order.

use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::hash_check::CheckKernel;
use crate::backend::gpu::shader;
use crate::error::{Error, Result};
use crate::space::{Block, LayeredGame, LayersBelow, Player, Value};

/// Moves, and predecessors, a position may have for the check at most
/// (Fox-and-Geese with 8 geese has at most 64; a flying Morabaraba side
/// more, each mill closed once per stone it may take).
pub const MAX_MOVES: usize = 256;

/// Output words per dispatch of the check kernel (32 MiB).
const BATCH_WORDS: usize = 1 << 23;

/// Positions per dispatch at most: two input words each, one invocation a
/// word, within one grid dimension of workgroups of 64.
const BATCH_POSITIONS: usize = 1 << 20;

/// What the rules say of one position, with ranks as (block, local rank)
/// in their layer's [blocks](LayeredGame::layer_blocks) and values as
/// [`Value`]'s bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionRules {
    /// 1 when the first player moves, 2 the second.
    pub mover: u32,
    /// The value the rules fix, or 0.
    pub rule_value: u32,
    /// The value when the mover has no move.
    pub no_move_value: u32,
    /// With symmetry reduction, whether the position is solved itself
    /// (always true without).
    pub representative: bool,
    /// The rank of the position in its layer (its canonical twin's).
    pub twin: (u32, u32),
    /// Each move's destination: whether in the layer below, its block and
    /// its rank in the block.
    pub moves: Vec<(bool, u32, u32)>,
    /// The positions of the layer with a move here.
    pub predecessors: Vec<(u32, u32)>,
}

/// `rank` of a layer cut into `blocks` as (block, rank in the block).
fn locate(blocks: &[Block], rank: u64) -> (u32, u32) {
    let block = blocks.partition_point(|b| b.end() <= rank);
    (block as u32, (rank - blocks[block].start) as u32)
}

fn value_bits(value: Option<Value>) -> u32 {
    value.map_or(0, |v| v as u32)
}

/// The Rust rules' answers for `ranks` of `layer`.
pub fn host_rules<G: LayeredGame>(game: &G, layer: usize, ranks: &[u64]) -> Vec<PositionRules> {
    let blocks = game.layer_blocks(layer);
    let below = LayersBelow::of(game, layer);
    let mut state = game.new_state();
    ranks
        .iter()
        .map(|&rank| {
            game.unrank(layer, rank, &mut state);
            let mut moves = Vec::new();
            game.successors(layer, &state, |successor| {
                let lower = successor.layer != layer;
                let (block, local) = match lower {
                    true => below
                        .locate(successor.layer, successor.rank)
                        .expect("a move into a layer the layer reaches"),
                    false => locate(&blocks, successor.rank),
                };
                moves.push((lower, block, local));
                true
            });
            let mut predecessors = Vec::new();
            game.predecessors(layer, &state, |rank| {
                predecessors.push(locate(&blocks, rank));
            });
            PositionRules {
                mover: match game.mover(&state) {
                    Player::First => 1,
                    Player::Second => 2,
                },
                rule_value: value_bits(game.rule_value(layer, &state)),
                no_move_value: game.no_move_value(&state) as u32,
                representative: !game.reduced_by_symmetry()
                    || game.is_representative(layer, rank, &state),
                twin: locate(&blocks, game.rank(layer, &state)),
                moves,
                predecessors,
            }
        })
        .collect()
}

/// The device's answers for `ranks` of `layer`, from the game's WGSL rules.
///
/// Each position's row has room for `max_moves` moves and as many
/// predecessors (at most [`MAX_MOVES`]): a game of few moves is checked
/// over small rows (Fox-and-Geese's, sized to its moves instead of 256,
/// take about a tenth of the memory); a position with more is an error.
pub fn device_rules<G: LayeredGame>(
    gpu: &GpuDevice,
    game: &G,
    layer: usize,
    ranks: &[u64],
    max_moves: usize,
) -> Result<Vec<PositionRules>> {
    if !(1..=MAX_MOVES).contains(&max_moves) {
        return Err(Error::InvalidParameter(format!(
            "the rules check holds 1 to {MAX_MOVES} moves a position, not {max_moves}"
        )));
    }
    let stride = 8 + 4 * max_moves;
    let mut program = game.retro_gpu_program(layer)?;
    program
        .constant("RETRO_CHECK_MAX_MOVES", max_moves as u32)
        .constant("RETRO_CHECK_STRIDE", stride as u32)
        .source(shader::RETRO_CHECK);
    let kernel = CheckKernel::new(gpu, &program)?;
    let blocks = game.layer_blocks(layer);
    let mut rules = Vec::with_capacity(ranks.len());
    for batch in ranks.chunks((BATCH_WORDS / stride).clamp(1, BATCH_POSITIONS)) {
        let inputs: Vec<u32> = batch
            .iter()
            .flat_map(|&rank| {
                let (block, local) = locate(&blocks, rank);
                [block, local]
            })
            .collect();
        let out = kernel.run(&inputs, batch.len() * stride)?;
        for (row, &rank) in out.chunks_exact(stride).zip(batch) {
            let (count, predecessors) = (row[6] as usize, row[7] as usize);
            if count.max(predecessors) > max_moves {
                return Err(Error::Gpu(format!(
                    "{} rank {rank}: {count} moves and {predecessors} predecessors, more than the check's {max_moves}",
                    game.layer_descriptor(layer)
                )));
            }
            let predecessors_at = 8 + 2 * max_moves;
            rules.push(PositionRules {
                mover: row[0],
                rule_value: row[1],
                no_move_value: row[2],
                representative: row[3] == 1,
                twin: (row[4], row[5]),
                moves: row[8..8 + 2 * count]
                    .chunks_exact(2)
                    .map(|m| (m[0] >> 31 == 1, m[0] & 0x7fff_ffff, m[1]))
                    .collect(),
                predecessors: row[predecessors_at..predecessors_at + 2 * predecessors]
                    .chunks_exact(2)
                    .map(|p| (p[0], p[1]))
                    .collect(),
            });
        }
    }
    Ok(rules)
}
