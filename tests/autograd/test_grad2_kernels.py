"""The grad2 family's double and triple grad kernels called directly: each double grad against
central differences of the grad kernel it is the backward of (float64 and, where registered,
complex128, whose conjugate convention numeric_grad follows), dtypes other than float64, 0-D and
empty inputs, and absent optional gradients, which count as zeros."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.common import DataType
from tests.ops.test_elementwise_grad import FD_TOLERANCE, grad_kernel, numeric_grad

D = DataType


def _values(shape: tuple[int, ...], seed: int, dtype: Any, low: float, high: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    real = rng.uniform(low, high, size=shape)
    if np.dtype(dtype).kind == "c":
        real = real + 0.5j * rng.uniform(low, high, size=shape)
    return real.astype(dtype)


# double grad -> (its grad kernel, the attributes both take, input range, complex registered)
UNARY_DOUBLE = {
    "sin_double_grad": ("sin_grad", (), (-2.0, 2.0), True),
    "cos_double_grad": ("cos_grad", (), (-2.0, 2.0), True),
    "log_double_grad": ("log_grad", (), (0.5, 2.0), False),
    "celu_double_grad": ("celu_grad", (1.3,), (-2.0, 2.0), False),
    "softplus_double_grad": ("softplus_grad", (1.5, 2.0), (-2.0, 2.0), False),
    "pow_double_grad": ("pow_grad", (2.5,), (0.5, 2.0), False),
}


def _cases() -> list[tuple[str, Any]]:
    cases = [(name, np.float64) for name in UNARY_DOUBLE]
    cases += [(name, np.complex128) for name, spec in UNARY_DOUBLE.items() if spec[3]]
    return cases


@pytest.mark.parametrize("name, dtype", _cases(), ids=lambda v: getattr(v, "__name__", v))
def test_double_grad_equals_differences_of_the_grad_kernel(name: str, dtype: Any) -> None:
    first_name, attrs, (low, high), _ = UNARY_DOUBLE[name]
    key = D.FLOAT64 if dtype is np.float64 else D.COMPLEX128
    first = grad_kernel(first_name, key)
    x = _values((2, 3), 1, dtype, low, high)
    grad_out, ddx = _values((2, 3), 2, dtype, -1, 1), _values((2, 3), 3, dtype, -1, 1)
    x_grad, grad_out_grad = grad_kernel(name, key)(x, grad_out, ddx, *attrs)
    fn: Callable[..., Any] = lambda a, g: first(a, g, *attrs)  # noqa: E731
    np.testing.assert_allclose(x_grad, numeric_grad(fn, [x, grad_out], 0, ddx), **FD_TOLERANCE)
    np.testing.assert_allclose(
        grad_out_grad, numeric_grad(fn, [x, grad_out], 1, ddx), **FD_TOLERANCE
    )


@pytest.mark.parametrize("name", ["sqrt_double_grad", "rsqrt_double_grad"])
def test_sqrt_double_grads_equal_differences_in_out_and_grad_out(name: str) -> None:
    first = grad_kernel(name.replace("_double", ""), D.FLOAT64)
    out, grad_out = _values((3,), 4, np.float64, 0.5, 2.0), _values((3,), 5, np.float64, -1, 1)
    ddx = _values((3,), 6, np.float64, -1, 1)
    out_grad, grad_out_grad = grad_kernel(name, D.FLOAT64)(out, first(out, grad_out), ddx)
    np.testing.assert_allclose(
        out_grad, numeric_grad(first, [out, grad_out], 0, ddx), **FD_TOLERANCE
    )
    np.testing.assert_allclose(
        grad_out_grad, numeric_grad(first, [out, grad_out], 1, ddx), **FD_TOLERANCE
    )


@pytest.mark.parametrize(
    "name, dtype, args",
    [
        ("sin_double_grad", D.FLOAT16, ()),
        ("sin_double_grad", D.INT32, ()),
        ("cos_triple_grad", D.FLOAT32, ()),
        ("log_double_grad", D.FLOAT16, ()),
        ("pow_double_grad", D.INT64, (2,)),
        ("leaky_relu_double_grad", D.FLOAT32, ()),
    ],
)
def test_other_dtypes_keep_their_dtype_and_follow_float64(
    name: str, dtype: DataType, args: tuple
) -> None:
    np_dtype = np.dtype(dtype.numpy_dtype)
    low = 1 if name.startswith(("log", "pow")) else -3
    x = _values((4,), 7, np.float64, low, 3)
    arrays = [x, _values((4,), 8, np.float64, -2, 2), _values((4,), 9, np.float64, -2, 2)]
    if name == "cos_triple_grad":
        arrays += [_values((4,), 10, np.float64, -2, 2), _values((4,), 11, np.float64, -2, 2)]
    if name == "leaky_relu_double_grad":
        arrays, args = [x, arrays[1]], (0.1,)
    if np_dtype.kind in "iu":
        arrays = [np.round(a) for a in arrays]
    wide = _as_tuple(grad_kernel(name, D.FLOAT64)(*arrays, *args))
    narrow = _as_tuple(grad_kernel(name, dtype)(*(a.astype(np_dtype) for a in arrays), *args))
    for got, want in zip(narrow, wide):
        assert got.dtype == np_dtype
        if np_dtype.kind in "iu":
            # computed in float64 and truncated toward zero
            np.testing.assert_array_equal(got, want.astype(np_dtype))
        else:
            np.testing.assert_allclose(got.astype(np.float64), want, rtol=2e-3, atol=2e-3)


def _as_tuple(value: Any) -> tuple[Any, ...]:
    return value if isinstance(value, tuple) else (value,)


@pytest.mark.parametrize("shape", [(), (0,), (2, 0)])
def test_second_and_third_derivatives_of_0d_and_empty_inputs(shape: tuple[int, ...]) -> None:
    x = paddle.to_tensor(np.full(shape, 0.7), stop_gradient=False)
    (g1,) = paddle.grad(paddle.sin(x), [x], create_graph=True)
    (g2,) = paddle.grad(g1, [x], create_graph=True)
    (g3,) = paddle.grad(g2, [x])
    assert g2.shape == list(shape) and g3.shape == list(shape)
    np.testing.assert_allclose(g2.numpy(), np.full(shape, -np.sin(0.7)))
    np.testing.assert_allclose(g3.numpy(), np.full(shape, -np.cos(0.7)))


def test_absent_optional_gradients_count_as_zeros() -> None:
    y, g = np.ones((3,)), np.arange(6.0).reshape(2, 3)
    ddx, ddy = np.full((2, 3), 2.0), np.full((3,), 5.0)
    add = grad_kernel("add_double_grad", D.FLOAT64)
    np.testing.assert_array_equal(add(y, g, None, None, -1), np.zeros((2, 3)))
    np.testing.assert_array_equal(add(y, g, ddx, None, -1), ddx)
    np.testing.assert_array_equal(add(y, g, None, ddy, -1), np.full((2, 3), 5.0))
    subtract = grad_kernel("subtract_double_grad", D.FLOAT64)
    np.testing.assert_array_equal(subtract(y, g, ddx, ddy, -1), np.full((2, 3), -3.0))
    y2, out = np.full((3,), 2.0), np.full((2, 3), 4.0)
    y_grad, out_grad, grad_out_grad = grad_kernel("divide_double_grad", D.FLOAT64)(
        y2, out, g, None, None, None, -1
    )
    for value, shape in ((y_grad, (3,)), (out_grad, (2, 3)), (grad_out_grad, (2, 3))):
        np.testing.assert_array_equal(value, np.zeros(shape))
    x, yy = np.ones((2, 3)), np.ones((3,))
    outputs = grad_kernel("multiply_triple_grad", D.FLOAT64)(
        x, yy, g, None, None, None, None, None, -1
    )
    assert [o.shape for o in outputs] == [(2, 3), (3,), (2, 3), (2, 3), (3,)]
    assert all(not o.any() for o in outputs)
    sin3 = grad_kernel("sin_triple_grad", D.FLOAT64)(x, None, None, x, None)
    assert [o.shape for o in sin3] == [(2, 3)] * 3


def test_reshape_double_grad_reshapes_grad_x_grad_to_grad_outs_dims() -> None:
    x = paddle.to_tensor(np.arange(6.0), stop_gradient=False)
    w = paddle.to_tensor(np.ones((2, 3)), stop_gradient=False)
    (g1,) = paddle.grad(paddle.reshape(x, [2, 3]), [x], grad_outputs=w, create_graph=True)
    (gw,) = paddle.grad(g1, [w], grad_outputs=paddle.to_tensor(np.arange(6.0) * 2))
    np.testing.assert_array_equal(gw.numpy(), (np.arange(6.0) * 2).reshape(2, 3))
