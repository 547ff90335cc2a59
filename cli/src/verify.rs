//! `bitsolve verify PATH`: checks every table file of a store (or one file)
//! and reports, for people or as JSON, what is intact and what is damaged.

use std::path::PathBuf;

use clap::Args;

use bitsolve::error::{Error, Result};
use bitsolve::jobs::Report;
use bitsolve::jobs::verify::{VerifyReport, check_store};
use bitsolve::progress::terminal::Display;
use bitsolve::table::verify::FileCheck;

#[derive(Args, Debug)]
pub(super) struct VerifyArgs {
    /// A store directory or one table file (.bst).
    path: PathBuf,
    /// Print one JSON object on stdout instead of lines for people.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: VerifyArgs) -> Result<()> {
    let progress = Display::new(None, None);
    let checks = check_store(&args.path, &progress, |check| {
        progress.finish();
        if !args.json {
            print_check(check);
        }
    })?;
    let (bad, files) = (checks.iter().filter(|c| !c.intact()).count(), checks.len());
    if args.json {
        println!("{}", VerifyReport::new(&args.path, checks).to_json());
    }
    if bad == 0 {
        Ok(())
    } else {
        Err(Error::BadStore {
            path: args.path,
            reason: format!("{bad} of {files} table file(s) are not intact and complete"),
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
