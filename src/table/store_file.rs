//! One table file on disk: how it is laid out, created, locked and checked.
//!
//! Layout: the [`HEADER_LEN`]-byte header, the body (`words` little-endian
//! u64), then the trailer of per-chunk checksums ([`super::checksums`]).
//!
//! A writer holds an exclusive `flock` on the file for its whole run and a
//! reader a shared one, so two runs never write one store at once and a
//! query never reads a table that is being written.

use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::checksums::{
    CHUNK_WORDS, chunk_count, decode_trailer, encode_trailer, trailer_hash, uniform_checksums,
};
use super::header::{HEADER_LEN, Header, Seal, TableIdentity};
use crate::error::{Error, Result};
use crate::progress::Progress;

/// Byte offsets of a table file's parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Words of the body.
    pub words: u64,
    /// Words per checksum chunk.
    pub chunk_words: u64,
}

impl Layout {
    /// The layout of a body of `words` words, checksummed in chunks of
    /// `chunk_words` words.
    pub fn new(words: u64, chunk_words: u64) -> Self {
        Layout { words, chunk_words }
    }

    /// Where the body ends and the trailer starts.
    pub fn body_end(&self) -> u64 {
        HEADER_LEN as u64 + self.words * 8
    }

    /// Checksum chunks of the body, one trailer entry each.
    pub fn chunks(&self) -> u64 {
        chunk_count(self.words, self.chunk_words)
    }

    /// Bytes of the whole file: header, body and trailer.
    pub fn file_len(&self) -> u64 {
        self.body_end() + self.chunks() * 8
    }
}

/// An [`Error::BadStore`] for the file at `path`.
pub fn bad(path: &Path, reason: impl Into<String>) -> Error {
    Error::BadStore {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

fn io_error<'p>(what: &'p str, path: &'p Path) -> impl FnOnce(std::io::Error) -> Error + 'p {
    move |e| Error::on_file(what, path, e)
}

/// How long a lock held by someone else is retried before the run is
/// refused: a child process that another thread of this process is
/// starting holds a copy of every descriptor between its fork and its exec,
/// so a table this process has just closed can still look locked for a
/// moment (a test suite spawning the CLI beside a library solve met it
/// under load). A real second run holds its lock far longer.
const LOCK_PATIENCE: std::time::Duration = std::time::Duration::from_millis(1500);

/// Takes `flock` on `file` without blocking (retrying for
/// `LOCK_PATIENCE`): exclusive for a writer, shared for a reader.
/// Released when the file is closed.
pub fn lock(file: &File, path: &Path, exclusive: bool) -> Result<()> {
    let operation = if exclusive {
        libc::LOCK_EX
    } else {
        libc::LOCK_SH
    } | libc::LOCK_NB;
    let started = std::time::Instant::now();
    let mut pause = std::time::Duration::from_millis(5);
    let error = loop {
        // SAFETY: flock on a file descriptor we own.
        if unsafe { libc::flock(file.as_raw_fd(), operation) } == 0 {
            return Ok(());
        }
        let error = std::io::Error::last_os_error();
        if error.raw_os_error() != Some(libc::EWOULDBLOCK) || started.elapsed() >= LOCK_PATIENCE {
            break error;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(std::time::Duration::from_millis(200));
    };
    if error.raw_os_error() == Some(libc::EWOULDBLOCK) {
        let holder = if exclusive {
            "another bitsolve run is using it"
        } else {
            "a bitsolve run is writing it"
        };
        return Err(bad(path, format!("{holder} (wait for that run to end)")));
    }
    Err(Error::on_file("lock", path, error))
}

/// Where the table `identity` names lives in the store `dir`, which is
/// created if missing; an identity too large for a header is refused.
pub fn table_path(dir: &Path, identity: &TableIdentity) -> Result<PathBuf> {
    super::header::check_fits(identity).map_err(Error::InvalidParameter)?;
    fs::create_dir_all(dir).map_err(|e| Error::on_file("create store directory", dir, e))?;
    Ok(dir.join(super::header::file_name_for(&identity.descriptor)))
}

/// Whether something is at `path` where a table file belongs: `false` when
/// nothing is; an error when the path cannot be followed (a symbolic link
/// loop, a directory without permission), so that it is not taken for a
/// missing table.
pub fn table_exists(path: &Path) -> Result<bool> {
    path.try_exists().map_err(io_error("read", path))
}

/// Opens a table file, refusing anything that is not a regular file: a
/// FIFO, a device or a socket named like a table would block its reader
/// (it is opened without waiting for a writer, then refused), and a
/// directory has no table to read.
///
/// A symbolic link is refused too, never followed: a link planted in a
/// store would have a writer change whatever file it points to.
pub fn open_file(path: &Path, writable: bool) -> Result<File> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let file = OpenOptions::new()
        .read(true)
        .write(writable)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| link_refused(path, e))?;
    let kind = file.metadata().map_err(io_error("stat", path))?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    let what = if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    };
    Err(bad(path, format!("is {what}, not a table file")))
}

