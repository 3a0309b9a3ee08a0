"""PHI's ``merge_selected_rows`` kernel (runtime/kernels/impl/selected_rows_kernels.py) on an
embedding's SelectedRows gradient, against PaddlePaddle 3.3.1's
``paddle._C_ops.merge_selected_rows`` (tests/data/tarray/merge_selected_rows.json, recorded by
tests/tools/make_tarray_selected_rows.py).

The op itself is not generated: codegen generates ops with a dense kernel only, and
merge_selected_rows has a SelectedRows kernel alone (docs/tensor_kinds.md says what codegen
needs); the kernel is registered and selected by kind."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.common import Backend, CPUPlace, DataLayout, DataType
from phiops.runtime.kernels.kernel import KernelContext
from phiops.runtime.kernels.kernel_factory import KERNEL_FACTORY
from phiops.runtime.kernels.kernel_key import KernelKey
from phiops.runtime.tensor.kinds import TensorKind

RECORDED = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "tarray" / "merge_selected_rows.json").read_text()
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
    np.testing.assert_array_equal(merged.value.array, np.asarray(want["values"], dtype=want["dtype"]))
    assert merged.height == 6


def _merge(selected_rows, dtype: DataType):
    key = KernelKey(Backend.CPU, DataLayout.NCHW, dtype, TensorKind.SELECTED_ROWS)
    kernel = KERNEL_FACTORY.select("merge_selected_rows", key)
    return kernel.fn(KernelContext(np, CPUPlace()), selected_rows)


def test_the_kernel_is_registered_for_selected_rows_alone() -> None:
    assert set(KERNEL_FACTORY.kinds_of("merge_selected_rows")) == {TensorKind.SELECTED_ROWS}
