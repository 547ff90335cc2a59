//! The tables a process has read, shared by every [`super::Database`] and
//! thread that reads the same stores: a table is read and checked once,
//! and later answers are lookups, each after a look at the table's file. A
//! table whose file changed on disk since it was read (its length, inode,
//! times or header) is dropped and read and checked again; a file that no
//! longer holds an intact table is refused with an error that says it
//! changed, and nothing is answered from it until it is intact again.
//!
//! Tables are held in memory, not mapped (see [`super::reading`]), so the
//! cache keeps their total under a limit (by default half the memory
//! available when it is made): past it, the tables used least recently
//! are dropped, to be read and checked again when next asked for. A table
//! larger than a quarter of the limit is not read whole but paged (see
//! [`super::paged`]), its chunks kept within that quarter.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::depths::StoredDepths;
use super::held::{Held, InMemory};
use super::layer_tables::{LayerDistances, LayerTable};
use super::paged::PagedWords;
use super::reading::{FileState, Watched};
use crate::error::{Error, Result};
use crate::space::Space;

/// How long a refusal is repeated without reading the file again while
/// the file stays as it was: a damaged table of gigabytes is not read
/// again for every request that asks for it.
const REFUSAL_KEPT: Duration = Duration::from_secs(10);

/// Why a table was refused, and the file that was refused as it was then.
struct Refusal {
    file: Watched,
    reason: String,
    when: Instant,
    /// The file that changed, as it was when it was last read intact (if
    /// it was): every refusal says how it changed until it is intact again.
    last_read: Option<Watched>,
}

impl Refusal {
    fn error(&self) -> Error {
        Error::BadStore {
            path: self.file.path.clone(),
            reason: self.reason.clone(),
        }
    }
}

/// The bytes the tables of a cache's shelves hold, against its limit, and
/// the clock that says which was used last.
struct Ledger {
    limit: u64,
    held: AtomicU64,
    clock: AtomicU64,
}

impl Ledger {
    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Relaxed)
    }
}

enum Slot<T> {
    Empty,
    /// A table, and the tick of its last use.
    Held(Arc<Held<T>>, u64),
    Refused(Box<Refusal>),
}

/// One kind of table, by file. Each file has its own slot, locked while
/// the table is read: threads asking for a table being read wait for that
/// one read (one copy in memory, not one each), and other tables are
/// answered meanwhile.
pub(super) struct Shelf<T> {
    slots: Mutex<HashMap<PathBuf, Arc<Mutex<Slot<T>>>>>,
    ledger: Arc<Ledger>,
}

impl<T: InMemory> Shelf<T> {
    fn new(ledger: Arc<Ledger>) -> Self {
        Shelf {
            slots: Mutex::new(HashMap::new()),
            ledger,
        }
    }

    /// Empties `slot`, taking a table it held off the ledger.
    fn clear(&self, slot: &mut Slot<T>) {
        if let Slot::Held(held, _) = std::mem::replace(slot, Slot::Empty) {
            self.ledger.held.fetch_sub(held.table.bytes(), Relaxed);
        }
    }

    /// Drops the tables of this shelf used least recently, other than
    /// `kept`'s, while the cache's tables hold more than its limit. A
    /// table being read or looked at now is passed over; a dropped table
    /// still in use is freed when its last question ends.
    fn make_room(&self, kept: &Path) {
        if self.ledger.held.load(Relaxed) <= self.ledger.limit {
            return;
        }
        let slots: Vec<_> = locked(&self.slots)
            .iter()
            .filter(|(key, _)| key.as_path() != kept)
            .map(|(_, slot)| slot.clone())
            .collect();
        let mut by_use: Vec<(u64, Arc<Mutex<Slot<T>>>)> = slots
            .into_iter()
            .filter_map(|slot| {
                let last_use = match &*slot.try_lock().ok()? {
                    Slot::Held(_, last_use) => *last_use,
                    _ => return None,
                };
                Some((last_use, slot))
            })
            .collect();
        by_use.sort_unstable_by_key(|(last_use, _)| *last_use);
        for (_, slot) in by_use {
            if self.ledger.held.load(Relaxed) <= self.ledger.limit {
                break;
            }
            if let Ok(mut slot) = slot.try_lock() {
                self.clear(&mut slot);
            }
        }
    }
}

