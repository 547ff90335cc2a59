// Two-bit retrograde analysis of one layer with its values resident on the
// device, after Algorithm 4 of Edelkamp, Messerschmidt, Sulewski and Yücel,
// "Solving Games in Parallel with Linear-Time Perfect Hash Functions", 2009,
// with the cell values, draws and the one recorded value of
// src/search/retro2 (see its module documentation and judge/). Pass 0
// judges every unknown position from its moves' values (the layer below's
// in place of lines 9-17, and the layer's own as lines 19-37 do); a later
// pass judges only the candidates: the predecessors of the positions the
// pass before decided (`propagate`), since a position's verdict changes
// only when one of its moves' values does; a predecessor that a decided
// position wins for (a loss for the one who moves there) is won at once,
// as the CPU does. Values only go from unknown to
// decided, so a judgement that reads a cell another invocation decides in
// the same pass still sees values of the fixpoint, and the decided cell's
// predecessors are judged again in the next pass.
//
// One invocation owns one 32-bit word (16 cells) of the layer's table, as in
// pieces.wgsl, and the same 16 cells of the one-bit tables `changed` (decided
// in the pass before) and `candidates`. Needs: the game's retro rules
// (src/kernel.rs lists them), the accessors `values_load` / `values_and` /
// `values_or` of the layer's table, `lower_load` of the layer below's (a
// dummy without one), and `changed_*` and `candidates_*`, and consts
// RETRO_BLOCK_STARTS_AT / RETRO_LOWER_STARTS_AT (each block's first rank in
// its table, as (low, high)), RETRO_HAS_LOWER, RETRO_MARKS (0: the mark
// tables are one-word stand-ins, and every pass judges all unknown
// positions), RETRO_REDUCED (symmetry: only
// representatives are judged) and RETRO_RECORDED (the only value recorded
// before the final fill, 0 if every value is).
//
// A streamed layer (RETRO_STREAMED 1, src/backend/gpu/retro/windows.rs):
// `values` holds one window of the layer's table (the target) and `lower`
// one window of the layer below's or of the layer's own (the source), as
// the five words at RETRO_WINDOWS_AT say (target's first word and words,
// source's first word and words, 1 if the source is the layer below); a
// move into neither is ABSENT this round. `judge` with JUDGE_ROUND folds
// what the moves present say into `tallies` (two bits a position, one
// invocation a word as for the values), deciding only wins and the rules'
// values, and `settle` decides the rest after the target's last round.
//
// Work lists (RETRO_LISTS > 0: a resident layer with marks; the binding
// of a streamed layer's tallies holds them): a later pass touches few
// positions, and a scan of the whole layer leaves most invocations idle
// while a few judge up to 16 positions one after another. So every mark
// newly set is also appended, as (block, local), to a list of up to
// RETRO_LISTS entries: the positions decided (marked changed) and the
// candidates. While a list holds all of its marks, the next kernel runs one
// invocation per entry (`propagate_listed`, `judge_listed`); once it
// overflowed, the marks are scanned as before. Two decided lists take
// turns: a pass's propagation reads the one the pass before filled while
// it appends its wins to the other. The 32-bit words: the three lists'
// lengths (attempted appends, which may run past RETRO_LISTS), then the
// entries of decided lists 0 and 1 and of the candidates.

