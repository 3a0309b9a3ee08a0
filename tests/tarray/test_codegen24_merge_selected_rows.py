"""The generated ``_C_ops.merge_selected_rows``, an op whose only kernel is for SelectedRows,
against PaddlePaddle 3.3.1 on the gradient of ``nn.Embedding(sparse=True)``
(tests/data/codegen24/recorded.json, recorded by tests/tools/make_codegen24_fixtures.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops import _C_ops
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import op_test

RECORDED = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "codegen24" / "recorded.json").read_text()
)["merge_selected_rows"]


def _sparse_grad(dtype: str) -> paddle.Tensor:
    paddle.set_default_dtype(dtype)
    try:
        embedding = paddle.nn.Embedding(7, 3, sparse=True)
    finally:
        paddle.set_default_dtype("float32")
    embedding.weight.set_value(np.zeros((7, 3), dtype))
    out = embedding(paddle.to_tensor(RECORDED["ids"]))
    (out * paddle.arange(24, dtype=dtype).reshape([2, 4, 3])).sum().backward()
    return embedding.weight.grad


@op_test("merge_selected_rows", kind="dtypes")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_merge_of_an_embedding_gradient_matches_paddles(dtype: str) -> None:
    want = RECORDED[dtype]
    grad = _sparse_grad(dtype)
    assert grad.rows() == want["grad_rows"]
    merged = _C_ops.merge_selected_rows(grad)
    assert merged.is_selected_rows() is want["is_selected_rows"]
    assert merged.rows() == want["rows"]
    assert merged.shape == want["shape"]
    assert merged.stop_gradient is want["stop_gradient"]
    assert merged.numpy().dtype == np.dtype(want["dtype"])
    np.testing.assert_array_equal(merged.numpy(), np.asarray(want["values"], want["dtype"]))


@op_test("merge_selected_rows", kind="edge")
def test_merging_twice_changes_nothing() -> None:
    once = _C_ops.merge_selected_rows(_sparse_grad("float32"))
    twice = _C_ops.merge_selected_rows(once)
    assert twice.rows() == once.rows()
    np.testing.assert_array_equal(twice.numpy(), once.numpy())


@op_test("merge_selected_rows", kind="edge")
def test_a_dense_input_is_an_error_naming_the_argument() -> None:
    # PaddlePaddle 3.3.1 dies of SIGSEGV there (PrepareDataForSelectedRows)
    assert RECORDED["dense_input"]["returncode"] == -11
    with pytest.raises(
        InvalidArgumentError,
        match=r"merge_selected_rows\(\): argument 'x' is a DenseTensor, but kernel "
        r"'merge_selected_rows' has kernels for: SelectedRows only",
    ):
        _C_ops.merge_selected_rows(paddle.ones([3, 2]))
