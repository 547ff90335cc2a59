//! Distances to the end of the game under optimal play, for a layer whose
//! values are solved: the winner moves to end the game as fast as it can,
//! the loser to delay it as long as it can (plies, 0 for a position whose
//! mover has no move).
//!
//! With the values known, a won position's distance is 1 + the least
//! distance among its moves into positions lost for the opponent, and a
//! lost position's is 1 + the greatest among all its moves. Positions are
//! finished in increasing distance, level by level (`levels.rs`): a won
//! position when its first (and so nearest) losing successor finishes, a
//! lost one when its last successor does; moves into the layer below read
//! that layer's distances. A position whose value holds only by the game's rule for
//! undecided positions (Fox-and-Geese counts them won for the fox), and a
//! loss that can escape into such a position, has no finite distance:
//! [`NO_DISTANCE`]. A position whose value the rules fix before any
//! search ([`LayeredGame::rule_value`]: a capture under capture-wins) ends
//! the game there: distance 0.
//!
//! The first sweep looks only at the moves out of the layer, so positions
//! that never finish are never ranked move by move.
//!
//! One byte a position ([`LayerDistances`]; distances from 254 plies on, if
//! a game had them, in a map beside it, and past 65,534 refused) and one
//! bit while the layer is worked on. A store keeps a layer's distances at
//! one byte a position, or at two when some distance does not fit a byte
//! (and reads stores written at two bytes by earlier versions). In a store
//! the pass works on the table of bytes itself beside a table of the bits,
//! recorded between levels, so a stopped pass resumes
//! ([`stored_layer_distances`]).
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

mod levels;
mod store;
mod table;

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

pub use table::{LayerDistances, NEAR_LIMIT, NO_DISTANCE};

use crate::error::{Error, Result};
use crate::progress::{Progress, Silent};
use crate::search::Checkpoint;
use crate::search::identity::{layer_descriptor, layer_identity};
use crate::space::LayeredGame;
use crate::table::header::TableIdentity;
use crate::table::storage::file_name_for;
use crate::table::{Backing, WordStorage};

use super::driver::RecordDue;
use levels::Reached;
pub use levels::{ValueOf, Values};
pub use store::store_layers_distances;

/// The distance of a position of a layer below, by layer and rank
/// ([`NO_DISTANCE`] for one it does not hold).
pub type LowerDistance<'a> = dyn Fn(usize, u64) -> u16 + Sync + 'a;

/// The distances of layer `layer`'s positions, by rank. `value(layer,
/// rank)` answers for this layer and the one below; `lower` holds the
/// distances of the layer below (empty when nothing leaves the layer).
pub fn layer_distances<G: LayeredGame>(
    game: &G,
    layer: usize,
    value: &ValueOf,
    lower: &LayerDistances,
) -> Result<LayerDistances> {
    let below = |_: usize, rank: u64| lower.get(rank);
    layer_distances_reading(game, layer, value, &below, &Silent)
}

/// [`layer_distances`] for a layer whose moves reach several layers below
/// (an [acyclic](crate::space::LayerLinks::acyclic_layer) one): `value` and `lower`
/// answer for each of them by layer and rank. `progress` sees a pass a
/// level.
pub(crate) fn layer_distances_reading<G: LayeredGame>(
    game: &G,
    layer: usize,
    value: &ValueOf,
    lower: &LowerDistance,
    progress: &dyn Progress,
) -> Result<LayerDistances> {
    levels::compute(game, layer, value, lower, NEAR_LIMIT, progress)
}

/// [`layer_distances`] with the distances from `near_limit` on (at most
/// [`NEAR_LIMIT`]) held in the map that longer distances use: the same
/// answers, for tests of that path on games whose distances are short.
pub fn layer_distances_near_limit<G: LayeredGame>(
    game: &G,
    layer: usize,
    value: &ValueOf,
    lower: &LayerDistances,
    near_limit: u16,
) -> Result<LayerDistances> {
    let below = |_: usize, rank: u64| lower.get(rank);
    levels::compute(game, layer, value, &below, near_limit, &Silent)
}

/// How a store keeps a layer's distances: one byte a position, or two
/// (where some distance does not fit a byte, and in stores written before
/// the byte format).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoredFormat {
    /// One byte a position.
    Bytes,
    /// Two bytes a position.
    Pairs,
}

