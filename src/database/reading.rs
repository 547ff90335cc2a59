//! Table files as a long-running reader holds them. A table is read whole
//! into memory (or a chunk at a time: [`super::paged`]) with positioned
//! reads, never mapped: a file truncated under a mapping turns the next
//! touch of a lost page into SIGBUS, which no error handling catches and
//! which would kill a server answering many clients. Each chunk is checked
//! against the file's checksums as it is read, and what was read is
//! remembered with the [`FileState`] of the file it came from, so that a
//! reader can make sure, before it answers from a table, that the file is
//! still the one it read.

use std::io;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::search::Checkpoint;
use crate::table::TwoBitTable;
use crate::table::checksums::{chunk_checksums, decode_trailer, trailer_hash};
use crate::table::header::{HEADER_LEN, Header, Seal, TableIdentity};
use crate::table::store_file::{self, BodyVerdict, Layout, bad};
use crate::table::two_bit::CELLS_PER_WORD;

/// Bytes read (and checked) at a time: whole checksum chunks, about this
/// many, so that a large table never needs a second copy of itself.
const PIECE_BYTES: u64 = 16 << 20;

/// The header fields a fingerprint keeps: everything up to the
/// descriptor (seal, trailer hash, identity hash), and the header's own
/// checksum, which covers the progress record too.
const HEAD_BYTES: usize = 64;

/// What is at a path, as far as telling one file from another goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum FileState {
    /// Nothing.
    Missing,
    /// The path cannot be followed (a symbolic-link loop, a directory
    /// without permission): the kind of error.
    Unreachable(io::ErrorKind),
    Present {
        /// Which file: a file renamed into place is another inode.
        device: u64,
        inode: u64,
        /// Its type and permissions (a FIFO or a directory in its place).
        mode: u32,
        len: u64,
        /// Seconds and nanoseconds of the last change of its contents,
        /// and of its inode: no one can set the latter back, so a write
        /// hidden by `touch -r` still shows.
        modified: (i64, i64),
        changed: (i64, i64),
        /// A regular file's header fields and header checksum (`None`
        /// when it has no header to read).
        head: Option<Vec<u8>>,
    },
}

impl FileState {
    /// The state of whatever is at `path` now.
    pub(super) fn of(path: &Path) -> FileState {
        let metadata = match std::fs::metadata(path) {
            Ok(metadata) => metadata,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return FileState::Missing,
            Err(e) => return FileState::Unreachable(e.kind()),
        };
        FileState::Present {
            device: metadata.dev(),
            inode: metadata.ino(),
            mode: metadata.mode(),
            len: metadata.len(),
            modified: (metadata.mtime(), metadata.mtime_nsec()),
            changed: (metadata.ctime(), metadata.ctime_nsec()),
            head: if metadata.is_file() {
                head_of(path)
            } else {
                None
            },
        }
    }

    /// How `self` (what was read) differs from `now`, in a few words.
    pub(super) fn change_to(&self, now: &FileState) -> String {
        use FileState::{Missing, Present, Unreachable};
        match (self, now) {
            (_, Missing) => "it was removed".into(),
            (_, Unreachable(kind)) => format!("it cannot be followed now ({kind})"),
            (Missing | Unreachable(_), Present { .. }) => "a file appeared there".into(),
            (Present { mode: before, .. }, Present { mode, .. })
                if before & libc::S_IFMT != mode & libc::S_IFMT =>
            {
                format!("it is {} now", kind_of(*mode))
            }
            (
                Present {
                    device: d0,
                    inode: i0,
                    ..
                },
                Present { device, inode, .. },
            ) if (d0, i0) != (device, inode) => "another file was put in its place".into(),
            (Present { len: before, .. }, Present { len, .. }) if before != len => {
                format!("its length went from {before} to {len} bytes")
            }
            (Present { head: before, .. }, Present { head, .. }) if before != head => {
                "its header was rewritten".into()
            }
            _ => "it was written to".into(),
        }
    }
}

