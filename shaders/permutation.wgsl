// Myrvold–Ruskey rank and unrank of permutations of 0..n
// (Algorithms 5 and 6 of Edelkamp et al., "Solving Games in Parallel with
// Linear-Time Perfect Hash Functions" (TZI report 52, Bremen, 2009)), as
// src/hash/permutation.rs.
// Needs: const PERM_CAP (array capacity, at least n). Ranks are u32: the
// kernels run on blocks of at most 2^32 - 1 states (n <= 12, or n <= 13
// folded).

alias Permutation = array<u32, PERM_CAP>;

// Algorithm 6: the permutation of `rank` < n!, and its parity (true = odd,
// Theorem 6). The division of line 9 belongs to every step.
fn mr_unrank(rank: u32, n: u32, perm: ptr<function, Permutation>) -> bool {
    for (var i = 0u; i < n; i++) {
        (*perm)[i] = i;
    }
    var r = rank;
    var odd = false;
    for (var m = n; m >= 2u; m--) {
        let j = r % m;
        r = r / m;
        odd = odd != (j != m - 1u);
        let top = (*perm)[m - 1u];
        (*perm)[m - 1u] = (*perm)[j];
        (*perm)[j] = top;
    }
    return odd;
}

// Algorithm 5 for the sizes n, n-1, ..., last: stopping at 2 gives the rank
// in 0..n!, stopping at 3 drops the top digit and gives the folded rank in
// 0..n!/2 (Theorem 7).
fn mr_rank_down_to(perm: ptr<function, Permutation>, n: u32, last: u32) -> u32 {
    var p: Permutation;
    var inverse: Permutation;
    for (var i = 0u; i < n; i++) {
        let value = (*perm)[i];
        p[i] = value;
        inverse[value] = i;
    }
    var rank = 0u;
    var weight = 1u;
    for (var m = n; m >= last; m--) {
        let digit = p[m - 1u];
        let position_of_top = inverse[m - 1u];
        p[position_of_top] = digit;
        inverse[digit] = position_of_top;
        rank += digit * weight;
        // Wraps only after the last digit that uses it (n! may exceed u32).
        weight *= m;
    }
    return rank;
}

fn mr_rank(perm: ptr<function, Permutation>, n: u32) -> u32 {
    return mr_rank_down_to(perm, n, 2u);
}

fn mr_rank_folded(perm: ptr<function, Permutation>, n: u32) -> u32 {
    return mr_rank_down_to(perm, n, 3u);
}

// Theorem 7: the permutation of folded rank `rank` < n!/2 with parity `odd`;
// the other class differs by swapping the first two entries.
fn mr_unrank_folded(rank: u32, odd: bool, n: u32, perm: ptr<function, Permutation>) {
    if (mr_unrank(rank, n, perm) != odd) {
        let first = (*perm)[0];
        (*perm)[0] = (*perm)[1];
        (*perm)[1] = first;
    }
}
