//! The process's peak resident memory, as Linux reports it, so long runs
//! can print what each stage needed.

/// The peak resident set size (VmHWM) in bytes, if the system says.
pub(crate) fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The peak holds at least a block the process touched (other tests
    /// of the binary may have raised it further: only the floor is sure).
    #[test]
    fn the_peak_holds_a_touched_allocation() {
        if peak_rss().is_none() {
            return;
        }
        let block = vec![1u8; 64 << 20];
        std::hint::black_box(&block);
        let after = peak_rss().unwrap();
        assert!(after >= 64 << 20, "peak {after} below the 64 MiB touched");
    }
}