impl StoredFormat {
    /// The formats a reader tries, in order.
    pub const ALL: [StoredFormat; 2] = [StoredFormat::Bytes, StoredFormat::Pairs];

    /// The table identity of `layer`'s distances in this format (its
    /// descriptor names the file).
    pub fn identity<G: LayeredGame>(self, game: &G, layer: usize) -> TableIdentity {
        let bits = match self {
            StoredFormat::Bytes => 8,
            StoredFormat::Pairs => 16,
        };
        layer_identity(game, layer, self.label(), bits)
    }

    /// The descriptor [`identity`](Self::identity) gives (the file's
    /// name), without sampling the layer's moves for its definition: a
    /// reader looks files up by it on every question.
    pub fn descriptor<G: LayeredGame>(self, game: &G, layer: usize) -> String {
        layer_descriptor(game, layer, self.label())
    }

    fn label(self) -> &'static str {
        match self {
            StoredFormat::Bytes => "retrograde distances in bytes",
            StoredFormat::Pairs => "retrograde distances",
        }
    }

    /// Distances a 64-bit word holds.
    pub fn per_word(self) -> u64 {
        match self {
            StoredFormat::Bytes => 8,
            StoredFormat::Pairs => 4,
        }
    }

    /// Words of a layer of `size` positions.
    pub fn words(self, size: u64) -> u64 {
        size.div_ceil(self.per_word())
    }

    /// The distances of `size` positions from a table's words.
    pub fn decode(self, words: Vec<u64>, size: u64) -> LayerDistances {
        match self {
            StoredFormat::Bytes => LayerDistances::from_parts(words, size, Default::default()),
            StoredFormat::Pairs => LayerDistances::from_distances(
                (0..size).map(|rank| pair_in(words[(rank / 4) as usize], rank)),
            ),
        }
    }

    /// The distance of the position at `rank` from the stored word that
    /// holds it ([`NO_DISTANCE`] for none; `None` for a byte that says the
    /// distance is kept elsewhere, which a finished table in bytes never
    /// holds: such a table is written in pairs instead).
    pub fn distance_in(self, word: u64, rank: u64) -> Option<u16> {
        match self {
            StoredFormat::Bytes => match (word >> (8 * (rank % 8))) as u8 {
                table::NONE_BYTE => Some(NO_DISTANCE),
                table::FAR_BYTE => None,
                near => Some(u16::from(near)),
            },
            StoredFormat::Pairs => Some(pair_in(word, rank)),
        }
    }

    /// Word `index` of the table of `distances` in this format.
    fn encode(self, distances: &LayerDistances, index: u64) -> u64 {
        match self {
            StoredFormat::Bytes => distances.word(index),
            StoredFormat::Pairs => (0..4).fold(u64::MAX, |word, i| {
                let d = distances.get(index * 4 + i) as u64;
                word & !(0xffff << (16 * i)) | d << (16 * i)
            }),
        }
    }
}

/// The distance of the position at `rank` in its word of pairs.
fn pair_in(word: u64, rank: u64) -> u16 {
    (word >> (16 * (rank % 4))) as u16
}

/// The stored distances of a layer, if its store holds them complete (in
/// either format; at one byte a position the table is read in place,
/// mapped, not copied).
pub fn read_distances<G: LayeredGame>(
    game: &G,
    layer: usize,
    dir: &std::path::Path,
) -> Result<Option<LayerDistances>> {
    for format in StoredFormat::ALL {
        let descriptor = format.descriptor(game, layer);
        if !crate::table::store_file::table_exists(&dir.join(file_name_for(&descriptor)))? {
            continue;
        }
        let (table, record) =
            open_table(game, layer, format, &Backing::ReadOnly(dir.to_path_buf()))?;
        if !Checkpoint::read(&table, record)?.is_some_and(|c| c.complete) {
            continue;
        }
        let size = game.layer_size(layer);
        return Ok(Some(match format {
            StoredFormat::Bytes => LayerDistances::stored(table, size),
            StoredFormat::Pairs => {
                let words = table.words().iter().map(|w| w.load(Relaxed)).collect();
                format.decode(words, size)
            }
        }));
    }
    Ok(None)
}

