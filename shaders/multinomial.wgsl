// Multinomial rank and unrank of vectors over c colours with fixed colour
// counts (Algorithms 10 and 11 of Edelkamp et al., "Solving Games in Parallel
// with Linear-Time Perfect Hash Functions" (TZI report 52, Bremen, 2009)
// generalised, as src/hash/multinomial.rs). Ranks are 64-bit (vec2<u32>): 31
// cells coloured 15/15/1 already give 4.8e9 arrangements.
// Needs: `tables` and consts MULTINOMIAL_COLOURS, MULTINOMIAL_CELLS,
// MULTINOMIAL_FULL_INDEX, MULTINOMIAL_STRIDES_AT (one stride per colour) and
// MULTINOMIAL_PREFIX_AT (per count vector and colour, the 64-bit sum of the
// completions with a smaller colour: what a cell of that colour adds).

fn multinomial_prefix(index: u32, colour: u32) -> vec2<u32> {
    let at = MULTINOMIAL_PREFIX_AT + 2u * (index * MULTINOMIAL_COLOURS + colour);
    return vec2<u32>(tables[at], tables[at + 1u]);
}

fn multinomial_stride(colour: u32) -> u32 {
    return tables[MULTINOMIAL_STRIDES_AT + colour];
}

// Cells are read from the top (the last cell) down, as in Algorithm 10.
fn multinomial_rank(cells: ptr<function, array<u32, MULTINOMIAL_CELLS>>) -> vec2<u32> {
    var index = MULTINOMIAL_FULL_INDEX;
    var rank = vec2<u32>(0u, 0u);
    for (var i = MULTINOMIAL_CELLS; i > 0u; i--) {
        let colour = (*cells)[i - 1u];
        rank = u64_add(rank, multinomial_prefix(index, colour));
        index -= multinomial_stride(colour);
    }
    return rank;
}

// Algorithm 11: a cell's colour is the last whose running sum is <= the rank.
fn multinomial_unrank(rank: vec2<u32>, cells: ptr<function, array<u32, MULTINOMIAL_CELLS>>) {
    var index = MULTINOMIAL_FULL_INDEX;
    var r = rank;
    for (var i = MULTINOMIAL_CELLS; i > 0u; i--) {
        var colour = 0u;
        for (var u = 1u; u < MULTINOMIAL_COLOURS; u++) {
            if (!u64_less(r, multinomial_prefix(index, u))) {
                colour = u;
            }
        }
        r = u64_sub(r, multinomial_prefix(index, colour));
        (*cells)[i - 1u] = colour;
        index -= multinomial_stride(colour);
    }
}
