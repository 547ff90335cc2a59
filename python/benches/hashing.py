"""Per-rank cost of the numpy hash calls on one thread, beside
``cargo bench --bench hashing`` (which times rank+unrank pairs in a Rust
loop): 10 M random ranks unranked into an array, then the array ranked
back, best of three.

    python python/benches/hashing.py [COUNT]
"""

import math
import sys
import time

import numpy as np

import bitsolve

COUNT = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
RUNS = 3


def best(call):
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        out = call()
        times.append(time.perf_counter() - started)
    return min(times), out


def report(name, size, unrank, rank):
    ranks = np.random.default_rng(12345).integers(0, size, COUNT, dtype=np.uint64)
    unranked, states = best(lambda: unrank(ranks))
    ranked, back = best(lambda: rank(states))
    assert np.array_equal(back, ranks), name
    per = lambda seconds: seconds / COUNT * 1e9
    print(
        f"{name:<36} unrank {per(unranked):6.1f} ns  rank {per(ranked):6.1f} ns"
        f"  rank+unrank {per(unranked + ranked):6.1f} ns"
    )


def main():
    print(f"{COUNT} random ranks, one thread, best of {RUNS}")
    for order in ("prefix-lehmer", "myrvold-ruskey", "lex"):
        report(
            f"permutation n=12 ({order})",
            479001600,
            lambda r, o=order: bitsolve.permutation_unrank(12, r, order=o),
            lambda p, o=order: bitsolve.permutation_rank(p, order=o),
        )
    report(
        "binomial 33 choose 16",
        1166803110,
        lambda r: bitsolve.binomial_unrank(33, 16, r),
        lambda m: bitsolve.binomial_rank(33, 16, m),
    )
    counts = [1, 15, 15]
    size = math.comb(31, 1) * math.comb(30, 15)
    for order in ["paper", "colour-sets"]:
        report(
            f"multinomial 31 cells (1/15/15), {order}",
            size,
            lambda r, order=order: bitsolve.multinomial_unrank(counts, r, order=order),
            lambda c, order=order: bitsolve.multinomial_rank(counts, c, order=order),
        )
    pancake = bitsolve.game("pancake", n=12)
    small = COUNT // 10
    ranks = np.random.default_rng(1).integers(0, pancake.size, small, dtype=np.uint64)
    unranked, rows = best(lambda: pancake.unrank(ranks, threads=1))
    ranked, _ = best(lambda: pancake.rank(rows, threads=1))
    print(
        f"{'Game.unrank/rank pancake 12 (text)':<36} unrank {unranked / small * 1e9:6.1f} ns"
        f"  rank {ranked / small * 1e9:6.1f} ns  ({small} ranks)"
    )


if __name__ == "__main__":
    main()
