// Binomial rank and unrank of n-bit vectors with k ones (Algorithms 8 and 9
// of Edelkamp et al., "Solving Games in Parallel with Linear-Time Perfect Hash
// Functions" (TZI report 52, Bremen, 2009)), as src/hash/binomial.rs, over
// 64-bit masks.
// Needs: `tables` and const BINOMIAL_AT, where tables[BINOMIAL_AT + 65 n + k]
// holds C(n, k) saturated at 2^32 - 1. Every term a rank adds is at most the
// rank, and a saturated term is only ever compared with a rank below it, so
// saturation is exact for vector sets of fewer than 2^32 - 1 elements.

fn binomial(n: u32, k: u32) -> u32 {
    return tables[BINOMIAL_AT + 65u * n + k];
}

// Algorithm 8 over the set bits only: the j-th one from the bottom, at
// position i, adds C(i, j).
fn binomial_rank(bits: vec2<u32>) -> u32 {
    var rank = 0u;
    var remaining = bits;
    var ones_below = 0u;
    while (remaining.x != 0u || remaining.y != 0u) {
        let position = mask64_lowest(remaining);
        remaining = mask64_drop_lowest(remaining);
        ones_below += 1u;
        if (ones_below <= position) {
            rank += binomial(position, ones_below);
        }
    }
    return rank;
}

// Algorithm 9: the n-bit vector with `ones` ones of rank `rank`.
fn binomial_unrank(rank: u32, n: u32, ones: u32) -> vec2<u32> {
    var r = rank;
    var zeros = n - ones;
    var bits = vec2<u32>(0u, 0u);
    for (var i = n; i > 0u; i--) {
        let position = i - 1u;
        // Vectors that continue with a zero here: C(position, zeros - 1).
        var with_zero = 0u;
        if (zeros > 0u && zeros - 1u <= position) {
            with_zero = binomial(position, zeros - 1u);
        }
        if (r >= with_zero) {
            bits |= mask64_bit(position);
            r -= with_zero;
        } else {
            zeros -= 1u;
        }
    }
    return bits;
}

// A second colour is ranked among the points the first leaves free: its
// bits at the free points are packed low (`bits_gather`), ranked, and on
// unrank placed back (`bits_scatter`). Both loop once per set bit of `mask`
// (a few dozen iterations: see src/kernel.rs on lavapipe's loop limit).

// The bits of `value` at the set bits of `mask`, packed low.
fn bits_gather(value: u32, mask: u32) -> u32 {
    var packed = 0u;
    var bit = 0u;
    var rest = mask;
    while (rest != 0u) {
        packed |= ((value >> firstTrailingBit(rest)) & 1u) << bit;
        bit += 1u;
        rest &= rest - 1u;
    }
    return packed;
}

// The low bits of `packed` placed at the set bits of `mask`, in order (the
// inverse of bits_gather).
fn bits_scatter(packed: u32, mask: u32) -> u32 {
    var value = 0u;
    var bit = 0u;
    var rest = mask;
    while (rest != 0u) {
        value |= ((packed >> bit) & 1u) << firstTrailingBit(rest);
        bit += 1u;
        rest &= rest - 1u;
    }
    return value;
}

// The same over 64-bit masks: one iteration per set bit of `mask`.

fn bits64_gather(value: vec2<u32>, mask: vec2<u32>) -> vec2<u32> {
    var packed = vec2<u32>(0u, 0u);
    var bit = 0u;
    var rest = mask;
    while (rest.x != 0u || rest.y != 0u) {
        if (mask64_test(value, mask64_lowest(rest))) {
            packed |= mask64_bit(bit);
        }
        bit += 1u;
        rest = mask64_drop_lowest(rest);
    }
    return packed;
}

fn bits64_scatter(packed: vec2<u32>, mask: vec2<u32>) -> vec2<u32> {
    var value = vec2<u32>(0u, 0u);
    var bit = 0u;
    var rest = mask;
    while (rest.x != 0u || rest.y != 0u) {
        if (mask64_test(packed, bit)) {
            value |= mask64_bit(mask64_lowest(rest));
        }
        bit += 1u;
        rest = mask64_drop_lowest(rest);
    }
    return value;
}
