//! Distances to the end of the game under optimal play, for a layer whose
//! values are solved: the winner moves to end the game as fast as it can,
//! the loser to delay it as long as it can (plies, 0 for a position whose
//! mover has no move).
//!
//! With the values known, a won position's distance is 1 + the least
//! distance among its moves into positions lost for the opponent, and a
//! lost position's is 1 + the greatest among all its moves. Positions are
//! finished in increasing distance from a bucket queue: a won position when
//! its first (and so nearest) losing successor finishes, a lost one when
//! its last successor does; moves into the layer below read that layer's
//! distances. A position whose value holds only by the game's rule for
//! undecided positions (Fox-and-Geese counts them won for the fox), and a
//! loss that can escape into such a position, has no finite distance:
//! [`NO_DISTANCE`]. A position whose value the rules fix before any
//! search ([`LayeredGame::rule_value`]: a capture under capture-wins) ends
//! the game there: distance 0.
//!
//! The first scan looks only at the moves out of the layer; a lost
//! position counts its moves within the layer when the first of them
//! finishes (see [`queue_known_distances`]), so positions that never finish
//! are never ranked move by move.
//!
//! Two bytes per position (distances past 65,534 plies would not fit, and
//! are refused), plus four bytes of pending-move count, two bytes of the
//! greatest successor distance and the queue's four-byte ranks while a
//! layer is worked on (layers of up to 2^32 positions).
//!
//! Over a table reduced by symmetry only representatives are worked on:
//! moves and predecessors are ranked through the canonical form, so a
//! lost representative waits for each distinct representative among its
//! moves, and each of them, when it finishes, finds it once among its
//! predecessors (the symmetry taking a move's end to its representative
//! takes the position to one of its own orbit). The other positions a
//! layer stores (images under the symmetries fixing the fox's cell, say)
//! copy their representative's distance at the end, as their values were
//! copied.

use std::sync::atomic::Ordering::Relaxed;

use super::{LayeredGame, Player, Value};
use crate::error::{Error, Result};
use crate::search::identity::layer_identity;
use crate::search::{Checkpoint, Silent};
use crate::table::storage::file_name_for;
use crate::table::{Backing, WordStorage};

/// The distance of a position that has none (a draw, or a value by rule).
pub const NO_DISTANCE: u16 = u16::MAX;

/// The distance of a position of a layer below, by layer and rank
/// ([`NO_DISTANCE`] for one it does not hold).
pub type LowerDistance<'a> = dyn Fn(usize, u64) -> u16 + Sync + 'a;

/// The distances of layer `layer`'s positions, by rank. `value(layer,
/// rank)` answers for this layer and the one below; `lower` holds the
/// distances of the layer below (empty when nothing leaves the layer).
pub fn layer_distances<G: LayeredGame>(
    game: &G,
    layer: usize,
    value: &(dyn Fn(usize, u64) -> Value + Sync),
    lower: &[u16],
) -> Result<Vec<u16>> {
    let below = |_: usize, rank: u64| lower.get(rank as usize).copied().unwrap_or(NO_DISTANCE);
    layer_distances_reading(game, layer, value, &below)
}

/// [`layer_distances`] for a layer whose moves reach several layers below
/// (an [acyclic](LayeredGame::acyclic_layer) one): `value` and `lower`
/// answer for each of them by layer and rank.
pub fn layer_distances_reading<G: LayeredGame>(
    game: &G,
    layer: usize,
    value: &(dyn Fn(usize, u64) -> Value + Sync),
    lower: &LowerDistance,
) -> Result<Vec<u16>> {
    let size = layer_size_for_distances(game, layer)?;
    let mut queue = BucketQueue::new(layer, size);
    queue_known_distances(game, layer, value, lower, &mut queue)?;
    let mut distances = finish_in_order(game, layer, value, lower, queue)?;
    if game.reduced_by_symmetry() {
        copy_to_images(game, layer, &mut distances);
    }
    Ok(distances)
}

/// Gives every stored position that is not a representative the distance
/// of the representative it is an image of.
fn copy_to_images<G: LayeredGame>(game: &G, layer: usize, distances: &mut [u16]) {
    let mut state = game.new_state();
    for rank in 0..distances.len() as u64 {
        game.unrank(layer, rank, &mut state);
        if !game.is_representative(layer, rank, &state) {
            continue;
        }
        let distance = distances[rank as usize];
        game.images(layer, &state, |image| distances[image as usize] = distance);
    }
}

