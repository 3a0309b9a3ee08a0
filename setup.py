"""Build hook: run codegen before the packages are collected, so that `pip install .` of a
checkout without generated/ still produces a working package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildWithCodegen(build_py):
    def run(self) -> None:
        result = subprocess.run([sys.executable, "-m", "codegen", "--root", str(ROOT)], cwd=ROOT)
        if result.returncode != 0:
            raise SystemExit("codegen failed; see the errors above")
        super().run()


setup(cmdclass={"build_py": BuildWithCodegen})
