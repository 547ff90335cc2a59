//! The explorer's request reader fuzzed through its socket: valid requests
//! to every endpoint, damaged (bytes flipped, cut short, lines repeated,
//! dropped or swapped, awkward tokens written in), and random bytes, sent
//! to one `bitsolve serve` over a solved store.
//!
//! The property: every request is answered or its connection closed, never
//! left hanging; an answer is HTTP with a status below 500 (the server
//! answers 500 only where an endpoint panicked, which is a bug) and, for
//! the API, an error of one line; and the server keeps answering
//! legitimate requests throughout.

use std::net::SocketAddr;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::common::fuzzing::fuzz;
use crate::common::http::{Raw, Server, get};
use crate::common::mutate::inputs;
use crate::common::{ScratchDir, stdout_of};

/// How long one damaged request may go unanswered before the test calls
/// it hanging: longer than the server's head deadline.
const PATIENCE: Duration = Duration::from_secs(15);

/// Well-formed requests: the seeds the damage starts from.
fn seeds() -> Vec<String> {
    let targets = [
        "/",
        "/api/games",
        "/api/stores",
        "/api/layers?store=0",
        "/api/start?game=dodgem&n=3",
        "/api/start?game=pancake&n=6",
        "/api/position?game=dodgem&store=0&position=B../B../.RR:blue",
        "/api/position?game=pancake&n=6&position=2,1,3,4,5,6",
        "/api/position?game=pancake&n=6&rank=17",
        "/api/position?game=pancake&n=4&burned=true&position=-1,2,3,4",
        "/api/position?game=tic-tac-toe&position=X../.O./...",
        "/api/position?game=hex&size=3&position=.../.../...",
        "/api/position?game=harary&shape=domino&size=3&torus=true&position=.../.../...",
        "/api/games?a=%41%zz",
    ];
    let mut seeds: Vec<String> = targets
        .iter()
        .map(|target| {
            format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        })
        .collect();
    seeds.push("HEAD /api/games HTTP/1.1\r\nHost: localhost\r\n\r\n".into());
    seeds.push("GET /api/games HTTP/1.0\r\n\r\n".into());
    seeds.push(
        "GET /api/games HTTP/1.1\r\nHost: a\r\n\r\nGET /api/stores HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
            .into(),
    );
    seeds.push("POST /api/games HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}".into());
    seeds.push(
        "GET /api/games HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".into(),
    );
    seeds
}

/// Sends `bytes` on a connection of its own, closes the sending side, and
/// checks what comes back.
fn answered_soundly(address: SocketAddr, bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut raw = Raw::connect(address);
    raw.send(bytes);
    let _ = raw.stream.shutdown(std::net::Shutdown::Write);
    let Some(reply) = raw.read_until_closed(PATIENCE) else {
        return Err(TestCaseError::fail(format!(
            "no answer and the connection still open after {PATIENCE:?}"
        )));
    };
    if reply.is_empty() {
        // Closed without a word: what a server does with bytes that are
        // not a request.
        return Ok(());
    }
    let text = String::from_utf8_lossy(&reply);
    prop_assert!(
        text.starts_with("HTTP/1."),
        "not an HTTP answer: {:?}",
        text
    );
    // A pipelined request gets one answer each: check every status line.
    for head in text.split("HTTP/1.").skip(1) {
        let Some(status) = head.get(2..5).and_then(|s| s.parse::<u16>().ok()) else {
            continue;
        };
        prop_assert!(
            (200..500).contains(&status),
            "status {} for {:?}: {:?}",
            status,
            String::from_utf8_lossy(bytes),
            text
        );
    }
    if let Some((_, body)) = text.split_once("\r\n\r\n")
        && body.starts_with("{\"error\"")
    {
        let line = body.lines().next().unwrap_or("");
        prop_assert!(!line.is_empty(), "an empty error: {:?}", text);
    }
    Ok(())
}

#[test]
fn the_explorer_answers_damaged_requests_soundly() {
    let dir = ScratchDir::new("http-fuzz", "store");
    let store = dir.join("dodgem");
    let store = store.to_str().unwrap();
    stdout_of(&[
        "retro",
        "dodgem",
        "--n",
        "3",
        "--distances",
        "--store",
        store,
    ]);
    let mut server = Server::start_with(&[std::path::Path::new(store)], &["--client-timeout", "2"]);
    let address = server.address;
    // The seeds themselves are answered (a test of nothing would pass).
    for seed in seeds() {
        answered_soundly(address, seed.as_bytes()).unwrap_or_else(|e| panic!("{seed:?}: {e}"));
    }
    let alphabet = "GETHPOS /?&=%.,:;-_0123456789abcdefgnprstxyzAB\r\n";
    fuzz(
        "explorer requests",
        1500,
        inputs(seeds(), alphabet, 200),
        |bytes| answered_soundly(address, &bytes),
    );
    assert!(server.running(), "the server stopped");
    assert_eq!(get(address, "/api/games").status, 200);
}
