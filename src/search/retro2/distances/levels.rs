//! The distance pass: positions finish level by level, each level one
//! parallel sweep over the layer's distance bytes.
//!
//! Level d finishes (a) every won position with a move into a position
//! lost for its opponent that finished at d − 1, and (b) every lost
//! position whose moves within the layer have all finished, the last at
//! d − 1, and whose moves below are all no longer than d − 1. Sweep d
//! therefore looks for the bytes equal to d − 1 and expands their
//! predecessors. A distance decided by moves out of the layer alone (a win
//! by a capture, a loss whose longest defence is one) is known before its
//! level comes: the position is *scheduled* (its byte holds the level and
//! a bit says it is not final yet) and becomes final when its level's
//! sweep passes it, unless a shorter win within the layer finishes it
//! first.
//!
//! During sweep d every distance below d is final and nothing writes it;
//! sweeps only write d or scheduled levels past d, so threads need no
//! locks: whatever a racing read sees of a position being written, it is
//! never below d, which is all any decision of sweep d asks. A lost
//! position counts nothing while it waits: it is looked at again (all its
//! moves) each time one of its moves within the layer finishes, at most
//! as often as it has moves.
//!
//! A sweep expands the positions it finds in batches of [`BATCH`]: their
//! predecessors are all ranked, and each one's value and byte prefetched,
//! before the first is looked up, so the cache misses of a large layer
//! overlap instead of following one another.
//!
//! Memory: one byte and one scheduled bit a position, where the bucket
//! queue before held eight bytes and a four-byte rank a queued position
//! (refusing layers past 2^32). Cost: one sweep of the bytes a level (a
//! few hundred levels at most) on top of the predecessors of every
//! finished position. Distances at or past [`NEAR_LIMIT`] (never seen in
//! the games here, but allowed) live in a locked map with their level
//! lists.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64};
use std::time::Instant;

use rayon::prelude::*;

use super::table::{FAR_BYTE, LayerDistances, NEAR_LIMIT, NONE_BYTE};
use super::{LowerDistance, NO_DISTANCE};
use crate::error::{Error, Result};
use crate::progress::{Progress, check_stop};
use crate::space::{LayeredGame, Player, Value};
use crate::table::prefetch_word;

/// Ranks per unit of parallel work in a sweep.
const CHUNK: u64 = 1 << 16;

/// Positions of a chunk expanded together: their predecessors are ranked
/// and their cells prefetched before any is looked up.
const BATCH: usize = 32;

/// The solved values a distance pass reads, by layer and rank (this layer
/// and those below). Any `Fn(usize, u64) -> Value` is one.
pub trait Values: Sync {
    /// The value of the position at `rank` of `layer`.
    fn value(&self, layer: usize, rank: u64) -> Value;
    /// Starts loading the value of `rank` in `layer` into the cache (a
    /// hint; by default nothing).
    fn prefetch(&self, _layer: usize, _rank: u64) {}
}

impl<F: Fn(usize, u64) -> Value + Sync> Values for F {
    fn value(&self, layer: usize, rank: u64) -> Value {
        self(layer, rank)
    }
}

/// A value lookup by layer and rank (this layer and those below).
pub type ValueOf<'a> = dyn Values + 'a;

/// Computes the distances of `layer` (see the module text); distances from
/// `near_limit` on go to the map (tests lower it to exercise that path).
pub fn compute<G: LayeredGame>(
    game: &G,
    layer: usize,
    value: &ValueOf,
    lower: &LowerDistance,
    near_limit: u16,
    progress: &dyn Progress,
) -> Result<LayerDistances> {
    let size = game.layer_size(layer);
    let mut words = vec![u64::MAX; size.div_ceil(8) as usize];
    let scheduled: Vec<AtomicU64> = (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let pass = Pass {
        game,
        layer,
        value,
        lower,
        near_limit,
        progress,
    };
    let far = pass.run(atomic_words(&mut words), &scheduled, None, &mut |_, _| {
        Ok(())
    })?;
    Ok(LayerDistances::from_parts(words, size, far))
}

/// Where a layer's distance pass stands between two sweeps: what a record
/// keeps beside the distance bytes and the scheduled bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The last level whose sweep completed (0: the seeding sweep);
    /// `None` before the seeding sweep completed.
    pub level: Option<u16>,
    /// The highest level any position is scheduled for.
    pub latest_scheduled: u16,
}

