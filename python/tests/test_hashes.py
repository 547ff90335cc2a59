"""The numpy hash calls: bijections over whole small spaces, the orders
the games rank in, the refusals, and equal results on any thread count."""

import math

import numpy as np
import pytest

import bitsolve

ORDERS = ("prefix-lehmer", "myrvold-ruskey", "lex")


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("n", range(1, 8))
def test_permutation_hashes_are_bijections_over_every_rank(n, order):
    ranks = np.arange(math.factorial(n), dtype=np.uint64)
    perms = bitsolve.permutation_unrank(n, ranks, order=order)
    assert perms.shape == (len(ranks), n) and perms.dtype == np.uint8
    # Every row a permutation of 0..n-1, no two alike.
    assert (np.sort(perms, axis=1) == np.arange(n)).all()
    assert len({row.tobytes() for row in perms}) == len(ranks)
    assert np.array_equal(bitsolve.permutation_rank(perms, order=order), ranks)


def test_lexicographic_order_is_the_sorted_order():
    perms = bitsolve.permutation_unrank(5, np.arange(120, dtype=np.uint64), order="lex")
    assert [tuple(p) for p in perms] == sorted(tuple(p) for p in perms)


def test_prefix_lehmer_is_the_order_pancake_ranks_its_stacks_in():
    game = bitsolve.game("pancake", n=9)
    ranks = np.random.default_rng(7).integers(0, game.size, 5000, dtype=np.uint64)
    stacks = game.unrank(ranks)
    assert np.array_equal(stacks, bitsolve.permutation_unrank(9, ranks) + 1)
    assert np.array_equal(bitsolve.permutation_rank(stacks - 1), ranks)


def test_binomial_hash_covers_every_subset():
    n, k = 12, 5
    ranks = np.arange(math.comb(n, k), dtype=np.uint64)
    masks = bitsolve.binomial_unrank(n, k, ranks)
    assert masks.dtype == np.uint64
    assert all(bin(int(m)).count("1") == k and int(m) < 1 << n for m in masks)
    assert len(set(masks.tolist())) == len(ranks)
    assert np.array_equal(bitsolve.binomial_rank(n, k, masks), ranks)
    # 33 choose 16: samples across the whole space.
    big = np.random.default_rng(3).integers(0, math.comb(33, 16), 100_000, dtype=np.uint64)
    assert np.array_equal(bitsolve.binomial_rank(33, 16, bitsolve.binomial_unrank(33, 16, big)), big)


def test_multinomial_hash_covers_every_colouring():
    counts = [3, 3, 2]
    size = math.factorial(8) // (6 * 6 * 2)
    ranks = np.arange(size, dtype=np.uint64)
    cells = bitsolve.multinomial_unrank(counts, ranks)
    assert cells.shape == (size, 8)
    assert all(list(np.bincount(row, minlength=3)) == counts for row in cells)
    assert len({row.tobytes() for row in cells}) == size
    assert np.array_equal(bitsolve.multinomial_rank(counts, cells), ranks)


def test_threads_do_not_change_the_answer():
    ranks = np.random.default_rng(11).integers(0, math.factorial(12), 300_000, dtype=np.uint64)
    one = bitsolve.permutation_unrank(12, ranks, threads=1)
    every = bitsolve.permutation_unrank(12, ranks, threads=None)
    assert np.array_equal(one, every)
    assert np.array_equal(bitsolve.permutation_rank(one, threads=2), ranks)


def test_bad_input_raises_value_error_with_one_line():
    cases = [
        lambda: bitsolve.permutation_unrank(4, [24]),
        lambda: bitsolve.permutation_unrank(4, [0], order="sideways"),
        lambda: bitsolve.permutation_rank([[0, 1, 1, 3]]),
        lambda: bitsolve.binomial_rank(5, 2, [0b111]),
        lambda: bitsolve.binomial_unrank(5, 2, [10]),
        lambda: bitsolve.multinomial_rank([2, 1], [[0, 1, 1]]),
        lambda: bitsolve.multinomial_rank([2, 1], [[0, 1]]),
        lambda: bitsolve.permutation_unrank(4, [0], threads=0),
    ]
    for case in cases:
        with pytest.raises(ValueError) as raised:
            case()
        assert "\n" not in str(raised.value), str(raised.value)
    with pytest.raises(ValueError, match="row 0"):
        bitsolve.permutation_rank([[0, 1, 1, 3]])
