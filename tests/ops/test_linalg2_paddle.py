"""Parity of the linalg2 ops with PaddlePaddle 3.3.1: results and gradients of the op-level
functions (``phiops._C_ops.<op>``, PaddlePaddle's ``paddle._C_ops.<op>``) for every dtype
PaddlePaddle registers on CPU, recorded by tests/tools/make_linalg2_fixtures.py into
tests/data/linalg2/paddle_3_3_1.json."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.kernels.coverage import paddle_data

DATA = Path(__file__).resolve().parents[1] / "data" / "linalg2" / "paddle_3_3_1.json"
CASES: dict[str, dict] = json.loads(DATA.read_text())["cases"]

# factorizations and sums of products: LAPACK's, Eigen's and numpy's orders of operations differ
TOLERANCE = {
    "float32": {"rtol": 2e-4, "atol": 2e-4},
    "complex64": {"rtol": 2e-4, "atol": 2e-4},
    "float64": {"rtol": 1e-10, "atol": 1e-10},
    "complex128": {"rtol": 1e-10, "atol": 1e-10},
}
# op -> kernel, where PaddlePaddle names them differently
KERNELS = {"det": "determinant"}


def decode(values: list, dtype: str, shape: list[int]) -> np.ndarray:
    if dtype.startswith("complex"):
        return np.array([complex(re, im) for re, im in values], dtype).reshape(shape)
    return np.array(values, dtype).reshape(shape)


def inputs(case: dict, stop_gradient: bool = True) -> list:
    return [
        phi.to_tensor(decode(values, dtype, shape), stop_gradient=stop_gradient)
        for values, dtype, shape in zip(case["inputs"], case["dtypes"], case["shapes"])
    ]


def run(case: dict, tensors: list) -> list:
    fn = getattr(phi, case["op"])
    result = fn(tensors, *case["attrs"]) if case["list"] else fn(*tensors, *case["attrs"])
    outs = list(result) if isinstance(result, (list, tuple)) else [result]
    # eigvalsh's eigenvectors are the gradient's input, not a result
    return outs[:1] if case["op"] == "eigvalsh" else outs


@pytest.mark.parametrize("key", sorted(CASES))
def test_result_matches_paddle(key: str) -> None:
    case = CASES[key]
    outs = run(case, inputs(case))
    assert len(outs) == len(case["outs"])
    for out, expected in zip(outs, case["outs"]):
        assert out.dtype == DataType[expected["dtype"].upper()]
        assert out.shape == expected["shape"]
        values = decode(expected["values"], expected["dtype"], expected["shape"])
        ours = out.numpy()
        if case["op"] == "eigvals":
            # eigenvalues come in no defined order; numpy's geev and PaddlePaddle's order them
            # differently for some inputs (float32 and complex ones): compared as sets
            ours, values = np.sort_complex(ours), np.sort_complex(values)
        np.testing.assert_allclose(
            ours, values, **TOLERANCE.get(expected["dtype"], {"rtol": 0, "atol": 0})
        )


GRAD_CASES = sorted(key for key, case in CASES.items() if "grads" in case)


@pytest.mark.parametrize("key", GRAD_CASES)
def test_gradients_match_paddle(key: str) -> None:
    case = CASES[key]
    tensors = inputs(case, stop_gradient=False)
    outs = run(case, tensors)
    out_grads = [
        phi.to_tensor(decode(values, expected["dtype"], expected["shape"]))
        for values, expected in zip(case["out_grads"], case["outs"])
    ]
    grads = phi.grad(outs, tensors[: len(case["grads"])], grad_outputs=out_grads)
    for grad, expected, dtype, shape in zip(grads, case["grads"], case["dtypes"], case["shapes"]):
        np.testing.assert_allclose(
            grad.numpy(), decode(expected, dtype, shape), **TOLERANCE[case["dtype"]]
        )


def test_the_recording_covers_every_op_and_registered_dtype() -> None:
    table = paddle_data()["kernels"]
    recorded = {(case["op"], case["dtype"]) for case in CASES.values()}
    for op in sorted({case["op"] for case in CASES.values()}):
        kernel = KERNELS.get(op, op)
        assert {dtype for o, dtype in recorded if o == op} == set(table[kernel]), op
