// What the BFS kernels of every algorithm share (two_bit_bfs.wgsl,
// one_bit_bfs.wgsl), beside pieces.wgsl: the work counts an invocation
// keeps while a game's `expand` calls `successor`, the expansion of a
// word's cells, and the counters' flush.
// Needs from the algorithm what pieces.wgsl needs, and the game's `expand`.

// The counters: cells the pass changed (or counted), states expanded,
// successors generated, parents checked, and successors that fell in a
// block not in device memory (streaming; must stay 0).
const COUNTERS: u32 = 5u;
// The high word of a block start that marks the block as not in device
// memory (while blocks stream through it).
const ABSENT: u32 = 0xffffffffu;

// What `successor` does: mark unseen successors (forward), or look for a
// neighbour in the frontier (checking parents).
var<private> looking_for_parent: bool;
var<private> parent_found: bool;
var<private> marked: u32;
var<private> generated: u32;
var<private> missed: u32;

fn block_start(block: u32) -> vec2<u32> {
    return vec2<u32>(tables[BLOCK_STARTS_AT + 2u * block], tables[BLOCK_STARTS_AT + 2u * block + 1u]);
}

// Expands the cells whose low bits are set in `cells` (of the dispatch's
// word `index`); returns how many.
fn expand_cells(index: u32, cells: u32) -> u32 {
    var mask = cells;
    while (mask != 0u) {
        let bit = firstTrailingBit(mask);
        mask &= mask - 1u;
        expand(params.block, local_rank(index, bit));
    }
    return countOneBits(cells);
}

// Looks for a parent of each cell whose low bit is set in `cells` (stopping
// at the first); returns the low bits of the cells that have one.
fn cells_with_parent(index: u32, cells: u32) -> u32 {
    var mask = cells;
    var found = 0u;
    while (mask != 0u) {
        let bit = firstTrailingBit(mask);
        mask &= mask - 1u;
        parent_found = false;
        expand(params.block, local_rank(index, bit));
        if (parent_found) {
            found |= 1u << bit;
        }
    }
    return found;
}

fn reset_counts() {
    marked = 0u;
    generated = 0u;
    missed = 0u;
}

// Adds the invocations' counts to the counters, a sum per workgroup.
fn flush_counts(local_index: u32, expanded: u32, checked: u32) {
    begin_group_counts(local_index);
    atomicAdd(&group_counts[0], marked);
    atomicAdd(&group_counts[1], expanded);
    atomicAdd(&group_counts[2], generated);
    atomicAdd(&group_counts[3], checked);
    atomicAdd(&group_counts[4], missed);
    end_group_counts(local_index);
}
