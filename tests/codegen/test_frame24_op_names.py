"""``empty`` and ``empty_like`` are ops (PaddlePaddle 3.3.1's ops.yaml has them), no longer names
codegen/reserved.py keeps for the package: the generated API binds the ops under their names
(``phiops._C_ops.empty``), and ``paddle.empty``/``paddle.empty_like``, generated from
ops/python_api.yaml into generated/python_api.py (a module of its own), keep PaddlePaddle's
signatures and call the ops."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import phiops
import phiops._C_ops as C
from phiops.codegen.reserved import RESERVED_OP_NAMES, reserved_reason
from phiops.generated import api, python_api
from phiops.runtime.dispatch.op_def import OP_DEFS

from .spec_cases import load_case
from .test_errors import API, op


@pytest.mark.parametrize("name", ["empty", "empty_like"])
def test_empty_names_are_ops_not_reserved_names(name: str) -> None:
    assert name not in RESERVED_OP_NAMES and reserved_reason(name) is None
    assert name in OP_DEFS
    assert getattr(C, name) is getattr(api, name)


def test_ops_named_empty_and_empty_like_pass_lint(tmp_path: Path) -> None:
    assert load_case(tmp_path, {API: op(name="empty") + op(name="empty_like")}) == []


def test_paddle_empty_keeps_paddles_signature_and_calls_the_op() -> None:
    assert list(inspect.signature(python_api.empty).parameters) == ["shape", "dtype", "name", "out"]
    assert "_api.empty(" in inspect.getsource(python_api.empty)
    assert "_api.empty_like(" in inspect.getsource(python_api.empty_like)
    assert list(inspect.signature(C.empty).parameters) == ["shape", "dtype", "place", "name"]
    assert "device" in inspect.signature(phiops.empty).parameters