fn kind_of(mode: u32) -> &'static str {
    match mode & libc::S_IFMT {
        libc::S_IFDIR => "a directory",
        libc::S_IFIFO => "a FIFO (named pipe)",
        libc::S_IFSOCK => "a socket",
        libc::S_IFBLK | libc::S_IFCHR => "a device",
        libc::S_IFREG => "a regular file",
        _ => "something else",
    }
}

/// The header bytes a [`FileState`] keeps, read without waiting (a path
/// that turned into a FIFO meanwhile is not waited on).
fn head_of(path: &Path) -> Option<Vec<u8>> {
    let file = store_file::open_file(path, false).ok()?;
    let mut head = vec![0u8; HEAD_BYTES + 8];
    file.read_exact_at(&mut head[..HEAD_BYTES], 0).ok()?;
    file.read_exact_at(&mut head[HEAD_BYTES..], (HEADER_LEN - 8) as u64)
        .ok()?;
    Some(head)
}

/// A file a table was read from, and its state when it was read.
#[derive(Clone, Debug)]
pub(super) struct Watched {
    pub path: PathBuf,
    pub state: FileState,
}

impl Watched {
    /// The file at `path` as it is now (for a table the store does not
    /// hold, whose appearance is a change too).
    pub(super) fn now(path: PathBuf) -> Watched {
        let state = FileState::of(&path);
        Watched { path, state }
    }

    /// `None` while the file is as it was read; otherwise how it changed.
    pub(super) fn change(&self) -> Option<String> {
        let now = FileState::of(&self.path);
        (now != self.state).then(|| self.state.change_to(&now))
    }
}

/// A sealed table's file opened for reading, with what vouches for its
/// body: the header, and the checksum of every chunk from its trailer
/// (the trailer itself checked against the header).
pub(super) struct Opened {
    pub file: std::fs::File,
    pub header: Header,
    pub layout: Layout,
    pub expected: Vec<u64>,
}

/// Opens the sealed table `wanted` (its body `words` long) at `path`
/// under a shared lock (a run writing the file holds it exclusively, and
/// is refused here rather than read half-written), and reads its checksums.
/// Refused: a file that is not a regular file, holds another table, is
/// being written or was left unsealed, or whose trailer is damaged.
pub(super) fn open_sealed(path: &Path, wanted: &TableIdentity, words: u64) -> Result<Opened> {
    let (file, header) = store_file::open_existing(path, wanted, words, false)?;
    if header.seal == Seal::Writing {
        return Err(bad(
            path,
            "its run stopped while writing it, so its checksums cannot vouch for it (run that search again with this store to finish it)",
        ));
    }
    let layout = Layout::new(words, header.chunk_words);
    let trailer = store_file::read_trailer(&file, path, layout)?;
    if trailer_hash(&trailer) != header.trailer_hash {
        store_file::require_intact(path, &header, &BodyVerdict::TrailerDamaged)?;
    }
    Ok(Opened {
        expected: decode_trailer(&trailer),
        file,
        header,
        layout,
    })
}

/// The file at `path` as `file` was opened, provided the path still
/// names that file unchanged since `before` (taken before it was opened);
/// otherwise a writer was at work, and what was read may mix two versions
/// of the table.
pub(super) fn unchanged_since(
    path: &Path,
    file: &std::fs::File,
    before: FileState,
    doing: &str,
) -> Result<Watched> {
    let after = FileState::of(path);
    let read_inode = file
        .metadata()
        .map_err(|e| Error::on_file("stat", path, e))?
        .ino();
    let same_inode = matches!(after, FileState::Present { inode, .. } if inode == read_inode);
    if after != before || !same_inode {
        return Err(bad(
            path,
            format!(
                "changed on disk while it was being {doing} ({}); ask again",
                before.change_to(&after)
            ),
        ));
    }
    Ok(Watched {
        path: path.to_path_buf(),
        state: after,
    })
}

