//! Results sized before they are allocated: an array call whose answer the
//! machine cannot hold raises `MemoryError` (with the bytes it would need)
//! up front, instead of the process aborting in the allocator or filling
//! memory until the kernel kills it; the allocation itself is fallible too
//! (`Vec::try_reserve_exact`), for a limit the figures below do not show.

use bitsolve::error::Error;
use bitsolve::table::storage::available_memory;
use pyo3::PyErr;
use pyo3::exceptions::PyMemoryError;
use rayon::prelude::*;

use crate::to_python;

/// A result the machine cannot hold: `MemoryError` with this message.
#[derive(Debug)]
pub(crate) struct NoRoom(String);

impl NoRoom {
    pub(crate) fn new(message: String) -> NoRoom {
        NoRoom(message)
    }
}

impl From<NoRoom> for PyErr {
    fn from(no_room: NoRoom) -> PyErr {
        PyMemoryError::new_err(no_room.0)
    }
}

/// Why a call stopped: the library's error, or a result with no room.
pub(crate) enum Failure {
    Library(Error),
    NoRoom(NoRoom),
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        Failure::Library(error)
    }
}

impl From<NoRoom> for Failure {
    fn from(no_room: NoRoom) -> Failure {
        Failure::NoRoom(no_room)
    }
}

impl From<Failure> for PyErr {
    fn from(failure: Failure) -> PyErr {
        match failure {
            Failure::Library(error) => to_python(error),
            Failure::NoRoom(no_room) => no_room.into(),
        }
    }
}

fn gib(bytes: u128) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

/// Bytes this process may still map under its address-space limit
/// (`ulimit -v`), if it has one: the limit less what is mapped already.
fn address_space_left() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    // "Max address space  <soft> <hard> bytes": the soft limit binds.
    let soft: u64 = line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let mapped_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(soft.saturating_sub(mapped_kib.saturating_mul(1024)))
}

/// The bytes a result may take: the memory the kernel reports available
/// (`bitsolve::table::storage::available_memory`, which
/// `BITSOLVE_AVAILABLE_MEMORY` overrides as for the library's tables), and
/// no more than the address-space limit leaves, where either is known.
fn available() -> Option<u64> {
    match (available_memory(), address_space_left()) {
        (Some(memory), Some(space)) => Some(memory.min(space)),
        (memory, space) => memory.or(space),
    }
}

/// Refuses a result of `needed` bytes (`what` names it) that is more than
/// the memory available, or more than any allocation may be.
pub(crate) fn room_for(needed: u128, what: &dyn Fn() -> String) -> Result<(), NoRoom> {
    let available = available();
    if needed > isize::MAX as u128 {
        return Err(NoRoom(format!(
            "{} needs {needed} bytes ({:.2} GiB), more than any allocation may be",
            what(),
            gib(needed)
        )));
    }
    match available {
        Some(available) if needed > u128::from(available) => Err(NoRoom(format!(
            "{} needs {needed} bytes ({:.2} GiB) but only {available} bytes ({:.2} GiB) of memory is available",
            what(),
            gib(needed),
            gib(u128::from(available))
        ))),
        _ => Ok(()),
    }
}

/// An empty vector with capacity for `len` items, each of which will hold
/// `extra` more bytes of its own (a string's text) and beyond that: checked
/// against the memory available first, then reserved fallibly.
pub(crate) fn with_room<T>(
    len: usize,
    extra: u128,
    what: &dyn Fn() -> String,
) -> Result<Vec<T>, NoRoom> {
    let needed = len as u128 * (size_of::<T>() as u128 + extra);
    room_for(needed, what)?;
    let mut vec = Vec::new();
    vec.try_reserve_exact(len).map_err(|_| {
        NoRoom(format!(
            "{} needs {needed} bytes ({:.2} GiB) and the system refused to allocate it",
            what(),
            gib(needed)
        ))
    })?;
    Ok(vec)
}

/// `len` copies of `fill` for a result (see [`with_room`]), written by
/// the current pool's threads.
pub(crate) fn filled<T: Clone + Send + Sync>(
    len: usize,
    fill: T,
    what: &dyn Fn() -> String,
) -> Result<Vec<T>, NoRoom> {
    let mut vec = with_room(len, 0, what)?;
    vec.par_extend(rayon::iter::repeat_n(fill, len));
    Ok(vec)
}
