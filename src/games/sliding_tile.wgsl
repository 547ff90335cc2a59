// Sliding-tile expansion (src/games/sliding_tile.rs): a block is the blank's
// cell, a rank in it the folded prefix Lehmer rank (shaders/prefix_lehmer.wgsl)
// of the tiles read row by row skipping the blank. Sideways moves keep the rank and change the block;
// vertical ones rotate WIDTH consecutive entries of the order.
// Needs: consts WIDTH, HEIGHT, and ODD_AT: per blank cell, 1 when the
// reachable tile orders there are odd.

fn expand(block: u32, local: u32) {
    let blank = block;
    let row = blank / WIDTH;
    let column = blank % WIDTH;
    let length = WIDTH * HEIGHT - 1u;
    // Sideways moves keep the rank: the one-bit BFS applies them to whole
    // blocks at once (Algorithm 7, line 12).
    if (column > 0u) {
        rank_preserving_successor(blank - 1u, local);
    }
    if (column + 1u < WIDTH) {
        rank_preserving_successor(blank + 1u, local);
    }
    var tiles: Permutation;
    pl_unrank_folded(local, tables[ODD_AT + blank] == 1u, length, &tiles);
    if (row + 1u < HEIGHT) {
        // Blank down: the tile below (order index blank+w-1) moves to index
        // `blank`, the w-1 tiles in between shift right.
        var moved = tiles;
        moved[blank] = tiles[blank + WIDTH - 1u];
        for (var i = blank + 1u; i < blank + WIDTH; i++) {
            moved[i] = tiles[i - 1u];
        }
        successor(blank + WIDTH, pl_rank_folded(&moved, length));
    }
    if (row > 0u) {
        // Blank up: the tile above (index blank-w) moves to index blank-1.
        var moved = tiles;
        moved[blank - 1u] = tiles[blank - WIDTH];
        for (var i = blank - WIDTH; i + 1u < blank; i++) {
            moved[i] = tiles[i + 1u];
        }
        successor(blank - WIDTH, pl_rank_folded(&moved, length));
    }
}