/// The layer's size, or why its distances cannot be computed here.
fn layer_size_for_distances<G: LayeredGame>(game: &G, layer: usize) -> Result<usize> {
    if game.layer_size(layer) > u32::MAX as u64 {
        return Err(Error::Unsupported(format!(
            "distances of layer {layer}: {} positions, more than the 2^32 a layer may have",
            game.layer_size(layer)
        )));
    }
    Ok(game.layer_size(layer) as usize)
}

/// `pending` of a lost position whose moves no finished position has
/// counted yet.
const UNCOUNTED: u32 = u32::MAX;

/// Positions waiting to be finished, by the distance they will finish at,
/// and what each lost position still waits for.
struct BucketQueue {
    layer: usize,
    /// `buckets[d]`: positions queued to finish at distance d. A position
    /// may be queued more than once; the first time it is taken (at the
    /// least distance) counts.
    buckets: Vec<Vec<u32>>,
    /// For lost positions: moves within the layer not yet finished
    /// ([`UNCOUNTED`] until the first of them finishes, 0 once nothing is
    /// awaited: queued, or never to finish), and the greatest distance
    /// among the finished ones and the lower moves.
    pending: Vec<u32>,
    longest: Vec<u16>,
}

impl BucketQueue {
    fn new(layer: usize, size: usize) -> Self {
        BucketQueue {
            layer,
            buckets: Vec::new(),
            pending: vec![UNCOUNTED; size],
            longest: vec![0; size],
        }
    }

    /// Queues `rank` to finish at distance `at`; distances that do not fit
    /// the two bytes a position holds are refused.
    fn push(&mut self, at: usize, rank: usize) -> Result<()> {
        check_fits(self.layer, at)?;
        if self.buckets.len() <= at {
            self.buckets.resize_with(at + 1, Vec::new);
        }
        self.buckets[at].push(rank as u32);
        Ok(())
    }
}

fn check_fits(layer: usize, at: usize) -> Result<()> {
    if at >= NO_DISTANCE as usize {
        return Err(Error::Unsupported(format!(
            "a distance in layer {layer} passes {} plies",
            NO_DISTANCE - 1
        )));
    }
    Ok(())
}

/// What a position's moves tell before any position of its layer is
/// finished.
struct MovesSeen {
    moves: u32,
    /// For a won position: the least distance among its winning moves to
    /// the layer below.
    nearest_win: Option<u16>,
    /// For a lost position: the greatest distance among its moves to the
    /// layer below; `None` once one of them has no distance.
    farthest: Option<u16>,
}

impl MovesSeen {
    fn new() -> Self {
        MovesSeen {
            moves: 0,
            nearest_win: None,
            farthest: Some(0),
        }
    }

    /// Takes in a move to position `to` of layer `at` below, for a
    /// position won (or else lost) for `mover`. Layers solved alone
    /// (capture-wins) decide their moves down by rule and never read this.
    fn move_down(
        &mut self,
        (at, to): (usize, u64),
        won: bool,
        mover: Player,
        value: &dyn Fn(usize, u64) -> Value,
        lower: &LowerDistance,
    ) {
        let d = lower(at, to);
        if won && value(at, to) == Value::win_for(mover) && d != NO_DISTANCE {
            self.nearest_win = Some(self.nearest_win.map_or(d, |n| n.min(d)));
        }
        if !won {
            self.farthest = self.farthest.filter(|_| d != NO_DISTANCE).map(|f| f.max(d));
        }
    }
}

/// Ranks per unit of parallel work in the first scan.
const SCAN_CHUNK: usize = 1 << 16;

/// The first scan, in parallel over chunks of ranks: queues every position
/// whose distance its own moves already decide (an end by rule, no move, a
/// win into the layer below, a loss whose moves all go down). It looks
/// only at the moves that leave the layer (the game answers those without
/// ranking the others): a won position finishes within the layer when a
/// finished loss names it among its predecessors, and a lost one counts
/// its moves within the layer only when the first of them finishes, so the
/// many positions that never finish (wins by the rule for undecided
/// positions, and losses that can escape into them) cost one unrank and a
/// look at their captures.
fn queue_known_distances<G: LayeredGame>(
    game: &G,
    layer: usize,
    value: &(dyn Fn(usize, u64) -> Value + Sync),
    lower: &LowerDistance,
    queue: &mut BucketQueue,
) -> Result<()> {
    use rayon::prelude::*;
    let size = queue.pending.len(); // One entry per position of the layer.
    let known: Vec<Vec<(u16, u32)>> = (0..size.div_ceil(SCAN_CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut state = game.new_state();
            let mut found = Vec::new();
            let ranks = chunk * SCAN_CHUNK..size.min((chunk + 1) * SCAN_CHUNK);
            for rank in ranks {
                if let Some(at) = known_distance(game, layer, rank as u64, &mut state, value, lower)
                {
                    check_fits(layer, at)?;
                    found.push((at as u16, rank as u32));
                }
            }
            Ok(found)
        })
        .collect::<Result<_>>()?;
    for (at, rank) in known.into_iter().flatten() {
        queue.push(at as usize, rank as usize)?;
    }
    Ok(())
}

