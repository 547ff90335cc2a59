//! The process's peak resident memory, as Linux reports it, so long runs
//! can print what each stage needed.

/// The peak resident set size (VmHWM) in bytes, if the system says.
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_grows_with_a_touched_allocation() {
        let Some(before) = peak_rss() else { return };
        let block = vec![1u8; 64 << 20];
        std::hint::black_box(&block);
        let after = peak_rss().unwrap();
        assert!(after >= before + (60 << 20), "{before} -> {after}");
    }
}
