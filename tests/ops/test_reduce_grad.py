"""Grad kernels of sum, mean, max, min and prod, called directly and checked against numpy
formulas and against central finite differences of the forward kernel in float64."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.generated import backward
from phiops.runtime.common import DataType
from tests.ops.op_testing import cpu_dtypes, non_floating_dtypes_beyond_paddles, sample
from tests.ops.test_elementwise_grad import (
    FD_TOLERANCE,
    assert_grad_close,
    grad_kernel,
    numeric_grad,
)

D = DataType

# (axis, keepdim, reduce_all) cases on a (2, 3, 4) input, with the axes they reduce.
REDUCTIONS = [
    ((1,), False, False, (1,)),
    ((0, -1), True, False, (0, 2)),
    ((-2,), True, False, (1,)),
    ((), False, False, (0, 1, 2)),
    ((1,), False, True, (0, 1, 2)),
]


def reduced(x: np.ndarray, axes: tuple[int, ...], keepdim: bool) -> tuple[int, ...]:
    return np.sum(x, axis=axes, keepdims=keepdim).shape


def kept(x: np.ndarray, grad: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """``grad`` (shaped like the reduction) broadcast back to ``x``'s shape."""
    return np.broadcast_to(np.expand_dims(grad.reshape(np.sum(x, axis=axes).shape), axes), x.shape)


# -- sum_grad ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", cpu_dtypes("sum_grad"))
@pytest.mark.parametrize("axis, keepdim, reduce_all, axes", REDUCTIONS)
def test_sum_grad_broadcasts_out_grad_back_to_x(dtype, axis, keepdim, reduce_all, axes):
    x = sample((2, 3, 4), dtype)
    out_grad = sample(reduced(x, axes, keepdim), dtype, seed=1)
    x_grad = grad_kernel("sum_grad", dtype)(x, out_grad, axis, keepdim, reduce_all)
    assert_grad_close(x_grad, kept(x, out_grad, axes), dtype, x.shape)


@pytest.mark.parametrize("axis, keepdim, reduce_all, axes", REDUCTIONS)
def test_sum_grad_matches_finite_differences_of_sum(axis, keepdim, reduce_all, axes):
    x = sample((2, 3, 4), D.FLOAT64)
    out_grad = sample(reduced(x, axes, keepdim), D.FLOAT64, seed=1)
    forward = grad_kernel("sum", D.FLOAT64)
    expected = numeric_grad(lambda a: forward(a, axes, D.UNDEFINED, keepdim), [x], 0, out_grad)
    x_grad = grad_kernel("sum_grad", D.FLOAT64)(x, out_grad, axis, keepdim, reduce_all)
    np.testing.assert_allclose(x_grad, expected, **FD_TOLERANCE)


def test_sum_grad_returns_x_dtype_when_the_sum_had_another_dtype():
    x = sample((2, 3), D.FLOAT32)
    out_grad = sample((2,), D.FLOAT64, seed=1)
    x_grad = grad_kernel("sum_grad", D.FLOAT64)(x, out_grad, (1,), False, False)
    assert_grad_close(x_grad, kept(x, out_grad, (1,)), D.FLOAT32, (2, 3))


def test_sum_grad_is_a_writable_array_that_does_not_alias_out_grad():
    out_grad = np.ones((3,))
    x_grad = grad_kernel("sum_grad", D.FLOAT64)(np.zeros((2, 3)), out_grad, (0,), False, False)
    x_grad += 1
    assert out_grad.tolist() == [1.0, 1.0, 1.0]


def test_sum_grad_of_0d_and_empty_inputs():
    sum_grad = grad_kernel("sum_grad", D.FLOAT64)
    assert_grad_close(
        sum_grad(np.array(2.0), np.array(3.0), (), False, False), np.array(3.0), D.FLOAT64, ()
    )
    assert_grad_close(
        sum_grad(np.array(2.0), np.array(3.0), (-1,), True, False), np.array(3.0), D.FLOAT64, ()
    )
    empty = sum_grad(np.zeros((0, 3)), np.ones((3,)), (0,), False, False)
    assert_grad_close(empty, np.zeros((0, 3)), D.FLOAT64, (0, 3))
    zero_rows = sum_grad(np.zeros((0, 3)), np.ones((0,)), (1,), False, False)
    assert_grad_close(zero_rows, np.zeros((0, 3)), D.FLOAT64, (0, 3))


