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


def test_multinomial_orders_are_the_games_and_the_papers():
    counts = [3, 3, 2]
    size = math.factorial(8) // (6 * 6 * 2)
    ranks = np.arange(size, dtype=np.uint64)
    sets = bitsolve.multinomial_unrank(counts, ranks, order="colour-sets")
    paper = bitsolve.multinomial_unrank(counts, ranks, order="paper")
    # The same arrangements, numbered otherwise.
    assert {r.tobytes() for r in sets} == {r.tobytes() for r in paper}
    assert not np.array_equal(sets, paper)
    assert np.array_equal(bitsolve.multinomial_rank(counts, paper, order="paper"), ranks)
    assert np.array_equal(bitsolve.multinomial_rank(counts, sets), ranks)
    # Colour sets, by hand: the occupied cells (colour 1 or 2) among all
    # eight, then the colour-2 cells among the occupied, packed low.
    for rank, row in zip(ranks.tolist(), sets.tolist()):
        occupied = sum(1 << i for i, c in enumerate(row) if c > 0)
        black = [c == 2 for c in row if c > 0]
        packed = sum(1 << i for i, b in enumerate(black) if b)
        occupied_rank = int(bitsolve.binomial_rank(8, 5, [occupied])[0])
        black_rank = int(bitsolve.binomial_rank(5, 2, [packed])[0])
        assert rank == occupied_rank * math.comb(5, 2) + black_rank


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
        lambda: bitsolve.multinomial_rank([2, 1], [[0, 1, 0]], order="sideways"),
        lambda: bitsolve.permutation_unrank(4, [0], threads=0),
    ]
    for case in cases:
        with pytest.raises(ValueError) as raised:
            case()
        assert "\n" not in str(raised.value), str(raised.value)
    with pytest.raises(ValueError, match="row 0"):
        bitsolve.permutation_rank([[0, 1, 1, 3]])
