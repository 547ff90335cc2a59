// Pancake and burned Pancake expansion (src/games/pancake.rs): a block is a
// pattern of burned sides (one block when not burned), a rank in it the
// prefix Lehmer rank of the stack (shaders/prefix_lehmer.wgsl), position 0
// on top. A flip of the top k keeps the digits of positions >= k, so a
// successor's rank is the parent's with its digits below k replaced.
// Needs: consts PANCAKES, BURNED (0 or 1), FLIPS_AT and FLIP_COUNT (the flip
// lengths the CPU uses, in increasing order, in `tables`).

fn expand(block: u32, local: u32) {
    var stack: Permutation;
    pl_unrank(local, PANCAKES, &stack);
    // The parent's digits of positions < p, summed (with their weights).
    var parent_low = 0u;
    var parent_before = 0u;
    var weight = 1u;
    var p = 0u;
    for (var f = 0u; f < FLIP_COUNT; f++) {
        let k = tables[FLIPS_AT + f];
        for (; p < k; p++) {
            let value = stack[p];
            parent_low += pl_larger_before(parent_before, value) * weight;
            parent_before |= 1u << value;
            weight *= p + 1u;
        }
        let rank = local - parent_low + pl_reversed_prefix_digits(&stack, k);
        var sides = 0u;
        if (BURNED == 1u) {
            // The top k side bits reverse their order and all turn over.
            let top = (1u << k) - 1u;
            let reversed = reverseBits(block & top) >> (32u - k);
            sides = (block & ~top) | (reversed ^ top);
        }
        successor(sides, rank);
    }
}
