//! A table file read and written in pieces by positioned I/O, never mapped
//! whole: the table of two-bit BFS's disk mode (`crate::backend::disk`),
//! which keeps only a budget of it in memory. The file is an ordinary store
//! file (same header, body and checksum trailer), so a run started in
//! memory resumes on disk and the other way round, and `verify` reads it.
//!
//! Unlike a mapped table, whose body changes between records and so cannot
//! be vouched for after a kill, this file's checksums vouch for its body at
//! every moment: each write goes through a redo journal beside the table.
//! The changed checksum chunks are first written to the journal (with a
//! hash over it), then in place, then their checksums to the trailer and
//! the trailer's hash to the header; the journal goes last. A kill before
//! the journal is whole leaves the body untouched (the torn journal is
//! dropped); a kill after it is replayed when the table is reopened. The
//! header therefore stays sealed, and a resume never accepts bytes that
//! nothing vouches for.

use std::fs::{self, File};
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

use super::checksums::{decode_trailer, encode_trailer, trailer_hash, uniform_checksums};
use super::header::{HEADER_LEN, Header, Seal, TableIdentity};
use super::store_file::{self, BodyVerdict, Layout};
use crate::error::{Error, Result};
use crate::progress::Progress;

const JOURNAL_MAGIC: &[u8; 8] = b"bsjrnl01";

/// Bytes per positioned read when the body is checked or filled.
const IO_PIECE: usize = 16 << 20;

/// A table file read and written in pieces by positioned I/O, each write
/// made safe by the redo journal beside it.
pub struct DirectFile {
    file: File,
    path: PathBuf,
    journal: PathBuf,
    /// Words of the body.
    words: u64,
    chunk_words: u64,
    /// The header as last written, and the checksums the trailer on disk
    /// holds; locked in this order.
    header: Mutex<Header>,
    sums: Mutex<Vec<u64>>,
}

impl DirectFile {
    /// Opens the table `identity` names in `dir`, creating it with every
    /// word `fill` if missing. A reopened table first replays a journal a
    /// killed run left, then has its body checked against its checksums;
    /// returns the progress record to resume from (`None`: from the start).
    pub fn open(
        dir: &Path,
        identity: &TableIdentity,
        words: u64,
        fill: u64,
        progress: &dyn Progress,
    ) -> Result<(Self, Option<Vec<u8>>)> {
        let path = store_file::table_path(dir, identity)?;
        if !store_file::table_exists(&path)?
            && let Some(file) = store_file::create(&path, identity, words, fill, progress)?
        {
            let header = store_file::read_header(&file, &path)?;
            return Ok((Self::new(file, path, header, words)?, None));
        }
        let (file, header) = store_file::open_existing(&path, identity, words, true)?;
        let record = header.progress.clone();
        let table = Self::new(file, path, header, words)?;
        table.replay_journal(progress)?;
        let name = table.path.display().to_string();
        let unsealed = table.header.lock().expect("header").seal == Seal::Writing;
        match table.check_body(progress)? {
            BodyVerdict::Intact => {
                if unsealed {
                    progress.note(&format!(
                        "{name}: its last run stopped while writing it; the body matches the checksums of its last checkpoint, which it resumes from"
                    ));
                    table.write_header(|header| header.seal = Seal::Sealed)?;
                }
                Ok((table, Some(record)))
            }
            verdict if unsealed => {
                // A mapped run (in memory) stopped between its records:
                // nothing vouches for its body.
                let _ = verdict;
                progress.note(&format!(
                    "{name}: its last run stopped while writing it, and its body differs from the checksums of its last checkpoint: nothing vouches for it, so the table starts afresh"
                ));
                table.fill_afresh(fill, progress)?;
                Ok((table, None))
            }
            verdict => {
                let header = table.header.lock().expect("header").clone();
                store_file::require_intact(&table.path, &header, &verdict)?;
                unreachable!("require_intact refuses every verdict but an intact one")
            }
        }
    }

