//! The library's error type: every failure a user can cause ends here, and the
//! CLI prints it as one line.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Why a library call failed.
#[derive(Debug)]
pub enum Error {
    /// A parameter is outside what the game or hash supports.
    InvalidParameter(String),
    /// A position's text names no position of the game: it does not
    /// parse, or what it describes cannot occur.
    BadPosition {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A file given as input (a puzzle's definition, a board, a positional
    /// game's `.pg` instance) does not read as one.
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it, with the line where there is one.
        reason: String,
    },
    /// A space (or one of its blocks) has more states than a u64 rank can index.
    SpaceTooLarge(String),
    /// The requested algorithm needs a property the space does not have.
    Unsupported(String),
    /// A table would need more memory than the machine has available.
    OutOfMemory {
        /// Bytes the table needs.
        needed: u64,
        /// Bytes of memory available; 0 when the system does not say.
        available: u64,
        /// What was to be allocated ("the table for pancake n=12").
        what: String,
    },
    /// An external solver is missing, failed, or ran out of time.
    Solver(String),
    /// A file or system operation failed.
    Io {
        /// What was being done ("cannot write store/pancake-n-12-two-bit-bfs.bst").
        context: String,
        /// The file (or directory) it was done to, when there was one.
        path: Option<PathBuf>,
        /// The system's error.
        source: io::Error,
    },
    /// A store file exists but does not belong to this run or is damaged.
    BadStore {
        /// The store file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// No GPU adapter, or the device refused a buffer, shader or dispatch.
    Gpu(String),
    /// The run was asked to stop ([`crate::progress::Progress::stop_requested`]:
    /// Ctrl-C). Its store, if it has one, is left as after any other
    /// error: a rerun resumes from it.
    Interrupted,
}

/// The library's result, failing with an [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An [`Error::Io`] of an operation on no particular file: `source`,
    /// with what was being done when it happened.
    pub fn io(context: impl Into<String>, source: io::Error) -> Self {
        Error::Io {
            context: context.into(),
            path: None,
            source,
        }
    }

    /// This error met while reading the position `text`: bad input
    /// ([`Error::InvalidParameter`]) becomes an [`Error::BadPosition`];
    /// anything else stays as it is.
    pub fn in_position(self, text: &str) -> Self {
        match self {
            Error::InvalidParameter(reason) => Error::BadPosition {
                text: text.to_string(),
                reason,
            },
            other => other,
        }
    }

    /// This error met while reading the file `path`: bad input
    /// ([`Error::InvalidParameter`]) becomes an [`Error::BadFile`];
    /// anything else stays as it is.
    pub fn in_file(self, path: &Path) -> Self {
        match self {
            Error::InvalidParameter(reason) => Error::BadFile {
                path: path.to_path_buf(),
                reason,
            },
            other => other,
        }
    }

    /// An [`Error::Io`] of `action` on the file `path` ("cannot `read`
    /// PATH: …").
    pub fn on_file(action: &str, path: &Path, source: io::Error) -> Self {
        Error::io_at(format!("cannot {action} {}", path.display()), path, source)
    }

    /// An [`Error::Io`] on the file `path`, told as `context`.
    pub fn io_at(context: impl Into<String>, path: &Path, source: io::Error) -> Self {
        Error::Io {
            context: context.into(),
            path: Some(path.to_path_buf()),
            source,
        }
    }
}

/// `text` with its control characters (line breaks, tabs, terminal
/// escapes) written as escapes: whatever a user typed or a file held, a
/// message that shows it stays one printable line.
pub fn escape_controls(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            escaped.extend(c.escape_debug());
        } else {
            escaped.push(c);
        }
    }
    escaped
}

/// User text for a message, in single quotes and with control characters
/// escaped.
pub fn quoted(text: &str) -> String {
    format!("'{}'", escape_controls(text))
}

/// `needed` and `limit` for a message that says the one is more than the
/// other: each in the largest unit it fills, `needed` rounded up and
/// `limit` down, so that the numbers shown never say otherwise (never
/// "0 MiB, more than the 0 MiB allowed").
pub fn sizes_compared(needed: u64, limit: u64) -> (String, String) {
    (in_unit(needed, true), in_unit(limit, false))
}

/// `bytes` in the largest unit it fills, rounded up (as a need is told).
pub fn size_needed(bytes: u64) -> String {
    in_unit(bytes, true)
}

/// `bytes` in the largest unit it fills (bytes below a KiB), to two
/// decimals rounded `up` or down.
fn in_unit(bytes: u64, up: bool) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    let Some(&(unit, name)) = UNITS.iter().find(|(unit, _)| bytes >= *unit) else {
        return format!("{bytes} bytes");
    };
    let (scaled, unit) = (bytes as u128 * 100, unit as u128);
    let hundredths = if up {
        scaled.div_ceil(unit)
    } else {
        scaled / unit
    };
    format!("{}.{:02} {name}", hundredths / 100, hundredths % 100)
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

