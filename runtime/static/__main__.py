"""Run a saved inference model: ``phiops run MODEL_PREFIX [options]``.

    phiops run model --input x=image.npy            # outputs: shape, dtype, summary
    phiops run model --input x=image.npy --plan     # each step, its kernel, its time; passes
    phiops run model --input image.npy --repeat 20  # one feed: the name may go

``MODEL_PREFIX`` names ``MODEL_PREFIX.json`` and ``MODEL_PREFIX.pdiparams`` as PaddlePaddle's
``paddle.jit.save`` / ``paddle.static.save_inference_model`` (or phiops's) write them, or a legacy
``MODEL_PREFIX.pdmodel`` (docs/legacy_programs.md). Each
``--input NAME=FILE`` feeds a ``.npy`` file to the data op NAME. ``--plan`` prints every step of
the plan the executor made ahead of time, with the kernel it selected and the time the step took
on a planned run, and what the inference passes did (FLAGS_inference_passes: the ops removed as
dead, the constants folded, the batch norms folded, the fused steps, the buffers and the peak
memory of the intermediates). Exit status: 0, or 1 with a message naming what was wrong.

The op definitions come from the ``phiops.ir.dialects`` entry points (runtime/ir/plugins.py), so
this needs an installed phiops (``make .venv/.installed`` or ``pip install .``).
"""

from __future__ import annotations

import argparse
import io
import math
import statistics
import sys
import time
from pathlib import Path
from tokenize import TokenError
from typing import Any, Sequence

import numpy as np

from phiops.runtime.cli_output import write_stdout
from phiops.runtime.errors import InvalidArgumentError, PhiError

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="phiops", description=__doc__.split("\n\n")[0])
    commands = cli.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run a saved inference model")
    run.add_argument("model", help="the model's path prefix (PREFIX.json, PREFIX.pdiparams)")
    run.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="NAME=FILE.npy",
        help="an input: a .npy file for the data op NAME (the name may go for a model with one)",
    )
    run.add_argument("--plan", action="store_true", help="print each step, its kernel and time")
    run.add_argument(
        "--repeat", type=int, default=1, metavar="N", help="time N runs (min and median)"
    )
    options = cli.parse_args(argv)
    try:
        return _run(options)
    except (PhiError, OSError, ValueError) as error:
        print(f"phiops run: {error}", file=sys.stderr)
        return 1


def _run(options: argparse.Namespace) -> int:
    from phiops.runtime.dispatch.op_def import op_defs
    from phiops.runtime.ir.plugins import load_dialect_plugins
    from phiops.runtime.static import Executor, Scope, load_inference_model

    load_dialect_plugins()
    if not any(True for _ in op_defs()):
        raise InvalidArgumentError(
            "no ops are registered: phiops is not installed here (run `make .venv/.installed` "
            "or `pip install .`, which declare the phiops.ir.dialects entry points)"
        )
    if options.repeat < 1:
        raise InvalidArgumentError(f"--repeat must be at least 1, got {options.repeat}")
    scope, executor = Scope(), Executor()
    program, feed_names, fetch_targets = load_inference_model(options.model, executor, scope=scope)
    feed = _feeds(options.input, feed_names)
    outputs, timings = executor.run_profiled(program, feed, fetch_targets, scope)
    if options.plan:
        # the first run planned and checked; this one runs the plan as later runs do
        outputs, timings = executor.run_profiled(program, feed, fetch_targets, scope)
    lines = [f"model: {options.model} ({len(program.block.ops)} ops)"]
    for name, array in zip(_fetch_names(program, fetch_targets), outputs):
        lines.append(f"{name}: {_summary(np.asarray(array))}")
    if options.repeat > 1:
        seconds = []
        for _ in range(options.repeat):
            start = time.perf_counter()
            executor.run(program, feed, fetch_targets, scope)
            seconds.append(time.perf_counter() - start)
        lines.append(
            f"{options.repeat} runs: min {min(seconds) * 1e3:.3f} ms, "
            f"median {statistics.median(seconds) * 1e3:.3f} ms"
        )
    if options.plan:
        plans = executor.compiled_plans(program)
        if plans:
            lines.extend(_passes_lines(plans[-1].report))
        lines.append(f"plan ({len(timings)} steps):")
        for index, (op, kernel, seconds) in enumerate(timings):
            lines.append(f"{index:4d} {seconds * 1e6:10.1f} us  {op}  {kernel or '(builtin)'}")
        lines.append(f"total {sum(t for _, _, t in timings) * 1e6:.1f} us")
    return write_stdout("\n".join(lines) + "\n")


def _passes_lines(report: Any) -> list[str]:
    """What the inference passes did to the plan, for ``--plan``."""
    if report is None:
        return ["passes: none (FLAGS_inference_passes is empty)"]
    if report.skipped is not None:
        return [f"passes: none ({report.skipped})"]
    lines = [f"passes: {', '.join(report.passes)}"]
    sections = (
        ("dead ops removed", report.dead),
        (f"constants folded ({report.folded_bytes:,} bytes)", report.folded),
        ("batch norms folded", report.batch_norms),
        ("batch norms as affine steps", report.affine),
        ("convolutions cut to the taps that read their input", report.pruned),
        ("fused steps", report.fused),
    )
    for title, items in sections:
        lines.append(f"{title}: {len(items)}")
        lines.extend(f"  {item}" for item in items)
    lines.extend(_layout_lines(report.layout))
    memory = report.memory
    if memory is not None:
        lines.append(
            f"buffers: {memory.buffers} for the intermediates; peak memory {memory.peak:,} bytes "
            f"(all intermediates {memory.total:,}; feeds, parameters and constants "
            f"{memory.resident:,}"
            + (f"; {memory.unknown} of sizes known when they run" if memory.unknown else "")
            + ")"
        )
    return lines


