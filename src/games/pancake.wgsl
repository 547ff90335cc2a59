// Pancake and burned Pancake expansion (src/games/pancake.rs): a block is a
// pattern of burned sides (one block when not burned), a rank in it the
// Myrvold–Ruskey rank of the stack, position 0 on top.
// Needs: consts PANCAKES, BURNED (0 or 1), FLIPS_AT and FLIP_COUNT (the flip
// lengths the CPU uses, in `tables`).

fn expand(block: u32, local: u32) {
    var stack: Permutation;
    _ = mr_unrank(local, PANCAKES, &stack);
    for (var f = 0u; f < FLIP_COUNT; f++) {
        let k = tables[FLIPS_AT + f];
        var flipped = stack;
        for (var i = 0u; i < k; i++) {
            flipped[i] = stack[k - 1u - i];
        }
        let rank = mr_rank(&flipped, PANCAKES);
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
