"""sum, mean, max, min, prod, argmax, argmin against numpy references."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType


def assert_result(out, expected: np.ndarray, dtype: DataType):
    assert out.dtype == dtype
    assert out.shape == list(expected.shape)
    if dtype.is_floating_point or dtype.is_complex:
        np.testing.assert_allclose(
            out.numpy(), expected.astype(dtype.numpy_dtype), **tolerance(dtype)
        )
    else:
        np.testing.assert_array_equal(out.numpy(), expected.astype(dtype.numpy_dtype))


def distinct(shape: tuple[int, ...], dtype: DataType) -> np.ndarray:
    """Distinct values (no ties for argmax/argmin), small enough for every dtype."""
    count = int(np.prod(shape))
    values = np.random.default_rng(1).permutation(count) - (0 if dtype is D.UINT8 else count // 2)
    return values.reshape(shape).astype(dtype.numpy_dtype)


# Every registered dtype ------------------------------------------------------------------------


@op_test("sum", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("sum"))
def test_sum_along_an_axis_matches_numpy(dtype):
    x = sample((3, 4), dtype)
    out_dtype = D.INT64 if dtype in (D.BOOL, D.INT32) else dtype
    reference_dtype = (
        np.complex128 if dtype.is_complex else np.float64 if dtype.is_floating_point else np.int64
    )
    expected = x.astype(reference_dtype).sum(axis=1)
    assert_result(phi.sum(phi.to_tensor(x), axis=[1]), expected, out_dtype)


@op_test("mean", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("mean"))
def test_mean_along_an_axis_matches_numpy_in_the_input_dtype(dtype):
    x = sample((4, 3), dtype)
    if dtype is D.BOOL:
        expected = x.any(axis=0)
    elif dtype.is_integer:
        expected = np.trunc(x.astype(np.float64).mean(axis=0))
    else:
        expected = x.astype(np.complex128 if dtype.is_complex else np.float64).mean(axis=0)
    assert_result(phi.mean(phi.to_tensor(x), axis=[0]), expected, dtype)


@op_test("max", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("max"))
def test_max_along_an_axis_matches_numpy(dtype):
    x = sample((3, 5), dtype)
    assert_result(phi.max(phi.to_tensor(x), axis=[1]), x.max(axis=1), dtype)


@op_test("min", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("min"))
def test_min_along_an_axis_matches_numpy(dtype):
    x = sample((3, 5), dtype)
    assert_result(phi.min(phi.to_tensor(x), axis=[0]), x.min(axis=0), dtype)


@op_test("prod", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("prod"))
def test_prod_along_an_axis_matches_numpy(dtype):
    x = sample((2, 3), dtype)
    reference_dtype = (
        np.complex128 if dtype.is_complex else np.float64 if dtype.is_floating_point else np.int64
    )
    expected = x.astype(reference_dtype).prod(axis=1)
    assert_result(phi.prod(phi.to_tensor(x), [1], False, False), expected, dtype)


@op_test("argmax", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("argmax"))
def test_argmax_along_an_axis_matches_numpy(dtype):
    x = distinct((3, 4), dtype)
    assert_result(phi.argmax(phi.to_tensor(x), 1), x.argmax(axis=1), D.INT64)


@op_test("argmin", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("argmin"))
def test_argmin_along_an_axis_matches_numpy(dtype):
    x = distinct((3, 4), dtype)
    assert_result(phi.argmin(phi.to_tensor(x), 0), x.argmin(axis=0), D.INT64)


# sum -------------------------------------------------------------------------------------------


@op_test("sum", kind="edge")
def test_sum_of_int32_is_int64():
    out = phi.sum(phi.to_tensor(np.array([2**31 - 1, 1], np.int32)))
    assert_result(out, np.array(2**31, np.int64), D.INT64)


@op_test("sum", kind="edge")
def test_sum_of_bool_counts_true_values_as_int64():
    out = phi.sum(phi.to_tensor(np.array([True, False, True])))
    assert_result(out, np.array(2), D.INT64)


@op_test("sum", kind="edge")
def test_sum_of_int8_keeps_int8():
    assert phi.sum(phi.to_tensor(np.array([1, 2], np.int8))).dtype == D.INT8


@op_test("sum", kind="edge")
def test_sum_with_a_dtype_accumulates_in_it():
    out = phi.sum(phi.to_tensor(np.array([1, 2], np.int32)), dtype=D.FLOAT64)
    assert_result(out, np.array(3.0), D.FLOAT64)


@op_test("sum", kind="edge")
def test_sum_with_empty_axis_reduces_every_axis():
    x = np.arange(6, dtype=np.float64).reshape(2, 3)
    assert_result(phi.sum(phi.to_tensor(x), axis=[]), np.array(15.0), D.FLOAT64)


@op_test("sum", kind="edge")
def test_sum_with_keepdim_keeps_the_axis_as_one():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert_result(
        phi.sum(phi.to_tensor(x), axis=[-1], keepdim=True), np.array([[3.0], [12.0]]), D.FLOAT32
    )


@op_test("sum", kind="edge")
def test_sum_over_several_negative_axes():
    x = np.ones((2, 3, 4), np.float64)
    assert_result(phi.sum(phi.to_tensor(x), axis=[-1, -3]), np.full((3,), 8.0), D.FLOAT64)


@op_test("sum", kind="edge")
def test_sum_of_a_0d_tensor_is_itself():
    assert_result(phi.sum(phi.to_tensor(np.float32(2.5))), np.array(2.5), D.FLOAT32)


@op_test("sum", kind="edge")
def test_sum_over_a_zero_size_axis_is_zero():
    out = phi.sum(phi.to_tensor(np.zeros((0, 3), np.float32)), axis=[0])
    assert_result(out, np.zeros(3), D.FLOAT32)


@op_test("sum", kind="edge")
def test_sum_rejects_an_axis_out_of_range():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'axis' must be in \[-2, 2\) for a tensor of rank 2, got 2",
    ):
        phi.sum(phi.to_tensor(np.ones((2, 3))), axis=[2])


@op_test("sum", kind="edge")
def test_sum_rejects_an_axis_named_twice():
    with pytest.raises(
        InvalidArgumentError, match=r"must not name a dimension twice, got \[0, -2\]"
    ):
        phi.sum(phi.to_tensor(np.ones((2, 3))), axis=[0, -2])


# mean ------------------------------------------------------------------------------------------


@op_test("mean", kind="edge")
def test_mean_of_int32_truncates_toward_zero():
    out = phi.mean(phi.to_tensor(np.array([[1, 2], [-1, -2]], np.int32)), axis=[1])
    assert_result(out, np.array([1, -1]), D.INT32)


@op_test("mean", kind="edge")
def test_mean_of_float16_has_no_cpu_kernel_as_in_paddle():
    with pytest.raises(NotFoundError, match="mean"):
        phi.mean(phi.to_tensor(np.ones((2,), np.float16)))


@op_test("mean", kind="edge")
def test_mean_with_empty_axis_and_keepdim_averages_everything():
    x = np.arange(6, dtype=np.float64).reshape(2, 3)
    assert_result(phi.mean(phi.to_tensor(x), keepdim=True), np.array([[2.5]]), D.FLOAT64)


@op_test("mean", kind="edge")
def test_mean_over_a_zero_size_axis_is_nan():
    out = phi.mean(phi.to_tensor(np.zeros((0, 2), np.float32)), axis=[0])
    assert out.shape == [2]
    assert np.isnan(out.numpy()).all()


# max / min -------------------------------------------------------------------------------------


@op_test("max", kind="edge")
def test_max_with_empty_axis_and_keepdim():
    x = np.array([[1, 7], [3, -2]], np.int64)
    assert_result(phi.max(phi.to_tensor(x), keepdim=True), np.array([[7]]), D.INT64)


@op_test("max", kind="edge")
def test_max_along_a_nonzero_axis_of_a_zero_size_tensor_is_empty():
    out = phi.max(phi.to_tensor(np.zeros((0, 3), np.float32)), axis=[1])
    assert (out.shape, out.dtype) == ([0], D.FLOAT32)


@op_test("max", kind="edge")
def test_max_over_a_zero_size_axis_has_no_identity():
    with pytest.raises(InvalidArgumentError, match="has no identity"):
        phi.max(phi.to_tensor(np.zeros((0, 3), np.float32)), axis=[0])


@op_test("min", kind="edge")
def test_min_of_a_0d_tensor_is_itself():
    assert_result(phi.min(phi.to_tensor(np.int32(-4))), np.array(-4), D.INT32)


@op_test("min", kind="edge")
def test_min_over_a_negative_axis():
    x = np.array([[4.0, -1.0], [2.0, 3.0]])
    assert_result(phi.min(phi.to_tensor(x), axis=[-1]), np.array([-1.0, 2.0]), D.FLOAT64)


@op_test("min", kind="edge")
def test_min_of_an_empty_tensor_has_no_identity():
    with pytest.raises(InvalidArgumentError, match="has no identity"):
        phi.min(phi.to_tensor(np.zeros((0,), np.int32)))


@op_test("max", kind="edge")
def test_max_of_bool_has_no_cpu_kernel_as_in_paddle():
    with pytest.raises(NotFoundError, match="max"):
        phi.max(phi.to_tensor(np.array([True, False])))


# prod ------------------------------------------------------------------------------------------


@op_test("prod", kind="edge")
def test_prod_with_reduce_all_ignores_axis():
    x = np.array([[1, 2], [3, 4]], np.int64)
    assert_result(phi.prod(phi.to_tensor(x), [0], False, True), np.array(24), D.INT64)


@op_test("prod", kind="edge")
def test_prod_with_keepdim_keeps_the_axis_as_one():
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    assert_result(phi.prod(phi.to_tensor(x), [0], True, False), np.array([[3.0, 8.0]]), D.FLOAT32)


@op_test("prod", kind="edge")
def test_prod_of_int32_keeps_int32():
    out = phi.prod(phi.to_tensor(np.array([3, 5], np.int32)), [], False, False)
    assert_result(out, np.array(15), D.INT32)


@op_test("prod", kind="edge")
def test_prod_over_a_zero_size_axis_is_one():
    out = phi.prod(phi.to_tensor(np.zeros((0, 2), np.float64)), [0], False, False)
    assert_result(out, np.ones(2), D.FLOAT64)


# argmax / argmin -------------------------------------------------------------------------------


@op_test("argmax", kind="edge")
def test_argmax_returns_the_first_of_equal_maxima():
    out = phi.argmax(phi.to_tensor(np.array([1, 5, 5, 0], np.int32)), 0)
    assert_result(out, np.array(1), D.INT64)


@op_test("argmax", kind="edge")
def test_argmax_with_flatten_indexes_the_flattened_tensor():
    x = np.array([[1.0, 2.0], [9.0, 0.0]])
    assert_result(phi.argmax(phi.to_tensor(x), 0, flatten=True), np.array(2), D.INT64)


@op_test("argmax", kind="edge")
def test_argmax_with_flatten_and_keepdims_keeps_every_axis_as_one():
    x = np.array([[1.0, 2.0], [9.0, 0.0]])
    assert_result(
        phi.argmax(phi.to_tensor(x), 0, keepdims=True, flatten=True), np.array([[2]]), D.INT64
    )


@op_test("argmax", kind="edge")
def test_argmax_with_keepdims_and_a_negative_axis():
    x = np.array([[1.0, 2.0], [9.0, 0.0]], np.float32)
    assert_result(phi.argmax(phi.to_tensor(x), -1, keepdims=True), np.array([[1], [0]]), D.INT64)


@op_test("argmax", kind="edge")
def test_argmax_with_int32_dtype_gives_int32():
    x = np.array([3.0, 1.0, 4.0])
    assert_result(phi.argmax(phi.to_tensor(x), 0, dtype=D.INT32), np.array(2), D.INT32)


@op_test("argmin", kind="edge")
def test_argmin_of_a_0d_tensor_is_zero():
    assert_result(phi.argmin(phi.to_tensor(np.float32(3.0)), 0), np.array(0), D.INT64)


@op_test("argmin", kind="edge")
def test_argmin_rejects_an_axis_out_of_range():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'axis' must be in \[-2, 2\) for a tensor of rank 2, got 2",
    ):
        phi.argmin(phi.to_tensor(np.ones((2, 3))), 2)


@op_test("argmin", kind="edge")
def test_argmin_rejects_a_float_output_dtype():
    with pytest.raises(
        InvalidArgumentError, match="argument 'dtype' must be int32 or int64, got float32"
    ):
        phi.argmin(phi.to_tensor(np.ones((2, 3))), 0, dtype=D.FLOAT32)


@op_test("argmax", kind="edge")
def test_argmax_over_a_zero_size_axis_raises():
    with pytest.raises(InvalidArgumentError, match="cannot search an empty axis"):
        phi.argmax(phi.to_tensor(np.zeros((0, 3), np.float32)), 0)
