// A positional game's retrograde rules for the GPU (src/qbf/exhaustive/;
// the functions every game's retro rules define are listed in
// src/kernel.rs). A board is the stones placed on the game's free cells,
// packed low (bit i: the i-th free cell) as 64-bit masks: `pg_occupied`
// and its black part `pg_black`. A layer holds the boards of PG_STONES
// stones, PG_BLACK of them black, ranked `occupied rank * PG_COLOURINGS +
// black rank`, the two levels of the games' shared multinomial hash
// (src/hash/stones.rs, shaders/colour_sets.wgsl); block j holds the occupied ranks from
// j * PG_OCCUPIED_PER_BLOCK, so a rank in a block fits 32 bits. The
// successors (one stone more) are ranked the same way with the PG_NEXT_*
// constants, each by table steps from one walk over the cells.
//
// Needs the colour-set hash (with the binomial hash), and: PG_CELLS, PG_ALL_LOW/HIGH (their mask),
// PG_STONES, PG_BLACK, PG_COLOURINGS, PG_OCCUPIED_PER_BLOCK, PG_NEXT_BLACK,
// PG_NEXT_COLOURINGS, PG_NEXT_OCCUPIED_PER_BLOCK, PG_MOVER (1 Black, 2
// White), PG_PLACES_BLACK (the move places a black stone), PG_HAS_MOVES
// (0 in the bottom layer), PG_LAST_MOVE (1: the bottom layer's boards have
// one move left, valued by the rules), PG_MAKER_MAKER, PG_ALLOWED_LOW/HIGH
// (the cells this layer's move may take), and tables of sets as (low,
// high) masks of free cells: PG_BLACK_SETS_AT / PG_BLACK_SETS (count) and
// PG_WHITE_SETS_AT / PG_WHITE_SETS for the sets that can be complete on
// this layer's boards, PG_NEXT_* for one stone later. A connection goal
// (PG_CONNECTION 1) has PG_FREE_CELLS_AT (the board cell of each free
// cell), PG_NEIGHBOURS_AT (each board cell's neighbours as (low, high))
// and PG_GOAL_AT (Black's fixed stones, the start border, the end border,
// each (low, high)).

var<private> pg_occupied: vec2<u32>;
var<private> pg_black: vec2<u32>;

fn pg_mask(at: u32) -> vec2<u32> {
    return vec2<u32>(tables[at], tables[at + 1u]);
}

fn pg_is_zero(mask: vec2<u32>) -> bool {
    return mask.x == 0u && mask.y == 0u;
}

// Whether one of `count` sets at `at` lies within `own`.
fn pg_any_set_within(at: u32, count: u32, own: vec2<u32>) -> bool {
    for (var i = 0u; i < count; i++) {
        if (pg_is_zero(pg_mask(at + 2u * i) & ~own)) {
            return true;
        }
    }
    return false;
}

// Whether one stone on one of `cells` completes one of `count` sets at `at`
// beside the side's stones `own`.
fn pg_completes(at: u32, count: u32, own: vec2<u32>, cells: vec2<u32>) -> bool {
    for (var i = 0u; i < count; i++) {
        let missing = pg_mask(at + 2u * i) & ~own;
        if (mask64_count(missing) == 1u && !pg_is_zero(missing & cells)) {
            return true;
        }
    }
    return false;
}

// Free cells (packed) as board cells.
fn pg_on_board(packed: vec2<u32>) -> vec2<u32> {
    var board = vec2<u32>(0u, 0u);
    var rest = packed;
    while (!pg_is_zero(rest)) {
        board |= mask64_bit(tables[PG_FREE_CELLS_AT + mask64_lowest(rest)]);
        rest = mask64_drop_lowest(rest);
    }
    return board;
}

// The board cells around `cells`.
fn pg_touching(cells: vec2<u32>) -> vec2<u32> {
    var near = vec2<u32>(0u, 0u);
    var rest = cells;
    while (!pg_is_zero(rest)) {
        near |= pg_mask(PG_NEIGHBOURS_AT + 2u * mask64_lowest(rest));
        rest = mask64_drop_lowest(rest);
    }
    return near;
}

// The cells of `owned` joined to `seeds` through `owned`, or fewer once one
// of `stop` is reached (games::positional's grow).
fn pg_grow(owned: vec2<u32>, seeds: vec2<u32>, stop: vec2<u32>) -> vec2<u32> {
    var reached = seeds & owned;
    var frontier = reached;
    while (!pg_is_zero(frontier) && pg_is_zero(reached & stop)) {
        frontier = pg_touching(frontier) & owned & ~reached;
        reached |= frontier;
    }
    return reached;
}

// Black's board cells: its fixed stones and `black` (packed).
fn pg_black_owned(black: vec2<u32>) -> vec2<u32> {
    return pg_mask(PG_GOAL_AT) | pg_on_board(black);
}

fn pg_black_won(black: vec2<u32>) -> bool {
    if (PG_CONNECTION == 1u) {
        let end = pg_mask(PG_GOAL_AT + 4u);
        return !pg_is_zero(pg_grow(pg_black_owned(black), pg_mask(PG_GOAL_AT + 2u), end) & end);
    }
    return pg_any_set_within(PG_BLACK_SETS_AT, PG_BLACK_SETS, black);
}

fn pg_white_won(white: vec2<u32>) -> bool {
    return pg_any_set_within(PG_WHITE_SETS_AT, PG_WHITE_SETS, white);
}

