"""runtime/static sits below runtime/nn and runtime/optimizer (DESIGN.md §10): none of its modules
imports them, at module level or inside a function; and the optimizers update parameters through
the generated ops (dispatch), never through kernel internals."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RUNTIME = Path(__file__).resolve().parents[2] / "runtime"


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, as absolute ``phiops.runtime...`` names."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def offending(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted((RUNTIME / folder).rglob("*.py")):
        for name in sorted(imported_modules(path)):
            if name.startswith(forbidden):
                found.append(f"{path.relative_to(RUNTIME.parent)} imports {name}")
    return found


@pytest.mark.parametrize("upper", ["phiops.runtime.nn", "phiops.runtime.optimizer"])
def test_runtime_static_imports_nothing_from_the_layers_above_it(upper: str) -> None:
    assert offending("static", (upper + ".", upper)) == []


def test_the_optimizers_reach_no_kernel() -> None:
    assert offending("optimizer", ("phiops.runtime.kernels",)) == []


def test_the_check_finds_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from phiops.runtime.nn.layer import Layer\n")
    assert "phiops.runtime.nn.layer" in imported_modules(module)
