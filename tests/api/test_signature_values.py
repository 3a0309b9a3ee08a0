"""The calls of tests/api/signature_cases.py give PaddlePaddle 3.3.1's results (recorded in
tests/data/paddle_api/signature_values.json by tests/tools/make_signature_values.py): the
structure (Tensor, list, tuple), shape, dtype and values, and for the in-place ones what is left
in the tensor written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops
from tests.api.signature_cases import CASES

RECORDED = json.loads(
    (
        Path(__file__).resolve().parents[1] / "data" / "paddle_api" / "signature_values.json"
    ).read_text(encoding="utf-8")
)


def _check(ours: Any, theirs: dict, where: str) -> None:
    ((kind, expected),) = theirs.items()
    if kind != "tensor":
        assert type(ours).__name__ == kind, f"{where}: a {type(ours).__name__}, not a {kind}"
        assert len(ours) == len(expected), f"{where}: {len(ours)} items, not {len(expected)}"
        for index, (item, wanted) in enumerate(zip(ours, expected)):
            _check(item, wanted, f"{where}[{index}]")
        return
    shape, dtype, values = expected
    assert isinstance(ours, phiops.Tensor), f"{where}: a {type(ours).__name__}, not a Tensor"
    array = ours.numpy()
    assert list(array.shape) == shape, where
    assert str(array.dtype) == dtype, where
    np.testing.assert_allclose(array, np.asarray(values, dtype=dtype), rtol=1e-6, atol=1e-6)


def test_every_case_is_recorded() -> None:
    assert sorted(RECORDED) == sorted(case for case, _ in CASES)


@pytest.mark.parametrize("case", [case for case, _ in CASES])
def test_result_is_paddles(case: str) -> None:
    call = dict(CASES)[case]
    _check(call(phiops, phiops.to_tensor), RECORDED[case], case)
