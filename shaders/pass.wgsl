// What the pass kernels of every algorithm share (two_bit_bfs.wgsl,
// one_bit_bfs.wgsl): the rule tables and counters, the work counts an
// invocation keeps while a game's `expand` calls `successor`, the cells of
// a dispatch's block in an invocation's word, and the counters' flush.
//
// One invocation owns one 32-bit word of the table. A dispatch covers the
// words of one block (or of a piece of it); the block's first and last
// words may hold cells of the neighbouring blocks, which `params.head_mask`
// / `params.tail_mask` leave out.
// Needs from the algorithm: `params` with fields block, first_word, words,
// local_base, head_mask and tail_mask, CELL_BITS (bits per cell) and
// ALL_CELLS (the low bit of every cell of a word); and the game's `expand`.

@group(0) @binding(1) var<storage, read> tables: array<u32>;
// 64-bit counters as (low, high) pairs: cells the pass changed (or counted),
// states expanded, successors generated, parents checked, and successors
// that fell in a block not in device memory (streaming; must stay 0).
@group(0) @binding(2) var<storage, read_write> counters: array<atomic<u32>, 10>;

const WORKGROUP: u32 = 256u;
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

var<workgroup> group_counts: array<atomic<u32>, 5>;

fn block_start(block: u32) -> vec2<u32> {
    return vec2<u32>(tables[BLOCK_STARTS_AT + 2u * block], tables[BLOCK_STARTS_AT + 2u * block + 1u]);
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

fn invocation_index(group: vec3<u32>, groups: vec3<u32>, local_index: u32) -> u32 {
    return (group.y * groups.x + group.x) * WORKGROUP + local_index;
}

fn reset_counts() {
    marked = 0u;
    generated = 0u;
    missed = 0u;
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
