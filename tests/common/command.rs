//! The `bitsolve` binary as the tests run it: a run and its output (with
//! an environment, with input, in the background, within a time limit),
//! its JSON, scratch directories, waiting for a background run, and the
//! checks of a refused run.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The binary the suite tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_bitsolve");

/// `bitsolve args`, to be given more (environment, stdio) and run.
pub fn command<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Command {
    let mut command = Command::new(BIN);
    command.args(args);
    command
}

/// Runs `bitsolve args` to its end: exit status, stdout and stderr.
pub fn bitsolve(args: &[&str]) -> Output {
    command(args).output().expect("run bitsolve")
}

/// `bitsolve args` with `variables` added to its environment.
pub fn bitsolve_env(args: &[&str], variables: &[(&str, &str)]) -> Output {
    command(args)
        .envs(variables.iter().copied())
        .output()
        .expect("run bitsolve")
}

/// The words of a command line, split at white space (for the many
/// arguments that hold none).
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The words of `line` (split as [`words`]) and then `rest`, arguments
/// that may hold white space (paths, positions).
pub fn words_and<'a>(line: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = words(line);
    args.extend(rest);
    args
}

/// Starts `bitsolve args` in the background, its output thrown away.
pub fn start_quietly(args: &[&str]) -> Child {
    command(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Starts `bitsolve args` in the background and kills it with SIGKILL
/// after `delay`: whether it was still running then.
pub fn kill_after(args: &[&str], delay: Duration) -> bool {
    let mut child = start_quietly(args);
    std::thread::sleep(delay);
    let running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    child.wait().unwrap();
    running
}

/// Runs `command` with its output piped for at most `limit`, killing it
/// then: its output, and whether it ended by itself within the limit.
pub fn output_within(command: &mut Command, limit: Duration) -> (Output, bool) {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            return (child.wait_with_output().unwrap(), false);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    (child.wait_with_output().unwrap(), true)
}

/// Polls `done` until it holds, failing the test with `what` once
/// `patience` has passed without.
pub fn wait_until(patience: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < patience, "{what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Kills `child` (SIGKILL) at an instant when `ready` holds, and reaps it.
/// `ready` is asked again with the child stopped (SIGSTOP), and the kill
/// comes before it runs on: a look while it runs, then a kill, could see a
/// state (a sealed file) it has left in between (CI saw a table unsealed
/// for its next record so).
pub fn kill_when(
    child: &mut Child,
    patience: Duration,
    what: &str,
    mut ready: impl FnMut() -> bool,
) {
    let pid = child.id() as libc::pid_t;
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < patience, "{what}");
        if ready() {
            let mut status = 0;
            // SAFETY: signals to and a wait for our own child, not yet
            // reaped (a stop is reported, not reaped).
            let waited = unsafe {
                libc::kill(pid, libc::SIGSTOP);
                libc::waitpid(pid, &mut status, libc::WUNTRACED)
            };
            assert!(
                waited == pid && libc::WIFSTOPPED(status),
                "{what}: the run ended before it could be stopped"
            );
            if ready() {
                child.kill().unwrap();
                child.wait().unwrap();
                return;
            }
            // SAFETY: as above.
            unsafe { libc::kill(pid, libc::SIGCONT) };
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Bytes a run printed, as text (invalid UTF-8 replaced).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The JSON object a run printed on stdout; the run must have succeeded.
pub fn json_of(output: &Output) -> Value {
    assert!(output.status.success(), "stderr: {}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("one JSON object on stdout")
}

/// Runs `bitsolve args`, which must succeed.
pub fn succeeded(args: &[&str]) -> Output {
    let output = bitsolve(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        text(&output.stderr)
    );
    output
}

/// The JSON object `bitsolve args` prints; the run must succeed.
pub fn bitsolve_json(args: &[&str]) -> Value {
    serde_json::from_slice(&succeeded(args).stdout).expect("one JSON object on stdout")
}

/// The text `bitsolve args` prints on stdout; the run must succeed.
pub fn stdout_of(args: &[&str]) -> String {
    String::from_utf8(succeeded(args).stdout).unwrap()
}

/// The text `bitsolve args` prints on stderr; the run must succeed.
pub fn stderr_of(args: &[&str]) -> String {
    String::from_utf8(succeeded(args).stderr).unwrap()
}

/// An empty place for a test's files, `bitsolve-GROUP-NAME-PID` in the
/// temporary directory (whatever a failed earlier run left there is
/// removed); not created.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitsolve-{group}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A test's own directory ([`scratch`]), created, and removed with what
/// it holds when dropped, also when the test fails: tests that write
/// files leave nothing in the temporary directory.
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    pub fn new(group: &str, name: &str) -> ScratchDir {
        let dir = scratch(group, name);
        std::fs::create_dir_all(&dir).unwrap();
        ScratchDir(dir)
    }

    /// `file` in the directory (not created).
    pub fn join(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A path as the text of an argument.
pub fn arg(path: &Path) -> String {
    path.display().to_string()
}

/// A failed run that says why in one line: a non-zero exit and one line on
/// stderr, `bitsolve: error: ...` holding `expected`. Returns the line.
pub fn assert_one_error_line(output: &Output, what: &str, expected: &str) -> String {
    assert!(!output.status.success(), "{what} succeeded");
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
    assert!(stderr.starts_with("bitsolve: error: "), "{stderr}");
    assert!(stderr.contains(expected), "{what}: {stderr}");
    stderr
}

/// Bad input: a non-zero exit, nothing on stdout, one line on stderr
/// holding `expected`. Returns the line.
pub fn assert_clear_error(args: &[&str], expected: &str) -> String {
    let output = bitsolve(args);
    assert!(!output.status.success(), "{args:?} succeeded");
    assert!(
        output.stdout.is_empty(),
        "{args:?} printed {:?}",
        text(&output.stdout)
    );
    assert_one_error_line(&output, &format!("{args:?}"), expected)
}

/// The one `bitsolve: error` line among the stderr of a failed run.
pub fn one_error_line(output: &Output) -> String {
    let stderr = text(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("bitsolve: error"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    errors[0].to_string()
}

/// Runs the `bitsolve` binary with `input` on its stdin (a game of `play`,
/// answers to prompts): whether it succeeded, its stdout and its stderr.
pub fn bitsolve_with_input(args: &[&str], input: &str) -> (bool, String, String) {
    use std::io::Write;
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .as_mut()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// Every file of a store, by name, with its bytes, in name order.
pub fn store_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// Damages the file at `path` in place: `change` alters its bytes (or
/// leaves them, and the file is not written).
pub fn damage_file(path: &Path, change: impl FnOnce(&mut Vec<u8>)) {
    let before = std::fs::read(path).unwrap();
    let mut bytes = before.clone();
    change(&mut bytes);
    if bytes != before {
        std::fs::write(path, bytes).unwrap();
    }
}

/// `bitsolve query fox-geese --store STORE` and then `rest`.
pub fn fox_geese_query<'a>(store: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    [&["query", "fox-geese", "--store", store][..], rest].concat()
}

/// Writes `contents` to the file `name` in `dir` (made if missing), and
/// returns the file's path.
pub fn write_file(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, contents).unwrap();
    file
}

/// The entry of the game `name` in a list of games (`games --json`, the
/// explorer's `/api/games`).
pub fn game_named<'a>(games: &'a Value, name: &str) -> Option<&'a Value> {
    games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == name)
}
