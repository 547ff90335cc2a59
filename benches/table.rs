//! The bit-table hot paths, hand-written on `AtomicU64` words against the
//! same operations through bitvec's `BitSlice<AtomicU64>`.
//!
//! `cargo bench --bench table` prints, for a 2^28-bit table (32 MiB, larger
//! than L2): random test-and-set, population count and iteration over set
//! bits. The hand-written versions are what `table::OneBitTable` uses.

use std::hint::black_box;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use bitsolve::hash::splitmix64;
use bitsolve::table::OneBitTable;
use bitvec::prelude::*;

const BITS: u64 = 1 << 28;
const TOUCHES: usize = 1 << 24;

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    (0..runs)
        .map(|_| {
            let started = Instant::now();
            black_box(f());
            started.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn report(what: &str, ours: f64, theirs: f64, units: f64, unit: &str) {
    println!(
        "{what:<28} hand-written {:>8.1} M{unit}/s   bitvec {:>8.1} M{unit}/s   ({:.2}x)",
        units / ours / 1e6,
        units / theirs / 1e6,
        theirs / ours
    );
}

fn main() {
    let mut state = 99u64;
    let indices: Vec<u64> = (0..TOUCHES)
        .map(|_| {
            state = splitmix64(state);
            state % BITS
        })
        .collect();

    let table = OneBitTable::scratch("bench", BITS).unwrap();
    let words: Vec<AtomicU64> = (0..BITS / 64).map(|_| AtomicU64::new(0)).collect();
    let bits = BitSlice::<AtomicU64, Lsb0>::from_slice(&words);

    let ours = best_of(3, || {
        indices.iter().filter(|&&i| table.test_and_set(i)).count()
    });
    let theirs = best_of(3, || {
        indices
            .iter()
            .filter(|&&i| {
                let was = bits[i as usize];
                if !was {
                    bits.set_aliased(i as usize, true);
                }
                !was
            })
            .count()
    });
    report("random test-and-set", ours, theirs, TOUCHES as f64, "ops");

    // bitvec counts on one thread; so does ours here, for a fair comparison
    // (the searches run it on all threads).
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let ours = one_thread.install(|| best_of(5, || table.count_ones()));
    let theirs = best_of(5, || bits.count_ones());
    report("population count", ours, theirs, BITS as f64, "bits");

    let ours = best_of(3, || {
        let mut sum = 0u64;
        table.for_each_set(0..BITS, |i| sum = sum.wrapping_add(i));
        sum
    });
    let theirs = best_of(3, || {
        bits.iter_ones()
            .fold(0u64, |sum, i| sum.wrapping_add(i as u64))
    });
    let set = table.count_ones() as f64;
    report("iterate set bits (6% set)", ours, theirs, set, "bits");
    let _ = words.iter().map(|w| w.load(Relaxed)).sum::<u64>();
}
