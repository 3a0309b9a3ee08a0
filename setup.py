"""Build hook: codegen runs before setuptools collects the packages, so that `pip install .` of a
checkout without generated/ still produces a working package. When generated/ is up to date the
run takes well under a second and writes nothing.

The wheel holds one top-level package, `phiops`: the folders `runtime/`, `generated/` and
`codegen/` at the repository root become its subpackages `phiops.runtime`, `phiops.generated` and
`phiops.codegen` (package_dir), beside the hand-written facade in `phiops/`.

The one C extension, phiops.runtime.kernels._native (fused layer_norm kernels, conv2d's im2col and
col2im, Adam's step), is optional: without a C compiler the build warns and installs the
pure-Python package, whose numpy kernels are used instead (README, "Native kernels")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from setuptools import Extension, find_packages, setup

ROOT = Path(__file__).resolve().parent
# subpackage of phiops -> its folder at the repository root
FOLDERS = {"runtime": "runtime", "generated": "generated", "codegen": "codegen"}


def run_codegen() -> None:
    result = subprocess.run([sys.executable, "-m", "phiops.codegen", "--root", str(ROOT)], cwd=ROOT)
    if result.returncode != 0:
        raise SystemExit("codegen failed; see the errors above")


def packages() -> list[str]:
    found = ["phiops", *(f"phiops.{name}" for name in find_packages(str(ROOT / "phiops")))]
    for package, folder in FOLDERS.items():
        found.append(f"phiops.{package}")
        found += [f"phiops.{package}.{name}" for name in find_packages(str(ROOT / folder))]
    return sorted(found + list(TEMPLATE_FOLDERS))


# templates/ ships as phiops/templates (data only): `phiops codegen --package` renders a user's op
# package with phiops's own templates (codegen/package.py's templates_dir), also from a wheel
TEMPLATE_FOLDERS = {
    "phiops.templates": "templates",
    "phiops.templates.package": "templates/package",
}


NATIVE = Extension(
    "phiops.runtime.kernels._native",
    sources=["runtime/kernels/csrc/_native.c"],
    depends=[
        "runtime/kernels/csrc/layer_norm.h",
        "runtime/kernels/csrc/conv2d.h",
        "runtime/kernels/csrc/conv_fast.h",
        "runtime/kernels/csrc/channels_last.h",
        "runtime/kernels/csrc/conv_direct.h",
        "runtime/kernels/csrc/adam.h",
        "runtime/kernels/csrc/adam_scalars.h",
        "runtime/kernels/csrc/rnn.h",
        "runtime/kernels/csrc/nms.h",
        "runtime/kernels/csrc/mt19937.h",
        "runtime/kernels/csrc/channel_affine.h",
    ],
    # portable flags only: the loops are written so that -O3 vectorises them with the baseline
    # instruction set of the target (SSE2 on x86-64), for wheels that run on any CPU of it;
    # -fno-math-errno lets sqrt vectorise (no errno to set; the results are the same);
    # -ffp-contract=off: no product and sum fused into one FMA (GCC would on targets that have
    # it, such as aarch64), so kernels that promise numpy's bits (channel_affine.h) keep them
    extra_compile_args=(
        ["-O3", "-fno-math-errno", "-ffp-contract=off"] if sys.platform != "win32" else ["/O2"]
    ),
    optional=True,
)

run_codegen()
setup(
    packages=packages(),
    package_dir={
        "phiops": "phiops",
        **{f"phiops.{p}": f for p, f in FOLDERS.items()},
        **TEMPLATE_FOLDERS,
    },
    # paddle_3_3_1_cpu.json: what PaddlePaddle 3.3.1 runs on CPU, for `phiops kernels --coverage`;
    # paddle_amp_lists_3_3_1.json: PaddlePaddle's paddle.amp op lists
    package_data={
        "": ["py.typed"],
        "phiops.runtime.kernels": ["paddle_3_3_1_cpu.json"],
        "phiops.runtime.amp": ["paddle_amp_lists_3_3_1.json"],
        **{package: ["*.j2"] for package in TEMPLATE_FOLDERS},
    },
    include_package_data=False,  # the C sources are built, not shipped (no csrc/ in the wheel)
    ext_modules=[NATIVE],
)