/// Computes layer `layer`'s distances (see [`layer_distances`]) and, with a
/// directory backing, keeps them there as a table of their own, or reads
/// them back if it holds them already.
///
/// In a store the pass works on the table itself (in memory when there is
/// room, written at each record) beside a table of the scheduled bits,
/// and records both every `record_every` between sweeps and when stopped:
/// a run stopped halfway through a layer resumes after the last level it
/// recorded. The bits' table is removed once the layer is complete, and
/// the distances are returned as the store holds them (mapped, read-only).
pub fn stored_layer_distances<G: LayeredGame>(
    game: &G,
    layer: usize,
    backing: &Backing,
    value: &ValueOf,
    lower: &LowerDistance,
    progress: &dyn Progress,
    record_every: Duration,
) -> Result<LayerDistances> {
    let Backing::Directory(dir) = backing else {
        return layer_distances_reading(game, layer, value, lower, progress);
    };
    if let Some(stored) = read_distances(game, layer, dir)? {
        return Ok(stored);
    }
    let size = game.layer_size(layer);
    let (bytes, bytes_record) = open_table(game, layer, StoredFormat::Bytes, backing)?;
    let (marks, marks_record) = open_scheduled(game, layer, backing)?;
    let from = resume_point(&bytes, bytes_record, &marks, marks_record)?;
    if let Some(level) = from.and_then(|reached| reached.level) {
        progress.note(&format!(
            "layer {layer} distances: resuming after level {level}"
        ));
    }
    bytes.begin_writing()?;
    marks.begin_writing()?;
    let mut due = RecordDue::after(record_every);
    let mut record = |reached: &Reached, stopping: bool| {
        if !stopping && !due.reached() {
            return Ok(());
        }
        // The bits first: a stop between the two leaves records that
        // disagree, and the layer starts afresh rather than mix them.
        let checkpoint = unfinished(reached);
        checkpoint.write(&marks)?;
        checkpoint.write(&bytes)?;
        due = RecordDue::after(record_every);
        Ok(())
    };
    let pass = levels::Pass {
        game,
        layer,
        value,
        lower,
        near_limit: NEAR_LIMIT,
        progress,
    };
    let far = pass.run(bytes.words(), marks.words(), from, &mut record)?;
    let marks_path = crate::table::store_file::table_path(dir, marks.identity())?;
    drop(marks);
    let distances = if far.is_empty() {
        finished().write(&bytes)?;
        drop(bytes);
        // Read back in place (mapped, read-only): the layers above read
        // only the pages their moves reach.
        read_distances(game, layer, dir)?.ok_or_else(|| {
            Error::InvalidParameter(format!(
                "the distances of layer {layer} just written to {} are not there",
                dir.display()
            ))
        })?
    } else {
        // Some distance does not fit a byte: two bytes a position.
        let words = bytes.words().iter().map(|w| w.load(Relaxed)).collect();
        let bytes_path = crate::table::store_file::table_path(dir, bytes.identity())?;
        drop(bytes);
        let distances = LayerDistances::from_parts(words, size, far);
        let (pairs, _) = open_table(game, layer, StoredFormat::Pairs, backing)?;
        pairs.begin_writing()?;
        for (index, word) in pairs.words().iter().enumerate() {
            word.store(
                StoredFormat::Pairs.encode(&distances, index as u64),
                Relaxed,
            );
        }
        finished().write(&pairs)?;
        remove_table(&bytes_path)?;
        distances
    };
    remove_table(&marks_path)?;
    Ok(distances)
}

/// The record of a pass that stands at `reached`.
fn unfinished(reached: &Reached) -> Checkpoint {
    Checkpoint {
        last_completed: reached.level.map(u64::from),
        counts: vec![reached.latest_scheduled as u64],
        representatives: Vec::new(),
        goal_distances: Vec::new(),
        complete: false,
    }
}

/// The record of a complete table of distances.
fn finished() -> Checkpoint {
    Checkpoint {
        last_completed: Some(0),
        counts: Vec::new(),
        representatives: Vec::new(),
        goal_distances: Vec::new(),
        complete: true,
    }
}

