// Self-check kernel: the device's binomial unrank and rank on a list of
// ranks (tests/gpu.rs). Needs: consts CHECK_CELLS, CHECK_ONES. Output per
// rank: the mask (low, high) and the rank of that mask.

@group(0) @binding(1) var<storage, read> tables: array<u32>;
@group(0) @binding(2) var<storage, read> inputs: array<u32>;
@group(0) @binding(3) var<storage, read_write> outputs: array<u32>;

@compute @workgroup_size(64)
fn check(@builtin(global_invocation_id) id: vec3<u32>) {
    let index = id.x;
    if (index >= arrayLength(&inputs)) {
        return;
    }
    let bits = binomial_unrank(inputs[index], CHECK_CELLS, CHECK_ONES);
    outputs[3u * index] = bits.x;
    outputs[3u * index + 1u] = bits.y;
    outputs[3u * index + 2u] = binomial_rank(bits);
}