struct Params {
    block: u32,
    first_word: u32,
    words: u32,
    // Rank in the block of the first cell of the first word (wrapping: the
    // first word of a block may start before it).
    local_base: u32,
    // Low-bit masks of the block's cells in its first and last words.
    head_mask: u32,
    tail_mask: u32,
    // The value `fill_unknown` writes; for `judge`, JUDGE_ALL to judge
    // every unknown position (pass 0), JUDGE_LOWER the same by the layers
    // below (pass 0 of a fresh layer), JUDGE_CANDIDATES only the
    // candidates, JUDGE_ROUND every unknown position, by its moves present;
    // for `propagate_listed`, the decided list it reads.
    value: u32,
    // The decided list that the judgements and the propagations append to.
    decided_list: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// The counters (pieces.wgsl): positions judged and predecessors generated,
// positions decided, moves into a layer below that is not there (must
// stay 0), and entries appended to the decided list and to the
// candidates.
const COUNTERS: u32 = 5u;
// The work list of the candidates (decided lists 0 and 1 come first), and
// where the entries start, past the lengths.
const CANDIDATE_LIST: u32 = 2u;
const LIST_HEADER: u32 = 3u;

const LOW_BITS: u32 = 0x55555555u;
const CELL_BITS: u32 = 2u;
const ALL_CELLS: u32 = LOW_BITS;
const DRAW: u32 = 3u;
const JUDGE_ALL: u32 = 0u;
const JUDGE_CANDIDATES: u32 = 1u;
// Pass 0 of a fresh layer: every position of which is unknown but for the
// few this pass decides, so a look at its moves within the layer would
// mostly learn that they are open. Rules that can (retro_skips_within)
// count the first such move as open without ranking it, as the CPU's
// first sweep does; a position whose move within the layer is decided
// later is a candidate then, through the changed marks.
const JUDGE_LOWER: u32 = 3u;
const JUDGE_ROUND: u32 = 2u;
// A move's value in a round where its cell is in neither window.
const ABSENT: u32 = 4u;
const NOT_HERE: u32 = 0xffffffffu;
// The tally codes, ordered: seeing a move twice changes nothing.
const NO_MOVE: u32 = 0u;
const ALL_LOST: u32 = 1u;
const A_DRAW: u32 = 2u;
const OPEN: u32 = 3u;

// The tally of one position's moves (the judge's Tally, src/space/tally.rs).
var<private> tally_win: u32;
var<private> tally_loss: u32;
var<private> tally_moves: u32;
var<private> tally_draws: bool;
var<private> tally_open: bool;
var<private> tally_won: bool;
var<private> missed: u32;
var<private> generated: u32;
// False while judging by the layers below only (JUDGE_LOWER).
var<private> looks_within: bool;
var<private> decided_appended: u32;
var<private> candidates_appended: u32;
// In a propagation: the value of the decided position whose predecessors
// are generated if it wins for them, else 0; and how many it won.
var<private> winning: u32;
var<private> won: u32;

// Low bit of every 2-bit cell of `word` equal to `value`.
fn cells_equal(word: u32, value: u32) -> u32 {
    let difference = word ^ (LOW_BITS * value);
    return ~(difference | (difference >> 1u)) & LOW_BITS;
}

// The word and shift of cell (block, local) of a table whose block starts
// are at `starts_at`. Tables hold fewer than 2^36 cells, so the word index
// fits 32 bits.
fn cell_address(starts_at: u32, block: u32, local: u32) -> vec2<u32> {
    let start = vec2<u32>(tables[starts_at + 2u * block], tables[starts_at + 2u * block + 1u]);
    let global = u64_add(start, u64_from(local));
    return vec2<u32>((global.y << 28u) | (global.x >> 4u), 2u * (global.x & 15u));
}

// The one-bit tables' word and bit of cell (block, local) of the layer.
fn bit_address(block: u32, local: u32) -> vec2<u32> {
    let start = vec2<u32>(tables[RETRO_BLOCK_STARTS_AT + 2u * block],
                          tables[RETRO_BLOCK_STARTS_AT + 2u * block + 1u]);
    let global = u64_add(start, u64_from(local));
    return vec2<u32>((global.y << 27u) | (global.x >> 5u), global.x & 31u);
}

// The low 16 bits of `bits` at the even bits (one bit per two-bit cell).
fn spread(bits: u32) -> u32 {
    var x = bits & 0xffffu;
    x = (x | (x << 8u)) & 0x00ff00ffu;
    x = (x | (x << 4u)) & 0x0f0f0f0fu;
    x = (x | (x << 2u)) & 0x33333333u;
    x = (x | (x << 1u)) & 0x55555555u;
    return x;
}

// The inverse of `spread`: the even bits packed low.
fn gather(cells: u32) -> u32 {
    var x = cells & 0x55555555u;
    x = (x | (x >> 1u)) & 0x33333333u;
    x = (x | (x >> 2u)) & 0x0f0f0f0fu;
    x = (x | (x >> 4u)) & 0x00ff00ffu;
    x = (x | (x >> 8u)) & 0x0000ffffu;
    return x;
}

// Appends cell (block, local), whose mark was just set, to work list
// `list`, unless it is full; counts the append either way.
fn list_append(list: u32, block: u32, local: u32) {
    if (RETRO_LISTS == 0u) {
        return;
    }
    if (list == CANDIDATE_LIST) {
        candidates_appended += 1u;
    } else {
        decided_appended += 1u;
    }
    // Once full, the length is not bumped further (it stays far below
    // 2^32 however many marks a pass sets).
    if (tallies_load(list) >= RETRO_LISTS) {
        return;
    }
    let index = tallies_add(list, 1u);
    if (index < RETRO_LISTS) {
        let at = LIST_HEADER + 2u * (list * RETRO_LISTS + index);
        _ = tallies_exchange(at, block);
        _ = tallies_exchange(at + 1u, local);
    }
}

// Entry `index` of work list `list`, as (block, local).
fn list_entry(list: u32, index: u32) -> vec2<u32> {
    let at = LIST_HEADER + 2u * (list * RETRO_LISTS + index);
    return vec2<u32>(tallies_load(at), tallies_load(at + 1u));
}

// Records `value` for the unknown cell (block, local), marked changed and
// listed, unless another invocation decided it first; whether this one
// did. (Other invocations write other cells of the word, or, in a
// propagation, the same win.)
fn decide(block: u32, local: u32, value: u32) -> bool {
    let at = cell_address(RETRO_BLOCK_STARTS_AT, block, local);
    let before = values_or(at.x, value << at.y);
    if (((before >> at.y) & 3u) != 0u) {
        return false;
    }
    let mark = bit_address(block, local);
    _ = changed_or(mark.x, 1u << mark.y);
    list_append(params.decided_list, block, local);
    return true;
}

// Called by the game's `retro_predecessors`: won at once if the decided
// position wins for it, else a candidate for the next judgement.
fn retro_predecessor(block: u32, local: u32) {
    generated += 1u;
    if (winning != 0u) {
        let at = cell_address(RETRO_BLOCK_STARTS_AT, block, local);
        if (((values_load(at.x) >> at.y) & 3u) == 0u && decide(block, local, winning)) {
            won += 1u;
        }
        return;
    }
    let at = bit_address(block, local);
    let before = candidates_or(at.x, 1u << at.y);
    if ((before & (1u << at.y)) == 0u) {
        list_append(CANDIDATE_LIST, block, local);
    }
}

// Generates the predecessors of the unranked position, decided as `value`.
fn propagate_position(value: u32) {
    // Their mover is the other player: a loss for its mover is their win.
    winning = select(0u, value, value == 3u - retro_mover());
    retro_predecessors();
}

// The offset of table word `word` in the window described at `at` (its
// first word, its words), or NOT_HERE.
fn window_offset(word: u32, at: u32) -> u32 {
    let offset = word - tables[at];
    if (offset < tables[at + 1u]) {
        return offset;
    }
    return NOT_HERE;
}

// The value of the cell at `at` (word, shift) of the source window, if the
// source is the layer below (`lower` 1) or the layer itself (0).
fn source_value(at: vec2<u32>, lower: u32) -> u32 {
    if (tables[RETRO_WINDOWS_AT + 4u] == lower) {
        let offset = window_offset(at.x, RETRO_WINDOWS_AT + 2u);
        if (offset != NOT_HERE) {
            return (lower_load(offset) >> at.y) & 3u;
        }
    }
    return ABSENT;
}

fn value_here(block: u32, local: u32) -> u32 {
    let at = cell_address(RETRO_BLOCK_STARTS_AT, block, local);
    if (RETRO_STREAMED == 0u) {
        return (values_load(at.x) >> at.y) & 3u;
    }
    let offset = window_offset(at.x, RETRO_WINDOWS_AT);
    if (offset != NOT_HERE) {
        return (values_load(offset) >> at.y) & 3u;
    }
    return source_value(at, 0u);
}

fn value_below(block: u32, local: u32) -> u32 {
    if (RETRO_HAS_LOWER == 0u) {
        missed += 1u;
        return 0u;
    }
    let at = cell_address(RETRO_LOWER_STARTS_AT, block, local);
    if (RETRO_STREAMED == 0u) {
        return (lower_load(at.x) >> at.y) & 3u;
    }
    return source_value(at, 1u);
}

// Called by the game's `retro_moves` for each move: sees its value; false
// once more moves cannot change what is recorded.
fn retro_move(lower: bool, block: u32, local: u32) -> bool {
    var value: u32;
    if (lower) {
        value = value_below(block, local);
    } else {
        value = value_here(block, local);
    }
    if (value == ABSENT) {
        return true;
    }
    tally_moves += 1u;
    if (value == tally_win) {
        tally_won = true;
        return false;
    }
    if (value == tally_loss) {
        return true;
    }
    if (value == DRAW) {
        tally_draws = true;
    } else {
        tally_open = true;
    }
    // When only the mover's loss can be recorded, it needs every move lost.
    return RETRO_RECORDED == 0u || RETRO_RECORDED == tally_win;
}

// Asked before a move within the layer: where the rules do not rank and
// look at such moves (pass 0's first look at a fresh layer), the move
// leaves the position open, unseen, and the rules look at no more (true).
fn retro_skips_within() -> bool {
    if (looks_within) {
        return false;
    }
    tally_moves += 1u;
    tally_open = true;
    return true;
}

// Tallies the unranked position's moves (those present, on a streamed
// layer).
fn tally_position() {
    tally_win = retro_mover();
    tally_loss = 3u - tally_win;
    tally_moves = 0u;
    tally_draws = false;
    tally_open = false;
    tally_won = false;
    retro_moves();
}

// What the tallied moves say short of a win, as a tally code.
fn tally_code() -> u32 {
    if (tally_open) {
        return OPEN;
    }
    if (tally_draws) {
        return A_DRAW;
    }
    if (tally_moves > 0u) {
        return ALL_LOST;
    }
    return NO_MOVE;
}

// The value of the unranked position when every move has been seen and
// none wins, by its tally code (0 while a move is open).
fn value_of_tally(code: u32) -> u32 {
    switch (code) {
        case NO_MOVE: { return retro_no_move_value(); }
        case ALL_LOST: { return 3u - retro_mover(); }
        case A_DRAW: { return DRAW; }
        default: { return 0u; }
    }
}

// `value` if it is recorded before the final fill, else 0.
fn recorded(value: u32) -> u32 {
    if (RETRO_RECORDED != 0u && value != RETRO_RECORDED) {
        return 0u;
    }
    return value;
}

// The value to record for the unranked position, or 0 (still unknown, or
// a value that is not recorded).
fn judge_position() -> u32 {
    var verdict = retro_rule_value();
    if (verdict == 0u) {
        tally_position();
        if (tally_won) {
            verdict = tally_win;
        } else {
            verdict = value_of_tally(tally_code());
        }
    }
    return recorded(verdict);
}

// One round of the unranked position on a streamed layer, with tally code
// `code` from the rounds before: the value to record now (the rules', or a
// win) or 0, and the new code (OPEN where a value is known that is not
// recorded, so that `settle` leaves the position alone).
fn judge_in_round(code: u32) -> vec2<u32> {
    var known = retro_rule_value();
    if (known == 0u) {
        tally_position();
        if (!tally_won) {
            return vec2<u32>(0u, max(code, tally_code()));
        }
        known = tally_win;
    }
    let value = recorded(known);
    return vec2<u32>(value, select(code, OPEN, value == 0u));
}

// An invocation's private state at the start of a kernel: its counts
// zeroed, every move looked at.
fn begin_kernel() {
    looks_within = true;
    missed = 0u;
    generated = 0u;
    won = 0u;
    decided_appended = 0u;
    candidates_appended = 0u;
}

// Adds the invocations' counts to the counters, a sum per workgroup.
fn flush_counts(local_index: u32, examined: u32, decided: u32) {
    begin_group_counts(local_index);
    atomicAdd(&group_counts[0], examined);
    atomicAdd(&group_counts[1], decided);
    atomicAdd(&group_counts[2], missed);
    atomicAdd(&group_counts[3], decided_appended);
    atomicAdd(&group_counts[4], candidates_appended);
    end_group_counts(local_index);
}

// Unranks the position at (block, local); whether it is judged (with
// symmetry, only a representative is: the others are copied from their
// twins at the end).
fn unrank_judged(block: u32, local: u32) -> bool {
    retro_unrank(block, local);
    return RETRO_REDUCED == 0u || retro_is_representative();
}

// Judges the unknown (representative) positions of the word: all of them
// (pass 0, fully or by the layers below) or the candidates, whose marks it
// clears; or, in a round of a streamed layer, all of them by the moves
// present, their tallies kept. A
// decision is written at once, so later judgements of the pass see it, and
// marked as changed.
@compute @workgroup_size(256)
fn judge(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    begin_kernel();
    looks_within = params.value != JUDGE_LOWER;
    var examined = 0u;
    var decided = 0u;
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        // The word's 16 cells are half of a one-bit word.
        let half = word >> 1u;
        let shift = 16u * (word & 1u);
        let cells = block_cells(index);
        var unknown = cells_equal(values_load(word), 0u) & cells;
        let round = params.value == JUDGE_ROUND;
        var tallies = 0u;
        if (round) {
            tallies = tallies_load(word);
        }
        if (params.value == JUDGE_CANDIDATES) {
            unknown &= spread(candidates_load(half) >> shift);
            // Only this block's cells: a neighbouring block's piece may
            // come later in the pass.
            _ = candidates_and(half, ~(gather(cells) << shift));
        }
        var changed = 0u;
        while (unknown != 0u) {
            let bit = firstTrailingBit(unknown);
            unknown &= unknown - 1u;
            if (!unrank_judged(params.block, local_rank(index, bit))) {
                continue;
            }
            examined += 1u;
            var value = 0u;
            if (round) {
                let judged = judge_in_round((tallies >> bit) & 3u);
                value = judged.x;
                tallies = (tallies & ~(3u << bit)) | (judged.y << bit);
            } else {
                value = judge_position();
            }
            if (value != 0u) {
                _ = values_or(word, value << bit);
                changed |= 1u << bit;
                decided += 1u;
                // An unknown position's changed mark is clear.
                list_append(params.decided_list, params.block, local_rank(index, bit));
            }
        }
        // Without marks (RETRO_MARKS 0) every pass judges all again.
        if (RETRO_MARKS == 1u && changed != 0u) {
            _ = changed_or(half, gather(changed) << shift);
        }
        if (round) {
            // The invocation owns the word: and, then or, is a store.
            _ = tallies_and(word, tallies);
            _ = tallies_or(word, tallies);
        }
    }
    flush_counts(local_index, examined, decided);
}

