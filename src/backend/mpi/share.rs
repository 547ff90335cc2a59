//! A process's share of a table: its own cells of every block, kept on the
//! heap or as its own file in a store (one file per process, so a shared
//! and a per-node file system both work). The file's identity names the
//! process and the partition, so a store is only ever resumed by a job cut
//! the same way.

use super::MpiBackend;
use crate::backend::partition::Partition;
use crate::error::{Error, Result};
use crate::search::Progress;
use crate::table::shares;
use crate::table::{Backing, TableIdentity, TwoBitTable};

/// Opens this process's share of the table `whole` names (every process
/// opens its own, collectively): the table and its progress record. A
/// process that cannot open its share says why, and every other one
/// refuses too, so no process waits for ever in a later exchange.
pub(super) fn open_share(
    backend: &MpiBackend,
    backing: &Backing,
    whole: &TableIdentity,
    partition: &Partition,
    fill: u8,
    progress: &dyn Progress,
) -> Result<(TwoBitTable, Option<Vec<u8>>)> {
    let (me, parts) = (backend.process(), backend.processes());
    let identity = partition.share_identity(whole, me);
    let opened = refuse_other_job_sizes(backing, &whole.descriptor, parts)
        .and_then(|()| TwoBitTable::open(backing, identity, fill, progress));
    let failed = backend.exchange().sum(&[opened.is_err() as u64])[0];
    match opened {
        Err(error) => Err(error),
        Ok(_) if failed > 0 => Err(Error::Unsupported(format!(
            "{failed} other MPI process{} could not open its table (see its message)",
            if failed == 1 { "" } else { "es" }
        ))),
        Ok(opened) => Ok(opened),
    }
}

/// Whether this process's share of `whole` is in the store `dir`.
pub(super) fn share_exists(
    backend: &MpiBackend,
    dir: &std::path::Path,
    whole: &TableIdentity,
) -> bool {
    shares::share_exists(
        dir,
        &whole.descriptor,
        backend.process(),
        backend.processes(),
    )
}

/// A store holding this table's parts for another number of processes
/// cannot be resumed by this job: its shares are cut differently.
pub(super) fn refuse_other_job_sizes(
    backing: &Backing,
    descriptor: &str,
    parts: usize,
) -> Result<()> {
    let (Backing::Directory(dir) | Backing::ReadOnly(dir)) = backing else {
        return Ok(());
    };
    // A job of another size wrote its first share under another name.
    let other = shares::job_sizes_in_store(dir, descriptor).find(|&size| size != parts);
    match other {
        Some(size) => Err(Error::Unsupported(format!(
            "{} holds this table split over {size} MPI processes: rerun with {size} processes (mpirun -np {size}) or use another --store",
            dir.display()
        ))),
        None => Ok(()),
    }
}
