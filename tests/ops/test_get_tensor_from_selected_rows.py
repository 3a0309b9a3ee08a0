"""The generated ``_C_ops.get_tensor_from_selected_rows`` (PHI's kernel in
runtime/kernels/impl/selected_rows_kernels.py): the value of a SelectedRows as a dense tensor.
PaddlePaddle 3.3.1 has the op in programs only; tests/kinds/test_selected_rows_static.py runs it
there against 3.3.1's recorded results."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as C
from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import wrap_array
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.tensor.selected_rows import SelectedRows
from tests.ops.op_testing import cpu_dtypes, op_test, sample

ROWS = np.array([5, 1, 5, 0], np.int64)


def _rows(value: np.ndarray, rows: np.ndarray = ROWS, height: int = 7):
    storage = SelectedRows(rows, height, value)
    return wrap_array(storage, storage.meta)


@op_test("get_tensor_from_selected_rows", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("get_tensor_from_selected_rows"), ids=str)
def test_gives_the_value_rows_in_order(dtype: DataType) -> None:
    value = sample((4, 3), dtype)
    out = C.get_tensor_from_selected_rows(_rows(value))
    assert out.is_dense() and out.dtype == dtype and out.shape == [4, 3]
    np.testing.assert_array_equal(out.numpy(), value)


@op_test("get_tensor_from_selected_rows", kind="edge")
def test_edges() -> None:
    value = np.arange(12, dtype="float32").reshape(4, 3)
    out = C.get_tensor_from_selected_rows(_rows(value))
    value[0, 0] = -1.0  # a copy: a later change of the SelectedRows' value does not show
    assert out.numpy()[0, 0] == 0.0
    empty = C.get_tensor_from_selected_rows(_rows(np.zeros((0, 3), "float64"), ROWS[:0]))
    assert empty.shape == [0, 3] and empty.dtype == DataType.FLOAT64
    deeper = np.arange(24, dtype="int64").reshape(4, 3, 2)
    np.testing.assert_array_equal(C.get_tensor_from_selected_rows(_rows(deeper)).numpy(), deeper)
    with pytest.raises(InvalidArgumentError, match="argument 'x' is a DenseTensor"):
        C.get_tensor_from_selected_rows(C.full([2, 3], 1.0, DataType.FLOAT32))
