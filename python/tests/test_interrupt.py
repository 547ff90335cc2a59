"""Ctrl-C during a long call: a ``bfs`` or ``retro`` run in a child Python
gets SIGINT once its store holds a checkpoint, must raise
``KeyboardInterrupt`` within a second or two, and the same store must then
resume in this process to the command line's report."""

import signal
import subprocess
import sys
import textwrap
import time

import bitsolve

# The child says "started" just before the long call, and how the call ended.
# It installs Python's Ctrl-C handler itself: a Python started with SIGINT
# ignored (any child of a job run in the background by a non-interactive
# shell) installs none, and would ignore the signal this test sends.
CHILD = textwrap.dedent(
    """
    import signal, sys, bitsolve
    signal.signal(signal.SIGINT, signal.default_int_handler)
    print("started", flush=True)
    try:
        {call}
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
        sys.exit(3)
    print("finished", flush=True)
    """
)


def interrupt_when(call, ready, timeout=120.0):
    """Runs ``call`` (Python source) in a child, sends it SIGINT once
    ``ready()`` holds, and returns (its output, seconds from the signal to
    its exit)."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(call=call)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "started"
        deadline = time.monotonic() + timeout
        while not ready():
            assert child.poll() is None, "the call ended before it could be interrupted"
            assert time.monotonic() < deadline, "the call never got ready"
            time.sleep(0.01)
        signalled = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
        return child.returncode, out, err, time.monotonic() - signalled
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_ctrl_c_stops_bfs_and_the_store_resumes(cli, tmp_path):
    store = tmp_path / "store"
    table = store / "pancake-n-11-two-bit-bfs.bst"
    started = []

    # Ready once the table file exists and a few layers have had their
    # time: Pancake 11 on one thread runs for several seconds.
    def ready():
        if not table.exists():
            return False
        started.append(time.monotonic())
        return time.monotonic() - started[0] > 0.5

    code, out, err, seconds = interrupt_when(
        f"bitsolve.game('pancake', n=11).bfs(store={str(store)!r}, threads=1)", ready
    )
    assert (code, out.split()[-1]) == (3, "KeyboardInterrupt"), (out, err)
    assert seconds < 3.0, f"stopped {seconds:.2f} s after SIGINT"
    # Sealed as far as it got (a killed run leaves it "unsealed").
    assert [f["status"] for f in bitsolve.verify(store)["files"]] == ["incomplete"]

    resumed = bitsolve.game("pancake", n=11).bfs(store=store)
    assert resumed.resumed_from is not None
    expected = cli.json("bfs", "pancake", "--n", "11")
    assert resumed.layers.tolist() == expected["layers"]
    assert resumed.total == 39916800


# What a layer's row says of its positions (its passes differ when resumed).
VALUES = ("layer", "states", "stored", "won_for_fox", "won_for_geese", "draws")


def test_ctrl_c_stops_retro_and_the_store_resumes(cli, tmp_path):
    store = tmp_path / "store"
    layer_6 = store / "fox-geese-g-6-retrograde-values.bst"

    # Layer 6 (60 M positions) takes about a second on one thread; its
    # file appears as it begins, with layers 1..5 solved in the store.
    code, out, err, seconds = interrupt_when(
        f"bitsolve.retro('fox-geese', layers=(1, 6), store={str(store)!r}, threads=1,"
        " checkpoint_every=0)",
        layer_6.exists,
    )
    assert (code, out.split()[-1]) == (3, "KeyboardInterrupt"), (out, err)
    assert seconds < 3.0, f"stopped {seconds:.2f} s after SIGINT"
    statuses = {f["descriptor"]: f["status"] for f in bitsolve.verify(store)["files"]}
    assert statuses["fox-geese g=6; retrograde values"] == "incomplete", statuses
    assert list(statuses.values()).count("intact") == 6, statuses  # layers 0..5

    resumed = bitsolve.retro("fox-geese", layers=(1, 6), store=store)
    solved_before = [row["already_solved"] for row in resumed.layers]
    assert solved_before == [True] * 5 + [False]
    expected = cli.json("retro", "fox-geese", "--layers", "1..6")
    assert [{k: row[k] for k in VALUES} for row in resumed.layers] == [
        {k: row[k] for k in VALUES} for row in expected["layers"]
    ]
