//! A table as the cache holds it: what was read, the files it was read
//! from as they were then, and the memory it takes. Every kind of table a
//! store keeps (values, distances, depths) is held this way; the cache
//! ([`super::cache`]) counts and drops them, knowing none of them.

use std::path::Path;
use std::sync::Arc;

use super::paged::PagedWords;
use super::reading::Watched;

/// A table as read, and the files it was read from as they were then.
#[derive(Debug)]
pub(super) struct Held<T> {
    pub table: T,
    pub files: Vec<Watched>,
}

impl<T> Held<T> {
    /// The first of its files that changed since it was read.
    pub(super) fn changed(&self) -> Option<&Watched> {
        self.files.iter().find(|file| file.change().is_some())
    }
}

/// The memory a table takes while held, and which of its files it pages
/// (a paged table checks its chunks as it reads them, and may find one
/// damaged after it was opened: see [`super::paged`]).
pub(super) trait InMemory {
    fn bytes(&self) -> u64;

    /// The paged reader of its file at `path`, if it pages that file.
    fn paged(&self, _path: &Path) -> Option<&PagedWords> {
        None
    }
}

impl<T: InMemory> InMemory for Option<T> {
    fn bytes(&self) -> u64 {
        self.as_ref().map_or(0, InMemory::bytes)
    }

    fn paged(&self, path: &Path) -> Option<&PagedWords> {
        self.as_ref().and_then(|table| table.paged(path))
    }
}

impl<T: InMemory> InMemory for Arc<T> {
    fn bytes(&self) -> u64 {
        self.as_ref().bytes()
    }

    fn paged(&self, path: &Path) -> Option<&PagedWords> {
        self.as_ref().paged(path)
    }
}
