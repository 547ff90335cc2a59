//! Where a table's words live: on the heap, or in a memory-mapped file with a
//! header that lets a later run reopen the table and resume.
//!
//! File layout: a fixed [`HEADER_LEN`]-byte header, then the packed words
//! (little-endian u64), then a checksum per chunk of words. The header holds
//! the table's identity and a progress record whose meaning belongs to the
//! algorithm that wrote it (`crate::search::checkpoint`). It is written with
//! positioned writes to the file, never through the mapping, after the
//! words have reached the file: a record on disk therefore never claims work
//! whose bits are not there.
//!
//! Every record also writes the checksums of the body as recorded (one hash
//! pass per record), so a resume never builds on bytes nothing vouches for:
//! a reopened table whose body no longer matches its last record's
//! checksums is repaired where the difference is provably the run's own
//! (chunks that were still untouched at the record are cleared again) and
//! otherwise starts afresh, saying so. A writer keeps the table in memory
//! when the system has room for it (see [`WordStorage::stage`]); its file
//! then changes only while a record is written, and between records it is
//! sealed.

use std::fs::{self, File};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use memmap2::{MmapMut, MmapOptions, UncheckedAdvice};
use rayon::prelude::*;

use super::checksums::{
    chunk_checksums, chunk_words_range, decode_trailer, encode_trailer, trailer_hash,
    uniform_checksums,
};
use super::direct::DirectFile;
pub use super::header::{
    FORMAT_VERSION, HEADER_LEN, Header, MAX_PROGRESS_BYTES, Seal, TableIdentity, file_name_for,
};
use super::store_file::{self, BodyVerdict, Layout, StoredBody, bad};
use crate::error::{Error, Result};
use crate::progress::Progress;

/// Where to keep a table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Backing {
    /// Anonymous memory, gone when the table is dropped.
    #[default]
    Heap,
    /// A memory-mapped file in this directory (created if missing), locked
    /// for this run alone.
    Directory(PathBuf),
    /// An existing, sealed table file in this directory, opened for reading
    /// only: the file is never written (the mapping is private) and others
    /// may read it meanwhile, but no run may write it.
    ReadOnly(PathBuf),
}

