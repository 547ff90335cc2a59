// Peg Solitaire expansion (src/games/peg_solitaire/): block p holds the
// positions with p pegs, ranked by the binomial hash among the CELLS cells.
// Needs: consts CELLS, JUMP_STARTS_AT (CELLS + 1 offsets into the jump list,
// per landing cell) and JUMPS_AT (per jump the 64-bit mask of the two cells
// it empties) — the CPU's own jump table.

fn expand(block: u32, local: u32) {
    let pegs_count = block;
    if (pegs_count == 0u) {
        return;
    }
    let pegs = binomial_unrank(local, CELLS, pegs_count);
    var holes = ~pegs & mask64_low(CELLS);
    while (holes.x != 0u || holes.y != 0u) {
        let to = mask64_lowest(holes);
        holes = mask64_drop_lowest(holes);
        let last = tables[JUMP_STARTS_AT + to + 1u];
        for (var jump = tables[JUMP_STARTS_AT + to]; jump < last; jump++) {
            let emptied = vec2<u32>(tables[JUMPS_AT + 2u * jump], tables[JUMPS_AT + 2u * jump + 1u]);
            if (all((pegs & emptied) == emptied)) {
                let next = (pegs ^ emptied) | mask64_bit(to);
                successor(pegs_count - 1u, binomial_rank(next));
            }
        }
    }
}
