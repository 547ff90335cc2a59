//! `bitsolve serve`: the position explorer. A small HTTP server (tiny_http,
//! a few worker threads, loopback by default) answers a JSON API over the
//! stores given on the command line, read-only, and serves the single-page
//! explorer embedded in the binary (`web/explorer/`).
//!
//! Imports among these modules point one way, from the transport down to
//! what every endpoint reads: `http` → `api` → `stores`, `positional` →
//! `request`.
//!
//! - [`http`]: a request target becomes a route and its parameters; every
//!   answer a reply.
//! - [`api`]: the endpoints, each a function from parameters to JSON.
//! - [`positional`]: tic-tac-toe, Harary's games and Hex, solved per
//!   request (they have no store).
//! - [`stores`]: the stores served and their table files, and the
//!   library's cache of opened tables ([`crate::database::TableCache`]).
//! - [`request`]: decoded query parameters, and the failure an endpoint
//!   answers with.
//! - [`static_files`]: the page, its script and its style.

mod api;
mod http;
mod positional;
mod request;
mod static_files;
mod stores;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;

use crate::error::{Error, Result};
use http::Reply;
use stores::Stores;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// A store directory to serve (written by `bfs --store`, `solve --store`
    /// or `retro --store`); repeat for several. Read only.
    #[arg(long = "store", value_name = "DIR")]
    stores: Vec<PathBuf>,
    /// The port to listen on (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default is reachable from this
    /// machine only; the API reads only the given stores either way.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Worker threads answering requests.
    #[arg(long, default_value_t = 4)]
    threads: usize,
}

/// Most worker threads `--threads` may ask for.
const MAX_WORKERS: usize = 64;

pub(super) fn run(args: ServeArgs) -> Result<()> {
    if args.threads == 0 || args.threads > MAX_WORKERS {
        return Err(Error::InvalidParameter(format!(
            "--threads must be between 1 and {MAX_WORKERS}"
        )));
    }
    let stores = Arc::new(Stores::open(&args.stores)?);
    let address = SocketAddr::new(args.bind, args.port);
    let server = tiny_http::Server::http(address)
        .map_err(|e| Error::InvalidParameter(format!("cannot listen on {address}: {e}")))?;
    let bound = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| Error::InvalidParameter(format!("cannot listen on {address}")))?;
    // One line a test (or a person) reads the address from.
    println!("bitsolve serve: listening on http://{bound}/");
    std::io::stdout().flush().ok();
    let server = Arc::new(server);
    let workers: Vec<_> = (0..args.threads)
        .map(|_| {
            let (server, stores) = (server.clone(), stores.clone());
            std::thread::spawn(move || serve_requests(&server, &stores))
        })
        .collect();
    for worker in workers {
        let _ = worker.join();
    }
    Ok(())
}

/// A worker: answers requests until the server stops.
fn serve_requests(server: &tiny_http::Server, stores: &Stores) {
    while let Ok(request) = server.recv() {
        let started = Instant::now();
        let reply = http::answer(stores, request.method(), request.url());
        let micros = started.elapsed().as_micros();
        respond(request, reply, micros);
    }
}

/// Sends `reply`, with the time the server spent on it in microseconds.
fn respond(request: tiny_http::Request, reply: Reply, micros: u128) {
    let header = |name: &str, value: &str| {
        tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes())
            .expect("ASCII header names and values")
    };
    let response = tiny_http::Response::from_data(reply.body)
        .with_status_code(reply.status)
        .with_header(header("Content-Type", reply.content_type))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header("X-Response-Time", &format!("{micros}us")));
    // A client that went away is no concern of the server's.
    let _ = request.respond(response);
}
