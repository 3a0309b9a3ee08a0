"""The executor package's imports point one way (docs/executor.md, Layout): executor.py uses the
plan, the plan uses the steps, the steps use the attribute, meta and liveness modules below them;
no module imports one that imports it back. Only executor.py (which returns Tensors) and feeds.py
(which takes them as feeds) meet the user's Tensor: a plan and its steps run on bare arrays."""

from __future__ import annotations

import ast
from pathlib import Path

import phiops.runtime.static.executor as executor_package

PACKAGE = executor_package.__name__
FOLDER = Path(executor_package.__path__[0])
TENSOR_MODULE = "phiops.runtime.eager.tensor"
MEETS_USER_TENSORS = {f"{PACKAGE}.executor", f"{PACKAGE}.feeds"}


def module_name(path: Path) -> str:
    parts = path.relative_to(FOLDER).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


MODULES = {module_name(path): path for path in sorted(FOLDER.rglob("*.py"))}


def imported_modules(name: str) -> set[str]:
    """The modules that module ``name`` imports, anywhere in it (a function's body included),
    as absolute names; ``from package import x`` counts as importing ``package.x`` when x is a
    module."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names)
    return found


def package_imports(name: str) -> set[str]:
    return {other for other in imported_modules(name) if other in MODULES and other != name}


def test_the_package_has_its_modules():
    assert {f"{PACKAGE}.executor", f"{PACKAGE}.plan", f"{PACKAGE}.steps.kernel"} <= set(MODULES)


def import_cycles(graph: dict[str, set[str]]) -> list[str]:
    """Each cycle of ``graph`` (module -> the modules it imports) found by a depth-first walk,
    as ``a -> b -> a``."""
    cycles = []
    state: dict[str, str] = {}  # "open" while its imports are being walked, then "done"

    def visit(name: str, path: list[str]) -> None:
        state[name] = "open"
        for other in sorted(graph[name]):
            if state.get(other) == "open":
                cycles.append(" -> ".join([*path[path.index(other) :], other]))
            elif other not in state:
                visit(other, [*path, other])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    return cycles


def test_an_import_cycle_is_found_where_there_is_one():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == ["a -> b -> c -> a"]


def test_no_module_of_the_executor_package_imports_one_that_imports_it_back():
    assert import_cycles({name: package_imports(name) for name in MODULES}) == []


def test_the_plan_and_the_steps_never_import_the_executor():
    executor = f"{PACKAGE}.executor"
    importers = sorted(name for name in MODULES if executor in package_imports(name))
    assert importers == [PACKAGE]


def test_the_steps_never_import_the_plan():
    plan = f"{PACKAGE}.plan"
    importers = sorted(name for name in MODULES if plan in package_imports(name))
    assert importers == [f"{PACKAGE}.executor"]


def test_only_the_executor_and_the_feeds_import_the_users_tensor():
    importers = sorted(
        name
        for name in MODULES
        if any(
            imported == TENSOR_MODULE or imported.startswith(f"{TENSOR_MODULE}.")
            for imported in imported_modules(name)
        )
    )
    assert set(importers) <= MEETS_USER_TENSORS
