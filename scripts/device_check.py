#!/usr/bin/env python3
"""The device check: one prepared run of bitsolve's GPU figures.

Run through scripts/device-check.sh (see its header for what it needs). It
solves the whole Morabaraba and the whole Nine Men's Morris on the GPU
alone (every count compared with data/reference/, the start's value
asked of the store) and Lasker Morris with four stones (against the
CPU's run), times the benches of the README's GPU table (all CPU
threads against the GPU, each bench failing by itself if a layer or a
value differs), and prints one markdown table. `--small` runs the same
steps at toy sizes, so that lavapipe in CI keeps the script from rotting.

Only the standard library: the device machine has Python but no network.
"""

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "data" / "reference"

# A small Peg Solitaire board for --small: 15 holes, the start hole in the
# middle (the English board's one-bit BFS is the full-size step).
SMALL_PEG_BOARD = "# three rows of five holes\nooooo\nooooo\nooooo\n"


@dataclass
class Step:
    """One timed command: a bench (CPU threads against the GPU, checked by
    bench itself) or a retrograde run on the GPU checked against a
    reference (a file of data/reference/, or the CPU's run of the same
    layers)."""

    name: str
    kind: str  # "bench" or "retro"
    args: list
    reference: str = ""  # retro: a file name under data/reference/, or "cpu"
    store: str = ""  # retro: a store's name under --work, and its start asked
    result: dict = field(default_factory=dict)


def steps(small, peg_board):
    """The steps of the check: the full sizes (a 16-thread host with a real
    GPU) or the toy ones (--small)."""
    if small:
        benches = [
            Step("Pancake 8", "bench", ["pancake", "--n", "8"]),
            Step("Frogs-and-Toads k = 2", "bench", ["frogs-toads", "--k", "2"]),
            Step("Peg Solitaire 3x5, one-bit", "bench",
                 ["peg-solitaire", "--board", peg_board, "--algo", "one-bit"]),
            Step("Pyraminx without tips", "bench",
                 ["ksolve", "--file", "data/ksolve/pyraminx-no-tips.tws"]),
            Step("Nine Men's Morris 3 stones, layers 1..5", "bench",
                 ["nine-mens-morris", "--men", "3", "--symmetry", "--algo", "retro",
                  "--layers", "1..5"]),
            Step("Fox-and-Geese capture wins, layers 1..3", "bench",
                 ["fox-geese", "--capture-wins", "--symmetry", "--algo", "retro",
                  "--layers", "1..3"]),
            Step("Dodgem 3x3", "bench", ["dodgem", "--n", "3", "--algo", "retro"]),
        ]
        return [
            Step("Morabaraba 3 stones, whole game on the GPU", "retro",
                 ["nine-mens-morris", "--variant", "morabaraba", "--men", "3",
                  "--symmetry", "--layers", "1..12"],
                 "cpu", "morabaraba-3"),
            Step("Nine Men's Morris, layers 1..5 on the GPU", "retro",
                 ["nine-mens-morris", "--symmetry", "--layers", "1..5"],
                 "nine-mens-morris.txt"),
            Step("Lasker Morris 3 stones, whole game on the GPU", "retro",
                 ["nine-mens-morris", "--variant", "lasker", "--men", "3",
                  "--symmetry", "--layers", "1..35"],
                 "cpu", "lasker-3"),
        ] + benches
    fg = ["fox-geese", "--algo", "retro"]
    fg_capture = ["fox-geese", "--capture-wins", "--symmetry", "--algo", "retro"]
    return [
        # First what no other run has measured: Morabaraba's start.
        Step("Morabaraba, whole game (layers 1..48) on the GPU", "retro",
             ["nine-mens-morris", "--variant", "morabaraba", "--symmetry",
              "--layers", "1..48"],
             "morabaraba.txt", "morabaraba"),
        Step("Nine Men's Morris, whole game (layers 1..36) on the GPU", "retro",
             ["nine-mens-morris", "--symmetry", "--layers", "1..36"],
             "nine-mens-morris.txt", "nine-mens-morris"),
        # Lasker Morris's opening on a real device, against the CPU's run
        # (ten stones a side need a 60 GB store: beyond the lent disk).
        Step("Lasker Morris 4 stones, whole game (layers 1..90) on the GPU", "retro",
             ["nine-mens-morris", "--variant", "lasker", "--men", "4",
              "--symmetry", "--layers", "1..90"],
             "cpu", "lasker-4"),
        Step("Pancake 12", "bench", ["pancake", "--n", "12"]),
        Step("Frogs-and-Toads k = 4", "bench", ["frogs-toads", "--k", "4"]),
        Step("Peg Solitaire, one-bit", "bench", ["peg-solitaire", "--algo", "one-bit"]),
        Step("Pyraminx (definition file)", "bench",
             ["ksolve", "--file", "data/ksolve/pyraminx.tws"]),
        Step("Pocket cube (definition file)", "bench",
             ["ksolve", "--file", "data/ksolve/pocket-cube.tws"]),
        Step("Dino Cube (definition file, a permutation without a move table)", "bench",
             ["ksolve", "--file", "data/ksolve/dino-cube.tws"]),
        Step("Nine Men's Morris, layers 1..10", "bench",
             ["nine-mens-morris", "--symmetry", "--algo", "retro", "--layers", "1..10"]),
        Step("Fox-and-Geese capture wins, layers 9..11", "bench",
             fg_capture + ["--layers", "9..11"]),
        Step("Fox-and-Geese capture wins, layer 12", "bench",
             fg_capture + ["--layers", "12..12"]),
        Step("Fox-and-Geese, layer 9", "bench", fg + ["--layers", "9..9"]),
        Step("Fox-and-Geese symmetric, layer 10", "bench",
             fg + ["--symmetry", "--layers", "10..10"]),
        Step("Fox-and-Geese symmetric, layer 11", "bench",
             fg + ["--symmetry", "--layers", "11..11"]),
        Step("Dodgem 5x5", "bench", ["dodgem", "--n", "5", "--algo", "retro"]),
    ]