# -- mean_grad -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", cpu_dtypes("mean_grad"))
@pytest.mark.parametrize("axis, keepdim, reduce_all, axes", REDUCTIONS)
def test_mean_grad_spreads_out_grad_evenly(dtype, axis, keepdim, reduce_all, axes):
    x = sample((2, 3, 4), dtype)
    out_grad = sample(reduced(x, axes, keepdim), dtype, seed=1)
    count = np.prod([x.shape[i] for i in axes])
    x_grad = grad_kernel("mean_grad", dtype)(x, out_grad, axis, keepdim, reduce_all)
    expected = kept(x, out_grad, axes) / count
    if dtype is D.BOOL:  # C++'s out_grad / static_cast<bool>(count): out_grad / true
        expected = kept(x, out_grad, axes)
    elif dtype.is_integer:  # C++'s integer division truncates toward zero
        expected = np.trunc(expected)
    assert_grad_close(x_grad, expected, dtype, x.shape)


@pytest.mark.parametrize("axis, keepdim, reduce_all, axes", REDUCTIONS)
def test_mean_grad_matches_finite_differences_of_mean(axis, keepdim, reduce_all, axes):
    x = sample((2, 3, 4), D.FLOAT64)
    out_grad = sample(reduced(x, axes, keepdim), D.FLOAT64, seed=1)
    forward = grad_kernel("mean", D.FLOAT64)
    expected = numeric_grad(lambda a: forward(a, axes, keepdim), [x], 0, out_grad)
    x_grad = grad_kernel("mean_grad", D.FLOAT64)(x, out_grad, axis, keepdim, reduce_all)
    np.testing.assert_allclose(x_grad, expected, **FD_TOLERANCE)


def test_mean_grad_of_0d_and_empty_inputs():
    mean_grad = grad_kernel("mean_grad", D.FLOAT32)
    x_grad = mean_grad(np.array(1.0, np.float32), np.array(4.0, np.float32), (), False, False)
    assert_grad_close(x_grad, np.array(4.0), D.FLOAT32, ())
    # The mean over an empty axis is nan; its gradient is empty or zero, never a division by 0.
    with np.errstate(all="raise"):
        over_empty = mean_grad(
            np.zeros((0, 3), np.float32), np.ones((3,), np.float32), (0,), False, False
        )
    assert_grad_close(over_empty, np.zeros((0, 3)), D.FLOAT32, (0, 3))


# -- max_grad / min_grad -------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", cpu_dtypes("max_grad"))
@pytest.mark.parametrize("name, reduce", [("max", np.max), ("min", np.min)])
@pytest.mark.parametrize("axis, keepdim, reduce_all, axes", REDUCTIONS)
def test_max_min_grad_go_to_the_extreme_element(
    dtype, name, reduce, axis, keepdim, reduce_all, axes
):
    x = sample((2, 3, 4), dtype)
    if dtype.is_integer:  # distinct values (one extreme per reduction) and no zero gradient
        x = np.random.default_rng(3).permutation(24).reshape(2, 3, 4).astype(x.dtype) - 12
    out = reduce(x, axis=axes, keepdims=keepdim)
    out_grad = sample(out.shape, dtype, seed=1)
    if dtype.is_integer:
        out_grad = (np.arange(out.size).reshape(out.shape) % 5 + 1).astype(x.dtype)
    x_grad = grad_kernel(f"{name}_grad", dtype)(x, out, out_grad, axis, keepdim, reduce_all)
    expected = np.where(x == kept(x, out, axes), kept(x, out_grad, axes), 0)
    assert_grad_close(x_grad, expected, dtype, x.shape)
    assert np.count_nonzero(x_grad) == out.size


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("axis, keepdim, reduce_all, axes", REDUCTIONS)
def test_max_min_grad_match_finite_differences(name, axis, keepdim, reduce_all, axes):
    x = sample((2, 3, 4), D.FLOAT64)  # distinct values: the extreme is differentiable
    forward = grad_kernel(name, D.FLOAT64)
    out = forward(x, axes, keepdim)
    out_grad = sample(np.shape(out), D.FLOAT64, seed=1)
    expected = numeric_grad(lambda a: forward(a, axes, keepdim), [x], 0, out_grad)
    x_grad = grad_kernel(f"{name}_grad", D.FLOAT64)(
        x, np.asarray(out), out_grad, axis, keepdim, reduce_all
    )
    np.testing.assert_allclose(x_grad, expected, **FD_TOLERANCE)


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_grad_give_every_tie_the_full_gradient(name):
    x = np.array([[1.0, 5.0, 5.0], [-2.0, -2.0, 0.0]])
    out = np.array([[5.0], [0.0]]) if name == "max" else np.array([[1.0], [-2.0]])
    x_grad = grad_kernel(f"{name}_grad", D.FLOAT64)(
        x, out, np.array([[2.0], [3.0]]), (-1,), True, False
    )
    expected = [[0, 2, 2], [0, 0, 3]] if name == "max" else [[2, 0, 0], [3, 3, 0]]
    assert x_grad.tolist() == expected


