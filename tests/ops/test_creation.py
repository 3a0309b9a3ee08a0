"""full, full_like, ones, zeros, ones_like, zeros_like against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType


def assert_filled(out, shape, value, dtype):
    assert out.dtype == dtype
    assert out.shape == list(shape)
    np.testing.assert_array_equal(out.numpy(), np.full(shape, value, dtype=dtype.numpy_dtype))


# Every registered dtype ------------------------------------------------------------------------


@op_test("full", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("full"))
def test_full_fills_every_element_with_value(dtype):
    assert_filled(phi.full([2, 3], 1.0, dtype), (2, 3), 1, dtype)


@op_test("full_like", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("full_like"))
def test_full_like_fills_the_shape_of_x_in_the_requested_dtype(dtype):
    x = phi.to_tensor(sample((3, 2), D.FLOAT32))
    assert_filled(phi.full_like(x, 1, dtype=dtype), (3, 2), 1, dtype)


@op_test("ones", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("full"))
def test_ones_is_one_everywhere(dtype):
    assert_filled(phi.ones([4], dtype=dtype), (4,), 1, dtype)


@op_test("zeros", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("full"))
def test_zeros_is_zero_everywhere(dtype):
    assert_filled(phi.zeros([2, 2], dtype=dtype), (2, 2), 0, dtype)


@op_test("ones_like", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("full_like"))
def test_ones_like_keeps_the_dtype_of_x(dtype):
    x = phi.to_tensor(sample((2, 3), dtype))
    assert_filled(phi.ones_like(x), (2, 3), 1, dtype)


@op_test("zeros_like", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("full_like"))
def test_zeros_like_keeps_the_dtype_of_x(dtype):
    x = phi.to_tensor(sample((3,), dtype))
    assert_filled(phi.zeros_like(x), (3,), 0, dtype)


# Edge cases ------------------------------------------------------------------------------------


@op_test("full", "ones", "zeros", kind="edge")
def test_full_defaults_to_float32():
    assert phi.full([2], 1.5).dtype == D.FLOAT32
    assert phi.ones([2]).dtype == D.FLOAT32
    assert phi.zeros([2]).dtype == D.FLOAT32


@op_test("full", kind="edge")
def test_full_with_an_empty_shape_is_0d():
    out = phi.full([], 7.0, D.INT64)
    assert out.shape == []
    assert out.numpy().item() == 7


@op_test("full", "zeros", kind="edge")
def test_full_with_a_zero_extent_is_empty():
    assert phi.full([0, 3], 2.0).shape == [0, 3]
    assert phi.zeros([3, 0], dtype=D.INT32).shape == [3, 0]


@op_test("full", kind="edge")
def test_full_converts_a_fractional_value_toward_zero_for_integer_dtypes():
    np.testing.assert_array_equal(phi.full([2], -2.7, D.INT32).numpy(), [-2, -2])


@op_test("full", kind="edge")
def test_full_makes_any_nonzero_value_true_for_bool():
    np.testing.assert_array_equal(phi.full([2], 0.5, D.BOOL).numpy(), [True, True])


@op_test("full", kind="edge")
def test_full_rejects_a_negative_extent():
    with pytest.raises(
        InvalidArgumentError, match=r"argument 'shape' must hold sizes >= 0, got \[2, -1\]"
    ):
        phi.full([2, -1], 1.0)


@op_test("full_like", kind="edge")
def test_full_like_without_dtype_takes_the_dtype_of_x():
    x = phi.to_tensor(np.zeros((2,), np.int16))
    assert_filled(phi.full_like(x, 5), (2,), 5, D.INT16)


@op_test("full_like", kind="edge")
def test_full_like_of_a_0d_tensor_is_0d():
    out = phi.full_like(phi.to_tensor(np.float64(3.0)), 2.5)
    assert out.shape == []
    assert out.numpy().item() == 2.5


@op_test("zeros_like", kind="edge")
def test_zeros_like_of_an_empty_tensor_is_empty():
    out = phi.zeros_like(phi.to_tensor(np.zeros((0, 4), np.float32)))
    assert (out.shape, out.dtype) == ([0, 4], D.FLOAT32)


@op_test("ones_like", kind="edge")
def test_ones_like_with_a_dtype_converts():
    out = phi.ones_like(phi.to_tensor(np.zeros((2,), np.int32)), dtype=D.FLOAT64)
    assert_filled(out, (2,), 1, D.FLOAT64)


@op_test("full_like", kind="edge")
def test_full_like_rejects_a_value_out_of_range_of_the_dtype():
    x = phi.to_tensor(np.zeros((2,), np.uint8))
    with pytest.raises(InvalidArgumentError, match=r"value 256 is out of range for dtype uint8"):
        phi.full_like(x, 256)


@op_test("full_like", kind="edge")
def test_full_like_accepts_nan_for_a_floating_dtype():
    out = phi.full_like(phi.to_tensor(np.zeros((2,), np.float32)), float("nan"))
    assert np.isnan(out.numpy()).all()
