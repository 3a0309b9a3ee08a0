"""softmax_grad and log_softmax_grad, called directly and checked against their formulas and
against central finite differences of the forward kernels in float64."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.generated import backward
from phiops.runtime.common import DataType
from tests.ops.op_testing import cpu_dtypes, sample
from tests.ops.test_elementwise_grad import (
    FD_TOLERANCE,
    assert_grad_close,
    grad_kernel,
    numeric_grad,
)

D = DataType
AXES = [((3, 4), -1), ((3, 4), 0), ((2, 3, 4), 1), ((2, 3, 4), -3), ((5,), 0)]


def softmax(x: np.ndarray, axis: int) -> np.ndarray:
    exp = np.exp(x.astype(np.float64) - x.max(axis=axis, keepdims=True))
    return exp / exp.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("dtype", cpu_dtypes("softmax_grad"))
@pytest.mark.parametrize("shape, axis", AXES)
def test_softmax_grad_matches_its_formula(dtype, shape, axis):
    out = softmax(sample(shape, dtype), axis)
    out_grad = sample(shape, D.FLOAT64, seed=1)
    expected = out * (out_grad - (out * out_grad).sum(axis=axis, keepdims=True))
    nd = dtype.numpy_dtype
    x_grad = grad_kernel("softmax_grad", dtype)(out.astype(nd), out_grad.astype(nd), axis)
    assert_grad_close(x_grad, expected, dtype, shape)


@pytest.mark.parametrize("dtype", cpu_dtypes("log_softmax_grad"))
@pytest.mark.parametrize("shape, axis", AXES)
def test_log_softmax_grad_matches_its_formula(dtype, shape, axis):
    out = np.log(softmax(sample(shape, dtype), axis))
    out_grad = sample(shape, D.FLOAT64, seed=1)
    expected = out_grad - np.exp(out) * out_grad.sum(axis=axis, keepdims=True)
    nd = dtype.numpy_dtype
    x_grad = grad_kernel("log_softmax_grad", dtype)(out.astype(nd), out_grad.astype(nd), axis)
    assert_grad_close(x_grad, expected, dtype, shape)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape, axis", AXES)
def test_softmax_grads_match_finite_differences_of_the_forward_op(name, shape, axis):
    x = sample(shape, D.FLOAT64)
    forward = grad_kernel(name, D.FLOAT64)
    out_grad = sample(shape, D.FLOAT64, seed=1)
    expected = numeric_grad(lambda a: forward(a, axis), [x], 0, out_grad)
    x_grad = grad_kernel(f"{name}_grad", D.FLOAT64)(forward(x, axis), out_grad, axis)
    np.testing.assert_allclose(x_grad, expected, **FD_TOLERANCE)


@pytest.mark.parametrize("name", ["softmax_grad", "log_softmax_grad"])
def test_softmax_grads_of_a_0d_input_are_zero(name):
    x_grad = grad_kernel(name, D.FLOAT32)(np.array(1.0, np.float32), np.array(5.0, np.float32), -1)
    assert_grad_close(x_grad, np.array(0.0), D.FLOAT32, ())


@pytest.mark.parametrize("name", ["softmax_grad", "log_softmax_grad"])
def test_softmax_grads_of_an_empty_input_are_empty(name):
    x_grad = grad_kernel(name, D.FLOAT64)(np.zeros((0, 3)), np.zeros((0, 3)), 1)
    assert x_grad.shape == (0, 3) and x_grad.dtype == np.float64


def test_softmax_grad_is_zero_for_a_uniform_out_grad():
    # Adding a constant along the axis does not change softmax: the gradient sums to zero there.
    out = softmax(sample((3, 4), D.FLOAT64), 1)
    x_grad = grad_kernel("softmax_grad", D.FLOAT64)(out, np.full((3, 4), 2.5), 1)
    np.testing.assert_allclose(x_grad, 0, atol=1e-15)


def test_softmax_grads_through_the_generated_backward_api():
    x = sample((3, 4), D.FLOAT32)
    out_grad = sample((3, 4), D.FLOAT32, seed=1)
    out = phi.softmax(phi.to_tensor(x), 0)
    x_grad = backward.softmax_grad(out, phi.to_tensor(out_grad), 0)
    direct = grad_kernel("softmax_grad", D.FLOAT32)(out.numpy(), out_grad, 0)
    np.testing.assert_array_equal(x_grad.numpy(), direct)
    log_out = phi.log_softmax(phi.to_tensor(x), -1)
    log_grad = backward.log_softmax_grad(log_out, phi.to_tensor(out_grad), -1)
    expected = out_grad - np.exp(log_out.numpy()) * out_grad.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(log_grad.numpy(), expected, rtol=1e-5, atol=1e-6)
    scalar = backward.softmax_grad(phi.to_tensor(np.array(1.0)), phi.to_tensor(np.array(2.0)), -1)
    assert scalar.shape == [] and scalar.numpy().tolist() == 0.0
