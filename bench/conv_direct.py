"""The direct convolution against im2col + GEMM on the zoo's own convolution shapes (issue 26).

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE .venv/bin/python bench/conv_direct.py \
        [--repeats 15] [--json out.json] [model ...]

Runs each zoo model (docs/zoo.md; the committed ones and those `make zoo` cached in
PHIOPS_ZOO_DIR, else ~/.cache/phiops/zoo; all of them when none is named) once through
``load_inference_model`` to collect the shapes its conv2d ops see, then times, for every
distinct float32 channels-first KxK convolution with groups 1 (the ones the direct kernel can
take), the compiled direct kernel (``convolve_direct``, split between threads as conv2d splits
it) and the im2col + GEMM path conv2d takes otherwise, one after the other in this process.
It prints each shape (output channels M, C * kh * kw, output pixels, output row width, strides),
the two median times, their ratio, whether conv2d now picks the direct kernel
(``direct_pays``), and per range of M how often each path wins: the evidence behind
``DIRECT_MAX_CHANNELS`` and ``DIRECT_MID_*`` in runtime/kernels/impl/conv_kernel.py.

OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE must be unset (they halve numpy's GEMM on this machine).
Timings are medians of ``--repeats`` runs (wall clock). Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import numpy as np

import phiops.static as static
from phiops.runtime.kernels.impl import conv_kernel

ZOO_COMMITTED = Path(__file__).resolve().parent.parent / "tests" / "data" / "zoo"


def zoo_folders(names: list[str]) -> list[Path]:
    cache = Path(os.environ.get("PHIOPS_ZOO_DIR", Path.home() / ".cache" / "phiops" / "zoo"))
    manifest = json.loads((ZOO_COMMITTED / "manifest.json").read_text())
    known = [model["name"] for model in manifest["models"]]
    unknown = sorted(set(names) - set(known))
    if unknown:
        sys.exit(f"unknown zoo model(s) {unknown}; the zoo has {known}")
    folders = []
    for name in names or known:
        for folder in (ZOO_COMMITTED / name, cache / name):
            if (folder / "pir").is_dir():
                folders.append(folder)
                break
        else:
            print(f"{name}: not committed nor in {cache} (make zoo)", file=sys.stderr)
    return folders


def collect_shapes(folders: list[Path]) -> set[tuple]:
    """The (x shape, filter shape, strides, paddings, algorithm, dilations, groups, format) of
    every conv2d the models run."""
    shapes: set[tuple] = set()
    convolve = conv_kernel.convolve

    def recording(ctx, x, w, strides, paddings, algorithm, dilations, groups, data_format):
        key = (x.shape, w.shape, tuple(strides), tuple(paddings), algorithm, tuple(dilations))
        shapes.add(key + (groups, data_format, x.dtype.name))
        return convolve(ctx, x, w, strides, paddings, algorithm, dilations, groups, data_format)

    conv_kernel.convolve = recording
    try:
        for folder in folders:
            executor = static.Executor()
            program, _, fetches = static.load_inference_model(
                str(folder / "pir" / "model"), executor
            )
            with np.load(folder / "inputs_0.npz") as inputs:
                executor.run(program, feed=dict(inputs), fetch_list=fetches)
    finally:
        conv_kernel.convolve = convolve
    return shapes


def median_us(run: Callable[[], Any], repeats: int) -> float:
    run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument("models", nargs="*", help="zoo models (default: all found)")
    cli.add_argument("--repeats", type=int, default=15)
    cli.add_argument("--json", help="write the rows here")
    options = cli.parse_args()
    for variable in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        if variable in os.environ:
            print(f"warning: {variable} is set (it slows numpy's GEMM here)", file=sys.stderr)
    probe = np.zeros(1, np.float32)
    kernel = conv_kernel.direct_kernel(probe)
    if kernel is None:
        sys.exit("the direct kernel does not run here (no extension, or no AVX2 + FMA)")
    ctx = SimpleNamespace(xp=np)
    rng = np.random.default_rng(0)
    rows = []
    shapes = collect_shapes(zoo_folders(options.models))
    for x_shape, w_shape, strides, paddings, algorithm, dilations, groups, layout, dtype in sorted(
        shapes
    ):
        if groups != 1 or layout != "NCHW" or dtype != "float32" or len(w_shape) != 4:
            continue
        geometry = conv_kernel.conv_geometry(
            x_shape, w_shape, strides, paddings, algorithm, dilations, groups, layout
        )
        if conv_kernel.is_pointwise(geometry) or any(b < 0 for b, _ in geometry.pads):
            continue
        x = rng.standard_normal(x_shape).astype(np.float32)
        w = rng.standard_normal(w_shape).astype(np.float32)
        args = (list(strides), list(paddings), algorithm, list(dilations), groups, layout)
        depth = w_shape[1] * w_shape[2] * w_shape[3]
        chosen = conv_kernel.direct_pays(w_shape[0], depth, geometry)
        limits = conv_kernel.DIRECT_MAX_CHANNELS, conv_kernel.DIRECT_MID_CHANNELS
        conv_kernel.DIRECT_MAX_CHANNELS = conv_kernel.DIRECT_MID_CHANNELS = 0  # the other path
        try:
            gemm = median_us(lambda: conv_kernel.conv2d_kernel(ctx, x, w, *args), options.repeats)
        finally:
            conv_kernel.DIRECT_MAX_CHANNELS, conv_kernel.DIRECT_MID_CHANNELS = limits
        direct = median_us(
            lambda: conv_kernel.convolve_direct(kernel, x, w, geometry), options.repeats
        )
        row = {
            "m": w_shape[0],
            "depth": depth,
            "pixels": geometry.out[0] * geometry.out[1],
            "width": geometry.out[1],
            "strides": list(strides),
            "direct_us": round(direct, 1),
            "gemm_us": round(gemm, 1),
            "chosen": chosen,
        }
        rows.append(row)
        print(
            f"M {row['m']:4d}  C*k*k {row['depth']:5d}  pixels {row['pixels']:6d}  "
            f"width {row['width']:4d}  strides {strides}  direct {direct:8.0f} us  "
            f"im2col+GEMM {gemm:8.0f} us  GEMM/direct {gemm / direct:5.2f}"
            + ("  (conv2d: direct)" if chosen else ""),
            flush=True,
        )
    for low, high in ((1, 16), (17, 32), (33, 1 << 30)):
        group = [row for row in rows if low <= row["m"] <= high]
        wins = sum(row["direct_us"] < row["gemm_us"] for row in group)
        print(
            f"M {low}-{high if high < 1 << 30 else 'up'}: direct faster in {wins} of {len(group)}"
        )
    print("load average:", os.getloadavg())
    if options.json:
        Path(options.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