/// Called between sweeps with where the pass stands (`true` when the run
/// is stopping and this is its last chance to record): keeps it if due.
pub type Record<'r> = dyn FnMut(&Reached, bool) -> Result<()> + 'r;

/// One layer's distance pass: the game and what it reads.
pub struct Pass<'a, G: LayeredGame> {
    pub game: &'a G,
    pub layer: usize,
    pub value: &'a ValueOf<'a>,
    pub lower: &'a LowerDistance<'a>,
    pub near_limit: u16,
    pub progress: &'a dyn Progress,
}

impl<G: LayeredGame> Pass<'_, G> {
    /// Runs the pass over `words` (one byte a position, all [`NONE_BYTE`]
    /// on a fresh start) and `scheduled` (one bit a position, all clear),
    /// from where a record left them (`from`), offering `record` each
    /// point between sweeps. Returns the distances past the near limit.
    ///
    /// A record may also be taken when a sweep is stopped halfway: sweep d
    /// only writes d and scheduled levels past d, and a sweep run again
    /// skips what it finished before, so a resumed pass redoes the sweep
    /// after its record's level, counting it as having finished something
    /// (at worst one sweep more than needed).
    pub fn run(
        &self,
        words: &[AtomicU64],
        scheduled: &[AtomicU64],
        from: Option<Reached>,
        record: &mut Record,
    ) -> Result<HashMap<u64, u16>> {
        let (layer, progress) = (self.layer, self.progress);
        if self.game.acyclic_layer(layer).is_none() && !self.game.has_predecessors(layer) {
            return Err(crate::error::Error::Unsupported(format!(
                "{}: distances are found from each position's predecessors, which this layer has none of (a kit game solved with --unmoves iterate: give --unmoves graph)",
                self.game.layer_descriptor(layer)
            )));
        }
        let work = Work::new(self, words, scheduled);
        let began = Instant::now();
        let mut reached = from.unwrap_or(Reached {
            level: None,
            latest_scheduled: 0,
        });
        work.latest_scheduled
            .store(reached.latest_scheduled, Relaxed);
        let resumed = reached.level;
        match resumed {
            Some(level) => work.note_finished(level),
            None => {
                // A seeding sweep stopped halfway is done again whole.
                work.seed(progress)?;
                reached = work.reached(0);
                work.offer(&reached, false, record)?;
            }
        }
        let seeded = began.elapsed().as_secs_f64();
        let first = reached.level.expect("seeded") as u32 + 1;
        let mut level = first;
        while work.finished_any(level - 1) || work.scheduled_from(level) {
            if level >= NO_DISTANCE as u32 {
                return Err(Error::Unsupported(format!(
                    "a distance in layer {layer} passes {} plies",
                    NO_DISTANCE - 1
                )));
            }
            if let Err(error) = work.sweep(level as u16, progress) {
                if matches!(error, Error::Interrupted) {
                    work.offer(&reached, true, record)?;
                }
                return Err(error);
            }
            if resumed.is_some() && level == first {
                // What this sweep finished before its stop it skipped now.
                work.note_finished(level as u16);
            }
            reached = work.reached(level as u16);
            work.offer(&reached, false, record)?;
            level += 1;
        }
        let swept = began.elapsed().as_secs_f64() - seeded;
        if self.game.reduced_by_symmetry() {
            // Never recorded halfway: a stop here resumes from the last
            // level's record.
            work.copy_to_images(progress)?;
        }
        progress.note(&format!(
            "layer {layer} distances: {} in {seeded:.1} s, {} levels in {swept:.1} s, images in {:.1} s",
            match resumed {
                Some(level) => format!("resumed after level {level}"),
                None => "seeded".to_string(),
            },
            level - first,
            began.elapsed().as_secs_f64() - seeded - swept
        ));
        let mut far = work.far.into_inner().expect("no sweep panicked").distance;
        far.retain(|&rank, _| {
            (words[(rank / 8) as usize].load(Relaxed) >> (8 * (rank % 8))) as u8 == FAR_BYTE
        });
        Ok(far)
    }
}

