//! `bitsolve games`: the registry's games, their kinds and options; the
//! JSON is the library's [`registry::catalog`], the explorer's too.

use serde_json::json;

use bitsolve::error::Result;
use bitsolve::games::registry;

pub(super) fn run(json: bool) -> Result<()> {
    if json {
        println!("{}", json!({ "games": registry::catalog() }));
        return Ok(());
    }
    let entries = registry::entries();
    for entry in entries {
        println!(
            "{:<14} {:<10} {}",
            entry.name,
            entry.kind.name(),
            entry.summary
        );
        for option in entry.options {
            let flag = match option.value {
                Some(value) => format!("--{} {value}", option.name),
                None => format!("--{}", option.name),
            };
            let default = option
                .default
                .map(|d| format!(" (default {d})"))
                .unwrap_or_default();
            println!(
                "{:<14} {:<10}   {flag:<20} {}{default}",
                "", "", option.help
            );
        }
    }
    // The kinds say which commands take a game.
    println!();
    println!("commands by kind: one-player: bfs, bench, info, show, solve");
    println!("                  two-player: retro, query, play");
    println!("                  positional: qbf export|solve|check (and qbf ... pg FILE)");
    Ok(())
}
