"""runtime/formats sits between the layers it reads with and those that save and load models
(DESIGN.md §10): ir, compat, dispatch, tensor, autograd and eager lie below it and never import it, not even
inside a function; formats imports nothing from nn, the optimizers, jit or the static API.

A package's ``__main__.py`` is a command-line program (``phiops ir``, ``phiops compat``), on top
of every layer, so it may read files with formats whatever folder it sits in.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RUNTIME = Path(__file__).resolve().parents[2] / "runtime"
BELOW_FORMATS = ("ir", "compat", "dispatch", "tensor", "autograd", "eager")
ABOVE_FORMATS = ("nn", "optimizer", "jit", "static")


def _package_of(path: Path) -> str:
    """The package a runtime file's relative imports start from."""
    return "phiops." + ".".join(path.parent.relative_to(RUNTIME.parent).parts)


def _imported(path: Path, package: str) -> list[tuple[int, str]]:
    """``(line, module)`` of every import in the file (of ``package``), relative ones resolved,
    and of every ``importlib.import_module("...")`` / ``__import__("...")`` of a constant name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and node.args:
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            first = node.args[0]
            if name in ("import_module", "__import__") and isinstance(first, ast.Constant):
                if isinstance(first.value, str):
                    found.append((node.lineno, first.value))
    return found


def _imports_of(package: str, forbidden: str) -> list[str]:
    offences = []
    for path in sorted((RUNTIME / package).rglob("*.py")):
        if path.name == "__main__.py":
            continue
        for line, module in _imported(path, _package_of(path)):
            if module == forbidden or module.startswith(forbidden + "."):
                offences.append(f"{path.relative_to(RUNTIME.parent)}:{line}: imports {module}")
    return offences


def _runtime_package(name: str) -> str:
    return "phiops.runtime." + name


@pytest.mark.parametrize("layer", BELOW_FORMATS)
def test_a_layer_below_formats_never_imports_it(layer: str) -> None:
    assert _imports_of(layer, _runtime_package("formats")) == []


@pytest.mark.parametrize("layer", ABOVE_FORMATS)
def test_formats_never_imports_a_layer_above_it(layer: str) -> None:
    assert _imports_of("formats", _runtime_package(layer)) == []


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text("def f():\n    from phiops.runtime.formats import pir_json\n")
    assert (2, "phiops.runtime.formats.pir_json") in _imported(source, "phiops.runtime.ir")


def test_the_check_resolves_a_relative_import(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text("from ..formats import pdmodel\n")
    assert (1, "phiops.runtime.formats.pdmodel") in _imported(source, "phiops.runtime.compat")


def test_the_check_sees_import_module(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text("import importlib\nimportlib.import_module('phiops.runtime.formats')\n")
    assert (2, "phiops.runtime.formats") in _imported(source, "phiops.runtime.eager")


def test_every_format_module_is_in_the_formats_package() -> None:
    assert not (RUNTIME / "serialization").exists()
    for moved in ("ir/json_io.py", "compat/framework_proto.py", "compat/legacy.py"):
        assert not (RUNTIME / moved).exists(), moved