/// The error for a failed open of `path`: a symbolic link that leads to a
/// file is refused as a link; any other failure (a link loop included) is
/// told as the system tells it.
fn link_refused(path: &Path, error: std::io::Error) -> Error {
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if error.raw_os_error() == Some(libc::ELOOP) && is_link && fs::metadata(path).is_ok() {
        return bad(
            path,
            "is a symbolic link, which a store never follows (remove the link, or put the file itself in its place)",
        );
    }
    io_error("open", path)(error)
}

/// Creates a new, empty file at `path` for reading and writing, never
/// through whatever is already there (`O_EXCL`: a link at `path` is not
/// followed). A regular file left there by a run that was stopped is
/// removed first, unless a run still holds it; a link or anything else
/// that is not a regular file is refused.
pub fn create_new_file(path: &Path) -> Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    for _ in 0..3 {
        match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)
        {
            Ok(file) => return Ok(file),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => remove_leftover(path)?,
            Err(e) => return Err(io_error("create", path)(e)),
        }
    }
    Err(bad(path, "another bitsolve run keeps creating it"))
}

/// Removes the regular file at `path` that no run holds locked: what a
/// stopped run left. The file removed is the one locked (a file another
/// run put there meanwhile is left alone).
fn remove_leftover(path: &Path) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let file = match open_file(path, true) {
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Ok(());
        }
        opened => opened?,
    };
    lock(&file, path, true)?;
    let held = file.metadata().map_err(io_error("stat", path))?;
    match fs::symlink_metadata(path) {
        Ok(found) if (found.dev(), found.ino()) == (held.dev(), held.ino()) => {
            fs::remove_file(path).map_err(io_error("remove", path))
        }
        _ => Ok(()),
    }
}

/// Reads and decodes the header of a table file; a short or damaged one is
/// a bad store.
pub fn read_header(file: &File, path: &Path) -> Result<Header> {
    let mut bytes = vec![0u8; HEADER_LEN];
    file.read_exact_at(&mut bytes, 0)
        .map_err(|_| bad(path, "too short to hold a header"))?;
    Header::decode(&bytes).map_err(|reason| bad(path, reason))
}

/// Writes `header` at the start of the file and flushes it to disk.
pub fn write_header(file: &File, path: &Path, header: &Header) -> Result<()> {
    file.write_all_at(&header.encode(), 0)
        .and_then(|_| file.sync_data())
        .map_err(io_error("write", path))
}

/// The file's length in bytes.
pub fn file_len(file: &File, path: &Path) -> Result<u64> {
    Ok(file.metadata().map_err(io_error("stat", path))?.len())
}

/// Reads the checksum trailer, where `layout` puts it.
pub fn read_trailer(file: &File, path: &Path, layout: Layout) -> Result<Vec<u8>> {
    let mut trailer = vec![0u8; layout.chunks() as usize * 8];
    file.read_exact_at(&mut trailer, layout.body_end())
        .map_err(|_| bad(path, "the checksum trailer is cut short"))?;
    Ok(trailer)
}