/// The distance of the position at `rank` if its moves out of the layer
/// (or its having none) already decide it.
fn known_distance<G: LayeredGame>(
    game: &G,
    layer: usize,
    rank: u64,
    state: &mut G::State,
    value: &dyn Fn(usize, u64) -> Value,
    lower: &LowerDistance,
) -> Option<usize> {
    let here = value(layer, rank);
    if here == Value::Draw || here == Value::Unknown {
        return None;
    }
    game.unrank(layer, rank, state);
    // Images of a representative are neither moved to nor finished.
    if game.reduced_by_symmetry() && !game.is_representative(layer, rank, state) {
        return None;
    }
    let mover = game.mover(state);
    let won = here == Value::win_for(mover);
    if let Some(ruled) = game.rule_value(layer, state) {
        // The rules end the game here (Fox-and-Geese's capture-wins).
        return (ruled == here).then_some(0);
    }
    let mut seen = MovesSeen::new();
    let stays = game.lower_successors(layer, state, |s| {
        seen.moves += 1;
        seen.move_down((s.layer, s.rank), won, mover, value, lower);
        true
    });
    if !stays && seen.moves == 0 {
        return (here == game.no_move_value(state)).then_some(0);
    }
    if won {
        return seen.nearest_win.map(|d| d as usize + 1);
    }
    if stays {
        // Counted when the first of its moves within the layer finishes.
        return None;
    }
    // A loss that can move into an endless win never ends.
    seen.farthest.map(|f| f as usize + 1)
}

/// Runs through the moves of `state` (won or else lost for its mover):
/// collects the destinations within the layer in `within` and reads the
/// distances of those in the layer below.
fn look_at_moves<G: LayeredGame>(
    game: &G,
    layer: usize,
    state: &G::State,
    won: bool,
    value: &dyn Fn(usize, u64) -> Value,
    lower: &LowerDistance,
    within: &mut Vec<u64>,
) -> MovesSeen {
    let mover = game.mover(state);
    within.clear();
    let mut seen = MovesSeen::new();
    game.successors(layer, state, |s| {
        seen.moves += 1;
        if s.layer == layer {
            within.push(s.rank);
        } else {
            seen.move_down((s.layer, s.rank), won, mover, value, lower);
        }
        true
    });
    seen
}

