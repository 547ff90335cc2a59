//! Tables too large to hold whole beside the others a question needs, read
//! a checksum chunk at a time. A question about a capture in Fox-and-Geese
//! under `--geese-forward` reads layers 13 and 12 with their distances,
//! 29 GB in all: read whole, they would not fit a 24 GiB machine, and the
//! process would be killed for memory instead of answering.
//!
//! Opening such a table checks its header and its trailer of checksums
//! (milliseconds, where reading the body would take minutes); each chunk a
//! lookup needs is then read with a positioned read (never mapped: a file
//! cut short under the reader is an error, not a SIGBUS) and checked
//! against its checksum before any cell of it is answered, and the chunks
//! used most recently are kept. A chunk that fails its checksum while the
//! file is as it was opened marks the table damaged: every later lookup is
//! refused with the same line, as a table read whole is refused when any
//! chunk fails. A file that changed since it was opened is refused as
//! changed (the cache opens it again at the next question).

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::os::unix::io::AsRawFd;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::reading::{FileState, Opened, Watched, open_sealed, read_two_bit, unchanged_since};
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::table::TwoBitTable;
use crate::table::checksums::{chunk_checksums, chunk_words_range};
use crate::table::header::{HEADER_LEN, Header, TableIdentity};
use crate::table::store_file::{BodyVerdict, require_intact};
use crate::table::two_bit::CELLS_PER_WORD;

/// The most chunks (of 1 MiB in the tables `retro` writes) a paged table
/// keeps in memory: lookups near one another (a position's moves) mostly
/// fall in a few chunks. Fewer where the cache's limit is small.
const MOST_CHUNKS_KEPT: u64 = 32;

/// One table file's two-bit cells: read whole into memory, or paged when
/// it is too large to hold beside the other tables a question reads.
pub(super) enum Cells {
    Read(TwoBitTable),
    Paged(PagedWords),
}

impl Cells {
    /// The two-bit table `identity` at `path`: read whole and checked
    /// (shown on `progress`), or paged when its body is larger than
    /// `paged_above` bytes, keeping that many bytes of its chunks at most.
    pub fn open(
        path: &Path,
        identity: TableIdentity,
        paged_above: u64,
        progress: &dyn Progress,
    ) -> Result<(Cells, Header, Watched)> {
        let words = identity.states.div_ceil(CELLS_PER_WORD);
        if words.saturating_mul(8) > paged_above {
            let (paged, header) = PagedWords::open(path, &identity, words, paged_above)?;
            let watched = paged.watched().clone();
            return Ok((Cells::Paged(paged), header, watched));
        }
        let (table, header, watched) = read_two_bit(path, identity, progress)?;
        Ok((Cells::Read(table), header, watched))
    }

    /// Cells in the table.
    pub fn len(&self) -> u64 {
        match self {
            Cells::Read(table) => table.len(),
            Cells::Paged(words) => words.cells(),
        }
    }

    /// The cell at `rank` (below [`len`](Self::len)).
    pub fn get(&self, rank: u64) -> Result<u8> {
        match self {
            Cells::Read(table) => Ok(table.get(rank)),
            Cells::Paged(words) => {
                let word = words.word(rank / CELLS_PER_WORD)?;
                Ok(((word >> (2 * (rank % CELLS_PER_WORD))) & 3) as u8)
            }
        }
    }

    /// The memory it takes (a paged table's: its kept chunks at most).
    pub fn bytes(&self) -> u64 {
        match self {
            Cells::Read(table) => 8 * table.words().len() as u64,
            Cells::Paged(words) => words.bytes(),
        }
    }

    /// Its paged reader, if it pages the file at `path`.
    pub fn paged(&self, path: &Path) -> Option<&PagedWords> {
        match self {
            Cells::Paged(words) if words.watched().path == path => Some(words),
            _ => None,
        }
    }
}

/// The words of a sealed table, read a checked chunk at a time.
pub(super) struct PagedWords {
    file: File,
    /// The file as it was opened: a checksum that fails on a file that
    /// changed since is a change, not damage.
    watched: Watched,
    header: Header,
    words: u64,
    expected: Vec<u64>,
    /// How many chunks it keeps (at least one).
    chunks_kept: usize,
    kept: Mutex<Kept>,
}

/// The chunks read and checked, by index, with the tick of their last
/// use; and the damage found, once found.
#[derive(Default)]
struct Kept {
    chunks: HashMap<u64, (Arc<[u64]>, u64)>,
    clock: u64,
    damage: Option<String>,
}

