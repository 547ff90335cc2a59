//! Where a table's words live: on the heap, or in a memory-mapped file with a
//! header that lets a later run reopen the table and resume.
//!
//! File layout: a fixed [`HEADER_LEN`]-byte header, then the packed words
//! (little-endian u64). The header holds the table's identity and a
//! progress record whose meaning belongs to the algorithm that wrote it
//! (`crate::search::checkpoint`). It is written with positioned writes to
//! the file, never through the mapping, after the mapping has been flushed:
//! a record on disk therefore never claims work whose bits are not there.

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
/// 2: the progress record became opaque to the table (version 1 had fixed
/// count fields).
pub const FORMAT_VERSION: u32 = 2;
/// Page-aligned, and room for a progress record of a few thousand values.
pub const HEADER_LEN: usize = 64 * 1024;
const DESCRIPTOR_OFFSET: usize = 40;
pub const MAX_DESCRIPTOR_LEN: usize = 256;
const PROGRESS_LEN_OFFSET: usize = DESCRIPTOR_OFFSET + MAX_DESCRIPTOR_LEN;
const PROGRESS_OFFSET: usize = PROGRESS_LEN_OFFSET + 8;
const CHECKSUM_OFFSET: usize = HEADER_LEN - 8;
/// The longest progress record a header holds.
pub const MAX_PROGRESS_BYTES: usize = CHECKSUM_OFFSET - PROGRESS_OFFSET;

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

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn encode_header(identity: &TableIdentity, progress: &[u8]) -> Vec<u8> {
    let mut header = vec![0u8; HEADER_LEN];
    header[0..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    header[12..16].copy_from_slice(&identity.bits_per_state.to_le_bytes());
    header[16..24].copy_from_slice(&identity.states.to_le_bytes());
    let descriptor = identity.descriptor.as_bytes();
    header[36..40].copy_from_slice(&(descriptor.len() as u32).to_le_bytes());
    header[DESCRIPTOR_OFFSET..DESCRIPTOR_OFFSET + descriptor.len()].copy_from_slice(descriptor);
    header[PROGRESS_LEN_OFFSET..PROGRESS_OFFSET]
        .copy_from_slice(&(progress.len() as u64).to_le_bytes());
    header[PROGRESS_OFFSET..PROGRESS_OFFSET + progress.len()].copy_from_slice(progress);
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

/// Parses a header into the table's identity and its progress record;
/// `Err` holds the reason it is not a valid bitsolve header.
pub fn decode_header(header: &[u8]) -> std::result::Result<(TableIdentity, Vec<u8>), String> {
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
    let progress_len = read_u64(header, PROGRESS_LEN_OFFSET) as usize;
    if descriptor_len > MAX_DESCRIPTOR_LEN || progress_len > MAX_PROGRESS_BYTES {
        return Err("header fields out of range".into());
    }
    let descriptor =
        String::from_utf8(header[DESCRIPTOR_OFFSET..DESCRIPTOR_OFFSET + descriptor_len].to_vec())
            .map_err(|_| "descriptor is not UTF-8".to_string())?;
    Ok((
        TableIdentity {
            descriptor,
            bits_per_state: read_u32(header, 12),
            states: read_u64(header, 16),
        },
        header[PROGRESS_OFFSET..PROGRESS_OFFSET + progress_len].to_vec(),
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
    /// existing file for the same identity is reopened and its progress
    /// record returned; otherwise all words start as `fill`. `resident_words` is
    /// how many words the run will hold at once (all of them, unless the
    /// algorithm discards finished parts): memory beyond what the system has
    /// available is refused up front.
    pub fn open(
        backing: &Backing,
        identity: TableIdentity,
        words: usize,
        fill: u64,
        resident_words: usize,
    ) -> Result<(Self, Option<Vec<u8>>)> {
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
    ) -> Result<(Self, Option<Vec<u8>>)> {
        fs::create_dir_all(dir).map_err(|e| {
            Error::io(
                format!("cannot create store directory {}", dir.display()),
                e,
            )
        })?;
        let path = dir.join(file_name_for(&identity.descriptor));
        let file_len = (HEADER_LEN + words * 8) as u64;
        let progress = if path.exists() {
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
        Ok((storage, progress))
    }

    fn check_existing(path: &Path, identity: &TableIdentity, file_len: u64) -> Result<Vec<u8>> {
        let bad = |reason: String| Error::BadStore {
            path: path.to_path_buf(),
            reason,
        };
        let file = File::open(path)
            .map_err(|e| Error::io(format!("cannot open {}", path.display()), e))?;
        let mut header = vec![0u8; HEADER_LEN];
        file.read_exact_at(&mut header, 0)
            .map_err(|_| bad("too short to hold a header".into()))?;
        let (found, progress) = decode_header(&header).map_err(bad)?;
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
        Ok(progress)
    }

    /// Writes header and fill with ordinary writes into a temporary file and
    /// renames it into place: a full disk shows up as an error here, not as a
    /// SIGBUS on a mapped page later, and a crash leaves no half-made table.
    fn create_file(path: &Path, identity: &TableIdentity, words: usize, fill: u64) -> Result<()> {
        let temporary = path.with_extension("bst.tmp");
        let write_error = |e| Error::io(format!("cannot write {}", temporary.display()), e);
        let mut file = File::create(&temporary).map_err(write_error)?;
        file.write_all(&encode_header(identity, &[]))
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
    /// the header with `progress`. A heap table has nowhere to record it and
    /// ignores the call.
    pub fn record_progress(&self, progress: &[u8]) -> Result<()> {
        let Memory::File { map, file, path } = &self.memory else {
            return Ok(());
        };
        if progress.len() > MAX_PROGRESS_BYTES {
            return Err(Error::Unsupported(format!(
                "a progress record of {} bytes does not fit a table header ({MAX_PROGRESS_BYTES} at most)",
                progress.len()
            )));
        }
        let write_error = |e| Error::io(format!("cannot write {}", path.display()), e);
        map.flush().map_err(write_error)?;
        file.write_all_at(&encode_header(&self.identity, progress), 0)
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
        let progress = vec![1, 2, 3, 4, 5];
        let bytes = encode_header(&identity(), &progress);
        assert_eq!(decode_header(&bytes).unwrap(), (identity(), progress));
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
            storage.record_progress(&[7, 8]).unwrap();
        }
        let (storage, previous) = WordStorage::open(&backing, identity(), 63, 0, 63).unwrap();
        assert_eq!(previous.unwrap(), vec![7, 8]);
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
