//! `bitsolve verify PATH`: checks every table file of a store (or one file)
//! and reports, for people or as JSON, what is intact and what is damaged.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use super::progress::Display;
use crate::error::{Error, Result};
use crate::search::Checkpoint;
use crate::table::verify::{FileCheck, check_file, table_files};

#[derive(Args, Debug)]
pub(super) struct VerifyArgs {
    /// A store directory or one table file (.bst).
    path: PathBuf,
    /// Print one JSON object on stdout instead of lines for people.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: VerifyArgs) -> Result<()> {
    let checks = check_files(&args.path, !args.json)?;
    let bad = checks.iter().filter(|c| !c.intact()).count();
    if args.json {
        println!("{}", report_json(&args.path, &checks));
    }
    if bad == 0 {
        Ok(())
    } else {
        Err(Error::BadStore {
            path: args.path,
            reason: format!(
                "{bad} of {} table file(s) are not intact and complete",
                checks.len()
            ),
        })
    }
}

/// Checks every table file under `path`, printing each verdict for people
/// as it comes when `print` is set.
fn check_files(path: &Path, print: bool) -> Result<Vec<FileCheck>> {
    let files = table_files(path)?;
    let progress = Display::new(None, None);
    let mut checks: Vec<FileCheck> = Vec::with_capacity(files.len());
    for file in &files {
        let check = unfinished(check_file(file, &progress));
        progress.finish();
        if print {
            print_check(&check);
        }
        checks.push(check);
    }
    Ok(checks)
}

/// The JSON object `verify --json` prints: the path, whether every file is
/// intact and complete, and each file's check.
fn report_json(path: &Path, checks: &[FileCheck]) -> serde_json::Value {
    let bad = checks.iter().filter(|c| !c.intact()).count();
    json!({ "path": path, "intact": bad == 0, "files": checks })
}

/// What `bitsolve verify PATH --json` prints (the Python binding's
/// `verify`): a store whose files are damaged is a report with `"intact":
/// false`, not an error; a path that holds no table is one.
pub fn verify_json(path: &Path) -> Result<serde_json::Value> {
    let checks = check_files(path, false)?;
    Ok(report_json(path, &checks))
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

fn print_check(check: &FileCheck) {
    let name = check.path.display();
    let what = check.descriptor.as_deref().unwrap_or("?");
    match check.status {
        "intact" => println!(
            "intact    {name}: '{what}', {} chunk(s) checked",
            check.chunks.unwrap_or(0)
        ),
        status => {
            let problem = check.problem.as_deref().unwrap_or("");
            println!("{status:<9} {name}: {problem}");
            for damage in &check.damaged {
                println!(
                    "          chunk {}: bytes {}..{}, ranks {}..{}",
                    damage.chunk,
                    damage.bytes[0],
                    damage.bytes[1],
                    damage.ranks[0],
                    damage.ranks[1]
                );
            }
        }
    }
}
