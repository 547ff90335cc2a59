//! What the passes of a search across the processes of an MPI job sent:
//! plain records, kept outside the MPI backend so that a report can hold
//! them in a build without MPI (where it is always absent).

use serde::Serialize;

/// What one pass sent and how long it spent in MPI, for every process.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PassTraffic {
    /// The driver's label of the pass ("layer 7").
    #[serde(rename = "pass")]
    pub label: String,
    /// Exchange rounds of the pass (the same on every process).
    pub rounds: u64,
    /// Bytes each process sent to the others.
    pub bytes_sent: Vec<u64>,
    /// Seconds each process spent inside MPI calls during the pass,
    /// waiting for slower processes included.
    pub communication_seconds: Vec<f64>,
}

/// What a whole search across an MPI job sent, pass by pass.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Traffic {
    /// Processes in the job.
    pub processes: usize,
    /// One record per pass.
    pub passes: Vec<PassTraffic>,
}
