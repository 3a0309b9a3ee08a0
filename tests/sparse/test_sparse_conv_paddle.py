"""phiops.sparse.nn's 3-D convolutions, max pooling and batch norm against PaddlePaddle 3.3.1:
each case of sparse_conv_cases.py gives the output (shape, indices in PaddlePaddle's order,
values), the gradients and a batch norm's running statistics PaddlePaddle gave
(tests/data/sparse_conv/paddle.json, recorded by tests/tools/make_sparse_conv_fixtures.py).
Cases PaddlePaddle's CPU build cannot run (SyncBatchNorm: no CPU kernel) are listed with its
error; test_sparse_conv.py checks those against numpy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops

from tests.sparse import sparse_conv_cases

RECORD = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "sparse_conv" / "paddle.json").read_text(
        "utf-8"
    )
)
# Where PaddlePaddle 3.3.1 is wrong, phiops gives the mathematical result (test_sparse_conv.py
# checks it against finite differences) and these cases compare only what PaddlePaddle gets right.
GRADIENT_DIFFERS = {
    "subm_conv3d unsorted input": (
        "PaddlePaddle's CPU Conv3dCooGradKernel (subm=True) gives wrong gradients of the "
        "input's values and the weight when the input's entries are not sorted (neither in "
        "the input's order nor in sorted order; on some such inputs it segfaults); the "
        "output and the bias's gradient are right",
        ("bias",),
    ),
}
RAN = sorted(name for name, result in RECORD["cases"].items() if "error" not in result)


def test_the_record_has_every_case():
    assert RECORD["paddle"] == "3.3.1"
    assert sorted(RECORD["cases"]) == sorted(sparse_conv_cases.CASES)


def test_only_sync_batch_norm_failed_in_paddle():
    failed = {name for name, result in RECORD["cases"].items() if "error" in result}
    assert failed == {"SyncBatchNorm train"}


def _close(got, want, what):
    if want is None:
        assert got is None, what
        return
    tolerance = 1e-5
    np.testing.assert_allclose(
        np.asarray(got, dtype=float),
        np.asarray(want, dtype=float),
        rtol=tolerance,
        atol=1e-5,
        err_msg=what,
    )


@pytest.mark.parametrize("name", RAN)
def test_matches_paddle(name):
    want = RECORD["cases"][name]
    got = sparse_conv_cases.run(phiops, name)
    assert "error" not in got, got.get("error")
    assert got["out"]["shape"] == want["out"]["shape"]
    assert got["out"]["indices"] == want["out"]["indices"]
    _close(got["out"]["values"], want["out"]["values"], "values")
    assert sorted(got["grads"]) == sorted(want["grads"])
    compared = GRADIENT_DIFFERS[name][1] if name in GRADIENT_DIFFERS else want["grads"]
    for key in compared:
        _close(got["grads"][key], want["grads"][key], f"gradient of {key}")
    for key in ("running", "parameters"):
        if key in want:
            if key == "parameters":
                assert got[key] == want[key]
            else:
                for stat in want[key]:
                    _close(got[key][stat], want[key][stat], stat)