impl PagedWords {
    /// Opens the sealed table `wanted` at `path` (its body `words` long),
    /// to keep at most `budget` bytes of its chunks (one chunk at least):
    /// the header and the trailer are checked now, the body chunk by chunk
    /// as lookups reach it. Its shared lock is given up once it is open,
    /// as a table read whole gives it up when read: a run may write the
    /// store again while a server reads it (and the server sees the change).
    pub fn open(
        path: &Path,
        wanted: &TableIdentity,
        words: u64,
        budget: u64,
    ) -> Result<(PagedWords, Header)> {
        let before = FileState::of(path);
        let Opened {
            file,
            header,
            expected,
            ..
        } = open_sealed(path, wanted, words)?;
        // SAFETY: flock on a file descriptor we own; unlocking cannot fail
        // in a way that matters (the lock goes with the descriptor anyway).
        unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_UN) };
        let watched = unchanged_since(path, &file, before, "opened")?;
        let chunk_bytes = header.chunk_words.saturating_mul(8).max(1);
        let chunks_kept = (budget / chunk_bytes).clamp(1, MOST_CHUNKS_KEPT) as usize;
        let paged = PagedWords {
            chunks_kept,
            file,
            watched,
            header: header.clone(),
            words,
            expected,
            kept: Mutex::new(Kept::default()),
        };
        Ok((paged, header))
    }

    /// The file as it was opened.
    pub fn watched(&self) -> &Watched {
        &self.watched
    }

    /// Two-bit cells its words hold.
    pub fn cells(&self) -> u64 {
        self.header.identity.states
    }

    /// The most memory its kept chunks take.
    pub fn bytes(&self) -> u64 {
        (self.chunks_kept as u64 * self.header.chunk_words).min(self.words) * 8
    }

    /// Why the table is refused, once a chunk of it failed its checksum.
    pub fn damage(&self) -> Option<String> {
        self.lock().damage.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Word `index` of the body, from its chunk read and checked.
    pub fn word(&self, index: u64) -> Result<u64> {
        if index >= self.words {
            return Err(self.refusal(format!(
                "holds {} words, and word {index} was asked for",
                self.words
            )));
        }
        let chunk_words = self.header.chunk_words;
        let chunk = index / chunk_words;
        {
            let mut kept = self.lock();
            if let Some(reason) = &kept.damage {
                return Err(self.refusal(reason.clone()));
            }
            kept.clock += 1;
            let tick = kept.clock;
            if let Some((words, last_use)) = kept.chunks.get_mut(&chunk) {
                *last_use = tick;
                return Ok(words[(index % chunk_words) as usize]);
            }
        }
        // Read without the lock: other threads' lookups in kept chunks go on.
        let words = self.read_chunk(chunk)?;
        let word = words[(index % chunk_words) as usize];
        let mut kept = self.lock();
        if kept.chunks.len() >= self.chunks_kept {
            let oldest = kept
                .chunks
                .iter()
                .min_by_key(|(_, (_, last_use))| *last_use)
                .map(|(&index, _)| index);
            if let Some(oldest) = oldest {
                kept.chunks.remove(&oldest);
            }
        }
        let tick = kept.clock;
        kept.chunks.insert(chunk, (words, tick));
        Ok(word)
    }

    /// Reads chunk `chunk` and checks it against its checksum.
    fn read_chunk(&self, chunk: u64) -> Result<Arc<[u64]>> {
        let path = &self.watched.path;
        let range = chunk_words_range(chunk, self.words, self.header.chunk_words);
        let mut bytes = vec![0u8; ((range.end - range.start) * 8) as usize];
        let offset = HEADER_LEN as u64 + range.start * 8;
        if let Err(error) = self.file.read_exact_at(&mut bytes, offset) {
            return Err(self
                .changed()
                .unwrap_or_else(|| Error::on_file("read", path, error)));
        }
        let sum = chunk_checksums(&bytes, self.header.chunk_words, &|_| {});
        if sum.first() != self.expected.get(chunk as usize) {
            if let Some(changed) = self.changed() {
                return Err(changed);
            }
            let verdict = BodyVerdict::Damaged(vec![chunk]);
            let error = require_intact(path, &self.header, &verdict)
                .expect_err("a damaged body is refused");
            if let Error::BadStore { reason, .. } = &error {
                self.lock().damage = Some(reason.clone());
            }
            return Err(error);
        }
        Ok(bytes
            .chunks_exact(8)
            .map(|eight| u64::from_le_bytes(eight.try_into().expect("eight bytes")))
            .collect())
    }

    /// The error for a file that changed since it was opened, if it did.
    fn changed(&self) -> Option<Error> {
        let how = self.watched.change()?;
        Some(Error::BadStore {
            path: self.watched.path.clone(),
            reason: format!("changed on disk since it was opened ({how}); ask again"),
        })
    }

    fn refusal(&self, reason: String) -> Error {
        Error::BadStore {
            path: self.watched.path.clone(),
            reason,
        }
    }
}