    fn new(file: File, path: PathBuf, header: Header, words: u64) -> Result<Self> {
        let layout = Layout::new(words, header.chunk_words);
        let sums = decode_trailer(&store_file::read_trailer(&file, &path, layout)?);
        let mut journal = path.clone().into_os_string();
        journal.push(".journal");
        Ok(DirectFile {
            file,
            journal: PathBuf::from(journal),
            path,
            words,
            chunk_words: header.chunk_words,
            header: Mutex::new(header),
            sums: Mutex::new(sums),
        })
    }

    /// The table file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Words of the body.
    pub fn words(&self) -> u64 {
        self.words
    }

    fn io_error(&self, what: &str, error: std::io::Error) -> Error {
        Error::on_file(what, &self.path, error)
    }

    /// Reads the words from `first_word` on into `out` (whole words).
    pub fn read(&self, first_word: u64, out: &mut [u8]) -> Result<()> {
        debug_assert!(
            out.len().is_multiple_of(8) && first_word + out.len() as u64 / 8 <= self.words
        );
        out.par_chunks_mut(IO_PIECE)
            .enumerate()
            .try_for_each(|(i, piece)| {
                let offset = HEADER_LEN as u64 + first_word * 8 + (i * IO_PIECE) as u64;
                self.file.read_exact_at(piece, offset)
            })
            .map_err(|e| self.io_error("read", e))
    }

    /// Writes `bytes` (whole words) at `first_word`, through the journal,
    /// with the checksums of every chunk they change. Returns the bytes
    /// that reached the disk (journal and body), 0 when nothing changed.
    pub fn write(&self, first_word: u64, bytes: &[u8]) -> Result<u64> {
        let words = bytes.len() as u64 / 8;
        debug_assert!(bytes.len().is_multiple_of(8) && first_word + words <= self.words);
        if words == 0 {
            return Ok(0);
        }
        let first_chunk = first_word / self.chunk_words;
        let last_chunk = (first_word + words - 1) / self.chunk_words;
        // Each touched checksum chunk whole: the new bytes where given, the
        // file's elsewhere (a write that does not start or end on a chunk
        // boundary).
        let span_start = first_chunk * self.chunk_words;
        let span_end = ((last_chunk + 1) * self.chunk_words).min(self.words);
        let span: std::borrow::Cow<[u8]> =
            if span_start == first_word && span_end == first_word + words {
                // Whole chunks (a window of a large table): no copy, which
                // would cost as much memory as the window again.
                std::borrow::Cow::Borrowed(bytes)
            } else {
                let mut span = vec![0u8; ((span_end - span_start) * 8) as usize];
                let head = ((first_word - span_start) * 8) as usize;
                let tail = head + bytes.len();
                if head > 0 {
                    self.read(span_start, &mut span[..head])?;
                }
                if tail < span.len() {
                    self.read(first_word + words, &mut span[tail..])?;
                }
                span[head..tail].copy_from_slice(bytes);
                std::borrow::Cow::Owned(span)
            };
        let chunk_bytes = self.chunk_words as usize * 8;
        let new_sums: Vec<u64> = span.par_chunks(chunk_bytes).map(xxh3_64).collect();
        let changed: Vec<usize> = {
            let sums = self.sums.lock().expect("sums");
            (0..new_sums.len())
                .filter(|&i| new_sums[i] != sums[first_chunk as usize + i])
                .collect()
        };
        let (Some(&lo), Some(&hi)) = (changed.first(), changed.last()) else {
            return Ok(0);
        };
        let from = lo * chunk_bytes;
        let to = ((hi + 1) * chunk_bytes).min(span.len());
        let entry = JournalEntry {
            first_word: span_start + (from / 8) as u64,
            bytes: &span[from..to],
        };
        self.write_journal(&entry)?;
        self.apply(&entry)?;
        fs::remove_file(&self.journal).map_err(|e| self.io_error("remove the journal of", e))?;
        Ok(2 * entry.bytes.len() as u64)
    }