// After the last round of a streamed layer's target: every unknown
// (representative) position whose moves were all seen, none of them won,
// takes the value its tally gives.
@compute @workgroup_size(256)
fn settle(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    begin_kernel();
    var decided = 0u;
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        let tallies = tallies_load(word);
        var unknown = cells_equal(values_load(word), 0u) & block_cells(index)
            & ~cells_equal(tallies, OPEN);
        var values = 0u;
        while (unknown != 0u) {
            let bit = firstTrailingBit(unknown);
            unknown &= unknown - 1u;
            if (!unrank_judged(params.block, local_rank(index, bit))) {
                continue;
            }
            let value = recorded(value_of_tally((tallies >> bit) & 3u));
            if (value != 0u) {
                values |= value << bit;
                decided += 1u;
            }
        }
        if (values != 0u) {
            _ = values_or(word, values);
        }
    }
    flush_counts(local_index, 0u, decided);
}

// The first half of a later pass: the predecessors of the positions the
// pass before decided are won or become candidates, and the changed marks
// are cleared.
@compute @workgroup_size(256)
fn propagate(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    begin_kernel();
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        let half = word >> 1u;
        let shift = 16u * (word & 1u);
        let changed = (changed_load(half) >> shift) & gather(block_cells(index));
        let values = values_load(word);
        var rest = spread(changed);
        while (rest != 0u) {
            let bit = firstTrailingBit(rest);
            rest &= rest - 1u;
            retro_unrank(params.block, local_rank(index, bit));
            propagate_position((values >> bit) & 3u);
        }
        if (changed != 0u) {
            _ = changed_and(half, ~(changed << shift));
        }
    }
    flush_counts(local_index, generated, won);
}

