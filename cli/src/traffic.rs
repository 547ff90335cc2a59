//! The MPI traffic table for people, after a run across the processes of a
//! job (the JSON report carries the same figures: `jobs::Distributed`).

use bitsolve::jobs::Distributed;

/// Per pass, the bytes all processes sent, the most one sent, and the
/// shortest and longest time a process spent communicating; nothing
/// outside a job.
pub fn print_traffic(distributed: Distributed) {
    #[cfg(feature = "mpi")]
    if let Some(mpi) = distributed.backend {
        print_table(mpi);
    }
    #[cfg(not(feature = "mpi"))]
    let _ = distributed;
}

#[cfg(feature = "mpi")]
fn print_table(mpi: &bitsolve::backend::mpi::MpiBackend) {
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
