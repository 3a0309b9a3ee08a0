"""The package build runs codegen: a checkout without generated/ still builds a working package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _copy_sources(target: Path) -> None:
    for name in (
        "codegen",
        "runtime",
        "templates",
        "ops",
        "setup.py",
        "pyproject.toml",
        "README.md",
    ):
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy2(source, target / name)


def _build_py(checkout: Path, lib: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(lib)],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_build_regenerates_a_deleted_generated_package(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    _copy_sources(checkout)
    assert not (checkout / "generated").exists()
    build = _build_py(checkout, tmp_path / "lib")
    assert build.returncode == 0, build.stdout + build.stderr
    assert (tmp_path / "lib" / "generated" / "api.py").exists()
    use = subprocess.run(
        [
            sys.executable,
            "-c",
            "import generated as phi; print(phi.add(phi.ones([2]), phi.ones([2])).numpy().tolist())",
        ],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(tmp_path / "lib")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert use.stdout.strip() == "[2.0, 2.0]", use.stderr


def test_build_stops_on_a_spec_error(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    _copy_sources(checkout)
    spec = checkout / "ops" / "api.yaml"
    spec.write_text(
        spec.read_text().replace("func : ElementwiseInferMeta", "func : ElementwiseInferMetaa", 1)
    )
    build = _build_py(checkout, tmp_path / "lib")
    assert build.returncode != 0
    assert "InferMeta function 'ElementwiseInferMetaa'" in build.stderr
    assert not (checkout / "generated").exists()


def test_wheel_of_a_checkout_without_generated_contains_it(tmp_path: Path) -> None:
    import zipfile

    checkout = tmp_path / "checkout"
    checkout.mkdir()
    _copy_sources(checkout)
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path / "dist"),
            ".",
        ],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    (wheel,) = (tmp_path / "dist").glob("phiops-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "generated/__init__.py",
        "generated/api.py",
        "runtime/kernels/impl/elementwise_kernel.py",
        "codegen/__main__.py",
    } <= names
