//! Where a table's words live: on the heap, or in a memory-mapped file with a
//! header that lets a later run reopen the table and resume.
//!
//! File layout: a fixed [`HEADER_LEN`]-byte header, then the packed words
//! (little-endian u64). The header is written with positioned writes to the
//! file, never through the mapping, after the mapping has been flushed: a
//! checkpoint on disk therefore never claims work whose bits are not there.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use memmap2::{MmapMut, UncheckedAdvice};
use rayon::prelude::*;

use crate::error::{Error, Result};

pub const MAGIC: &[u8; 8] = b"BITSOLVE";
pub const FORMAT_VERSION: u32 = 1;
/// Page-aligned, and room for [`MAX_CHECKPOINT_COUNTS`] per-layer counts.
pub const HEADER_LEN: usize = 64 * 1024;
const DESCRIPTOR_OFFSET: usize = 40;
pub const MAX_DESCRIPTOR_LEN: usize = 256;
const GOALS_LEN_OFFSET: usize = DESCRIPTOR_OFFSET + MAX_DESCRIPTOR_LEN;
const GOALS_OFFSET: usize = GOALS_LEN_OFFSET + 8;
pub const MAX_GOALS: usize = 16;
const COUNTS_LEN_OFFSET: usize = GOALS_OFFSET + 8 * MAX_GOALS;
const REPRESENTATIVES_LEN_OFFSET: usize = COUNTS_LEN_OFFSET + 8;
const COUNTS_OFFSET: usize = REPRESENTATIVES_LEN_OFFSET + 8;
const CHECKSUM_OFFSET: usize = HEADER_LEN - 8;
/// Room for this many counts in each of the two count arrays.
pub const MAX_CHECKPOINT_COUNTS: usize = (CHECKSUM_OFFSET - COUNTS_OFFSET) / 16;
const REPRESENTATIVES_OFFSET: usize = COUNTS_OFFSET + 8 * MAX_CHECKPOINT_COUNTS;

/// Where to keep a table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Backing {
    #[default]
    Heap,
    /// A memory-mapped file in this directory (created if missing).
    Directory(PathBuf),
}

/// What a table file says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableIdentity {
    /// The game, its parameters and the algorithm, e.g. "pancake n=12; two-bit BFS".
    pub descriptor: String,
    pub bits_per_state: u32,
    pub states: u64,
}

