"""`phiops lint FILE...`: check op-spec files without generating anything.

The files are loaded as one set (so that backward ops find their forward ops) and checked by the
same validation as generation (`phiops.codegen.collect`, which also builds each op's generated views:
C++ helpers in `invoke`, sparse-only kernels, types the Python API cannot take, DataType names
the runtime lacks); only the checks that need the runtime's functions (InferMeta functions
exist, kernel signatures match) are left to generation. `--paddle` leaves out what only phiops'
Python API requires. Every schema error and inconsistency (see `phiops.codegen.errors`) is printed,
then a summary line; the exit code is 1 when there is any (with --no-fail-on-inconsistency, for
PaddlePaddle's own files, only when there is a schema error), 2 for a bad command line, else 0.
"""

from __future__ import annotations

import argparse
import sys

from . import collect
from .errors import ERROR


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="phiops lint",
        description="Check op-spec YAML files: schema errors, and inconsistencies between "
        "entries or keys.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="op-spec YAML files, one set")
    parser.add_argument(
        "--no-fail-on-inconsistency",
        dest="fail_on_inconsistency",
        action="store_false",
        help="exit 0 when there are only inconsistencies (PaddlePaddle's own files have some)",
    )
    parser.add_argument(
        "--paddle",
        dest="python_api",
        action="store_false",
        help="PaddlePaddle's own files: leave out what only phiops' Python API requires "
        "(argument names such as 'lambda')",
    )
    return parser


def main(argv: list[str]) -> int:
    """Run the linter on `argv` (without the program name); return the exit code."""
    try:
        options = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage error
        return 0 if exc.code == 0 else 2
    specs, _, diagnostics = collect(options.files, python_api=options.python_api)
    for diagnostic in diagnostics:
        print(diagnostic)
    errors = sum(1 for d in diagnostics if d.severity == ERROR)
    inconsistencies = len(diagnostics) - errors
    n_backward = sum(1 for s in specs if s.is_backward)
    counts = f"{len(specs) - n_backward} ops, {n_backward} backward ops"
    print(f"{counts}: {_plural(errors, 'error')}, {_plural(inconsistencies, 'inconsistency')}")
    if errors or (options.fail_on_inconsistency and inconsistencies):
        return 1
    return 0


def _plural(count: int, word: str) -> str:
    if count == 1:
        return f"1 {word}"
    return f"{count} {word[:-1] + 'ies' if word.endswith('y') else word + 's'}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
