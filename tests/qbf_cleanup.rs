//! `bitsolve qbf` leaves nothing behind: neither the processes a QBF solver
//! started nor the formula file, whether the solver times out or bitsolve
//! itself is stopped with SIGTERM.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A directory of its own for one test: the fake solver, the file where it
/// records its process ids, and `tmp/`, bitsolve's TMPDIR.
struct Scene {
    dir: PathBuf,
}

impl Scene {
    fn new(name: &str) -> Scene {
        let dir =
            std::env::temp_dir().join(format!("bitsolve-cleanup-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("tmp")).unwrap();
        // A solver that never answers: two background sleeps, the ids of
        // the shell and both recorded (written whole, then renamed), then
        // it waits for them.
        let script = format!(
            "sleep 300 &\nfirst=$!\nsleep 300 &\necho $$ $first $! > '{pids}.part'\nmv '{pids}.part' '{pids}'\nwait\n",
            pids = dir.join("pids").display()
        );
        std::fs::write(dir.join("solver.sh"), script).unwrap();
        Scene { dir }
    }

    fn bitsolve(&self, timeout: &str) -> Command {
        let solver = format!("sh {} {{file}}", self.dir.join("solver.sh").display());
        let mut command = Command::new(env!("CARGO_BIN_EXE_bitsolve"));
        command
            .args([
                "qbf",
                "solve",
                "tic-tac-toe",
                "--depth",
                "3",
                "--solver",
                &solver,
                "--timeout",
                timeout,
            ])
            .env("TMPDIR", self.dir.join("tmp"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        command
    }

    /// The solver's shell and its two children, once it has started them.
    fn solver_pids(&self, patience: Duration) -> Vec<u32> {
        let started = Instant::now();
        loop {
            if let Ok(text) = std::fs::read_to_string(self.dir.join("pids")) {
                return text
                    .split_whitespace()
                    .map(|p| p.parse().unwrap())
                    .collect();
            }
            assert!(started.elapsed() < patience, "the solver never started");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Asserts that the solver's processes are gone (SIGKILL takes a moment
    /// to land) and that bitsolve's temporary directory is empty.
    fn assert_clean(&self) {
        let pids = self.solver_pids(Duration::ZERO);
        assert_eq!(pids.len(), 3);
        let started = Instant::now();
        while let Some(pid) = pids.iter().find(|&&pid| is_running(pid)) {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "solver process {pid} still runs after bitsolve exited"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let left: Vec<_> = std::fs::read_dir(self.dir.join("tmp"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "temporary files left behind: {left:?}");
    }
}

impl Drop for Scene {
    fn drop(&mut self) {
        // A failed test must not leave its sleeps running either.
        if let Ok(text) = std::fs::read_to_string(self.dir.join("pids")) {
            for pid in text
                .split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok())
            {
                if is_running(pid) {
                    // SAFETY: a signal to a process this test started.
                    unsafe {
                        libc::kill(pid as libc::pid_t, libc::SIGKILL);
                    }
                }
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Alive and not a zombie (a killed orphan may stay a zombie when nothing
/// reaps it; it runs no more).
fn is_running(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(Path::new("/proc").join(pid.to_string()).join("stat"))
    else {
        return false;
    };
    // "pid (command) state ...": the state follows the last ')'.
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().next());
    !matches!(state, Some("Z") | Some("X") | None)
}

#[test]
fn a_solver_timeout_kills_its_whole_process_group_and_removes_the_formula() {
    let scene = Scene::new("timeout");
    let output = scene.bitsolve("1").output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("timeout"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    scene.assert_clean();
}

#[test]
fn sigterm_to_bitsolve_kills_the_solver_and_removes_the_formula() {
    let scene = Scene::new("sigterm");
    let mut child = scene.bitsolve("300").spawn().unwrap();
    scene.solver_pids(Duration::from_secs(60));
    // The solver's group is registered as soon as it is spawned; a moment
    // more covers a slow machine.
    std::thread::sleep(Duration::from_millis(200));
    // SAFETY: a signal to the bitsolve this test started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert!(!status.success());
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status}");
    scene.assert_clean();
}
