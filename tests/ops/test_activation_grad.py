"""Grad kernels of the unary math and activation ops, pow_grad and clip_grad, and the double
grads of tanh, sigmoid, exp, relu and square: each checked against its analytic derivative and
against central finite differences of the forward op (of the grad kernel, for double grads)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest

from phiops.runtime.common import Backend, DataType
from phiops.runtime.kernels import KERNEL_FACTORY
from tests.ops.op_testing import sample
import phiops.generated as phi
from tests.ops.test_elementwise_grad import (
    FD_TOLERANCE,
    backward_api,
    assert_grad_close,
    forward,
    grad_kernel,
    numeric_grad,
)

D = DataType


def _erf(x: np.ndarray) -> np.ndarray:
    """erf from math.erf, elementwise: an independent reference for gelu."""
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _gelu_tanh_derivative(x: np.ndarray) -> np.ndarray:
    a = np.sqrt(2 / np.pi)
    t = np.tanh(a * (x + 0.044715 * x**3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t**2) * a * (1 + 3 * 0.044715 * x**2)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


@dataclass(frozen=True)
class UnaryGrad:
    """A unary grad kernel: its forward op, which of x/out/out_grad it takes (in order), the
    forward's attributes, the derivative of the forward op, and the input range to test on."""

    forward_op: str
    takes: tuple[str, ...]
    derivative: Callable[[np.ndarray], np.ndarray]
    attributes: dict[str, Any] = field(default_factory=dict)
    low: float = -2.0
    high: float = 2.0
    complex_ok: bool = False


UNARY_GRADS = {
    "exp_grad": UnaryGrad("exp", ("out", "out_grad"), np.exp),
    "log_grad": UnaryGrad("log", ("x", "out_grad"), lambda x: 1 / x, low=0.5),
    "sqrt_grad": UnaryGrad("sqrt", ("out", "out_grad"), lambda x: 0.5 / np.sqrt(x), low=0.5),
    "rsqrt_grad": UnaryGrad("rsqrt", ("out", "out_grad"), lambda x: -0.5 * x**-1.5, low=0.5),
    "square_grad": UnaryGrad("square", ("x", "out_grad"), lambda x: 2 * x),
    "abs_grad": UnaryGrad("abs", ("x", "out_grad"), np.sign, complex_ok=True),
    "floor_grad": UnaryGrad("floor", ("out_grad",), np.zeros_like),
    "ceil_grad": UnaryGrad("ceil", ("out_grad",), np.zeros_like),
    "sin_grad": UnaryGrad("sin", ("x", "out_grad"), np.cos, complex_ok=True),
    "cos_grad": UnaryGrad("cos", ("x", "out_grad"), lambda x: -np.sin(x), complex_ok=True),
    "tanh_grad": UnaryGrad(
        "tanh", ("out", "out_grad"), lambda x: 1 - np.tanh(x) ** 2, complex_ok=True
    ),
    "sigmoid_grad": UnaryGrad(
        "sigmoid", ("out", "out_grad"), lambda x: _sigmoid(x) * (1 - _sigmoid(x))
    ),
    "relu_grad": UnaryGrad("relu", ("out", "out_grad"), lambda x: (x > 0).astype(np.float64)),
    "gelu_grad": UnaryGrad(
        "gelu",
        ("x", "out_grad"),
        lambda x: 0.5 * (1 + _erf(x / np.sqrt(2))) + x * np.exp(-x * x / 2) / np.sqrt(2 * np.pi),
        {"approximate": False},
    ),
    "gelu_grad[tanh]": UnaryGrad(
        "gelu", ("x", "out_grad"), _gelu_tanh_derivative, {"approximate": True}
    ),
    "silu_grad": UnaryGrad(
        "silu",
        ("x", "out", "out_grad"),
        lambda x: _sigmoid(x) * (1 + x * (1 - _sigmoid(x))),
        complex_ok=True,
    ),
    "leaky_relu_grad": UnaryGrad(
        "leaky_relu",
        ("x", "out_grad"),
        lambda x: np.where(x < 0, 0.1, 1.0),
        {"negative_slope": 0.1},
    ),
    "pow_grad": UnaryGrad("pow", ("x", "out_grad"), lambda x: 2.5 * x**1.5, {"y": 2.5}, low=0.5),
    "clip_grad": UnaryGrad(
        "clip",
        ("x", "out_grad"),
        lambda x: ((x > -1) & (x < 1.5)).astype(np.float64),
        {"min": -1.0, "max": 1.5},
    ),
}


