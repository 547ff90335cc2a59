//! The host's half of a resident retrograde layer's work lists
//! (`shaders/retro.wgsl`): two decided lists that the passes take turns
//! filling and the candidates' list, how many entries each was given, and
//! their lengths emptied on the device before the kernels that fill them.

use std::cell::Cell;

use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::table::DeviceTable;

/// The candidates' list (the shader's constant of the same name); the
/// decided lists are 0 and 1.
const CANDIDATES: usize = 2;

pub(super) struct WorkLists {
    /// Entries each list holds (0: the layer has no lists).
    capacity: u32,
    /// The decided list the running pass appends to.
    filling: Cell<usize>,
    /// Entries appended to each list since it was emptied (None: never
    /// filled). A list holds all of its marks while that is at most
    /// `capacity`.
    lengths: [Cell<Option<u64>>; 3],
}

/// What one kernel appended to the lists.
pub(super) struct Appended {
    pub decided: u64,
    pub candidates: u64,
}

impl WorkLists {
    pub fn new(capacity: u32) -> Self {
        WorkLists {
            capacity,
            filling: Cell::new(0),
            lengths: Default::default(),
        }
    }

    /// The decided list the running pass appends to.
    pub fn filling(&self) -> u32 {
        self.filling.get() as u32
    }

    /// Before pass 0: its decided list emptied.
    pub fn begin_initial(&self, gpu: &GpuDevice, table: &DeviceTable) {
        self.empty(gpu, table, self.filling.get());
    }

    /// Before a later pass: the other decided list emptied and filled from
    /// now on, and the candidates emptied. Returns the decided list the
    /// pass before filled, with its entries, when it holds all of them.
    pub fn begin_later(&self, gpu: &GpuDevice, table: &DeviceTable) -> Option<(u32, u64)> {
        let before = self.filling.get();
        let read = self
            .complete(before)
            .map(|entries| (before as u32, entries));
        self.filling.set(1 - before);
        self.empty(gpu, table, 1 - before);
        self.empty(gpu, table, CANDIDATES);
        read
    }

    /// The candidates' entries, when the list holds all of them.
    pub fn candidates(&self) -> Option<u64> {
        self.complete(CANDIDATES)
    }

    /// Counts what a kernel appended.
    pub fn add(&self, appended: Appended) {
        let add = |list: usize, entries: u64| {
            let length = &self.lengths[list];
            length.set(length.get().map(|before| before + entries));
        };
        add(self.filling.get(), appended.decided);
        add(CANDIDATES, appended.candidates);
    }

    fn complete(&self, list: usize) -> Option<u64> {
        self.lengths[list]
            .get()
            .filter(|&entries| entries <= self.capacity as u64)
    }

    /// Sets list `list`'s length to 0 on the device, before the work of
    /// the next submission.
    fn empty(&self, gpu: &GpuDevice, table: &DeviceTable, list: usize) {
        if self.capacity == 0 {
            return;
        }
        table.write_words(gpu, list as u64, &[0]);
        self.lengths[list].set(Some(0));
    }
}
