// (n, k) Top-Spin expansion (src/games/top_spin.rs): one block; a rank is
// the prefix Lehmer rank (shaders/prefix_lehmer.wgsl; folded when every
// twist keeps parity) of the n-1 tokens read clockwise after token 0.
// Needs: consts TOKENS, FOLDED (0 or 1), and TWISTS_AT: for each of the
// TOKENS twists, the pairs of ring positions it swaps (TWIST_SWAPS each), as
// the CPU applies them.

fn expand(block: u32, local: u32) {
    var order: Permutation;
    if (FOLDED == 1u) {
        // The reachable class is the start's, the identity (even).
        pl_unrank_folded(local, false, TOKENS - 1u, &order);
    } else {
        pl_unrank(local, TOKENS - 1u, &order);
    }
    var ring: Permutation;
    ring[0] = 0u;
    for (var j = 0u; j + 1u < TOKENS; j++) {
        ring[j + 1u] = order[j] + 1u;
    }
    for (var twist = 0u; twist < TOKENS; twist++) {
        var twisted = ring;
        for (var s = 0u; s < TWIST_SWAPS; s++) {
            let at = TWISTS_AT + 2u * (twist * TWIST_SWAPS + s);
            let a = tables[at];
            let b = tables[at + 1u];
            let held = twisted[a];
            twisted[a] = twisted[b];
            twisted[b] = held;
        }
        var zero_at = 0u;
        for (var p = 0u; p < TOKENS; p++) {
            if (twisted[p] == 0u) {
                zero_at = p;
            }
        }
        var next: Permutation;
        for (var j = 0u; j + 1u < TOKENS; j++) {
            var position = zero_at + 1u + j;
            if (position >= TOKENS) {
                position -= TOKENS;
            }
            next[j] = twisted[position] - 1u;
        }
        if (FOLDED == 1u) {
            successor(0u, pl_rank_folded(&next, TOKENS - 1u));
        } else {
            successor(0u, pl_rank(&next, TOKENS - 1u));
        }
    }
}
