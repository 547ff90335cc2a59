// The prefix Lehmer code (src/hash/prefix_lehmer.rs): digit c_p counts the
// entries before position p that are larger than the entry at p, and the
// rank is sum c_p * p!. Rearranging a window of positions changes only that
// window's digits (a Pancake flip of the top k: the rank below k!).
// Needs: const PERM_CAP, alias Permutation (shaders/permutation.wgsl). Ranks
// are u32: n <= 12.

// Entries of the set `before` (bits) larger than `value`.
fn pl_larger_before(before: u32, value: u32) -> u32 {
    return countOneBits((before >> value) >> 1u);
}

fn pl_rank(perm: ptr<function, Permutation>, n: u32) -> u32 {
    var before = 0u;
    var rank = 0u;
    var weight = 1u;
    for (var p = 0u; p < n; p++) {
        let value = (*perm)[p];
        rank += pl_larger_before(before, value) * weight;
        before |= 1u << value;
        weight *= p + 1u;
    }
    return rank;
}

fn pl_unrank(rank: u32, n: u32, perm: ptr<function, Permutation>) {
    var digits: Permutation;
    var r = rank;
    for (var p = 0u; p < n; p++) {
        digits[p] = r % (p + 1u);
        r = r / (p + 1u);
    }
    pl_place(&digits, n, perm);
}

// Whether the permutation of prefix Lehmer rank `rank` is odd: the parity
// of its digits' sum (prefix_lehmer::is_odd_rank).
fn pl_is_odd_rank(rank: u32, n: u32) -> bool {
    var r = rank;
    var parity = 0u;
    for (var p = 0u; p < n; p++) {
        parity ^= r % (p + 1u);
        r = r / (p + 1u);
    }
    return (parity & 1u) == 1u;
}

// The folded rank (n!/2 fold): the digit sum's parity is the permutation's,
// so within a parity class digit c_1 follows from the others and rank / 2
// numbers the class.
fn pl_rank_folded(perm: ptr<function, Permutation>, n: u32) -> u32 {
    return pl_rank(perm, n) >> 1u;
}

fn pl_unrank_folded(folded: u32, odd: bool, n: u32, perm: ptr<function, Permutation>) {
    var digits: Permutation;
    var r = folded;
    var parity = 0u;
    digits[0] = 0u;
    for (var p = 2u; p < n; p++) {
        digits[p] = r % (p + 1u);
        parity ^= digits[p];
        r = r / (p + 1u);
    }
    digits[1] = (parity & 1u) ^ select(0u, 1u, odd);
    pl_place(&digits, n, perm);
}

// From the bottom up, position p takes the c_p-th largest entry not yet
// placed.
fn pl_place(digits: ptr<function, Permutation>, n: u32, perm: ptr<function, Permutation>) {
    var free = (1u << n) - 1u;
    for (var p = n; p > 0u; p--) {
        var larger = free;
        for (var j = 0u; j < (*digits)[p - 1u]; j++) {
            larger ^= 1u << firstLeadingBit(larger);
        }
        let value = firstLeadingBit(larger);
        (*perm)[p - 1u] = value;
        free ^= 1u << value;
    }
}

// The digits of the first k positions after reversing them: the part of a
// Pancake flip's rank below k!.
fn pl_reversed_prefix_digits(perm: ptr<function, Permutation>, k: u32) -> u32 {
    var before = 0u;
    var digits = 0u;
    var weight = 1u;
    for (var i = 0u; i < k; i++) {
        let value = (*perm)[k - 1u - i];
        digits += pl_larger_before(before, value) * weight;
        before |= 1u << value;
        weight *= i + 1u;
    }
    return digits;
}
