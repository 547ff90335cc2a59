//! A request as the endpoints read it: its decoded query [`Parameters`],
//! and the [`Failure`] an endpoint answers with instead of a value. The
//! bottom of the server's modules: it imports none of them, so the
//! endpoints (`api`, `stores`, `positional`) and the transport (`http`)
//! all build on it without importing one another in a circle.

use std::collections::BTreeMap;

use bitsolve::games::registry::flag_value;

/// Most query parameters in one request.
const MAX_PARAMETERS: usize = 32;

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
}

/// A library error caused by what the request asked (an unknown game, a
/// malformed position, a layer the store lacks) is the client's: 400;
/// a damaged or unreadable store is the server's: 500.
impl From<bitsolve::Error> for Failure {
    fn from(error: bitsolve::Error) -> Failure {
        use bitsolve::Error;
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

/// Whether the value of flag `name` in a query turns it on: the flag given
/// bare (`torus`), `1` or `true` turn it on, `0` or `false` leave it off,
/// as the page sends it and the command line's presence or absence says;
/// any other value is refused, naming the flag and the value. The
/// spellings are the library's ([`flag_value`]), which the jobs check too.
pub fn flag(name: &str, value: &str) -> Result<bool, Failure> {
    flag_value(value).ok_or_else(|| {
        Failure::bad_request(format!(
            "{} is a flag: give it as '{0}', '{0}=1' or '{0}=0', not '{}'",
            printable(name),
            printable(value)
        ))
    })
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

/// `text` cut short and with control characters escaped, for a message.
pub fn printable(text: &str) -> String {
    let cut: String = text.chars().take(100).collect();
    let cut = bitsolve::error::escape_controls(&cut);
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

    #[test]
    fn a_flag_is_on_or_off_in_five_spellings_and_refused_in_any_other() {
        for on in ["", "1", "true"] {
            assert!(flag("torus", on).unwrap(), "{on}");
        }
        for off in ["0", "false"] {
            assert!(!flag("torus", off).unwrap(), "{off}");
        }
        for bad in ["banana", "2", "yes", "TRUE", "1 1", "off"] {
            let failure = flag("burned", bad).unwrap_err();
            assert_eq!(failure.status, 400);
            assert_eq!(
                failure.message,
                format!(
                    "burned is a flag: give it as 'burned', 'burned=1' or 'burned=0', not '{bad}'"
                )
            );
        }
    }
}