const _: () = assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>());

/// The words of bytes as atomics, for the sweeps' threads.
fn atomic_words(words: &mut [u64]) -> &[AtomicU64] {
    // SAFETY: `AtomicU64` has the size of `u64` and (asserted above) its
    // alignment, and the exclusive borrow keeps every other access out
    // while the atomics live.
    unsafe { &*(words as *mut [u64] as *const [AtomicU64]) }
}

/// Eight copies of `byte`.
const fn broadcast(byte: u8) -> u64 {
    byte as u64 * 0x0101_0101_0101_0101
}

/// True when some byte of `word` is zero.
const fn has_zero_byte(word: u64) -> bool {
    word.wrapping_sub(broadcast(1)) & !word & broadcast(0x80) != 0
}

/// Positions whose distance is past the near limit, under one lock: the
/// distance by rank and, by level, those finished at it and those
/// scheduled for it.
#[derive(Default)]
struct Far {
    distance: HashMap<u64, u16>,
    finished: BTreeMap<u16, Vec<u64>>,
    scheduled: BTreeMap<u16, Vec<u64>>,
}

/// The state of a layer's distance pass, shared by the sweeps' threads.
struct Work<'a, G: LayeredGame> {
    game: &'a G,
    layer: usize,
    value: &'a ValueOf<'a>,
    lower: &'a LowerDistance<'a>,
    near_limit: u16,
    /// The layer's positions.
    size: u64,
    /// One byte a position, eight a word ([`NONE_BYTE`] until it has a
    /// distance or a scheduled level, [`FAR_BYTE`] when `far` holds it).
    words: &'a [AtomicU64],
    /// One bit a position: its byte holds a level it is scheduled for,
    /// not a final distance.
    scheduled: &'a [AtomicU64],
    far: Mutex<Far>,
    /// The highest level any position is scheduled for.
    latest_scheduled: AtomicU16,
    /// Levels at which some position finished.
    finished_levels: Mutex<Vec<bool>>,
}

/// What a position's moves out of the layer tell before any sweep.
enum Seed {
    /// Final now (an end by rule, or no move).
    Final(u16),
    /// Known unless a shorter win within the layer comes first.
    Scheduled(u16),
}

impl<'a, G: LayeredGame> Work<'a, G> {
    fn new(pass: &'a Pass<'a, G>, words: &'a [AtomicU64], scheduled: &'a [AtomicU64]) -> Self {
        let size = pass.game.layer_size(pass.layer);
        debug_assert_eq!(words.len() as u64, size.div_ceil(8));
        debug_assert_eq!(scheduled.len() as u64, size.div_ceil(64));
        Work {
            game: pass.game,
            layer: pass.layer,
            value: pass.value,
            lower: pass.lower,
            near_limit: pass.near_limit.min(NEAR_LIMIT),
            scheduled,
            size,
            words,
            far: Mutex::new(Far::default()),
            latest_scheduled: AtomicU16::new(0),
            finished_levels: Mutex::new(Vec::new()),
        }
    }

    /// Where the pass stands once `level`'s sweep completed.
    fn reached(&self, level: u16) -> Reached {
        Reached {
            level: Some(level),
            latest_scheduled: self.latest_scheduled.load(Relaxed),
        }
    }

    /// Offers `reached` to `record`, unless distances past the near limit
    /// exist (a record holds the bytes and bits only; no game here has
    /// such distances, and a run that does records again never).
    fn offer(&self, reached: &Reached, stopping: bool, record: &mut Record) -> Result<()> {
        let far = self.far.lock().expect("no sweep panicked");
        if far.distance.is_empty() {
            drop(far);
            record(reached, stopping)?;
        }
        Ok(())
    }

