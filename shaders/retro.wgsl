// Two-bit retrograde analysis of one layer with its values resident on the
// device, after Algorithm 4 of Edelkamp, Messerschmidt, Sulewski and Yücel,
// "Solving Games in Parallel with Linear-Time Perfect Hash Functions", 2009,
// with the cell values, draws and the one recorded value of
// src/search/retro2 (see its module documentation and judge.rs). Pass 0
// judges every unknown position from its moves' values (the layer below's
// in place of lines 9-17, and the layer's own as lines 19-37 do); a later
// pass judges only the candidates: the predecessors of the positions the
// pass before decided (`propagate`), since a position's verdict changes
// only when one of its moves' values does. Values only go from unknown to
// decided, so a judgement that reads a cell another invocation decides in
// the same pass still sees values of the fixpoint, and the decided cell's
// predecessors are judged again in the next pass.
//
// One invocation owns one 32-bit word (16 cells) of the layer's table, as in
// pieces.wgsl, and the same 16 cells of the one-bit tables `changed` (decided
// in the pass before) and `candidates`. Needs: the game's retro rules
// (src/kernel.rs lists them), the accessors `values_load` / `values_and` /
// `values_or` of the layer's table, `lower_load` of the layer below's (a
// dummy without one), and `changed_*` and `candidates_*`, and consts
// RETRO_BLOCK_STARTS_AT / RETRO_LOWER_STARTS_AT (each block's first rank in
// its table, as (low, high)), RETRO_HAS_LOWER, RETRO_MARKS (0: the mark
// tables are one-word stand-ins, and every pass judges all unknown
// positions), RETRO_REDUCED (symmetry: only
// representatives are judged) and RETRO_RECORDED (the only value recorded
// before the final fill, 0 if every value is).

struct Params {
    block: u32,
    first_word: u32,
    words: u32,
    // Rank in the block of the first cell of the first word (wrapping: the
    // first word of a block may start before it).
    local_base: u32,
    // Low-bit masks of the block's cells in its first and last words.
    head_mask: u32,
    tail_mask: u32,
    // The value `fill_unknown` writes; for `judge`, 0 to judge every
    // unknown position (pass 0), 1 only the candidates.
    value: u32,
    unused: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// The counters (pieces.wgsl): positions judged and predecessors generated,
// positions decided, and moves into a layer below that is not there (must
// stay 0).
const COUNTERS: u32 = 3u;

const LOW_BITS: u32 = 0x55555555u;
const CELL_BITS: u32 = 2u;
const ALL_CELLS: u32 = LOW_BITS;
const DRAW: u32 = 3u;

// The tally of one position's moves (judge.rs's Tally).
var<private> tally_win: u32;
var<private> tally_loss: u32;
var<private> tally_moves: u32;
var<private> tally_draws: bool;
var<private> tally_open: bool;
var<private> tally_won: bool;
var<private> missed: u32;
var<private> generated: u32;

// Low bit of every 2-bit cell of `word` equal to `value`.
fn cells_equal(word: u32, value: u32) -> u32 {
    let difference = word ^ (LOW_BITS * value);
    return ~(difference | (difference >> 1u)) & LOW_BITS;
}

// The word and shift of cell (block, local) of a table whose block starts
// are at `starts_at`. Tables hold fewer than 2^36 cells, so the word index
// fits 32 bits.
fn cell_address(starts_at: u32, block: u32, local: u32) -> vec2<u32> {
    let start = vec2<u32>(tables[starts_at + 2u * block], tables[starts_at + 2u * block + 1u]);
    let global = u64_add(start, u64_from(local));
    return vec2<u32>((global.y << 28u) | (global.x >> 4u), 2u * (global.x & 15u));
}

// The one-bit tables' word and bit of cell (block, local) of the layer.
fn bit_address(block: u32, local: u32) -> vec2<u32> {
    let start = vec2<u32>(tables[RETRO_BLOCK_STARTS_AT + 2u * block],
                          tables[RETRO_BLOCK_STARTS_AT + 2u * block + 1u]);
    let global = u64_add(start, u64_from(local));
    return vec2<u32>((global.y << 27u) | (global.x >> 5u), global.x & 31u);
}

// The low 16 bits of `bits` at the even bits (one bit per two-bit cell).
fn spread(bits: u32) -> u32 {
    var x = bits & 0xffffu;
    x = (x | (x << 8u)) & 0x00ff00ffu;
    x = (x | (x << 4u)) & 0x0f0f0f0fu;
    x = (x | (x << 2u)) & 0x33333333u;
    x = (x | (x << 1u)) & 0x55555555u;
    return x;
}

// The inverse of `spread`: the even bits packed low.
fn gather(cells: u32) -> u32 {
    var x = cells & 0x55555555u;
    x = (x | (x >> 1u)) & 0x33333333u;
    x = (x | (x >> 2u)) & 0x0f0f0f0fu;
    x = (x | (x >> 4u)) & 0x00ff00ffu;
    x = (x | (x >> 8u)) & 0x0000ffffu;
    return x;
}

// Called by the game's `retro_predecessors`: a candidate for the next judgement.
fn retro_predecessor(block: u32, local: u32) {
    let at = bit_address(block, local);
    _ = candidates_or(at.x, 1u << at.y);
    generated += 1u;
}

fn value_here(block: u32, local: u32) -> u32 {
    let at = cell_address(RETRO_BLOCK_STARTS_AT, block, local);
    return (values_load(at.x) >> at.y) & 3u;
}

fn value_below(block: u32, local: u32) -> u32 {
    if (RETRO_HAS_LOWER == 0u) {
        missed += 1u;
        return 0u;
    }
    let at = cell_address(RETRO_LOWER_STARTS_AT, block, local);
    return (lower_load(at.x) >> at.y) & 3u;
}

// Called by the game's `retro_moves` for each move: sees its value; false
// once more moves cannot change what is recorded.
fn retro_move(lower: bool, block: u32, local: u32) -> bool {
    var value: u32;
    if (lower) {
        value = value_below(block, local);
    } else {
        value = value_here(block, local);
    }
    tally_moves += 1u;
    if (value == tally_win) {
        tally_won = true;
        return false;
    }
    if (value == tally_loss) {
        return true;
    }
    if (value == DRAW) {
        tally_draws = true;
    } else {
        tally_open = true;
    }
    // When only the mover's loss can be recorded, it needs every move lost.
    return RETRO_RECORDED == 0u || RETRO_RECORDED == tally_win;
}

// The value to record for the unranked position, or 0 (still unknown, or
// a value that is not recorded).
fn judge_position() -> u32 {
    var verdict = retro_rule_value();
    if (verdict == 0u) {
        tally_win = retro_mover();
        tally_loss = 3u - tally_win;
        tally_moves = 0u;
        tally_draws = false;
        tally_open = false;
        tally_won = false;
        retro_moves();
        if (tally_won) {
            verdict = tally_win;
        } else if (tally_open) {
            verdict = 0u;
        } else if (tally_moves == 0u) {
            verdict = retro_no_move_value();
        } else if (tally_draws) {
            verdict = DRAW;
        } else {
            verdict = tally_loss;
        }
    }
    if (RETRO_RECORDED != 0u && verdict != RETRO_RECORDED) {
        return 0u;
    }
    return verdict;
}

// Adds the invocations' counts to the counters, a sum per workgroup.
fn flush_counts(local_index: u32, examined: u32, decided: u32) {
    begin_group_counts(local_index);
    atomicAdd(&group_counts[0], examined);
    atomicAdd(&group_counts[1], decided);
    atomicAdd(&group_counts[2], missed);
    end_group_counts(local_index);
}

// Judges the unknown (representative) positions of the word: all of them
// (pass 0) or the candidates, whose marks it clears. A decision is written
// at once, so later judgements of the pass see it, and marked as changed.
@compute @workgroup_size(256)
fn judge(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    missed = 0u;
    var examined = 0u;
    var decided = 0u;
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        // The word's 16 cells are half of a one-bit word.
        let half = word >> 1u;
        let shift = 16u * (word & 1u);
        let cells = block_cells(index);
        var unknown = cells_equal(values_load(word), 0u) & cells;
        if (params.value == 1u) {
            unknown &= spread(candidates_load(half) >> shift);
            // Only this block's cells: a neighbouring block's piece may
            // come later in the pass.
            _ = candidates_and(half, ~(gather(cells) << shift));
        }
        var changed = 0u;
        while (unknown != 0u) {
            let bit = firstTrailingBit(unknown);
            unknown &= unknown - 1u;
            retro_unrank(params.block, local_rank(index, bit));
            if (RETRO_REDUCED == 1u && !retro_is_representative()) {
                // Copied from its twin at the end.
                continue;
            }
            examined += 1u;
            let value = judge_position();
            if (value != 0u) {
                _ = values_or(word, value << bit);
                changed |= 1u << bit;
                decided += 1u;
            }
        }
        // Without marks (RETRO_MARKS 0) every pass judges all again.
        if (RETRO_MARKS == 1u && changed != 0u) {
            _ = changed_or(half, gather(changed) << shift);
        }
    }
    flush_counts(local_index, examined, decided);
}

