//! Rank + unrank throughput per core for every perfect hash.
//!
//! `cargo bench --bench hashing` prints one line per hash: rank+unrank pairs
//! per second on one thread, best of five runs over the same sample ranks.

use std::hint::black_box;
use std::time::Instant;

use bitsolve::hash::permutation::{
    factorial, rank_lex, rank_mr, rank_mr_folded, unrank_lex, unrank_mr, unrank_mr_folded,
};
use bitsolve::hash::prefix_lehmer::{self, PrefixWalk, UnrankCache};
use bitsolve::hash::{
    BinomialRanker, BinomialRun, ColourSetRanker, MultinomialRanker, Stone, StoneRanker, splitmix64,
};

const SAMPLES: usize = 1 << 20;
const RUNS: usize = 5;

fn sample_ranks(size: u64) -> Vec<u64> {
    let mut state = 12345u64;
    (0..SAMPLES)
        .map(|_| {
            state = splitmix64(state);
            state % size
        })
        .collect()
}

/// Best-of-RUNS pairs per second of `round_trip` over `ranks`.
fn measure(name: &str, ranks: &[u64], mut round_trip: impl FnMut(u64) -> u64) {
    let mut best = f64::MAX;
    for _ in 0..RUNS {
        let started = Instant::now();
        let mut checksum = 0u64;
        for &rank in ranks {
            checksum = checksum.wrapping_add(round_trip(black_box(rank)));
        }
        black_box(checksum);
        best = best.min(started.elapsed().as_secs_f64());
    }
    let per_second = ranks.len() as f64 / best;
    println!(
        "{name:<44} {:>8.2} M rank+unrank/s  ({:>6.1} ns each)",
        per_second / 1e6,
        1e9 / per_second
    );
}