def kernel_name(case: str) -> str:
    return case.split("[")[0]


def call_unary_grad(case: str, dtype: DataType, x: np.ndarray, out_grad: np.ndarray):
    """Run the grad kernel of ``case`` on x (computing out with the forward op)."""
    spec = UNARY_GRADS[case]
    out = (
        forward(spec.forward_op, **spec.attributes)(x).astype(x.dtype)
        if "out" in spec.takes
        else None
    )
    values = {"x": x, "out": out, "out_grad": out_grad}
    args = [values[name] for name in spec.takes] + list(spec.attributes.values())
    return grad_kernel(kernel_name(case), dtype)(*args)


def unary_inputs(case: str, shape: tuple[int, ...], dtype: DataType):
    spec = UNARY_GRADS[case]
    # nonzero keeps x away from the kinks of abs, relu and leaky_relu and from floor's jumps
    x = sample(shape, dtype, seed=1, low=spec.low, high=spec.high, nonzero=True)
    if kernel_name(case) in ("floor_grad", "ceil_grad", "clip_grad"):
        x = (np.round(x.astype(np.float64) * 4) / 4 + 0.125).astype(dtype.numpy_dtype)
    return x, sample(shape, dtype, seed=2)


@pytest.mark.parametrize("shape", [(3, 4), (), (0, 3)])
@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64])
@pytest.mark.parametrize("case", sorted(UNARY_GRADS))
def test_unary_grad_matches_its_derivative(case, dtype, shape):
    x, out_grad = unary_inputs(case, shape, dtype)
    x_grad = call_unary_grad(case, dtype, x, out_grad)
    wide_x = x.astype(np.float64)
    expected = out_grad.astype(np.float64) * UNARY_GRADS[case].derivative(wide_x)
    assert_grad_close(x_grad, expected, dtype, shape)


@pytest.mark.parametrize("case", sorted(UNARY_GRADS))
def test_unary_grad_matches_finite_differences_of_the_forward_op(case):
    spec = UNARY_GRADS[case]
    x, out_grad = unary_inputs(case, (3, 4), D.FLOAT64)
    x_grad = call_unary_grad(case, D.FLOAT64, x, out_grad)
    fn = forward(spec.forward_op, **spec.attributes)
    np.testing.assert_allclose(x_grad, numeric_grad(fn, [x], 0, out_grad), **FD_TOLERANCE)


@pytest.mark.parametrize("case", sorted(c for c, spec in UNARY_GRADS.items() if spec.complex_ok))
def test_complex_unary_grad_is_the_conjugate_gradient(case):
    spec = UNARY_GRADS[case]
    x, out_grad = unary_inputs(case, (2, 3), D.COMPLEX128)
    if case == "abs_grad":
        out_grad = out_grad.real.astype(np.complex128)  # abs's out is real: so is its out_grad
    x_grad = call_unary_grad(case, D.COMPLEX128, x, out_grad)
    assert x_grad.dtype == np.complex128
    fn = forward(spec.forward_op, **spec.attributes)
    np.testing.assert_allclose(x_grad, numeric_grad(fn, [x], 0, out_grad), **FD_TOLERANCE)


