"""matmul_grad, matmul_double_grad and where_grad, called directly and checked against numpy
formulas and central finite differences of the forward op (of matmul_grad, for the double
grad), over every rank combination matmul takes, transposes and batch broadcasting."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from tests.ops.op_testing import sample
from tests.ops.test_elementwise_grad import (
    FD_TOLERANCE,
    assert_grad_close,
    backward_api,
    forward,
    grad_kernel,
    numeric_grad,
)

D = DataType

# (x shape, y shape, transpose_x, transpose_y), shapes as passed to matmul
MATMUL_CASES = [
    ((3,), (3,), False, False),
    ((3,), (3, 2), False, False),
    ((2, 3), (3,), False, False),
    ((3,), (2, 3, 4), False, False),
    ((2, 3, 4), (3,), True, False),
    ((1,), (2, 1, 1), False, True),
    ((2, 3), (3, 4), False, False),
    ((3, 2), (3, 4), True, False),
    ((2, 3), (4, 3), False, True),
    ((3, 2), (4, 3), True, True),
    ((2, 1, 2, 3), (4, 3, 2), False, False),
    ((2, 3), (5, 3, 4), False, False),
    ((5, 3, 2), (4, 3), True, True),
    ((2, 0), (0, 3), False, False),
]


def matmul_fn(transpose_x: bool, transpose_y: bool):
    return forward("matmul", transpose_x=transpose_x, transpose_y=transpose_y)


def matmul_inputs(x_shape, y_shape, transpose_x, transpose_y, dtype):
    x = sample(x_shape, dtype, seed=1)
    y = sample(y_shape, dtype, seed=2)
    out = matmul_fn(transpose_x, transpose_y)(x, y)
    return x, y, sample(out.shape, dtype, seed=3)


@pytest.mark.parametrize("dtype", [D.FLOAT64, D.COMPLEX128])
@pytest.mark.parametrize("x_shape, y_shape, transpose_x, transpose_y", MATMUL_CASES)
def test_matmul_grad_matches_finite_differences_of_matmul(
    x_shape, y_shape, transpose_x, transpose_y, dtype
):
    x, y, out_grad = matmul_inputs(x_shape, y_shape, transpose_x, transpose_y, dtype)
    x_grad, y_grad = grad_kernel("matmul_grad", dtype)(x, y, out_grad, transpose_x, transpose_y)
    fn = matmul_fn(transpose_x, transpose_y)
    assert np.asarray(x_grad).shape == x_shape and np.asarray(y_grad).shape == y_shape
    np.testing.assert_allclose(x_grad, numeric_grad(fn, [x, y], 0, out_grad), **FD_TOLERANCE)
    np.testing.assert_allclose(y_grad, numeric_grad(fn, [x, y], 1, out_grad), **FD_TOLERANCE)


def test_matmul_grad_sums_broadcast_batches_in_float32():
    x, y, out_grad = matmul_inputs((2, 3), (5, 3, 4), False, False, D.FLOAT32)
    x_grad, y_grad = grad_kernel("matmul_grad", D.FLOAT32)(x, y, out_grad, False, False)
    wx, wy, wg = (a.astype(np.float64) for a in (x, y, out_grad))
    assert_grad_close(x_grad, (wg @ np.swapaxes(wy, -1, -2)).sum(axis=0), D.FLOAT32, (2, 3))
    assert_grad_close(y_grad, wx.T @ wg, D.FLOAT32, (5, 3, 4))


def test_matmul_grad_of_transposed_operands_is_contiguous():
    x, y, out_grad = matmul_inputs((3, 2), (4, 3), True, True, D.FLOAT64)
    x_grad, y_grad = grad_kernel("matmul_grad", D.FLOAT64)(x, y, out_grad, True, True)
    np.testing.assert_allclose(x_grad, (out_grad @ y).T)
    np.testing.assert_allclose(y_grad, (x @ out_grad).T)
    assert x_grad.flags.c_contiguous and y_grad.flags.c_contiguous


def matmul_grad_fn(dtype, transpose_x, transpose_y):
    kernel = grad_kernel("matmul_grad", dtype)
    return lambda x, y, grad_out: kernel(x, y, grad_out, transpose_x, transpose_y)


@pytest.mark.parametrize("dtype", [D.FLOAT64, D.COMPLEX128])
@pytest.mark.parametrize(
    "x_shape, y_shape, transpose_x, transpose_y",
    [MATMUL_CASES[i] for i in (0, 3, 4, 8, 10)],
)
def test_matmul_double_grad_matches_finite_differences_of_matmul_grad(
    x_shape, y_shape, transpose_x, transpose_y, dtype
):
    x, y, grad_out = matmul_inputs(x_shape, y_shape, transpose_x, transpose_y, dtype)
    grad_x_grad, grad_y_grad = sample(x_shape, dtype, seed=4), sample(y_shape, dtype, seed=5)
    outputs = grad_kernel("matmul_double_grad", dtype)(
        x, y, grad_out, grad_x_grad, grad_y_grad, transpose_x, transpose_y
    )
    inputs = [x, y, grad_out]
    for index, actual in enumerate(outputs):
        expected = numeric_grad(
            matmul_grad_fn(dtype, transpose_x, transpose_y),
            inputs,
            index,
            (grad_x_grad, grad_y_grad),
        )
        assert np.asarray(actual).shape == inputs[index].shape
        np.testing.assert_allclose(actual, expected, **FD_TOLERANCE)


def test_matmul_double_grad_treats_missing_grads_as_zeros():
    x, y, grad_out = matmul_inputs((2, 3), (3, 4), False, False, D.FLOAT64)
    grad_y_grad = sample((3, 4), D.FLOAT64, seed=5)
    kernel = grad_kernel("matmul_double_grad", D.FLOAT64)
    x_grad, y_grad, grad_out_grad = kernel(x, y, grad_out, None, grad_y_grad, False, False)
    np.testing.assert_allclose(x_grad, grad_out @ grad_y_grad.T)
    assert_grad_close(y_grad, np.zeros((3, 4)), D.FLOAT64, (3, 4))
    np.testing.assert_allclose(grad_out_grad, x @ grad_y_grad)
    x_grad, y_grad, grad_out_grad = kernel(x, y, grad_out, None, None, False, False)
    assert grad_out_grad.shape == (2, 4) and not (
        x_grad.any() or y_grad.any() or grad_out_grad.any()
    )


# -- where_grad ----------------------------------------------------------------------------------

WHERE_SHAPES = [
    ((3, 4), (3, 4), (3, 4)),
    ((3, 4), (3, 1), (1, 4)),
    ((2, 3), (), (2, 3)),
    ((3, 1), (), (1, 4)),
    ((0, 3), (1, 3), (0, 3)),
]


@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64])
@pytest.mark.parametrize("cond_shape, x_shape, y_shape", WHERE_SHAPES)
def test_where_grad_splits_out_grad_by_the_condition(cond_shape, x_shape, y_shape, dtype):
    condition = sample(cond_shape, D.BOOL, seed=7)
    x, y = sample(x_shape, dtype, seed=1), sample(y_shape, dtype, seed=2)
    out_shape = np.broadcast_shapes(cond_shape, x_shape, y_shape)
    out_grad = sample(out_shape, dtype, seed=3)
    x_grad, y_grad = grad_kernel("where_grad", dtype)(condition, x, y, out_grad)
    wide = out_grad.astype(np.float64)
    to_x = np.where(condition, wide, 0)
    to_y = np.where(condition, 0, wide)
    x_axes = tuple(
        i
        for i in range(len(out_shape))
        if i < len(out_shape) - len(x_shape) or x_shape[i - len(out_shape) + len(x_shape)] == 1
    )
    y_axes = tuple(
        i
        for i in range(len(out_shape))
        if i < len(out_shape) - len(y_shape) or y_shape[i - len(out_shape) + len(y_shape)] == 1
    )
    assert_grad_close(x_grad, to_x.sum(axis=x_axes, keepdims=True).reshape(x_shape), dtype, x_shape)
    assert_grad_close(y_grad, to_y.sum(axis=y_axes, keepdims=True).reshape(y_shape), dtype, y_shape)


@pytest.mark.parametrize("cond_shape, x_shape, y_shape", WHERE_SHAPES[:4])
def test_where_grad_matches_finite_differences_of_where(cond_shape, x_shape, y_shape):
    condition = sample(cond_shape, D.BOOL, seed=7)
    x, y = sample(x_shape, D.FLOAT64, seed=1), sample(y_shape, D.FLOAT64, seed=2)
    out_grad = sample(np.broadcast_shapes(cond_shape, x_shape, y_shape), D.FLOAT64, seed=3)
    x_grad, y_grad = grad_kernel("where_grad", D.FLOAT64)(condition, x, y, out_grad)
    fn = lambda x, y: forward("where")(condition, x, y)  # noqa: E731
    np.testing.assert_allclose(x_grad, numeric_grad(fn, [x, y], 0, out_grad), **FD_TOLERANCE)
    np.testing.assert_allclose(y_grad, numeric_grad(fn, [x, y], 1, out_grad), **FD_TOLERANCE)


def test_where_grad_keeps_a_bool_condition_uncast():
    from phiops.runtime.common import Backend, DataLayout
    from phiops.runtime.kernels import KERNEL_FACTORY, KernelKey

    kernel = KERNEL_FACTORY.select(
        "where_grad", KernelKey(Backend.CPU, DataLayout.ALL_LAYOUT, D.FLOAT32)
    )
    assert kernel.input_at(0).dtype is D.ALL_DTYPE
    assert kernel.input_at(1).dtype is D.FLOAT32


# -- through the generated backward API ---------------------------------------------------------


def test_matmul_grad_through_the_backward_api_matches_the_kernel():
    api = backward_api("matmul_grad")
    x, y, out_grad = matmul_inputs((2, 3), (5, 4, 3), False, True, D.FLOAT64)
    x_grad, y_grad = api(*(phi.to_tensor(a) for a in (x, y, out_grad)), False, True)
    expected_x, expected_y = grad_kernel("matmul_grad", D.FLOAT64)(x, y, out_grad, False, True)
    assert x_grad.shape == [2, 3] and y_grad.shape == [5, 4, 3]
    np.testing.assert_array_equal(x_grad.numpy(), expected_x)
    np.testing.assert_array_equal(y_grad.numpy(), expected_y)


def test_where_grad_through_the_backward_api_matches_the_kernel():
    api = backward_api("where_grad")
    condition = sample((3, 4), D.BOOL, seed=7)
    x, y, out_grad = (
        sample((3, 1), D.FLOAT32, seed=1),
        sample((), D.FLOAT32, seed=2),
        sample((3, 4), D.FLOAT32, seed=3),
    )
    x_grad, y_grad = api(*(phi.to_tensor(a) for a in (condition, x, y, out_grad)))
    expected_x, expected_y = grad_kernel("where_grad", D.FLOAT32)(condition, x, y, out_grad)
    assert x_grad.dtype == D.FLOAT32 and x_grad.shape == [3, 1] and y_grad.shape == []
    np.testing.assert_array_equal(x_grad.numpy(), expected_x)
    np.testing.assert_array_equal(y_grad.numpy(), expected_y)