/// Where a stopped pass resumes: the level both tables recorded, or a
/// fresh start (both tables emptied) when they disagree or hold none.
fn resume_point(
    bytes: &WordStorage,
    bytes_record: Option<Vec<u8>>,
    marks: &WordStorage,
    marks_record: Option<Vec<u8>>,
) -> Result<Option<Reached>> {
    let reached = |table: &WordStorage, record| -> Result<Option<Reached>> {
        Ok(Checkpoint::read(table, record)?.and_then(|c| {
            let latest_scheduled = u16::try_from(*c.counts.first()?).ok()?;
            let level = c.last_completed.map(u16::try_from).transpose().ok()?;
            (!c.complete && level.is_some()).then_some(Reached {
                level,
                latest_scheduled,
            })
        }))
    };
    let (from_bytes, from_marks) = (reached(bytes, bytes_record)?, reached(marks, marks_record)?);
    if from_bytes.is_some() && from_bytes == from_marks {
        return Ok(from_bytes);
    }
    // Nothing recorded (a new layer), or a record of one table only.
    if from_bytes.is_some() || from_marks.is_some() {
        bytes.start_afresh(u64::MAX)?;
        marks.start_afresh(0)?;
    }
    Ok(None)
}

/// The identity of a layer's scheduled bits while its distances are
/// worked on.
fn scheduled_identity<G: LayeredGame>(game: &G, layer: usize) -> TableIdentity {
    layer_identity(game, layer, "retrograde distances scheduled", 1)
}

fn open_scheduled<G: LayeredGame>(
    game: &G,
    layer: usize,
    backing: &Backing,
) -> Result<(WordStorage, Option<Vec<u8>>)> {
    let words = game.layer_size(layer).div_ceil(64) as usize;
    WordStorage::open(
        backing,
        scheduled_identity(game, layer),
        words,
        0,
        words,
        &Silent,
    )
}

fn remove_table(path: &std::path::Path) -> Result<()> {
    std::fs::remove_file(path).map_err(|e| Error::on_file("remove", path, e))
}

fn open_table<G: LayeredGame>(
    game: &G,
    layer: usize,
    format: StoredFormat,
    backing: &Backing,
) -> Result<(WordStorage, Option<Vec<u8>>)> {
    let words = format.words(game.layer_size(layer)) as usize;
    WordStorage::open(
        backing,
        format.identity(game, layer),
        words,
        u64::MAX,
        words,
        &Silent,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The descriptor a reader names files by is the one the writer's
    /// identity holds.
    #[test]
    fn descriptors_are_the_identities_descriptors() {
        use crate::games::TwoPlayerGame;
        let game = crate::games::dodgem::Dodgem::new(3).unwrap();
        for format in StoredFormat::ALL {
            for layer in 0..=game.max_layer() {
                assert_eq!(
                    format.descriptor(&game, layer),
                    format.identity(&game, layer).descriptor
                );
            }
        }
    }

    /// Both stored formats give back what they were given, whole and one
    /// distance at a time (the two-byte one is also how stores of earlier
    /// versions hold every layer).
    #[test]
    fn stored_formats_round_trip() {
        let near = [0, 7, NO_DISTANCE, 253, 1, 2, 3, 4, 5, 6, 9];
        let far = [0, 7, NO_DISTANCE, 254, 1_000, 65_534, 3, 4, 5];
        for (format, given) in [
            (StoredFormat::Bytes, &near[..]),
            (StoredFormat::Pairs, &near[..]),
            (StoredFormat::Pairs, &far[..]),
        ] {
            let table = LayerDistances::from_distances(given.iter().copied());
            let size = given.len() as u64;
            let words: Vec<u64> = (0..format.words(size))
                .map(|index| format.encode(&table, index))
                .collect();
            // One at a time from its word, as a paged reader reads them.
            let one_by_one: Vec<Option<u16>> = (0..size)
                .map(|rank| format.distance_in(words[(rank / format.per_word()) as usize], rank))
                .collect();
            let expected: Vec<Option<u16>> = given.iter().copied().map(Some).collect();
            assert_eq!(one_by_one, expected, "{format:?}");
            let back = format.decode(words, size);
            assert_eq!(back.iter().collect::<Vec<_>>(), given, "{format:?}");
        }
    }
}
