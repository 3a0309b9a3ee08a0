"""``phiops kernels``: the registered kernels as a table (kernel, backend, layout,
dtypes), or as JSON with ``--json``; with ``--coverage``, which of PaddlePaddle 3.3.1's ops phiops
runs on CPU, forward and backward, per dtype (runtime/kernels/coverage.py)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict

from phiops.runtime.cli_output import write_stdout
from phiops.runtime.kernels import KERNEL_FACTORY, KernelFactory


def rows(factory: KernelFactory) -> list[dict[str, object]]:
    """One row per (kernel, backend, layout) with its dtypes, sorted."""
    grouped: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for name, per_key in factory.kernels.items():
        for key in per_key:
            dtype = "any" if key.dtype == 0 else key.dtype.name.lower()
            layout = "any" if key.layout == 0 else key.layout.name
            grouped[(name, key.backend.name, layout)].append(dtype)
    order = {
        name: i
        for i, name in enumerate(
            [
                "bool",
                "uint8",
                "int8",
                "uint16",
                "int16",
                "int32",
                "uint32",
                "int64",
                "uint64",
                "bfloat16",
                "float16",
                "float32",
                "float64",
                "complex64",
                "complex128",
                "any",
            ]
        )
    }
    return [
        {
            "kernel": name,
            "backend": backend,
            "layout": layout,
            "dtypes": sorted(dtypes, key=order.__getitem__),
        }
        for (name, backend, layout), dtypes in sorted(grouped.items())
    ]


def format_table(table: list[dict[str, object]]) -> str:
    header = ("KERNEL", "BACKEND", "LAYOUT", "DTYPES")
    lines = [(str(r["kernel"]), str(r["backend"]), str(r["layout"]), ", ".join(r["dtypes"])) for r in table]  # type: ignore[arg-type]
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(3)]
    out = []
    for row in [header, *lines]:
        out.append(
            "  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths)) + "  " + row[3]
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="phiops kernels", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--coverage",
        action="store_true",
        help="which of PaddlePaddle 3.3.1's ops.yaml ops phiops runs on CPU, forward and backward",
    )
    parser.add_argument(
        "--missing",
        action="store_true",
        help="with --coverage: list only the ops phiops does not run completely",
    )
    options = parser.parse_args(argv)
    if options.missing and not options.coverage:
        parser.error("--missing goes with --coverage")
    if options.coverage:
        return _coverage(options.json, options.missing)
    table = rows(KERNEL_FACTORY)
    return write_stdout(
        (json.dumps(table, indent=2) if options.json else format_table(table)) + "\n"
    )


def _coverage(as_json: bool, missing_only: bool) -> int:
    import phiops.generated  # noqa: F401  (registers every op and kernel)
    from phiops.runtime.dispatch.op_def import op_defs
    from phiops.runtime.kernels.coverage import coverage, format_coverage

    report = coverage(KERNEL_FACTORY, {op.name: op.kernel for op in op_defs()})
    if as_json:
        return write_stdout(json.dumps(report.as_dict(), indent=1) + "\n")
    return write_stdout(format_coverage(report, missing_only=missing_only) + "\n")


if __name__ == "__main__":
    sys.exit(main())