// `judge` over the candidates list: one invocation per entry
// (`params.words` of them).
@compute @workgroup_size(256)
fn judge_listed(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    begin_kernel();
    var examined = 0u;
    var decided = 0u;
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let cell = list_entry(CANDIDATE_LIST, index);
        let mark = bit_address(cell.x, cell.y);
        _ = candidates_and(mark.x, ~(1u << mark.y));
        let at = cell_address(RETRO_BLOCK_STARTS_AT, cell.x, cell.y);
        if (((values_load(at.x) >> at.y) & 3u) == 0u && unrank_judged(cell.x, cell.y)) {
            examined = 1u;
            let value = judge_position();
            if (value != 0u && decide(cell.x, cell.y, value)) {
                decided = 1u;
            }
        }
    }
    flush_counts(local_index, examined, decided);
}

// `propagate` over decided list `params.value`: one invocation per entry.
@compute @workgroup_size(256)
fn propagate_listed(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    begin_kernel();
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let cell = list_entry(params.value, index);
        let mark = bit_address(cell.x, cell.y);
        let bit = 1u << mark.y;
        // Its mark is clear if its predecessors were generated already: a
        // position won by the last propagation's scan, in a word that the
        // scan reached later.
        if ((changed_and(mark.x, ~bit) & bit) != 0u) {
            let at = cell_address(RETRO_BLOCK_STARTS_AT, cell.x, cell.y);
            retro_unrank(cell.x, cell.y);
            propagate_position((values_load(at.x) >> at.y) & 3u);
        }
    }
    flush_counts(local_index, generated, won);
}