    fn chunks(&self) -> u64 {
        self.size.div_ceil(CHUNK)
    }

    fn chunk(&self, chunk: u64) -> std::ops::Range<u64> {
        chunk * CHUNK..self.size.min((chunk + 1) * CHUNK)
    }

    fn byte(&self, rank: u64) -> u8 {
        (self.words[(rank / 8) as usize].load(Acquire) >> (8 * (rank % 8))) as u8
    }

    fn set_byte(&self, rank: u64, byte: u8) {
        let shift = 8 * (rank % 8);
        let word = &self.words[(rank / 8) as usize];
        let _ = word.fetch_update(Release, Acquire, |w| {
            Some(w & !(0xff << shift) | (byte as u64) << shift)
        });
    }

    fn unschedule(&self, rank: u64) {
        self.scheduled[(rank / 64) as usize].fetch_and(!(1 << (rank % 64)), Release);
    }

    fn is_scheduled(&self, rank: u64) -> bool {
        self.scheduled[(rank / 64) as usize].load(Acquire) & 1 << (rank % 64) != 0
    }

    /// The distance of `rank` if it became final before level `d`, asked
    /// during sweep d. Every byte below d is final then (scheduled levels
    /// are d or later), so only a distance in the map needs the scheduled
    /// bit: one read where [`final_distance`](Self::final_distance) makes
    /// two (each a cache miss on a large layer).
    fn final_before(&self, rank: u64, d: u16) -> Option<u16> {
        let byte = self.byte(rank);
        if (byte as u16) < d.min(self.near_limit) {
            return Some(byte as u16);
        }
        if byte == FAR_BYTE && !self.is_scheduled(rank) {
            let far = self.far.lock().expect("no sweep panicked");
            return far.distance.get(&rank).copied().filter(|&e| e < d);
        }
        None
    }

    /// The final distance of `rank`, `None` while it has none (unfinished,
    /// scheduled, or never to finish).
    fn final_distance(&self, rank: u64) -> Option<u16> {
        let byte = self.byte(rank);
        if byte == NONE_BYTE || self.is_scheduled(rank) {
            return None;
        }
        if byte == FAR_BYTE {
            return self
                .far
                .lock()
                .expect("no sweep panicked")
                .distance
                .get(&rank)
                .copied();
        }
        Some(byte as u16)
    }

    /// Records that some position finished at `level`.
    fn note_finished(&self, level: u16) {
        let mut levels = self.finished_levels.lock().expect("no sweep panicked");
        if levels.len() <= level as usize {
            levels.resize(level as usize + 1, false);
        }
        levels[level as usize] = true;
    }

    fn finished_any(&self, level: u32) -> bool {
        let levels = self.finished_levels.lock().expect("no sweep panicked");
        levels.get(level as usize).copied().unwrap_or(false)
    }

    fn scheduled_from(&self, level: u32) -> bool {
        self.latest_scheduled.load(Relaxed) as u32 >= level
    }

    /// Gives `rank` its final distance `d` (replacing a scheduled level).
    fn finish(&self, rank: u64, d: u16, finished_here: &AtomicBool) {
        if d < self.near_limit {
            self.set_byte(rank, d as u8);
        } else {
            let mut far = self.far.lock().expect("no sweep panicked");
            if far.distance.insert(rank, d) != Some(d) || self.is_scheduled(rank) {
                far.finished.entry(d).or_default().push(rank);
            }
            self.set_byte(rank, FAR_BYTE);
        }
        // The bit clears after the byte is written: a reader that sees it
        // clear sees the final byte.
        self.unschedule(rank);
        finished_here.store(true, Relaxed);
    }

    /// Schedules `rank` for level `d` (its byte until then says `d`).
    fn schedule(&self, rank: u64, d: u16) {
        self.scheduled[(rank / 64) as usize].fetch_or(1 << (rank % 64), Release);
        if d < self.near_limit {
            self.set_byte(rank, d as u8);
        } else {
            let mut far = self.far.lock().expect("no sweep panicked");
            if far.distance.insert(rank, d) != Some(d) {
                far.scheduled.entry(d).or_default().push(rank);
            }
            self.set_byte(rank, FAR_BYTE);
        }
        self.latest_scheduled.fetch_max(d, Relaxed);
    }