/// The value behind `lock`, even if a thread panicked holding it: slots
/// only ever hold finished tables or refusals, so what they hold is sound.
fn locked<T>(lock: &Mutex<T>) -> MutexGuard<'_, T> {
    lock.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The error for a table whose file changed since it was last read
/// intact (`last_read`) and that cannot be read again: `error` says why.
fn changed_on_disk(last_read: &Watched, error: Error) -> Error {
    let path = &last_read.path;
    let change = last_read.state.change_to(&FileState::of(path));
    let reason = match error {
        Error::BadStore {
            path: refused,
            reason,
        } if refused == *path => reason,
        other => other.to_string(),
    };
    Error::BadStore {
        path: path.clone(),
        reason: format!(
            "changed on disk since it was opened ({change}), and is refused until it is intact again: {reason}"
        ),
    }
}

impl<T: InMemory> Shelf<T> {
    /// The table kept under `key` if its files are as they were read;
    /// otherwise the one `open` reads now (then kept, dropping tables
    /// used least recently if the cache is over its limit). `open` runs
    /// with the key's slot locked, never the whole shelf.
    pub(super) fn get(
        &self,
        key: &Path,
        open: impl FnOnce() -> Result<Held<T>>,
    ) -> Result<Arc<Held<T>>> {
        let slot = locked(&self.slots)
            .entry(key.to_path_buf())
            .or_insert_with(|| Arc::new(Mutex::new(Slot::Empty)))
            .clone();
        let mut slot = locked(&slot);
        let last_read = match &mut *slot {
            Slot::Held(held, last_use) => match held.changed() {
                None => {
                    *last_use = self.ledger.tick();
                    return Ok(held.clone());
                }
                Some(file) => Some(file.clone()),
            },
            Slot::Refused(refusal) => {
                if refusal.when.elapsed() < REFUSAL_KEPT && refusal.file.change().is_none() {
                    return Err(refusal.error());
                }
                refusal.last_read.clone()
            }
            Slot::Empty => None,
        };
        self.clear(&mut slot);
        let key_before = Watched::now(key.to_path_buf());
        match open() {
            Ok(held) => {
                let held = Arc::new(held);
                self.ledger.held.fetch_add(held.table.bytes(), Relaxed);
                *slot = Slot::Held(held.clone(), self.ledger.tick());
                drop(slot);
                self.make_room(key);
                Ok(held)
            }
            Err(error) => {
                let error = match &last_read {
                    Some(file) => changed_on_disk(file, error),
                    None => error,
                };
                // A store file refused (damaged, cut short, not a file)
                // is refused again at once while it stays as it was.
                if let Error::BadStore { path, reason } = &error {
                    let file = if *path == key_before.path {
                        key_before
                    } else {
                        Watched::now(path.clone())
                    };
                    *slot = Slot::Refused(Box::new(Refusal {
                        file,
                        reason: reason.clone(),
                        when: Instant::now(),
                        last_read,
                    }));
                }
                Err(error)
            }
        }
    }

    /// Tables held now (a slot being read is not counted).
    fn held(&self) -> usize {
        let slots: Vec<_> = locked(&self.slots).values().cloned().collect();
        slots
            .iter()
            .filter(|slot| matches!(slot.try_lock().as_deref(), Ok(Slot::Held(..))))
            .count()
    }

    /// What this shelf knows of the file at `path`.
    fn examined(&self, path: &Path) -> Option<Examined> {
        let slots: Vec<_> = locked(&self.slots).values().cloned().collect();
        for slot in slots {
            let Ok(slot) = slot.try_lock() else {
                continue;
            };
            match &*slot {
                Slot::Held(held, _) => {
                    let read = held.files.iter().find(|file| {
                        file.path == path && !matches!(file.state, FileState::Missing)
                    });
                    if let Some(file) = read {
                        let paged = held.table.paged(path);
                        return Some(match (file.change(), paged.map(PagedWords::damage)) {
                            (Some(how), _) => Examined::Changed(how),
                            (None, Some(Some(reason))) => {
                                let path = path.to_path_buf();
                                Examined::Refused(Error::BadStore { path, reason }.to_string())
                            }
                            (None, Some(None)) => Examined::Paged,
                            (None, None) => Examined::Intact,
                        });
                    }
                }
                Slot::Refused(refusal)
                    if refusal.file.path == path && refusal.file.change().is_none() =>
                {
                    return Some(Examined::Refused(refusal.error().to_string()));
                }
                _ => {}
            }
        }
        None
    }
}

