//! What an external solver run leaves behind — its process group and its
//! formula file — removed on every way out: by the guards' `Drop` when
//! bitsolve returns (answer, error, timeout, panic), and, where the
//! program asked for it ([`clean_up_on_signals`]; the command line does),
//! by a SIGINT, SIGTERM or SIGHUP handler when the process is stopped. The
//! library sets no signal policy of its own: a program that links it keeps
//! its handlers unless it asks.
//!
//! The handler may only make async-signal-safe calls, so it reads a fixed
//! registry of atomics filled in beforehand: process group ids to
//! `kill()`, and paths already turned into C strings to `unlink()`. It then
//! restores the default action and raises the signal again, so bitsolve
//! still dies of it (exit status "killed by SIGTERM", not a normal exit).

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::ptr::null_mut;
use std::sync::Once;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr};

/// Solver runs are one at a time per check; a few slots are plenty. A
/// guard that finds no free slot still cleans up when dropped.
const SLOTS: usize = 16;

/// Process group ids to kill; 0 is a free slot.
static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

/// Paths to unlink, owned `CString`s leaked into the slot; null is free.
/// Whoever swaps a pointer out (its guard, or the handler) owns it, so a
/// path is never freed while the handler reads it.
static FILES: [AtomicPtr<libc::c_char>; SLOTS] = [const { AtomicPtr::new(null_mut()) }; SLOTS];

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// A temporary file, removed when the guard drops or bitsolve is stopped.
pub struct TempFile {
    path: PathBuf,
    slot: Option<usize>,
}

impl TempFile {
    /// Registers `path` before it is written, so that a signal arriving
    /// while it is being written removes it too.
    pub fn new(path: &Path) -> TempFile {
        install_handler();
        let slot = CString::new(path.as_os_str().as_bytes())
            .ok()
            .and_then(|name| {
                let raw = name.into_raw();
                let slot = FILES.iter().position(|file| {
                    file.compare_exchange(null_mut(), raw, SeqCst, SeqCst)
                        .is_ok()
                });
                if slot.is_none() {
                    // SAFETY: `raw` came from `into_raw` and was stored nowhere.
                    drop(unsafe { CString::from_raw(raw) });
                }
                slot
            });
        TempFile {
            path: path.to_path_buf(),
            slot,
        }
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        // Removed before it leaves the registry: a signal in between
        // unlinks a path that is already gone, which is harmless.
        let _ = std::fs::remove_file(&self.path);
        if let Some(slot) = self.slot {
            let raw = FILES[slot].swap(null_mut(), SeqCst);
            if !raw.is_null() {
                // SAFETY: `raw` came from `into_raw` in `new`, and swapping it
                // out made it ours alone. (Null: the handler took it, and the
                // process is on its way out.)
                drop(unsafe { CString::from_raw(raw) });
            }
        }
    }
}

/// The process group of a solver started with `process_group(0)`, killed
/// (SIGKILL, every process in it) when the guard drops or bitsolve is
/// stopped.
///
/// The group's leader must not be reaped before the guard drops: until
/// then its id cannot name another process group.
pub struct ProcessGroup {
    id: libc::pid_t,
    slot: Option<usize>,
}

impl ProcessGroup {
    /// The group led by `leader`, registered at once.
    pub fn new(leader: u32) -> ProcessGroup {
        install_handler();
        let id = leader as libc::pid_t;
        let slot = GROUPS
            .iter()
            .position(|group| group.compare_exchange(0, id, SeqCst, SeqCst).is_ok());
        ProcessGroup { id, slot }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        // Killed before it leaves the registry; killing twice is harmless.
        // SAFETY: kill() has no memory effects; `id` is a group we started.
        unsafe {
            libc::kill(-self.id, libc::SIGKILL);
        }
        if let Some(slot) = self.slot {
            let _ = GROUPS[slot].compare_exchange(self.id, 0, SeqCst, SeqCst);
        }
    }
}

/// Whether the program asked for the handler ([`clean_up_on_signals`]).
static ON_SIGNALS: AtomicBool = AtomicBool::new(false);

/// Asks that a process stopped by SIGINT, SIGTERM or SIGHUP remove what
/// its solver runs leave behind. From the next solver run on, each of
/// those signals whose action is still the default gets a handler that
/// kills the running solvers' process groups, removes their formula files
/// and then dies of the signal as if no handler had been installed.
/// Without it a stopped process leaves them (the guards still remove them
/// on every other way out).
pub fn clean_up_on_signals() {
    ON_SIGNALS.store(true, SeqCst);
}

/// Installs the handler once, where the program asked for it, for the
/// signals whose action is still the default: a signal the user set to be
/// ignored (`nohup`) stays ignored, and a program's own handler stays.
fn install_handler() {
    if !ON_SIGNALS.load(SeqCst) {
        return;
    }
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        for signal in SIGNALS {
            // SAFETY: sigaction with zeroed or valid structs; the handler
            // below is async-signal-safe.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction != libc::SIG_DFL
                {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                libc::sigemptyset(&mut action.sa_mask);
                for other in SIGNALS {
                    // A second signal waits until this one has cleaned up.
                    libc::sigaddset(&mut action.sa_mask, other);
                }
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

/// Kills the registered groups, unlinks the registered files, and dies of
/// `signal` as if no handler had been installed. Async-signal-safe: atomics,
/// kill(), unlink(), sigaction() and raise() only.
extern "C" fn on_signal(signal: libc::c_int) {
    for group in &GROUPS {
        let id = group.swap(0, SeqCst);
        if id > 0 {
            // SAFETY: async-signal-safe call on a registered group id.
            unsafe {
                libc::kill(-id, libc::SIGKILL);
            }
        }
    }
    for file in &FILES {
        let raw = file.swap(null_mut(), SeqCst);
        if !raw.is_null() {
            // SAFETY: a NUL-terminated path that nobody frees once swapped
            // out here (the process ends below).
            unsafe {
                libc::unlink(raw);
            }
        }
    }
    // SAFETY: async-signal-safe calls. The signal stays blocked until this
    // handler returns, and is then delivered with its default action.
    unsafe {
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        libc::sigemptyset(&mut default.sa_mask);
        libc::sigaction(signal, &default, std::ptr::null_mut());
        libc::raise(signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No test of this binary asks for the handler, so none is installed:
    /// the library leaves the program's signal policy alone.
    #[test]
    fn no_handler_unless_asked() {
        let path = std::env::temp_dir().join(format!(
            "bitsolve-cleanup-unasked-{}.qdimacs",
            std::process::id()
        ));
        let guard = TempFile::new(&path);
        for signal in SIGNALS {
            // SAFETY: sigaction with a null new action only reads.
            let action = unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                assert_eq!(libc::sigaction(signal, std::ptr::null(), &mut old), 0);
                old.sa_sigaction
            };
            assert_ne!(action, on_signal as *const () as libc::sighandler_t);
        }
        drop(guard);
    }

    #[test]
    fn a_dropped_guard_removes_its_file() {
        let path =
            std::env::temp_dir().join(format!("bitsolve-cleanup-{}.qdimacs", std::process::id()));
        let guard = TempFile::new(&path);
        assert!(guard.slot.is_some(), "a free slot");
        std::fs::write(&path, "p cnf 0 0\n").unwrap();
        drop(guard);
        assert!(!path.exists());
    }
}
