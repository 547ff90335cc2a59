//! The MPI environment of one process of a job: started when a launcher
//! (mpirun, mpiexec, srun) started the process, finalised when dropped.

use mpi::Threading;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::Communicator;

use crate::error::{Error, Result};

/// This process's MPI environment: the job's world communicator, and MPI
/// itself until dropped.
pub struct Session {
    world: SimpleCommunicator,
    /// Held for its drop, which finalises MPI: declared last, dropped last.
    _universe: Universe,
}

impl Session {
    /// Joins the job this process belongs to (a launcher started it; MPI
    /// alone says which process it is). Processes other than 0 send their
    /// stdout nowhere: process 0 prints the report (errors and notes still
    /// reach stderr from every process).
    pub fn start() -> Result<Session> {
        let (universe, threading) = mpi::initialize_with_threading(Threading::Serialized)
            .ok_or_else(|| Error::Unsupported("MPI was initialised twice".into()))?;
        if threading < Threading::Serialized {
            return Err(Error::Unsupported(format!(
                "this MPI library offers thread support {threading:?}; bitsolve needs Serialized"
            )));
        }
        let world = universe.world();
        if world.rank() != 0 {
            silence_stdout()?;
        }
        Ok(Session {
            world,
            _universe: universe,
        })
    }

    /// The communicator of every process of the job.
    pub fn world(&self) -> &SimpleCommunicator {
        &self.world
    }

    /// This process's number, 0..processes.
    pub fn process(&self) -> usize {
        self.world.rank() as usize
    }

    /// Processes in the job.
    pub fn processes(&self) -> usize {
        self.world.size() as usize
    }

    /// Ends every process of the job: one process's error would otherwise
    /// leave the others waiting in a collective for ever.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}

fn silence_stdout() -> Result<()> {
    use std::os::fd::AsRawFd;
    let null = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/null")
        .map_err(|e| Error::io("cannot open /dev/null", e))?;
    // SAFETY: dup2 onto the stdout descriptor, at start-up, before anything
    // was written; `null` stays open until the call returns.
    if unsafe { libc::dup2(null.as_raw_fd(), libc::STDOUT_FILENO) } < 0 {
        return Err(Error::io(
            "cannot redirect stdout",
            std::io::Error::last_os_error(),
        ));
    }
    Ok(())
}
