// Expansion of a puzzle read from a definition file (src/games/ksolve/):
// a position is one value per coordinate, the index their mixed-radix
// number (coordinate 0 the most significant). Coordinates 0..SPLIT make up
// the block, SPLIT..COORD_COUNT the local rank. A coordinate with a move
// table: the index digit (folded already) of its value after move m is
// tables[table_at + v * MOVE_COUNT + m]. A coordinate too large for one
// is computed in the kernel, as on the CPU
// (Coordinate::next_of_decoded): decoded, moved and encoded again.
// - A permutation (the Dino Cube's twelve edges, 12!/2 values): its value
//   is a prefix Lehmer rank of where each piece lies (Coordinate::by_piece)
//   with the parity bit moved to the top (permutation_value); each piece's
//   slot goes where the move sends it. Split in placements and runs
//   (src/games/ksolve/split.rs; the Dino Cube), it is not decoded: the
//   placement's row gives the next placement and a column, and the
//   column the run's cell, as the CPU's scan by runs reads them.
// - Alike pieces: the games' shared multinomial hash of the slots'
//   colours, nested colour sets (shaders/colour_sets.wgsl); slot i takes
//   the colour of slot from[i].
// - Orientations: base-o digits, the first slot's the most significant,
//   the last left out when the moves keep their sum; slot i takes the
//   orientation of slot from[i] plus the move's twist.
// A coordinate whose parity follows from others stores its folded value
// (value mod radix); unranking restores the value whose parity the rule
// gives, as Coordinates::values does on the CPU.
// Needs: consts COORD_COUNT, COORD_CAP, SPLIT, MOVE_COUNT,
// SPLIT_PLACEMENT_BITS, COORDS_AT: per
// coordinate COORD_FIELDS words: values, radix, table_at, parity_at (bits
// of each value's permutation parity, 32 a word), follows (1 when the
// parity follows, 2 when it follows the alternation digit), rule_solved,
// from_at, from_len (the free coordinates it follows), solved_parity,
// computed (COMPUTED_*), slots (its slot count), moves_at (per move,
// `slots` words: for a permutation where the move sends the piece in each
// slot, else each slot's `from`), then four words: for alike pieces the
// levels (colours - 1) and levels_at (per level: the count of cells of
// the colours above it, its radix, the product of the radices after it);
// for orientations the orientations, 1 + the kept sum (0 when none) and twists_at (per move, `slots` twists); for a split
// permutation the run length, entries_at (per placement and move, the
// next placement | column << SPLIT_PLACEMENT_BITS) and columns_at. The prefix Lehmer
// hash (shaders/prefix_lehmer.wgsl), the colour-set hash, and SLOT_CAP at
// least every computed coordinate's slot count.

const COORD_FIELDS: u32 = 16u;
const COMPUTED_PERMUTATION: u32 = 1u;
const COMPUTED_MULTISET: u32 = 2u;
const COMPUTED_ORIENTATION: u32 = 3u;
const COMPUTED_SPLIT: u32 = 4u;

alias SlotCells = array<u32, SLOT_CAP>;

fn computed_kind(j: u32) -> u32 {
    return coordinate(j, 9u);
}

fn is_computed(j: u32) -> bool {
    return computed_kind(j) != 0u;
}

// The prefix Lehmer rank of a computed permutation's value (the parity
// bit back at the bottom: permutation_rank).
fn computed_rank(j: u32, value: u32) -> u32 {
    let half = coordinate(j, 0u) / 2u;
    if (half == 0u) {
        return value;
    }
    return ((value % half) << 1u) | (value / half);
}

// The value of a computed permutation after move m.
fn permutation_next(j: u32, value: u32, m: u32) -> u32 {
    let k = coordinate(j, 10u);
    var cells: Permutation;
    pl_unrank(computed_rank(j, value), k, &cells);
    var moved: Permutation;
    let to_at = coordinate(j, 11u) + m * k;
    for (var i = 0u; i < k; i++) {
        moved[i] = tables[to_at + cells[i]];
    }
    let rank = pl_rank(&moved, k);
    let half = coordinate(j, 0u) / 2u;
    if (half == 0u) {
        return rank;
    }
    return (rank & 1u) * half + (rank >> 1u);
}

// The index digit of a split permutation's value after move m.
fn split_next_digit(j: u32, value: u32, m: u32) -> u32 {
    let run_len = coordinate(j, 12u);
    let digit = value % coordinate(j, 1u);
    let entry = tables[coordinate(j, 13u) + (digit / run_len) * MOVE_COUNT + m];
    let column = entry >> SPLIT_PLACEMENT_BITS;
    let next = entry & ((1u << SPLIT_PLACEMENT_BITS) - 1u);
    return next * run_len + tables[coordinate(j, 14u) + column * run_len + digit % run_len];
}

// Every move of a position reads the same value: the slots' colours are
// decoded once (for the last coordinate and value asked), not per move.
var<private> multiset_decoded_for: vec2<u32>;
var<private> multiset_colours: SlotCells;

