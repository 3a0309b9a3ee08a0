"""A throwaway copy of the example op package (examples/custom_op) under another name, for the
tests of `phiops codegen --package` and of op packages that are not installed. Codegen and the
package's own imports run in subprocesses: importing an op package registers its ops, kernels
and InferMeta functions, which must not leak into the pytest process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "custom_op" / "phiops_custom_op_example"


def copy_example(root: Path, name: str) -> Path:
    """The example package copied to ``root/name`` (its dialect renamed ``name`` too), without
    its generated folder."""
    target = root / name
    shutil.copytree(
        EXAMPLE, target, ignore=shutil.ignore_patterns("generated", "__pycache__", "*.pyc")
    )
    for path in target.rglob("*"):
        if path.is_file() and path.suffix in (".py", ".yaml"):
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace("phiops_custom_op_example", name), encoding="utf-8")
    return target


def env_without(extra_path: Path | None = None) -> dict[str, str]:
    """The environment with PYTHONPATH set to ``extra_path`` alone (or unset)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if extra_path is not None:
        env["PYTHONPATH"] = str(extra_path)
    return env


def run_codegen(package: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``phiops codegen --package package args...`` from the folder above the package."""
    return subprocess.run(
        [sys.executable, "-m", "phiops", "codegen", "--package", package.name, *args],
        cwd=package.parent,
        env=env_without(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def run_python(code: str, cwd: Path, path: Path | None) -> subprocess.CompletedProcess[str]:
    """``python -c code`` in ``cwd`` with PYTHONPATH ``path`` (None: none)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=env_without(path),
        capture_output=True,
        text=True,
        timeout=300,
    )