// The first half of a later pass: the predecessors of the positions the
// pass before decided become candidates, and the changed marks are cleared.
@compute @workgroup_size(256)
fn propagate(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    missed = 0u;
    generated = 0u;
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        let half = word >> 1u;
        let shift = 16u * (word & 1u);
        let changed = (changed_load(half) >> shift) & gather(block_cells(index));
        var rest = spread(changed);
        while (rest != 0u) {
            let bit = firstTrailingBit(rest);
            rest &= rest - 1u;
            retro_unrank(params.block, local_rank(index, bit));
            retro_predecessors();
        }
        if (changed != 0u) {
            _ = changed_and(half, ~(changed << shift));
        }
    }
    flush_counts(local_index, generated, 0u);
}

// At the fixpoint: every unknown cell of the piece takes `params.value`.
@compute @workgroup_size(256)
fn fill_unknown(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        let unknown = cells_equal(values_load(word), 0u) & block_cells(index);
        if (unknown != 0u) {
            // Cells are two bits apart: no carries.
            _ = values_or(word, unknown * params.value);
        }
    }
}

// With symmetry, after the fill: every position that is not its own
// representative takes its twin's value (pulled: only representatives are
// read, only the others written).
@compute @workgroup_size(256)
fn copy_from_twins(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        var cells = block_cells(index);
        var cleared = 0u;
        var copied = 0u;
        while (cells != 0u) {
            let bit = firstTrailingBit(cells);
            cells &= cells - 1u;
            retro_unrank(params.block, local_rank(index, bit));
            if (!retro_is_representative()) {
                let twin = retro_twin();
                cleared |= 3u << bit;
                copied |= value_here(twin.x, twin.y) << bit;
            }
        }
        if (cleared != 0u) {
            _ = values_and(word, ~cleared);
            _ = values_or(word, copied);
        }
    }
}
