"""Meta-test: every op in ops/api.yaml has forward tests over its dtypes and edge-case tests."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from phiops import codegen
import tests.ops
from tests.ops.op_testing import OP_TESTS

REPO = Path(__file__).resolve().parents[2]


def _import_op_tests() -> None:
    for info in pkgutil.iter_modules(tests.ops.__path__):
        if info.name.startswith("test_") and info.name != "test_coverage":
            importlib.import_module(f"tests.ops.{info.name}")


def test_every_op_has_dtype_and_edge_case_tests() -> None:
    _import_op_tests()
    ops = [
        op.name
        for op in codegen.load(
            [REPO / "ops" / "api.yaml", REPO / "ops" / "backward.yaml"], base=REPO
        ).ops
    ]
    missing = {
        op: sorted({"dtypes", "edge"} - OP_TESTS.get(op, set()))
        for op in ops
        if {"dtypes", "edge"} - OP_TESTS.get(op, set())
    }
    assert not missing, f"ops without the required tests (declare them with @op_test): {missing}"


def test_coverage_declarations_name_real_ops() -> None:
    _import_op_tests()
    ops = {
        op.name
        for op in codegen.load(
            [REPO / "ops" / "api.yaml", REPO / "ops" / "backward.yaml"], base=REPO
        ).ops
    }
    assert sorted(set(OP_TESTS) - ops) == []
