"""The generated ``_C_ops.merge_selected_rows`` (PHI's kernel in
runtime/kernels/impl/selected_rows_kernels.py, selected by its input's kind) on an embedding's
SelectedRows gradient, against PaddlePaddle 3.3.1's ``paddle._C_ops.merge_selected_rows``
(tests/data/tarray/merge_selected_rows.json, recorded by tests/tools/make_tarray_selected_rows.py).
More cases: tests/tarray/test_codegen24_merge_selected_rows.py."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import wrap_array
from phiops.runtime.kernels.kernel_factory import KERNEL_FACTORY
from phiops.runtime.tensor.kinds import TensorKind

RECORDED = json.loads(
    (
        Path(__file__).resolve().parents[1] / "data" / "tarray" / "merge_selected_rows.json"
    ).read_text()
)


def sparse_grad(dtype: str):
    weight = paddle.zeros([6, 2], dtype)
    weight.stop_gradient = False
    out = paddle.nn.functional.embedding(paddle.to_tensor(RECORDED["ids"]), weight, sparse=True)
    (out * paddle.arange(12, dtype=dtype).reshape([2, 3, 2])).sum().backward()
    return weight.grad


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_merge_matches_paddles(dtype: str) -> None:
    grad = sparse_grad(dtype)
    want = RECORDED[dtype]
    assert grad.rows() == want["grad_rows"]
    merged = _merge(grad.array, DataType[dtype.upper()])
    assert merged.rows.tolist() == want["rows"]
    assert merged.value.array.dtype == np.dtype(want["dtype"])
    np.testing.assert_array_equal(
        merged.value.array, np.asarray(want["values"], dtype=want["dtype"])
    )
    assert merged.height == 6


def _merge(selected_rows, dtype: DataType):
    """The SelectedRows ``_C_ops.merge_selected_rows`` gives for ``selected_rows`` (of ``dtype``)."""
    merged = paddle._C_ops.merge_selected_rows(wrap_array(selected_rows, selected_rows.meta))
    assert merged.dtype is dtype and merged.is_selected_rows()
    return merged.array


def test_the_kernel_is_registered_for_selected_rows_alone() -> None:
    assert set(KERNEL_FACTORY.kinds_of("merge_selected_rows")) == {TensorKind.SELECTED_ROWS}