/// Bytes of memory the kernel reports as available, if it says. The
/// environment variable `BITSOLVE_AVAILABLE_MEMORY` (bytes) stands in for
/// the kernel's figure: a run on a shared machine can keep to less, and
/// tests take the paths of a machine short of memory.
pub fn available_memory() -> Option<u64> {
    if let Some(bytes) = std::env::var("BITSOLVE_AVAILABLE_MEMORY")
        .ok()
        .and_then(|v| v.trim().parse().ok())
    {
        return Some(bytes);
    }
    let info = fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Bytes free to an unprivileged writer on the file system that holds
/// `dir` (or its nearest existing ancestor), if the system says.
pub fn free_disk(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let existing = dir.ancestors().find(|p| p.exists())?;
    let existing = if existing.as_os_str().is_empty() {
        Path::new(".")
    } else {
        existing
    };
    let path = std::ffi::CString::new(existing.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs fills the struct it is given; the path is a valid C string.
    let mut stats: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(path.as_ptr(), &mut stats) } != 0 {
        return None;
    }
    Some(stats.f_bavail as u64 * stats.f_frsize as u64)
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if size > 0 { size as usize } else { 4096 }
}

/// Anonymous memory for `words` words. Solvers read and write tables at
/// random: huge pages (where the system grants them) keep a page walk out
/// of almost every access to a table of gigabytes (Fox-and-Geese layer 11
/// under capture-wins: 108 s with 4 KiB pages, 66 s with 2 MiB pages).
fn anonymous_map(words: usize, identity: &TableIdentity) -> Result<MmapMut> {
    let bytes = (words * 8).max(1);
    let map = MmapMut::map_anon(bytes).map_err(|_| Error::OutOfMemory {
        needed: bytes as u64,
        available: available_memory().unwrap_or(0),
        what: format!("the table for {}", identity.descriptor),
    })?;
    // A hint: a system without transparent huge pages just says no.
    let _ = map.advise(memmap2::Advice::HugePage);
    Ok(map)
}

/// Bytes per positioned read or write when a staged table moves between
/// its file and memory.
const STAGE_IO_BYTES: usize = 16 << 20;

/// A table file as a run holds it.
struct StoreFile {
    map: MmapMut,
    file: File,
    path: PathBuf,
    /// False for [`Backing::ReadOnly`]: the mapping is private, nothing is
    /// ever written to the file.
    writable: bool,
    chunk_words: u64,
    /// The header as last written, and the checksums of the trailer on disk
    /// (those of the body as of the last record or seal). Locked in this
    /// order.
    header: Mutex<Header>,
    sums: Mutex<Vec<u64>>,
}

enum Memory {
    /// Anonymous memory: pages the table never touches cost nothing, and
    /// discarded pages go back to the system.
    Anonymous {
        map: MmapMut,
    },
    File(StoreFile),
    /// A file's table worked on in anonymous memory (see
    /// [`WordStorage::stage`]) and written to the file when progress is
    /// recorded or the table sealed.
    Staged {
        /// Owned for the words that live in it (`base` points into it).
        #[allow(dead_code)]
        work: MmapMut,
        store: StoreFile,
    },
    /// A file read and written in pieces by its owner ([`DirectFile`]): no
    /// word is in memory here (`words()` is empty), and the file vouches
    /// for its body after every write.
    Direct(DirectFile),
}

/// The packed words of a table plus, for file-backed tables, the header.
pub struct WordStorage {
    memory: Memory,
    base: *const AtomicU64,
    len: usize,
    identity: TableIdentity,
}

// SAFETY: the words are only ever accessed through `AtomicU64`, and the
// mapping or box they live in is owned by this struct for its whole life.
unsafe impl Send for WordStorage {}
unsafe impl Sync for WordStorage {}

impl WordStorage {
    /// Opens or creates storage for `words` words. For a directory backing, an
    /// existing file for the same identity is reopened (its body checked
    /// against its checksums) and its progress record returned; otherwise
    /// all words start as `fill`. `resident_words` is how many words the run
    /// will hold at once (all of them, unless the algorithm discards
    /// finished parts): memory beyond what the system has available is
    /// refused up front. `progress` shows creating or checking a large file.
    pub fn open(
        backing: &Backing,
        identity: TableIdentity,
        words: usize,
        fill: u64,
        resident_words: usize,
        progress: &dyn Progress,
    ) -> Result<(Self, Option<Vec<u8>>)> {
        match backing {
            Backing::Heap => {
                let needed = resident_words.min(words) as u64 * 8;
                if let Some(available) = available_memory().filter(|&a| needed > a) {
                    return Err(Error::OutOfMemory {
                        needed,
                        available,
                        what: format!("the table for {}", identity.descriptor),
                    });
                }
                Ok((Self::anonymous(identity, words, fill)?, None))
            }
            Backing::Directory(dir) => Self::mapped(dir, identity, words, fill, progress, true),
            Backing::ReadOnly(dir) => Self::read_only(dir, identity, words, progress),
        }
    }

    /// The table `identity` names in `dir` as a `DirectFile` of `words`
    /// words (created with every word `fill` if missing), for an owner that
    /// reads and writes it in pieces through [`direct`](Self::direct).
    /// Returns the progress record to resume from, as [`open`](Self::open).
    pub fn open_direct(
        dir: &Path,
        identity: TableIdentity,
        words: u64,
        fill: u64,
        progress: &dyn Progress,
    ) -> Result<(Self, Option<Vec<u8>>)> {
        let (file, record) = DirectFile::open(dir, &identity, words, fill, progress)?;
        let storage = WordStorage {
            memory: Memory::Direct(file),
            base: std::ptr::NonNull::<AtomicU64>::dangling().as_ptr(),
            len: 0,
            identity,
        };
        Ok((storage, record))
    }

    /// The file of a table opened by [`open_direct`](Self::open_direct).
    pub fn direct(&self) -> Option<&DirectFile> {
        match &self.memory {
            Memory::Direct(file) => Some(file),
            _ => None,
        }
    }

    fn anonymous(identity: TableIdentity, words: usize, fill: u64) -> Result<Self> {
        let mut map = anonymous_map(words, &identity)?;
        let base = map.as_mut_ptr() as *const AtomicU64;
        let storage = WordStorage {
            memory: Memory::Anonymous { map },
            base,
            len: words,
            identity,
        };
        // Fresh anonymous pages read as zero; any other fill touches them all.
        if fill != 0 {
            storage.words().par_chunks(1 << 16).for_each(|chunk| {
                chunk.iter().for_each(|word| word.store(fill, Relaxed));
            });
        }
        Ok(storage)
    }

    fn mapped(
        dir: &Path,
        identity: TableIdentity,
        words: usize,
        fill: u64,
        progress: &dyn Progress,
        stage: bool,
    ) -> Result<(Self, Option<Vec<u8>>)> {
        let path = store_file::table_path(dir, &identity)?;
        if !store_file::table_exists(&path)?
            && let Some(file) = store_file::create(&path, &identity, words as u64, fill, progress)?
        {
            let header = store_file::read_header(&file, &path)?;
            let mut storage = Self::map_file(file, path, header, identity, words, true)?;
            if stage {
                storage.stage_if_room(progress)?;
            }
            return Ok((storage, None));
        }
        let (file, header) = store_file::open_existing(&path, &identity, words as u64, true)?;
        let record = header.progress.clone();
        let mut storage = Self::map_file(file, path, header, identity, words, true)?;
        let record = match storage.examine(progress)? {
            BodyVerdict::Unsealed => storage.check_unsealed(fill, record, progress)?,
            verdict => {
                let StoreFile { path, header, .. } = storage.store_file().expect("a file");
                store_file::require_intact(path, &header.lock().expect("header"), &verdict)?;
                Some(record)
            }
        };
        if stage {
            storage.stage_if_room(progress)?;
        }
        Ok((storage, record))
    }

    /// A writer's table in memory when the system has room for it, so that
    /// its file changes only while a record is written (see
    /// [`stage`](Self::stage)); otherwise it stays in its mapped file, and a
    /// resume after a stop may have to start it afresh (its body changes
    /// between records, where no checksum vouches for it).
    pub fn stage_if_room(&mut self, progress: &dyn Progress) -> Result<()> {
        // Room for the table and as much again for the rest of the run.
        self.stage_within(
            2,
            "it is worked on in its mapped file, and a run stopped between checkpoints may have to start it again",
            progress,
        )
    }

    /// A table that is only read (the layer below a retrograde layer) in
    /// memory when it takes at most an eighth of the memory available;
    /// otherwise it is read through its mapped file, whose pages the
    /// system may drop and read again under pressure, where memory of our
    /// own would have to be killed for. An eighth, because the layer
    /// above needs about twice its own table beside it (its values and two
    /// bit tables of pass marks): at a quarter, Fox-and-Geese's forward
    /// layer 15 (5.7 GB) was staged beside layer 16 (6 GB of values, 6 GB
    /// of marks) and a 24 GiB machine ran out of memory.
    pub fn stage_read_only_if_room(&mut self, progress: &dyn Progress) -> Result<()> {
        self.stage_within(
            8,
            "it is read through its mapped file (the page cache holds it as memory allows)",
            progress,
        )
    }

    /// Stages the table when it takes at most 1/`share` of the memory
    /// available; otherwise notes why not (`otherwise`).
    fn stage_within(&mut self, share: u64, otherwise: &str, progress: &dyn Progress) -> Result<()> {
        let needed = self.len as u64 * 8;
        if let Some(available) = available_memory().filter(|&available| needed > available / share)
        {
            progress.note(&format!(
                "{} takes {:.1} GiB, more than 1/{share} of the {:.1} GiB available: {otherwise}",
                self.identity.descriptor,
                needed as f64 / (1u64 << 30) as f64,
                available as f64 / (1u64 << 30) as f64
            ));
            return Ok(());
        }
        self.stage()
    }

    /// A reopened table whose last run stopped while writing it: the body
    /// is checked against the checksums of its last record. Chunks that
    /// differ but were untouched (all `fill`) at the record hold only work
    /// done after it and are cleared again; any other difference means
    /// nothing vouches for the body, and the table starts afresh. Returns
    /// the record to resume from (`None`: from the start).
    fn check_unsealed(
        &self,
        fill: u64,
        record: Vec<u8>,
        progress: &dyn Progress,
    ) -> Result<Option<Vec<u8>>> {
        let store = self.store_file().expect("a file");
        let name = store.path.display();
        let header = store.header.lock().expect("header").clone();
        let verdict = self.stored_body(store, &header).check(progress)?;
        let changed = match verdict {
            BodyVerdict::Intact => {
                progress.note(&format!(
                    "{name}: its last run stopped while writing it; the body matches the checksums of its last checkpoint, which it resumes from"
                ));
                return Ok(Some(record));
            }
            BodyVerdict::Damaged(chunks) => chunks,
            BodyVerdict::TrailerDamaged | BodyVerdict::Unsealed => {
                self.start_afresh(fill)?;
                progress.note(&format!(
                    "{name}: its last run stopped while writing it, and the checksums of its last checkpoint are unreadable: nothing vouches for the table, which starts afresh"
                ));
                return Ok(None);
            }
        };
        let recorded = store.sums.lock().expect("sums").clone();
        let pristine = uniform_checksums(fill, self.len as u64, store.chunk_words);
        if changed
            .iter()
            .all(|&c| recorded[c as usize] == pristine[c as usize])
        {
            for &chunk in &changed {
                let range = chunk_words_range(chunk, self.len as u64, store.chunk_words);
                self.words()[range.start as usize..range.end as usize]
                    .iter()
                    .for_each(|word| word.store(fill, Relaxed));
            }
            progress.note(&format!(
                "{name}: its last run stopped while writing it; {} chunk(s) changed after its last checkpoint had been untouched at it and are cleared again; the rest matches that checkpoint, which it resumes from",
                changed.len()
            ));
            return Ok(Some(record));
        }
        self.start_afresh(fill)?;
        progress.note(&format!(
            "{name}: its last run stopped while writing it, and {} chunk(s) differ from the checksums of its last checkpoint: nothing vouches for them, so the table starts afresh",
            changed.len()
        ));
        Ok(None)
    }

    /// Sets every word to `fill` and records that, with an empty progress
    /// record: the table is as new (also for a process of a job whose
    /// processes agreed to start afresh because another one must).
    pub fn start_afresh(&self, fill: u64) -> Result<()> {
        self.words()
            .par_chunks(1 << 16)
            .for_each(|chunk| chunk.iter().for_each(|word| word.store(fill, Relaxed)));
        self.commit(Some(&[]), true)
    }

    fn read_only(
        dir: &Path,
        identity: TableIdentity,
        words: usize,
        progress: &dyn Progress,
    ) -> Result<(Self, Option<Vec<u8>>)> {
        let path = dir.join(file_name_for(&identity.descriptor));
        if !store_file::table_exists(&path)? {
            return Err(bad(
                &path,
                format!("no table for '{}' in this store", identity.descriptor),
            ));
        }
        let (file, header) = store_file::open_existing(&path, &identity, words as u64, false)?;
        let record = header.progress.clone();
        let storage = Self::map_file(file, path, header, identity, words, false)?;
        let verdict = storage.examine(progress)?;
        let StoreFile { path, header, .. } = storage.store_file().expect("a file");
        if verdict == BodyVerdict::Unsealed {
            return Err(bad(
                path,
                "its run stopped while writing it, so its checksums cannot vouch for it (run that search again with this store to finish it)",
            ));
        }
        store_file::require_intact(path, &header.lock().expect("header"), &verdict)?;
        Ok((storage, Some(record)))
    }

    fn map_file(
        file: File,
        path: PathBuf,
        header: Header,
        identity: TableIdentity,
        words: usize,
        writable: bool,
    ) -> Result<Self> {
        let layout = Layout::new(words as u64, header.chunk_words);
        let sums = decode_trailer(&store_file::read_trailer(&file, &path, layout)?);
        let len = HEADER_LEN + words * 8;
        let options = {
            let mut options = MmapOptions::new();
            options.len(len);
            options
        };
        // SAFETY: the file is locked for this run (shared for a reader,
        // which maps it privately and so never writes it); its length was
        // checked when it was opened.
        let mut map = if writable {
            unsafe { options.map_mut(&file) }
        } else {
            unsafe { options.map_copy(&file) }
        }
        .map_err(|e| Error::on_file("map", &path, e))?;
        let base = unsafe { map.as_mut_ptr().add(HEADER_LEN) } as *const AtomicU64;
        Ok(WordStorage {
            memory: Memory::File(StoreFile {
                map,
                file,
                path,
                writable,
                chunk_words: header.chunk_words,
                header: Mutex::new(header),
                sums: Mutex::new(sums),
            }),
            base,
            len: words,
            identity,
        })
    }

    fn store_file(&self) -> Option<&StoreFile> {
        match &self.memory {
            Memory::File(store) | Memory::Staged { store, .. } => Some(store),
            Memory::Anonymous { .. } | Memory::Direct(_) => None,
        }
    }

    /// Moves a file-backed table's words into anonymous memory for the rest
    /// of the run; the file gets them back whenever progress is recorded
    /// and when the table is sealed. A solver that reads and writes the
    /// whole table at random for hours is faster so: huge pages, and no
    /// fault each time the kernel's write-back makes a page clean and the
    /// solver writes it again (Fox-and-Geese layer 11 under capture-wins:
    /// 114 s in the mapped file, 51 s staged). The file's own checkpoints
    /// are then only as recent as the last record. A heap table, or one
    /// already staged, is left as it is. Refused up front when the system
    /// has not the memory for it.
    pub fn stage(&mut self) -> Result<()> {
        let Memory::File(store) = &self.memory else {
            return Ok(());
        };
        let needed = self.len as u64 * 8;
        if let Some(available) = available_memory().filter(|&a| needed > a) {
            return Err(Error::OutOfMemory {
                needed,
                available,
                what: format!("the table for {} in memory", self.identity.descriptor),
            });
        }
        let mut work = anonymous_map(self.len, &self.identity)?;
        work[..self.len * 8]
            .par_chunks_mut(STAGE_IO_BYTES)
            .enumerate()
            .try_for_each(|(i, part)| {
                let offset = HEADER_LEN + i * STAGE_IO_BYTES;
                store.file.read_exact_at(part, offset as u64)
            })
            .map_err(|e| Error::on_file("read", &store.path, e))?;
        let placeholder = Memory::Anonymous {
            map: anonymous_map(0, &self.identity)?,
        };
        let Memory::File(store) = std::mem::replace(&mut self.memory, placeholder) else {
            unreachable!("a file-backed table, checked above")
        };
        self.base = work.as_mut_ptr() as *const AtomicU64;
        self.memory = Memory::Staged { work, store };
        Ok(())
    }

    /// The body's bytes, as mapped.
    fn body(&self) -> &[u8] {
        // SAFETY: `base` points at `len` initialised words owned by `memory`.
        unsafe { std::slice::from_raw_parts(self.base as *const u8, self.len * 8) }
    }

    /// The words as little-endian bytes (a table's body), for moving them
    /// to and from a file by positioned I/O.
    pub fn bytes(&self) -> &[u8] {
        self.body()
    }

    /// [`bytes`](Self::bytes), to be overwritten (no other thread can touch
    /// the words meanwhile: the borrow is exclusive).
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as `body`, and `&mut self` excludes every other access.
        unsafe { std::slice::from_raw_parts_mut(self.base as *mut u8, self.len * 8) }
    }

    /// What the checksums say about the body of a file-backed table.
    fn examine(&self, progress: &dyn Progress) -> Result<BodyVerdict> {
        let store = self.store_file().expect("a file-backed table");
        let header = store.header.lock().expect("header").clone();
        self.stored_body(store, &header).examine(progress)
    }

    /// The body as its store file checks it.
    fn stored_body<'a>(&'a self, store: &'a StoreFile, header: &'a Header) -> StoredBody<'a> {
        StoredBody {
            file: &store.file,
            path: &store.path,
            header,
            body: self.body(),
        }
    }

    /// The table's words; empty for a file read and written in pieces.
    pub fn words(&self) -> &[AtomicU64] {
        // SAFETY: `base` points at `len` initialised words owned by `memory`.
        unsafe { std::slice::from_raw_parts(self.base, self.len) }
    }

    /// What the table holds.
    pub fn identity(&self) -> &TableIdentity {
        &self.identity
    }

    /// The file behind the table, if any.
    pub fn path(&self) -> Option<&Path> {
        if let Memory::Direct(file) = &self.memory {
            return Some(file.path());
        }
        self.store_file().map(|store| store.path.as_path())
    }

    /// Gives the whole pages inside `words` back to the system. Afterwards
    /// those words read as zero (heap) or as last written to the file (file
    /// backing, which is flushed first). The caller must not need their
    /// values any more, and no thread may touch them meanwhile. A staged
    /// table keeps its pages (they are the only copy until written back).
    pub fn discard(&self, words: std::ops::Range<usize>) -> Result<()> {
        let page = page_size();
        let offset = match &self.memory {
            Memory::Anonymous { .. } => 0,
            Memory::File(_) => HEADER_LEN,
            Memory::Staged { .. } | Memory::Direct(_) => return Ok(()),
        };
        let start = (offset + words.start * 8).next_multiple_of(page);
        let end = (offset + words.end.min(self.len) * 8) / page * page;
        if start >= end {
            return Ok(());
        }
        let map = match &self.memory {
            Memory::Anonymous { map } => map,
            Memory::File(store) => {
                if store.writable {
                    store
                        .map
                        .flush_range(start, end - start)
                        .map_err(|e| Error::on_file("write", &store.path, e))?;
                }
                &store.map
            }
            Memory::Staged { .. } | Memory::Direct(_) => unreachable!("returned above"),
        };
        // SAFETY: the range lies inside the mapping, and the caller promises
        // that nothing reads or writes those words while the pages go.
        unsafe { map.unchecked_advise_range(UncheckedAdvice::DontNeed, start, end - start) }
            .map_err(|e| {
                Error::io(
                    format!("cannot release table pages of {}", self.identity.descriptor),
                    e,
                )
            })
    }

    /// Sets every word to zero. Anonymous memory gives its pages back
    /// instead of writing zeros, so clearing a sparse table costs nothing.
    pub fn zero_all(&self) -> Result<()> {
        let Memory::Anonymous { .. } = &self.memory else {
            self.words()
                .par_chunks(1 << 14)
                .for_each(|chunk| chunk.iter().for_each(|w| w.store(0, Relaxed)));
            return Ok(());
        };
        let page_words = page_size() / 8;
        let whole = self.len / page_words * page_words;
        self.discard(0..whole)?;
        for word in &self.words()[whole..] {
            word.store(0, Relaxed);
        }
        Ok(())
    }

    /// The file a run may write, if the table has one.
    fn writable_file(&self) -> Option<&StoreFile> {
        self.store_file().filter(|store| store.writable)
    }

    /// Announces in the header, before the run changes the body, that the
    /// body may differ from its checksums. Every run that writes a reopened
    /// or fresh table calls this first; [`seal`](Self::seal) (or dropping
    /// the table) makes them vouch again. A staged table's file changes only
    /// while a record is written, which says so itself: nothing to announce.
    pub fn begin_writing(&self) -> Result<()> {
        let Some(store) = self.writable_file() else {
            return Ok(());
        };
        if let Memory::Staged { .. } = self.memory {
            return Ok(());
        }
        let mut header = store.header.lock().expect("header");
        if header.seal == Seal::Writing {
            return Ok(());
        }
        header.seal = Seal::Writing;
        store_file::write_header(&store.file, &store.path, &header)
    }

    /// Writes the words of a file-backed table through to its file, with
    /// their checksums (a no-op on the heap), so they survive the process.
    /// The progress record stays as it was.
    pub fn flush(&self) -> Result<()> {
        self.commit(None, false)
    }

    /// Records progress: the words and their checksums reach the file, then
    /// the header with `progress`. A heap table has nowhere to record it and
    /// ignores the call.
    pub fn record_progress(&self, progress: &[u8]) -> Result<()> {
        if progress.len() > MAX_PROGRESS_BYTES {
            return Err(Error::Unsupported(format!(
                "a progress record of {} bytes does not fit a table header ({MAX_PROGRESS_BYTES} at most)",
                progress.len()
            )));
        }
        self.commit(Some(progress), false)
    }

    /// Makes the checksums vouch for the body again: the words and their
    /// checksums reach the file, then a header that says so. Whatever state
    /// the body is in, the header's progress record never claims more than
    /// the body holds, so a sealed table is always safe to resume.
    pub fn seal(&self) -> Result<()> {
        if let Some(store) = self.writable_file()
            && store.header.lock().expect("header").seal == Seal::Sealed
            && !matches!(self.memory, Memory::Staged { .. })
        {
            return Ok(());
        }
        self.commit(None, true)
    }

    /// Writes the body, its checksums and a header holding `progress` (the
    /// last one when `None`). Order on disk, each step synced before the
    /// next: the header says "being written" while body bytes change; the
    /// body; the checksum trailer; the header with the trailer's hash. A
    /// stop anywhere leaves either a header whose checksums vouch for the
    /// body as recorded, or one that says the body may differ from them.
    ///
    /// A staged table writes only the chunks whose checksum changed since
    /// the last record, and is sealed afterwards (its file does not change
    /// until the next record). A mapped table's pages are flushed; it stays
    /// "being written" unless `seal`, since the run goes on changing it.
    fn commit(&self, progress: Option<&[u8]>, seal: bool) -> Result<()> {
        if let Memory::Direct(file) = &self.memory {
            return file.record(progress);
        }
        let Some(store) = self.writable_file() else {
            return Ok(());
        };
        let write_error = |e| Error::on_file("write", &store.path, e);
        let mut header = store.header.lock().expect("header");
        let mut recorded = store.sums.lock().expect("sums");
        let staged = matches!(self.memory, Memory::Staged { .. });
        let sums = chunk_checksums(self.body(), store.chunk_words, &|_| {});
        let changed: Vec<usize> = (0..sums.len())
            .filter(|&c| sums[c] != recorded[c])
            .collect();
        if !changed.is_empty() && header.seal == Seal::Sealed {
            header.seal = Seal::Writing;
            store_file::write_header(&store.file, &store.path, &header)?;
        }
        if staged {
            let chunk_bytes = store.chunk_words as usize * 8;
            changed
                .par_iter()
                .try_for_each(|&chunk| {
                    let start = chunk * chunk_bytes;
                    let end = (start + chunk_bytes).min(self.len * 8);
                    store
                        .file
                        .write_all_at(&self.body()[start..end], (HEADER_LEN + start) as u64)
                })
                .and_then(|_| store.file.sync_data())
                .map_err(write_error)?;
        } else {
            store.map.flush().map_err(write_error)?;
        }
        if !changed.is_empty() {
            let trailer = encode_trailer(&sums);
            let layout = Layout::new(self.len as u64, store.chunk_words);
            store
                .file
                .write_all_at(&trailer, layout.body_end())
                .and_then(|_| store.file.sync_data())
                .map_err(write_error)?;
            header.trailer_hash = trailer_hash(&trailer);
            *recorded = sums;
        }
        if let Some(progress) = progress {
            header.progress = progress.to_vec();
        }
        if staged || seal {
            header.seal = Seal::Sealed;
        }
        store_file::write_header(&store.file, &store.path, &header)
    }
}

