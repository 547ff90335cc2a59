//! Whether this process is one of an MPI job, what that allows, and the
//! report of what a search across the job sent.
//!
//! A build with `--features mpi` started by a launcher (mpirun, mpiexec,
//! srun) joins the job and runs `bfs` and `retro` across its processes; a build without
//! the feature refuses to run as one of several copies, which would each
//! search the whole space.

use crate::error::{Error, Result};

/// Variables a launcher sets in every process it starts (Open MPI, PMIx as
/// under Slurm, MPICH's Hydra and PMI-2), with the job's size where one says.
const RANK_VARIABLES: [&str; 3] = ["OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"];
const SIZE_VARIABLES: [&str; 2] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"];

fn launched_by_mpi() -> bool {
    RANK_VARIABLES
        .iter()
        .chain(&SIZE_VARIABLES)
        .any(|name| std::env::var_os(name).is_some())
}

/// The job's size as the launcher announced it, if it did (a build with
/// MPI asks MPI instead).
#[cfg_attr(feature = "mpi", allow(dead_code))]
fn announced_size() -> Option<usize> {
    SIZE_VARIABLES
        .iter()
        .find_map(|name| std::env::var(name).ok()?.parse().ok())
}

pub struct Job {
    #[cfg(feature = "mpi")]
    pub session: Option<crate::backend::mpi::Session>,
}

impl Job {
    /// Outside any job (for reporting a failure to join one).
    pub fn none() -> Job {
        Job {
            #[cfg(feature = "mpi")]
            session: None,
        }
    }

    /// Joins the MPI job this process was started in, if any.
    pub fn start() -> Result<Job> {
        #[cfg(feature = "mpi")]
        {
            let session = if launched_by_mpi() {
                Some(crate::backend::mpi::Session::start()?)
            } else {
                None
            };
            Ok(Job { session })
        }
        #[cfg(not(feature = "mpi"))]
        match announced_size().filter(|&size| size > 1) {
            Some(size) if launched_by_mpi() => Err(Error::Unsupported(format!(
                "started as one of {size} MPI processes, but this bitsolve was built without MPI: build it with `cargo build --release --features mpi`"
            ))),
            _ => Ok(Job {}),
        }
    }

    /// Processes in the job (1 outside one).
    pub fn processes(&self) -> usize {
        #[cfg(feature = "mpi")]
        if let Some(session) = &self.session {
            return session.processes();
        }
        1
    }

    /// Refuses `command` in a job of several processes: only `bfs` and
    /// `retro` are distributed.
    pub fn refuse_distributed(&self, command: &str) -> Result<()> {
        let processes = self.processes();
        if processes > 1 {
            return Err(Error::Unsupported(format!(
                "`bitsolve {command}` runs in one process; across {processes} MPI processes only `bitsolve bfs` (two-bit) and `bitsolve retro` are distributed"
            )));
        }
        Ok(())
    }

    /// Ends the run after `message` was printed: in a job of several
    /// processes the others are stopped too, as they would wait for this
    /// one for ever.
    pub fn fail(&self, code: u8) -> std::process::ExitCode {
        #[cfg(feature = "mpi")]
        if let Some(session) = self.session.as_ref().filter(|s| s.processes() > 1) {
            session.abort(code as i32);
        }
        std::process::ExitCode::from(code)
    }
}

/// What each pass of a search across `mpi`'s job sent: one JSON object per pass.
#[cfg(feature = "mpi")]
pub fn traffic_json(mpi: &crate::backend::mpi::MpiBackend) -> serde_json::Value {
    let passes: Vec<serde_json::Value> = mpi
        .traffic()
        .iter()
        .map(|pass| {
            serde_json::json!({
                "pass": pass.label,
                "rounds": pass.rounds,
                "bytes_sent": pass.bytes_sent,
                "communication_seconds": pass.communication_seconds,
            })
        })
        .collect();
    serde_json::json!({"processes": mpi.processes(), "passes": passes})
}

/// The traffic table for people: per pass, the bytes all processes sent,
/// the most one sent, and the shortest and longest time a process spent
/// communicating.
#[cfg(feature = "mpi")]
pub fn print_traffic(mpi: &crate::backend::mpi::MpiBackend) {
    use super::format::bytes;
    let passes = mpi.traffic();
    if passes.is_empty() {
        return;
    }
    println!(
        "MPI traffic over {} processes:\n{:>28}  {:>6}  {:>10}  {:>10}  {:>16}",
        mpi.processes(),
        "pass",
        "rounds",
        "sent",
        "most sent",
        "communication s"
    );
    for pass in &passes {
        let seconds = &pass.communication_seconds;
        let most = seconds.iter().cloned().fold(0.0, f64::max);
        let least = seconds.iter().cloned().fold(f64::INFINITY, f64::min);
        println!(
            "{:>28}  {:>6}  {:>10}  {:>10}  {:>16}",
            pass.label,
            pass.rounds,
            bytes(pass.bytes_sent.iter().sum()),
            bytes(pass.bytes_sent.iter().copied().max().unwrap_or(0)),
            format!("{least:.2}–{most:.2}")
        );
    }
    let sent: u64 = passes.iter().flat_map(|p| &p.bytes_sent).sum();
    println!("sent in all {}", bytes(sent));
}