    /// The seeding sweep: every position whose own moves out of the layer
    /// (or its having none) already say its distance.
    fn seed(&self, progress: &dyn Progress) -> Result<()> {
        progress.begin_pass(
            &format!("layer {} distances: seeding", self.layer),
            self.chunks(),
        );
        let finished_here = AtomicBool::new(false);
        (0..self.chunks()).into_par_iter().try_for_each(|chunk| {
            check_stop(progress)?;
            let mut state = self.game.new_state();
            for rank in self.chunk(chunk) {
                match self.seed_of(rank, &mut state) {
                    Some(Seed::Final(d)) => self.finish(rank, d, &finished_here),
                    Some(Seed::Scheduled(d)) => self.schedule(rank, d),
                    None => {}
                }
            }
            progress.advance(1);
            Ok::<_, Error>(())
        })?;
        progress.end_pass();
        if finished_here.load(Relaxed) {
            self.note_finished(0);
        }
        Ok(())
    }

    /// What the moves of `rank` out of the layer tell (see [`Seed`]);
    /// `None` for a position that waits for its moves within the layer,
    /// or never finishes.
    fn seed_of(&self, rank: u64, state: &mut G::State) -> Option<Seed> {
        let (game, layer) = (self.game, self.layer);
        let here = self.value.value(layer, rank);
        if here == Value::Draw || here == Value::Unknown {
            return None;
        }
        game.unrank(layer, rank, state);
        // Images of a representative are neither moved to nor finished.
        if game.reduced_by_symmetry() && !game.is_representative(layer, rank, state) {
            return None;
        }
        if let Some(ruled) = game.rule_value(layer, state) {
            // The rules end the game here (Fox-and-Geese's capture-wins).
            return (ruled == here).then_some(Seed::Final(0));
        }
        let mover = game.mover(state);
        let won = here == Value::win_for(mover);
        let mut moves = 0u32;
        let mut nearest_win: Option<u16> = None;
        let mut farthest: Option<u16> = Some(0);
        let stays = game.lower_successors(layer, state, |s| {
            moves += 1;
            let d = (self.lower)(s.layer, s.rank);
            if won && d != NO_DISTANCE && self.value.value(s.layer, s.rank) == Value::win_for(mover)
            {
                nearest_win = Some(nearest_win.map_or(d, |n| n.min(d)));
            }
            if !won {
                farthest = farthest.filter(|_| d != NO_DISTANCE).map(|f| f.max(d));
            }
            true
        });
        if !stays && moves == 0 {
            return (here == game.no_move_value(state)).then_some(Seed::Final(0));
        }
        if won {
            return nearest_win.map(|d| Seed::Scheduled(d.saturating_add(1)));
        }
        if stays {
            return None;
        }
        // A loss that can move into an endless win never ends.
        farthest.map(|f| Seed::Scheduled(f.saturating_add(1)))
    }

