//! The MPI backend (`--features mpi`): the passes of a search spread over
//! the processes of an `mpirun` / `srun` job, each owning a share of every
//! block ([`Partition`]) and keeping only its share's table — on the heap,
//! or as its own file under `--store DIR` (one file per process, so a
//! shared and a per-node file system both work).
//!
//! For a BFS every process runs the same driver
//! ([`crate::search::two_bit_bfs()`]); the backend makes each of its answers
//! collective, so all processes take the same decisions: a pass expands the
//! local frontier cells, marks local successors at once and sends the
//! others' ranks to their owners in bounded rounds of all-to-all exchanges
//! (`rounds`, `exchange`); counts are summed over all processes.
//! Retrograde analysis (`retro`) runs the passes of the single-process
//! solver on each process's share of a layer, with the values of moves held
//! elsewhere asked of their owners (`queries`) and decided values pushed
//! to the predecessors' owners. MPI is called from one thread at a time
//! (the pass's), never from rayon's workers.

mod exchange;
mod queries;
mod retro;
mod rounds;
mod session;
mod share;
mod two_bit;

pub use super::traffic::PassTraffic;
pub use retro::Share;
pub use session::Session;

use std::sync::Mutex;

use mpi::topology::SimpleCommunicator;
use mpi::traits::Communicator;

use self::exchange::Exchange;
use self::two_bit::MpiTwoBit;
use super::partition::Partition;
use crate::error::{Error, Result};
use crate::search::backend::{Backend, OneBitPasses, Opened, TableRequest, TwoBitPasses};
use crate::space::Space;

/// Runs passes across the processes of an MPI job, each on its rayon pool.
pub struct MpiBackend<'w> {
    world: &'w SimpleCommunicator,
    /// What every pass so far sent, per process.
    traffic: Mutex<Vec<PassTraffic>>,
}

// SAFETY: MPI is initialised with `Threading::Serialized` and only the
// thread running the driver calls it (the passes' rayon workers never do),
// so the communicator is never used by two threads at once.
unsafe impl Sync for MpiBackend<'_> {}

impl<'w> MpiBackend<'w> {
    /// A backend over the processes of the job `session` joined.
    pub fn new(session: &'w Session) -> Self {
        MpiBackend {
            world: session.world(),
            traffic: Mutex::new(Vec::new()),
        }
    }

    /// This process's number, 0..processes.
    pub fn process(&self) -> usize {
        self.world.rank() as usize
    }

    /// Processes in the job.
    pub fn processes(&self) -> usize {
        self.world.size() as usize
    }

    /// The traffic of every pass run so far (the same on every process).
    pub fn traffic(&self) -> Vec<PassTraffic> {
        self.traffic.lock().expect("traffic log").clone()
    }

    fn exchange(&self) -> Exchange<'_> {
        Exchange::new(self.world)
    }
}

impl Backend for MpiBackend<'_> {
    fn name(&self) -> &'static str {
        "mpi"
    }

    fn describe(&self) -> String {
        let threads = rayon::current_num_threads();
        format!(
            "{} MPI processes × {threads} thread{}",
            self.processes(),
            if threads == 1 { "" } else { "s" }
        )
    }

    fn two_bit<'a, S: Space>(
        &'a self,
        space: &'a S,
        request: &TableRequest,
    ) -> Result<Opened<Box<dyn TwoBitPasses + 'a>>> {
        let partition = Partition::new(&space.blocks(), self.processes());
        let (passes, progress) = MpiTwoBit::open(self, space, partition, request)?;
        Ok(Opened::new(Box::new(passes), progress))
    }

    fn one_bit<'a, S: Space>(
        &'a self,
        _space: &'a S,
        _request: &TableRequest,
    ) -> Result<Opened<Box<dyn OneBitPasses + 'a>>> {
        Err(Error::Unsupported(
            "across MPI processes bitsolve runs the two-bit BFS (--algo two-bit); one-bit BFS and reachability run in one process".into(),
        ))
    }
}
