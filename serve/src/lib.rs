//! `bitsolve serve`: the position explorer. An HTTP server (hyper on
//! tokio, loopback by default) answers a JSON API over the stores given on
//! the command line, read-only, and serves the single-page explorer
//! embedded in the binary (`web/explorer/`). No client can hold it: slow,
//! idle and oversized requests meet hyper's limits and timeouts, and the
//! table work runs on a bounded pool of threads, off the reactor.
//!
//! Imports among these modules point one way, from the transport down to
//! what every endpoint reads: `server` → `connections`, `server` → `http` → `api` → `stores`,
//! `positional` → `request`.
//!
//! - [`server`]: connections, limits and timeouts; the blocking pool.
//! - [`connections`]: which connections are held, and which gives way
//!   when a new one needs room.
//! - [`http`]: a request target becomes a route and its parameters; every
//!   answer a reply.
//! - [`api`]: the endpoints, each a function from parameters to JSON.
//! - [`positional`]: tic-tac-toe, Harary's games and Hex, solved per
//!   request (they have no store).
//! - [`stores`]: the stores served and their table files, and the
//!   library's cache of tables read ([`bitsolve::database::TableCache`]).
//! - [`request`]: decoded query parameters, and the failure an endpoint
//!   answers with.
//! - [`definitions`]: the definition files the server was started with,
//!   the only files a request may open as a game.
//! - [`static_files`]: the page, its script and its style.

mod api;
mod connections;
mod definitions;
mod http;
mod positional;
mod request;
mod server;
mod static_files;
mod stores;

use std::io::Write;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use bitsolve::error::{Error, Result};
use stores::Stores;

/// What the server serves and how: the flags of `bitsolve serve`.
#[derive(Clone, Debug)]
pub struct Options {
    /// Store directories to serve, read only.
    pub stores: Vec<PathBuf>,
    /// Puzzle definitions clients may open by file name; no request opens
    /// any other file.
    pub definitions: Vec<PathBuf>,
    /// The port to listen on (0: any free port).
    pub port: u16,
    /// The address to listen on.
    pub bind: IpAddr,
    /// Worker threads answering requests.
    pub threads: usize,
    /// Seconds a client may take to send a request's head, and stay idle
    /// between requests.
    pub client_timeout: u64,
    /// Most memory, in MiB, the tables read may hold together (default:
    /// half the memory available at start).
    pub table_memory: Option<u64>,
    /// Most connections held at once (default [`DEFAULT_CONNECTIONS`]).
    pub max_connections: usize,
    /// Most connections held at once for one client address (default
    /// [`DEFAULT_CLIENT_CONNECTIONS`]).
    pub max_client_connections: usize,
}

pub use server::{DEFAULT_CLIENT_CONNECTIONS, DEFAULT_CONNECTIONS};

/// Most worker threads `--threads` may ask for.
const MAX_WORKERS: usize = 64;
/// Most seconds `--client-timeout` may give.
const MAX_CLIENT_TIMEOUT: u64 = 3600;
/// Most connections `--max-connections` may ask for: each holds a file
/// descriptor and up to twice [`server::MAX_HEAD_BYTES`] of buffers.
const MAX_CONNECTIONS: usize = 16384;

/// Serves until the process ends: prints the address it listens on, then
/// answers requests. Options out of range, stores or definitions that
/// cannot be read and an address that cannot be bound are refused first.
pub fn run(args: Options) -> Result<()> {
    if args.threads == 0 || args.threads > MAX_WORKERS {
        return Err(Error::InvalidParameter(format!(
            "--threads must be between 1 and {MAX_WORKERS}"
        )));
    }
    if args.client_timeout == 0 || args.client_timeout > MAX_CLIENT_TIMEOUT {
        return Err(Error::InvalidParameter(format!(
            "--client-timeout must be between 1 and {MAX_CLIENT_TIMEOUT} seconds"
        )));
    }
    if args.max_connections == 0 || args.max_connections > MAX_CONNECTIONS {
        return Err(Error::InvalidParameter(format!(
            "--max-connections must be between 1 and {MAX_CONNECTIONS}"
        )));
    }
    if args.max_client_connections == 0 || args.max_client_connections > args.max_connections {
        return Err(Error::InvalidParameter(format!(
            "--max-client-connections must be between 1 and --max-connections ({})",
            args.max_connections
        )));
    }
    if args.table_memory == Some(0) {
        return Err(Error::InvalidParameter(
            "--table-memory must be at least 1 (MiB)".into(),
        ));
    }
    let table_memory = args.table_memory.map(|mib| mib.saturating_mul(1 << 20));
    let definitions = definitions::Definitions::open(&args.definitions)?;
    let stores = Arc::new(Stores::open(&args.stores, table_memory, definitions)?);
    let address = SocketAddr::new(args.bind, args.port);
    let listener = TcpListener::bind(address)
        .map_err(|e| Error::InvalidParameter(format!("cannot listen on {address}: {e}")))?;
    let bound = listener
        .local_addr()
        .map_err(|e| Error::InvalidParameter(format!("cannot listen on {address}: {e}")))?;
    // One line a test (or a person) reads the address from.
    println!("bitsolve serve: listening on http://{bound}/");
    std::io::stdout().flush().ok();
    let limits = server::Limits {
        client_timeout: Duration::from_secs(args.client_timeout),
        threads: args.threads,
        caps: connections::Caps {
            total: args.max_connections,
            per_client: args.max_client_connections,
        },
    };
    server::serve(listener, stores, limits)
}