// The value of a computed arrangement of alike pieces after move m: the
// level sets of the shared multinomial hash (shaders/colour_sets.wgsl)
// unranked, each slot's colour the number of level sets holding it; slot
// i takes the colour of slot from[i], and the moved level sets are ranked.
fn multiset_next(j: u32, value: u32, m: u32) -> u32 {
    let k = coordinate(j, 10u);
    let levels = coordinate(j, 12u);
    let levels_at = coordinate(j, 13u);
    if (any(multiset_decoded_for != vec2<u32>(j + 1u, value))) {
        multiset_decoded_for = vec2<u32>(j + 1u, value);
        for (var i = 0u; i < k; i++) {
            multiset_colours[i] = 0u;
        }
        var among = mask64_low(k);
        var rest = value;
        for (var l = 0u; l < levels; l++) {
            let weight = tables[levels_at + 3u * l + 2u];
            let digit = rest / weight;
            rest -= digit * weight;
            among = colour_level_unrank(digit, among, tables[levels_at + 3u * l]);
            var cells = among;
            while (cells.x != 0u || cells.y != 0u) {
                multiset_colours[mask64_lowest(cells)] += 1u;
                cells = mask64_drop_lowest(cells);
            }
        }
    }
    let from_at = coordinate(j, 11u) + m * k;
    var among = mask64_low(k);
    var rank = 0u;
    for (var l = 0u; l < levels; l++) {
        var chosen = vec2<u32>(0u, 0u);
        for (var i = 0u; i < k; i++) {
            if (multiset_colours[tables[from_at + i]] > l) {
                chosen |= mask64_bit(i);
            }
        }
        rank = rank * tables[levels_at + 3u * l + 1u] + colour_level_rank(chosen, among);
        among = chosen;
    }
    return rank;
}

// The value of computed orientations after move m.
fn orientation_next(j: u32, value: u32, m: u32) -> u32 {
    let k = coordinate(j, 10u);
    let o = coordinate(j, 12u);
    let kept = coordinate(j, 13u);
    var stored = k;
    if (kept != 0u) {
        stored = k - 1u;
    }
    var cells: SlotCells;
    var rest = value;
    var sum = 0u;
    for (var i = stored; i > 0u; i--) {
        cells[i - 1u] = rest % o;
        sum += rest % o;
        rest = rest / o;
    }
    if (kept != 0u) {
        cells[k - 1u] = (kept - 1u + o - sum % o) % o;
    }
    let from_at = coordinate(j, 11u) + m * k;
    let twist_at = coordinate(j, 14u) + m * k;
    var next = 0u;
    for (var i = 0u; i < stored; i++) {
        next = next * o + (cells[tables[from_at + i]] + tables[twist_at + i]) % o;
    }
    return next;
}

// The index digit of a computed coordinate's value after move m.
fn computed_next_digit(j: u32, value: u32, m: u32) -> u32 {
    let kind = computed_kind(j);
    var next: u32;
    if (kind == COMPUTED_PERMUTATION) {
        next = permutation_next(j, value, m);
    } else if (kind == COMPUTED_SPLIT) {
        next = split_next_digit(j, value, m);
    } else if (kind == COMPUTED_MULTISET) {
        next = multiset_next(j, value, m);
    } else {
        next = orientation_next(j, value, m);
    }
    return next % coordinate(j, 1u);
}

fn coordinate(j: u32, field: u32) -> u32 {
    return tables[COORDS_AT + j * COORD_FIELDS + field];
}

fn value_is_odd(j: u32, value: u32) -> bool {
    let kind = computed_kind(j);
    if (kind == COMPUTED_PERMUTATION || kind == COMPUTED_SPLIT) {
        return pl_is_odd_rank(computed_rank(j, value), coordinate(j, 10u));
    }
    let at = coordinate(j, 3u);
    return ((tables[at + value / 32u] >> (value % 32u)) & 1u) == 1u;
}

fn expand(block: u32, local: u32) {
    var values: array<u32, COORD_CAP>;
    var rest = local;
    for (var j = COORD_COUNT; j > SPLIT; j--) {
        let radix = coordinate(j - 1u, 1u);
        values[j - 1u] = rest % radix;
        rest = rest / radix;
    }
    rest = block;
    for (var j = SPLIT; j > 0u; j--) {
        let radix = coordinate(j - 1u, 1u);
        values[j - 1u] = rest % radix;
        rest = rest / radix;
    }
    // A coordinate that follows the alternation digit (rule 2) first:
    // others may follow it.
    for (var round = 2u; round >= 1u; round--) {
    for (var j = 0u; j < COORD_COUNT; j++) {
        if (coordinate(j, 4u) == round) {
            var odd = coordinate(j, 5u) == 1u;
            let from_at = coordinate(j, 6u);
            for (var i = 0u; i < coordinate(j, 7u); i++) {
                let free = tables[from_at + i];
                odd = odd != (value_is_odd(free, values[free]) != (coordinate(free, 8u) == 1u));
            }
            if (value_is_odd(j, values[j]) != odd) {
                values[j] += coordinate(j, 1u);
            }
        }
    }
    }
    for (var m = 0u; m < MOVE_COUNT; m++) {
        var next_block = 0u;
        var next_local = 0u;
        for (var j = 0u; j < COORD_COUNT; j++) {
            let radix = coordinate(j, 1u);
            var digit: u32;
            if (is_computed(j)) {
                digit = computed_next_digit(j, values[j], m);
            } else {
                digit = tables[coordinate(j, 2u) + values[j] * MOVE_COUNT + m];
            }
            if (j < SPLIT) {
                next_block = next_block * radix + digit;
            } else {
                next_local = next_local * radix + digit;
            }
        }
        successor(next_block, next_local);
    }
}
