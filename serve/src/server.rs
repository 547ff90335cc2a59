//! The transport: HTTP/1.1 on tokio and hyper, held against clients that
//! are slow, idle, many, or send too much. HTTP is hyper's; which
//! connections the server holds is [`super::connections`]'.
//!
//! - A client has `client_timeout` to send a whole request head, however
//!   it trickles it (hyper's header read timeout runs from the head's
//!   first read, not from each byte); the same timeout ends a kept-alive
//!   connection that sends nothing.
//! - A head is at most [`MAX_HEAD_BYTES`] and [`MAX_HEADERS`] headers
//!   (hyper answers 431 beyond, and closes the connection).
//! - A request body is never read: the explorer only reads, so a request
//!   that announces one is answered at once (405 for a method other than
//!   GET or HEAD, 413 for a GET with a body) and its connection closed. A
//!   client that stalls in its body holds nothing.
//! - Connections are accepted as soon as they arrive, never left in the
//!   listen queue. At most `caps.total` are held, and `caps.per_client`
//!   from one client address; a new one beyond either takes the place of
//!   the connection that has waited longest for a head (a stalled head or
//!   an idle kept-alive connection), and is refused with a 503 only when
//!   every one is answering a request. Each is held at most
//!   [`CONNECTION_LIFETIME`].
//! - The table work (reading and checking a table can take seconds) runs
//!   on a blocking pool of `threads` threads, never on the reactor, so a
//!   slow answer delays no other client's I/O; an answer that takes longer
//!   than [`ANSWER_TIMEOUT`] (queue included) is a 503.

use std::convert::Infallible;
use std::future::{Future, poll_fn};
use std::net::TcpListener;
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpStream;

use super::connections::{Caps, Connections, Refusal, Slot};
use super::http::{self, Reply};
use super::request::Failure;
use super::stores::Stores;
use bitsolve::error::{Error, Result};

/// Connections held at once by default: enough for many browser tabs (a
/// browser opens about six per server), few enough that file descriptors
/// and buffers stay bounded.
pub const DEFAULT_CONNECTIONS: usize = 256;
/// Connections held at once for one client address by default: a quarter
/// of the whole, room for several people behind one address.
pub const DEFAULT_CLIENT_CONNECTIONS: usize = 64;
/// The longest request head (request line and headers) read.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;
/// Most headers in one request.
pub const MAX_HEADERS: usize = 64;
/// A connection is closed after this long (once its request in flight is
/// answered, or at once [`CLOSING_GRACE`] later): a client that reads its
/// answers too slowly cannot keep one for ever. Browsers reconnect.
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(120);
pub const CLOSING_GRACE: Duration = Duration::from_secs(10);
/// The longest an answer may take, waiting for a thread included.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);
/// The reactor's threads: they only move bytes.
const REACTOR_THREADS: usize = 2;

pub struct Limits {
    /// How long a client may take to send a request's head.
    pub client_timeout: Duration,
    /// Threads answering requests (reading tables, solving positions).
    pub threads: usize,
    /// Connections held at once, in all and per client address.
    pub caps: Caps,
}

/// Answers requests on `listener` until the process ends.
pub fn serve(listener: TcpListener, stores: Arc<Stores>, limits: Limits) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(REACTOR_THREADS)
        .max_blocking_threads(limits.threads)
        .enable_io()
        .enable_time()
        .thread_name("bitsolve-serve")
        .build()
        .map_err(|e| Error::io("cannot start the server's threads", e))?;
    runtime.block_on(accept(listener, stores, limits))
}

async fn accept(listener: TcpListener, stores: Arc<Stores>, limits: Limits) -> Result<()> {
    let listen_error = |e| Error::io("cannot listen", e);
    listener.set_nonblocking(true).map_err(listen_error)?;
    let listener = tokio::net::TcpListener::from_std(listener).map_err(listen_error)?;
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.client_timeout)
        .max_header_size(MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS)
        .max_buf_size(2 * MAX_HEAD_BYTES);
    let builder = Arc::new(builder);
    let connections = Connections::new(limits.caps);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                // Out of file descriptors, or a connection reset before it
                // was accepted: the server goes on, after a breath.
                eprintln!("bitsolve serve: cannot accept a connection: {error}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        match connections.admit(peer.ip()) {
            Ok(slot) => {
                tokio::spawn(serve_connection(
                    stream,
                    slot,
                    builder.clone(),
                    stores.clone(),
                ));
            }
            Err(refusal) => refuse(stream, &refusal),
        }
        // The new connection reads first: a request sent with the connection
        // is then answering, never mistaken for a waiting one, before the
        // next connection may need a place.
        tokio::task::yield_now().await;
    }
}

