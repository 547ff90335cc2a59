//! The collective operations of the MPI backend, timed: the all-to-all
//! exchange of successor ranks, sums over processes, and gathering small
//! records.

use std::time::Instant;

use mpi::collective::SystemOperation;
use mpi::datatype::{Partition as Counts, PartitionMut as CountsMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives};

/// The communicator, with a clock and a byte counter for the current pass.
pub(super) struct Exchange<'w> {
    world: &'w SimpleCommunicator,
    pub bytes_sent: u64,
    pub seconds: f64,
}

impl<'w> Exchange<'w> {
    pub fn new(world: &'w SimpleCommunicator) -> Self {
        Exchange {
            world,
            bytes_sent: 0,
            seconds: 0.0,
        }
    }

    fn processes(&self) -> usize {
        self.world.size() as usize
    }

    fn timed<T>(&mut self, call: impl FnOnce(&SimpleCommunicator) -> T) -> T {
        let started = Instant::now();
        let result = call(self.world);
        self.seconds += started.elapsed().as_secs_f64();
        result
    }

    /// Sends `outgoing[p]` to process `p` (its own share is not sent) and
    /// returns what every process sent this one, concatenated in process
    /// order, with how many came from each.
    pub fn all_to_all<T>(&mut self, outgoing: &[Vec<T>]) -> (Vec<T>, Vec<usize>)
    where
        T: mpi::datatype::Equivalence + Copy + Default,
    {
        let me = self.world.rank() as usize;
        let counts: Vec<usize> = outgoing
            .iter()
            .enumerate()
            .map(|(p, to)| if p == me { 0 } else { to.len() })
            .collect();
        let send: Vec<T> = outgoing
            .iter()
            .enumerate()
            .filter(|&(p, _)| p != me)
            .flat_map(|(_, to)| to.iter().copied())
            .collect();
        self.send_partitioned(&send, &counts)
    }

    /// Sends the first `counts[0]` items of `send` to process 0, the next
    /// `counts[1]` to process 1, and so on; returns what each process sent
    /// this one, concatenated, with how many came from each (so a reply in
    /// the same order goes back with those counts).
    pub fn send_partitioned<T>(&mut self, send: &[T], counts: &[usize]) -> (Vec<T>, Vec<usize>)
    where
        T: mpi::datatype::Equivalence + Copy + Default,
    {
        let counts: Vec<i32> = counts.iter().map(|&c| message_len(c)).collect();
        self.bytes_sent +=
            counts.iter().map(|&c| c as u64).sum::<u64>() * std::mem::size_of::<T>() as u64;
        let mut incoming = vec![0i32; self.processes()];
        self.timed(|world| world.all_to_all_into(&counts[..], &mut incoming[..]));
        let total: usize = incoming.iter().map(|&c| c as usize).sum();
        // Empty buffers still need addresses MPI accepts: an empty slice of
        // one element's storage (a new empty vector's is a dangling one).
        let pad = [T::default()];
        let send = if send.is_empty() { &pad[..0] } else { send };
        let mut received = Vec::with_capacity(total.max(1));
        received.resize(total, T::default());
        let send_displacements = displacements(&counts);
        let receive_displacements = displacements(&incoming);
        self.timed(|world| {
            let send = Counts::new(send, &counts[..], &send_displacements[..]);
            let mut receive =
                CountsMut::new(&mut received[..], &incoming[..], &receive_displacements[..]);
            world.all_to_all_varcount_into(&send, &mut receive)
        });
        (received, incoming.iter().map(|&c| c as usize).collect())
    }

    /// Element-wise sums of `values` over every process.
    pub fn sum(&mut self, values: &[u64]) -> Vec<u64> {
        let mut total = vec![0u64; values.len()];
        self.timed(|world| world.all_reduce_into(values, &mut total[..], SystemOperation::sum()));
        total
    }

    /// True on every process when `value` is true on any.
    pub fn any(&mut self, value: bool) -> bool {
        self.sum(&[value as u64])[0] > 0
    }

    /// Every process's `values`, in process order.
    pub fn gather<T: mpi::datatype::Equivalence + Copy + Default>(
        &mut self,
        values: &[T],
    ) -> Vec<Vec<T>> {
        let mut lengths = vec![0i32; self.processes()];
        let len = message_len(values.len());
        self.timed(|world| world.all_gather_into(&len, &mut lengths[..]));
        let offsets = displacements(&lengths);
        let mut all = vec![T::default(); lengths.iter().map(|&l| l as usize).sum()];
        if all.is_empty() {
            // Nothing to gather (MPI refuses empty buffers' addresses).
            return vec![Vec::new(); self.processes()];
        }
        self.timed(|world| {
            let mut receive = CountsMut::new(&mut all[..], &lengths[..], &offsets[..]);
            world.all_gather_varcount_into(values, &mut receive)
        });
        lengths
            .iter()
            .zip(&offsets)
            .map(|(&len, &offset)| all[offset as usize..(offset + len) as usize].to_vec())
            .collect()
    }

    /// Waits for every process.
    pub fn barrier(&mut self) {
        self.timed(|world| world.barrier());
    }
}

/// MPI counts elements in `i32`; the backend keeps every message far
/// below that ([`super::two_bit`]'s round limit).
fn message_len(len: usize) -> i32 {
    i32::try_from(len).expect("an MPI message under 2^31 elements")
}

fn displacements(counts: &[i32]) -> Vec<i32> {
    counts
        .iter()
        .scan(0i32, |next, &count| {
            let here = *next;
            *next += count;
            Some(here)
        })
        .collect()
}
