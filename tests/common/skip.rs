//! What a test needs from the system beyond the Rust toolchain (DepQBF, a
//! Vulkan driver, Chromium), and one policy for when it is missing: in CI
//! (`CI` set; scripts/test.sh installs everything) the test fails; in a
//! plain `cargo test` it is skipped and says so on the terminal.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Why a GPU test is skipped: wgpu found no Vulkan adapter.
pub const NO_VULKAN: &str =
    "no Vulkan adapter opens (Debian's mesa-vulkan-drivers and libvulkan1 give a software one)";

/// Skips the calling test for want of `what` (the system package and why
/// it is needed): panics under CI, else prints one line past the
/// harness's capture (a passing test's `eprintln!` is swallowed), so that
/// a plain `cargo test` names what it did not run.
pub fn skipping(what: &str) {
    // The harness runs each test on a thread named after it.
    let current = std::thread::current();
    let test = current.name().unwrap_or("a test");
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set, so {test} must run: {what} (scripts/test.sh installs it as root)"
    );
    // Written to the process's stderr directly: the test harness captures
    // only the print macros.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: {what} (scripts/test.sh installs it as root)"
    );
}

/// The program `name` on the `PATH`, if any.
pub fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|path| path.is_file())
    })
}

/// Whether DepQBF (the default QBF solver) runs here; the calling test is
/// skipped (see [`skipping`]) when it does not.
pub fn depqbf() -> bool {
    let runs = Command::new("depqbf")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !runs {
        skipping("no `depqbf` on the PATH (Debian's package depqbf)");
    }
    runs
}