def test_max_grad_of_a_0d_input():
    x_grad = grad_kernel("max_grad", D.FLOAT32)(
        np.array(2.0, np.float32),
        np.array(2.0, np.float32),
        np.array(7.0, np.float32),
        (),
        False,
        False,
    )
    assert_grad_close(x_grad, np.array(7.0), D.FLOAT32, ())


# -- prod_grad -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", cpu_dtypes("prod_grad"))
@pytest.mark.parametrize("axis, keepdim, reduce_all, axes", REDUCTIONS)
def test_prod_grad_is_out_grad_times_out_over_x(dtype, axis, keepdim, reduce_all, axes):
    # nonzero: an integer 0 has no reciprocal (floats in [0.5, 1.5] are never changed by it)
    x = sample((2, 3, 4), dtype, low=0.5, high=1.5, nonzero=True)
    out = np.prod(x, axis=axes, keepdims=keepdim)
    out_grad = sample(out.shape, dtype, seed=1)
    x_grad = grad_kernel("prod_grad", dtype)(x, out, out_grad, axis, keepdim, reduce_all)
    # PaddlePaddle's ProdGradFunctor: no conjugate for complex inputs.
    assert_grad_close(x_grad, kept(x, out_grad * out, axes) / x, dtype, x.shape)


@pytest.mark.parametrize("axis, keepdim, reduce_all, axes", REDUCTIONS)
def test_prod_grad_matches_finite_differences_of_prod(axis, keepdim, reduce_all, axes):
    x = sample((2, 3, 4), D.FLOAT64, low=0.5, high=1.5)
    forward = grad_kernel("prod", D.FLOAT64)
    out = forward(x, axes, keepdim, reduce_all)
    out_grad = sample(np.shape(out), D.FLOAT64, seed=1)
    expected = numeric_grad(lambda a: forward(a, axes, keepdim, reduce_all), [x], 0, out_grad)
    x_grad = grad_kernel("prod_grad", D.FLOAT64)(
        x, np.asarray(out), out_grad, axis, keepdim, reduce_all
    )
    np.testing.assert_allclose(x_grad, expected, **FD_TOLERANCE)


def test_prod_grad_at_a_single_zero_is_the_product_of_the_others():
    x = np.array([[2.0, 0.0, 3.0], [1.0, 2.0, 4.0]])
    out = np.prod(x, axis=1)
    x_grad = grad_kernel("prod_grad", D.FLOAT64)(x, out, np.ones(2), (1,), False, False)
    assert x_grad[0].tolist() == [0.0, 6.0, 0.0]
    assert x_grad[1].tolist() == [8.0, 4.0, 2.0]


def test_prod_grad_of_a_slice_with_two_zeros_is_zero():
    x = np.array([[0.0, 0.0, 3.0]])
    x_grad = grad_kernel("prod_grad", D.FLOAT64)(
        x, np.prod(x, axis=1), np.ones(1), (1,), False, False
    )
    assert x_grad.tolist() == [[0.0, 0.0, 0.0]]


def test_reduce_grads_have_integer_kernels_only_where_paddle_does():
    for name in ("sum_grad", "mean_grad", "max_grad", "min_grad", "prod_grad"):
        assert cpu_dtypes(name) and not non_floating_dtypes_beyond_paddles(name), name


# -- through the generated backward API ----------------------------------------------------------


def test_reduce_grads_through_the_generated_backward_api():
    x = phi.to_tensor(np.array([[1.0, 3.0, 3.0], [2.0, 0.5, 4.0]], np.float32))
    # A float64 out_grad (sum with dtype=float64) still gives x's float32 gradient.
    total = phi.sum(x, [1], dtype="float64")
    sum_grad = backward.sum_grad(x, total, [-1], False)
    assert sum_grad.dtype == D.FLOAT32 and sum_grad.numpy().tolist() == [[7, 7, 7], [6.5, 6.5, 6.5]]
    mean_grad = backward.mean_grad(x, phi.to_tensor(np.array(6.0, np.float32)), [], False)
    np.testing.assert_allclose(mean_grad.numpy(), np.ones((2, 3)))
    out = phi.max(x, [1], True)
    max_grad = backward.max_grad(
        x, out, phi.to_tensor(np.array([[5.0], [7.0]], np.float32)), [1], True
    )
    assert max_grad.numpy().tolist() == [[0, 5, 5], [0, 0, 7]]
    prod_grad = backward.prod_grad(
        x, phi.prod(x, [0], False, False), phi.to_tensor(np.ones(3, np.float32)), [0], False, False
    )
    np.testing.assert_allclose(prod_grad.numpy(), [[2.0, 0.5, 4.0], [1.0, 3.0, 3.0]])
