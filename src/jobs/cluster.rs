//! Whether this process is one of an MPI job, what that allows, and what
//! a search across the job sent.
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

/// This process's place in an MPI job (none outside one).
pub struct MpiJob {
    /// The job's MPI session, when a launcher started this process.
    #[cfg(feature = "mpi")]
    pub session: Option<crate::backend::mpi::Session>,
}

impl MpiJob {
    /// Outside any job (for reporting a failure to join one).
    pub fn none() -> MpiJob {
        MpiJob {
            #[cfg(feature = "mpi")]
            session: None,
        }
    }

    /// Joins the MPI job this process was started in, if any.
    pub fn start() -> Result<MpiJob> {
        #[cfg(feature = "mpi")]
        {
            let session = if launched_by_mpi() {
                Some(crate::backend::mpi::Session::start()?)
            } else {
                None
            };
            Ok(MpiJob { session })
        }
        #[cfg(not(feature = "mpi"))]
        match announced_size().filter(|&size| size > 1) {
            Some(size) if launched_by_mpi() => Err(Error::Unsupported(format!(
                "started as one of {size} MPI processes, but this bitsolve was built without MPI: build it with `cargo build --release --features mpi`"
            ))),
            _ => Ok(MpiJob {}),
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

    /// The backend a command runs on across the job, if it runs there at
    /// all (`wanted`) and the process is in a job.
    pub fn backend(&self, wanted: bool) -> JobBackend<'_> {
        #[cfg(not(feature = "mpi"))]
        let _ = wanted;
        JobBackend {
            #[cfg(feature = "mpi")]
            backend: self
                .session
                .as_ref()
                .filter(|_| wanted)
                .map(crate::backend::mpi::MpiBackend::new),
            #[cfg(not(feature = "mpi"))]
            _job: std::marker::PhantomData,
        }
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

/// The MPI backend one command of a job runs on (its traffic log is the
/// command's): none outside a job, and in a build without MPI.
pub struct JobBackend<'s> {
    #[cfg(feature = "mpi")]
    backend: Option<crate::backend::mpi::MpiBackend<'s>>,
    #[cfg(not(feature = "mpi"))]
    _job: std::marker::PhantomData<&'s ()>,
}

impl JobBackend<'_> {
    /// The command's MPI backend, as [`Distributed`] (none outside a job).
    pub fn distributed(&self) -> Distributed<'_> {
        Distributed {
            #[cfg(feature = "mpi")]
            backend: self.backend.as_ref(),
            #[cfg(not(feature = "mpi"))]
            _none: std::marker::PhantomData,
        }
    }
}

/// The MPI backend a command runs on when it runs across the processes of
/// a job (none outside one, and always none in a build without MPI): what
/// `bfs` and `retro` ask of it beyond the search itself.
#[derive(Clone, Copy)]
pub struct Distributed<'a> {
    /// The MPI backend of the command; `None` outside a job.
    #[cfg(feature = "mpi")]
    pub backend: Option<&'a crate::backend::mpi::MpiBackend<'a>>,
    #[cfg(not(feature = "mpi"))]
    _none: std::marker::PhantomData<&'a ()>,
}

impl Distributed<'_> {
    /// Processes in the job (1 outside one).
    pub fn processes(self) -> usize {
        #[cfg(feature = "mpi")]
        if let Some(mpi) = self.backend {
            return mpi.processes();
        }
        1
    }

    /// Only the first process of a job reports; the others keep quiet.
    pub fn reports(self) -> bool {
        #[cfg(feature = "mpi")]
        if let Some(mpi) = self.backend {
            return mpi.process() == 0;
        }
        true
    }

    /// "2 MPI processes × 4 threads" (called in the pool the passes run on).
    pub fn describe(self) -> Option<String> {
        #[cfg(feature = "mpi")]
        if let Some(mpi) = self.backend {
            use crate::search::backend::Backend;
            return Some(mpi.describe());
        }
        None
    }

    /// What each pass sent between the processes, in a job.
    pub fn traffic(self) -> Option<crate::backend::Traffic> {
        #[cfg(feature = "mpi")]
        if let Some(mpi) = self.backend {
            return Some(crate::backend::Traffic {
                processes: mpi.processes(),
                passes: mpi.traffic(),
            });
        }
        None
    }
}
