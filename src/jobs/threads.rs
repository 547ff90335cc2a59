//! How many worker threads a job runs on: the one check of every shell
//! (`--threads`, Python's `threads=`, the environment rayon reads) and the
//! pool a job's passes run in.

use crate::error::{Error, Result};

/// Most worker threads a run may ask for: far beyond any machine's cores, far
/// below the thousands of OS threads that would stall the start of a run.
pub const MAX_THREADS: usize = 1024;

/// Refuses a thread count as `--threads` is refused (0, or more than
/// [`MAX_THREADS`]) and a thread count from the environment above it.
///
/// ```
/// use bitsolve::jobs::check_threads;
/// assert!(check_threads(Some(4)).is_ok());
/// assert!(check_threads(Some(0)).is_err());
/// ```
pub fn check_threads(threads: Option<usize>) -> Result<()> {
    if threads == Some(0) {
        return Err(Error::InvalidParameter(
            "--threads must be at least 1".into(),
        ));
    }
    if let Some(threads) = threads.filter(|&t| t > MAX_THREADS) {
        return Err(Error::InvalidParameter(format!(
            "--threads {threads} is more than the {MAX_THREADS} a run may use"
        )));
    }
    threads_from_environment()
}

/// Refuses a thread count from the environment above [`MAX_THREADS`], as
/// `--threads` is refused: rayon reads `RAYON_NUM_THREADS` (or the older
/// `RAYON_RS_NUM_CPUS`) for a pool built without a count, and for its global
/// pool even when `--threads` is given. A shell checks it before any
/// command, since any of them may start the global pool.
pub fn threads_from_environment() -> Result<()> {
    // rayon's own reading: the first of the two that is a number (0 for
    // all cores); a value that is no number is ignored.
    for variable in ["RAYON_NUM_THREADS", "RAYON_RS_NUM_CPUS"] {
        let Some(threads) = std::env::var(variable)
            .ok()
            .and_then(|value| value.parse::<usize>().ok())
        else {
            continue;
        };
        if threads > MAX_THREADS {
            return Err(Error::InvalidParameter(format!(
                "{variable}={threads} is more than the {MAX_THREADS} a run may use"
            )));
        }
        return Ok(());
    }
    Ok(())
}

/// A rayon pool of the requested size (all cores without one).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    check_threads(threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::InvalidParameter(format!("cannot start worker threads: {e}")))
}

/// Bytes from "123", "64K", "512M" or "2G" (binary units): the sizes the
/// shells accept for memory limits.
///
/// ```
/// assert_eq!(bitsolve::jobs::parse_size("512M"), Ok(512 << 20));
/// assert!(bitsolve::jobs::parse_size("lots").is_err());
/// ```
pub fn parse_size(text: &str) -> std::result::Result<u64, String> {
    let text = text.trim();
    let (digits, shift) = match text.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&text[..text.len() - 1], 10),
        Some('M') => (&text[..text.len() - 1], 20),
        Some('G') => (&text[..text.len() - 1], 30),
        Some('T') => (&text[..text.len() - 1], 40),
        _ => (text, 0),
    };
    let number: u64 = digits.parse().map_err(|_| {
        format!("'{text}' is not a size (bytes, or a number with K, M, G or T: 512M)")
    })?;
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("'{text}' is too large"))
}