def _layout_lines(layout: Any) -> list[str]:
    """What the layout_choice pass did (runtime/static/passes/layout.py), for ``--plan``."""
    if layout is None:
        return []
    timed = (
        f"; a run took {layout.chosen_seconds * 1e3:.2f} ms, channels first "
        f"{layout.first_seconds * 1e3:.2f} ms"
        if layout.first_seconds is not None
        else ""
    )
    if layout.kept_because is not None:
        return [f"layout ({layout.mode}): channels first, as exported: {layout.kept_because}"]
    lines = [
        f"layout ({layout.mode}): {len(layout.chains)} convolution chain(s) channels last, "
        f"{layout.transposes} transposes in and out{timed}"
    ]
    for chain in layout.chains:
        ends = chain[0] if len(chain) == 1 else f"{chain[0]} .. {chain[-1]}"
        lines.append(f"  {ends}: {len(chain)} ops")
    return lines


def _feeds(inputs: list[str], feed_names: list[str]) -> dict[str, Any]:
    feed: dict[str, Any] = {}
    for item in inputs:
        name, equals, file = item.rpartition("=")
        if not equals:
            if len(feed_names) != 1:
                raise InvalidArgumentError(
                    f"--input {item}: say which input it is (NAME=FILE); the model's inputs are "
                    f"{feed_names}"
                )
            name, file = feed_names[0], item
        if name not in feed_names:
            raise InvalidArgumentError(
                f"--input {item}: the model has no input '{name}'; its inputs are {feed_names}"
            )
        path = Path(file)
        if not path.exists():
            raise InvalidArgumentError(f"--input {item}: no such file: {file}")
        feed[name] = _read_npy(path, f"--input {item}: {file}")
    missing = [name for name in feed_names if name not in feed]
    if missing:
        raise InvalidArgumentError(
            f"missing input(s) {missing}: give each with --input NAME=FILE.npy"
        )
    return feed


def _read_npy(path: Path, where: str) -> np.ndarray:
    """The array of the `.npy` file ``path``, its header checked against the bytes that follow
    before anything is allocated (numpy's own reader allocates what the header asks first)."""
    from phiops.runtime.file_limits import MAX_NPY_FILE_BYTES, MAX_TENSOR_DIMS, read_file_bytes

    data = read_file_bytes(path, MAX_NPY_FILE_BYTES, "MAX_NPY_FILE_BYTES", ".npy input")
    stream = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
        else:
            raise ValueError(f"format version {version[0]}.{version[1]} (1.0 and 2.0 are read)")
    except (
        ValueError,
        EOFError,
        SyntaxError,
        TypeError,
        TokenError,
        MemoryError,
        RecursionError,
    ) as error:
        detail = str(error) or type(error).__name__
        raise InvalidArgumentError(f"{where} is not a .npy array: {detail}") from None
    if dtype.hasobject:
        raise InvalidArgumentError(f"{where}: arrays of Python objects are not read")
    if len(shape) > MAX_TENSOR_DIMS:
        raise InvalidArgumentError(
            f"{where}: {len(shape)} dims; a tensor has at most {MAX_TENSOR_DIMS} "
            "(phiops.runtime.file_limits.MAX_TENSOR_DIMS)"
        )
    needed = math.prod(shape) * dtype.itemsize
    left = len(data) - stream.tell()
    if needed != left:
        raise InvalidArgumentError(
            f"{where}: its header says shape {list(shape)} {dtype}, {needed:,} bytes of data, "
            f"but {left:,} follow the header"
        )
    array = np.frombuffer(data, dtype=dtype, count=math.prod(shape), offset=stream.tell())
    return array.reshape(shape, order="F" if fortran else "C").copy()


def _fetch_names(program: Any, fetch_targets: list[Any]) -> list[str]:
    """The fetch ops' names (``fetch_name_0``...) of the targets, as PaddlePaddle names them."""
    names = {}
    for op in program.block.ops:
        if op.name == "pd_op.fetch":
            names[id(op.operands[0])] = op.attributes["name"].value
    return [names.get(id(target), f"output {i}") for i, target in enumerate(fetch_targets)]


def _summary(array: np.ndarray) -> str:
    text = f"shape {list(array.shape)} {array.dtype}"
    if array.size and array.dtype.kind in "biuf":
        values = array.astype(np.float64)
        text += (
            f"  min {values.min():.6g} max {values.max():.6g} mean {values.mean():.6g}"
            f"  first {np.array2string(array.reshape(-1)[:4], precision=6, separator=', ')}"
        )
    return text


if __name__ == "__main__":
    sys.exit(main())
