"""Build hook: codegen runs before setuptools looks for packages, so that `pip install .` of a
checkout without generated/ still produces a working package. When generated/ is up to date the
run takes well under a second and writes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent


def run_codegen() -> None:
    result = subprocess.run([sys.executable, "-m", "codegen", "--root", str(ROOT)], cwd=ROOT)
    if result.returncode != 0:
        raise SystemExit("codegen failed; see the errors above")


run_codegen()
setup()
