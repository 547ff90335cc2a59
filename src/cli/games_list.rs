//! `bitsolve games`: the registry's games, their options and what they can
//! be solved with.

use serde_json::json;

use crate::error::Result;
use crate::games::registry::{self, GameKind};

pub(super) fn run(json: bool) -> Result<()> {
    let entries = registry::entries();
    if json {
        let games: Vec<serde_json::Value> = entries
            .iter()
            .map(|entry| {
                json!({
                    "name": entry.name,
                    "summary": entry.summary,
                    "kind": kind_name(entry.kind),
                    "options": entry.options.iter().map(|o| json!({
                        "name": o.name,
                        "value": o.value,
                        "default": o.default,
                        "help": o.help,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        println!("{}", json!({ "games": games }));
        return Ok(());
    }
    for entry in entries {
        println!(
            "{:<14} {:<10} {}",
            entry.name,
            kind_name(entry.kind),
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
    Ok(())
}

fn kind_name(kind: GameKind) -> &'static str {
    match kind {
        GameKind::OnePlayer => "bfs",
        GameKind::TwoPlayer => "retro",
        GameKind::Positional => "qbf",
    }
}
