// Two-bit breadth-first search with the table resident on the device
// (Algorithm 1 of 002_f83af64931234a7c.txt, with the cell values of
// src/search/two_bit_bfs.rs: 3 unseen, 0 closed, 1 and 2 alternating as
// frontier and next layer). Section 6.2 of the paper keeps the table on the
// host and ships index and successor lists across the bus every layer; here
// one kernel scans the table words, unranks, expands, ranks and marks the
// successors, and only counters come back.
//
// One invocation owns one 32-bit word (16 cells). A dispatch covers the
// words of one block (or of a piece of it); the block's first and last
// words may hold cells of the neighbouring blocks, which `params.head_mask`
// / `params.tail_mask` leave out. Needs the game's `expand(block, local)`, which calls `successor`.

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
    frontier: u32,
    next: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> tables: array<u32>;
// 64-bit counters as (low, high) pairs: new states of the next layer,
// states expanded, successors generated, parents checked, and successors
// that fell in a block not in device memory (streaming; must stay 0).
@group(0) @binding(2) var<storage, read_write> counters: array<atomic<u32>, 10>;

const UNSEEN: u32 = 3u;
const LOW_BITS: u32 = 0x55555555u;
const WORKGROUP: u32 = 256u;

// What `successor` does: mark unseen successors (forward), or look for a
// neighbour in the frontier (checking parents).
var<private> looking_for_parent: bool;
var<private> parent_found: bool;
var<private> marked: u32;
var<private> generated: u32;
var<private> missed: u32;

var<workgroup> group_counts: array<atomic<u32>, 5>;

// The high word of a block start that marks the block as not in device
// memory (while blocks stream through it).
const ABSENT: u32 = 0xffffffffu;

fn block_start(block: u32) -> vec2<u32> {
    return vec2<u32>(tables[BLOCK_STARTS_AT + 2u * block], tables[BLOCK_STARTS_AT + 2u * block + 1u]);
}

// Low bit of every 2-bit cell of `word` equal to `value`.
fn cells_equal(word: u32, value: u32) -> u32 {
    let difference = word ^ (LOW_BITS * value);
    return ~(difference | (difference >> 1u)) & LOW_BITS;
}

fn successor(block: u32, local: u32) {
    generated += 1u;
    let start = block_start(block);
    if (start.y == ABSENT) {
        // A parent cannot lie outside the blocks in place (they hold the
        // frontier); a successor must not.
        if (!looking_for_parent) {
            missed += 1u;
        }
        return;
    }
    let global = u64_add(start, u64_from(local));
    // Tables hold fewer than 2^36 cells, so the word index fits 32 bits.
    let word = (global.y << 28u) | (global.x >> 4u);
    let shift = 2u * (global.x & 15u);
    let cell = (table_load(word) >> shift) & 3u;
    if (looking_for_parent) {
        parent_found = parent_found || cell == params.frontier;
    } else if (cell == UNSEEN) {
        // 3 -> next with one atomic AND; every writer of this layer writes
        // the same value, so the cell's old value says who was first.
        let before = table_and(word, ~((UNSEEN ^ params.next) << shift));
        if (((before >> shift) & 3u) == UNSEEN) {
            marked += 1u;
        }
    }
}

// Cells of this dispatch's block in the invocation's word, as low bits.
fn block_cells(index: u32) -> u32 {
    var mask = LOW_BITS;
    if (index == 0u) {
        mask &= params.head_mask;
    }
    if (index == params.words - 1u) {
        mask &= params.tail_mask;
    }
    return mask;
}

fn invocation_index(group: vec3<u32>, groups: vec3<u32>, local_index: u32) -> u32 {
    return (group.y * groups.x + group.x) * WORKGROUP + local_index;
}

fn add_to_counter(pair: u32, amount: u32) {
    if (amount != 0u) {
        let before = atomicAdd(&counters[2u * pair], amount);
        if (before + amount < before) {
            atomicAdd(&counters[2u * pair + 1u], 1u);
        }
    }
}

// Sums the invocations' counts in the workgroup, then one invocation adds
// them to the global counters: five global atomics per workgroup.
fn flush_counts(local_index: u32, expanded: u32, checked: u32) {
    if (local_index == 0u) {
        for (var i = 0u; i < 5u; i++) {
            atomicStore(&group_counts[i], 0u);
        }
    }
    workgroupBarrier();
    atomicAdd(&group_counts[0], marked);
    atomicAdd(&group_counts[1], expanded);
    atomicAdd(&group_counts[2], generated);
    atomicAdd(&group_counts[3], checked);
    atomicAdd(&group_counts[4], missed);
    workgroupBarrier();
    if (local_index == 0u) {
        for (var i = 0u; i < 5u; i++) {
            add_to_counter(i, atomicLoad(&group_counts[i]));
        }
    }
}

// Forward step: expand every frontier cell of the block. The frontier stays
// as it is until `close_frontier`, so a killed run can redo the layer.
@compute @workgroup_size(256)
fn expand_frontier(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    looking_for_parent = false;
    marked = 0u;
    generated = 0u;
    missed = 0u;
    var expanded = 0u;
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        var mask = cells_equal(table_load(word), params.frontier) & block_cells(index);
        while (mask != 0u) {
            let cell = firstTrailingBit(mask) >> 1u;
            mask &= mask - 1u;
            expanded += 1u;
            expand(params.block, index * 16u + cell + params.local_base);
        }
    }
    flush_counts(local_index, expanded, 0u);
}

// Backward step (once fewer states are unseen than sit in the frontier, in
// a reversible space): an unseen cell with a neighbour in the frontier joins
// the next layer. Only the invocation owning the cell writes it.
@compute @workgroup_size(256)
fn check_parents(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    looking_for_parent = true;
    marked = 0u;
    generated = 0u;
    missed = 0u;
    var checked = 0u;
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        var mask = cells_equal(table_load(word), UNSEEN) & block_cells(index);
        var lower = 0u;
        while (mask != 0u) {
            let bit = firstTrailingBit(mask);
            mask &= mask - 1u;
            checked += 1u;
            parent_found = false;
            expand(params.block, index * 16u + (bit >> 1u) + params.local_base);
            if (parent_found) {
                lower |= (UNSEEN ^ params.next) << bit;
                marked += 1u;
            }
        }
        if (lower != 0u) {
            _ = table_and(word, ~lower);
        }
    }
    flush_counts(local_index, 0u, checked);
}

// After a layer: the frontier cells of the block become closed (0).
@compute @workgroup_size(256)
fn close_frontier(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        let mask = cells_equal(table_load(word), params.frontier) & block_cells(index);
        if (mask != 0u) {
            _ = table_and(word, ~(mask | (mask << 1u)));
        }
    }
}

// A fresh table: every cell unseen. New buffers read as zero, so OR-ing in
// ones is a fill.
@compute @workgroup_size(256)
fn fill_unseen(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        _ = table_or(params.first_word + index, 0xffffffffu);
    }
}
