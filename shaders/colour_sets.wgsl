// The games' shared multinomial hash, one level at a time (as
// src/hash/colour_sets.rs): an arrangement of colours is ranked as nested
// sets, level j the set of cells of colour above j among those of colour j
// or more, each a binomial rank (Algorithm 8 of Edelkamp et al., "Solving
// Games in Parallel with Linear-Time Perfect Hash Functions", 2009) of the
// set's bits packed onto the level's cells. The levels' ranks are the
// digits of the arrangement's rank in mixed radix, the first the most
// significant; a caller combines them (positional games split them into
// blocks, definition files into one 32-bit value).
// Needs the binomial hash (shaders/binomial.wgsl). Each function loops
// once per cell of `among`, packing and ranking together (a bit gather and
// a rank would loop twice: see src/kernel.rs on lavapipe's loop limit).

// The rank of `chosen` (a subset of `among`) among the cells of `among`:
// the j-th chosen cell, the p-th cell of `among` (from 0), adds C(p, j).
fn colour_level_rank(chosen: vec2<u32>, among: vec2<u32>) -> u32 {
    var rank = 0u;
    var rest = among;
    var position = 0u;
    var ones = 0u;
    while (rest.x != 0u || rest.y != 0u) {
        if (mask64_test(chosen, mask64_lowest(rest))) {
            ones += 1u;
            if (ones <= position) {
                rank += binomial(position, ones);
            }
        }
        position += 1u;
        rest = mask64_drop_lowest(rest);
    }
    return rank;
}

// The set of `chosen_count` cells of `among` of level rank `rank`
// (Algorithm 9 over the cells of `among`, from the top).
fn colour_level_unrank(rank: u32, among: vec2<u32>, chosen_count: u32) -> vec2<u32> {
    var r = rank;
    let n = mask64_count(among);
    var zeros = n - chosen_count;
    var chosen = vec2<u32>(0u, 0u);
    var rest = among;
    for (var position = n; position > 0u; position--) {
        let cell = mask64_highest(rest);
        rest &= ~mask64_bit(cell);
        // Sets that leave this cell out: C(position - 1, zeros - 1).
        var with_zero = 0u;
        if (zeros > 0u && zeros <= position) {
            with_zero = binomial(position - 1u, zeros - 1u);
        }
        if (r >= with_zero) {
            chosen |= mask64_bit(cell);
            r -= with_zero;
        } else {
            zeros -= 1u;
        }
    }
    return chosen;
}
