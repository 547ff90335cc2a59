// Self-check kernels: the device's permutation rank/unrank on a list of
// ranks, for comparison with the Rust functions (tests/gpu.rs).
// Needs: const PERM_LEN. Output per rank: PERM_LEN entries, the parity, the
// rank of the unranked permutation, then the same three for the folded hash
// (ranks below PERM_LEN!/2 only; the parity requested is the rank's low bit),
// then the prefix Lehmer unrank and its rank (shaders/prefix_lehmer.wgsl),
// and its folded unrank (as the Myrvold–Ruskey one) and folded rank.

@group(0) @binding(2) var<storage, read> inputs: array<u32>;
@group(0) @binding(3) var<storage, read_write> outputs: array<u32>;

const STRIDE: u32 = 4u * PERM_LEN + 6u;

@compute @workgroup_size(64)
fn check(@builtin(global_invocation_id) id: vec3<u32>) {
    let index = id.x;
    if (index >= arrayLength(&inputs)) {
        return;
    }
    let rank = inputs[index];
    var perm: Permutation;
    let odd = mr_unrank(rank, PERM_LEN, &perm);
    let out = index * STRIDE;
    for (var i = 0u; i < PERM_LEN; i++) {
        outputs[out + i] = perm[i];
    }
    outputs[out + PERM_LEN] = select(0u, 1u, odd);
    outputs[out + PERM_LEN + 1u] = mr_rank(&perm, PERM_LEN);
    var folded: Permutation;
    let folded_odd = (rank & 1u) == 1u;
    mr_unrank_folded(rank % FOLDED_SIZE, folded_odd, PERM_LEN, &folded);
    for (var i = 0u; i < PERM_LEN; i++) {
        outputs[out + PERM_LEN + 2u + i] = folded[i];
    }
    outputs[out + 2u * PERM_LEN + 2u] = mr_rank_folded(&folded, PERM_LEN);
    outputs[out + 2u * PERM_LEN + 3u] = 0u;
    var lehmer: Permutation;
    pl_unrank(rank, PERM_LEN, &lehmer);
    for (var i = 0u; i < PERM_LEN; i++) {
        outputs[out + 2u * PERM_LEN + 4u + i] = lehmer[i];
    }
    outputs[out + 3u * PERM_LEN + 4u] = pl_rank(&lehmer, PERM_LEN);
    var lehmer_folded: Permutation;
    pl_unrank_folded(rank % FOLDED_SIZE, folded_odd, PERM_LEN, &lehmer_folded);
    for (var i = 0u; i < PERM_LEN; i++) {
        outputs[out + 3u * PERM_LEN + 5u + i] = lehmer_folded[i];
    }
    outputs[out + 4u * PERM_LEN + 5u] = pl_rank_folded(&lehmer_folded, PERM_LEN);
}
