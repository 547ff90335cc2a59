"""What an adversarial caller found: calls that hung, aborted the
interpreter, answered wrongly for input they should have refused, or made
directories nobody asked for. Each test fails on the binding before its fix.

The calls that could abort or hang the interpreter before the fix run in
a child process (with a time limit, and a cap on its address space where
they would allocate), so that a regression fails its test, not the session.
"""

import json
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import bitsolve

#: The command line's limit on --threads (MAX_THREADS in src/cli/mod.rs).
MAX_THREADS = 1024


def _child(code, limit_bytes=None, env=None, timeout=120):
    """Runs ``code`` in a fresh interpreter (its address space capped at
    ``limit_bytes``); returns the JSON it prints last."""
    def cap():
        if limit_bytes is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    environment = dict(os.environ)
    environment.pop("BITSOLVE_AVAILABLE_MEMORY", None)
    environment.update(env or {})
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=cap,
        env=environment,
    )
    assert done.returncode == 0, (
        f"the child died (exit {done.returncode}): {done.stderr[-2000:]}"
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- 1. threads: the command line's limit and message -------------------------


def _thread_calls(threads):
    """Every call that takes ``threads``, each as a thunk."""
    pancake = bitsolve.game("pancake", n=4)
    return {
        "permutation_unrank": lambda: bitsolve.permutation_unrank(3, [0], threads=threads),
        "permutation_rank": lambda: bitsolve.permutation_rank([[0, 1, 2]], threads=threads),
        "binomial_unrank": lambda: bitsolve.binomial_unrank(5, 2, [0], threads=threads),
        "binomial_rank": lambda: bitsolve.binomial_rank(5, 2, [0b11], threads=threads),
        "multinomial_unrank": lambda: bitsolve.multinomial_unrank([1, 1], [0], threads=threads),
        "multinomial_rank": lambda: bitsolve.multinomial_rank([1, 1], [[0, 1]], threads=threads),
        "Game.unrank": lambda: pancake.unrank([0], threads=threads),
        "Game.rank": lambda: pancake.rank([[1, 2, 3, 4]], threads=threads),
        "Game.bfs": lambda: pancake.bfs(threads=threads),
        "Game.solve": lambda: pancake.solve(0, threads=threads),
        "retro": lambda: bitsolve.retro("dodgem", n=3, layers=(1, 2), threads=threads),
    }


def test_threads_are_limited_as_the_command_line_limits_them(monkeypatch):
    # Before: 3000 threads took 14 s for one rank and 10**9 hung; a
    # negative count was an OverflowError, 2.5 a TypeError.
    for threads in (MAX_THREADS + 1, 3000, 10**9, 2**64, 10**30):
        for name, call in _thread_calls(threads).items():
            started = time.monotonic()
            with pytest.raises(ValueError) as raised:
                call()
            assert str(raised.value) == (
                f"invalid parameter: --threads {threads} is more than the "
                f"{MAX_THREADS} a run may use"
            ), name
            assert time.monotonic() - started < 5, name
    for threads in (0, -1, -(10**30)):
        for name, call in _thread_calls(threads).items():
            with pytest.raises(ValueError, match="--threads must be at least 1"):
                call()
    for threads in (2.5, 1.0, True, "4"):
        for name, call in _thread_calls(threads).items():
            with pytest.raises(ValueError, match="--threads takes a whole number"):
                call()
    # The limit itself is allowed, and an explicit small count works.
    assert bitsolve.permutation_unrank(3, [5], threads=2).tolist() == [
        bitsolve.permutation_unrank(3, [5]).tolist()[0]
    ]
    # rayon sizes a pool built without a count by RAYON_NUM_THREADS: the
    # command line refuses one above the limit, and so does every call.
    monkeypatch.setenv("RAYON_NUM_THREADS", "5000")
    for name, call in _thread_calls(None).items():
        with pytest.raises(
            ValueError, match=f"RAYON_NUM_THREADS=5000 is more than the {MAX_THREADS}"
        ):
            call()
    for call in (
        lambda: bitsolve.game("dodgem", n=3).unrank([0]),
        lambda: bitsolve.game("dodgem", n=3).rank([bitsolve.game("dodgem", n=3).position_text(0)]),
    ):
        with pytest.raises(ValueError, match="RAYON_NUM_THREADS=5000"):
            call()


def test_a_billion_threads_are_refused_at_once():
    # Before the fix this hung for minutes: the child would time out.
    result = _child(
        """
        import json, time, bitsolve
        out = []
        for call in (
            lambda: bitsolve.permutation_unrank(3, [0], threads=10**9),
            lambda: bitsolve.game("pancake", n=3).unrank([0], threads=10**9),
        ):
            started = time.monotonic()
            try:
                call()
                out.append(["no error", time.monotonic() - started])
            except ValueError as error:
                out.append([str(error), time.monotonic() - started])
        print(json.dumps(out))
        """,
        timeout=60,
    )
    for message, seconds in result:
        assert message == (
            f"invalid parameter: --threads 1000000000 is more than the {MAX_THREADS} a run may use"
        )
        assert seconds < 5


def test_the_threads_message_is_the_command_lines(cli):
    words = ["bfs", "pancake", "--n", "4", "--threads", "3000"]
    with pytest.raises(ValueError) as raised:
        bitsolve.game("pancake", n=4).bfs(threads=3000)
    assert str(raised.value) == cli.error(*words)
    with pytest.raises(ValueError) as raised:
        bitsolve.permutation_unrank(3, [0], threads=3000)
    assert str(raised.value) == cli.error(*words)
    with pytest.raises(ValueError) as raised:
        bitsolve.permutation_unrank(3, [0], threads=0)
    assert str(raised.value) == cli.error("bfs", "pancake", "--n", "4", "--threads", "0")


# --- 2. results the machine cannot hold: MemoryError, not an abort -----------


def test_a_result_too_large_raises_memory_error_up_front():
    # The child's address space is capped at 12 GiB: 8 GiB of it are the
    # (never touched, so never resident) zeros given as ranks. Before the
    # fix each call aborted the interpreter ("memory allocation of
    # 94489280512 bytes failed") or began to fill memory.
    gib = 1 << 30
    result = _child(
        """
        import json, os, time
        import numpy as np
        import bitsolve

        zeros = np.zeros(2**30, np.uint64)
        few = zeros[: 2**26]
        calls = {
            "pancake": lambda: bitsolve.game("pancake", n=11).unrank(zeros, threads=2),
            "permutation": lambda: bitsolve.permutation_unrank(20, zeros),
            "binomial": lambda: bitsolve.binomial_unrank(64, 32, zeros),
            "multinomial": lambda: bitsolve.multinomial_unrank([1, 63], zeros),
            "two-player": lambda: bitsolve.game("dodgem", n=3).unrank(few),
            "values": lambda: bitsolve.open_database("dodgem", store="/nonexistent", n=3).values(
                zeros, 1
            ),
        }
        out = {}
        for name, call in calls.items():
            started = time.monotonic()
            try:
                call()
                out[name] = ["no error", "", 0]
            except MemoryError as error:
                out[name] = ["MemoryError", str(error), time.monotonic() - started]
        # BITSOLVE_AVAILABLE_MEMORY stands in for the kernel's figure, as
        # for the library's tables: 64 MiB of rows in 10 MB is refused.
        os.environ["BITSOLVE_AVAILABLE_MEMORY"] = "10000000"
        try:
            bitsolve.permutation_unrank(4, few[: 2**24])
            out["env"] = ["no error", "", 0]
        except MemoryError as error:
            out["env"] = ["MemoryError", str(error), 0]
        del os.environ["BITSOLVE_AVAILABLE_MEMORY"]
        # What fits is still answered.
        out["small"] = bitsolve.game("pancake", n=11).unrank(zeros[:3]).tolist()
        print(json.dumps(out))
        """,
        limit_bytes=12 * gib,
    )
    needed = {
        "pancake": 2**30 * 11 * 8,  # 94489280512, the figure of the abort
        "permutation": 2**30 * 20,
        "binomial": 2**30 * 8,
        "multinomial": 2**30 * 64,
    }
    for name, (kind, message, seconds) in result.items():
        if name == "small":
            continue
        assert kind == "MemoryError", (name, kind)
        assert seconds < 10, (name, seconds)
        if name in needed:
            assert f"needs {needed[name]} bytes" in message, message
        assert "of memory is available" in message, message
    assert "only 10000000 bytes" in result["env"][1]
    assert f"needs {2**24 * 4} bytes" in result["env"][1]
    assert result["small"] == [list(range(1, 12))] * 3


# --- 3. input is checked, never wrapped or truncated -------------------------

INTEGER_TYPES = [
    np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
]
FLOAT_TYPES = [np.float16, np.float32, np.float64]


def _refused(call, *needles):
    with pytest.raises(ValueError) as raised:
        call()
    message = str(raised.value)
    for needle in needles:
        assert needle in message, (needle, message)
    assert "\n" not in message
    return message


def test_out_of_range_and_non_integer_input_is_refused(tmp_path):
    pancake = bitsolve.game("pancake", n=3)
    db = bitsolve.open_database("dodgem", store=tmp_path, n=3)
    # The reports: each was answered before, wrongly.
    _refused(lambda: bitsolve.permutation_rank([[257, 0, 2]]), "value 257", "uint8")
    _refused(lambda: bitsolve.permutation_rank([[-255, 0, 2]]), "value -255")
    _refused(lambda: bitsolve.multinomial_rank([1, 2], [[0, 1, 257]]), "value 257")
    _refused(lambda: pancake.unrank([0.9, 1.7]), "0.9")
    _refused(lambda: bitsolve.binomial_rank(5, 2, [3.9]), "3.9")
    _refused(lambda: db.values([1.5], 5), "1.5")
    # Python ints: beyond uint64, negative, mixed so that numpy would
    # make floats of them, bools among them.
    _refused(lambda: pancake.unrank([2**64]), f"value {2**64}")
    _refused(lambda: pancake.unrank([-1]), "value -1")
    _refused(lambda: pancake.unrank([-1, 2**63]), "value -1")
    _refused(lambda: pancake.unrank([0, True]), "True", "index 1")
    _refused(lambda: pancake.rank([[1, 2, 2**63]]), f"value {2**63}", "int64")
    _refused(lambda: bitsolve.permutation_rank([[0, 1, 2.0]]), "2.0")
    # Whole numbers given as other things.
    _refused(lambda: pancake.successors(1.5), "1.5")
    _refused(lambda: pancake.position_text(-1), "rank -1")
    _refused(lambda: bitsolve.permutation_unrank(3.7, [0]), "3.7")
    _refused(lambda: bitsolve.binomial_unrank(5, 2.0, [0]), "2.0")
    _refused(lambda: bitsolve.multinomial_unrank([1, 256], [0]), "256")
    _refused(lambda: db.values([0], 1.5), "1.5")
    # Python lists of ints that fit are answered as before.
    assert bitsolve.permutation_rank([[1, 0, 2]]).tolist() == [1]
    assert pancake.unrank([0, 5]).tolist() == pancake.unrank(np.array([0, 5], np.uint64)).tolist()
    assert bitsolve.binomial_rank(5, 2, [0b11]).tolist() == [0]
    assert pancake.unrank([]).shape == (0, 3)


@pytest.mark.parametrize("dtype", INTEGER_TYPES, ids=lambda t: np.dtype(t).name)
def test_every_integer_type_is_checked_at_and_beyond_its_range(dtype):
    info = np.iinfo(dtype)
    pancake = bitsolve.game("pancake", n=3)
    # Values that fit are accepted, whatever the type.
    perms = np.array([[2, 0, 1]], dtype=dtype)
    assert bitsolve.permutation_rank(perms).tolist() == bitsolve.permutation_rank(
        np.array([[2, 0, 1]], np.uint8)
    ).tolist()
    ranks = np.array([0, 5], dtype=dtype)
    assert pancake.unrank(ranks).tolist() == pancake.unrank([0, 5]).tolist()
    assert pancake.rank(np.array([[3, 1, 2]], dtype=dtype)).tolist() == pancake.rank(
        [[3, 1, 2]]
    ).tolist()
    cells = [[1, 0, 1], [1, 1, 0]]
    assert bitsolve.multinomial_rank([1, 2], np.array(cells, dtype=dtype)).tolist() == (
        bitsolve.multinomial_rank([1, 2], np.array(cells, np.uint8)).tolist()
    )
    # The type's top: a rank that fits uint64 reaches the library, which
    # names it unchanged; a cell above 255 is refused, named.
    _refused(lambda: pancake.unrank(np.array([info.max], dtype=dtype)), f"rank {info.max} ")
    if info.max > 255:
        _refused(
            lambda: bitsolve.permutation_rank(np.array([[info.max, 0, 2]], dtype=dtype)),
            f"value {info.max} ",
            "index (0, 0)",
        )
        _refused(
            lambda: bitsolve.multinomial_rank([1, 2], np.array([[0, 1, 257]], dtype=dtype)),
            "value 257",
            "index (0, 2)",
        )
    if info.max > np.iinfo(np.int64).max:
        _refused(lambda: pancake.rank(np.array([[info.max, 1, 2]], dtype=dtype)), f"value {info.max}")
    # The type's bottom and -1: refused, never wrapped.
    if info.min < 0:
        for low in (-1, info.min):
            row = np.array([[low, 0, 2]], dtype=dtype)
            _refused(lambda: bitsolve.permutation_rank(row), f"value {low} ", "index (0, 0)")
            _refused(lambda: bitsolve.multinomial_rank([1, 2], row), f"value {low} ")
            _refused(lambda: pancake.unrank(np.array([0, low], dtype=dtype)), f"value {low} ", "index 1")
            _refused(lambda: bitsolve.binomial_rank(5, 2, np.array([low], dtype=dtype)), f"value {low} ")
            _refused(lambda: bitsolve.binomial_unrank(5, 2, np.array([low], dtype=dtype)), f"value {low} ")
            _refused(lambda: bitsolve.permutation_unrank(3, np.array([low], dtype=dtype)), f"value {low} ")
            _refused(lambda: bitsolve.multinomial_unrank([1, 2], np.array([low], dtype=dtype)), f"value {low} ")
        # int64 positions hold any signed value: a burned pancake is negative.
        assert pancake.rank(np.array([[3, 1, 2]], dtype=dtype)).dtype == np.uint64


@pytest.mark.parametrize("dtype", FLOAT_TYPES, ids=lambda t: np.dtype(t).name)
def test_float_arrays_are_refused_even_with_whole_values(dtype, tmp_path):
    pancake = bitsolve.game("pancake", n=3)
    db = bitsolve.open_database("dodgem", store=tmp_path, n=3)
    for values in ([0.0, 1.0], [0.9, 1.7], [np.inf], [np.nan]):
        array = np.array(values, dtype=dtype)
        for call in (
            lambda: pancake.unrank(array),
            lambda: bitsolve.permutation_unrank(3, array),
            lambda: bitsolve.binomial_unrank(5, 2, array),
            lambda: bitsolve.binomial_rank(5, 2, array),
            lambda: bitsolve.multinomial_unrank([1, 2], array),
            lambda: bitsolve.game("dodgem", n=3).unrank(array),
            lambda: db.values(array, 1),
        ):
            _refused(call, "must be integers", np.dtype(dtype).name)
    rows = np.array([[2, 0, 1]], dtype=dtype)
    _refused(lambda: bitsolve.permutation_rank(rows), "must be integers")
    _refused(lambda: bitsolve.multinomial_rank([1, 2], rows), "must be integers")
    _refused(lambda: pancake.rank(np.array([[3, 1, 2]], dtype=dtype)), "must be integers")


def test_bool_and_object_arrays():
    pancake = bitsolve.game("pancake", n=3)
    for call in (
        lambda: pancake.unrank(np.array([True, False])),
        lambda: bitsolve.permutation_rank(np.array([[True, False, True]])),
        lambda: bitsolve.binomial_rank(5, 2, np.array([True])),
        lambda: pancake.rank(np.array([[True, False, True]])),
    ):
        _refused(call, "booleans")
    # Object arrays of whole numbers are read as Python ints, and checked.
    objects = np.array([0, 5], dtype=object)
    assert pancake.unrank(objects).tolist() == pancake.unrank([0, 5]).tolist()
    _refused(lambda: pancake.unrank(np.array([0, 2**64], dtype=object)), f"value {2**64}")
    _refused(lambda: pancake.unrank(np.array([0, -3], dtype=object)), "value -3")
    _refused(lambda: pancake.unrank(np.array([0, 1.5], dtype=object)), "1.5", "not an integer")
    _refused(lambda: pancake.unrank(np.array([0, "1"], dtype=object)), "'1'", "not an integer")
    _refused(lambda: pancake.unrank(np.array([0, None], dtype=object)), "None")
    _refused(
        lambda: bitsolve.permutation_rank(np.array([[np.int64(300), 0, 1]], dtype=object)),
        "value 300",
    )
    # Strings are no numbers.
    _refused(lambda: pancake.unrank(np.array(["1"])), "must be integers")


# --- 4. a store directory is made as the command line makes it -------------


def test_a_store_is_created_with_its_parents_as_the_cli_creates_it(tmp_path, cli):
    # The CLI creates a missing store directory with its parents (mkdir -p),
    # and Python makes the same directories and the same files: one
    # behaviour, documented, in both shells.
    cli.run("bfs", "pancake", "--n", "4", "--store", str(tmp_path / "cli" / "a" / "b"))
    pancake = bitsolve.game("pancake", n=4)
    report = pancake.bfs(store=tmp_path / "py" / "a" / "b")
    assert report.total == 24
    made = sorted(p.name for p in (tmp_path / "py" / "a" / "b").iterdir())
    assert made == sorted(p.name for p in (tmp_path / "cli" / "a" / "b").iterdir())
    assert made
    # A path through a file is refused as an OSError, never a crash.
    (tmp_path / "file").write_text("x")
    with pytest.raises(OSError):
        pancake.bfs(store=tmp_path / "file" / "store")
