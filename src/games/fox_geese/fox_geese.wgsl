// Fox-and-Geese rules for the GPU's retrograde passes (src/games/fox_geese/;
// the functions every game's retro rules define are listed in src/kernel.rs).
// Layer tables[FG_GEESE_AT] (the geese on the board: a table rather than a
// constant, so that every layer's program is the same text): block b holds
// the positions with the fox on cell
// tables[FG_STORED_CELLS_AT + b], ranked
// `2 * (binomial rank of the geese among the other 32 points) + side`
// (side 0: fox to move). Needs, from the Rust tables: FG_CELLS,
// FG_CAPTURE_WINS and FG_SYMMETRY (0 or 1); per cell, its lines as
// `next | beyond << 8` (beyond FG_NO_CELL at the edge) at FG_LINES_AT from
// the offsets at FG_LINE_STARTS_AT; per cell, the cells a goose may step to
// (FG_GOOSE_STEPS_AT) and those a goose steps here from (FG_GOOSE_ORIGINS_AT),
// which differ from the lines' when geese may not step back (offsets then
// lists); the stored cells and each cell's block
// (FG_NO_BLOCK if none); with symmetry the least cell of each cell's orbit,
// each symmetry's image of every cell, and per cell the symmetries that take
// it to the least cell of its orbit and those other than the identity that
// fix it (offsets then lists, as the lines).

const FG_NO_CELL: u32 = 0xffu;
const FG_NO_BLOCK: u32 = 0xffffffffu;

var<private> fox: u32;
var<private> geese: vec2<u32>;
var<private> fox_to_move: bool;

// The bit `gap` removed from `mask`, the bits above it shifted down.
fn fg_squeeze(mask: vec2<u32>, gap: u32) -> vec2<u32> {
    let below = mask64_low(gap);
    return (mask & below) | (mask64_shift_right_one(mask) & ~below);
}

// The inverse of fg_squeeze: a zero reopened at `gap`.
fn fg_widen(mask: vec2<u32>, gap: u32) -> vec2<u32> {
    let below = mask64_low(gap);
    return (mask & below) | mask64_shift_left_one(mask & ~below);
}

fn fg_line(index: u32) -> vec2<u32> {
    let packed = tables[FG_LINES_AT + index];
    return vec2<u32>(packed & 0xffu, packed >> 8u);
}

fn fg_empty(cell: u32) -> bool {
    return cell != fox && !mask64_test(geese, cell);
}

// The image of a set of cells under symmetry `symmetry`: one lookup per
// goose, and every position of a layer has as many.
fn fg_apply(symmetry: u32, mask: vec2<u32>) -> vec2<u32> {
    var image = vec2<u32>(0u, 0u);
    var rest = mask;
    while (any(rest != vec2<u32>(0u, 0u))) {
        let cell = mask64_lowest(rest);
        rest = mask64_drop_lowest(rest);
        image |= mask64_bit(tables[FG_SYMMETRY_IMAGES_AT + symmetry * FG_CELLS + cell]);
    }
    return image;
}

fn fg_min(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return select(b, a, u64_less(a, b));
}

// The least image of `mask` under the symmetries listed for `cell` at
// `starts_at` / `lists_at`, and `start` (the identity's image, or all ones).
fn fg_least_image(mask: vec2<u32>, cell: u32, starts_at: u32, lists_at: u32, start: vec2<u32>) -> vec2<u32> {
    var least = start;
    let last = tables[starts_at + cell + 1u];
    for (var i = tables[starts_at + cell]; i < last; i++) {
        least = fg_min(least, fg_apply(tables[lists_at + i], mask));
    }
    return least;
}

// The rank of a position as (block, local) in its layer, through the
// canonical form with symmetry (FoxGeese::rank_of).
fn fg_rank(at: u32, mask: vec2<u32>, fox_moves: bool) -> vec2<u32> {
    var cell = at;
    var canonical = mask;
    if (FG_SYMMETRY == 1u) {
        cell = tables[FG_CANONICAL_CELL_AT + at];
        if (cell == at) {
            canonical = fg_least_image(mask, at, FG_FIXING_STARTS_AT, FG_FIXING_AT, mask);
        } else {
            canonical = fg_least_image(mask, at, FG_TO_CANONICAL_STARTS_AT, FG_TO_CANONICAL_AT,
                                       vec2<u32>(0xffffffffu, 0xffffffffu));
        }
    }
    let block = tables[FG_BLOCK_OF_AT + cell];
    return vec2<u32>(block, 2u * binomial_rank(fg_squeeze(canonical, cell)) + select(1u, 0u, fox_moves));
}

