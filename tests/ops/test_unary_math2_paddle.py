"""Parity of the unary math ops with PaddlePaddle 3.3.1: results and gradients on
inputs with their edges (nan, +-inf, +-0, poles, thresholds, halves), for every dtype PaddlePaddle
registers on CPU, and integer inputs, recorded by tests/tools/make_unary_math2_fixtures.py into
tests/data/unary_math2/paddle_3_3_1.json."""

from __future__ import annotations

import json
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType

DATA = Path(__file__).resolve().parents[1] / "data" / "unary_math2" / "paddle_3_3_1.json"
CASES: dict[str, dict] = json.loads(DATA.read_text())

# rtol/atol per dtype: the libm functions PaddlePaddle's Eigen and std calls use and numpy's
# differ in the last bits (float16 and bfloat16 results are rounded from float32 ones)
TOLERANCE = {
    "float16": {"rtol": 1e-3, "atol": 1e-3},
    "bfloat16": {"rtol": 8e-3, "atol": 8e-3},
    "float32": {"rtol": 2e-6, "atol": 1e-6},
    "complex64": {"rtol": 2e-6, "atol": 1e-6},
    "float64": {"rtol": 1e-13, "atol": 1e-14},
    "complex128": {"rtol": 1e-13, "atol": 1e-14},
}

# erfinv's gradient is exp(out**2) * sqrt(pi) / 2: near x = 1 (out = 3.74 at float32's
# 0.9999999) it multiplies the 1-2 ulp difference between PaddlePaddle's float32 ndtri and
# phiops' float64-then-rounded erfinv by 2 * out**2 = 28
GRAD_TOLERANCE = {"erfinv-float32-default": {"rtol": 1e-5, "atol": 1e-6}}


def decode(values: list, dtype: str) -> np.ndarray:
    if dtype.startswith("complex"):
        return np.array([complex(re, im) for re, im in values], dtype)
    if dtype == "bfloat16":
        return np.array(values, np.float32).astype(ml_dtypes.bfloat16)
    return np.array(values, dtype)


def as_compared(array: np.ndarray) -> np.ndarray:
    return array.astype(np.float32) if array.dtype == ml_dtypes.bfloat16 else array


@pytest.mark.parametrize("key", sorted(CASES))
def test_result_matches_paddle(key: str) -> None:
    case = CASES[key]
    x = phi.to_tensor(decode(case["x"], case["dtype"]))
    out = getattr(phi, case["op"])(x, *case["attrs"])
    assert out.dtype == DataType[case["out_dtype"].upper()]
    expected = decode(case["out"], "float32" if case["dtype"] == "bfloat16" else case["out_dtype"])
    tolerance = TOLERANCE.get(case["out_dtype"], {"rtol": 0, "atol": 0})
    np.testing.assert_allclose(as_compared(out.numpy()), expected, **tolerance)


GRAD_CASES = sorted(key for key, case in CASES.items() if "x_grad" in case)


@pytest.mark.parametrize("key", GRAD_CASES)
def test_gradient_matches_paddle(key: str) -> None:
    case = CASES[key]
    x = phi.to_tensor(decode(case["x"], case["dtype"]), stop_gradient=False)
    out = getattr(phi, case["op"])(x, *case["attrs"])
    out_grad = phi.to_tensor(decode(case["out_grad"], case["dtype"]))
    (x_grad,) = phi.grad(out, [x], grad_outputs=out_grad)
    expected = decode(case["x_grad"], case["dtype"])
    tolerance = GRAD_TOLERANCE.get(key, TOLERANCE[case["dtype"]])
    np.testing.assert_allclose(x_grad.numpy(), expected, **tolerance)


def test_the_recording_covers_every_op_and_registered_dtype() -> None:
    ops = {case["op"] for case in CASES.values()}
    assert len(ops) == 22
    assert len(CASES) == 137
