//! Ctrl-C (SIGINT) and SIGTERM during `bfs`, `retro` and `solve`: the first asks the
//! run to stop at its next chunk of work (the search's
//! [`Progress::stop_requested`](bitsolve::progress::Progress::stop_requested)),
//! so that it ends with a one-line error and its store written out and
//! sealed as far as it got: a table worked on in memory between records
//! (retro's layers), which a kill would lose back to its last record,
//! reaches its file. The handler then restores the default action, so a
//! second signal kills at once. Until the command's work begins (while it
//! reads its game) a signal ends the process at once.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use bitsolve::jobs::MpiJob;

static STOP: AtomicBool = AtomicBool::new(false);
/// Set once the command's work has begun ([`arm`]). Before it (reading
/// the game: a definition file of megabytes) nothing is written that a
/// stop would have to save, so a signal ends the process at once, as
/// without a handler.
static ARMED: AtomicBool = AtomicBool::new(false);

/// The signal that asked the run to stop (SIGINT until one has).
static SIGNAL: AtomicI32 = AtomicI32::new(libc::SIGINT);

extern "C" fn request_stop(signal: libc::c_int) {
    if ARMED.load(Ordering::Relaxed) {
        // Async-signal-safe: atomic stores.
        SIGNAL.store(signal, Ordering::Relaxed);
        STOP.store(true, Ordering::Relaxed);
    } else {
        // SA_RESETHAND has restored the default action: the signal,
        // raised again, ends the process once this handler returns.
        // SAFETY: raise is async-signal-safe.
        unsafe {
            libc::raise(signal);
        }
    }
}

/// The command's work begins: from now on a signal asks it to stop
/// between chunks of work (its store left resumable) instead of ending
/// the process.
pub(super) fn arm(stop: Option<&AtomicBool>) {
    if stop.is_some() {
        ARMED.store(true, Ordering::Relaxed);
    }
}

/// Installs the handler and returns the flag it sets; `None` in a job of
/// several processes, where each would stop at its own pass and wait for
/// the others for ever (mpirun's own signal handling ends those jobs).
pub(super) fn stop_on_signals(job: &MpiJob) -> Option<&'static AtomicBool> {
    if job.processes() > 1 {
        return None;
    }
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a zeroed sigaction is a valid "no flags, empty mask"
        // value; the handler only stores to an atomic.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = request_stop as extern "C" fn(libc::c_int) as usize;
            action.sa_flags = libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
    Some(&STOP)
}

/// The exit status of a run stopped by a signal: the shells' 128 + the
/// signal (130 for Ctrl-C, 143 for SIGTERM).
pub(super) fn exit_code() -> u8 {
    (128 + SIGNAL.load(Ordering::Relaxed)) as u8
}
