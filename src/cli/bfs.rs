//! `bitsolve bfs`: run a search and report it.

use serde_json::json;

use super::format::{bytes, group_digits, si};
use super::progress::Display;
use super::{BfsArgs, SpaceVisitor, thread_pool};
use crate::error::Result;
use crate::search::{Algorithm, SearchOptions, SearchReport};
use crate::space::Space;
use crate::table::Backing;

pub(super) fn run(args: BfsArgs) -> Result<()> {
    let pool = thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    args.game.visit(BfsCommand {
        args: &args,
        pool: &pool,
        threads,
    })
}

struct BfsCommand<'a> {
    args: &'a BfsArgs,
    pool: &'a rayon::ThreadPool,
    threads: usize,
}

impl SpaceVisitor for BfsCommand<'_> {
    type Output = ();

    fn visit<S: Space>(self, space: &S) -> Result<()> {
        let algorithm: Algorithm = self.args.algo.into();
        let table_bytes = space.size().div_ceil(64 / algorithm.bits_per_state()) * 8;
        let human = !self.args.json;
        let header = human.then(|| {
            let place = match &self.args.store {
                Some(dir) => format!("file table in {}", dir.display()),
                None => "heap table".to_string(),
            };
            let mut header = format!(
                "{} · {} · {} thread{} · {place} of {}",
                space.descriptor(),
                describe(algorithm),
                self.threads,
                if self.threads == 1 { "" } else { "s" },
                bytes(table_bytes)
            );
            let (row, value) = match algorithm {
                Algorithm::OneBitReachability => ("scan", "reached"),
                _ => ("layer", "states"),
            };
            header.push_str(&format!("\n{row:>7}  {value:>17}"));
            header
        });
        let display = Display::new(human, header);
        let options = SearchOptions {
            backing: match &self.args.store {
                Some(dir) => Backing::Directory(dir.clone()),
                None => Backing::Heap,
            },
            progress: &display,
        };
        let outcome = self.pool.install(|| algorithm.run(space, &options));
        display.finish();
        let report = outcome?;
        display.print_header();
        if human {
            print_summary(space, &report);
        } else {
            println!("{}", to_json(space, &report, self.threads));
        }
        Ok(())
    }
}

fn describe(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::TwoBitBfs => "two-bit BFS",
        Algorithm::OneBitBfs => "one-bit BFS",
        Algorithm::OneBitReachability => "one-bit reachability",
    }
}

fn print_summary<S: Space>(space: &S, report: &SearchReport) {
    println!("{:>7}  {:>17}", "total", group_digits(report.reachable));
    if let Some(depth) = report.max_depth() {
        println!("max depth {depth}");
    } else {
        println!("scans {}", report.passes);
    }
    println!(
        "space {} ranks, {:.2}% reachable",
        group_digits(space.size()),
        100.0 * report.reachable as f64 / space.size() as f64
    );
    let mut work = format!(
        "time {:.2} s · {} states expanded · {} successor ranks ({}ranks/s)",
        report.seconds,
        group_digits(report.expanded),
        group_digits(report.successors),
        si(report.successors_per_second())
    );
    if report.parent_checks > 0 {
        work.push_str(&format!(
            " · {} parent checks",
            group_digits(report.parent_checks)
        ));
    }
    println!("{work}");
    if let Some(from) = report.resumed_from {
        println!("resumed after layer {from} (time and work count this run only)");
    }
    if let Some(path) = &report.store {
        println!("table file {}", path.display());
    }
}

fn to_json<S: Space>(space: &S, report: &SearchReport, threads: usize) -> serde_json::Value {
    json!({
        "game": space.descriptor(),
        "algo": report.algorithm.name(),
        "threads": threads,
        "layers": report.layers,
        "total": report.reachable,
        "max_depth": report.max_depth(),
        "space_size": space.size(),
        "passes": report.passes,
        "expanded": report.expanded,
        "successors": report.successors,
        "parent_checks": report.parent_checks,
        "successors_per_second": report.successors_per_second(),
        "seconds": report.seconds,
        "resumed_from": report.resumed_from,
        "store": report.store.as_ref().map(|p| p.display().to_string()),
    })
}
