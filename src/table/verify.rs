//! `bitsolve verify`: checks table files without knowing their game —
//! header, identity hash, length, checksum trailer and every body chunk —
//! and says what is intact and what is damaged, by file, chunk, byte range
//! and rank range.

use std::path::{Path, PathBuf};

use memmap2::MmapOptions;
use serde::Serialize;

use super::header::{HEADER_LEN, Header};
use super::store_file::{self, BodyVerdict, Layout};
use crate::error::{Error, Result};
use crate::progress::Progress;

/// One damaged chunk of a table body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DamagedChunk {
    /// The chunk's index in the body.
    pub chunk: u64,
    /// Byte offsets in the file.
    pub bytes: [u64; 2],
    /// The ranks whose cells lie in it.
    pub ranks: [u64; 2],
}

/// What `verify` found in one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileCheck {
    /// The file checked.
    pub path: PathBuf,
    /// "intact", "damaged", "unsealed" (a run stopped while writing it),
    /// "misplaced" (an intact table under another table's file name),
    /// "unreadable" or "leftover" (a temporary file of a creation that
    /// never finished). The command line adds "incomplete" (intact, but
    /// its run has not finished), which takes reading the progress record.
    pub status: &'static str,
    /// The table's descriptor; `None` when the header could not be read.
    pub descriptor: Option<String>,
    /// States in the table, as its header says.
    pub states: Option<u64>,
    /// Bits per state, as the header says.
    pub bits_per_state: Option<u32>,
    /// Checksum chunks of the body.
    pub chunks: Option<u64>,
    /// The chunks that differ from their checksums.
    pub damaged: Vec<DamagedChunk>,
    /// Why the file is not intact, for people.
    pub problem: Option<String>,
    /// The progress record its header holds (its meaning belongs to the
    /// algorithm that wrote it).
    #[serde(skip)]
    pub progress: Vec<u8>,
}

impl FileCheck {
    /// Whether the file was found intact.
    pub fn intact(&self) -> bool {
        self.status == "intact"
    }

    fn failed(path: &Path, status: &'static str, problem: String) -> Self {
        FileCheck {
            path: path.to_path_buf(),
            status,
            descriptor: None,
            states: None,
            bits_per_state: None,
            chunks: None,
            damaged: Vec::new(),
            problem: Some(problem),
            progress: Vec::new(),
        }
    }
}

/// The table files under `path`: the file itself, or the `.bst` files
/// (and leftover `.bst.tmp` files) of a store directory, sorted.
pub fn table_files(path: &Path) -> Result<Vec<PathBuf>> {
    if !path.is_dir() {
        if !store_file::table_exists(path)? {
            return Err(Error::InvalidParameter(format!(
                "{} does not exist",
                path.display()
            )));
        }
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path).map_err(|e| Error::on_file("read", path, e))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            name.ends_with(".bst") || name.ends_with(".bst.tmp")
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Error::InvalidParameter(format!(
            "{} holds no table files (*.bst)",
            path.display()
        )));
    }
    Ok(files)
}

/// Checks one table file.
pub fn check_file(path: &Path, progress: &dyn Progress) -> FileCheck {
    if path.to_string_lossy().ends_with(".bst.tmp") {
        return FileCheck::failed(
            path,
            "leftover",
            "a table whose creation never finished (safe to remove)".into(),
        );
    }
    match examine(path, progress) {
        Ok(check) => check,
        Err(error) => FileCheck::failed(path, "unreadable", error.to_string()),
    }
}

fn examine(path: &Path, progress: &dyn Progress) -> Result<FileCheck> {
    let file = store_file::open_file(path, false)?;
    store_file::lock(&file, path, false)?;
    let header = store_file::read_header(&file, path)?;
    let identity = &header.identity;
    let per_word = 64 / identity.bits_per_state as u64;
    let layout = Layout::new(identity.states.div_ceil(per_word), header.chunk_words);
    let len = store_file::file_len(&file, path)?;
    let mut check = FileCheck {
        path: path.to_path_buf(),
        status: "intact",
        descriptor: Some(identity.descriptor.clone()),
        states: Some(identity.states),
        bits_per_state: Some(identity.bits_per_state),
        chunks: Some(layout.chunks()),
        damaged: Vec::new(),
        problem: None,
        progress: header.progress.clone(),
    };
    if len != layout.file_len() {
        check.status = "damaged";
        check.problem = Some(format!(
            "is {len} bytes, its header says {}",
            layout.file_len()
        ));
        return Ok(check);
    }
    // SAFETY: read-only mapping of a file we hold a shared lock on.
    let map = unsafe {
        MmapOptions::new()
            .offset(HEADER_LEN as u64)
            .len((layout.words * 8) as usize)
            .map(&file)
    }
    .map_err(|e| Error::on_file("map", path, e))?;
    let body = store_file::StoredBody {
        file: &file,
        path,
        header: &header,
        body: &map,
    };
    match body.examine(progress)? {
        BodyVerdict::Intact => {
            let expected = super::header::file_name_for(&identity.descriptor);
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if name != expected {
                check.status = "misplaced";
                check.problem = Some(format!(
                    "holds '{}', whose file is named {expected}: it was renamed or swapped with another table (rename it back)",
                    identity.descriptor
                ));
            }
        }
        BodyVerdict::Unsealed => {
            check.status = "unsealed";
            check.problem = Some(
                "its run stopped while writing it: the checksums cannot vouch for it (run that search again with this store to resume and seal it)"
                    .into(),
            );
        }
        BodyVerdict::TrailerDamaged => {
            check.status = "damaged";
            check.problem = Some("the checksum trailer is damaged".into());
        }
        BodyVerdict::Damaged(chunks) => {
            check.status = "damaged";
            check.problem = Some(format!("{} damaged chunk(s)", chunks.len()));
            check.damaged = chunks
                .into_iter()
                .map(|chunk| damaged_chunk(&header, layout, chunk))
                .collect();
        }
    }
    Ok(check)
}

fn damaged_chunk(header: &Header, layout: Layout, chunk: u64) -> DamagedChunk {
    let words = super::checksums::chunk_words_range(chunk, layout.words, layout.chunk_words);
    let ranks = store_file::chunk_ranks(header, chunk);
    DamagedChunk {
        chunk,
        bytes: [
            HEADER_LEN as u64 + words.start * 8,
            HEADER_LEN as u64 + words.end * 8,
        ],
        ranks: [ranks.start, ranks.end],
    }
}
