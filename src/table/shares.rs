//! How the tables of a distributed job are named in a store: every process
//! keeps its share of a table as its own file, named after the whole table,
//! the process and the job's size. This is naming only (how a job cuts a
//! table is `backend::partition`'s arithmetic), kept with the store so that
//! the single-process solver and the readers of a store recognise a job's
//! shares without knowing how it cut the table.

use std::path::Path;

use super::header::{TableIdentity, file_name_for};

/// Largest job size whose shares a store is searched for.
pub const LARGEST_JOB: usize = 4096;

/// The descriptor of process `part`'s share among `parts` of the table
/// `descriptor` names.
pub fn share_descriptor(descriptor: &str, part: usize, parts: usize) -> String {
    format!("{descriptor}; MPI part {} of {parts}", part + 1)
}

/// The identity of process `part`'s share among `parts` of the table
/// `whole`: its own file in a store, which names the process and the job's
/// size, and a definition that names the partition (`partition`, a line
/// the same cut always gives), so a store is only ever resumed (or read) as
/// the job that wrote it cut the table. `cells` is the share's size.
pub fn share_identity(
    whole: &TableIdentity,
    part: usize,
    parts: usize,
    partition: &str,
    cells: u64,
) -> TableIdentity {
    TableIdentity {
        descriptor: share_descriptor(&whole.descriptor, part, parts),
        definition: format!("{}mpi {partition}\n", whole.definition),
        bits_per_state: whole.bits_per_state,
        states: cells,
    }
}

/// Whether process `part`'s share among `parts` of the table `descriptor`
/// names is in the store `dir`.
pub fn share_exists(dir: &Path, descriptor: &str, part: usize, parts: usize) -> bool {
    dir.join(file_name_for(&share_descriptor(descriptor, part, parts)))
        .exists()
}

/// The sizes of the jobs whose shares of the table `descriptor` names are
/// in `dir`, smallest first; a job is recognised by its first share.
pub fn job_sizes_in_store<'a>(
    dir: &'a Path,
    descriptor: &'a str,
) -> impl Iterator<Item = usize> + 'a {
    (1..=LARGEST_JOB).filter(move |&size| share_exists(dir, descriptor, 0, size))
}

/// The size of the job whose shares of the table `descriptor` names are in
/// `dir`, if any (the first found).
pub fn job_size_in_store(dir: &Path, descriptor: &str) -> Option<usize> {
    job_sizes_in_store(dir, descriptor).next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_is_found_by_its_first_share() {
        let dir = std::env::temp_dir().join(format!("bitsolve-shares-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(job_size_in_store(&dir, "game layer=3"), None);
        for part in 0..3 {
            let name = file_name_for(&share_descriptor("game layer=3", part, 3));
            std::fs::write(dir.join(name), b"").unwrap();
        }
        assert!(share_exists(&dir, "game layer=3", 2, 3));
        assert!(!share_exists(&dir, "game layer=3", 0, 2));
        assert_eq!(job_size_in_store(&dir, "game layer=3"), Some(3));
        assert_eq!(job_size_in_store(&dir, "game layer=4"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
