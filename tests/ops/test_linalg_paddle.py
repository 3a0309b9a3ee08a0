"""Parity of the linear-algebra ops (bmm, mv, dot, kron, cross, trace, diagonal,
diag_embed, inverse, cholesky) with PaddlePaddle 3.3.1:
results and gradients for every dtype PaddlePaddle registers on CPU, recorded by
tests/tools/make_linalg_fixtures.py into tests/data/linalg/paddle_3_3_1.json."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.kernels.coverage import paddle_data

DATA = Path(__file__).resolve().parents[1] / "data" / "linalg" / "paddle_3_3_1.json"
CASES: dict[str, dict] = json.loads(DATA.read_text())["cases"]

# sums of products: the order of the additions (BLAS, Eigen, numpy's pairwise sums) differs
TOLERANCE = {
    "float16": {"rtol": 4e-3, "atol": 4e-3},
    "float32": {"rtol": 1e-5, "atol": 1e-5},
    "complex64": {"rtol": 1e-5, "atol": 1e-5},
    "float64": {"rtol": 1e-12, "atol": 1e-12},
    "complex128": {"rtol": 1e-12, "atol": 1e-12},
}


def decode(values: list, dtype: str, shape: list[int]) -> np.ndarray:
    if dtype.startswith("complex"):
        return np.array([complex(re, im) for re, im in values], dtype).reshape(shape)
    return np.array(values, dtype).reshape(shape)


def inputs(case: dict, stop_gradient: bool = True) -> list:
    return [
        phi.to_tensor(decode(values, case["dtype"], shape), stop_gradient=stop_gradient)
        for values, shape in zip(case["inputs"], case["shapes"])
    ]


@pytest.mark.parametrize("key", sorted(CASES))
def test_result_matches_paddle(key: str) -> None:
    case = CASES[key]
    out = getattr(phi, case["op"])(*inputs(case), *case["attrs"])
    assert out.dtype == DataType[case["out_dtype"].upper()]
    assert out.shape == case["out_shape"]
    expected = decode(case["out"], case["out_dtype"], case["out_shape"])
    np.testing.assert_allclose(
        out.numpy(), expected, **TOLERANCE.get(case["out_dtype"], {"rtol": 0, "atol": 0})
    )


GRAD_CASES = sorted(key for key, case in CASES.items() if "grads" in case)


@pytest.mark.parametrize("key", GRAD_CASES)
def test_gradients_match_paddle(key: str) -> None:
    case = CASES[key]
    tensors = inputs(case, stop_gradient=False)
    out = getattr(phi, case["op"])(*tensors, *case["attrs"])
    out_grad = phi.to_tensor(decode(case["out_grad"], case["dtype"], case["out_shape"]))
    grads = phi.grad(out, tensors, grad_outputs=out_grad)
    # cholesky_grad returns the symmetric gradient (the output grad here is not symmetric, so
    # the recorded gradient is what both compute: PaddlePaddle's formula)
    for grad, expected, shape in zip(grads, case["grads"], case["shapes"]):
        np.testing.assert_allclose(
            grad.numpy(), decode(expected, case["dtype"], shape), **TOLERANCE[case["dtype"]]
        )


def test_the_recording_covers_every_op_and_registered_dtype() -> None:
    table = paddle_data()["kernels"]
    recorded = {(case["op"], case["dtype"]) for case in CASES.values()}
    # float8 (numpy lacks it) and bfloat16 (diagonal only moves data) are not recorded
    unrecorded = {"float8_e4m3fn", "float8_e5m2", "bfloat16"}
    for op in (
        "bmm",
        "mv",
        "dot",
        "kron",
        "cross",
        "trace",
        "diagonal",
        "diag_embed",
        "inverse",
        "cholesky",
    ):
        assert {dtype for o, dtype in recorded if o == op} == set(table[op]) - unrecorded, op
