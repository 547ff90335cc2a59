// Pocket cube expansion (src/games/pocket_cube.rs): one block; a rank is
// mr_rank(corners) * TWIST_NUMBERS + the twists of positions 0..FREE_CORNERS-1
// in base 3 (position 0's digit the most significant); the last position's
// twist makes the sum a multiple of 3.
// Needs: consts FREE_CORNERS, TWIST_NUMBERS (3^(FREE_CORNERS-1)), MOVE_COUNT,
// and MOVES_AT: for each move, the CPU's CornerMove table: the position each
// position takes its corner from (FREE_CORNERS words), then the twist that
// corner gains there (FREE_CORNERS words).

fn expand(block: u32, local: u32) {
    var corners: Permutation;
    _ = mr_unrank(local / TWIST_NUMBERS, FREE_CORNERS, &corners);
    var twists: Permutation;
    var twist_number = local % TWIST_NUMBERS;
    var sum = 0u;
    for (var p = FREE_CORNERS - 1u; p > 0u; p--) {
        twists[p - 1u] = twist_number % 3u;
        twist_number /= 3u;
        sum += twists[p - 1u];
    }
    twists[FREE_CORNERS - 1u] = (3u - sum % 3u) % 3u;
    for (var m = 0u; m < MOVE_COUNT; m++) {
        let at = MOVES_AT + 2u * FREE_CORNERS * m;
        var moved: Permutation;
        var moved_twists = 0u;
        for (var p = 0u; p < FREE_CORNERS; p++) {
            let origin = tables[at + p];
            moved[p] = corners[origin];
            // The last twist is implied, not ranked.
            if (p + 1u < FREE_CORNERS) {
                moved_twists = moved_twists * 3u + (twists[origin] + tables[at + FREE_CORNERS + p]) % 3u;
            }
        }
        successor(0u, mr_rank(&moved, FREE_CORNERS) * TWIST_NUMBERS + moved_twists);
    }
}
