// Multinomial rank and unrank of vectors over c colours with fixed colour
// counts (Algorithms 10 and 11 of Edelkamp et al., "Solving Games in Parallel
// with Linear-Time Perfect Hash Functions" (TZI report 52, Bremen, 2009)
// generalised, as src/hash/multinomial.rs). Ranks are 64-bit (vec2<u32>): 31
// cells coloured 15/15/1 already give 4.8e9 arrangements.
// Needs: `tables`, const MULTINOMIAL_CAP (the most cells a vector has) and,
// per ranker, a `Multinomial` saying where its tables lie: one stride per
// colour at `strides_at`, and at `prefix_at`, per count vector and colour,
// the 64-bit sum of the completions with a smaller colour (what a cell of
// that colour adds). `kernel::multinomial_words` lays them out.

struct Multinomial {
    colours: u32,
    full_index: u32,
    strides_at: u32,
    prefix_at: u32,
}

alias MultinomialCells = array<u32, MULTINOMIAL_CAP>;

fn multinomial_prefix(h: Multinomial, index: u32, colour: u32) -> vec2<u32> {
    let at = h.prefix_at + 2u * (index * h.colours + colour);
    return vec2<u32>(tables[at], tables[at + 1u]);
}

fn multinomial_stride(h: Multinomial, colour: u32) -> u32 {
    return tables[h.strides_at + colour];
}

// Cells are read from the top (the last of the n) down, as in Algorithm 10.
fn multinomial_rank(h: Multinomial, n: u32, cells: ptr<function, MultinomialCells>) -> vec2<u32> {
    var index = h.full_index;
    var rank = vec2<u32>(0u, 0u);
    for (var i = n; i > 0u; i--) {
        let colour = (*cells)[i - 1u];
        rank = u64_add(rank, multinomial_prefix(h, index, colour));
        index -= multinomial_stride(h, colour);
    }
    return rank;
}

// Algorithm 11: a cell's colour is the last whose running sum is <= the rank.
fn multinomial_unrank(h: Multinomial, rank: vec2<u32>, n: u32, cells: ptr<function, MultinomialCells>) {
    var index = h.full_index;
    var r = rank;
    for (var i = n; i > 0u; i--) {
        var colour = 0u;
        for (var u = 1u; u < h.colours; u++) {
            if (!u64_less(r, multinomial_prefix(h, index, u))) {
                colour = u;
            }
        }
        r = u64_sub(r, multinomial_prefix(h, index, colour));
        (*cells)[i - 1u] = colour;
        index -= multinomial_stride(h, colour);
    }
}
