"""``phiops kernels``: the registered kernels as a table (kernel, backend, layout,
dtypes), or as JSON with ``--json``. ``phiops kernels OP`` lists every kernel registered for one
op (or kernel name) per key, with its priority and function, and marks the one that wins; the
kernel packages of the ``phiops.kernels`` entry points are loaded first, and ``--device TYPE``
registers a custom device type (its package's ``phiops.devices`` entry point) before listing.
With ``--coverage``, which of PaddlePaddle 3.3.1's ops phiops runs on CPU, forward and backward,
per dtype (runtime/kernels/coverage.py).

Kinds (docs/tensor_kinds.md): ``phiops kernels OP`` of a kernel of another kind than dense
(``phiops kernels sgd_dense_param_sparse_grad``) adds a KIND column; for a dense kernel with
variants of other kinds (``phiops kernels sgd_``), a note on stderr names them, and ``--json``
lists their rows too, each row with its ``kind``."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections import defaultdict

from phiops.runtime.cli_output import write_stdout
from phiops.runtime.errors import PhiError
from phiops.runtime.kernels import KERNEL_FACTORY, KernelFactory
from phiops.runtime.kernels.registration import load_kernel_plugins

OWN_REGISTRY = "phiops.generated.registry"


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


def candidate_rows(factory: KernelFactory, name: str) -> list[dict[str, object]]:
    """One row per kernel registered under ``name``: its key, priority, function, and whether
    it wins its key; sorted by key, the winner first."""
    table = []
    for key, kernels in sorted(factory.candidates_of(name).items(), key=lambda item: str(item[0])):
        for kernel in kernels:
            table.append(
                {
                    "kernel": name,
                    "backend": key.backend.name,
                    "layout": "any" if key.layout == 0 else key.layout.name,
                    "dtype": "any" if key.dtype == 0 else key.dtype.name.lower(),
                    "priority": kernel.priority,
                    "function": f"{kernel.fn.__module__}.{kernel.fn.__qualname__}",
                    "wins": factory.kernels[name].get(key) is kernel,
                    "kind": key.kind.title,
                }
            )
    return table


def variant_rows(factory: KernelFactory, name: str) -> list[dict[str, object]]:
    """``candidate_rows`` of each variant of kernel ``name`` for another kind (PHI's
    ``sgd_dense_param_sparse_grad`` of ``sgd``)."""
    table: list[dict[str, object]] = []
    for (base, _kind), variant in sorted(factory.variants.items(), key=lambda i: i[1]):
        if base == name and factory.kernels.get(variant):
            table.extend(candidate_rows(factory, variant))
    return table


def format_candidates(table: list[dict[str, object]]) -> str:
    """The rows as a table; with a KIND column when a row's kernel is not a dense one."""
    kinds = any(r.get("kind", "DenseTensor") != "DenseTensor" for r in table)
    header = ("BACKEND", "LAYOUT", "DTYPE", "PRIORITY", "FUNCTION") + (("KIND",) if kinds else ())
    lines = [
        (
            str(r["backend"]),
            str(r["layout"]),
            str(r["dtype"]),
            str(r["priority"]),
            str(r["function"]),
        )
        + ((str(r["kind"]),) if kinds else ())
        for r in table
    ]
    marks = [""] + ["wins" if r["wins"] else "" for r in table]
    count = len(header)
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(count)]
    return "\n".join(
        ("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + mark).rstrip()
        for row, mark in zip([header, *lines], marks)
    )


def _kernel_name(op: str) -> str:
    """The kernel name of ``op``: itself when a kernel has that name, else the kernel of the op
    of that name (``sgd_`` runs kernel ``sgd``)."""
    if KERNEL_FACTORY.has_kernel(op):
        return op
    from phiops.runtime.dispatch.op_def import OP_DEFS, get_op_def

    if op not in OP_DEFS:
        # phiops's generated registry, by name as runtime/ir/plugins.py finds its op table
        importlib.import_module(OWN_REGISTRY)

    kernel = get_op_def(op).info.kernel
    return kernel if kernel else op


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="phiops kernels", description=__doc__)
    parser.add_argument("op", nargs="?", help="list every kernel of this op and which one wins")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--device",
        action="append",
        default=[],
        metavar="TYPE",
        help="register custom device type TYPE (from its package) first; may be repeated",
    )
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
    if options.coverage and options.op is not None:
        parser.error("--coverage reports every op: give no OP with it")
    try:
        load_kernel_plugins()
        if options.device:
            from phiops.runtime.common import CustomPlace

            for device_type in options.device:
                CustomPlace(device_type)
        if options.coverage:
            return _coverage(options.json, options.missing)
        if options.op is None:
            table = rows(KERNEL_FACTORY)
            text = json.dumps(table, indent=2) if options.json else format_table(table)
        else:
            name = _kernel_name(options.op)
            candidates = candidate_rows(KERNEL_FACTORY, name)
            variants = variant_rows(KERNEL_FACTORY, name)
            if options.json:
                text = json.dumps(candidates + variants, indent=2)
            else:
                text = format_candidates(candidates)
                if variants:
                    names = sorted({f"{r['kernel']} ({r['kind']})" for r in variants})
                    sys.stderr.write(
                        f"kernel {name!r} has variants for other tensor kinds: "
                        f"{', '.join(names)}; list them with phiops kernels NAME\n"
                    )
    except PhiError as error:
        sys.stderr.write(f"phiops kernels: {error}\n")
        return 1
    return write_stdout(text + "\n")


def _coverage(as_json: bool, missing_only: bool) -> int:
    from phiops.runtime.dispatch.op_def import op_defs

    # phiops's generated registry (every op and kernel), by name as runtime/ir/plugins.py finds
    # its op table
    importlib.import_module(OWN_REGISTRY)
    from phiops.runtime.kernels.coverage import coverage, format_coverage

    report = coverage(KERNEL_FACTORY, {op.name: op.kernel for op in op_defs()})
    if as_json:
        return write_stdout(json.dumps(report.as_dict(), indent=1) + "\n")
    return write_stdout(format_coverage(report, missing_only=missing_only) + "\n")


if __name__ == "__main__":
    sys.exit(main())
