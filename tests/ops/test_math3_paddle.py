"""Parity of the math3 ops (atan2, copysign, nextafter, heaviside, lerp, angle, real, imag, conj,
complex, as_complex, as_real) with PaddlePaddle 3.3.1: results and gradients on inputs with their edges, for every dtype PaddlePaddle registers
on CPU, through the op and through the paddle.* function where it converts its arguments,
recorded by tests/tools/make_math3_fixtures.py into tests/data/math3/paddle_3_3_1.json."""

from __future__ import annotations

import json
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import phiops
import phiops.generated as phi
from phiops.runtime.common import DataType
from tests.tools.make_math3_fixtures import BINARY_OPS, COMPLEX_OPS, as_numpy

DATA = Path(__file__).resolve().parents[1] / "data" / "math3" / "paddle_3_3_1.json"
CASES: dict[str, dict] = json.loads(DATA.read_text())

# atan2 and lerp go through libm / Eigen in PaddlePaddle and numpy here: last-bit differences
TOLERANCE = {
    "float16": {"rtol": 1e-3, "atol": 1e-3},
    "bfloat16": {"rtol": 8e-3, "atol": 8e-3},
    "float32": {"rtol": 2e-6, "atol": 1e-6},
    "float64": {"rtol": 1e-13, "atol": 1e-14},
    "complex64": {"rtol": 2e-6, "atol": 1e-6},
    "complex128": {"rtol": 1e-13, "atol": 1e-14},
}


REAL_FLOATS = ("float16", "bfloat16", "float32", "float64")


def phiops_inputs(case: dict, stop_gradient: bool) -> dict[str, phiops.Tensor]:
    tensors = {}
    for name, (values, shape) in case["inputs"].items():
        array = as_numpy(values, case["dtype"]).reshape(shape)
        if case["dtype"] == "bfloat16":
            array = array.astype(ml_dtypes.bfloat16)
        tensors[name] = phi.to_tensor(array, stop_gradient=stop_gradient)
    return tensors


def call(case: dict, tensors: dict[str, phiops.Tensor]) -> phiops.Tensor:
    fn = getattr(phiops if case["via"] == "api" else phi, case["op"])
    return fn(*tensors.values(), *case["args"])


def compared(array: np.ndarray) -> np.ndarray:
    return array.astype(np.float32) if array.dtype == ml_dtypes.bfloat16 else array


@pytest.mark.parametrize("key", sorted(CASES))
def test_result_matches_paddle(key: str) -> None:
    case = CASES[key]
    out = call(case, phiops_inputs(case, stop_gradient=True))
    assert out.dtype == DataType[case["out_dtype"].upper()]
    assert list(out.shape) == case["out_shape"]
    expected_dtype = "float32" if case["out_dtype"] == "bfloat16" else case["out_dtype"]
    expected = as_numpy(case["out"], expected_dtype).reshape(case["out_shape"])
    tolerance = TOLERANCE.get(case["out_dtype"], {"rtol": 0, "atol": 0})
    np.testing.assert_allclose(compared(out.numpy()), expected, **tolerance)
    if case["out_dtype"] in REAL_FLOATS:  # the sign of zeros too (copysign, nextafter)
        zeros = expected == 0
        np.testing.assert_array_equal(
            np.signbit(compared(out.numpy())[zeros]), np.signbit(expected[zeros])
        )


GRAD_CASES = sorted(key for key, case in CASES.items() if case["grad"])


@pytest.mark.parametrize("key", GRAD_CASES)
def test_gradient_matches_paddle(key: str) -> None:
    case = CASES[key]
    tensors = phiops_inputs(case, stop_gradient=False)
    out = call(case, tensors)
    out_grad = phi.to_tensor(as_numpy(case["out_grad"], case["out_dtype"]).reshape(out.shape))
    grads = phi.grad(out, list(tensors.values()), grad_outputs=out_grad, allow_unused=True)
    for (name, tensor), grad in zip(tensors.items(), grads):
        expected = case["grads"][name]
        if expected is None:
            assert grad is None, name
            continue
        expected_array = as_numpy(expected, case["dtype"]).reshape(tensor.shape)
        np.testing.assert_allclose(grad.numpy(), expected_array, **TOLERANCE[case["dtype"]])


def test_the_recording_covers_every_op_and_registered_dtype() -> None:
    recorded = {(case["op"], case["dtype"]) for case in CASES.values() if case["via"] == "op"}
    for op, dtypes in BINARY_OPS.items():
        assert {(op, dtype) for dtype in dtypes} <= recorded
    assert {case["op"] for case in CASES.values()} == {*BINARY_OPS, "lerp", *COMPLEX_OPS}
    assert len(CASES) == 61
