"""The command-line binary the tests compare the package with.

``BITSOLVE_CLI`` names it; otherwise the checkout's ``target/release`` or
``target/debug`` build, or one on ``PATH``. Without one the comparisons
are skipped, unless ``BITSOLVE_REQUIRE_CLI=1`` (``scripts/test.sh`` sets it)
makes that a failure.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _find_cli():
    named = os.environ.get("BITSOLVE_CLI")
    if named:
        return named
    for profile in ("release", "debug"):
        candidate = ROOT / "target" / profile / "bitsolve"
        if candidate.is_file():
            return str(candidate)
    return shutil.which("bitsolve")


class Cli:
    def __init__(self, path):
        self.path = path

    def run(self, *args, check=True):
        done = subprocess.run(
            [self.path, *map(str, args)], capture_output=True, text=True, timeout=600
        )
        if check and done.returncode != 0:
            raise AssertionError(f"bitsolve {' '.join(map(str, args))}: {done.stderr}")
        return done

    def json(self, *args):
        return json.loads(self.run(*args, "--json").stdout)

    def error(self, *args):
        """The CLI's one-line error message, without its 'bitsolve: error: '."""
        done = self.run(*args, check=False)
        assert done.returncode != 0, f"bitsolve {args} succeeded"
        line = done.stderr.strip().splitlines()[-1]
        prefix = "bitsolve: error: "
        assert line.startswith(prefix), line
        return line[len(prefix):]


@pytest.fixture(scope="session")
def cli():
    path = _find_cli()
    if path is None:
        if os.environ.get("BITSOLVE_REQUIRE_CLI") == "1":
            pytest.fail("no bitsolve binary: set BITSOLVE_CLI")
        pytest.skip("no bitsolve binary to compare with (set BITSOLVE_CLI)")
    return Cli(path)


@pytest.fixture(scope="session")
def peg_board(tmp_path_factory):
    """A 4 x 5 rectangle of holes: the Peg Solitaire board of the tests."""
    path = tmp_path_factory.mktemp("boards") / "rect-4x5.txt"
    path.write_text("# 4 rows of 5 holes\n" + "ooooo\n" * 4)
    return path
