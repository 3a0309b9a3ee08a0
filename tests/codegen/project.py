"""A throwaway phiops project for generator tests: templates copied from the repository, ops
specs given by the test, codegen run in a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SMALL_SPEC = """
- op : add
  args : (Tensor x, Tensor y)
  output : Tensor(out)
  infer_meta :
    func : ElementwiseInferMeta
  kernel :
    func : add

- op : full
  args : (IntArray shape, Scalar(double) value, DataType dtype=DataType::FLOAT32, Place place=CPUPlace())
  output: Tensor(out)
  infer_meta :
    func : CreateInferMeta
    param : [shape, dtype]
  kernel :
    func : full
    param : [shape, value, dtype]
    data_type : dtype
    backend : place

- op : ones
  args : (IntArray shape, DataType dtype=DataType::FLOAT32, Place place=CPUPlace())
  output : Tensor(out)
  invoke : full(shape, 1, dtype, place)
"""


def make_project(root: Path, spec: str = SMALL_SPEC) -> Path:
    """A project under ``root`` with ``spec`` as ops/api.yaml and the repository's templates."""
    (root / "ops").mkdir(parents=True, exist_ok=True)
    (root / "ops" / "api.yaml").write_text(textwrap.dedent(spec).lstrip("\n"), encoding="utf-8")
    shutil.copytree(REPO / "templates", root / "templates", dirs_exist_ok=True)
    return root


def run_codegen(root: Path, *args: str, seed: str = "0") -> subprocess.CompletedProcess[str]:
    """``phiops codegen --root root args...`` from ``root`` (so messages say ops/api.yaml)."""
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "phiops.codegen", "--root", str(root), *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` by relative name, with its bytes."""
    if not directory.exists():
        return {}
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }
