// Morris rules for the GPU's retrograde passes (src/games/morris/: rules.rs
// for the moves, hash.rs for the ranks; the functions every game's retro
// rules define are listed in src/kernel.rs). A moving layer holds the
// positions with that many stones; a block is a (white, black) count and a
// group of stored white patterns of one orbit size, ranked `2 * (pattern's
// index in its group * C(24 - w, b) + rank of the black stones among the
// points white leaves) + side` (side 0: white to move). An opening layer
// (placing only) holds one count of stones in hand, which fixes the side
// to move, and its ranks have no side bit; every placement leads to the
// layer below (the last one into the moving layers, joined as one table:
// src/space/layers_below.rs), so the layer is solved by one sweep. A layer
// of Lasker Morris's opening holds one pair of hands and one count of
// stones on the board, either side to move (the side bit): the mover
// places or moves, and what leaves the layer reaches one of five layers
// (MORRIS_TO_*, hash.rs's MixedTarget), joined as one table. Needs:
// MORRIS_SYMMETRY (1 when the 16 symmetries fold the white patterns),
// MORRIS_MILLS (how many), MORRIS_PLACING (1 for an opening layer of
// placements only), MORRIS_MIXED (1 for a layer of Lasker's opening),
// MORRIS_SIDE_BITS and MORRIS_BELOW_SIDE_BITS (1 where the layer's, or
// the layer below's, ranks end in the side bit), and tables:
// MORRIS_IN_HAND_AT (the layer's stones in hand, white's and black's: a
// table, not a constant, so that the layers of a kind share one text),
// MORRIS_NEIGHBOURS_AT (a mask per
// point), MORRIS_MILLS_AT (a mask per mill), MORRIS_POINT_MILLS_AT (the
// masks of the mills through each point, four a point, padded with masks no
// stones fill), MORRIS_BLOCKS_AT ((w, b, group)
// per block of the layer), MORRIS_BLOCK_OF_AT and MORRIS_BELOW_BLOCK_OF_AT
// (block index of (w, b, group) in the layer and in the layers below its
// moves reach, at (13 w + b) 5 + group; below, one such table of 845
// words per MORRIS_TO_*, the first holding every reached layer's blocks
// outside Lasker's opening), and with symmetry
// MORRIS_SYMMETRIES_AT (each symmetry as three 256-entry byte maps),
// MORRIS_PLACEMENTS_AT with MORRIS_PLACEMENT_STARTS_AT (per white count,
// two words per pattern rank: the stored pattern's index, then group << 16
// | the symmetries onto it) and MORRIS_PATTERNS_AT with
// MORRIS_PATTERN_STARTS_AT (the stored patterns of (w, group) at 5 w +
// group).
//
// Loops are kept short: lavapipe (the software Vulkan of CI) ends every
// loop of an invocation once all its loops together have run 65,535
// iterations, silently, and one judgement invocation handles up to 16
// positions with all their moves. A mill is looked up through the point's
// own mills, a rank is summed over the stones alone (no bit-by-bit
// compress), so a move costs a few iterations per stone.

const MORRIS_BOARD: u32 = 0xffffffu;
// Where a position ranks: the layer itself, or the layers below by the
// kind of move (the one table below of a moving or placing layer is
// MORRIS_TO_CAPTURE's).
const MORRIS_HERE: u32 = 0xffffffffu;
const MORRIS_TO_CAPTURE: u32 = 0u;
const MORRIS_TO_WHITE_PLACED: u32 = 1u;
const MORRIS_TO_WHITE_PLACED_AND_TOOK: u32 = 2u;
const MORRIS_TO_BLACK_PLACED: u32 = 3u;
const MORRIS_TO_BLACK_PLACED_AND_TOOK: u32 = 4u;
const MORRIS_SLOTS: u32 = 845u;

var<private> white: u32;
var<private> black: u32;
var<private> white_to_move: bool;
// The symmetries other than the identity that keep the white pattern.
var<private> stabilizer: u32;

// The layer's stones in hand of `side` (0 white, 1 black).
fn morris_in_hand(side: u32) -> u32 {
    return tables[MORRIS_IN_HAND_AT + side];
}

fn morris_apply(symmetry: u32, stones: u32) -> u32 {
    let at = MORRIS_SYMMETRIES_AT + 768u * symmetry;
    return tables[at + (stones & 0xffu)]
        | tables[at + 256u + ((stones >> 8u) & 0xffu)]
        | tables[at + 512u + (stones >> 16u)];
}

fn morris_in_mill(stones: u32, point: u32) -> bool {
    let at = MORRIS_POINT_MILLS_AT + 4u * point;
    let a = tables[at];
    let b = tables[at + 1u];
    let c = tables[at + 2u];
    let d = tables[at + 3u];
    return (stones & a) == a || (stones & b) == b || (stones & c) == c || (stones & d) == d;
}

// The binomial rank of `stones` among the points of `free` (those of
// `stones` among them): the j-th stone from the lowest point, standing on
// the i-th free point, adds C(i, j) (binomial_rank of the compressed mask).
fn morris_rank_among(stones: u32, free: u32) -> u32 {
    var rank = 0u;
    var rest = stones;
    var j = 0u;
    while (rest != 0u) {
        let point = firstTrailingBit(rest);
        rest &= rest - 1u;
        j += 1u;
        let i = countOneBits(free & ((1u << point) - 1u));
        if (j <= i) {
            rank += binomial(i, j);
        }
    }
    return rank;
}

// Where the white pattern of `white_rank` (w stones) is stored: (index,
// group << 16 | symmetries onto it).
fn morris_placement(w: u32, white_rank: u32) -> vec2<u32> {
    let at = MORRIS_PLACEMENTS_AT + tables[MORRIS_PLACEMENT_STARTS_AT + w] + 2u * white_rank;
    return vec2<u32>(tables[at], tables[at + 1u]);
}

// The (block, local) of a position in the layer, or in the layers below
// (`dest`: MORRIS_HERE or a MORRIS_TO_*) (MorrisHash::rank).
fn morris_rank(whites: u32, blacks: u32, white_moves: bool, dest: u32) -> vec2<u32> {
    let w = countOneBits(whites);
    let b = countOneBits(blacks);
    var index = morris_rank_among(whites, MORRIS_BOARD);
    var group = 0u;
    var white_least = whites;
    var black_least = blacks;
    if (MORRIS_SYMMETRY == 1u) {
        let placement = morris_placement(w, index);
        index = placement.x;
        group = placement.y >> 16u;
        let to_least = placement.y & 0xffffu;
        let first = firstTrailingBit(to_least);
        white_least = morris_apply(first, whites);
        black_least = morris_apply(first, blacks);
        var rest = to_least & (to_least - 1u);
        while (rest != 0u) {
            black_least = min(black_least, morris_apply(firstTrailingBit(rest), blacks));
            rest &= rest - 1u;
        }
    }
    var block_of = MORRIS_BLOCK_OF_AT;
    var side_bits = MORRIS_SIDE_BITS;
    if (dest != MORRIS_HERE) {
        block_of = MORRIS_BELOW_BLOCK_OF_AT + MORRIS_SLOTS * dest;
        side_bits = MORRIS_BELOW_SIDE_BITS;
    }
    let block = tables[block_of + (13u * w + b) * 5u + group];
    let black_rank = morris_rank_among(black_least, MORRIS_BOARD & ~white_least);
    let pattern = index * binomial(24u - w, b) + black_rank;
    let side = select(1u, 0u, white_moves) & side_bits;
    return vec2<u32>(block, (pattern << side_bits) | side);
}

fn retro_unrank(block: u32, local: u32) {
    let at = MORRIS_BLOCKS_AT + 3u * block;
    let w = tables[at];
    let b = tables[at + 1u];
    let group = tables[at + 2u];
    let blacks = binomial(24u - w, b);
    let pattern = local >> MORRIS_SIDE_BITS;
    let index = pattern / blacks;
    if (MORRIS_SYMMETRY == 1u) {
        white = tables[MORRIS_PATTERNS_AT + tables[MORRIS_PATTERN_STARTS_AT + 5u * w + group] + index];
        let placement = morris_placement(w, morris_rank_among(white, MORRIS_BOARD));
        stabilizer = placement.y & 0xfffeu;
    } else {
        white = binomial_unrank(index, 24u, w).x;
        stabilizer = 0u;
    }
    black = bits_scatter(binomial_unrank(pattern % blacks, 24u - w, b).x, MORRIS_BOARD & ~white);
    if (MORRIS_SIDE_BITS == 1u) {
        white_to_move = (local & 1u) == 0u;
    } else {
        white_to_move = morris_in_hand(0u) == morris_in_hand(1u);
    }
}

fn retro_mover() -> u32 {
    return select(2u, 1u, white_to_move);
}

// A side without a move has lost.
fn retro_no_move_value() -> u32 {
    return select(1u, 2u, white_to_move);
}

// A side with two stones (on the board and in hand) has lost.
fn retro_rule_value() -> u32 {
    if (countOneBits(white) + morris_in_hand(0u) < 3u) {
        return 2u;
    }
    if (countOneBits(black) + morris_in_hand(1u) < 3u) {
        return 1u;
    }
    return 0u;
}

// The least black mask among the images that keep white's pattern.
fn retro_is_representative() -> bool {
    var rest = stabilizer;
    while (rest != 0u) {
        if (morris_apply(firstTrailingBit(rest), black) < black) {
            return false;
        }
        rest &= rest - 1u;
    }
    return true;
}

fn retro_twin() -> vec2<u32> {
    return morris_rank(white, black, white_to_move, MORRIS_HERE);
}

fn morris_decided() -> bool {
    return retro_rule_value() != 0u;
}

// The position after the mover's stones became `mine` and the opponent's
// `theirs`, the opponent to move, in the layer or one below (`dest`).
fn morris_after(mine: u32, theirs: u32, dest: u32) -> vec2<u32> {
    if (white_to_move) {
        return morris_rank(mine, theirs, false, dest);
    }
    return morris_rank(theirs, mine, true, dest);
}

// The stones in hand of the side to move.
fn morris_mover_in_hand() -> u32 {
    return morris_in_hand(select(1u, 0u, white_to_move));
}

// The stones of `stones` a mill may take: those in no mill, else any.
fn morris_removable(stones: u32) -> u32 {
    var in_mills = 0u;
    for (var m = 0u; m < MORRIS_MILLS; m++) {
        let mill = tables[MORRIS_MILLS_AT + m];
        if ((stones & mill) == mill) {
            in_mills |= mill;
        }
    }
    let outside = stones & ~in_mills;
    return select(outside, stones, outside == 0u);
}

// What a stone arriving leads to once the mover's stones became `mine`
// (rules::arrive): the opponent's stones as they are, into `quiet` (the
// layer for a move, a layer below for a placement); or, when it `closes` a
// mill and the opponent has stones on the board, once per stone of
// `removable` it takes, into `took` below. False once retro_move asks to
// stop (no return from inside the loop: see retro_moves).
fn morris_arrive(mine: u32, theirs: u32, closes: bool, removable: u32, quiet: u32, took: u32) -> bool {
    var more = true;
    if (!closes || theirs == 0u) {
        let to = morris_after(mine, theirs, quiet);
        more = retro_move(quiet != MORRIS_HERE, to.x, to.y);
    } else {
        var taking = removable;
        while (taking != 0u && more) {
            let taken = firstTrailingBit(taking);
            taking &= taking - 1u;
            let to = morris_after(mine, theirs & ~(1u << taken), took);
            more = retro_move(true, to.x, to.y);
        }
    }
    return more;
}

// The moves that close a mill (one per stone they may take: into the layer
// below) first, then the others, stone by stone from the lowest point
// (rules::for_each_successor). The loops end on `more` rather than by a
// `return` from their depth: lavapipe gave wrong tallies with the early
// return (an invocation's loops cut short when another one of its SIMD
// group returned), so no position judged in the same group is affected.
fn retro_moves() {
    if (morris_decided()) {
        return;
    }
    if (MORRIS_PLACING == 1u) {
        _ = morris_placements(MORRIS_TO_CAPTURE, MORRIS_TO_CAPTURE);
        return;
    }
    var more = true;
    if (MORRIS_MIXED == 1u && morris_mover_in_hand() > 0u) {
        // Lasker's opening: the placements first (rules::for_each_successor).
        if (white_to_move) {
            more = morris_placements(MORRIS_TO_WHITE_PLACED, MORRIS_TO_WHITE_PLACED_AND_TOOK);
        } else {
            more = morris_placements(MORRIS_TO_BLACK_PLACED, MORRIS_TO_BLACK_PLACED_AND_TOOK);
        }
    }
    if (more) {
        morris_stone_moves();
    }
}

