"""The build hook of out-of-tree op packages (docs/extending.md): ``pip install .`` of a project
holding an op package runs ``phiops codegen --package`` on it before setuptools collects its
files, so that the installed package carries a generated folder that matches its specs.

In the op package project's ``setup.py``::

    from setuptools import setup
    from phiops.codegen.setuptools import cmdclass

    setup(cmdclass=cmdclass())

``build_py`` finds the op packages among the distribution's packages (those whose folder holds
an ``op_package.yaml`` or an ``ops.yaml``), generates each (a spec error stops the build with
the errors, file:line:col), and adds each one's ``generated`` subpackage to the packages it
builds, so that the project need not list a folder that does not exist before the build.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from setuptools.command.build_py import build_py as _build_py

from phiops.codegen.package import MANIFEST, OUT_DIR, SPEC_FILES

__all__ = ["build_py", "cmdclass", "generate_op_packages", "op_package_dirs"]


def op_package_dirs(
    packages: list[str], package_dir: dict[str, str] | None, root: Path
) -> list[tuple[str, Path]]:
    """The op packages among ``packages`` (dotted names, laid out by setuptools' ``package_dir``
    mapping under ``root``): (package name, folder) pairs."""
    mapping = dict(package_dir or {})
    found = []
    for package in packages:
        parts = package.split(".")
        folder = None
        for cut in range(len(parts), -1, -1):
            key = ".".join(parts[:cut])
            if key in mapping:
                folder = Path(mapping[key], *parts[cut:])
                break
        folder = root / (folder if folder is not None else Path(*parts))
        if (folder / MANIFEST).exists() or (folder / SPEC_FILES[0]).exists():
            found.append((package, folder))
    return found


def generate_op_packages(folders: list[Path]) -> None:
    """Run ``phiops codegen --package`` on each folder (in a process of its own, as phiops's own
    build does); SystemExit with the errors when one fails."""
    for folder in folders:
        result = subprocess.run(
            [sys.executable, "-m", "phiops.codegen", "--package", str(folder)], cwd=folder.parent
        )
        if result.returncode != 0:
            raise SystemExit(f"phiops codegen --package {folder} failed; see the errors above")


class build_py(_build_py):
    """setuptools' build_py, generating the distribution's op packages first."""

    def finalize_options(self) -> None:
        super().finalize_options()
        root = Path(self.distribution.src_root or ".").resolve()
        self._op_packages = op_package_dirs(list(self.packages or ()), self.package_dir, root)
        # generated now, not in run(): setuptools' metadata step (egg_info, before any build)
        # already lists the files of the packages added here, which must exist by then
        generate_op_packages([folder for _, folder in self._op_packages])
        for name, _ in self._op_packages:
            if f"{name}.{OUT_DIR}" not in self.packages:
                self.packages.append(f"{name}.{OUT_DIR}")


def cmdclass() -> dict[str, type]:
    """The commands to give ``setup(cmdclass=...)``."""
    return {"build_py": build_py}
