"""softmax and log_softmax against a float64 numpy reference."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType


def reference_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    exp = np.exp(x.astype(np.float64))
    return exp / exp.sum(axis=axis, keepdims=True)


def reference_log_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    x = x.astype(np.float64)
    return x - np.log(np.exp(x).sum(axis=axis, keepdims=True))


def assert_close(out, expected: np.ndarray, dtype: DataType):
    assert out.dtype == dtype
    assert out.shape == list(expected.shape)
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


# Every registered dtype ------------------------------------------------------------------------


@op_test("softmax", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("softmax"))
def test_softmax_matches_the_reference(dtype):
    x = sample((3, 4), dtype)
    assert_close(phi.softmax(phi.to_tensor(x), 1), reference_softmax(x, 1), dtype)


@op_test("log_softmax", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("log_softmax"))
def test_log_softmax_matches_the_reference(dtype):
    x = sample((3, 4), dtype)
    assert_close(phi.log_softmax(phi.to_tensor(x), 0), reference_log_softmax(x, 0), dtype)


# Edge cases ------------------------------------------------------------------------------------


@op_test("softmax", kind="edge")
def test_softmax_does_not_overflow_for_large_inputs():
    x = np.array([1000.0, 1001.0, 1002.0], np.float32)
    assert_close(phi.softmax(phi.to_tensor(x), 0), reference_softmax(x - 1002.0, 0), D.FLOAT32)


@op_test("log_softmax", kind="edge")
def test_log_softmax_does_not_overflow_for_large_inputs():
    x = np.array([1000.0, 0.0], np.float64)
    np.testing.assert_allclose(
        phi.log_softmax(phi.to_tensor(x)).numpy(), [0.0, -1000.0], atol=1e-12
    )


@op_test("softmax", kind="edge")
def test_softmax_with_a_negative_axis():
    x = sample((2, 3, 4), D.FLOAT64)
    assert_close(phi.softmax(phi.to_tensor(x), -2), reference_softmax(x, 1), D.FLOAT64)


@op_test("softmax", kind="edge")
def test_softmax_of_a_0d_tensor_is_one():
    assert_close(phi.softmax(phi.to_tensor(np.float32(-3.0)), 0), np.array(1.0), D.FLOAT32)


@op_test("log_softmax", kind="edge")
def test_log_softmax_of_a_0d_tensor_is_zero():
    assert_close(phi.log_softmax(phi.to_tensor(np.float64(5.0)), -1), np.array(0.0), D.FLOAT64)


@op_test("softmax", kind="edge")
def test_softmax_of_an_empty_tensor_is_empty():
    out = phi.softmax(phi.to_tensor(np.zeros((0, 3), np.float32)), 0)
    assert (out.shape, out.dtype) == ([0, 3], D.FLOAT32)


@op_test("log_softmax", kind="edge")
def test_log_softmax_defaults_to_the_last_axis():
    x = sample((2, 3), D.FLOAT64)
    assert_close(phi.log_softmax(phi.to_tensor(x)), reference_log_softmax(x, 1), D.FLOAT64)


@op_test("softmax", kind="edge")
def test_softmax_rejects_an_axis_out_of_range():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'axis' must be in \[-2, 2\) for a tensor of rank 2, got 2",
    ):
        phi.softmax(phi.to_tensor(np.ones((2, 3))), 2)


@op_test("log_softmax", kind="edge")
def test_log_softmax_rejects_an_axis_out_of_range():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'axis' must be in \[-1, 1\) for a tensor of rank 1, got -2",
    ):
        phi.log_softmax(phi.to_tensor(np.ones(3)), -2)


@op_test("softmax", kind="edge")
def test_softmax_of_an_integer_tensor_has_no_cpu_kernel_as_in_paddle():
    with pytest.raises(NotFoundError, match="softmax"):
        phi.softmax(phi.to_tensor(np.ones(3, np.int32)), 0)