/// Reads the sealed table `wanted` (its body `words` long) from `path`, in
/// pieces of whole checksum chunks: each piece is checked against the
/// file's checksums, then handed to `keep` with the index of its first
/// word. Refused: what [`open_sealed`] refuses, a damaged body, and a file
/// that changed while it was read. Returns the header and the file as it
/// was read.
pub(super) fn read_table(
    path: &Path,
    wanted: &TableIdentity,
    words: u64,
    progress: &dyn Progress,
    keep: &mut dyn FnMut(usize, &[u8]),
) -> Result<(Header, Watched)> {
    let before = FileState::of(path);
    let Opened {
        file,
        header,
        layout,
        expected,
    } = open_sealed(path, wanted, words)?;
    let chunk_bytes = header.chunk_words.saturating_mul(8);
    let chunks_per_piece = (PIECE_BYTES / chunk_bytes).max(1);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    progress.begin_setup(&format!("reading {name}"), layout.chunks());
    let mut damaged = Vec::new();
    let mut piece = Vec::new();
    let mut first_chunk = 0;
    while first_chunk < layout.chunks() {
        let start = first_chunk * header.chunk_words;
        let end = words.min(start.saturating_add(chunks_per_piece * header.chunk_words));
        piece.resize(((end - start) * 8) as usize, 0);
        let offset = HEADER_LEN as u64 + start * 8;
        // A file cut short meanwhile is an error here, where a mapping
        // would have been a SIGBUS.
        file.read_exact_at(&mut piece, offset).map_err(|e| {
            progress.end_pass();
            Error::on_file("read", path, e)
        })?;
        let sums = chunk_checksums(&piece, header.chunk_words, &|_| progress.advance(1));
        for (index, sum) in sums.iter().enumerate() {
            let chunk = first_chunk + index as u64;
            if expected.get(chunk as usize) != Some(sum) {
                damaged.push(chunk);
            }
        }
        keep(start as usize, &piece);
        first_chunk += sums.len().max(1) as u64;
    }
    progress.end_pass();
    let verdict = if damaged.is_empty() {
        BodyVerdict::Intact
    } else {
        BodyVerdict::Damaged(damaged)
    };
    store_file::require_intact(path, &header, &verdict)?;
    let watched = unchanged_since(path, &file, before, "read")?;
    Ok((header, watched))
}

/// Reads the sealed two-bit table `identity` from `path` into memory (see
/// [`read_table`]).
pub(super) fn read_two_bit(
    path: &Path,
    identity: TableIdentity,
    progress: &dyn Progress,
) -> Result<(TwoBitTable, Header, Watched)> {
    let cells = identity.states;
    let words = cells.div_ceil(CELLS_PER_WORD);
    // Fresh anonymous memory, every word then written from the file.
    let table = TwoBitTable::scratch(&identity.descriptor, cells, 0)?;
    let (header, watched) = read_table(path, &identity, words, progress, &mut |start, bytes| {
        for (word, eight) in table.words()[start..].iter().zip(bytes.chunks_exact(8)) {
            word.store(
                u64::from_le_bytes(eight.try_into().expect("eight bytes")),
                Relaxed,
            );
        }
    })?;
    Ok((table, header, watched))
}

/// Reads the sealed table `identity` (its body `words` long) from `path`
/// into plain words (see [`read_table`]).
pub(super) fn read_words(
    path: &Path,
    identity: &TableIdentity,
    words: u64,
    progress: &dyn Progress,
) -> Result<(Vec<u64>, Header, Watched)> {
    let mut body = vec![0u64; words as usize];
    let mut keep = |start: usize, bytes: &[u8]| {
        for (word, eight) in body[start..].iter_mut().zip(bytes.chunks_exact(8)) {
            *word = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        }
    };
    let (header, watched) = read_table(path, identity, words, progress, &mut keep)?;
    Ok((body, header, watched))
}

/// The progress record of a table read, as the checkpoint it holds
/// (`None` without one).
pub(super) fn checkpoint_of(header: &Header, watched: &Watched) -> Result<Option<Checkpoint>> {
    if header.progress.is_empty() {
        return Ok(None);
    }
    Checkpoint::decode(&header.progress)
        .map(Some)
        .map_err(|reason| bad(&watched.path, reason))
}

/// Whether a table read records a finished run.
pub(super) fn finished(header: &Header, watched: &Watched) -> Result<bool> {
    Ok(checkpoint_of(header, watched)?.is_some_and(|c| c.complete))
}
