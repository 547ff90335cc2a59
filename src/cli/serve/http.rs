//! Requests and replies: a request line becomes a route and its decoded
//! query parameters; every answer is a [`Reply`] (JSON for the API, and the
//! embedded files). Paths are matched against a fixed list, never mapped
//! onto the file system, so no path a client sends can name a file.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::{Value as Json, json};

use super::stores::Stores;
use super::{api, static_files};

/// The longest request target (path and query) answered: positions and
/// options are short, so anything longer is a mistake or an attack.
pub const MAX_URL_BYTES: usize = 8 * 1024;
/// Most query parameters in one request.
const MAX_PARAMETERS: usize = 32;

pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(status: u16, value: &Json) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: value.to_string().into_bytes(),
        }
    }

    pub fn ok(value: &Json) -> Reply {
        Reply::json(200, value)
    }
}

/// An API error: the status and a sentence for the client.
#[derive(Debug)]
pub struct Failure {
    pub status: u16,
    pub message: String,
}

impl Failure {
    pub fn bad_request(message: impl Into<String>) -> Failure {
        Failure {
            status: 400,
            message: message.into(),
        }
    }

    pub fn not_found(message: impl Into<String>) -> Failure {
        Failure {
            status: 404,
            message: message.into(),
        }
    }

    fn reply(&self) -> Reply {
        Reply::json(self.status, &json!({ "error": self.message }))
    }
}

/// A library error caused by what the request asked (an unknown game, a
/// malformed position, a layer the store lacks) is the client's: 400;
/// a damaged or unreadable store is the server's: 500.
impl From<crate::Error> for Failure {
    fn from(error: crate::Error) -> Failure {
        use crate::Error;
        let status = match &error {
            Error::BadStore { .. } | Error::Io { .. } | Error::OutOfMemory { .. } => 500,
            _ => 400,
        };
        Failure {
            status,
            message: error.to_string(),
        }
    }
}

/// A request's decoded query parameters, each name at most once.
pub struct Parameters {
    values: BTreeMap<String, String>,
}

impl Parameters {
    /// Parses `a=1&b=two`: percent escapes and `+` decoded, as forms send
    /// them; a name given twice, bad escapes or bytes that are not UTF-8
    /// are refused.
    pub fn parse(query: &str) -> Result<Parameters, Failure> {
        let mut values = BTreeMap::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let (name, value) = (decode(name)?, decode(value)?);
            if values.len() == MAX_PARAMETERS {
                return Err(Failure::bad_request(format!(
                    "more than {MAX_PARAMETERS} query parameters"
                )));
            }
            if values.insert(name.clone(), value).is_some() {
                return Err(Failure::bad_request(format!(
                    "parameter '{name}' is given twice"
                )));
            }
        }
        Ok(Parameters { values })
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The parameter, or a 400 naming it.
    pub fn required(&self, name: &str) -> Result<&str, Failure> {
        self.get(name)
            .ok_or_else(|| Failure::bad_request(format!("give the parameter '{name}'")))
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// Percent-decoding of one query component.
fn decode(text: &str) -> Result<String, Failure> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| Failure::bad_request("a bad percent escape in the query"))?;
                out.push(hex);
                i += 2;
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| Failure::bad_request("the query is not UTF-8"))
}

/// The reply to `method` on `url` (the request target as sent).
pub fn answer(stores: &Stores, method: &tiny_http::Method, url: &str) -> Reply {
    if url.len() > MAX_URL_BYTES {
        let message = format!("the request target is longer than {MAX_URL_BYTES} bytes");
        return Failure {
            status: 414,
            message,
        }
        .reply();
    }
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    // Only reading: HEAD is answered like GET (tiny_http leaves out the
    // body), anything else is refused before the route is looked at.
    if !matches!(method, tiny_http::Method::Get | tiny_http::Method::Head) {
        return Failure {
            status: 405,
            message: format!("{method} is not allowed: the explorer only reads"),
        }
        .reply();
    }
    if let Some(file) = static_files::find(path) {
        return Reply {
            status: 200,
            content_type: file.content_type,
            body: file.body.as_bytes().to_vec(),
        };
    }
    let Some(endpoint) = api::endpoint(path) else {
        return Failure::not_found(format!("no such page or endpoint: {}", printable(path)))
            .reply();
    };
    let parameters = match Parameters::parse(query) {
        Ok(parameters) => parameters,
        Err(failure) => return failure.reply(),
    };
    // The endpoints validate what they read, so a panic is a bug; it still
    // must not take a worker down, and the client hears of it.
    match catch_unwind(AssertUnwindSafe(|| endpoint(stores, &parameters))) {
        Ok(Ok(value)) => Reply::ok(&value),
        Ok(Err(failure)) => failure.reply(),
        Err(_) => Failure {
            status: 500,
            message: "the server failed on this request (a bug; the server goes on)".into(),
        }
        .reply(),
    }
}

/// `text` cut short and with control characters escaped, for a message.
pub fn printable(text: &str) -> String {
    let cut: String = text.chars().take(100).collect();
    let cut = crate::error::escape_controls(&cut);
    if text.chars().count() > 100 {
        format!("{cut}...")
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_decode_and_refuse_what_is_not_a_query() {
        let found = Parameters::parse("game=fox-geese&position=F%2Eg+x&flag").unwrap();
        assert_eq!(found.get("game"), Some("fox-geese"));
        assert_eq!(found.get("position"), Some("F.g x"));
        assert_eq!(found.get("flag"), Some(""));
        assert!(Parameters::parse("a=1&a=2").is_err());
        assert!(Parameters::parse("a=%zz").is_err());
        assert!(Parameters::parse("a=%2").is_err());
        assert!(Parameters::parse("a=%ff").is_err());
        let many: Vec<String> = (0..40).map(|i| format!("p{i}=1")).collect();
        assert!(Parameters::parse(&many.join("&")).is_err());
    }
}