fn main() {
    let n = 12;
    let ranks = sample_ranks(factorial(n).unwrap());
    let mut perm = vec![0u8; n];
    measure("Myrvold-Ruskey n=12", &ranks, |r| {
        unrank_mr(r, &mut perm);
        rank_mr(&perm)
    });
    measure("  Myrvold-Ruskey n=12, unrank only", &ranks, |r| {
        unrank_mr(r, &mut perm) as u64 + perm[3] as u64
    });
    let perms: Vec<Vec<u8>> = ranks[..4096]
        .iter()
        .map(|&r| {
            let mut p = vec![0u8; n];
            unrank_mr(r, &mut p);
            p
        })
        .collect();
    measure("  Myrvold-Ruskey n=12, rank only", &ranks, |r| {
        rank_mr(&perms[(r % 4096) as usize])
    });
    measure("Myrvold-Ruskey folded n=12 (parity fixed)", &ranks, |r| {
        unrank_mr_folded(r / 2, false, &mut perm);
        rank_mr_folded(&perm)
    });
    measure("prefix Lehmer n=12", &ranks, |r| {
        prefix_lehmer::unrank(r, &mut perm);
        prefix_lehmer::rank(&perm)
    });
    measure("  prefix Lehmer n=12, unrank only", &ranks, |r| {
        prefix_lehmer::unrank(r, &mut perm);
        perm[3] as u64
    });
    // A frontier scan visits increasing ranks, mostly within one window of
    // 6! ranks: the cached unrank then decodes only the top six positions.
    let mut increasing = ranks.clone();
    increasing.sort_unstable();
    let mut cache = UnrankCache::default();
    measure(
        "  prefix Lehmer n=12, cached unrank, increasing",
        &increasing,
        |r| {
            prefix_lehmer::unrank_cached(r, &mut perm, &mut cache);
            perm[3] as u64
        },
    );
    // All eleven Pancake flips of one stack ranked from its rank, against
    // ranking each flipped stack from scratch with Myrvold-Ruskey.
    measure(
        "  prefix Lehmer n=12, 11 flips from the parent",
        &ranks,
        |r| {
            prefix_lehmer::unrank(r, &mut perm);
            let mut walk = PrefixWalk::default();
            (2..=n).fold(0u64, |sum, k| {
                sum ^ prefix_lehmer::rank_with_prefix_reversed(r, &perm, k, &mut walk)
            })
        },
    );
    measure(
        "  Myrvold-Ruskey n=12, 11 flips from scratch",
        &ranks,
        |r| {
            unrank_mr(r, &mut perm);
            (2..=n).fold(0u64, |sum, k| {
                let mut flipped = [0u8; 12];
                flipped.copy_from_slice(&perm);
                flipped[..k].reverse();
                sum ^ rank_mr(&flipped)
            })
        },
    );
    measure("lexicographic n=12", &ranks, |r| {
        unrank_lex(r, &mut perm);
        rank_lex(&perm)
    });

    let binomial = BinomialRanker::new(33, 16).unwrap();
    let ranks = sample_ranks(binomial.size());
    measure("binomial 33 choose 16", &ranks, |r| {
        binomial.rank(binomial.unrank(r))
    });
    measure("  binomial 33 choose 16, unrank only", &ranks, |r| {
        binomial.unrank(r)
    });
    let masks: Vec<u64> = ranks[..4096].iter().map(|&r| binomial.unrank(r)).collect();
    measure("  binomial 33 choose 16, rank only (bytes)", &ranks, |r| {
        binomial.rank(masks[(r % 4096) as usize])
    });
    measure("  binomial 33 choose 16, rank only (bits)", &ranks, |r| {
        binomial.rank_bitwise(masks[(r % 4096) as usize])
    });
    measure("  binomial 33 choose 16, unrank bit by bit", &ranks, |r| {
        binomial.unrank_bitwise(r)
    });
    // A frontier scan: increasing ranks about 300 apart (the density of a
    // 16-peg layer of Peg Solitaire with --symmetry), unranked through runs.
    let mut scan: Vec<u64> = ranks.iter().map(|&r| r % (300 * SAMPLES as u64)).collect();
    scan.sort_unstable();
    let mut run = BinomialRun::default();
    measure("  binomial 33 choose 16, unrank in a scan", &scan, |r| {
        run.get(r).unwrap_or_else(|| {
            run = binomial.unrank_run(r);
            run.get(r).unwrap()
        })
    });

    let multinomial = MultinomialRanker::new(&[1, 15, 15]).unwrap();
    let ranks = sample_ranks(multinomial.size());
    let mut cells = vec![0u8; 31];
    measure("multinomial 31 cells (1/15/15)", &ranks, |r| {
        multinomial.unrank(r, &mut cells);
        multinomial.rank(&cells)
    });

    let sets = ColourSetRanker::new(&[1, 15, 15]).unwrap();
    measure("colour sets 31 cells (1/15/15)", &ranks, |r| {
        sets.unrank(r, &mut cells);
        sets.rank(&cells)
    });
    // Alike pieces of a definition file: sixteen slots in four colours,
    // ranked after a move (rank only) and decoded once a position.
    for counts in [[4u8, 4, 4, 4], [8, 4, 2, 2]] {
        let multinomial = MultinomialRanker::new(&counts).unwrap();
        let sets = ColourSetRanker::new(&counts).unwrap();
        let ranks = sample_ranks(sets.size());
        let arrangements: Vec<Vec<u8>> = ranks[..4096]
            .iter()
            .map(|&r| {
                let mut cells = vec![0u8; 16];
                sets.unrank(r, &mut cells);
                cells
            })
            .collect();
        let mut cells = vec![0u8; 16];
        measure(&format!("multinomial 16 cells {counts:?}"), &ranks, |r| {
            multinomial.unrank(r, &mut cells);
            multinomial.rank(&cells)
        });
        measure(&format!("colour sets 16 cells {counts:?}"), &ranks, |r| {
            sets.unrank(r, &mut cells);
            sets.rank(&cells)
        });
        measure("  multinomial, rank only", &ranks, |r| {
            multinomial.rank(&arrangements[(r % 4096) as usize])
        });
        measure("  colour sets, rank only", &ranks, |r| {
            sets.rank(&arrangements[(r % 4096) as usize])
        });
    }

    // The same boards as two masks (hash::stones), and what a positional
    // game's sweep asks: every placement of a board 30 cells in 9 stones.
    let stones = StoneRanker::new(31, 30, 15).unwrap();
    let ranks = sample_ranks(stones.size());
    measure("stones 31 cells (1/15/15)", &ranks, |r| {
        let (occupied, black) = stones.unrank(r);
        stones.rank(occupied, black)
    });
    let before = StoneRanker::new(30, 9, 5).unwrap();
    let after = StoneRanker::new(30, 10, 5).unwrap();
    let ranks = sample_ranks(before.size());
    measure("  stones 30 cells, 9 stones: 21 placements", &ranks, |r| {
        let (occupied, black) = before.unrank(r);
        let mut sum = 0u64;
        after.placements(occupied, black, Stone::White, u64::MAX, |_, rank| {
            sum = sum.wrapping_add(rank);
            true
        });
        sum
    });
    let multinomial = MultinomialRanker::new(&[21, 5, 4]).unwrap();
    let placed = MultinomialRanker::new(&[20, 5, 5]).unwrap();
    let mut cells = vec![0u8; 30];
    measure(
        "  multinomial 30 cells, 9 stones: 21 placements",
        &ranks,
        |r| {
            multinomial.unrank(r, &mut cells);
            let mut sum = 0u64;
            for cell in 0..30 {
                if cells[cell] == 0 {
                    cells[cell] = 2;
                    sum = sum.wrapping_add(placed.rank(&cells));
                    cells[cell] = 0;
                }
            }
            sum
        },
    );
}
