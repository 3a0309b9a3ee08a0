"""Build hook: codegen runs before setuptools looks for packages, so that `pip install .` of a
checkout without generated/ still produces a working package. When generated/ is up to date the
run takes well under a second and writes nothing.

The one C extension, runtime.kernels._native (fused layer_norm kernels, conv2d's im2col and col2im), is
optional: without a C compiler the build warns and installs the pure-Python package, whose numpy
kernels are used instead (README, "Native kernels")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent


def run_codegen() -> None:
    result = subprocess.run([sys.executable, "-m", "codegen", "--root", str(ROOT)], cwd=ROOT)
    if result.returncode != 0:
        raise SystemExit("codegen failed; see the errors above")


NATIVE = Extension(
    "runtime.kernels._native",
    sources=["runtime/kernels/csrc/_native.c"],
    depends=[
        "runtime/kernels/csrc/layer_norm.h",
        "runtime/kernels/csrc/conv2d.h",
        "runtime/kernels/csrc/adam.h",
        "runtime/kernels/csrc/adam_scalars.h",
    ],
    # portable flags only: the loops are written so that -O3 vectorises them with the baseline
    # instruction set of the target (SSE2 on x86-64), for wheels that run on any CPU of it;
    # -fno-math-errno lets sqrt vectorise (no errno to set; the results are the same)
    extra_compile_args=["-O3", "-fno-math-errno"] if sys.platform != "win32" else ["/O2"],
    optional=True,
)

run_codegen()
setup(ext_modules=[NATIVE])