/// What a reader found when it last read a table file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Examined {
    /// Read, checked against its checksums, and unchanged since.
    Intact,
    /// Paged (too large to read whole within the cache's limit): its
    /// header and checksum trailer checked when opened, every chunk
    /// answered from checked as it was read, all intact so far, and
    /// unchanged since it was opened.
    Paged,
    /// Read and checked, but the file changed on disk since (how): it is
    /// read and checked again before anything is answered from it.
    Changed(String),
    /// Refused as it is now: why, in one line.
    Refused(String),
}

/// Tables read and checked, by file; shared between databases and threads
/// (a server keeps one for its whole run).
pub struct TableCache {
    ledger: Arc<Ledger>,
    /// Two-player layers' values, by the layer's values file.
    pub(super) values: Shelf<LayerTable>,
    /// A layer's distances, by their file.
    pub(super) distances: Shelf<LayerDistances>,
    /// One-player tables of depths, by file (`None`: the store has none).
    depths: Shelf<Option<Arc<StoredDepths>>>,
}

/// The limit of [`TableCache::for_few_questions`]: tables above a quarter
/// of it are paged.
const FEW_QUESTIONS_LIMIT: u64 = 64 << 20;

/// The default limit when the available memory cannot be read.
const FALLBACK_LIMIT: u64 = 4 << 30;

impl Default for TableCache {
    /// A cache that holds at most half the memory available now.
    fn default() -> Self {
        let available = crate::table::storage::available_memory();
        TableCache::with_limit(available.map_or(FALLBACK_LIMIT, |bytes| bytes / 2))
    }
}

impl TableCache {
    /// A cache whose tables hold at most `limit` bytes together (tables
    /// larger than [`paged_above`](Self::paged_above) are paged).
    pub fn with_limit(limit: u64) -> Self {
        let ledger = Arc::new(Ledger {
            limit,
            held: AtomicU64::new(0),
            clock: AtomicU64::new(0),
        });
        TableCache {
            values: Shelf::new(ledger.clone()),
            distances: Shelf::new(ledger.clone()),
            depths: Shelf::new(ledger.clone()),
            ledger,
        }
    }

    /// A cache for a process that asks a few questions and ends (`query`,
    /// `play` in a terminal): every table above 16 MiB is paged, so an
    /// answer reads the chunks it needs (milliseconds) instead of whole
    /// layers of gigabytes (seconds to minutes, and memory). A table read
    /// whole pays off only over many questions, as in a server.
    pub fn for_few_questions() -> Self {
        TableCache::with_limit(FEW_QUESTIONS_LIMIT)
    }

    /// Two-player layer tables held.
    pub fn open_tables(&self) -> usize {
        self.values.held()
    }

    /// The bytes the tables held take, and the most they may take.
    pub fn memory(&self) -> (u64, u64) {
        (self.ledger.held.load(Relaxed), self.ledger.limit)
    }

    /// Tables larger than this are paged, read a checked chunk at a time
    /// (see `super::paged`), not read whole: a quarter of the limit, as
    /// a question about a capture reads two layers' values and distances,
    /// four tables, which must fit together.
    pub fn paged_above(&self) -> u64 {
        self.ledger.limit / 4
    }

    /// What the cache knows of the table file at `path`: read intact,
    /// paged, changed since it was read, or refused; `None` when it has
    /// not read it (or is reading it now).
    pub fn examined(&self, path: &Path) -> Option<Examined> {
        self.values
            .examined(path)
            .or_else(|| self.distances.examined(path))
            .or_else(|| self.depths.examined(path))
    }

