//! How the tables of a distributed job are named in a store: every process
//! keeps its share of a table as its own file, named after the whole table,
//! the process and the job's size. This is naming only (how a job cuts a
//! table is `backend::partition`'s arithmetic), kept with the store so that
//! the single-process solver and the readers of a store recognise a job's
//! shares without knowing how it cut the table.

use std::collections::HashSet;
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
///
/// The store is listed once and the names matched in memory: looking for
/// each of the [`LARGEST_JOB`] possible first shares on disk took 4,096
/// `stat` calls for every layer not held whole, and the explorer's server
/// spent half its time in them.
pub fn job_sizes_in_store(dir: &Path, descriptor: &str) -> std::vec::IntoIter<usize> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new().into_iter();
    };
    let names: HashSet<String> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    let first_share = |size: usize| file_name_for(&share_descriptor(descriptor, 0, size));
    let largest = first_share(LARGEST_JOB);
    let sized = format!("{LARGEST_JOB}.bst");
    let mut sizes: Vec<usize> = match largest.strip_suffix(&sized) {
        // No name is cut short (the longest is not): a share's name is a
        // prefix and the job's size, read back from the listing.
        Some(prefix) => names
            .iter()
            .filter_map(|name| {
                name.strip_prefix(prefix)?
                    .strip_suffix(".bst")?
                    .parse()
                    .ok()
            })
            .filter(|&size| (1..=LARGEST_JOB).contains(&size) && names.contains(&first_share(size)))
            .collect(),
        // Long descriptors end in a hash of the whole: every size's name
        // is made and looked up in the listing.
        None => (1..=LARGEST_JOB)
            .filter(|&size| names.contains(&first_share(size)))
            .collect(),
    };
    sizes.sort_unstable();
    // A name listed may still not lead to a file (a broken link), as a
    // lookup on disk would have found.
    sizes.retain(|&size| share_exists(dir, descriptor, 0, size));
    sizes.into_iter()
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
        // A second job's first share, and a table whose long descriptor
        // ends its names in a hash.
        let long = format!("game {}", "long name ".repeat(20));
        for (descriptor, size) in [("game layer=3", 12), (long.as_str(), 7)] {
            let name = file_name_for(&share_descriptor(descriptor, 0, size));
            std::fs::write(dir.join(name), b"").unwrap();
        }
        let sizes = |descriptor: &str| job_sizes_in_store(&dir, descriptor).collect::<Vec<_>>();
        assert_eq!(sizes("game layer=3"), [3, 12]);
        assert_eq!(sizes(&long), [7]);
        assert_eq!(sizes("game layer=1"), [] as [usize; 0]);
        assert_eq!(
            job_size_in_store(&dir.join("missing"), "game layer=3"),
            None
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
