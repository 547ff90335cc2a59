//! Where a layer's wall time goes, phase by phase, so that any run's
//! report says which part keeps it from scaling with the cores (or the
//! device) it is given.

use std::time::Instant;

/// A layer's wall time by phase, in seconds. The phases do not overlap;
/// what they leave out of the layer's time is bookkeeping between them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Phases {
    /// Opening the layer's table (from the store, or afresh), staging it
    /// in memory, and the passes' set-up (their bit tables), less what
    /// `upload` and `kernels` count.
    pub setup: f64,
    /// On a device: the layer's tables allocated there and the values
    /// uploaded (the layer's and those of the layer below; a streamed
    /// layer's windows move during its passes, an acyclic layer's set-up
    /// is in its sweep).
    pub upload: f64,
    /// On a device: the layer's kernels compiled and bound (nothing to
    /// compile where an earlier layer's program had the same text).
    pub kernels: f64,
    /// Reading the solved layers below that the layer reads from the
    /// store.
    pub reading_below: f64,
    /// The passes over a layer with moves inside it.
    pub passes: f64,
    /// The one sweep of an acyclic layer.
    pub sweep: f64,
    /// The positions left undecided given their value (draws).
    pub fill: f64,
    /// Symmetric twins given their representative's value.
    pub twins: f64,
    /// The device's values copied back to the host table.
    pub sync: f64,
    /// Records written to the store: the records while the layer runs
    /// and the last one.
    pub records: f64,
    /// The values counted for the report.
    pub count: f64,
}

impl Phases {
    /// Runs `work`, adding its wall time to the phase `slot` picks.
    pub fn time<T>(&mut self, slot: fn(&mut Phases) -> &mut f64, work: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let result = work();
        *slot(self) += started.elapsed().as_secs_f64();
        result
    }

    /// Each phase's name (as the JSON reports write it) and seconds.
    pub fn named(&self) -> [(&'static str, f64); 11] {
        [
            ("setup", self.setup),
            ("upload", self.upload),
            ("kernels", self.kernels),
            ("reading_below", self.reading_below),
            ("passes", self.passes),
            ("sweep", self.sweep),
            ("fill", self.fill),
            ("twins", self.twins),
            ("sync", self.sync),
            ("records", self.records),
            ("count", self.count),
        ]
    }
}

/// `{"setup": seconds, …}`, every phase by its name.
impl serde::Serialize for Phases {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.named())
    }
}

/// The sum, phase by phase (a run's phases over its layers).
impl std::ops::Add for Phases {
    type Output = Phases;
    fn add(self, other: Phases) -> Phases {
        Phases {
            setup: self.setup + other.setup,
            upload: self.upload + other.upload,
            kernels: self.kernels + other.kernels,
            reading_below: self.reading_below + other.reading_below,
            passes: self.passes + other.passes,
            sweep: self.sweep + other.sweep,
            fill: self.fill + other.fill,
            twins: self.twins + other.twins,
            sync: self.sync + other.sync,
            records: self.records + other.records,
            count: self.count + other.count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phase_adds_the_time_of_its_work_and_sums_add_up() {
        let mut phases = Phases::default();
        let value = phases.time(
            |p| &mut p.passes,
            || {
                std::thread::sleep(std::time::Duration::from_millis(20));
                7
            },
        );
        assert_eq!(value, 7);
        assert!(phases.passes >= 0.02, "{phases:?}");
        assert_eq!(phases.setup, 0.0);
        let twice = phases + phases;
        assert_eq!(twice.passes, 2.0 * phases.passes);
        let json = serde_json::to_value(twice).unwrap();
        assert_eq!(json["passes"].as_f64(), Some(twice.passes));
        assert_eq!(json.as_object().unwrap().len(), 11);
    }
}
