//! The pattern every distributed pass follows: work on this process's
//! chunks in parallel until what they buffered for other processes reaches
//! a bound, exchange it, repeat until every process is done. Memory stays
//! bounded however large the pass, and MPI is only called from the thread
//! running the pass, between the parallel groups.

use rayon::prelude::*;

use super::exchange::Exchange;
use super::{MpiBackend, PassTraffic};
use crate::search::Progress;
use crate::search::chunks::each_unit;

/// Cell indices a process buffers for the others before a round's exchange
/// (cells to mark or to set, or cells to ask about; 8 bytes each: 32 MiB).
/// A round may overshoot by what one group of chunks adds; a process
/// receives about this much at most from each other one.
pub(super) const ROUND_LIMIT: usize = 1 << 22;

/// Runs `visit` over `chunks` in rounds: in parallel, a group at a time,
/// until what the results buffered for other processes (`buffered`)
/// reaches [`ROUND_LIMIT`] or the chunks run out; then `round` exchanges
/// it. Every process takes part in every round, with nothing to send once
/// its chunks are done. Advances `progress` by one per chunk; returns the
/// number of rounds (the same on every process).
pub(super) fn in_rounds<C: Sync, R: Send>(
    exchange: &mut Exchange,
    chunks: &[C],
    progress: &dyn Progress,
    visit: impl Fn(&C) -> R + Sync,
    buffered: impl Fn(&R) -> usize,
    mut round: impl FnMut(&mut Exchange, Vec<R>),
) -> u64 {
    let group = rayon::current_num_threads() * 2;
    let (mut done, mut rounds) = (0, 0);
    loop {
        let mut results = Vec::new();
        let mut held = 0;
        while done < chunks.len() && held < ROUND_LIMIT {
            let end = (done + group).min(chunks.len());
            let visited: Vec<R> = each_unit(&chunks[done..end])
                .map(|chunk| {
                    let result = visit(chunk);
                    progress.advance(1);
                    result
                })
                .collect();
            held += visited.iter().map(&buffered).sum::<usize>();
            results.extend(visited);
            done = end;
        }
        round(exchange, results);
        rounds += 1;
        if !exchange.any(done < chunks.len()) {
            return rounds;
        }
    }
}

/// Joins what a round's chunks buffered per process: everything going to
/// each process, in chunk order.
pub(super) fn joined(
    processes: usize,
    buffers: impl IntoIterator<Item = Vec<Vec<u64>>>,
) -> Vec<Vec<u64>> {
    let mut outgoing = vec![Vec::new(); processes];
    for buffer in buffers {
        for (to, mut words) in outgoing.iter_mut().zip(buffer) {
            to.append(&mut words);
        }
    }
    outgoing
}

impl MpiBackend<'_> {
    /// Logs what `exchange` sent and how long it waited during the pass
    /// `label`, for every process (collective).
    pub(super) fn log_pass(&self, exchange: &mut Exchange, label: &str, rounds: u64) {
        let bytes = exchange.gather(&[exchange.bytes_sent]);
        let seconds = exchange.gather(&[exchange.seconds]);
        self.traffic.lock().expect("traffic log").push(PassTraffic {
            label: label.to_string(),
            rounds,
            bytes_sent: bytes.into_iter().map(|b| b[0]).collect(),
            communication_seconds: seconds.into_iter().map(|s| s[0]).collect(),
        });
    }
}
