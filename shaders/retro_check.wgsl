// Self-check kernel: a game's retro rules (src/kernel.rs lists them) on a
// list of positions, for comparison with the Rust rules
// (src/backend/gpu/retro/check.rs). Input: (block, local) pairs of layer L.
// Output per position, RETRO_CHECK_STRIDE words: the mover, the rule value,
// the no-move value, whether it is a representative, its twin (block,
// local), the numbers of moves and of predecessors, then up to
// RETRO_CHECK_MAX_MOVES moves as (block | lower << 31, local), then as many
// predecessors as (block, local).

@group(0) @binding(1) var<storage, read> tables: array<u32>;
@group(0) @binding(2) var<storage, read> inputs: array<u32>;
@group(0) @binding(3) var<storage, read_write> outputs: array<u32>;

var<private> out_at: u32;
var<private> out_moves: u32;
var<private> out_predecessors: u32;

fn retro_move(lower: bool, block: u32, local: u32) -> bool {
    if (out_moves < RETRO_CHECK_MAX_MOVES) {
        let at = out_at + 8u + 2u * out_moves;
        outputs[at] = block | select(0u, 0x80000000u, lower);
        outputs[at + 1u] = local;
    }
    out_moves += 1u;
    return true;
}

// The rules see every move.
fn retro_skips_within() -> bool {
    return false;
}

fn retro_predecessor(block: u32, local: u32) {
    if (out_predecessors < RETRO_CHECK_MAX_MOVES) {
        let at = out_at + 8u + 2u * (RETRO_CHECK_MAX_MOVES + out_predecessors);
        outputs[at] = block;
        outputs[at + 1u] = local;
    }
    out_predecessors += 1u;
}

@compute @workgroup_size(64)
fn check(@builtin(global_invocation_id) id: vec3<u32>) {
    let index = id.x;
    if (2u * index >= arrayLength(&inputs)) {
        return;
    }
    retro_unrank(inputs[2u * index], inputs[2u * index + 1u]);
    out_at = index * RETRO_CHECK_STRIDE;
    out_moves = 0u;
    out_predecessors = 0u;
    outputs[out_at] = retro_mover();
    outputs[out_at + 1u] = retro_rule_value();
    outputs[out_at + 2u] = retro_no_move_value();
    outputs[out_at + 3u] = select(0u, 1u, retro_is_representative());
    let twin = retro_twin();
    outputs[out_at + 4u] = twin.x;
    outputs[out_at + 5u] = twin.y;
    retro_moves();
    outputs[out_at + 6u] = out_moves;
    retro_predecessors();
    outputs[out_at + 7u] = out_predecessors;
}