    /// Puts a journal entry's bytes in place, then their checksums in the
    /// trailer and the trailer's hash in the header, and syncs the file
    /// once: the journal, already on disk, covers all three until then, so
    /// their order on disk does not matter.
    fn apply(&self, entry: &JournalEntry) -> Result<()> {
        debug_assert!(entry.first_word.is_multiple_of(self.chunk_words));
        let offset = HEADER_LEN as u64 + entry.first_word * 8;
        self.file
            .write_all_at(entry.bytes, offset)
            .map_err(|e| self.io_error("write", e))?;
        let chunk_bytes = self.chunk_words as usize * 8;
        let first_chunk = (entry.first_word / self.chunk_words) as usize;
        let trailer = {
            let mut sums = self.sums.lock().expect("sums");
            for (i, piece) in entry.bytes.chunks(chunk_bytes).enumerate() {
                sums[first_chunk + i] = xxh3_64(piece);
            }
            encode_trailer(&sums)
        };
        let layout = Layout::new(self.words, self.chunk_words);
        self.file
            .write_all_at(&trailer, layout.body_end())
            .map_err(|e| self.io_error("write", e))?;
        self.write_header(|header| {
            header.trailer_hash = trailer_hash(&trailer);
            header.seal = Seal::Sealed;
        })
    }

    /// Journal layout: magic, first word, byte count, the bytes, and the
    /// xxh3 of all before it (written in place, without a copy of the
    /// bytes).
    fn write_journal(&self, entry: &JournalEntry) -> Result<()> {
        let mut head = Vec::with_capacity(24);
        head.extend_from_slice(JOURNAL_MAGIC);
        head.extend_from_slice(&entry.first_word.to_le_bytes());
        head.extend_from_slice(&(entry.bytes.len() as u64).to_le_bytes());
        let mut hash = Xxh3::new();
        hash.update(&head);
        hash.update(entry.bytes);
        let tail = hash.digest().to_le_bytes();
        // Created anew, never through a link planted at its name.
        let file = store_file::create_new_file(&self.journal)?;
        // The journal's name too must be on disk before any byte changes in
        // place (its directory synced), or a power cut could leave changed
        // bytes and no journal.
        let directory = self.journal.parent().unwrap_or(Path::new("."));
        file.write_all_at(&head, 0)
            .and_then(|_| file.write_all_at(entry.bytes, 24))
            .and_then(|_| file.write_all_at(&tail, 24 + entry.bytes.len() as u64))
            .and_then(|_| file.sync_all())
            .and_then(|_| File::open(directory)?.sync_all())
            .map_err(|e| self.io_error("write the journal of", e))
    }

