//! A minimal HTTP/1.1 client over a TCP stream, for the explorer's tests:
//! it sends the request target exactly as given (path tricks included,
//! which a URL library would normalise away) and, through [`Raw`], bytes
//! no well-behaved client sends (stalled heads and bodies, huge headers);
//! and `bitsolve serve` as a child process that is stopped when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct Response {
    pub status: u16,
    /// Header names in lower case, with their values.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// Sends one request (`Connection: close`) and reads the whole response.
pub fn request(address: SocketAddr, method: &str, target: &str, body: Option<&str>) -> Response {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut head =
        format!("{method} {target} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n");
    if let Some(body) = body {
        head.push_str("Content-Type: application/json\r\n");
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    if let Some(body) = body {
        stream.write_all(body.as_bytes()).unwrap();
    }
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader
        .read_line(&mut status_line)
        .unwrap_or_else(|e| panic!("no answer to {method} {target} ({e}): did the server die?"));
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            panic!("no status in {status_line:?} for {method} {target}: did the server die?")
        });
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    // A server may keep the connection open despite `Connection: close`
    // (chromedriver does): read what Content-Length says when it says.
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok());
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = match length {
        Some(length) if !chunked => {
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            body
        }
        _ => {
            let mut raw = Vec::new();
            reader.read_to_end(&mut raw).unwrap();
            if chunked { dechunk(&raw) } else { raw }
        }
    };
    Response {
        status,
        headers,
        body,
    }
}

pub fn get(address: SocketAddr, target: &str) -> Response {
    request(address, "GET", target, None)
}

/// The body of a chunked transfer.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size");
        let size_text = std::str::from_utf8(&raw[..end]).unwrap();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap();
        raw = &raw[end + 2..];
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&raw[..size]);
        raw = &raw[size + 2..];
    }
}

/// Percent-encodes a query value.
pub fn encode(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A query string from (name, value) pairs.
pub fn query(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(name, value)| format!("{}={}", encode(name), encode(value)))
        .collect::<Vec<_>>()
        .join("&")
}

/// `bitsolve serve` on a free loopback port, over `stores`; killed when
/// dropped.
pub struct Server {
    child: Child,
    pub address: SocketAddr,
}

impl Server {
    pub fn start(stores: &[&Path]) -> Server {
        Server::start_with(stores, &[])
    }

    /// The server with more flags (`--client-timeout 1`).
    pub fn start_with(stores: &[&Path], flags: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_bitsolve"));
        command.args(["serve", "--port", "0"]).args(flags);
        for store in stores {
            command.arg("--store").arg(store);
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "bitsolve serve: listening on http://127.0.0.1:PORT/"
        let address = line
            .trim()
            .rsplit("http://")
            .next()
            .and_then(|rest| rest.trim_end_matches('/').parse().ok())
            .unwrap_or_else(|| panic!("no address in the first line {line:?}"));
        Server { child, address }
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// True while the server process runs.
    pub fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// The most memory the server process has held (VmHWM), in KiB.
    pub fn peak_memory_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in /proc/PID/status")
    }
}

/// A raw connection to a server: bytes in, and what comes back.
pub struct Raw {
    pub stream: TcpStream,
}

impl Raw {
    pub fn connect(address: SocketAddr) -> Raw {
        Raw {
            stream: TcpStream::connect(address).unwrap(),
        }
    }

    /// Sends `bytes`; false when the server has closed the connection
    /// (as it may, part way through an oversized request).
    pub fn send(&mut self, bytes: &[u8]) -> bool {
        self.stream.write_all(bytes).is_ok()
    }

