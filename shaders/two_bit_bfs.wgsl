// Two-bit breadth-first search with the table resident on the device
// (Algorithm 1 of Edelkamp et al., "Solving Games in Parallel with Linear-Time
// Perfect Hash Functions" (TZI report 52, Bremen, 2009), with the cell values
// of src/search/two_bit_bfs.rs: 3 unseen, 0 closed, 1 and 2 alternating as
// frontier and next layer). Section 6.2 of the paper keeps the table on the
// host and ships index and successor lists across the bus every layer; here
// one kernel scans the table words, unranks, expands, ranks and marks the
// successors, and only counters come back.
//
// One invocation owns one 32-bit word (16 cells); see pieces.wgsl. Needs the
// game's `expand(block, local)`, which calls `successor`.

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

const UNSEEN: u32 = 3u;
const LOW_BITS: u32 = 0x55555555u;
const CELL_BITS: u32 = 2u;
const ALL_CELLS: u32 = LOW_BITS;

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

// The two-bit BFS expands every move alike.
fn rank_preserving_successor(block: u32, local: u32) {
    successor(block, local);
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
    reset_counts();
    var expanded = 0u;
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        let frontier = cells_equal(table_load(word), params.frontier) & block_cells(index);
        expanded = expand_cells(index, frontier);
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
    reset_counts();
    var checked = 0u;
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        let unseen = cells_equal(table_load(word), UNSEEN) & block_cells(index);
        checked = countOneBits(unseen);
        let found = cells_with_parent(index, unseen);
        marked += countOneBits(found);
        if (found != 0u) {
            // 3 -> next in every found cell: its low bit times the bits to clear.
            _ = table_and(word, ~(found * (UNSEEN ^ params.next)));
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

// Counts the cells of the block holding `params.frontier` (into the first
// counter): a layer's size, without reading the table back.
@compute @workgroup_size(256)
fn count_equal(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    reset_counts();
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        marked = countOneBits(cells_equal(table_load(word), params.frontier) & block_cells(index));
    }
    flush_counts(local_index, 0u, 0u);
}