// At the fixpoint: every unknown cell of the piece takes `params.value`.
@compute @workgroup_size(256)
fn fill_unknown(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        let unknown = cells_equal(values_load(word), 0u) & block_cells(index);
        if (unknown != 0u) {
            // Cells are two bits apart: no carries.
            _ = values_or(word, unknown * params.value);
        }
    }
}

// With symmetry, after the fill: every position that is not its own
// representative takes its twin's value (pulled: only representatives are
// read, only the others written; on a streamed layer, those whose twin is
// present this round).
@compute @workgroup_size(256)
fn copy_from_twins(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    let index = invocation_index(group, groups, local_index);
    if (index < params.words) {
        let word = params.first_word + index;
        var cells = block_cells(index);
        var cleared = 0u;
        var copied = 0u;
        while (cells != 0u) {
            let bit = firstTrailingBit(cells);
            cells &= cells - 1u;
            retro_unrank(params.block, local_rank(index, bit));
            if (!retro_is_representative()) {
                let twin = retro_twin();
                let value = value_here(twin.x, twin.y);
                if (value != ABSENT) {
                    cleared |= 3u << bit;
                    copied |= value << bit;
                }
            }
        }
        if (cleared != 0u) {
            _ = values_and(word, ~cleared);
            _ = values_or(word, copied);
        }
    }
}