/// Serves one connection until it ends, outlives [`CONNECTION_LIFETIME`],
/// or must give its place to another.
async fn serve_connection(
    stream: TcpStream,
    slot: Slot,
    builder: Arc<http1::Builder>,
    stores: Arc<Stores>,
) {
    let slot = Arc::new(slot);
    let service = {
        let slot = slot.clone();
        service_fn(move |request| {
            let (slot, stores) = (slot.clone(), stores.clone());
            async move {
                let _answering = slot.answering();
                respond(stores, request).await
            }
        })
    };
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    let mut connection = pin!(connection);
    // Errors are the client's (a bad head, a reset, a timeout): hyper has
    // answered what can be answered. Dropping the connection closes it.
    let lifetime = tokio::time::timeout(
        CONNECTION_LIFETIME,
        first_of(connection.as_mut(), slot.closed()),
    );
    if lifetime.await.is_err() {
        connection.as_mut().graceful_shutdown();
        let grace = first_of(connection.as_mut(), slot.closed());
        let _ = tokio::time::timeout(CLOSING_GRACE, grace).await;
    }
}

/// Waits until either future ends.
async fn first_of(a: impl Future, b: impl Future) {
    let (mut a, mut b) = (pin!(a), pin!(b));
    poll_fn(|context| {
        if a.as_mut().poll(context).is_ready() || b.as_mut().poll(context).is_ready() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await
}

/// Answers a connection there is no place for with a 503 and closes it.
/// The answer is written at once (a new connection's send buffer takes
/// it whole) or not at all: a client that does not read holds nothing.
fn refuse(stream: TcpStream, refusal: &Refusal) {
    let body = serde_json::json!({ "error": refusal.message() }).to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
    if let Ok(stream) = stream.into_std() {
        let _ = stream.shutdown(std::net::Shutdown::Write);
    }
}

/// Whether a request announces a body (a length above zero, any other
/// length, or a transfer coding).
fn announces_body(request: &Request<Incoming>) -> bool {
    let headers = request.headers();
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get_all(header::CONTENT_LENGTH)
            .iter()
            .any(|length| {
                length
                    .to_str()
                    .ok()
                    .and_then(|l| l.trim().parse::<u64>().ok())
                    != Some(0)
            })
}

/// The answer to one request.
async fn respond(
    stores: Arc<Stores>,
    request: Request<Incoming>,
) -> std::result::Result<Response<Full<Bytes>>, Infallible> {
    let started = Instant::now();
    let target = request
        .uri()
        .path_and_query()
        .map_or("/", |target| target.as_str())
        .to_string();
    let with_body = announces_body(&request);
    let (reply, close) = match http::refused(request.method(), &target, with_body) {
        Some(reply) => (reply, true),
        None => (answer(stores, target).await, false),
    };
    let mut response = Response::new(Full::new(Bytes::from(reply.body)));
    *response.status_mut() = hyper::StatusCode::from_u16(reply.status)
        .unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(reply.content_type),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    let micros = format!("{}us", started.elapsed().as_micros());
    if let Ok(value) = HeaderValue::from_str(&micros) {
        headers.insert("x-response-time", value);
    }
    // A body left unread ends the connection: nothing of it is waited for.
    if close {
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    Ok(response)
}

/// The routed answer to `target`, worked out on the blocking pool.
async fn answer(stores: Arc<Stores>, target: String) -> Reply {
    let work = tokio::task::spawn_blocking(move || http::answer(&stores, &target));
    match tokio::time::timeout(ANSWER_TIMEOUT, work).await {
        Ok(Ok(reply)) => reply,
        Ok(Err(_)) => Failure {
            status: 500,
            message: "the server failed on this request (a bug; the server goes on)".into(),
        }
        .into(),
        Err(_) => Failure {
            status: 503,
            message: format!(
                "no answer within {} s (the server is busy, or the question is too large); try again",
                ANSWER_TIMEOUT.as_secs()
            ),
        }
        .into(),
    }
}