// Whether one black stone on one of `cells` (packed) connects Black's
// borders: a cell that is, or touches, a black group on each border.
fn pg_connects_with_one(cells: vec2<u32>) -> bool {
    if (PG_CONNECTION == 0u) {
        return false;
    }
    let owned = pg_black_owned(pg_black);
    let start = pg_mask(PG_GOAL_AT + 2u);
    let end = pg_mask(PG_GOAL_AT + 4u);
    let none = vec2<u32>(0u, 0u);
    let near_start = start | pg_touching(pg_grow(owned, start, none));
    let near_end = end | pg_touching(pg_grow(owned, end, none));
    return !pg_is_zero(pg_on_board(cells) & near_start & near_end);
}

fn pg_white() -> vec2<u32> {
    return pg_occupied & ~pg_black;
}

fn pg_decided() -> bool {
    return pg_black_won(pg_black) || pg_white_won(pg_white());
}

// (block, local) of occupied rank `occupied` and black rank `black` under
// a layer's blocking.
fn pg_locate(occupied: u32, black: u32, per_block: u32, colourings: u32) -> vec2<u32> {
    return vec2<u32>(occupied / per_block, (occupied % per_block) * colourings + black);
}

fn retro_unrank(block: u32, local: u32) {
    let occupied_rank = block * PG_OCCUPIED_PER_BLOCK + local / PG_COLOURINGS;
    pg_occupied = colour_level_unrank(occupied_rank, mask64_low(PG_CELLS), PG_STONES);
    pg_black = colour_level_unrank(local % PG_COLOURINGS, pg_occupied, PG_BLACK);
}

fn retro_mover() -> u32 {
    return PG_MOVER;
}

fn retro_no_move_value() -> u32 {
    if (pg_black_won(pg_black)) {
        return 1u;
    }
    if (pg_white_won(pg_white())) {
        return 2u;
    }
    // Maker-breaker: Black did not win within the moves.
    return select(2u, 3u, PG_MAKER_MAKER == 1u);
}

// A bottom board with one move left: a side that has won keeps it; else
// the mover wins if one stone completes one of its sets (or connects).
fn retro_rule_value() -> u32 {
    if (PG_LAST_MOVE == 0u) {
        return 0u;
    }
    if (pg_black_won(pg_black)) {
        return 1u;
    }
    if (pg_white_won(pg_white())) {
        return 2u;
    }
    let cells = ~pg_occupied & vec2<u32>(PG_ALL_LOW, PG_ALL_HIGH)
        & vec2<u32>(PG_ALLOWED_LOW, PG_ALLOWED_HIGH);
    if (pg_is_zero(cells)) {
        return retro_no_move_value();
    }
    var wins: bool;
    if (PG_MOVER == 1u) {
        wins = pg_completes(PG_NEXT_BLACK_SETS_AT, PG_NEXT_BLACK_SETS, pg_black, cells)
            || pg_connects_with_one(cells);
    } else {
        wins = pg_completes(PG_NEXT_WHITE_SETS_AT, PG_NEXT_WHITE_SETS, pg_white(), cells);
    }
    if (wins) {
        return PG_MOVER;
    }
    return select(2u, 3u, PG_MAKER_MAKER == 1u);
}

fn retro_is_representative() -> bool {
    return true;
}

fn retro_twin() -> vec2<u32> {
    return pg_locate(colour_level_rank(pg_occupied, mask64_low(PG_CELLS)),
                     colour_level_rank(pg_black, pg_occupied),
                     PG_OCCUPIED_PER_BLOCK, PG_COLOURINGS);
}

// Every placement on a free allowed cell, in increasing order, ranked by
// table steps (StoneRanker::placements): the terms of the occupied cells
// above the new stone move up one in count, those below stay.
fn retro_moves() {
    if (PG_HAS_MOVES == 0u || pg_decided()) {
        return;
    }
    let adds_black = select(0u, 1u, PG_PLACES_BLACK == 1u);
    var occupied_high = 0u;
    var black_high = 0u;
    var count = 0u;
    var black_count = 0u;
    var rest = pg_occupied;
    while (!pg_is_zero(rest)) {
        let cell = mask64_lowest(rest);
        rest = mask64_drop_lowest(rest);
        count += 1u;
        occupied_high += binomial(cell, count + 1u);
        if (mask64_test(pg_black, cell)) {
            black_count += 1u;
            black_high += binomial(count, black_count + adds_black);
        }
    }
    var occupied_low = 0u;
    var black_low = 0u;
    var below = 0u;
    var black_below = 0u;
    var free = ~pg_occupied & vec2<u32>(PG_ALL_LOW, PG_ALL_HIGH)
        & vec2<u32>(PG_ALLOWED_LOW, PG_ALLOWED_HIGH);
    var passed = pg_occupied;
    while (!pg_is_zero(free)) {
        let cell = mask64_lowest(free);
        free = mask64_drop_lowest(free);
        // The occupied cells between the last free cell and this one.
        var between = passed & mask64_low(cell);
        passed &= ~between;
        while (!pg_is_zero(between)) {
            let at = mask64_lowest(between);
            between = mask64_drop_lowest(between);
            below += 1u;
            occupied_low += binomial(at, below);
            occupied_high -= binomial(at, below + 1u);
            if (mask64_test(pg_black, at)) {
                black_below += 1u;
                black_low += binomial(below - 1u, black_below);
                black_high -= binomial(below, black_below + adds_black);
            }
        }
        let occupied_rank = occupied_low + binomial(cell, below + 1u) + occupied_high;
        var black_rank = black_low + black_high;
        if (adds_black == 1u) {
            black_rank += binomial(below, black_below + 1u);
        }
        let to = pg_locate(occupied_rank, black_rank, PG_NEXT_OCCUPIED_PER_BLOCK,
                           PG_NEXT_COLOURINGS);
        if (!retro_move(true, to.x, to.y)) {
            return;
        }
    }
}

// Every move places a stone: no position of a layer moves to another of it.
fn retro_predecessors() {
}