/// Progress recorded in a file header: how far the run got and the per-layer
/// (or per-scan) numbers it had produced by then.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checkpoint {
    /// Last completed layer (or scan); `None` before the first.
    pub last_completed: Option<u64>,
    pub counts: Vec<u64>,
    /// Stored representatives per layer, for symmetry-reduced spaces.
    pub representatives: Vec<u64>,
    /// Layer at which each goal position was reached, if it was.
    pub goal_distances: Vec<Option<u64>>,
    pub complete: bool,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn encode_header(identity: &TableIdentity, checkpoint: &Checkpoint) -> Vec<u8> {
    let mut header = vec![0u8; HEADER_LEN];
    header[0..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    header[12..16].copy_from_slice(&identity.bits_per_state.to_le_bytes());
    header[16..24].copy_from_slice(&identity.states.to_le_bytes());
    let last = checkpoint.last_completed.unwrap_or(u64::MAX);
    header[24..32].copy_from_slice(&last.to_le_bytes());
    header[32..36].copy_from_slice(&(checkpoint.complete as u32).to_le_bytes());
    let descriptor = identity.descriptor.as_bytes();
    header[36..40].copy_from_slice(&(descriptor.len() as u32).to_le_bytes());
    header[DESCRIPTOR_OFFSET..DESCRIPTOR_OFFSET + descriptor.len()].copy_from_slice(descriptor);
    let mut put = |at: usize, value: u64| header[at..at + 8].copy_from_slice(&value.to_le_bytes());
    put(GOALS_LEN_OFFSET, checkpoint.goal_distances.len() as u64);
    for (i, distance) in checkpoint.goal_distances.iter().enumerate() {
        put(GOALS_OFFSET + 8 * i, distance.unwrap_or(u64::MAX));
    }
    put(COUNTS_LEN_OFFSET, checkpoint.counts.len() as u64);
    for (i, &count) in checkpoint.counts.iter().enumerate() {
        put(COUNTS_OFFSET + 8 * i, count);
    }
    put(
        REPRESENTATIVES_LEN_OFFSET,
        checkpoint.representatives.len() as u64,
    );
    for (i, &count) in checkpoint.representatives.iter().enumerate() {
        put(REPRESENTATIVES_OFFSET + 8 * i, count);
    }
    let checksum = fnv1a(&header[..CHECKSUM_OFFSET]);
    header[CHECKSUM_OFFSET..].copy_from_slice(&checksum.to_le_bytes());
    header
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn read_u64(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

/// Parses a header; `Err` holds the reason it is not a valid bitsolve header.
pub fn decode_header(header: &[u8]) -> std::result::Result<(TableIdentity, Checkpoint), String> {
    if header.len() < HEADER_LEN || &header[0..8] != MAGIC {
        return Err("not a bitsolve table (bad magic)".into());
    }
    let version = read_u32(header, 8);
    if version != FORMAT_VERSION {
        return Err(format!(
            "format version {version}, this build reads {FORMAT_VERSION}"
        ));
    }
    if read_u64(header, CHECKSUM_OFFSET) != fnv1a(&header[..CHECKSUM_OFFSET]) {
        return Err("header checksum mismatch".into());
    }
    let descriptor_len = read_u32(header, 36) as usize;
    let goals_len = read_u64(header, GOALS_LEN_OFFSET) as usize;
    let counts_len = read_u64(header, COUNTS_LEN_OFFSET) as usize;
    let representatives_len = read_u64(header, REPRESENTATIVES_LEN_OFFSET) as usize;
    if descriptor_len > MAX_DESCRIPTOR_LEN
        || goals_len > MAX_GOALS
        || counts_len > MAX_CHECKPOINT_COUNTS
        || representatives_len > MAX_CHECKPOINT_COUNTS
    {
        return Err("header fields out of range".into());
    }
    let descriptor =
        String::from_utf8(header[DESCRIPTOR_OFFSET..DESCRIPTOR_OFFSET + descriptor_len].to_vec())
            .map_err(|_| "descriptor is not UTF-8".to_string())?;
    let last = read_u64(header, 24);
    Ok((
        TableIdentity {
            descriptor,
            bits_per_state: read_u32(header, 12),
            states: read_u64(header, 16),
        },
        Checkpoint {
            last_completed: (last != u64::MAX).then_some(last),
            counts: (0..counts_len)
                .map(|i| read_u64(header, COUNTS_OFFSET + 8 * i))
                .collect(),
            representatives: (0..representatives_len)
                .map(|i| read_u64(header, REPRESENTATIVES_OFFSET + 8 * i))
                .collect(),
            goal_distances: (0..goals_len)
                .map(|i| Some(read_u64(header, GOALS_OFFSET + 8 * i)).filter(|&d| d != u64::MAX))
                .collect(),
            complete: read_u32(header, 32) != 0,
        },
    ))
}

/// Bytes of memory the kernel reports as available, if it says.
pub fn available_memory() -> Option<u64> {
    let info = fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if size > 0 { size as usize } else { 4096 }
}

/// A file name made of the descriptor's letters and digits.
pub fn file_name_for(descriptor: &str) -> String {
    let mut name = String::new();
    for c in descriptor.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.ends_with('-') {
            name.push('-');
        }
    }
    format!("{}.bst", name.trim_end_matches('-'))
}

enum Memory {
    /// Anonymous memory: pages the table never touches cost nothing, and
    /// discarded pages go back to the system.
    Anonymous { map: MmapMut },
    File {
        map: MmapMut,
        file: File,
        path: PathBuf,
    },
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
    /// existing file for the same identity is reopened and its checkpoint
    /// returned; otherwise all words start as `fill`. `resident_words` is
    /// how many words the run will hold at once (all of them, unless the
    /// algorithm discards finished parts): memory beyond what the system has
    /// available is refused up front.
    pub fn open(
        backing: &Backing,
        identity: TableIdentity,
        words: usize,
        fill: u64,
        resident_words: usize,
    ) -> Result<(Self, Option<Checkpoint>)> {
        if identity.descriptor.len() > MAX_DESCRIPTOR_LEN {
            return Err(Error::InvalidParameter(format!(
                "table descriptor longer than {MAX_DESCRIPTOR_LEN} bytes"
            )));
        }
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
            Backing::Directory(dir) => Self::mapped(dir, identity, words, fill),
        }
    }

    fn anonymous(identity: TableIdentity, words: usize, fill: u64) -> Result<Self> {
        let bytes = (words * 8).max(1);
        let mut map = MmapMut::map_anon(bytes).map_err(|_| Error::OutOfMemory {
            needed: bytes as u64,
            available: available_memory().unwrap_or(0),
            what: format!("the table for {}", identity.descriptor),
        })?;
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
    ) -> Result<(Self, Option<Checkpoint>)> {
        fs::create_dir_all(dir).map_err(|e| {
            Error::io(
                format!("cannot create store directory {}", dir.display()),
                e,
            )
        })?;
        let path = dir.join(file_name_for(&identity.descriptor));
        let file_len = (HEADER_LEN + words * 8) as u64;
        let checkpoint = if path.exists() {
            Some(Self::check_existing(&path, &identity, file_len)?)
        } else {
            Self::create_file(&path, &identity, words, fill)?;
            None
        };
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(format!("cannot open {}", path.display()), e))?;
        // SAFETY: the file is ours for the run; the length was checked above.
        let mut map = unsafe { MmapMut::map_mut(&file) }
            .map_err(|e| Error::io(format!("cannot map {}", path.display()), e))?;
        let base = unsafe { map.as_mut_ptr().add(HEADER_LEN) } as *const AtomicU64;
        let storage = WordStorage {
            memory: Memory::File { map, file, path },
            base,
            len: words,
            identity,
        };
        Ok((storage, checkpoint))
    }

    fn check_existing(path: &Path, identity: &TableIdentity, file_len: u64) -> Result<Checkpoint> {
        let bad = |reason: String| Error::BadStore {
            path: path.to_path_buf(),
            reason,
        };
        let file = File::open(path)
            .map_err(|e| Error::io(format!("cannot open {}", path.display()), e))?;
        let mut header = vec![0u8; HEADER_LEN];
        file.read_exact_at(&mut header, 0)
            .map_err(|_| bad("too short to hold a header".into()))?;
        let (found, checkpoint) = decode_header(&header).map_err(bad)?;
        if &found != identity {
            return Err(bad(format!(
                "holds '{}' ({} bits x {} states), not '{}' ({} bits x {} states)",
                found.descriptor,
                found.bits_per_state,
                found.states,
                identity.descriptor,
                identity.bits_per_state,
                identity.states
            )));
        }
        let len = file
            .metadata()
            .map_err(|e| Error::io(format!("cannot stat {}", path.display()), e))?
            .len();
        if len != file_len {
            return Err(bad(format!("is {len} bytes, expected {file_len}")));
        }
        Ok(checkpoint)
    }

    /// Writes header and fill with ordinary writes into a temporary file and
    /// renames it into place: a full disk shows up as an error here, not as a
    /// SIGBUS on a mapped page later, and a crash leaves no half-made table.
    fn create_file(path: &Path, identity: &TableIdentity, words: usize, fill: u64) -> Result<()> {
        let temporary = path.with_extension("bst.tmp");
        let write_error = |e| Error::io(format!("cannot write {}", temporary.display()), e);
        let mut file = File::create(&temporary).map_err(write_error)?;
        file.write_all(&encode_header(identity, &Checkpoint::default()))
            .map_err(write_error)?;
        let chunk_words = 1 << 17;
        let chunk: Vec<u8> = fill.to_le_bytes().repeat(chunk_words);
        let mut left = words;
        while left > 0 {
            let now = left.min(chunk_words);
            file.write_all(&chunk[..now * 8]).map_err(write_error)?;
            left -= now;
        }
        file.sync_all().map_err(write_error)?;
        fs::rename(&temporary, path)
            .map_err(|e| Error::io(format!("cannot rename to {}", path.display()), e))
    }

    pub fn words(&self) -> &[AtomicU64] {
        // SAFETY: `base` points at `len` initialised words owned by `memory`.
        unsafe { std::slice::from_raw_parts(self.base, self.len) }
    }

    pub fn identity(&self) -> &TableIdentity {
        &self.identity
    }

    /// The file behind the table, if any.
    pub fn path(&self) -> Option<&Path> {
        match &self.memory {
            Memory::Anonymous { .. } => None,
            Memory::File { path, .. } => Some(path),
        }
    }

    /// Gives the whole pages inside `words` back to the system. Afterwards
    /// those words read as zero (heap) or as last written to the file (file
    /// backing, which is flushed first). The caller must not need their
    /// values any more, and no thread may touch them meanwhile.
    pub fn discard(&self, words: std::ops::Range<usize>) -> Result<()> {
        let page = page_size();
        let offset = match &self.memory {
            Memory::Anonymous { .. } => 0,
            Memory::File { .. } => HEADER_LEN,
        };
        let start = (offset + words.start * 8).next_multiple_of(page);
        let end = (offset + words.end.min(self.len) * 8) / page * page;
        if start >= end {
            return Ok(());
        }
        let (map, path) = match &self.memory {
            Memory::Anonymous { map } => (map, None),
            Memory::File { map, path, .. } => (map, Some(path)),
        };
        let failed = |e| {
            Error::io(
                format!("cannot release table pages of {}", self.identity.descriptor),
                e,
            )
        };
        if let Some(path) = path {
            map.flush_range(start, end - start)
                .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))?;
        }
        // SAFETY: the range lies inside the mapping, and the caller promises
        // that nothing reads or writes those words while the pages go.
        unsafe { map.unchecked_advise_range(UncheckedAdvice::DontNeed, start, end - start) }
            .map_err(failed)
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

    /// Records progress: flushes the words to the file, then writes and syncs
    /// the header. A heap table has nowhere to record it and ignores the call.
    pub fn checkpoint(&self, checkpoint: &Checkpoint) -> Result<()> {
        let Memory::File { map, file, path } = &self.memory else {
            return Ok(());
        };
        if checkpoint.counts.len() > MAX_CHECKPOINT_COUNTS
            || checkpoint.representatives.len() > MAX_CHECKPOINT_COUNTS
        {
            return Err(Error::Unsupported(format!(
                "more than {MAX_CHECKPOINT_COUNTS} layers cannot be recorded in a table header"
            )));
        }
        if checkpoint.goal_distances.len() > MAX_GOALS {
            return Err(Error::Unsupported(format!(
                "more than {MAX_GOALS} goal positions cannot be recorded in a table header"
            )));
        }
        let write_error = |e| Error::io(format!("cannot write {}", path.display()), e);
        map.flush().map_err(write_error)?;
        file.write_all_at(&encode_header(&self.identity, checkpoint), 0)
            .map_err(write_error)?;
        file.sync_data().map_err(write_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity() -> TableIdentity {
        TableIdentity {
            descriptor: "test game n=3; two-bit".into(),
            bits_per_state: 2,
            states: 1000,
        }
    }

    #[test]
    fn header_round_trips() {
        let checkpoint = Checkpoint {
            last_completed: Some(4),
            counts: vec![1, 2, 3, 4, 5],
            representatives: vec![1, 1, 2],
            goal_distances: vec![None, Some(3)],
            complete: true,
        };
        let bytes = encode_header(&identity(), &checkpoint);
        assert_eq!(decode_header(&bytes).unwrap(), (identity(), checkpoint));
        let mut damaged = bytes.clone();
        damaged[20] ^= 1;
        assert!(decode_header(&damaged).unwrap_err().contains("checksum"));
    }

    #[test]
    fn file_backed_words_survive_reopening_with_their_checkpoint() {
        let dir = std::env::temp_dir().join(format!("bitsolve-storage-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let backing = Backing::Directory(dir.clone());
        {
            let (storage, previous) =
                WordStorage::open(&backing, identity(), 63, u64::MAX, 63).unwrap();
            assert!(previous.is_none());
            assert!(storage.words().iter().all(|w| w.load(Relaxed) == u64::MAX));
            storage.words()[5].store(42, Relaxed);
            let checkpoint = Checkpoint {
                last_completed: Some(0),
                counts: vec![1],
                ..Default::default()
            };
            storage.checkpoint(&checkpoint).unwrap();
        }
        let (storage, previous) = WordStorage::open(&backing, identity(), 63, 0, 63).unwrap();
        assert_eq!(previous.unwrap().counts, vec![1]);
        assert_eq!(storage.words()[5].load(Relaxed), 42);
        assert_eq!(storage.words()[6].load(Relaxed), u64::MAX);
        drop(storage);

        let other = TableIdentity {
            states: 999,
            ..identity()
        };
        let error = WordStorage::open(&backing, other, 63, 0, 63).err().unwrap();
        assert!(error.to_string().contains("not 'test game"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn file_names_are_tame() {
        assert_eq!(
            file_name_for("pancake n=12; two-bit BFS"),
            "pancake-n-12-two-bit-bfs.bst"
        );
    }
}