@pytest.mark.parametrize("dtype", [D.FLOAT16, D.FLOAT32, D.FLOAT64])
@pytest.mark.parametrize("case", ["exp_grad", "log_grad"])
def test_exp_log_grad_run_in_float16(case, dtype):
    x, out_grad = unary_inputs(case, (3, 4), dtype)
    x_grad = call_unary_grad(case, dtype, x, out_grad)
    expected = out_grad.astype(np.float64) * UNARY_GRADS[case].derivative(x.astype(np.float64))
    np.testing.assert_allclose(x_grad, expected, rtol=3e-3, atol=3e-3)
    assert x_grad.dtype == dtype.numpy_dtype


@pytest.mark.parametrize("case", sorted(UNARY_GRADS))
def test_unary_grad_through_the_backward_api_matches_the_kernel(case):
    spec = UNARY_GRADS[case]
    api = backward_api(kernel_name(case))
    x, out_grad = unary_inputs(case, (2, 3), D.FLOAT64)
    out = forward(spec.forward_op, **spec.attributes)(x)
    values = {"x": x, "out": out, "out_grad": out_grad}
    x_grad = api(*(phi.to_tensor(values[name]) for name in spec.takes), **spec.attributes)
    assert x_grad.dtype == D.FLOAT64 and x_grad.shape == [2, 3]
    np.testing.assert_array_equal(x_grad.numpy(), call_unary_grad(case, D.FLOAT64, x, out_grad))


# -- values at kinks and bounds, as PHI defines them ---------------------------------------------


def test_relu_grad_is_zero_at_zero():
    x = np.array([-1.0, 0.0, 2.0])
    np.testing.assert_array_equal(
        call_unary_grad("relu_grad", D.FLOAT64, x, np.full(3, 5.0)), [0, 0, 5]
    )


def test_leaky_relu_grad_has_slope_one_at_zero():
    x = np.array([-1.0, 0.0, 2.0])
    np.testing.assert_allclose(
        call_unary_grad("leaky_relu_grad", D.FLOAT64, x, np.ones(3)), [0.1, 1, 1]
    )


def test_abs_grad_is_zero_at_zero_for_real_and_complex():
    real = call_unary_grad("abs_grad", D.FLOAT64, np.array([-2.0, 0.0, 3.0]), np.full(3, 4.0))
    np.testing.assert_array_equal(real, [-4, 0, 4])
    x = np.array([0j, 3 + 4j])
    complex_grad = call_unary_grad("abs_grad", D.COMPLEX128, x, np.array([2 + 0j, 5 + 0j]))
    np.testing.assert_allclose(complex_grad, [0, 3 + 4j])


def test_clip_grad_is_zero_at_the_bounds():
    x = np.array([-1.0, -0.5, 1.5, 2.0])
    np.testing.assert_array_equal(
        call_unary_grad("clip_grad", D.FLOAT64, x, np.ones(4)), [0, 1, 0, 0]
    )


def test_pow_grad_rounds_the_exponent_to_float32_as_the_forward_does():
    x = np.array([2.0])
    x_grad = grad_kernel("pow_grad", D.FLOAT64)(x, np.ones(1), 0.1)
    exponent = float(np.float32(0.1))
    np.testing.assert_array_equal(x_grad, exponent * 2.0 ** (exponent - 1))


def test_pow_grad_with_zero_exponent_is_nan_at_zero_as_in_phi():
    x_grad = grad_kernel("pow_grad", D.FLOAT64)(np.array([0.0, 2.0]), np.ones(2), 0)
    np.testing.assert_array_equal(x_grad, [np.nan, 0.0])


def test_sqrt_grad_is_inf_at_zero_without_warnings():
    with np.errstate(all="raise"):
        x_grad = grad_kernel("sqrt_grad", D.FLOAT64)(np.array([0.0]), np.ones(1))
    np.testing.assert_array_equal(x_grad, [np.inf])


# -- double grads --------------------------------------------------------------------------------

