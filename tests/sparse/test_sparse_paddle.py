"""phiops.sparse against PaddlePaddle 3.3.1's paddle.sparse: each case of sparse_cases.py gives the
result (kind, shape, indices or crows/cols, values, in PaddlePaddle's entry order) and the
gradients PaddlePaddle gave (tests/data/sparse/paddle.json, recorded by
tests/tools/make_sparse_paddle.py). Cases PaddlePaddle's CPU build cannot run are listed there
with its error; test_sparse_ops.py checks those against numpy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops

from tests.sparse import sparse_cases

RECORD = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "sparse" / "paddle.json").read_text("utf-8")
)
# Where PaddlePaddle 3.3.1 is wrong, phiops gives the mathematical result (test_sparse_ops.py
# checks it against numpy) and these cases compare only what PaddlePaddle gets right.
GRADIENT_DIFFERS = {
    "sum axis=-1 csr": "PaddlePaddle's SumCsrGradKernel gives every row the last row's gradient",
    "sum axis=-1 keepdim csr": "the same",
}
RESULT_DIFFERS = {
    "sum axis=(0, 1) keepdim coo": "PaddlePaddle 3.3.1 sums a COO tensor over axis 0 only",
}
RAN = sorted(
    name
    for name, result in RECORD["cases"].items()
    if "error" not in result and name not in RESULT_DIFFERS
)
FAILED = sorted(name for name, result in RECORD["cases"].items() if "error" in result)


def test_the_record_has_every_case():
    assert sorted(RECORD["cases"]) == sorted(sparse_cases.CASES)


@pytest.mark.parametrize("name", RAN)
def test_matches_paddle(name):
    expected = RECORD["cases"][name]
    got = sparse_cases.run(phiops, name)
    assert "error" not in got, got.get("error")
    want_out, got_out = expected["out"], got["out"]
    assert got_out["kind"] == want_out["kind"]
    assert got_out["shape"] == want_out["shape"]
    for part in ("indices", "crows", "cols"):
        if part in want_out:
            assert got_out[part] == want_out[part], part
    np.testing.assert_allclose(
        np.asarray(got_out["values"], dtype=float),
        np.asarray(want_out["values"], dtype=float),
        rtol=1e-5,
        atol=1e-6,
    )
    assert len(got["grads"]) == len(expected["grads"])
    if name in GRADIENT_DIFFERS:
        return
    for got_grad, want_grad in zip(got["grads"], expected["grads"]):
        # None: PaddlePaddle 3.3.1 has no gradient there (coalesce, the conversions to CSR,
        # sparse_csr_tensor's values); phiops's is checked in test_sparse_ops.py
        if want_grad is not None:
            np.testing.assert_allclose(
                np.asarray(got_grad), np.asarray(want_grad), rtol=1e-5, atol=1e-6
            )


@pytest.mark.parametrize("name", sorted(RESULT_DIFFERS))
def test_where_paddle_differs_phiops_runs(name):
    got = sparse_cases.run(phiops, name)
    assert "error" not in got, got.get("error")


@pytest.mark.parametrize("name", FAILED)
def test_runs_where_paddle_cpu_cannot(name):
    got = sparse_cases.run(phiops, name)
    assert "error" not in got, got.get("error")