    /// Finishes the write a killed run had journaled whole; drops a torn
    /// journal (its write never began in place).
    fn replay_journal(&self, progress: &dyn Progress) -> Result<()> {
        match fs::symlink_metadata(&self.journal) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(self.io_error("read the journal of", e)),
        }
        let mut bytes = Vec::new();
        store_file::open_file(&self.journal, false)?
            .read_to_end(&mut bytes)
            .map_err(|e| self.io_error("read the journal of", e))?;
        let whole = bytes.len() >= 32 && &bytes[..8] == JOURNAL_MAGIC && {
            let (body, hash) = bytes.split_at(bytes.len() - 8);
            let len = u64::from_le_bytes(body[16..24].try_into().unwrap());
            let first = u64::from_le_bytes(body[8..16].try_into().unwrap());
            body.len() as u64 == 24 + len
                && len.is_multiple_of(8)
                && first.is_multiple_of(self.chunk_words)
                && first + len / 8 <= self.words
                && xxh3_64(body).to_le_bytes() == hash
        };
        if whole {
            let first_word = u64::from_le_bytes(bytes[8..16].try_into().unwrap());
            let entry = JournalEntry {
                first_word,
                bytes: &bytes[24..bytes.len() - 8],
            };
            self.apply(&entry)?;
            progress.note(&format!(
                "{}: finished the write its last run had journaled ({} bytes)",
                self.path.display(),
                entry.bytes.len()
            ));
        }
        fs::remove_file(&self.journal).map_err(|e| self.io_error("remove the journal of", e))
    }

    /// Checks the body against the trailer chunk by chunk, reading it in
    /// pieces (never more than a few pieces in memory).
    fn check_body(&self, progress: &dyn Progress) -> Result<BodyVerdict> {
        let header = self.header.lock().expect("header").clone();
        let layout = Layout::new(self.words, self.chunk_words);
        let trailer = store_file::read_trailer(&self.file, &self.path, layout)?;
        if trailer_hash(&trailer) != header.trailer_hash {
            return Ok(BodyVerdict::TrailerDamaged);
        }
        let expected = decode_trailer(&trailer);
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        progress.begin_setup(&format!("checking {name}"), layout.chunks());
        let chunk_bytes = self.chunk_words as usize * 8;
        let damaged: Vec<u64> = (0..layout.chunks())
            .into_par_iter()
            .map_init(
                || vec![0u8; chunk_bytes],
                |buffer, chunk| -> Result<Option<u64>> {
                    let words = (self.words - chunk * self.chunk_words).min(self.chunk_words);
                    let piece = &mut buffer[..words as usize * 8];
                    self.read(chunk * self.chunk_words, piece)?;
                    progress.advance(1);
                    Ok((xxh3_64(piece) != expected[chunk as usize]).then_some(chunk))
                },
            )
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .flatten()
            .collect();
        progress.end_pass();
        Ok(if damaged.is_empty() {
            BodyVerdict::Intact
        } else {
            BodyVerdict::Damaged(damaged)
        })
    }

    /// Sets every word to `fill` and records that with an empty progress
    /// record.
    fn fill_afresh(&self, fill: u64, progress: &dyn Progress) -> Result<()> {
        let piece = fill.to_le_bytes().repeat(IO_PIECE / 8);
        let total = self.words * 8;
        progress.begin_setup("starting the table afresh", total.div_ceil(IO_PIECE as u64));
        (0..total.div_ceil(IO_PIECE as u64))
            .into_par_iter()
            .try_for_each(|i| {
                let start = i * IO_PIECE as u64;
                let len = (total - start).min(IO_PIECE as u64) as usize;
                progress.advance(1);
                self.file
                    .write_all_at(&piece[..len], HEADER_LEN as u64 + start)
            })
            .and_then(|_| self.file.sync_data())
            .map_err(|e| self.io_error("write", e))?;
        progress.end_pass();
        let sums = uniform_checksums(fill, self.words, self.chunk_words);
        let trailer = encode_trailer(&sums);
        let layout = Layout::new(self.words, self.chunk_words);
        self.file
            .write_all_at(&trailer, layout.body_end())
            .and_then(|_| self.file.sync_data())
            .map_err(|e| self.io_error("write", e))?;
        *self.sums.lock().expect("sums") = sums;
        self.write_header(|header| {
            header.trailer_hash = trailer_hash(&trailer);
            header.seal = Seal::Sealed;
            header.progress.clear();
        })
    }

    /// Records `progress` in the header (the body and its checksums are
    /// already on disk: every write put them there).
    pub fn record(&self, progress: Option<&[u8]>) -> Result<()> {
        let Some(progress) = progress else {
            return Ok(());
        };
        self.write_header(|header| header.progress = progress.to_vec())
    }

    fn write_header(&self, change: impl FnOnce(&mut Header)) -> Result<()> {
        let mut header = self.header.lock().expect("header");
        change(&mut header);
        store_file::write_header(&self.file, &self.path, &header)?;
        self.file.sync_data().map_err(|e| self.io_error("write", e))
    }
}