    /// The finished table of depths of `space` in store `dir`, read once
    /// (and again whenever its file changes); `None` when the store has
    /// none. An unfinished or damaged table is an error.
    pub fn stored_depths<S: Space>(
        &self,
        space: &S,
        dir: &Path,
    ) -> Result<Option<Arc<StoredDepths>>> {
        let file = StoredDepths::file(space, dir);
        let held = self
            .depths
            .get(&file, || StoredDepths::read(space, dir, self.paged_above()))?;
        Ok(held.table.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A test table of as many bytes as its number.
    impl InMemory for u32 {
        fn bytes(&self) -> u64 {
            u64::from(*self)
        }
    }

    fn shelf(limit: u64) -> Shelf<u32> {
        Shelf::new(Arc::new(Ledger {
            limit,
            held: AtomicU64::new(0),
            clock: AtomicU64::new(0),
        }))
    }

    #[test]
    fn a_table_is_read_again_only_when_its_file_changes() {
        let dir = std::env::temp_dir().join(format!("bitsolve-shelf-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("table.bst");
        std::fs::write(&path, b"one").unwrap();
        let shelf = shelf(u64::MAX);
        let reads = Cell::new(0);
        // A read numbers its table; `intact` false: the file is refused.
        let read = |intact: bool| {
            reads.set(reads.get() + 1);
            if intact {
                let files = vec![Watched::now(path.clone())];
                Ok(Held {
                    table: reads.get(),
                    files,
                })
            } else {
                let reason = "damaged".to_string();
                let path = path.clone();
                Err(Error::BadStore { path, reason })
            }
        };
        assert_eq!(shelf.get(&path, || read(true)).unwrap().table, 1);
        assert_eq!(shelf.get(&path, || read(true)).unwrap().table, 1);
        assert_eq!(shelf.examined(&path), Some(Examined::Intact));
        std::fs::write(&path, b"two!").unwrap();
        assert_eq!(
            shelf.examined(&path),
            Some(Examined::Changed(
                "its length went from 3 to 4 bytes".into()
            ))
        );
        let error = shelf.get(&path, || read(false)).unwrap_err().to_string();
        assert!(
            error.contains(
                "changed on disk since it was opened (its length went from 3 to 4 bytes)"
            ),
            "{error}"
        );
        assert!(error.ends_with(": damaged"), "{error}");
        // Refused again at once while the file stays as it is.
        let again = shelf.get(&path, || read(true)).unwrap_err().to_string();
        assert_eq!((again.as_str(), reads.get()), (error.as_str(), 2));
        assert_eq!(shelf.examined(&path), Some(Examined::Refused(error)));
        std::fs::write(&path, b"three").unwrap();
        assert_eq!(shelf.get(&path, || read(true)).unwrap().table, 3);
        assert_eq!(shelf.held(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn past_the_limit_the_tables_used_least_recently_are_dropped() {
        let dir = std::env::temp_dir().join(format!("bitsolve-limit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let shelf = shelf(10);
        let reads = Cell::new(0);
        for name in ["a", "b", "c", "d"] {
            std::fs::write(dir.join(name), name).unwrap();
        }
        let get = |name: &str, bytes: u32| {
            let path = dir.join(name);
            let held = shelf.get(&path, || {
                reads.set(reads.get() + 1);
                let files = vec![Watched::now(path.clone())];
                Ok(Held {
                    table: bytes,
                    files,
                })
            });
            held.unwrap().table
        };
        get("a", 4);
        get("b", 4);
        get("a", 4);
        assert_eq!((reads.get(), shelf.ledger.held.load(Relaxed)), (2, 8));
        // c takes the room of b, used less recently than a.
        get("c", 4);
        assert_eq!((shelf.held(), shelf.ledger.held.load(Relaxed)), (2, 8));
        get("a", 4);
        assert_eq!(reads.get(), 3);
        get("b", 4);
        assert_eq!(reads.get(), 4);
        // A table larger than the limit is held alone.
        get("d", 12);
        assert_eq!((shelf.held(), shelf.ledger.held.load(Relaxed)), (1, 12));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
