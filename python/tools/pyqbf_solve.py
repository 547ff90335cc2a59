"""A QBF solver command for `bitsolve qbf solve/check --solver` built on
pyqbf: reads a QDIMACS file, solves it with the named pyqbf solver and
exits 10 (true) or 20 (false), as QBF solvers conventionally do.

    bitsolve qbf check pg FILE --solver "python python/tools/pyqbf_solve.py --solver caqe {file}"
"""

import argparse
import sys

from pyqbf.formula import PCNF
from pyqbf import solvers

SOLVERS = {
    "caqe": solvers.Caqe,
    "rareqs": solvers.RAReQS,
    "qfun": solvers.QFun,
    "qute": solvers.Qute,
    "depqbf": solvers.DepQBF,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solver", choices=sorted(SOLVERS), default="caqe")
    parser.add_argument("file")
    args = parser.parse_args()
    try:
        formula = PCNF(from_file=args.file)
    except OSError as error:
        print(f"pyqbf_solve: cannot read {args.file}: {error}", file=sys.stderr)
        return 1
    answer = SOLVERS[args.solver]().solve(formula)
    print("SAT" if answer else "UNSAT")
    return 10 if answer else 20


if __name__ == "__main__":
    sys.exit(main())