struct JournalEntry<'a> {
    first_word: u64,
    bytes: &'a [u8],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;

    fn identity(words: u64) -> TableIdentity {
        TableIdentity::scratch("direct test", 64, words)
    }

    fn scratch_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("bitsolve-direct-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn words_of(table: &DirectFile) -> Vec<u64> {
        let mut bytes = vec![0u8; table.words() as usize * 8];
        table.read(0, &mut bytes).unwrap();
        bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn writes_anywhere_reopen_intact_and_unchanged_chunks_cost_nothing() {
        let dir = scratch_dir("writes");
        let words = 3 * (1 << 17) + 100;
        let (table, record) = DirectFile::open(&dir, &identity(words), words, 7, &Silent).unwrap();
        assert!(record.is_none());
        // A write across a chunk boundary, not aligned to either.
        let first = (1 << 17) - 5;
        let new: Vec<u8> = (0..10u64).flat_map(|w| (w + 100).to_le_bytes()).collect();
        assert!(table.write(first, &new).unwrap() > 0);
        // The same bytes again change nothing.
        assert_eq!(table.write(first, &new).unwrap(), 0);
        table.record(Some(b"layer 3")).unwrap();
        drop(table);
        let (table, record) = DirectFile::open(&dir, &identity(words), words, 7, &Silent).unwrap();
        assert_eq!(record.as_deref(), Some(&b"layer 3"[..]));
        let read = words_of(&table);
        for (w, &value) in read.iter().enumerate() {
            let w = w as u64;
            let expected = if (first..first + 10).contains(&w) {
                w - first + 100
            } else {
                7
            };
            assert_eq!(value, expected, "word {w}");
        }
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_whole_journal_is_replayed_and_a_torn_one_dropped() {
        let dir = scratch_dir("journal");
        let words = 2 * (1 << 17);
        let (table, _) = DirectFile::open(&dir, &identity(words), words, 0, &Silent).unwrap();
        // Journal entries hold whole checksum chunks (as `write` makes them).
        let mut bytes = vec![0u8; (1 << 17) * 8];
        for w in 0..4usize {
            bytes[w * 8..w * 8 + 8].copy_from_slice(&(w as u64 + 1).to_le_bytes());
        }
        // Killed after the journal, before the write in place.
        table
            .write_journal(&JournalEntry {
                first_word: 1 << 17,
                bytes: &bytes,
            })
            .unwrap();
        let journal = table.journal.clone();
        drop(table);
        let (table, _) = DirectFile::open(&dir, &identity(words), words, 0, &Silent).unwrap();
        assert!(!journal.exists());
        assert_eq!(&words_of(&table)[1 << 17..(1 << 17) + 5], &[1, 2, 3, 4, 0]);
        // Killed while writing the journal: the body is as it was.
        table
            .write_journal(&JournalEntry {
                first_word: 0,
                bytes: &bytes,
            })
            .unwrap();
        let torn = fs::read(&journal).unwrap();
        fs::write(&journal, &torn[..torn.len() - 3]).unwrap();
        drop(table);
        let (table, _) = DirectFile::open(&dir, &identity(words), words, 0, &Silent).unwrap();
        assert!(!journal.exists());
        assert_eq!(&words_of(&table)[..4], &[0, 0, 0, 0]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_body_is_refused() {
        let dir = scratch_dir("damaged");
        let words = 1 << 17;
        let (table, _) = DirectFile::open(&dir, &identity(words), words, 0, &Silent).unwrap();
        let path = table.path().to_path_buf();
        drop(table);
        let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all_at(&[1], HEADER_LEN as u64 + 77).unwrap();
        drop(file);
        let error = DirectFile::open(&dir, &identity(words), words, 0, &Silent)
            .err()
            .expect("refused");
        assert!(error.to_string().contains("damaged"), "{error}");
        let _ = fs::remove_dir_all(&dir);
    }
}
