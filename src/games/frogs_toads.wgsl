// Frogs-and-Toads expansion (src/games/frogs_toads.rs): block e holds the
// positions with cell e empty, ranked by the binomial hash of the black
// pieces among the other CELLS - 1 cells (the mask squeezed at e).
// Needs: consts CELLS, BLACK_PIECES, MOVER_STARTS_AT (CELLS + 1 offsets)
// and MOVERS_AT: per empty cell, the cells whose piece can move into it —
// the CPU's own move table.

// Removes bit `empty`, closing the gap.
fn squeeze(mask: vec2<u32>, empty: u32) -> vec2<u32> {
    let below = mask64_low(empty);
    return (mask & below) | (mask64_shift_right_one(mask) & ~below);
}

// Reopens the gap at `empty` with a zero.
fn widen(mask: vec2<u32>, empty: u32) -> vec2<u32> {
    let below = mask64_low(empty);
    return (mask & below) | mask64_shift_left_one(mask & ~below);
}

fn expand(block: u32, local: u32) {
    let empty = block;
    let black = widen(binomial_unrank(local, CELLS - 1u, BLACK_PIECES), empty);
    let last = tables[MOVER_STARTS_AT + empty + 1u];
    for (var m = tables[MOVER_STARTS_AT + empty]; m < last; m++) {
        // The piece on `source` moves into the empty cell, which `source` becomes.
        let source = tables[MOVERS_AT + m];
        var moved = black & ~mask64_bit(source);
        if (mask64_test(black, source)) {
            moved |= mask64_bit(empty);
        }
        successor(source, binomial_rank(squeeze(moved, source)));
    }
}