/// Why a write failed with EFBIG: the process's file size limit when one is
/// set (`ulimit -f`; `main` ignores SIGXFSZ so that the write fails instead
/// of killing the run), else the largest file the file system holds.
fn file_too_large() -> String {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct we own.
    let known = unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut limit) } == 0;
    if known && limit.rlim_cur != libc::RLIM_INFINITY {
        let bytes = limit.rlim_cur as f64;
        let size = match limit.rlim_cur {
            0..0x10_0000 => format!("{:.0} KiB", bytes / 1024.0),
            0x10_0000..0x4000_0000 => format!("{:.1} MiB", bytes / (1u64 << 20) as f64),
            _ => format!("{:.2} GiB", gib(limit.rlim_cur)),
        };
        format!("the file size limit of {size} (ulimit -f) was reached")
    } else {
        "the file is larger than its file system allows".to_string()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidParameter(message) => write!(f, "invalid parameter: {message}"),
            Error::BadPosition { reason, .. } => write!(f, "invalid position: {reason}"),
            Error::BadFile { reason, .. } => write!(f, "invalid file: {reason}"),
            Error::SpaceTooLarge(message) => write!(f, "space too large: {message}"),
            Error::Unsupported(message) => write!(f, "unsupported: {message}"),
            Error::Solver(message) => write!(f, "{message}"),
            Error::Gpu(message) => write!(f, "GPU: {message}"),
            Error::OutOfMemory {
                needed,
                available,
                what,
            } if *needed > *available && *available > 0 => {
                let (needed, available) = sizes_compared(*needed, *available);
                write!(
                    f,
                    "{what} needs {needed} but only {available} of memory is available (use --store DIR for a file-backed table)"
                )
            }
            // The memory is there (or its amount unknown) and the mapping
            // was refused all the same: not a lack of memory, so neither
            // "only N GiB" nor --store, which maps as much, would be true.
            Error::OutOfMemory {
                needed,
                available,
                what,
            } => {
                write!(
                    f,
                    "{what} needs {:.2} GiB and the system refused to map it",
                    gib(*needed)
                )?;
                if *available > 0 {
                    write!(
                        f,
                        " though {:.2} GiB of memory is available: a limit on this process's address space (ulimit -v) or the kernel's overcommit policy is lower",
                        gib(*available)
                    )?;
                }
                Ok(())
            }
            // Told like a full disk: what ran out, then the system's words.
            Error::Io {
                context, source, ..
            } if source.raw_os_error() == Some(libc::EFBIG) => {
                write!(f, "{context}: {}: {source}", file_too_large())
            }
            Error::Io {
                context, source, ..
            } => write!(f, "{context}: {source}"),
            Error::BadStore { path, reason } => {
                write!(f, "store file {}: {reason}", path.display())
            }
            Error::Interrupted => write!(
                f,
                "interrupted (a run with a store resumes from it when started again)"
            ),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_memory_blames_memory_only_when_it_is_short() {
        let short = Error::OutOfMemory {
            needed: 4 << 30,
            available: 1 << 30,
            what: "the table".into(),
        };
        let text = short.to_string();
        assert!(
            text.contains("only 1.00 GiB") && text.contains("--store"),
            "{text}"
        );
        // Refused although 8 GiB is free (ulimit -v): no "only", no --store.
        let refused = Error::OutOfMemory {
            needed: 1 << 30,
            available: 8 << 30,
            what: "the table".into(),
        };
        let text = refused.to_string();
        assert!(
            !text.contains("only") && !text.contains("--store"),
            "{text}"
        );
        assert!(
            text.contains("refused") && text.contains("8.00 GiB"),
            "{text}"
        );
        let unknown = Error::OutOfMemory {
            needed: 1 << 30,
            available: 0,
            what: "the table".into(),
        };
        assert!(!unknown.to_string().contains("0.00 GiB"), "{unknown}");
    }

    #[test]
    fn a_size_over_a_limit_never_reads_as_equal_or_less() {
        let shown = |needed, limit| sizes_compared(needed, limit);
        assert_eq!(shown(10_088, 1024), ("9.86 KiB".into(), "1.00 KiB".into()));
        assert_eq!(shown(300, 0), ("300 bytes".into(), "0 bytes".into()));
        let (mib, just_over) = (1u64 << 20, (1u64 << 20) + 1);
        assert_eq!(
            shown(just_over, mib),
            ("1.01 MiB".into(), "1.00 MiB".into())
        );
        assert_eq!(shown(2 << 30, 1024), ("2.00 GiB".into(), "1.00 KiB".into()));
        assert_eq!(
            shown(u64::MAX, u64::MAX - 1),
            ("17179869184.00 GiB".into(), "17179869183.99 GiB".into())
        );
        // Memory short by less than a hundredth of a GiB.
        let short = Error::OutOfMemory {
            needed: (1 << 30) + 1,
            available: 1 << 30,
            what: "the table".into(),
        };
        assert_eq!(
            short.to_string(),
            "the table needs 1.01 GiB but only 1.00 GiB of memory is available (use --store DIR for a file-backed table)"
        );
    }

    #[test]
    fn a_file_too_large_says_which_limit() {
        let error = Error::on_file(
            "write",
            Path::new("t.bst"),
            io::Error::from_raw_os_error(libc::EFBIG),
        );
        assert!(matches!(&error, Error::Io { path: Some(p), .. } if p == Path::new("t.bst")));
        let text = error.to_string();
        assert!(text.starts_with("cannot write t.bst: "), "{text}");
        assert!(
            text.contains("file size limit") || text.contains("file system allows"),
            "{text}"
        );
    }

    #[test]
    fn quoted_text_stays_on_one_line() {
        assert_eq!(quoted("a\nb\tc"), "'a\\nb\\tc'");
        assert_eq!(quoted("é💥"), "'é💥'");
    }
}