def run_process(argv, timeout, log):
    """Runs argv, its stderr appended to `log`; returns (exit code, or None
    when it ran past `timeout`; stdout; wall seconds; the process's own
    peak RSS in bytes, which wait4 gives and subprocess does not)."""
    log.write(f"$ {' '.join(argv)}\n")
    log.flush()
    with tempfile.TemporaryFile() as stdout:
        start = time.monotonic()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[
            (os.POSIX_SPAWN_DUP2, stdout.fileno(), 1),
            (os.POSIX_SPAWN_DUP2, log.fileno(), 2),
        ])
        while True:
            reaped, status, usage = os.wait4(pid, os.WNOHANG)
            if reaped == pid:
                break
            if time.monotonic() - start > timeout:
                os.kill(pid, 9)
                os.wait4(pid, 0)
                return None, "", time.monotonic() - start, None
            time.sleep(0.02)
        seconds = time.monotonic() - start
        stdout.seek(0)
        text = stdout.read().decode()
    return os.waitstatus_to_exitcode(status), text, seconds, usage.ru_maxrss * 1024


def read_reference(name):
    """{layer: (positions, won for the first side, won for the second, drawn)}."""
    table = {}
    for line in (REFERENCE / name).read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        layer, *counts = (int(word) for word in line.split())
        table[layer] = tuple(counts)
    return table


def layer_counts(report):
    """{layer: (positions, first wins, second wins, draws)} of a `retro --json`."""
    first, second = report["sides"]
    return {
        row["layer"]: (row["states"], row[f"won_for_{first}"], row[f"won_for_{second}"],
                       row["draws"])
        for row in report["layers"]
    }


def run_step(argv, timeout, log):
    """Runs a step's command: (its figures so far, its JSON report), or
    (figures with the check saying why, None) when it ran past `timeout`
    or failed."""
    code, stdout, seconds, rss = run_process(argv, timeout, log)
    result = {"wall_seconds": seconds, "exit": code, "peak_rss_bytes": rss}
    if code is None:
        return {**result, "check": f"timed out after {timeout} s"}, None
    if code != 0:
        return {**result, "check": "failed (see the log)"}, None
    return result, json.loads(stdout)