    /// Sweep `d`: expands the positions final at d − 1 and makes final the
    /// ones scheduled for d.
    fn sweep(&self, d: u16, progress: &dyn Progress) -> Result<()> {
        let finished_here = AtomicBool::new(false);
        let (expand_near, settle_near) = (d - 1 < self.near_limit, d < self.near_limit);
        if expand_near || settle_near {
            let label = format!("layer {} distances: level {d}", self.layer);
            progress.begin_pass(&label, self.chunks());
            (0..self.chunks()).into_par_iter().try_for_each(|chunk| {
                check_stop(progress)?;
                let mut scratch = Scratch::new(self.game);
                // Levels below the near limit fit a byte.
                let (expanded, settled) = ((d - 1) as u8, d as u8);
                // Chunks hold whole words (CHUNK is a multiple of 8).
                let ranks = self.chunk(chunk);
                let mut batch = Vec::with_capacity(BATCH);
                for index in ranks.start / 8..ranks.end.div_ceil(8) {
                    let word = self.words[index as usize].load(Relaxed);
                    // Most words hold neither level: one test skips them.
                    let hit = (expand_near && has_zero_byte(word ^ broadcast(expanded)))
                        || (settle_near && has_zero_byte(word ^ broadcast(settled)));
                    if !hit {
                        continue;
                    }
                    for rank in index * 8..ranks.end.min(index * 8 + 8) {
                        let byte = (word >> (8 * (rank % 8))) as u8;
                        if expand_near && byte == expanded && !self.is_scheduled(rank) {
                            batch.push(rank);
                        } else if settle_near && byte == settled && self.is_scheduled(rank) {
                            self.unschedule(rank);
                            finished_here.store(true, Relaxed);
                        }
                    }
                    if batch.len() >= BATCH {
                        self.expand(&batch, d, &mut scratch, &finished_here);
                        batch.clear();
                    }
                }
                self.expand(&batch, d, &mut scratch, &finished_here);
                progress.advance(1);
                Ok::<_, Error>(())
            })?;
            progress.end_pass();
        }
        // The far levels' lists (empty unless distances pass the limit).
        let (to_expand, to_settle) = {
            let mut far = self.far.lock().expect("no sweep panicked");
            let expand = far.finished.remove(&(d - 1)).unwrap_or_default();
            (expand, far.scheduled.remove(&d).unwrap_or_default())
        };
        to_expand.par_chunks(BATCH).for_each_init(
            || Scratch::new(self.game),
            |scratch, batch| self.expand(batch, d, scratch, &finished_here),
        );
        for rank in to_settle {
            let mut far = self.far.lock().expect("no sweep panicked");
            if self.is_scheduled(rank) && far.distance.get(&rank) == Some(&d) {
                self.unschedule(rank);
                far.finished.entry(d).or_default().push(rank);
                finished_here.store(true, Relaxed);
            }
        }
        if finished_here.load(Relaxed) {
            self.note_finished(d);
        }
        Ok(())
    }

    /// The positions `ranks` finished at d − 1: a predecessor that wins by
    /// moving to one finishes at d, and a lost one is looked at again.
    /// Every predecessor is ranked, and its value and byte prefetched,
    /// before any is looked up (the lookups are cache misses on a large
    /// layer, and independent).
    fn expand(&self, ranks: &[u64], d: u16, scratch: &mut Scratch<G>, finished_here: &AtomicBool) {
        let (game, layer) = (self.game, self.layer);
        scratch.predecessors.clear();
        scratch.expanded.clear();
        for &rank in ranks {
            game.unrank(layer, rank, &mut scratch.state);
            let lost_for_mover =
                self.value.value(layer, rank) != Value::win_for(game.mover(&scratch.state));
            let start = scratch.predecessors.len();
            game.predecessors(layer, &scratch.state, |p| scratch.predecessors.push(p));
            let these = &mut scratch.predecessors[start..];
            these.sort_unstable();
            for &p in these.iter() {
                self.value.prefetch(layer, p);
                prefetch_word(self.words, (p / 8) as usize);
            }
            scratch.expanded.push((start, lost_for_mover));
        }
        for segment in 0..scratch.expanded.len() {
            let (start, lost_for_mover) = scratch.expanded[segment];
            let end = scratch
                .expanded
                .get(segment + 1)
                .map_or(scratch.predecessors.len(), |&(next, _)| next);
            for index in start..end {
                let p = scratch.predecessors[index];
                // A predecessor reached by several un-moves counts once.
                if index > start && scratch.predecessors[index - 1] == p {
                    continue;
                }
                self.expand_into(p, lost_for_mover, d, scratch, finished_here);
            }
        }
    }

