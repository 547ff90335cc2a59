//! `bitsolve info`: what a search of a game would take, before running it.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use super::format::{bytes, group_digits};
use super::games::GameArg;
use bitsolve::backend::disk::{MIN_MEMORY, disk_needed, successors_reserve};
use bitsolve::error::Result;
use bitsolve::games::registry::SpaceVisitor;
use bitsolve::search::Algorithm;
use bitsolve::space::{BlockShape, Picture, Space};
use bitsolve::table::storage::{available_memory, free_disk};

/// `bitsolve info`'s arguments.
#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(subcommand)]
    game: GameArg,
    /// Print one JSON object on stdout instead of a table.
    #[arg(long, global = true)]
    json: bool,
    /// The store a run would use: says whether its disk holds a two-bit
    /// table kept on disk (`bfs --memory`).
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
}

pub(super) fn run(args: InfoArgs) -> Result<()> {
    args.game.visit(InfoCommand {
        json: args.json,
        store: args.store,
    })
}

struct InfoCommand {
    json: bool,
    store: Option<PathBuf>,
}

/// Bytes of the table `algorithm` needs for `space`.
fn table_bytes<S: Space>(space: &S, algorithm: Algorithm) -> u64 {
    space.size().div_ceil(64 / algorithm.bits_per_state()) * 8
}

impl SpaceVisitor for InfoCommand {
    type Output = ();

    fn visit<S: Space + Picture>(self, space: &S) -> Result<()> {
        // Computed, not listed: `info` allocates no table and no block list.
        let BlockShape {
            count: blocks,
            longest: largest_block,
        } = space.block_shape();
        let one_bit_bfs = space.has_layering();
        let algorithms: Vec<Algorithm> = [
            Algorithm::TwoBitBfs,
            Algorithm::OneBitBfs,
            Algorithm::OneBitReachability,
        ]
        .into_iter()
        .filter(|&a| a != Algorithm::OneBitBfs || one_bit_bfs)
        .collect();
        let available = available_memory();
        // Whether the GPU backend can run the two-bit BFS, decided without
        // opening a device.
        let gpu = bitsolve::backend::gpu::gpu_program(space).err();
        // Two-bit BFS with its table on disk (`bfs --memory`).
        let two_bit_table = table_bytes(space, Algorithm::TwoBitBfs);
        let free = self.store.as_deref().and_then(free_disk);
        if self.json {
            let memory: serde_json::Map<String, serde_json::Value> = algorithms
                .iter()
                .map(|&a| (a.name().to_string(), json!(table_bytes(space, a))))
                .collect();
            println!(
                "{}",
                json!({
                    "game": space.descriptor(),
                    "states": space.size(),
                    "blocks": blocks,
                    "largest_block": largest_block,
                    "table_bytes": memory,
                    "algorithms": algorithms.iter().map(|a| a.name()).collect::<Vec<_>>(),
                    "gpu": gpu.is_none(),
                    "gpu_unavailable_because": gpu.as_ref().map(|e| e.to_string()),
                    "available_memory": available,
                    "disk_mode": {
                        "table_bytes": two_bit_table,
                        "reserve_bytes": successors_reserve(space.size()),
                        "disk_bytes": disk_needed(space.size()),
                        "min_memory_bytes": MIN_MEMORY,
                        "store_free_bytes": free,
                        "fits": free.map(|free| free >= disk_needed(space.size())),
                    },
                    "details": space.details().into_iter().map(|(name, value)| (name, json!(value))).collect::<serde_json::Map<String, serde_json::Value>>(),
                })
            );
            return Ok(());
        }
        println!("game          {}", space.descriptor());
        println!("states        {} ranks", group_digits(space.size()));
        println!(
            "blocks        {} (largest {} ranks)",
            group_digits(blocks),
            group_digits(largest_block)
        );
        for (name, value) in space.details() {
            println!("{name:<13} {value}");
        }
        for algorithm in [
            Algorithm::TwoBitBfs,
            Algorithm::OneBitBfs,
            Algorithm::OneBitReachability,
        ] {
            let name = format!("--algo {}", algorithm.name());
            if algorithms.contains(&algorithm) {
                println!("{name:<13} {} table", bytes(table_bytes(space, algorithm)));
            } else {
                println!("{name:<13} not available (no move-alternation property)");
            }
        }
        match &gpu {
            None => println!(
                "--backend gpu {} of device memory (two-bit BFS)",
                bytes(table_bytes(space, Algorithm::TwoBitBfs))
            ),
            Some(reason) => println!("--backend gpu not available: {reason}"),
        }
        if let Some(available) = available {
            println!(
                "memory        {} available; larger tables need --store DIR",
                bytes(available)
            );
        }
        println!(
            "--memory SIZE two-bit BFS with its table on disk in --store DIR: {} of disk ({} of table, {} kept for waiting successors), {} to all of the table in memory",
            bytes(disk_needed(space.size())),
            bytes(two_bit_table),
            bytes(successors_reserve(space.size())),
            bytes(MIN_MEMORY)
        );
        if let (Some(dir), Some(free)) = (&self.store, free) {
            let verdict = if free >= disk_needed(space.size()) {
                "enough"
            } else {
                "not enough: a run there is refused before it starts"
            };
            println!(
                "disk          {} free in {}: {verdict}",
                bytes(free),
                dir.display()
            );
        }
        Ok(())
    }
}
