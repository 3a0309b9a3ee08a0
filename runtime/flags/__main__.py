"""``phiops flags [--json]``: list every flag that importing the runtime defines."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

# The runtime's own flags and the kernels' (blas threads, native kernels) are defined when their
# modules are imported; an import error must surface.
from phiops.runtime import kernels, runtime_flags  # noqa: F401
from phiops.runtime.cli_output import write_stdout
from phiops.runtime.flags import all_flags
from phiops.runtime.flags.listing import format_json, format_table


def main(argv: Sequence[str] | None = None) -> int:
    """Print the flags as an aligned table, or as a JSON list of objects with --json."""
    parser = argparse.ArgumentParser(
        prog="phiops flags",
        description="List every flag defined by importing the phiops runtime: name, type, "
        "default, current value, where it is defined, and help.",
    )
    parser.add_argument(
        "--json", action="store_true", help="print a JSON list of objects instead of a table"
    )
    arguments = parser.parse_args(argv)
    flags = all_flags()
    return write_stdout(format_json(flags) if arguments.json else format_table(flags))


if __name__ == "__main__":
    sys.exit(main())