// The moves of stones on the board: along a line, or flying for a mover
// with three on the board and none in hand.
fn morris_stone_moves() {
    let mine = select(black, white, white_to_move);
    let theirs = select(white, black, white_to_move);
    let empty = MORRIS_BOARD & ~(white | black);
    let flying = countOneBits(mine) == 3u && morris_mover_in_hand() == 0u;
    let removable = morris_removable(theirs);
    var more = true;
    for (var sweep = 0u; sweep < 2u && more; sweep++) {
        let closing = sweep == 0u;
        var origins = mine;
        while (origins != 0u && more) {
            let origin = firstTrailingBit(origins);
            origins &= origins - 1u;
            var arrivals = select(tables[MORRIS_NEIGHBOURS_AT + origin] & empty, empty, flying);
            while (arrivals != 0u && more) {
                let arrival = firstTrailingBit(arrivals);
                arrivals &= arrivals - 1u;
                let moved = (mine & ~(1u << origin)) | (1u << arrival);
                if (morris_in_mill(moved, arrival) == closing) {
                    more = morris_arrive(moved, theirs, closing, removable, MORRIS_HERE, MORRIS_TO_CAPTURE);
                }
            }
        }
    }
}

// The placements (rules::for_each_placement): a stone of the mover's hand
// on each empty point, those that close a mill first, once per stone they
// may take (none when the opponent has none on the board), into the
// layers below `quiet` and `took`. False once retro_move asks to stop.
fn morris_placements(quiet: u32, took: u32) -> bool {
    let mine = select(black, white, white_to_move);
    let theirs = select(white, black, white_to_move);
    let empty = MORRIS_BOARD & ~(white | black);
    let removable = morris_removable(theirs);
    var more = true;
    for (var sweep = 0u; sweep < 2u && more; sweep++) {
        let closing = sweep == 0u;
        var arrivals = empty;
        while (arrivals != 0u && more) {
            let arrival = firstTrailingBit(arrivals);
            arrivals &= arrivals - 1u;
            let placed = mine | (1u << arrival);
            if (morris_in_mill(placed, arrival) == closing) {
                more = morris_arrive(placed, theirs, closing, removable, quiet, took);
            }
        }
    }
    return more;
}

// The positions of the layer with a move here that took no stone: the side
// not to move brought a stone to a point where it stands in no mill (or
// any point, when the side to move has no stone on the board to take),
// from an empty neighbour or, with three stones and none in hand, any
// empty point (rules::for_each_quiet_predecessor).
fn retro_predecessors() {
    // Every placement leaves an opening layer: none of its positions has a
    // predecessor in it.
    if (MORRIS_PLACING == 1u || morris_decided()) {
        return;
    }
    let waiting = select(black, white, white_to_move);
    let moved = select(white, black, white_to_move);
    let empty = MORRIS_BOARD & ~(white | black);
    let moved_in_hand = morris_in_hand(select(0u, 1u, white_to_move));
    let flying = countOneBits(moved) == 3u && moved_in_hand == 0u;
    let took = waiting != 0u;
    var arrivals = moved;
    while (arrivals != 0u) {
        let arrival = firstTrailingBit(arrivals);
        arrivals &= arrivals - 1u;
        if (took && morris_in_mill(moved, arrival)) {
            continue;
        }
        var origins = select(tables[MORRIS_NEIGHBOURS_AT + arrival] & empty, empty, flying);
        while (origins != 0u) {
            let origin = firstTrailingBit(origins);
            origins &= origins - 1u;
            let before = (moved & ~(1u << arrival)) | (1u << origin);
            var earlier: vec2<u32>;
            if (white_to_move) {
                earlier = morris_rank(waiting, before, false, MORRIS_HERE);
            } else {
                earlier = morris_rank(before, waiting, true, MORRIS_HERE);
            }
            retro_predecessor(earlier.x, earlier.y);
        }
    }
}