fn retro_unrank(block: u32, local: u32) {
    fox = tables[FG_STORED_CELLS_AT + block];
    fox_to_move = (local & 1u) == 0u;
    geese = fg_widen(binomial_unrank(local >> 1u, FG_CELLS - 1u, tables[FG_GEESE_AT]), fox);
}

fn retro_mover() -> u32 {
    return select(2u, 1u, fox_to_move);
}

// A trapped fox loses; so do geese without a move.
fn retro_no_move_value() -> u32 {
    return select(1u, 2u, fox_to_move);
}

fn fg_can_capture(line: vec2<u32>) -> bool {
    return line.y != FG_NO_CELL && mask64_test(geese, line.x) && fg_empty(line.y);
}

// With capture-wins, a fox that can capture has won.
fn retro_rule_value() -> u32 {
    if (FG_CAPTURE_WINS == 0u || !fox_to_move) {
        return 0u;
    }
    let last = tables[FG_LINE_STARTS_AT + fox + 1u];
    for (var i = tables[FG_LINE_STARTS_AT + fox]; i < last; i++) {
        if (fg_can_capture(fg_line(i))) {
            return 1u;
        }
    }
    return 0u;
}

// The least of the images under the symmetries fixing the fox's cell
// (FoxGeese::is_representative).
fn retro_is_representative() -> bool {
    if (FG_SYMMETRY == 0u) {
        return true;
    }
    let last = tables[FG_FIXING_STARTS_AT + fox + 1u];
    for (var i = tables[FG_FIXING_STARTS_AT + fox]; i < last; i++) {
        if (u64_less(fg_apply(tables[FG_FIXING_AT + i], geese), geese)) {
            return false;
        }
    }
    return true;
}

fn retro_twin() -> vec2<u32> {
    return fg_rank(fox, geese, fox_to_move);
}

// The fox's captures (into the layer below), then its steps; or the
// geese's steps, goose by goose from the lowest cell (FoxGeese::for_each_move).
fn retro_moves() {
    if (fox_to_move) {
        let first = tables[FG_LINE_STARTS_AT + fox];
        let last = tables[FG_LINE_STARTS_AT + fox + 1u];
        for (var i = first; i < last; i++) {
            let line = fg_line(i);
            if (fg_can_capture(line)) {
                let to = fg_rank(line.y, geese & ~mask64_bit(line.x), false);
                if (!retro_move(true, to.x, to.y)) {
                    return;
                }
            }
        }
        for (var i = first; i < last; i++) {
            let next = fg_line(i).x;
            if (fg_empty(next)) {
                if (retro_skips_within()) {
                    return;
                }
                let to = fg_rank(next, geese, false);
                if (!retro_move(false, to.x, to.y)) {
                    return;
                }
            }
        }
        return;
    }
    var rest = geese;
    while (any(rest != vec2<u32>(0u, 0u))) {
        let goose = mask64_lowest(rest);
        rest = mask64_drop_lowest(rest);
        let last = tables[FG_GOOSE_STEP_STARTS_AT + goose + 1u];
        for (var i = tables[FG_GOOSE_STEP_STARTS_AT + goose]; i < last; i++) {
            let next = tables[FG_GOOSE_STEPS_AT + i];
            if (fg_empty(next)) {
                if (retro_skips_within()) {
                    return;
                }
                let to = fg_rank(fox, (geese & ~mask64_bit(goose)) | mask64_bit(next), true);
                if (!retro_move(false, to.x, to.y)) {
                    return;
                }
            }
        }
    }
}

// The positions of the layer with a move here: the fox's steps taken back
// (they are reversible), or a goose's from one of its cell's origins
// (captures come from the layer above), as FoxGeese::predecessors.
fn retro_predecessors() {
    if (!fox_to_move) {
        let last = tables[FG_LINE_STARTS_AT + fox + 1u];
        for (var i = tables[FG_LINE_STARTS_AT + fox]; i < last; i++) {
            let next = fg_line(i).x;
            if (fg_empty(next)) {
                let earlier = fg_rank(next, geese, true);
                retro_predecessor(earlier.x, earlier.y);
            }
        }
        return;
    }
    var rest = geese;
    while (any(rest != vec2<u32>(0u, 0u))) {
        let goose = mask64_lowest(rest);
        rest = mask64_drop_lowest(rest);
        let last = tables[FG_GOOSE_ORIGIN_STARTS_AT + goose + 1u];
        for (var i = tables[FG_GOOSE_ORIGIN_STARTS_AT + goose]; i < last; i++) {
            let origin = tables[FG_GOOSE_ORIGINS_AT + i];
            if (fg_empty(origin)) {
                let earlier = fg_rank(fox, (geese & ~mask64_bit(goose)) | mask64_bit(origin), false);
                retro_predecessor(earlier.x, earlier.y);
            }
        }
    }
}
