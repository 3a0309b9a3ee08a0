"""full_with_tensor (issue 26): a tensor of a shape filled with a one-element tensor's value,
against numpy references, and its bad input."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
from phiops import _C_ops
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test


@op_test("full_with_tensor", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("full_with_tensor"), ids=lambda d: d.name.lower())
def test_full_with_tensor_fills_each_dtype(dtype: DataType) -> None:
    value = paddle.to_tensor(np.array([1.0], np.float32))
    out = _C_ops.full_with_tensor(value, [2, 3], dtype).numpy()
    assert out.dtype == dtype.numpy_dtype
    np.testing.assert_array_equal(out, np.ones((2, 3), dtype=dtype.numpy_dtype))


@op_test("full_with_tensor", kind="edge")
def test_full_with_tensor_edges_and_bad_input() -> None:
    # a 0-D value of another dtype converts as a C++ cast does (toward zero for an integer)
    value = paddle.to_tensor(np.array(-2.75, np.float64))
    out = _C_ops.full_with_tensor(value, [3], paddle.int64).numpy()
    np.testing.assert_array_equal(out, np.full((3,), -2, np.int64))
    # the shape from a tensor read when the op runs; an empty extent and a 0-D result
    shape = paddle.to_tensor(np.array([0, 4], np.int64))
    assert _C_ops.full_with_tensor(value, shape, paddle.float32).numpy().shape == (0, 4)
    zero_d = _C_ops.full_with_tensor(paddle.to_tensor(np.array([7], np.int32)), [], paddle.float32)
    np.testing.assert_array_equal(zero_d.numpy(), np.array(7.0, np.float32))
    with pytest.raises(InvalidArgumentError, match="'value' must hold exactly one element"):
        _C_ops.full_with_tensor(paddle.to_tensor(np.ones(2, np.float32)), [2], paddle.float32)
    with pytest.raises(InvalidArgumentError, match="shape"):
        _C_ops.full_with_tensor(paddle.to_tensor(np.ones(1, np.float32)), [2, -3], paddle.float32)
    with pytest.raises(InvalidArgumentError):
        _C_ops.full_with_tensor(paddle.to_tensor(np.array([np.nan], np.float32)), [2], paddle.int32)