def run_bench(binary, step, timeout, log):
    result, report = run_step(
        [binary, "bench", *step.args, "--no-single-thread", "--json"], timeout, log)
    if report is None:
        return result
    runs = {run["backend"]: run for run in report["runs"]}
    cpu, gpu = runs.get("cpu"), runs.get("gpu")
    identical = report.get("identical_layers", report.get("identical_values"))
    result.update({
        "cpu_seconds": cpu and cpu["seconds"],
        "cpu_threads": cpu and cpu["threads"],
        "gpu_seconds": gpu and gpu["seconds"],
        "device": gpu and gpu["device"],
        "cpu_passes": cpu and cpu.get("passes"),
        "gpu_passes": gpu and gpu.get("passes"),
        "cpu_phases": cpu and cpu.get("phases"),
        "gpu_phases": gpu and gpu.get("phases"),
        # Of the phases' "passes": pass 0, which judges every position
        # (the later passes follow the marks, or the work lists).
        "cpu_first_pass_seconds": cpu and cpu.get("first_pass_seconds"),
        "gpu_first_pass_seconds": gpu and gpu.get("first_pass_seconds"),
        "check": "identical" if identical else "DIFFERENT",
    })
    return result


def run_retro(binary, step, timeout, log, work):
    argv = [binary, "retro", *step.args, "--backend", "gpu", "--json"]
    if step.store:
        # A store, so that a run cut short by the timeout resumes when the
        # check runs again on the same machine.
        argv += ["--store", str(work / step.store)]
    result, report = run_step(argv, timeout, log)
    if report is None:
        return result
    counts = layer_counts(report)
    result.update({
        "gpu_seconds": sum(row["seconds"] for row in report["layers"]),
        "device": report.get("device"),
        "positions": sum(c[0] for c in counts.values()),
        # Every layer's row (its time, passes and phases): where a whole
        # game's time went, read off the JSON.
        "layers": report["layers"],
    })
    if step.reference == "cpu":
        argv = [binary, "retro", *step.args, "--json"]
        if step.store:
            argv += ["--store", str(work / f"{step.store}-cpu")]
        code, stdout, _, _ = run_process(argv, timeout, log)
        if code != 0:
            return {**result, "check": "the CPU run failed (see the log)"}
        cpu_report = json.loads(stdout)
        reference = layer_counts(cpu_report)
        result["cpu_seconds"] = sum(row["seconds"] for row in cpu_report["layers"])
        source = "the CPU's run"
    else:
        reference = read_reference(step.reference)
        source = f"data/reference/{step.reference}"
    if step.store:
        code, stdout, _, _ = run_process(
            [binary, "query", *query_args(step.args), "--store", str(work / step.store),
             "--start", "--json"], timeout, log)
        result["start"] = json.loads(stdout)["value"] if code == 0 else "query failed"
    compared = sorted(set(reference) & set(counts))
    different = [layer for layer in compared if reference[layer] != counts[layer]]
    if different:
        result["check"] = f"DIFFERENT from {source} on layers {different}"
    elif not compared:
        result["check"] = f"no layer in common with {source}"
    else:
        result["check"] = f"layers {compared[0]}..{compared[-1]} equal to {source}"
    return result


def query_args(retro_args):
    """The game's own options of retro's arguments (its layers left out)."""
    at = retro_args.index("--layers")
    return retro_args[:at] + retro_args[at + 2:]


def seconds_text(value):
    return "" if value is None else f"{value:.2f} s" if value < 100 else f"{value:.0f} s"