/// What a table body's checksums say about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyVerdict {
    /// The body matches its checksums.
    Intact,
    /// A run was writing the body when it stopped: its checksums may be
    /// stale and cannot vouch for it (resuming the run seals it again).
    Unsealed,
    /// The trailer does not match the hash the header holds for it.
    TrailerDamaged,
    /// These chunks differ from their checksums.
    Damaged(Vec<u64>),
}

/// A store file's body (the mapped words) with what checks it: the file's
/// trailer, and the header that vouches for the trailer.
pub struct StoredBody<'a> {
    /// The open file, for its trailer.
    pub file: &'a File,
    /// Its path, for messages.
    pub path: &'a Path,
    /// Its header.
    pub header: &'a Header,
    /// The body's bytes.
    pub body: &'a [u8],
}

impl StoredBody<'_> {
    /// Checks the body against the file's trailer, showing a progress bar
    /// over its chunks; an unsealed body is not checked.
    pub fn examine(&self, progress: &dyn Progress) -> Result<BodyVerdict> {
        if self.header.seal == Seal::Writing {
            return Ok(BodyVerdict::Unsealed);
        }
        self.check(progress)
    }

    /// Checks the body against the file's trailer whatever the seal says
    /// (for an unsealed table: whether it is still as its last record left
    /// it).
    pub fn check(&self, progress: &dyn Progress) -> Result<BodyVerdict> {
        let &StoredBody {
            file,
            path,
            header,
            body,
        } = self;
        let layout = Layout::new(body.len() as u64 / 8, header.chunk_words);
        let trailer = read_trailer(file, path, layout)?;
        if trailer_hash(&trailer) != header.trailer_hash {
            return Ok(BodyVerdict::TrailerDamaged);
        }
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        progress.begin_setup(&format!("checking {name}"), layout.chunks());
        let damaged = super::checksums::damaged_chunks(
            body,
            &decode_trailer(&trailer),
            header.chunk_words,
            &|_| progress.advance(1),
        );
        progress.end_pass();
        Ok(if damaged.is_empty() {
            BodyVerdict::Intact
        } else {
            BodyVerdict::Damaged(damaged)
        })
    }
}

/// The ranks a chunk of words holds, for messages.
pub fn chunk_ranks(header: &Header, chunk: u64) -> std::ops::Range<u64> {
    let per_word = 64 / header.identity.bits_per_state as u64;
    let words = header.identity.states.div_ceil(per_word);
    let range = super::checksums::chunk_words_range(chunk, words, header.chunk_words);
    range.start * per_word..(range.end * per_word).min(header.identity.states)
}

/// Refuses a body that is not intact (a writer may go on with an unsealed
/// one: its own checkpoint says what to redo).
pub fn require_intact(path: &Path, header: &Header, verdict: &BodyVerdict) -> Result<()> {
    match verdict {
        BodyVerdict::Intact | BodyVerdict::Unsealed => Ok(()),
        BodyVerdict::TrailerDamaged => Err(bad(
            path,
            "its checksum trailer is damaged, so its table cannot be trusted (see: bitsolve verify)",
        )),
        BodyVerdict::Damaged(chunks) => {
            let ranks = chunk_ranks(header, chunks[0]);
            Err(bad(
                path,
                format!(
                    "{} damaged chunk(s), the first holding ranks {}..{}; the table cannot be trusted (see: bitsolve verify; remove the file to start afresh)",
                    chunks.len(),
                    ranks.start,
                    ranks.end
                ),
            ))
        }
    }
}

/// Removes a temporary file unless it was put in place.
struct Temporary<'a> {
    path: &'a Path,
    kept: bool,
}

impl Drop for Temporary<'_> {
    fn drop(&mut self) {
        if !self.kept {
            let _ = fs::remove_file(self.path);
        }
    }
}

/// The temporary name a table file is created under.
pub fn temporary_path(path: &Path) -> PathBuf {
    path.with_extension("bst.tmp")
}

