"""where (selection with broadcasting) and matmul (every rank combination PaddlePaddle supports,
transposes, batch broadcasting). References are numpy in float64 / complex128."""

from __future__ import annotations

import re

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType


def wide(array: np.ndarray) -> np.ndarray:
    return array.astype(np.complex128 if array.dtype.kind == "c" else np.float64)


def condition(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return sample(shape, D.BOOL, seed=seed)


def where(cond: np.ndarray, x: np.ndarray, y: np.ndarray):
    return phi.where(phi.to_tensor(cond), phi.to_tensor(x), phi.to_tensor(y))


def matmul(x: np.ndarray, y: np.ndarray, transpose_x: bool = False, transpose_y: bool = False):
    return phi.matmul(phi.to_tensor(x), phi.to_tensor(y), transpose_x, transpose_y)


# -- where ----------------------------------------------------------------------------------------


@op_test("where", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("where"))
def test_where_matches_numpy_for_each_dtype(dtype):
    cond = condition((3, 4))
    x, y = sample((3, 4), dtype, seed=1), sample((3, 4), dtype, seed=2)
    out = where(cond, x, y)
    assert out.dtype == dtype
    assert out.shape == [3, 4]
    np.testing.assert_array_equal(out.numpy(), np.where(cond, x, y))


@op_test("where", kind="edge")
def test_where_broadcasts_condition_x_and_y():
    cond, x, y = condition((3, 1)), sample((1, 4), D.FLOAT32, seed=1), np.array(-1.0, np.float32)
    out = where(cond, x, y)
    assert out.shape == [3, 4]
    np.testing.assert_array_equal(out.numpy(), np.where(cond, x, y))


def test_where_of_0d_tensors_is_0d():
    out = where(np.array(False), np.array(1, np.int64), np.array(2, np.int64))
    assert out.shape == [] and out.dtype == D.INT64
    assert out.numpy() == 2


def test_where_of_0d_condition_selects_whole_tensors():
    out = where(np.array(True), np.arange(3.0), np.zeros(3))
    np.testing.assert_array_equal(out.numpy(), [0.0, 1.0, 2.0])


def test_where_with_an_empty_tensor_gives_an_empty_tensor():
    out = where(condition((0, 2)), np.ones((1, 2)), np.zeros((1, 2)))
    assert out.shape == [0, 2] and out.dtype == D.FLOAT64


def test_where_of_mixed_float_dtypes_gives_the_promoted_dtype():
    out = where(np.array([True, False]), np.array([1.5, 2.5], np.float32), np.array([0.1, 0.2]))
    assert out.dtype == D.FLOAT64
    np.testing.assert_allclose(out.numpy(), [1.5, 0.2], rtol=1e-15)


def test_where_rejects_non_bool_condition():
    with pytest.raises(
        InvalidArgumentError,
        match="argument 'condition' of where must be a bool tensor, got dtype int32",
    ):
        where(np.array([1, 0], np.int32), np.ones(2), np.zeros(2))


def test_where_rejects_shapes_that_do_not_broadcast():
    with pytest.raises(
        InvalidArgumentError,
        match=re.escape(
            "argument 'condition' with dims [3] cannot be broadcast with argument 'x' with dims "
            "[2]: dimension 0 differs (3 vs 2)"
        ),
    ):
        where(condition((3,)), np.ones(2), np.zeros(2))


# -- matmul ---------------------------------------------------------------------------------------


@op_test("matmul", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("matmul"))
def test_matmul_matches_numpy_for_each_dtype(dtype):
    x, y = sample((2, 3), dtype, seed=1), sample((3, 4), dtype, seed=2)
    out = matmul(x, y)
    assert out.dtype == dtype
    assert out.shape == [2, 4]
    expected = wide(x) @ wide(y)
    if dtype.is_integer:
        np.testing.assert_array_equal(out.numpy(), expected.astype(dtype.numpy_dtype))
    else:
        np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


def numpy_matmul(x: np.ndarray, y: np.ndarray, transpose_x: bool, transpose_y: bool) -> np.ndarray:
    """The reference: transposes apply to the last two dims of operands of rank >= 2."""
    if transpose_x and x.ndim > 1:
        x = np.swapaxes(x, -1, -2)
    if transpose_y and y.ndim > 1:
        y = np.swapaxes(y, -1, -2)
    return np.matmul(x, y)


@op_test("matmul", kind="edge")
@pytest.mark.parametrize(
    "x_shape, y_shape, transpose_x, transpose_y, expected_shape",
    [
        ((3,), (3,), False, False, []),
        ((3,), (3, 4), False, False, [4]),
        ((2, 3), (3,), False, False, [2]),
        ((5, 2, 3), (3,), False, False, [5, 2]),
        ((3,), (5, 3, 4), False, False, [5, 4]),
        ((2, 3), (3, 4), False, False, [2, 4]),
        ((5, 2, 3), (3, 4), False, False, [5, 2, 4]),
        ((2, 3), (5, 3, 4), False, False, [5, 2, 4]),
        ((5, 2, 3), (5, 3, 4), False, False, [5, 2, 4]),
        ((5, 1, 2, 3), (4, 3, 6), False, False, [5, 4, 2, 6]),
        ((3, 2), (3, 4), True, False, [2, 4]),
        ((2, 3), (4, 3), False, True, [2, 4]),
        ((5, 3, 2), (5, 4, 3), True, True, [5, 2, 4]),
        ((3,), (3, 4), True, False, [4]),
        ((2, 3), (3,), False, True, [2]),
        ((3,), (3,), True, True, []),
    ],
)
def test_matmul_of_every_rank_combination(
    x_shape, y_shape, transpose_x, transpose_y, expected_shape
):
    x = sample(x_shape, D.FLOAT64, seed=1)
    y = sample(y_shape, D.FLOAT64, seed=2)
    out = matmul(x, y, transpose_x, transpose_y)
    assert out.shape == expected_shape
    assert out.dtype == D.FLOAT64
    np.testing.assert_allclose(
        out.numpy(), numpy_matmul(x, y, transpose_x, transpose_y), rtol=1e-12
    )


def test_matmul_of_int32_and_float32_raises():
    with pytest.raises(InvalidArgumentError, match=r"^matmul\(\): x is int32 and y is float32"):
        matmul(np.array([[1, 2]], np.int32), np.array([[0.5], [0.25]], np.float32))


def test_matmul_with_empty_rows_gives_empty_rows():
    out = matmul(np.ones((0, 3)), np.ones((3, 4)))
    assert out.shape == [0, 4]


def test_matmul_over_an_empty_contracted_dimension_gives_zeros():
    out = matmul(np.ones((2, 0)), np.ones((0, 4)))
    assert out.shape == [2, 4]
    np.testing.assert_array_equal(out.numpy(), np.zeros((2, 4)))


def test_matmul_of_integers_wraps_around_on_overflow():
    out = matmul(np.array([[2**30, 2**30]], np.int32), np.array([[2], [2]], np.int32))
    np.testing.assert_array_equal(out.numpy(), [[0]])


def test_matmul_rejects_0d_operand():
    with pytest.raises(
        InvalidArgumentError,
        match=re.escape("argument 'x' of matmul must have at least 1 dimension, got a 0-D tensor"),
    ):
        matmul(np.array(2.0), np.ones(3))


def test_matmul_rejects_contracted_dimension_mismatch():
    with pytest.raises(
        InvalidArgumentError,
        match=re.escape(
            "argument 'y' with dims [4, 5] (transpose_y=False) cannot be multiplied with argument "
            "'x' with dims [2, 3] (transpose_x=False): the contracted dimension is 3 in x but 4 in y"
        ),
    ):
        matmul(np.ones((2, 3)), np.ones((4, 5)))


def test_matmul_rejects_batch_dims_that_do_not_broadcast():
    with pytest.raises(InvalidArgumentError, match=re.escape("batch dimension 0 differs (3 vs 2)")):
        matmul(np.ones((2, 3, 4)), np.ones((3, 4, 5)))