    /// What the server sends within `patience` until it closes the
    /// connection (`None` if it neither answers nor closes in that time).
    pub fn read_until_closed(&mut self, patience: Duration) -> Option<Vec<u8>> {
        self.stream.set_read_timeout(Some(patience)).unwrap();
        let mut received = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            match self.stream.read(&mut buffer) {
                Ok(0) => return Some(received),
                Ok(n) => received.extend_from_slice(&buffer[..n]),
                // Reset after an answer: as good as closed.
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                    return Some(received);
                }
                Err(_) => return None,
            }
        }
    }

    /// The status of the first answer within `patience`, `None` if none
    /// came (closed or still waiting).
    pub fn status(&mut self, patience: Duration) -> Option<u16> {
        self.stream.set_read_timeout(Some(patience)).unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n") {
            match self.stream.read(&mut byte) {
                Ok(1) => head.push(byte[0]),
                _ => return None,
            }
        }
        String::from_utf8_lossy(&head)
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()
    }

    /// Whether the server still holds the connection open: nothing to
    /// read, and not closed.
    pub fn open(&mut self) -> bool {
        self.stream.set_nonblocking(true).unwrap();
        let mut byte = [0u8; 1];
        let open = matches!(self.stream.peek(&mut byte), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
        self.stream.set_nonblocking(false).unwrap();
        open
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How the clients of a [`Crowd`] behave.
#[derive(Clone, Copy, Debug)]
pub enum Pace {
    /// Each sends one byte of a request head every step and never
    /// finishes it (a slowloris).
    Trickle,
    /// Each sends a whole request every `every` steps on a kept-alive
    /// connection, reading what comes back, and is idle in between.
    KeepAlive { every: usize },
}

/// `count` clients on a thread of their own, each reopening its
/// connection as soon as the server closes it, until dropped.
pub struct Crowd {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// One client of a crowd: its connection (`None` while it could not
/// connect) and how much of its head it has sent.
struct Member {
    stream: Option<TcpStream>,
    sent: usize,
}

impl Member {
    fn open(address: SocketAddr) -> Member {
        let stream = TcpStream::connect_timeout(&address, Duration::from_secs(1)).ok();
        if let Some(stream) = &stream {
            stream.set_nonblocking(true).unwrap();
        }
        Member { stream, sent: 0 }
    }

    /// Reads whatever came back; false once the server has closed.
    fn drain(stream: &mut TcpStream) -> bool {
        let mut buffer = [0u8; 16 * 1024];
        loop {
            match stream.read(&mut buffer) {
                Ok(0) => return false,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return true,
                Err(_) => return false,
            }
        }
    }

    /// One step of `pace`; false once the server has closed.
    fn step(&mut self, pace: Pace, round: usize, head: &[u8]) -> bool {
        let Some(stream) = &mut self.stream else {
            return false;
        };
        if !Member::drain(stream) {
            return false;
        }
        let bytes = match pace {
            // The head never ends: after the request line, a header line
            // over and over.
            Pace::Trickle => {
                const FILLER: &[u8] = b"X-Slow: a\r\n";
                let byte = match head.get(self.sent) {
                    Some(&byte) => byte,
                    None => FILLER[(self.sent - head.len()) % FILLER.len()],
                };
                self.sent += 1;
                vec![byte]
            }
            Pace::KeepAlive { every } if round.is_multiple_of(every) => head.to_vec(),
            Pace::KeepAlive { .. } => return true,
        };
        // A request this small goes whole into an empty send buffer.
        match stream.write_all(&bytes) {
            Ok(()) => true,
            Err(e) => e.kind() == std::io::ErrorKind::WouldBlock,
        }
    }
}

impl Crowd {
    /// Starts the crowd: every client connects, then acts every `step`.
    pub fn start(address: SocketAddr, count: usize, pace: Pace, step: Duration) -> Crowd {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        let head: &[u8] = match pace {
            Pace::Trickle => b"GET /api/games HTTP/1.1\r\n",
            Pace::KeepAlive { .. } => b"GET /api/games HTTP/1.1\r\nHost: test\r\n\r\n",
        };
        let thread = std::thread::spawn(move || {
            let mut members: Vec<Member> = (0..count).map(|_| Member::open(address)).collect();
            let mut round = 0;
            while !stopped.load(std::sync::atomic::Ordering::Relaxed) {
                for member in &mut members {
                    if !member.step(pace, round, head) {
                        *member = Member::open(address);
                    }
                }
                round += 1;
                std::thread::sleep(step);
            }
        });
        Crowd {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Crowd {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