/// Creates the table file at `path`: writes the header, reserves the
/// whole file with `fallocate` (a full disk is an error now, not a SIGBUS
/// on a mapped page later; reserved blocks read as zero, so a zero-filled
/// table costs no writing), writes a non-zero fill with a progress bar,
/// and renames it into place. Returns the file, locked exclusively, or
/// `None` when another run created it meanwhile. A failure leaves no
/// temporary file behind.
pub fn create(
    path: &Path,
    identity: &TableIdentity,
    words: u64,
    fill: u64,
    progress: &dyn Progress,
) -> Result<Option<File>> {
    let temporary = temporary_path(path);
    // A temporary file another run holds is being created by it; one
    // nobody holds is left from a run that was killed, and is redone.
    let file = create_new_file(&temporary)?;
    lock(&file, &temporary, true)?;
    let mut guard = Temporary {
        path: &temporary,
        kept: false,
    };
    if path.exists() {
        return Ok(None);
    }
    let layout = Layout::new(words, CHUNK_WORDS);
    let sums = uniform_checksums(fill, words, CHUNK_WORDS);
    let trailer = encode_trailer(&sums);
    let header = Header {
        identity: identity.clone(),
        seal: Seal::Sealed,
        chunk_words: CHUNK_WORDS,
        trailer_hash: trailer_hash(&trailer),
        progress: Vec::new(),
    };
    let write_error = io_error("write", &temporary);
    allocate(&file, &temporary, layout.file_len())?;
    if fill != 0 {
        write_fill(&file, &temporary, layout, fill, progress)?;
    }
    file.write_all_at(&trailer, layout.body_end())
        .and_then(|_| file.write_all_at(&header.encode(), 0))
        .and_then(|_| file.sync_all())
        .map_err(write_error)?;
    fs::rename(&temporary, path).map_err(io_error("rename to", path))?;
    guard.kept = true;
    Ok(Some(file))
}

/// Reserves `len` bytes for `file`.
fn allocate(file: &File, path: &Path, len: u64) -> Result<()> {
    // SAFETY: posix_fallocate on a file descriptor we own.
    let code = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len as libc::off_t) };
    match code {
        0 => Ok(()),
        libc::ENOSPC => Err(Error::io_at(
            format!(
                "cannot create {}: the disk has no room for its {:.1} MiB",
                path.display(),
                len as f64 / (1u64 << 20) as f64
            ),
            path,
            std::io::Error::from_raw_os_error(code),
        )),
        // A file system that cannot reserve space: a sparse file (a full
        // disk would then surface while the table is written).
        libc::EOPNOTSUPP | libc::EINVAL => file.set_len(len).map_err(io_error("extend", path)),
        code => Err(Error::on_file(
            "reserve space for",
            path,
            std::io::Error::from_raw_os_error(code),
        )),
    }
}

/// Writes `fill` into every word of the body, in parallel 1 MiB pieces.
fn write_fill(
    file: &File,
    path: &Path,
    layout: Layout,
    fill: u64,
    progress: &dyn Progress,
) -> Result<()> {
    let piece: Vec<u8> = fill.to_le_bytes().repeat(layout.chunk_words as usize);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    progress.begin_setup(&format!("creating {name}"), layout.chunks());
    let written = (0..layout.chunks()).into_par_iter().try_for_each(|chunk| {
        let range = super::checksums::chunk_words_range(chunk, layout.words, layout.chunk_words);
        let bytes = &piece[..(range.end - range.start) as usize * 8];
        let result = file.write_all_at(bytes, HEADER_LEN as u64 + range.start * 8);
        progress.advance(1);
        result
    });
    progress.end_pass();
    written.map_err(io_error("write", path))
}

/// Opens an existing table file: locks it, checks its header, that it
/// holds `wanted` and its length.
pub fn open_existing(
    path: &Path,
    wanted: &TableIdentity,
    words: u64,
    writable: bool,
) -> Result<(File, Header)> {
    let file = open_file(path, writable)?;
    lock(&file, path, writable)?;
    let header = read_header(&file, path)?;
    if let Some(difference) = header.identity.difference(wanted) {
        return Err(bad(path, difference));
    }
    let layout = Layout::new(words, header.chunk_words);
    let len = file_len(&file, path)?;
    if len != layout.file_len() {
        return Err(bad(
            path,
            format!("is {len} bytes, expected {}", layout.file_len()),
        ));
    }
    Ok((file, header))
}