/// Finishes positions in increasing distance: each finished position
/// finishes a predecessor that wins by moving to it (its first, so
/// nearest, losing successor), and brings a lost predecessor one move
/// closer to finishing at its longest (counting that predecessor's moves
/// the first time). Positions never finished keep [`NO_DISTANCE`].
fn finish_in_order<G: LayeredGame>(
    game: &G,
    layer: usize,
    value: &dyn Fn(usize, u64) -> Value,
    lower: &LowerDistance,
    mut queue: BucketQueue,
) -> Result<Vec<u16>> {
    let mut distance = vec![NO_DISTANCE; queue.pending.len()];
    let mut state = game.new_state();
    let mut other = game.new_state();
    let mut predecessors = Vec::new();
    let mut within = Vec::new();
    let mut at = 0;
    while at < queue.buckets.len() {
        let bucket = std::mem::take(&mut queue.buckets[at]);
        for rank in bucket {
            let rank = rank as usize;
            if distance[rank] != NO_DISTANCE {
                continue;
            }
            distance[rank] = at as u16;
            game.unrank(layer, rank as u64, &mut state);
            let lost_for_mover = value(layer, rank as u64) != Value::win_for(game.mover(&state));
            predecessors.clear();
            game.predecessors(layer, &state, |p| predecessors.push(p as usize));
            predecessors.sort_unstable();
            predecessors.dedup();
            for &p in &predecessors {
                if distance[p] != NO_DISTANCE {
                    continue;
                }
                let mover = match game.mover_of_rank(layer, p as u64) {
                    Some(mover) => mover,
                    None => {
                        game.unrank(layer, p as u64, &mut other);
                        game.mover(&other)
                    }
                };
                let there = value(layer, p as u64);
                if there == Value::win_for(mover) {
                    if lost_for_mover {
                        queue.push(at + 1, p)?;
                    }
                    continue;
                }
                if there != Value::win_for(mover.opponent()) {
                    continue;
                }
                if queue.pending[p] == UNCOUNTED {
                    // The first of its moves to finish: count them now.
                    game.unrank(layer, p as u64, &mut other);
                    let seen = look_at_moves(game, layer, &other, false, value, lower, &mut within);
                    within.sort_unstable();
                    within.dedup();
                    // A loss that can move into an endless win never ends.
                    queue.pending[p] = if seen.farthest.is_some() {
                        within.len() as u32
                    } else {
                        0
                    };
                    queue.longest[p] = seen.farthest.unwrap_or(0);
                }
                if queue.pending[p] > 0 {
                    queue.longest[p] = queue.longest[p].max(at as u16);
                    queue.pending[p] -= 1;
                    if queue.pending[p] == 0 {
                        queue.push(queue.longest[p] as usize + 1, p)?;
                    }
                }
            }
        }
        at += 1;
    }
    Ok(distance)
}

/// Distances per 64-bit word of a stored table.
const PER_WORD: u64 = 4;

/// The stored distances of a layer, if its store holds them complete.
pub fn read_distances<G: LayeredGame>(
    game: &G,
    layer: usize,
    dir: &std::path::Path,
) -> Result<Option<Vec<u16>>> {
    let identity = layer_identity(game, layer, "retrograde distances", 16);
    if !crate::table::store_file::table_exists(&dir.join(file_name_for(&identity.descriptor)))? {
        return Ok(None);
    }
    let (table, record) = open_table(game, layer, &Backing::ReadOnly(dir.to_path_buf()))?;
    let complete = Checkpoint::read(&table, record)?.is_some_and(|c| c.complete);
    Ok(complete.then(|| unpack(&table, game.layer_size(layer))))
}

/// Computes layer `layer`'s distances (see [`layer_distances`]) and, with a
/// directory backing, keeps them there as a table of their own, or reads
/// them back if it holds them already.
pub fn stored_layer_distances<G: LayeredGame>(
    game: &G,
    layer: usize,
    backing: &Backing,
    value: &(dyn Fn(usize, u64) -> Value + Sync),
    lower: &LowerDistance,
) -> Result<Vec<u16>> {
    if let Backing::Directory(dir) = backing
        && let Some(stored) = read_distances(game, layer, dir)?
    {
        return Ok(stored);
    }
    let distances = layer_distances_reading(game, layer, value, lower)?;
    if let Backing::Directory(_) = backing {
        let (table, _) = open_table(game, layer, backing)?;
        table.begin_writing()?;
        for (word, four) in table
            .words()
            .iter()
            .zip(distances.chunks(PER_WORD as usize))
        {
            let packed = four.iter().enumerate().fold(u64::MAX, |w, (i, &d)| {
                w & !(0xffff << (16 * i)) | (d as u64) << (16 * i)
            });
            word.store(packed, Relaxed);
        }
        let done = Checkpoint {
            last_completed: Some(0),
            counts: Vec::new(),
            representatives: Vec::new(),
            goal_distances: Vec::new(),
            complete: true,
        };
        table.record_progress(&done.encode())?;
        table.seal()?;
    }
    Ok(distances)
}

fn open_table<G: LayeredGame>(
    game: &G,
    layer: usize,
    backing: &Backing,
) -> Result<(WordStorage, Option<Vec<u8>>)> {
    let identity = layer_identity(game, layer, "retrograde distances", 16);
    let words = game.layer_size(layer).div_ceil(PER_WORD) as usize;
    WordStorage::open(backing, identity, words, u64::MAX, words, &Silent)
}

fn unpack(table: &WordStorage, size: u64) -> Vec<u16> {
    (0..size)
        .map(|rank| {
            let word = table.words()[(rank / PER_WORD) as usize].load(Relaxed);
            (word >> (16 * (rank % PER_WORD))) as u16
        })
        .collect()
}
