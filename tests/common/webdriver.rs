//! A small W3C WebDriver client (over [`super::http`]) driving headless
//! Chromium through chromedriver, for the explorer's browser test.

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::http;

/// The key W3C WebDriver gives an element reference under.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// chromedriver and the Chromium binary, if both are installed.
pub fn find_browser() -> Option<(PathBuf, PathBuf)> {
    let driver = super::skip::on_path("chromedriver")?;
    let browser = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| super::skip::on_path(name))?;
    Some((driver, browser))
}

/// A chromedriver process and one browser session; both end when dropped.
pub struct Browser {
    driver: Child,
    address: SocketAddr,
    session: String,
}

impl Browser {
    /// Starts chromedriver on a free port and a headless Chromium session.
    pub fn start(driver: &PathBuf, browser: &PathBuf) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let address: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let mut browser_process = Browser {
            driver: child,
            address,
            session: String::new(),
        };
        let started = Instant::now();
        loop {
            if std::net::TcpStream::connect(address).is_ok()
                && http::get(address, "/status").json()["value"]["ready"] == true
            {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "chromedriver did not get ready"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": browser,
                "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                         "--disable-gpu", "--window-size=1280,1000"],
            },
        }}});
        let created = browser_process.call("POST", "/session", Some(capabilities));
        browser_process.session = created["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {created}"))
            .to_string();
        browser_process
    }

    /// A WebDriver command; its `value`, or a panic with the driver's error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let body = body.map(|b| b.to_string());
        let response = http::request(self.address, method, path, body.as_deref());
        let json = response.json();
        assert!(
            response.status == 200,
            "WebDriver {method} {path}: {} {json}",
            response.status
        );
        json["value"].clone()
    }

    fn session_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    pub fn open(&self, url: &str) {
        self.session_call("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page.
    pub fn run(&self, script: &str, args: Value) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// The elements matching a CSS selector, as references.
    pub fn find_all(&self, selector: &str) -> Vec<String> {
        let found = self.session_call(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": selector})),
        );
        found
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e[ELEMENT].as_str().unwrap().to_string())
            .collect()
    }

    /// The page as the browser draws it: a PNG file's bytes.
    pub fn screenshot(&self) -> Vec<u8> {
        let encoded = self.session_call("GET", "/screenshot", None);
        decode_base64(encoded.as_str().expect("a screenshot in base64"))
    }

    pub fn click(&self, element: &str) {
        self.session_call(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        );
    }

    pub fn attribute(&self, element: &str, name: &str) -> Option<String> {
        self.session_call("GET", &format!("/element/{element}/attribute/{name}"), None)
            .as_str()
            .map(str::to_string)
    }

    /// Waits (up to 20 s) until `script` returns something truthy in the
    /// page, and returns it.
    pub fn wait_for(&self, what: &str, script: &str) -> Value {
        let started = Instant::now();
        loop {
            let value = self.run(script, json!([]));
            let truthy = match &value {
                Value::Null | Value::Bool(false) => false,
                Value::String(s) => !s.is_empty(),
                Value::Number(n) => n.as_f64() != Some(0.0),
                _ => true,
            };
            if truthy {
                return value;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the page never showed {what}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let address = self.address;
            let _ = std::panic::catch_unwind(|| http::request(address, "DELETE", &path, None));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (RFC 4648, padded), as WebDriver sends a screenshot;
/// the tests need no crate for one decoder.
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {:?}", c as char),
        }
    };
    let symbols: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .collect();
    let mut bytes = Vec::with_capacity(symbols.len() * 3 / 4);
    for group in symbols.chunks(4) {
        let bits = group
            .iter()
            .enumerate()
            .fold(0u32, |bits, (i, &c)| bits | value(c) << (18 - 6 * i));
        // Four symbols carry three bytes; a last group of two or three,
        // one or two.
        bytes.extend_from_slice(&bits.to_be_bytes()[1..group.len()]);
    }
    bytes
}

#[test]
fn base64_decodes_as_rfc_4648_says() {
    // RFC 4648, section 10.
    for (plain, encoded) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(decode_base64(encoded), plain.as_bytes());
    }
}
