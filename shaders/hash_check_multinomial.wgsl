// Self-check kernel: the device's multinomial unrank and rank on a list of
// 64-bit ranks given as (low, high) pairs (tests/gpu.rs). Output per rank:
// MULTINOMIAL_CELLS colours, then the rank of that vector (low, high).

@group(0) @binding(1) var<storage, read> tables: array<u32>;
@group(0) @binding(2) var<storage, read> inputs: array<u32>;
@group(0) @binding(3) var<storage, read_write> outputs: array<u32>;

const STRIDE: u32 = MULTINOMIAL_CELLS + 2u;

@compute @workgroup_size(64)
fn check(@builtin(global_invocation_id) id: vec3<u32>) {
    let index = id.x;
    if (2u * index >= arrayLength(&inputs)) {
        return;
    }
    let rank = vec2<u32>(inputs[2u * index], inputs[2u * index + 1u]);
    let hash = Multinomial(MULTINOMIAL_COLOURS, MULTINOMIAL_FULL_INDEX, MULTINOMIAL_STRIDES_AT, MULTINOMIAL_PREFIX_AT);
    var cells: MultinomialCells;
    multinomial_unrank(hash, rank, MULTINOMIAL_CELLS, &cells);
    let out = index * STRIDE;
    for (var i = 0u; i < MULTINOMIAL_CELLS; i++) {
        outputs[out + i] = cells[i];
    }
    let back = multinomial_rank(hash, MULTINOMIAL_CELLS, &cells);
    outputs[out + MULTINOMIAL_CELLS] = back.x;
    outputs[out + MULTINOMIAL_CELLS + 1u] = back.y;
}
