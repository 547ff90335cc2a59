//! What a table file's header says about it, without reading its body:
//! what the explorer lists for each file of a store.

use std::path::Path;

use crate::error::Result;
use crate::search::Checkpoint;
use crate::table::header::{Seal, TableIdentity};
use crate::table::store_file;

/// A table file as its header describes it.
#[derive(Clone, Debug)]
pub struct TableSummary {
    /// What the table holds, and over how many states.
    pub identity: TableIdentity,
    /// Whether the file was closed after its last write.
    pub sealed: bool,
    /// Whether the run that wrote it recorded its end.
    pub complete: bool,
    /// The counts its run recorded last (a BFS's or depth table's layer
    /// sizes), empty where there is no readable record.
    pub counts: Vec<u64>,
}

/// Reads the header of the table file at `path` (nothing of its body).
pub fn table_summary(path: &Path) -> Result<TableSummary> {
    let opened = store_file::open_file(path, false)?;
    let header = store_file::read_header(&opened, path)?;
    let checkpoint = Checkpoint::decode(&header.progress).ok();
    Ok(TableSummary {
        identity: header.identity,
        sealed: matches!(header.seal, Seal::Sealed),
        complete: checkpoint.as_ref().is_some_and(|c| c.complete),
        counts: checkpoint.map(|c| c.counts).unwrap_or_default(),
    })
}
