//! Checks a store's table files (or one file) against their checksums and
//! reports what is intact, damaged or unfinished (`bitsolve verify`,
//! Python's `verify`).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::Report;
use crate::error::Result;
use crate::progress::Progress;
use crate::search::Checkpoint;
use crate::table::verify::{FileCheck, check_file, table_files};

/// Checks every table file under `path` (a store, or one file), calling
/// `checked` with each file's result as it is known; `progress` shows the
/// check of a large file.
pub fn check_store(
    path: &Path,
    progress: &dyn Progress,
    mut checked: impl FnMut(&FileCheck),
) -> Result<Vec<FileCheck>> {
    let files = table_files(path)?;
    let mut checks: Vec<FileCheck> = Vec::with_capacity(files.len());
    for file in &files {
        let check = unfinished(check_file(file, progress));
        checked(&check);
        checks.push(check);
    }
    Ok(checks)
}

/// What a check of a store found: the report of [`verify`], whose
/// [`Report::to_json`] is the object `bitsolve verify --json` prints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// The store (or file) checked.
    pub path: PathBuf,
    /// Every file is intact.
    pub intact: bool,
    /// Each table file's check.
    pub files: Vec<FileCheck>,
}

impl Report for VerifyReport {}

impl VerifyReport {
    /// The report of `checks`, the files of `path`.
    pub fn new(path: &Path, checks: Vec<FileCheck>) -> VerifyReport {
        VerifyReport {
            path: path.to_path_buf(),
            intact: checks.iter().all(FileCheck::intact),
            files: checks,
        }
    }
}

/// Checks `path` as `bitsolve verify` does and returns its report.
pub fn verify(path: &Path, progress: &dyn Progress) -> Result<VerifyReport> {
    let checks = check_store(path, progress, |_| {})?;
    Ok(VerifyReport::new(path, checks))
}

/// An intact table whose run has not finished (its progress record is not
/// complete, or there is none: no layer was ever recorded) is not a result
/// to rely on: it reads as "incomplete", never as intact.
fn unfinished(mut check: FileCheck) -> FileCheck {
    if !check.intact() {
        return check;
    }
    let problem = if check.progress.is_empty() {
        "its run never recorded any progress (it stopped before its first checkpoint); run that search again with this store".to_string()
    } else {
        match Checkpoint::decode(&check.progress) {
            Ok(checkpoint) if checkpoint.complete => return check,
            Ok(checkpoint) => format!(
                "its run has not finished ({} recorded); run that search again with this store to finish it",
                match checkpoint.last_completed {
                    Some(last) => format!("up to step {last}"),
                    None => "nothing".into(),
                }
            ),
            Err(reason) => format!("its progress record is unreadable: {reason}"),
        }
    };
    check.status = "incomplete";
    check.problem = Some(problem);
    check
}
