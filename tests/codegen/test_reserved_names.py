"""Op names and defaults the generated package could not live with are located lint errors:
an op named like a builtin the generated code calls (``type``, ``tuple``) or a name the package
already exports (``nn``, ``seed``, ``no_grad``), and a ``float`` default float32 cannot hold
(the runtime would refuse it at every call)."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import pytest

from phiops.codegen.reserved import RESERVED_OP_NAMES, reserved_reason
from phiops.runtime.dispatch.attributes import FLOAT32_OVERFLOW
from phiops.runtime.dispatch.op_def import OP_DEFS

from .spec_cases import load_case
from .test_errors import API, op

REPO = Path(__file__).resolve().parents[2]
# The modules whose namespace op functions share (generated/__init__.py re-exports them all).
SHARED = ("__init__.py", "api.py", "backward.py", "inplace.py", "python_api.py")


def _names_of(path: Path, ops: set[str]) -> set[str]:
    """Names ``path`` binds at module level that are not op functions, and the builtins its
    code reads (not shadowed by a module name or a parameter)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bound |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    parameters = {
        a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments) for a in n.args + n.kwonlyargs
    }
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    builtin_reads = {
        name for name in read if name in vars(builtins) and name not in bound | parameters
    }
    return {name for name in bound | builtin_reads if not name.startswith("_")} - ops


def test_every_name_the_generated_package_shares_with_ops_is_reserved() -> None:
    import phiops.generated  # noqa: F401  (registers the ops)

    ops = set(OP_DEFS) | {name + "_" for name in OP_DEFS}
    shared = set().union(*(_names_of(REPO / "generated" / name, ops) for name in SHARED))
    assert shared - RESERVED_OP_NAMES == set()


def test_no_op_of_the_specs_has_a_reserved_name() -> None:
    import phiops.generated  # noqa: F401

    assert [name for name in OP_DEFS if reserved_reason(name)] == []


@pytest.mark.parametrize(
    "name, reason",
    [
        ("type", "the generated code calls the builtin 'type', which it would shadow"),
        ("tuple", "the generated code calls the builtin 'tuple', which it would shadow"),
        ("nn", "the generated package already binds 'nn'"),
        ("seed", "the generated package already binds 'seed'"),
        ("no_grad", "the generated package already binds 'no_grad'"),
        ("lambda", "'lambda' is a Python keyword"),
        ("to_tensor", "the generated package already binds 'to_tensor'"),
    ],
)
def test_a_reserved_op_name_is_a_located_error(tmp_path: Path, name: str, reason: str) -> None:
    found = load_case(tmp_path, {API: op(name=name)})
    assert found[0].split("\n")[0] == (
        f"ops/api.yaml:1:8: op '{name}': op name '{name}' is reserved: {reason}"
    )


def test_a_float_default_beyond_float32_is_a_located_error(tmp_path: Path) -> None:
    found = load_case(tmp_path, {API: op(args="(Tensor x, float eps = 1e39)")})
    assert found == [
        "ops/api.yaml:2:33: op 'foo': args: default 1e39 of argument 'eps' is out of range for float "
        "(float32: largest finite value 3.4028235e+38; inf and nan are allowed)"
    ]


@pytest.mark.parametrize("default", ["3.4e38", "-3.4e38", "1e39"])
def test_a_double_or_in_range_default_is_accepted(tmp_path: Path, default: str) -> None:
    kind = "double" if default == "1e39" else "float"
    assert load_case(tmp_path, {API: op(args=f"(Tensor x, {kind} eps = {default})")}) == []


def test_the_bound_is_the_runtimes() -> None:
    from phiops.codegen import parse

    assert parse.FLOAT32_OVERFLOW == FLOAT32_OVERFLOW
