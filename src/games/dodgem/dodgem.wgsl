// Dodgem rules for the GPU's retrograde passes (src/games/dodgem/; the
// functions every game's retro rules define are listed in src/kernel.rs).
// Layer tables[DODGEM_LAYER_AT] (a table rather than a constant, so that
// every layer's program is the same text) holds the positions with that
// many cars; its block i
// those with the layer's i-th smallest number of blue cars b (red: the rest),
// ranked `2 * (rank of the blue cars among the squares * C(squares - b, r) +
// rank of the red cars among the other squares) + side` (side 0: blue to
// move). Squares are numbered row by row from the bottom left and fit a u32
// mask (n <= 5). Needs: DODGEM_N, DODGEM_SQUARES, DODGEM_CARS (a side's),
// DODGEM_LAYER_AT, DODGEM_ALL_SQUARES (their mask), and the Rust step tables
// (row, column) as i32 bits at DODGEM_BLUE_STEPS_AT and DODGEM_RED_STEPS_AT,
// the forward step first.

const DODGEM_OFF: u32 = 0xffffffffu;

var<private> blue: u32;
var<private> red: u32;
var<private> blue_to_move: bool;

// The fewest blue cars a position of `layer` has.
fn dodgem_first_blue(layer: u32) -> u32 {
    return select(0u, layer - DODGEM_CARS, layer > DODGEM_CARS);
}

// The rank of a position as (block, local) in its layer (Dodgem::rank_of).
fn dodgem_rank(blues: u32, reds: u32, blue_moves: bool) -> vec2<u32> {
    let b = countOneBits(blues);
    let r = countOneBits(reds);
    let free = DODGEM_ALL_SQUARES & ~blues;
    let within = binomial_rank(vec2<u32>(blues, 0u)) * binomial(DODGEM_SQUARES - b, r)
        + binomial_rank(vec2<u32>(bits_gather(reds, free), 0u));
    return vec2<u32>(b - dodgem_first_blue(b + r), 2u * within + select(1u, 0u, blue_moves));
}

fn retro_unrank(block: u32, local: u32) {
    let layer = tables[DODGEM_LAYER_AT];
    let b = dodgem_first_blue(layer) + block;
    let r = layer - b;
    let pattern = local >> 1u;
    let reds = binomial(DODGEM_SQUARES - b, r);
    blue = binomial_unrank(pattern / reds, DODGEM_SQUARES, b).x;
    red = bits_scatter(binomial_unrank(pattern % reds, DODGEM_SQUARES - b, r).x,
                        DODGEM_ALL_SQUARES & ~blue);
    blue_to_move = (local & 1u) == 0u;
}

fn retro_mover() -> u32 {
    return select(2u, 1u, blue_to_move);
}

// The side with no legal move on its turn wins.
fn retro_no_move_value() -> u32 {
    return retro_mover();
}

fn retro_rule_value() -> u32 {
    return 0u;
}

fn retro_is_representative() -> bool {
    return true;
}

fn retro_twin() -> vec2<u32> {
    return dodgem_rank(blue, red, blue_to_move);
}

// Step `index` of blue's cars (`blue_side`) or red's, `sign` times (1
// forward, -1 taken back), from `square`: the square reached, or DODGEM_OFF
// off the board.
fn dodgem_step(square: u32, index: u32, blue_side: bool, sign: i32) -> u32 {
    let at = select(DODGEM_RED_STEPS_AT, DODGEM_BLUE_STEPS_AT, blue_side) + 2u * index;
    let row = i32(square / DODGEM_N) + sign * bitcast<i32>(tables[at]);
    let column = i32(square % DODGEM_N) + sign * bitcast<i32>(tables[at + 1u]);
    let n = i32(DODGEM_N);
    if (row < 0 || column < 0 || row >= n || column >= n) {
        return DODGEM_OFF;
    }
    return u32(row * n + column);
}

// Step `index` of the side to move from `square`.
fn dodgem_target(square: u32, index: u32) -> u32 {
    return dodgem_step(square, index, blue_to_move, 1);
}

// The position after the side to move's cars become `mine`.
fn dodgem_after(mine: u32) -> vec2<u32> {
    if (blue_to_move) {
        return dodgem_rank(mine, red, false);
    }
    return dodgem_rank(blue, mine, true);
}

// Exits (into the layer below) first, then the steps, car by car from the
// lowest square, each car's steps in the table's order (Dodgem::for_each_move).
fn retro_moves() {
    let mine = select(red, blue, blue_to_move);
    let occupied = blue | red;
    var cars = mine;
    while (cars != 0u) {
        let car = firstTrailingBit(cars);
        cars &= cars - 1u;
        if (dodgem_target(car, 0u) == DODGEM_OFF) {
            let to = dodgem_after(mine & ~(1u << car));
            if (!retro_move(true, to.x, to.y)) {
                return;
            }
        }
    }
    cars = mine;
    while (cars != 0u) {
        let car = firstTrailingBit(cars);
        cars &= cars - 1u;
        for (var step = 0u; step < 3u; step++) {
            let to_square = dodgem_target(car, step);
            if (to_square != DODGEM_OFF && ((occupied >> to_square) & 1u) == 0u) {
                if (retro_skips_within()) {
                    return;
                }
                let to = dodgem_after((mine & ~(1u << car)) | (1u << to_square));
                if (!retro_move(false, to.x, to.y)) {
                    return;
                }
            }
        }
    }
}

// The positions of the layer with a move here: the side not to move had one
// of its cars step here from an empty square (Dodgem::for_each_predecessor).
fn retro_predecessors() {
    let blue_moved = !blue_to_move;
    let theirs = select(red, blue, blue_moved);
    let occupied = blue | red;
    var cars = theirs;
    while (cars != 0u) {
        let car = firstTrailingBit(cars);
        cars &= cars - 1u;
        for (var step = 0u; step < 3u; step++) {
            let from_square = dodgem_step(car, step, blue_moved, -1);
            if (from_square != DODGEM_OFF && ((occupied >> from_square) & 1u) == 0u) {
                let before = (theirs & ~(1u << car)) | (1u << from_square);
                var earlier: vec2<u32>;
                if (blue_moved) {
                    earlier = dodgem_rank(before, red, true);
                } else {
                    earlier = dodgem_rank(blue, before, false);
                }
                retro_predecessor(earlier.x, earlier.y);
            }
        }
    }
}
