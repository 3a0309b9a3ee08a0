"""Parity of the linalg24 ops (lu, lu_unpack, eig, lstsq, matrix_rank_atol_rtol, baddbmm) with PaddlePaddle 3.3.1: results and
gradients of the op-level functions (``phiops._C_ops.<op>``, PaddlePaddle's
``paddle._C_ops.<op>``) for every dtype PaddlePaddle registers on CPU, recorded by
tests/tools/make_linalg24_fixtures.py into tests/data/linalg24/paddle_3_3_1.json."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.kernels.coverage import paddle_data

DATA = Path(__file__).resolve().parents[1] / "data" / "linalg24" / "paddle_3_3_1.json"
CASES: dict[str, dict] = json.loads(DATA.read_text())["cases"]

# factorizations: LAPACK's blocked getrf, geev and gelsd round differently from phiops's kernels
TOLERANCE = {
    "float32": {"rtol": 5e-4, "atol": 5e-4},
    "complex64": {"rtol": 5e-4, "atol": 5e-4},
    "float64": {"rtol": 1e-9, "atol": 1e-9},
    "complex128": {"rtol": 1e-9, "atol": 1e-9},
}
EXACT = {"rtol": 0, "atol": 0}


def decode(values: list, dtype: str, shape: list[int]) -> np.ndarray:
    if dtype.startswith("complex"):
        return np.array([complex(re, im) for re, im in values], dtype).reshape(shape)
    return np.array(values, dtype).reshape(shape)


def inputs(case: dict, stop_gradient: bool = True) -> list:
    tensors = [
        phi.to_tensor(decode(values, dtype, shape))
        for values, dtype, shape in zip(case["inputs"], case["dtypes"], case["shapes"])
    ]
    for tensor in tensors[: len(case.get("grads", [None]))]:
        tensor.stop_gradient = stop_gradient
    return tensors


def run(case: dict, tensors: list) -> list:
    # matrix_rank_atol_rtol's optional rtol: None where the case has no third input
    optional = [None] if case["op"] == "matrix_rank_atol_rtol" and len(tensors) == 2 else []
    result = getattr(phi, case["op"])(*tensors, *optional, *case["attrs"])
    return list(result) if isinstance(result, (list, tuple)) else [result]


def eig_alignment(
    w: np.ndarray, v: np.ndarray, expected_w: np.ndarray, expected_v: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Eigenpairs come in no defined order and eigenvectors up to a unit phase each; LAPACK
    builds (PaddlePaddle's, numpy's) differ in both for float32 input. For each matrix: the
    order of phiops's eigenvalues that matches PaddlePaddle's, and the phase of each of
    phiops's eigenvectors (so reordered) relative to PaddlePaddle's, taken at its largest
    entry."""
    n = w.shape[-1]
    orders = np.zeros(w.shape, dtype=np.int64)
    phases = np.ones(w.shape, dtype=v.dtype)
    for index in np.ndindex(w.shape[:-1]):
        order = [int(np.argmin(np.abs(w[index] - value))) for value in expected_w[index]]
        assert sorted(order) == list(range(n)), "eigenvalues do not pair up"
        orders[index] = order
        ours, theirs = v[index][:, order], expected_v[index]
        rows = np.argmax(np.abs(theirs), axis=0)
        ratio = ours[rows, range(n)] / theirs[rows, range(n)]
        phases[index] = ratio / np.abs(ratio)
    return orders, phases


def reorder(values: np.ndarray, orders: np.ndarray, axis_from_end: int) -> np.ndarray:
    """``values`` with its eigen-index axis (-1 for eigenvalues and eigenvector columns)
    taken in ``orders``'s order, per matrix."""
    out = np.empty_like(values)
    for index in np.ndindex(orders.shape[:-1]):
        out[index] = np.take(values[index], orders[index], axis=axis_from_end)
    return out


@pytest.mark.parametrize("key", sorted(CASES))
def test_result_matches_paddle(key: str) -> None:
    case = CASES[key]
    outs = run(case, inputs(case))
    assert len(outs) == len(case["outs"])
    ours = [out.numpy() for out in outs]
    expected_values = [
        None if e is None else decode(e["values"], e["dtype"], e["shape"]) for e in case["outs"]
    ]
    if case["op"] == "eig" and ours[0].size:
        orders, phases = eig_alignment(ours[0], ours[1], expected_values[0], expected_values[1])
        ours = [reorder(ours[0], orders, -1), reorder(ours[1], orders, -1) / phases[..., None, :]]
    for out, value, expected, got in zip(outs, expected_values, case["outs"], ours):
        if expected is None:  # left unset by PaddlePaddle's kernel
            continue
        assert out.dtype == DataType[expected["dtype"].upper()]
        assert out.shape == expected["shape"]
        tolerance = EXACT if expected["dtype"].startswith("int") else TOLERANCE[case["dtype"]]
        np.testing.assert_allclose(got, value, **tolerance)


GRAD_CASES = sorted(key for key, case in CASES.items() if "grads" in case)


@pytest.mark.parametrize("key", GRAD_CASES)
def test_gradients_match_paddle(key: str) -> None:
    case = CASES[key]
    tensors = inputs(case, stop_gradient=False)
    outs = run(case, tensors)
    upstream = [
        decode(values, case["outs"][i]["dtype"], case["outs"][i]["shape"])
        for i, values in zip(case["grad_outputs"], case["out_grads"])
    ]
    if case["op"] == "eig":
        # the loss PaddlePaddle's upstream gradients define, restated for phiops's order and
        # phases of the eigenpairs: the same function of x, so the same gradient
        expected_w, expected_v = (decode(e["values"], e["dtype"], e["shape"]) for e in case["outs"])
        orders, phases = eig_alignment(outs[0].numpy(), outs[1].numpy(), expected_w, expected_v)
        grad_w, grad_v = np.empty_like(upstream[0]), np.empty_like(upstream[1])
        for index in np.ndindex(orders.shape[:-1]):
            grad_w[index][orders[index]] = upstream[0][index]
            grad_v[index][:, orders[index]] = upstream[1][index] * phases[index]
        upstream = [grad_w, grad_v]
    out_grads = [phi.to_tensor(values) for values in upstream]
    graded = tensors[: len(case["grads"])]
    grads = phi.grad([outs[i] for i in case["grad_outputs"]], graded, out_grads)
    for grad, values, dtype, shape in zip(
        grads, case["grads"], case["grad_dtypes"], case["shapes"]
    ):
        ours = grad.numpy()
        if case["op"] == "eig" and not case["dtype"].startswith("complex"):
            # eig_grad's gradient is complex; PaddlePaddle's engine keeps its real part for a
            # real input, phiops's engine hands the complex gradient on (a reported difference)
            ours = ours.real
        np.testing.assert_allclose(ours, decode(values, dtype, shape), **TOLERANCE[case["dtype"]])


def test_the_recording_covers_every_op_and_registered_dtype() -> None:
    table = paddle_data()["kernels"]
    recorded = {(case["op"], case["dtype"]) for case in CASES.values()}
    for op in sorted({case["op"] for case in CASES.values()}):
        assert {dtype for o, dtype in recorded if o == op} == set(table[op]), op
        if f"{op}_grad" in table:
            graded = {CASES[key]["dtype"] for key in GRAD_CASES if CASES[key]["op"] == op}
            assert graded == set(table[f"{op}_grad"]), op
