//! `bitsolve verify PATH`: checks every table file of a store (or one file)
//! and reports, for people or as JSON, what is intact and what is damaged.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use super::progress::Display;
use crate::error::{Error, Result};
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
    let files = table_files(&args.path)?;
    let progress = Display::new(None, None);
    let mut checks: Vec<FileCheck> = Vec::with_capacity(files.len());
    for file in &files {
        let check = check_file(file, &progress);
        progress.finish();
        if !args.json {
            print_check(&check);
        }
        checks.push(check);
    }
    let bad = checks.iter().filter(|c| !c.intact()).count();
    if args.json {
        println!(
            "{}",
            json!({ "path": args.path, "intact": bad == 0, "files": checks })
        );
    }
    if bad == 0 {
        Ok(())
    } else {
        Err(Error::BadStore {
            path: args.path,
            reason: format!("{bad} of {} table file(s) are not intact", checks.len()),
        })
    }
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
