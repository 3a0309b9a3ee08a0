"""phiops.sparse.nn's 3-D convolutions, max pooling and batch norm against PaddlePaddle 3.3.1,
live (runs only where PaddlePaddle is installed): each case of tests/sparse/sparse_conv_cases.py
run with both (outputs, indices in PaddlePaddle's order, gradients, running statistics), and
the layers' signatures against paddle.sparse.nn's. Cases where PaddlePaddle is wrong or lacks a
CPU kernel compare what it gets right (tests/sparse/test_sparse_conv_paddle.py lists them)."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.sparse import sparse_conv_cases  # noqa: E402
from tests.sparse.test_sparse_conv_paddle import GRADIENT_DIFFERS  # noqa: E402

# PaddlePaddle's subm grad kernel can corrupt the heap on an unsorted input: not run live
SKIP_LIVE = {"subm_conv3d unsorted input"}
NAMES = [name for name in sparse_conv_cases.CASES if name not in SKIP_LIVE]


@pytest.mark.parametrize("name", NAMES)
def test_case_equals_paddle(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = sparse_conv_cases.run(paddle, name)
    got = sparse_conv_cases.run(phiops, name)
    assert "error" not in got, got.get("error")
    if "error" in want:
        assert name == "SyncBatchNorm train", want["error"]
        return
    assert got["out"]["shape"] == want["out"]["shape"]
    assert got["out"]["indices"] == want["out"]["indices"]
    np.testing.assert_allclose(got["out"]["values"], want["out"]["values"], rtol=1e-5, atol=1e-5)
    keys = GRADIENT_DIFFERS[name][1] if name in GRADIENT_DIFFERS else want["grads"]
    for key in keys:
        if want["grads"][key] is None:
            assert got["grads"][key] is None
        else:
            np.testing.assert_allclose(
                got["grads"][key], want["grads"][key], rtol=1e-5, atol=1e-5, err_msg=key
            )
    for stat in want.get("running", {}):
        np.testing.assert_allclose(
            got["running"][stat], want["running"][stat], rtol=1e-5, atol=1e-6
        )
    assert got.get("parameters") == want.get("parameters")


@pytest.mark.parametrize(
    "path",
    [
        "nn.functional.conv3d",
        "nn.functional.subm_conv3d",
        "nn.functional.max_pool3d",
        "nn.Conv3D",
        "nn.SubmConv3D",
        "nn.MaxPool3D",
        "nn.BatchNorm",
        "nn.SyncBatchNorm",
    ],
)
def test_signature_equals_paddle(path: str) -> None:
    def resolve(module):
        target = module.sparse
        for part in path.split("."):
            target = getattr(target, part)
        return target

    def parameters(target):
        return [(p.name, p.default) for p in inspect.signature(target).parameters.values()]

    assert parameters(resolve(phiops)) == parameters(resolve(paddle))
