//! Running an external QDIMACS solver on a formula, with a time limit.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::cleanup::{ProcessGroup, TempFile};
use super::formula::{Cnf, write_qdimacs};
use crate::error::{Error, Result};

/// DepQBF (Debian package `depqbf`) by default.
pub const DEFAULT_SOLVER: &str = "depqbf {file}";

/// How a time-out's message starts: [`is_timeout`] tells it from the
/// solver's other failures.
const TIMEOUT: &str = "timeout: ";

/// Whether `error` is [`solve_with`]'s time-out (a suite counts time-outs
/// apart from solvers that fail).
pub(crate) fn is_timeout(error: &Error) -> bool {
    matches!(error, Error::Solver(message) if message.starts_with(TIMEOUT))
}

/// A solver's verdict and the time it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverAnswer {
    /// The solver's verdict: whether the formula is true.
    pub answer: bool,
    /// Wall-clock seconds the solver ran.
    pub seconds: f64,
}

/// Writes `cnf` to `file` and runs `command` on it (`{file}` stands for the
/// path; without it the path is appended). True/false comes from exit code
/// 10/20, or else from the output (`SAT`/`UNSAT`, `s cnf 1`/`s cnf 0`).
///
/// The solver runs in a process group of its own, killed whole when it
/// exits, times out, or bitsolve is stopped, so nothing it started lives on;
/// `file` is removed again on every way out.
pub fn solve_with(
    command: &str,
    cnf: &Cnf,
    file: &Path,
    timeout: Duration,
) -> Result<SolverAnswer> {
    let _file = TempFile::new(file);
    std::fs::write(file, write_qdimacs(cnf)).map_err(|e| Error::on_file("write", file, e))?;
    let mut words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        return Err(Error::InvalidParameter(
            "the solver command is empty".into(),
        ));
    }
    let path = file.display().to_string();
    if words.iter().any(|w| w.contains("{file}")) {
        for word in &mut words {
            *word = word.replace("{file}", &path);
        }
    } else {
        words.push(path);
    }
    let started = Instant::now();
    let mut child = Command::new(&words[0])
        .args(&words[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| {
            let depqbf = std::path::Path::new(&words[0]).file_name() == Some("depqbf".as_ref());
            if e.kind() == std::io::ErrorKind::NotFound && depqbf {
                Error::Solver(format!(
                    "the QBF solver '{}' is not installed (Debian: apt install depqbf), or give --solver \"CMD {{file}}\"",
                    words[0]
                ))
            } else if e.kind() == std::io::ErrorKind::NotFound {
                // The user's own solver: installing DepQBF would not help.
                Error::Solver(format!(
                    "the QBF solver '{}' is not installed or not on PATH (check --solver)",
                    words[0]
                ))
            } else {
                Error::io(format!("cannot start the QBF solver '{}'", words[0]), e)
            }
        })?;
    let group = ProcessGroup::new(child.id());
    // Drain both pipes while waiting so a chatty solver cannot block on a
    // full pipe.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let reader = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let error_reader = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let wait_error = |e| Error::io("cannot wait for the QBF solver", e);
    let timed_out = loop {
        if has_exited(&child).map_err(wait_error)? {
            break false;
        }
        if started.elapsed() >= timeout {
            break true;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let seconds = started.elapsed().as_secs_f64();
    // Whatever the solver left running would hold the pipes open and
    // outlive bitsolve: the whole group goes, then the leader is reaped.
    drop(group);
    let status = child.wait().map_err(wait_error)?;
    if timed_out {
        return Err(Error::Solver(format!(
            "{TIMEOUT}the QBF solver '{}' ran past the time limit of {:.0} s",
            words[0],
            timeout.as_secs_f64()
        )));
    }
    let output = reader.join().unwrap_or_default();
    let answer = match status.code() {
        Some(10) => Some(true),
        Some(20) => Some(false),
        _ => answer_from_output(&output),
    };
    match answer {
        Some(answer) => Ok(SolverAnswer { answer, seconds }),
        None => {
            let stderr = error_reader.join().unwrap_or_default();
            let said = stderr
                .lines()
                .chain(output.lines())
                .next()
                .unwrap_or("nothing");
            Err(Error::Solver(format!(
                "the QBF solver '{}' gave no answer (exit {:?}; it said: {said})",
                words[0],
                status.code()
            )))
        }
    }
}

/// Whether `child` has exited, without reaping it, so that its id still
/// names only its own process group when that group is killed.
fn has_exited(child: &Child) -> std::io::Result<bool> {
    // SAFETY: waitid writes only into `info`; zeroed, its si_pid stays 0
    // when the child has not changed state (WNOHANG).
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        if libc::waitid(libc::P_PID, child.id(), &mut info, flags) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(info.si_pid() != 0)
    }
}

fn answer_from_output(output: &str) -> Option<bool> {
    for line in output.lines().map(str::trim) {
        match line {
            "SAT" | "s cnf 1" | "SATISFIABLE" => return Some(true),
            "UNSAT" | "s cnf 0" | "UNSATISFIABLE" => return Some(false),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_come_from_output_lines() {
        assert_eq!(answer_from_output("c x\nSAT\n"), Some(true));
        assert_eq!(answer_from_output("s cnf 0 3 4\n"), None);
        assert_eq!(answer_from_output("s cnf 0\n"), Some(false));
    }

    #[test]
    fn a_missing_solver_is_a_clear_error() {
        let cnf = Cnf {
            variables: 1,
            prefix: vec![],
            clauses: vec![],
        };
        let file =
            std::env::temp_dir().join(format!("bitsolve-missing-{}.qdimacs", std::process::id()));
        let error = solve_with(
            "no-such-solver-here {file}",
            &cnf,
            &file,
            Duration::from_secs(1),
        )
        .unwrap_err();
        assert!(error.to_string().contains("not installed"), "{error}");
        assert!(!file.exists(), "the formula file is removed on error");
    }
}