# (double grad, first grad, (forward op, which of x/out it takes))
DOUBLE_GRADS = {
    "tanh_double_grad": ("tanh_grad", "tanh", "out"),
    "sigmoid_double_grad": ("sigmoid_grad", "sigmoid", "out"),
    "exp_double_grad": ("exp_grad", "exp", "out"),
    "square_double_grad": ("square_grad", "square", "x"),
}


@pytest.mark.parametrize("shape", [(3, 4), ()])
@pytest.mark.parametrize("name", sorted(DOUBLE_GRADS))
def test_double_grad_matches_finite_differences_of_the_grad_kernel(name, shape):
    first, forward_op, takes = DOUBLE_GRADS[name]
    x = sample(shape, D.FLOAT64, seed=1, low=-1.5, high=1.5)
    primal = forward(forward_op)(x) if takes == "out" else x
    grad_out = sample(shape, D.FLOAT64, seed=2)
    grad_x_grad = sample(shape, D.FLOAT64, seed=3)
    outputs = grad_kernel(name, D.FLOAT64)(primal, grad_out, grad_x_grad)
    first_grad = grad_kernel(first, D.FLOAT64)
    for index, actual in enumerate(outputs):
        expected = numeric_grad(first_grad, [primal, grad_out], index, grad_x_grad)
        assert np.asarray(actual).shape == shape
        np.testing.assert_allclose(actual, expected, **FD_TOLERANCE)


def test_tanh_double_grad_matches_its_formula():
    out = np.tanh(sample((3,), D.FLOAT32, seed=1)).astype(np.float32)
    grad_out, grad_x_grad = sample((3,), D.FLOAT32, seed=2), sample((3,), D.FLOAT32, seed=3)
    out_grad, grad_out_grad = grad_kernel("tanh_double_grad", D.FLOAT32)(out, grad_out, grad_x_grad)
    wide = [a.astype(np.float64) for a in (out, grad_out, grad_x_grad)]
    assert_grad_close(out_grad, -2 * wide[0] * wide[1] * wide[2], D.FLOAT32, (3,))
    assert_grad_close(grad_out_grad, wide[2] * (1 - wide[0] ** 2), D.FLOAT32, (3,))


def test_relu_double_grad_passes_grad_x_grad_where_out_is_positive():
    out = np.array([0.0, 0.0, 1.5, 3.0])
    grad_x_grad = np.array([1.0, 2.0, 3.0, 4.0])
    grad_out_grad = grad_kernel("relu_double_grad", D.FLOAT32)(
        out.astype(np.float32), grad_x_grad.astype(np.float32)
    )
    assert grad_out_grad.dtype == np.float32
    np.testing.assert_array_equal(grad_out_grad, [0, 0, 3, 4])
    first = grad_kernel("relu_grad", D.FLOAT64)
    x = np.array([-1.0, 0.5, 2.0])
    expected = numeric_grad(first, [np.maximum(x, 0), np.ones(3)], 1, grad_x_grad[:3])
    np.testing.assert_allclose(
        grad_kernel("relu_double_grad", D.FLOAT64)(np.maximum(x, 0), grad_x_grad[:3]), expected
    )


@pytest.mark.parametrize(
    "name", sorted({kernel_name(c) for c in UNARY_GRADS} | set(DOUBLE_GRADS) | {"relu_double_grad"})
)
def test_unary_grads_have_integer_kernels_only_where_paddle_does(name):
    """Integer gradient kernels exist where PaddlePaddle 3.3.1 registers them on CPU (abs_grad,
    square_grad, ... for the static programs that carry them), nowhere else."""
    from phiops.runtime.kernels.coverage import paddle_data

    dtypes = {key.dtype for key in KERNEL_FACTORY.kernels_of(name) if key.backend is Backend.CPU}
    integers = {d.name.lower() for d in dtypes if not (d.is_floating_point or d.is_complex)}
    assert dtypes and integers <= set(paddle_data()["kernels"].get(name, ()))
