//! The GPU's expansion of a puzzle: `ksolve.wgsl` over the coordinates'
//! layout and move tables, the coordinates without a table computed in
//! the kernel from the moves as the CPU computes them.

use super::Ksolve;
use super::coordinates::{self, Kind};
use crate::error::{Result, quoted};
use crate::kernel::Program;
use crate::space::Space;

/// The GPU expansion (see [`crate::kernel`]).
const KSOLVE_KERNEL: &str = include_str!("ksolve.wgsl");
/// Most words of move tables the GPU kernel takes: 128 MiB, the smallest
/// storage binding a device must allow.
const GPU_TABLE_WORDS: usize = 1 << 25;
/// Most slots of a permutation coordinate the GPU kernel computes without
/// a move table (its prefix Lehmer rank is a u32).
const MAX_COMPUTED_SLOTS: usize = 12;
/// How the kernel moves a coordinate without a table (`COMPUTED_*` in
/// ksolve.wgsl).
#[derive(Clone, Copy)]
enum Computed {
    No = 0,
    Permutation = 1,
    Multiset = 2,
    Orientation = 3,
    Split = 4,
}

/// Bits of a split permutation's next placement in the kernel's packed
/// entry (the column above them): 12!/6! = 665,280 placements fit.
const SPLIT_PLACEMENT_BITS: u32 = 20;
impl Ksolve {
    /// The generic kernel's program: the coordinates' layout and move tables.
    pub(super) fn kernel_program(&self) -> Result<Program> {
        let unsupported =
            |why: String| crate::kernel::unsupported(format!("{}: {why}", self.descriptor()));
        let Some((_, split)) = self.hash.block_split() else {
            return Err(unsupported(
                "its coordinates give no blocks of at most 2^32 positions".into(),
            ));
        };
        if self.block_shape().count > u32::MAX as u64 {
            return Err(unsupported("more than 2^32 blocks".into()));
        }
        let coordinates = &self.hash.coordinates;
        // See ksolve.wgsl for the fields.
        const FIELDS: usize = 16;
        let mut words: Vec<u32> = vec![0; FIELDS * coordinates.len()];
        let mut cells_cap = 1;
        for (j, c) in coordinates.iter().enumerate() {
            let table_at = words.len() as u32;
            let mut extra = [0u32; 4];
            // A coordinate without a table is computed in the kernel from the
            // moves, as the CPU computes it.
            let computed = match (&c.table, &c.kind) {
                (Some(table), _) => {
                    words.extend_from_slice(table);
                    Computed::No
                }
                (None, _) if c.values > u32::MAX as u64 => {
                    return Err(unsupported(format!(
                        "a coordinate of set {} takes {} values, too many for a move table and for the kernel's 32-bit values",
                        quoted(&self.definition.sets[c.set].name),
                        c.values
                    )));
                }
                // Split in placements and runs (see `split`): the same two
                // table reads as the CPU's, the placement's next value and its
                // column packed in one word.
                (None, Kind::Permutation)
                    if c.split.as_ref().is_some_and(|split| {
                        split.placements <= 1 << SPLIT_PLACEMENT_BITS
                            && split.columns.len() as u64 / split.run_len
                                <= 1 << (32 - SPLIT_PLACEMENT_BITS)
                    }) =>
                {
                    let split = c.split.as_ref().expect("a split");
                    let entries_at = words.len() as u32;
                    words.extend(
                        split
                            .next
                            .iter()
                            .zip(&split.pick)
                            .map(|(&next, &pick)| next | (pick as u32) << SPLIT_PLACEMENT_BITS),
                    );
                    let columns_at = words.len() as u32;
                    words.extend_from_slice(&split.columns);
                    extra = [split.run_len as u32, entries_at, columns_at, 0];
                    Computed::Split
                }
                (None, Kind::Permutation) if c.by_piece && c.slots.len() <= MAX_COMPUTED_SLOTS => {
                    Computed::Permutation
                }
                (None, Kind::Multiset(ranker)) => {
                    let levels_at = words.len() as u32;
                    for level in ranker.levels() {
                        // Every radix divides the coordinate's values, which
                        // fit 32 bits (checked above).
                        words.extend([level.chosen as u32, level.size as u32, level.weight as u32]);
                    }
                    extra = [ranker.colours() as u32 - 1, levels_at, 0, 0];
                    Computed::Multiset
                }
                (
                    None,
                    Kind::Orientation {
                        orientations,
                        implied_sum,
                    },
                ) => {
                    let twists_at = words.len() as u32;
                    words.extend(
                        c.moves
                            .iter()
                            .flat_map(|m| m.twist.iter().map(|&t| t as u32)),
                    );
                    extra = [
                        *orientations as u32,
                        implied_sum.map_or(0, |sum| sum as u32 + 1),
                        twists_at,
                        0,
                    ];
                    Computed::Orientation
                }
                (None, _) => {
                    return Err(unsupported(format!(
                        "the permutation of set {} has {} slots, too many for a move table, and the kernel computes permutations of up to {MAX_COMPUTED_SLOTS}",
                        quoted(&self.definition.sets[c.set].name),
                        c.slots.len()
                    )));
                }
            };
            let moves_at = words.len() as u32;
            match computed {
                Computed::No | Computed::Split => {}
                Computed::Permutation => {
                    // Where each move sends the piece in each slot.
                    for m in &c.moves {
                        words.extend(m.destinations().iter().map(|&to| to as u32));
                    }
                }
                Computed::Multiset | Computed::Orientation => {
                    cells_cap = cells_cap.max(c.slots.len());
                    words.extend(
                        c.moves
                            .iter()
                            .flat_map(|m| m.from.iter().map(|&f| f as u32)),
                    );
                }
            }
            let parity_at = words.len() as u32;
            if let Some(bits) = &c.parities {
                words.extend(bits.iter().flat_map(|&w| [w as u32, (w >> 32) as u32]));
            }
            let (follows, rule_solved, from) = match &c.parity {
                coordinates::Parity::Free => (0, 0, Vec::new()),
                coordinates::Parity::Follows { solved, from } => {
                    (1, *solved as u32, from.iter().map(|&f| f as u32).collect())
                }
            };
            let from_at = words.len() as u32;
            words.extend_from_slice(&from);
            words[FIELDS * j..FIELDS * (j + 1)].copy_from_slice(&[
                c.values as u32,
                c.radix as u32,
                table_at,
                parity_at,
                follows,
                rule_solved,
                from_at,
                from.len() as u32,
                c.solved_parity as u32,
                computed as u32,
                c.slots.len() as u32,
                moves_at,
                extra[0],
                extra[1],
                extra[2],
                extra[3],
            ]);
            if words.len() > GPU_TABLE_WORDS {
                return Err(unsupported(format!(
                    "its move tables take more than {} MiB",
                    (GPU_TABLE_WORDS * 4) >> 20
                )));
            }
        }
        let mut program = Program::default();
        program
            .constant("COORD_COUNT", coordinates.len() as u32)
            .constant("COORD_CAP", coordinates.len().max(1) as u32)
            .constant("SPLIT", split as u32)
            .constant("MOVE_COUNT", self.moves.len() as u32)
            .constant("SPLIT_PLACEMENT_BITS", SPLIT_PLACEMENT_BITS)
            .table("COORDS_AT", &words)
            .constant("SLOT_CAP", cells_cap as u32)
            .prefix_lehmer_hash(MAX_COMPUTED_SLOTS)
            .colour_set_hash()
            .source(KSOLVE_KERNEL);
        Ok(program)
    }
}
