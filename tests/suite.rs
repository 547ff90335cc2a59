//! Every integration test of the crate, in one test binary.
//!
//! Each file beside this one is a module of it (`cargo test --test suite
//! morris::` runs one). One binary instead of one per file: the library's
//! generic drivers are compiled and optimised once, not once per file, and
//! linked once, which took the test build from about ten minutes to a
//! fraction of that on two cores. The tests of every file run side by side
//! on the test threads.

mod common;

/// The suite runs from the repository's root: the data files it reads and
/// the paths it gives the commands it starts are named from there. Cargo
/// starts a package's tests in the package's directory (`cli/`, whose
/// binary they run), so the root becomes the working directory before the
/// harness starts any test: a function in `.init_array` runs before
/// `main` (Linux, where the suite runs).
#[used]
#[unsafe(link_section = ".init_array")]
static RUN_FROM_THE_ROOT: extern "C" fn() = run_from_the_root;

extern "C" fn run_from_the_root() {
    if std::env::set_current_dir(common::ROOT).is_err() {
        std::process::abort();
    }
    give_vulkan_a_runtime_dir();
}

/// Mesa's Vulkan driver prints an error line on stderr in every process
/// that opens it where `XDG_RUNTIME_DIR` is unset (a plain `cargo test`
/// outside a login session, or under `su`), and the tests count the lines
/// of the commands' errors. Where it is unset, the suite and the commands
/// it starts get a private one (scripts/test.sh sets its own).
fn give_vulkan_a_runtime_dir() {
    use std::os::unix::fs::DirBuilderExt;
    if std::env::var_os("XDG_RUNTIME_DIR").is_some() {
        return;
    }
    // SAFETY: getuid has no preconditions.
    let user = unsafe { libc::getuid() };
    let dir = std::env::temp_dir().join(format!("bitsolve-tests-runtime-{user}"));
    let made = std::fs::DirBuilder::new().mode(0o700).create(&dir);
    if made.is_ok() || dir.is_dir() {
        // SAFETY: this runs from .init_array, before `main` starts any
        // thread that could read the environment.
        unsafe { std::env::set_var("XDG_RUNTIME_DIR", &dir) };
    }
}

mod cli;
mod database_paged;
mod disk_bfs;
mod docs;
mod dodgem;
mod errors;
mod faults;
mod fox_geese_play;
mod fox_geese_rules;
mod fuzz_inputs;
mod gpu;
mod gpu_retro;
mod hash_fuzz;
mod http_fuzz;
mod job_requests;
mod kit;
mod ksolve;
mod ksolve_corpus;
mod ksolve_oracle;
mod layering;
mod morris;
mod mpi;
mod permutation_games;
mod pocket_cube;
mod position_round_trip;
mod qbf;
mod qbf_cleanup;
mod resume;
mod retro_memory;
mod retrograde;
mod selection_games;
mod serve;
mod solve;
mod store_links;
mod store_trust;
mod trust;