    /// One predecessor `p` of a position finished at d − 1 (lost for its
    /// mover when `lost_for_mover`): see [`expand`](Self::expand).
    fn expand_into(
        &self,
        p: u64,
        lost_for_mover: bool,
        d: u16,
        scratch: &mut Scratch<G>,
        finished_here: &AtomicBool,
    ) {
        let (game, layer) = (self.game, self.layer);
        let mover = match game.mover_of_rank(layer, p) {
            Some(mover) => mover,
            None => {
                game.unrank(layer, p, &mut scratch.other);
                game.mover(&scratch.other)
            }
        };
        let there = self.value.value(layer, p);
        if there == Value::win_for(mover) {
            // Open: no distance yet, or only a scheduled one (bytes
            // below d are final, see `final_before`).
            let byte = self.byte(p);
            let open = byte == NONE_BYTE
                || ((byte as u16) >= d.min(self.near_limit) && self.is_scheduled(p));
            if lost_for_mover && open {
                self.finish(p, d, finished_here);
            }
        } else if there == Value::win_for(mover.opponent()) && self.byte(p) == NONE_BYTE {
            self.look_at_loss(p, mover, d, scratch, finished_here);
        }
    }

    /// A lost position `p` one of whose moves within the layer just
    /// finished: final at d if all its moves are final and the longest
    /// took d − 1, scheduled if a longer one leaves the layer; else it
    /// waits for its other moves.
    fn look_at_loss(
        &self,
        p: u64,
        mover: Player,
        d: u16,
        scratch: &mut Scratch<G>,
        finished_here: &AtomicBool,
    ) {
        let (game, layer) = (self.game, self.layer);
        game.unrank(layer, p, &mut scratch.other);
        debug_assert_eq!(game.mover(&scratch.other), mover);
        // The moves within the layer first (the game emits those below
        // first): most looks end at one not final yet, and then the layer
        // below is never read.
        let Scratch { other, below, .. } = scratch;
        below.clear();
        let mut longest = 0u16;
        let mut ready = true;
        game.successors(layer, other, |s| {
            if s.layer != layer {
                below.push((s.layer, s.rank));
                return true;
            }
            match self.final_before(s.rank, d) {
                Some(e) => longest = longest.max(e),
                None => ready = false,
            }
            ready
        });
        if !ready {
            return;
        }
        for &(at, rank) in below.iter() {
            match (self.lower)(at, rank) {
                NO_DISTANCE => return,
                e => longest = longest.max(e),
            }
        }
        let at = longest.saturating_add(1);
        if at == d {
            self.finish(p, d, finished_here);
        } else if at > d {
            self.schedule(p, at);
        }
    }

    /// Gives every stored position that is not a representative the
    /// distance of the representative it is an image of.
    fn copy_to_images(&self, progress: &dyn Progress) -> Result<()> {
        progress.begin_pass(
            &format!("layer {} distances: images", self.layer),
            self.chunks(),
        );
        let unused = AtomicBool::new(false);
        (0..self.chunks()).into_par_iter().try_for_each(|chunk| {
            check_stop(progress)?;
            let mut state = self.game.new_state();
            for rank in self.chunk(chunk) {
                // Only representatives have distances while the pass runs.
                let Some(d) = self.final_distance(rank) else {
                    continue;
                };
                self.game.unrank(self.layer, rank, &mut state);
                // An image copied by another thread already is skipped.
                if !self.game.is_representative(self.layer, rank, &state) {
                    continue;
                }
                self.game.images(self.layer, &state, |image| {
                    if image != rank {
                        self.finish(image, d, &unused);
                    }
                });
            }
            progress.advance(1);
            Ok::<_, Error>(())
        })?;
        progress.end_pass();
        Ok(())
    }
}

/// A thread's scratch space for expansions.
struct Scratch<G: LayeredGame> {
    state: G::State,
    other: G::State,
    /// The predecessors of a batch's positions, each position's sorted.
    predecessors: Vec<u64>,
    /// Where each position's predecessors start, and whether it is lost
    /// for its mover.
    expanded: Vec<(usize, bool)>,
    /// A lost position's moves into the layers below.
    below: Vec<(usize, u64)>,
}

impl<G: LayeredGame> Scratch<G> {
    fn new(game: &G) -> Self {
        Scratch {
            state: game.new_state(),
            other: game.new_state(),
            predecessors: Vec::new(),
            expanded: Vec::new(),
            below: Vec::new(),
        }
    }
}
