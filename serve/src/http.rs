//! Routing: a request target becomes a route and its decoded query
//! parameters ([`super::request`]); every answer is a [`Reply`] (JSON for
//! the API, and the embedded files). Paths are matched against a fixed
//! list, never mapped onto the file system, so no path a client sends can
//! name a file. The connection itself is [`super::server`]'s.

use std::panic::{AssertUnwindSafe, catch_unwind};

use hyper::Method;
use serde_json::{Value as Json, json};

use super::request::{Failure, Parameters, printable};
use super::stores::Stores;
use super::{api, static_files};

/// The longest request target (path and query) answered: positions and
/// options are short, so anything longer is a mistake or an attack.
pub const MAX_URL_BYTES: usize = 8 * 1024;

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

/// An API error as a reply: its status, and `{"error": message}`.
impl From<Failure> for Reply {
    fn from(failure: Failure) -> Reply {
        Reply::json(failure.status, &json!({ "error": failure.message }))
    }
}

/// The reply to a request refused before any work, if it is: a target
/// longer than [`MAX_URL_BYTES`], a method other than GET or HEAD (the
/// explorer only reads), or a request with a body, which is never read.
pub fn refused(method: &Method, target: &str, with_body: bool) -> Option<Reply> {
    let (status, message) = if target.len() > MAX_URL_BYTES {
        let message = format!("the request target is longer than {MAX_URL_BYTES} bytes");
        (414, message)
    } else if !matches!(*method, Method::GET | Method::HEAD) {
        let method = printable(method.as_str());
        (
            405,
            format!("{method} is not allowed: the explorer only reads"),
        )
    } else if with_body {
        let message = "a request body is not read here: send GET without one";
        (413, message.to_string())
    } else {
        return None;
    };
    Some(Failure { status, message }.into())
}

/// The reply to GET `target` (the request target as sent: path and
/// query). HEAD is answered like GET (hyper leaves out the body).
pub fn answer(stores: &Stores, target: &str) -> Reply {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if let Some(file) = static_files::find(path) {
        return Reply {
            status: 200,
            content_type: file.content_type,
            body: file.body.as_bytes().to_vec(),
        };
    }
    let Some(endpoint) = api::endpoint(path) else {
        return Failure::not_found(format!("no such page or endpoint: {}", printable(path))).into();
    };
    let parameters = match Parameters::parse(query) {
        Ok(parameters) => parameters,
        Err(failure) => return failure.into(),
    };
    // The endpoints validate what they read, so a panic is a bug; it still
    // must not take a worker down, and the client hears of it.
    match catch_unwind(AssertUnwindSafe(|| endpoint(stores, &parameters))) {
        Ok(Ok(value)) => Reply::ok(&value),
        Ok(Err(failure)) => failure.into(),
        Err(_) => Failure {
            status: 500,
            message: "the server failed on this request (a bug; the server goes on)".into(),
        }
        .into(),
    }
}
