//! The library's error type: every failure a user can cause ends here, and the
//! CLI prints it as one line.

use std::fmt;
use std::io;
use std::path::PathBuf;

#[derive(Debug)]
pub enum Error {
    /// A parameter is outside what the game or hash supports.
    InvalidParameter(String),
    /// A space (or one of its blocks) has more states than a u64 rank can index.
    SpaceTooLarge(String),
    /// The requested algorithm needs a property the space does not have.
    Unsupported(String),
    /// A table would need more memory than the machine has available.
    OutOfMemory {
        needed: u64,
        available: u64,
        what: String,
    },
    /// An external solver is missing, failed, or ran out of time.
    Solver(String),
    /// A file operation on a store failed.
    Io { context: String, source: io::Error },
    /// A store file exists but does not belong to this run or is damaged.
    BadStore { path: PathBuf, reason: String },
    /// No GPU adapter, or the device refused a buffer, shader or dispatch.
    Gpu(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn io(context: impl Into<String>, source: io::Error) -> Self {
        Error::Io {
            context: context.into(),
            source,
        }
    }
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidParameter(message) => write!(f, "invalid parameter: {message}"),
            Error::SpaceTooLarge(message) => write!(f, "space too large: {message}"),
            Error::Unsupported(message) => write!(f, "unsupported: {message}"),
            Error::Solver(message) => write!(f, "{message}"),
            Error::Gpu(message) => write!(f, "GPU: {message}"),
            Error::OutOfMemory {
                needed,
                available,
                what,
            } => write!(
                f,
                "{what} needs {:.2} GiB but only {:.2} GiB of memory is available (use --store DIR for a file-backed table)",
                gib(*needed),
                gib(*available)
            ),
            Error::Io { context, source } => write!(f, "{context}: {source}"),
            Error::BadStore { path, reason } => {
                write!(f, "store file {}: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