impl Drop for WordStorage {
    /// A run that stops without sealing (stopped at `--max-depth`, or by an
    /// error) leaves its table sealed as far as it got; if even that fails,
    /// the header still says "being written", which is safe.
    fn drop(&mut self) {
        let _ = self.seal();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;

    fn identity() -> TableIdentity {
        TableIdentity {
            descriptor: "test game n=3; two-bit".into(),
            definition: "moves=1\n".into(),
            bits_per_state: 2,
            states: 1000,
        }
    }

    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bitsolve-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn file_backed_words_survive_reopening_with_their_checkpoint() {
        let dir = scratch_dir("storage");
        let backing = Backing::Directory(dir.clone());
        let open = |identity, fill| WordStorage::open(&backing, identity, 63, fill, 63, &Silent);
        {
            let (storage, previous) = open(identity(), u64::MAX).unwrap();
            assert!(previous.is_none());
            assert!(storage.words().iter().all(|w| w.load(Relaxed) == u64::MAX));
            // A second writer is refused while this one holds the store.
            let busy = open(identity(), u64::MAX).err().unwrap().to_string();
            assert!(busy.contains("another bitsolve run"), "{busy}");
            storage.begin_writing().unwrap();
            storage.words()[5].store(42, Relaxed);
            storage.record_progress(&[7, 8]).unwrap();
        }
        let (storage, previous) = open(identity(), 0).unwrap();
        assert_eq!(previous.unwrap(), vec![7, 8]);
        assert_eq!(storage.words()[5].load(Relaxed), 42);
        assert_eq!(storage.words()[6].load(Relaxed), u64::MAX);
        drop(storage);

        let other = TableIdentity {
            states: 999,
            ..identity()
        };
        let error = open(other, 0).err().unwrap();
        assert!(error.to_string().contains("not 'test game"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_body_is_refused_and_a_read_only_table_is_never_written() {
        let dir = scratch_dir("damage");
        let path = dir.join(file_name_for(&identity().descriptor));
        {
            let (storage, _) = WordStorage::open(
                &Backing::Directory(dir.clone()),
                identity(),
                63,
                0,
                63,
                &Silent,
            )
            .unwrap();
            storage.begin_writing().unwrap();
            storage.words()[3].store(3, Relaxed);
        }
        let reader = || {
            WordStorage::open(
                &Backing::ReadOnly(dir.clone()),
                identity(),
                63,
                0,
                63,
                &Silent,
            )
        };
        let before = fs::read(&path).unwrap();
        {
            let (storage, _) = reader().unwrap();
            assert_eq!(storage.words()[3].load(Relaxed), 3);
            // Private mapping: the change never reaches the file.
            storage.words()[4].store(9, Relaxed);
            // Readers share the store but keep writers out.
            assert!(reader().is_ok());
            assert!(
                WordStorage::open(
                    &Backing::Directory(dir.clone()),
                    identity(),
                    63,
                    0,
                    63,
                    &Silent
                )
                .is_err()
            );
        }
        assert_eq!(fs::read(&path).unwrap(), before);
        let mut damaged = before.clone();
        damaged[HEADER_LEN + 8 * 3] ^= 4;
        fs::write(&path, &damaged).unwrap();
        let error = reader().err().unwrap().to_string();
        assert!(error.contains("damaged chunk"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_staged_table_reaches_its_file_at_records_and_seals_only() {
        let dir = scratch_dir("staged");
        let path = dir.join(file_name_for(&identity().descriptor));
        let backing = Backing::Directory(dir.clone());
        let open = |backing: &Backing| WordStorage::open(backing, identity(), 63, 7, 63, &Silent);
        {
            let (mut storage, _) = open(&backing).unwrap();
            storage.begin_writing().unwrap();
            storage.words()[5].store(42, Relaxed);
            storage.stage().unwrap();
            // The words came along, and stay the run's to change.
            assert_eq!(storage.words()[5].load(Relaxed), 42);
            assert_eq!(storage.words()[62].load(Relaxed), 7);
            storage.words()[6].store(43, Relaxed);
            let body = |bytes: &[u8], word: usize| {
                let at = HEADER_LEN + word * 8;
                u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
            };
            assert_eq!(
                body(&fs::read(&path).unwrap(), 6),
                7,
                "written before a record"
            );
            storage.record_progress(&[1]).unwrap();
            assert_eq!(body(&fs::read(&path).unwrap(), 6), 43);
            storage.words()[7].store(44, Relaxed);
            // Dropping seals: the last words reach the file too.
        }
        let (storage, previous) = open(&backing).unwrap();
        assert_eq!(previous.unwrap(), vec![1]);
        let words: Vec<u64> = storage.words()[5..8]
            .iter()
            .map(|w| w.load(Relaxed))
            .collect();
        assert_eq!(words, [42, 43, 44]);
        drop(storage);

        // A read-only table staged in memory never writes its file.
        let before = fs::read(&path).unwrap();
        {
            let (mut storage, _) = open(&Backing::ReadOnly(dir.clone())).unwrap();
            storage.stage().unwrap();
            assert_eq!(storage.words()[7].load(Relaxed), 44);
            storage.words()[8].store(9, Relaxed);
        }
        assert_eq!(fs::read(&path).unwrap(), before);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Ends a run as a kill would: the file is neither flushed nor sealed
    /// (its lock is released, as the kernel would at exit).
    fn kill(storage: WordStorage) {
        use std::os::unix::io::AsRawFd;
        let fd = storage.store_file().unwrap().file.as_raw_fd();
        // SAFETY: flock on a descriptor the storage owns.
        unsafe { libc::flock(fd, libc::LOCK_UN) };
        std::mem::forget(storage);
    }

    const CHUNK: usize = super::super::checksums::CHUNK_WORDS as usize;

    /// A table of three checksum chunks in its mapped file (not staged, as
    /// a table larger than half the memory is worked on).
    fn open_mapped(dir: &Path) -> (WordStorage, Option<Vec<u8>>) {
        let identity = TableIdentity {
            states: 3 * CHUNK as u64 * 32,
            ..identity()
        };
        WordStorage::mapped(dir, identity, 3 * CHUNK, 0, &Silent, false).unwrap()
    }

    #[test]
    fn a_mapped_table_changed_after_its_record_resumes_only_where_the_checksums_vouch() {
        let dir = scratch_dir("mapped-resume");
        let read = |storage: &WordStorage, word: usize| storage.words()[word].load(Relaxed);
        // Work after the record landed only in a chunk that was untouched at
        // it: that chunk is cleared again and the run resumes from its record.
        let (storage, _) = open_mapped(&dir);
        storage.begin_writing().unwrap();
        storage.words()[5].store(1, Relaxed);
        storage.record_progress(&[1]).unwrap();
        storage.words()[CHUNK + 3].store(2, Relaxed);
        kill(storage);
        let (storage, record) = open_mapped(&dir);
        assert_eq!(record, Some(vec![1]));
        assert_eq!((read(&storage, 5), read(&storage, CHUNK + 3)), (1, 0));

        // Work after the record changed a chunk that held recorded work:
        // nothing tells it from damage, so the table starts afresh.
        storage.begin_writing().unwrap();
        storage.words()[6].store(3, Relaxed);
        kill(storage);
        let (storage, record) = open_mapped(&dir);
        assert_eq!(record, None);
        assert!(storage.words().iter().all(|w| w.load(Relaxed) == 0));
        let header = storage.store_file().unwrap().header.lock().unwrap().clone();
        assert_eq!(
            (header.seal, header.progress.is_empty()),
            (Seal::Sealed, true)
        );
        drop(storage);

        // Damage to an unsealed file is found the same way.
        let (storage, _) = open_mapped(&dir);
        storage.begin_writing().unwrap();
        storage.words()[7].store(4, Relaxed);
        storage.record_progress(&[2]).unwrap();
        kill(storage);
        let path = fs::read_dir(&dir).unwrap().next().unwrap().unwrap().path();
        let mut bytes = fs::read(&path).unwrap();
        bytes[HEADER_LEN + 7 * 8] ^= 0xff;
        fs::write(&path, &bytes).unwrap();
        let (storage, record) = open_mapped(&dir);
        assert_eq!((record, read(&storage, 7)), (None, 0));
        drop(storage);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_staged_table_killed_between_records_reopens_sealed_as_recorded() {
        let dir = scratch_dir("staged-kill");
        let backing = Backing::Directory(dir.clone());
        let open = || WordStorage::open(&backing, identity(), 63, 7, 63, &Silent).unwrap();
        let (storage, _) = open();
        storage.begin_writing().unwrap();
        storage.words()[5].store(1, Relaxed);
        storage.record_progress(&[1]).unwrap();
        storage.words()[6].store(2, Relaxed);
        kill(storage);
        let path = dir.join(file_name_for(&identity().descriptor));
        assert_eq!(fs::read(&path).unwrap()[32], 1, "sealed between records");
        let (storage, record) = open();
        assert_eq!(record, Some(vec![1]));
        let words: Vec<u64> = storage.words()[5..7]
            .iter()
            .map(|w| w.load(Relaxed))
            .collect();
        assert_eq!(words, [1, 7]);
        drop(storage);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Bytes this process has handed to write calls so far.
    fn bytes_written() -> u64 {
        let io = fs::read_to_string("/proc/self/io").unwrap();
        let line = io.lines().find(|l| l.starts_with("wchar:")).unwrap();
        line[6..].trim().parse().unwrap()
    }

    #[test]
    fn a_large_zero_table_is_created_without_writing_its_body() {
        let dir = scratch_dir("sparse");
        let words = 64 << 20; // 512 MiB
        let identity = TableIdentity {
            states: words as u64 * 64,
            bits_per_state: 1,
            ..identity()
        };
        let before = bytes_written();
        let (storage, _) = WordStorage::open(
            &Backing::Directory(dir.clone()),
            identity,
            words,
            0,
            1,
            &Silent,
        )
        .unwrap();
        let written = bytes_written() - before;
        assert!(written < 16 << 20, "{written} bytes written to create it");
        assert_eq!(storage.words()[words - 1].load(Relaxed), 0);
        drop(storage);
        fs::remove_dir_all(&dir).unwrap();
    }
}
