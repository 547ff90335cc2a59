// What every kernel dispatched over pieces of a table shares, the WGSL half
// of src/backend/gpu/kernel_set.rs: the rule tables (binding 1), the 64-bit
// counters (binding 2) and a workgroup's sums of them, and where an
// invocation's word and cells lie in the dispatch's piece.
//
// One invocation owns one 32-bit word of the table. A dispatch covers the
// words of one block (or of a piece of it); the block's first and last
// words may hold cells of the neighbouring blocks, which `params.head_mask`
// / `params.tail_mask` leave out.
// Needs from the including kernels: `params` (binding 0) with fields
// block, first_word, words, local_base, head_mask and tail_mask; COUNTERS
// (how many 64-bit counters they keep), CELL_BITS (bits per cell) and
// ALL_CELLS (the low bit of every cell of a word).

@group(0) @binding(1) var<storage, read> tables: array<u32>;
// The counters as (low, high) pairs of u32 words.
@group(0) @binding(2) var<storage, read_write> counters: array<atomic<u32>, 2u * COUNTERS>;

const WORKGROUP: u32 = 256u;

var<workgroup> group_counts: array<atomic<u32>, COUNTERS>;

fn invocation_index(group: vec3<u32>, groups: vec3<u32>, local_index: u32) -> u32 {
    return (group.y * groups.x + group.x) * WORKGROUP + local_index;
}

// Cells of this dispatch's block in the invocation's word, as low bits.
fn block_cells(index: u32) -> u32 {
    var mask = ALL_CELLS;
    if (index == 0u) {
        mask &= params.head_mask;
    }
    if (index == params.words - 1u) {
        mask &= params.tail_mask;
    }
    return mask;
}

// The rank in the block of the cell whose low bit is `bit` in the
// dispatch's word `index`.
fn local_rank(index: u32, bit: u32) -> u32 {
    return index * (32u / CELL_BITS) + bit / CELL_BITS + params.local_base;
}

fn add_to_counter(pair: u32, amount: u32) {
    if (amount != 0u) {
        let before = atomicAdd(&counters[2u * pair], amount);
        if (before + amount < before) {
            atomicAdd(&counters[2u * pair + 1u], 1u);
        }
    }
}

// A workgroup sums its invocations' counts, then one invocation adds them
// to the global counters (COUNTERS global atomics a workgroup, not one an
// invocation): every invocation calls `begin_group_counts`, adds its
// counts to `group_counts`, then calls `end_group_counts`.
fn begin_group_counts(local_index: u32) {
    if (local_index == 0u) {
        for (var i = 0u; i < COUNTERS; i++) {
            atomicStore(&group_counts[i], 0u);
        }
    }
    workgroupBarrier();
}

fn end_group_counts(local_index: u32) {
    workgroupBarrier();
    if (local_index == 0u) {
        for (var i = 0u; i < COUNTERS; i++) {
            add_to_counter(i, atomicLoad(&group_counts[i]));
        }
    }
}
