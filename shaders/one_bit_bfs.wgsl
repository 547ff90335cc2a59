// One-bit BFS (Algorithms 3 and 7 of Edelkamp et al., "Solving Games in
// Parallel with Linear-Time Perfect Hash Functions" (TZI report 52, Bremen,
// 2009)) and one-bit reachability (Algorithm 2) with the table resident on the
// device: one bit per state, 32 to a u32 word. The host drives the layers
// (which blocks a pass scans, the population counts of Theorem 3); these
// kernels run one pass over the words of one block (or a piece of it; see
// pieces.wgsl). Needs the game's `expand(block, local)`, which calls `successor`
// and `rank_preserving_successor`.

struct Params {
    block: u32,
    first_word: u32,
    words: u32,
    // Rank in the block of the first cell of the first word (wrapping: the
    // first word of a block may start before it).
    local_base: u32,
    head_mask: u32,
    tail_mask: u32,
    // 1: leave out rank-preserving moves (the one-bit BFS applies them to
    // whole blocks with `or_block`); 0: every move (reachability).
    skip_rank_preserving: u32,
    // `or_block`: the block whose bits are OR-ed into `block`.
    source_block: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

const CELL_BITS: u32 = 1u;
const ALL_CELLS: u32 = 0xffffffffu;

// The word and bit of a rank of the device table (fewer than 2^36 ranks).
fn word_of(global: vec2<u32>) -> u32 {
    return (global.y << 27u) | (global.x >> 5u);
}

fn successor(block: u32, local: u32) {
    generated += 1u;
    let start = block_start(block);
    if (start.y == ABSENT) {
        if (!looking_for_parent) {
            missed += 1u;
        }
        return;
    }
    let global = u64_add(start, u64_from(local));
    let word = word_of(global);
    let bit = 1u << (global.x & 31u);
    let held = table_load(word) & bit;
    if (looking_for_parent) {
        parent_found = parent_found || held != 0u;
    } else if (held == 0u) {
        // A plain load first: most successors are already set.
        let before = table_or(word, bit);
        if ((before & bit) == 0u) {
            marked += 1u;
        }
    }
}

fn rank_preserving_successor(block: u32, local: u32) {
    if (params.skip_rank_preserving == 0u) {
        successor(block, local);
    }
}

// Forward step: expand every set bit of the block and set its successors.
@compute @workgroup_size(256)
fn expand_set(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    looking_for_parent = false;
    reset_counts();
    var expanded = 0u;
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let set_bits = table_load(params.first_word + index) & block_cells(index);
        expanded = expand_cells(index, set_bits);
    }
    flush_counts(local_index, expanded, 0u);
}

// Pull step (reversible spaces): every clear bit of the block with a set
// neighbour is set. Only the invocation owning the word writes it.
@compute @workgroup_size(256)
fn fill_clear(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    looking_for_parent = true;
    reset_counts();
    var checked = 0u;
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        let clear = ~table_load(word) & block_cells(index);
        checked = countOneBits(clear);
        let found = cells_with_parent(index, clear);
        marked += countOneBits(found);
        if (found != 0u) {
            _ = table_or(word, found);
        }
    }
    flush_counts(local_index, 0u, checked);
}

// The 32 bits of the table from rank `global` on.
fn bits_at(global: vec2<u32>) -> u32 {
    let word = word_of(global);
    let shift = global.x & 31u;
    let low = table_load(word) >> shift;
    if (shift == 0u) {
        return low;
    }
    return low | (table_load(word + 1u) << (32u - shift));
}

// block |= source_block, bit by bit in rank order (Algorithm 7, line 12):
// one invocation per word of `block`, which reads the source's bits at the
// same ranks within the blocks (the two need not share a word alignment).
@compute @workgroup_size(256)
fn or_block(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    reset_counts();
    let index = invocation_index(group, groups, local_index);
    let source = block_start(params.source_block);
    if (index < params.words) {
        if (source.y == ABSENT) {
            missed = 1u;
        } else {
            let local = index * 32u + params.local_base;
            var bits: u32;
            if (index == 0u && local >= 0xffffffe0u) {
                // The block starts inside this word, `0 - local` bits in.
                bits = bits_at(source) << (0u - local);
            } else {
                bits = bits_at(u64_add(source, u64_from(local)));
            }
            bits &= block_cells(index);
            if (bits != 0u) {
                _ = table_or(params.first_word + index, bits);
            }
        }
    }
    flush_counts(local_index, 0u, 0u);
}

// Counts the set bits of the block (into the first counter).
@compute @workgroup_size(256)
fn count_set(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    reset_counts();
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        marked = countOneBits(table_load(params.first_word + index) & block_cells(index));
    }
    flush_counts(local_index, 0u, 0u);
}
