//! `bitsolve serve`: the flags of the position explorer's server, which
//! lives in its own crate (`bitsolve-serve`) beside this one.

use std::net::IpAddr;
use std::path::PathBuf;

use clap::Args;

use bitsolve::error::Result;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// A store directory to serve (written by `bfs --store`, `solve --store`
    /// or `retro --store`); repeat for several. Read only.
    #[arg(long = "store", value_name = "DIR")]
    stores: Vec<PathBuf>,
    /// A puzzle definition (ksolve/twsearch format) clients may open as
    /// `game=ksolve&file=NAME`, NAME its file name; repeat for several.
    /// No request opens any other file.
    #[arg(long = "definition", value_name = "FILE")]
    definitions: Vec<PathBuf>,
    /// The port to listen on (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default is reachable from this
    /// machine only; the API reads only the given stores either way.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Worker threads answering requests (reading tables, solving
    /// positions); connections themselves wait on none of them.
    #[arg(long, default_value_t = 4)]
    threads: usize,
    /// Seconds a client may take to send a request's head, and stay idle
    /// between requests, before its connection is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    client_timeout: u64,
    /// Most memory, in MiB, that the tables read from the stores may hold
    /// together; past it the tables used least recently are dropped (and
    /// read and checked again when asked for). Default: half the memory
    /// available at start.
    #[arg(long, value_name = "MIB")]
    table_memory: Option<u64>,
    /// Most connections held at once. Past it, a new connection takes the
    /// place of the one that has waited longest for a request (stalled in
    /// its head, or idle between requests); it is refused with a 503 only
    /// when every one is awaiting an answer.
    #[arg(long, value_name = "N", default_value_t = bitsolve_serve::DEFAULT_CONNECTIONS)]
    max_connections: usize,
    /// Most connections held at once from one client address (an IPv6
    /// client by its /64); past it, the client's own connection that has
    /// waited longest gives way, as above.
    #[arg(long, value_name = "N", default_value_t = bitsolve_serve::DEFAULT_CLIENT_CONNECTIONS)]
    max_client_connections: usize,
}

/// Starts the server on the flags' options.
pub(super) fn run(args: ServeArgs) -> Result<()> {
    bitsolve_serve::run(bitsolve_serve::Options {
        stores: args.stores,
        definitions: args.definitions,
        port: args.port,
        bind: args.bind,
        threads: args.threads,
        client_timeout: args.client_timeout,
        table_memory: args.table_memory,
        max_connections: args.max_connections,
        max_client_connections: args.max_client_connections,
    })
}