def table(checked):
    threads = next((s.result.get("cpu_threads") for s in checked if s.result.get("cpu_threads")),
                   os.cpu_count())
    lines = [
        f"| step | {threads} CPU threads | GPU | GPU / CPU | whole process | peak RSS | check |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for step in checked:
        r = step.result
        cpu, gpu = r.get("cpu_seconds"), r.get("gpu_seconds")
        ratio = f"{cpu / gpu:.1f}×" if cpu and gpu else ""
        rss = r.get("peak_rss_bytes")
        rss_text = f"{rss / 2**30:.2f} GiB" if rss else ""
        passes = ""
        if r.get("cpu_passes") is not None and r.get("gpu_passes") is not None:
            passes = f" ({r['cpu_passes']} / {r['gpu_passes']} passes)"
        if r.get("start"):
            passes += f"; the start: {r['start']}"
        lines.append(
            f"| {step.name} | {seconds_text(cpu)} | {seconds_text(gpu)} | {ratio} | "
            f"{seconds_text(r.get('wall_seconds'))} | {rss_text} | {r.get('check', 'not run')}{passes} |")
    return "\n".join(lines)


def machine_text(binary, checked):
    cpu = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    device = next((s.result["device"] for s in checked if s.result.get("device")), "no GPU run")
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    return (f"{version}; GPU: {device}; CPU: {cpu}, {os.cpu_count()} threads; "
            f"{time.strftime('%Y-%m-%d %H:%M %Z')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true",
                        help="toy sizes (lavapipe in CI): the script's steps, not figures")
    parser.add_argument("--bin", help="the bitsolve binary (a release build)")
    parser.add_argument("--out", help="folder for device-check.md, .json and .log")
    parser.add_argument("--work", help="folder for the whole games' stores (default: a new one "
                        "under the system's temporary folder, removed after a --small run; "
                        "give the same one to resume)")
    parser.add_argument("--only", help="comma-separated words: run the steps whose name holds one")
    parser.add_argument("--list", action="store_true", help="print the steps and exit")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds one command may take (default 600)")
    args = parser.parse_args()

    out = Path(args.out).resolve() if args.out else Path(tempfile.mkdtemp(prefix="device-check-"))
    if not args.list and not args.bin:
        sys.exit("device-check: give the bitsolve binary with --bin PATH")
    binary = args.bin and str(Path(args.bin).resolve())
    work = Path(args.work).resolve() if args.work else Path(tempfile.mkdtemp(prefix="device-check-stores-"))
    # The steps name data files relative to the repository's root.
    os.chdir(ROOT)
    out.mkdir(parents=True, exist_ok=True)
    peg_board = out / "peg-3x5.txt"
    peg_board.write_text(SMALL_PEG_BOARD)
    chosen = steps(args.small, str(peg_board))
    if args.only:
        words = [w.strip().lower() for w in args.only.split(",") if w.strip()]
        chosen = [s for s in chosen if any(w in s.name.lower() for w in words)]
        if not chosen:
            sys.exit(f"device-check: no step's name holds any of {words} (see --list)")
    if args.list:
        for step in chosen:
            print(f"{step.name}: bitsolve {step.kind} {' '.join(step.args)}")
        return 0

    failed = False
    with open(out / "device-check.log", "a") as log:
        for number, step in enumerate(chosen, 1):
            print(f"device-check: [{number}/{len(chosen)}] {step.name}", file=sys.stderr, flush=True)
            if step.kind == "bench":
                step.result = run_bench(binary, step, args.timeout, log)
            else:
                step.result = run_retro(binary, step, args.timeout, log, work)
            check = step.result["check"]
            failed |= not (check == "identical" or " equal to " in check)
            print(f"device-check:   {seconds_text(step.result['wall_seconds'])}: {check}",
                  file=sys.stderr, flush=True)
            # Written after every step, so a run cut short keeps what it did.
            (out / "device-check.json").write_text(json.dumps(
                [{"name": s.name, "kind": s.kind, "args": s.args, **s.result}
                 for s in chosen if s.result], indent=1))

    report = f"{machine_text(binary, chosen)}\n\n{table(chosen)}\n"
    (out / "device-check.md").write_text(report)
    print(report)
    if args.small and not args.work:
        # Toy stores in a folder of the check's own: nothing to resume.
        shutil.rmtree(work, ignore_errors=True)
        print(f"device-check: results in {out}", file=sys.stderr)
    else:
        print(f"device-check: results in {out}; the stores in {work} (--work {work} resumes them)",
              file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
