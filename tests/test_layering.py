"""The runtime's layers point one way (docs/architecture.md).

Every import inside ``runtime/`` (at module level or inside a function; ``if TYPE_CHECKING:``
imports aside, since they never run) goes to a module of the same layer or a lower one, and the
runtime's packages import each other without a cycle. A command's entry point (``__main__``) may
import any layer: nothing imports it. An import that runs upward, or a new
cycle, fails here naming the file and line. A new top-level package or module of ``runtime/``
fails too until it is given its layer in ``LAYERS`` (and its place in docs/architecture.md).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = ROOT / "runtime"

# Bottom to top. Each entry: the top-level packages and modules of runtime/ in that layer.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("base", frozenset({"errors", "flags", "runtime_flags", "cli_output", "file_limits"})),
    ("common", frozenset({"common", "random"})),
    ("backends", frozenset({"backends", "device", "comm"})),
    ("ir", frozenset({"ir"})),
    ("tensor", frozenset({"tensor"})),
    ("kernels and infermeta", frozenset({"kernels", "infermeta"})),
    ("dispatch", frozenset({"dispatch", "api_functions"})),
    ("autograd", frozenset({"autograd"})),
    ("eager", frozenset({"eager"})),
    ("static and formats", frozenset({"static", "compat", "formats"})),
    (
        "library",
        frozenset(
            {
                "nn",
                "optimizer",
                "io",
                "jit",
                "metric",
                "regularizer",
                "amp",
                "distributed",
                "hapi",
                "sparse",
            }
        ),
    ),
)
LAYER_OF = {unit: index for index, (_, units) in enumerate(LAYERS) for unit in units}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return "phiops." + ".".join(parts)


MODULES = {
    _module_name(path): path
    for path in sorted(RUNTIME.rglob("*.py"))
    if "__pycache__" not in path.parts
}


def _unit(module: str) -> str | None:
    """The top-level package or module of runtime/ that ``module`` belongs to."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["phiops", "runtime"] else None


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(module: str, path: Path) -> list[tuple[int, str]]:
    """(line, imported runtime module) for every import in the file that can run."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                for other in child.orelse:
                    visit_one(other)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((node.lineno, _known(alias.name)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                submodule = f"{origin}.{alias.name}"
                found.append((node.lineno, submodule if submodule in MODULES else _known(origin)))
        visit(node)

    visit(tree)
    return sorted({(line, name) for line, name in found if name in MODULES})


def _known(name: str) -> str:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


EDGES = {module: _imports(module, path) for module, path in MODULES.items()}


def _where(module: str, line: int) -> str:
    return f"{MODULES[module].relative_to(ROOT)}:{line}"


def test_every_runtime_unit_has_a_layer() -> None:
    units = {_unit(module) for module in MODULES} - {None}
    missing = sorted(unit for unit in units if unit not in LAYER_OF)
    assert not missing, f"give these runtime/ units a layer in tests/test_layering.py: {missing}"


def test_no_import_runs_upward() -> None:
    upward = []
    for module, imports in EDGES.items():
        source = _unit(module)
        if module.endswith(".__main__"):
            continue  # a command's entry point: nothing imports it, it may use any layer
        for line, target in imports:
            low, high = LAYER_OF.get(source, -1), LAYER_OF.get(_unit(target), -1)
            if source is not None and high > low:
                upward.append(
                    f"{_where(module, line)}: {module} ({LAYERS[low][0]}) imports {target} "
                    f"({LAYERS[high][0]})"
                )
    assert not upward, "imports that run upward:\n" + "\n".join(upward)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for successor in sorted(graph.get(node, ())):
            if state.get(successor) == 1:
                return stack[stack.index(successor) :] + [successor]
            if successor not in state:
                found = visit(successor)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_runtime_units_import_each_other_without_a_cycle() -> None:
    graph: dict[str, set[str]] = {}
    lines: dict[tuple[str, str], str] = {}
    for module, imports in EDGES.items():
        if module.endswith(".__main__"):
            continue  # a command's entry point sits above every unit
        for line, target in imports:
            source, destination = _unit(module), _unit(target)
            if source and destination and source != destination:
                graph.setdefault(source, set()).add(destination)
                lines.setdefault((source, destination), _where(module, line))
    cycle = _cycle(graph)
    assert cycle is None, (
        "a cycle between runtime/ units: "
        + " -> ".join(cycle)
        + ("\n" + "\n".join(f"{a} -> {b}: {lines[a, b]}" for a, b in zip(cycle, cycle[1:])))
    )


def test_modules_import_each_other_at_load_time_without_a_cycle() -> None:
    """Module-level imports (those that run when a module loads) form no cycle: a module never
    needs another one that is still half-imported."""
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {node.lineno for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))}
        graph[module] = {target for line, target in EDGES[module] if line in top}
    for module in graph:
        graph[module].discard(module)
    cycle = _cycle(graph)
    assert cycle is None, "modules that import each other at load time: " + " -> ".join(cycle)


@pytest.mark.parametrize(
    "source, target, expected",
    [
        ("phiops.runtime.dispatch.dispatcher", "phiops.runtime.eager.tensor", "upward"),
        ("phiops.runtime.eager.tensor", "phiops.runtime.dispatch.dispatcher", "fine"),
    ],
)
def test_the_checks_see_an_upward_import(source: str, target: str, expected: str) -> None:
    """The layer table itself ranks eager above dispatch, so a dispatcher that imported the user
    Tensor would be reported."""
    up = LAYER_OF[_unit(target)] > LAYER_OF[_unit(source)]
    assert ("upward" if up else "fine") == expected


def test_the_import_reader_finds_function_level_and_relative_imports(tmp_path: Path) -> None:
    source = (
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from phiops.runtime.eager.tensor import Tensor\n"
        "def f():\n"
        "    from phiops.runtime.static import build\n"
        "    from ..errors import PhiError\n"
    )
    path = RUNTIME / "dispatch" / "checks.py"
    fake = tmp_path / "checks.py"
    fake.write_text(source)
    module = _module_name(path)
    found = {name for _, name in _imports(module, fake)}
    assert "phiops.runtime.static.build" in found
    assert "phiops.runtime.errors" in found
    assert not any(re.match(r"phiops\.runtime\.eager", name) for name in found)


def test_docs_architecture_lists_every_layer_and_unit() -> None:
    """docs/architecture.md's layer table holds LAYERS, unit by unit, in order."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([a-z ]+) \| ((?:`\w+`(?:, )?)+) \|", text, re.MULTILINE)
    documented = [(name, frozenset(re.findall(r"`(\w+)`", units))) for name, units in rows]
    assert documented == list(LAYERS)
