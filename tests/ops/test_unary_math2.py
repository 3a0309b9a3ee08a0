"""Unary math ops (log1p, log2, log10, expm1, round, trunc, asin, acos, atan, sinh,
cosh, asinh, acosh, atanh, tan, reciprocal) and the activations celu, hardshrink, softshrink,
tanh_shrink, thresholded_relu: every registered dtype against numpy in float64 (complex128), the
registrations against PaddlePaddle 3.3.1's, shapes, edges and bad input. The edge values written
here are PaddlePaddle 3.3.1's (tests/ops/test_unary_math2_paddle.py compares many more)."""

from __future__ import annotations

import math
import warnings
from typing import Callable

import ml_dtypes
import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType
NAN, INF = np.nan, np.inf


def f32(value: float) -> float:
    """``value`` as a float attribute holds it: rounded to float32 (PaddlePaddle's too)."""
    return float(np.float32(value))


def _erfinv_scalar(y: float) -> float:
    """Newton's method on math.erf, from 0: converges for |y| < 1 (the reference for erfinv)."""
    x = 0.0
    for _ in range(100):
        x -= (math.erf(x) - y) / (2 / math.sqrt(math.pi) * math.exp(-x * x))
    return x


erfinv_reference = np.vectorize(_erfinv_scalar, otypes=[np.float64])


def celu(x: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    return np.maximum(x, 0) + np.minimum(alpha * (np.exp(x / alpha) - 1), 0)


# op -> (attributes passed, float64 reference, sample range for real inputs, for complex ones)
OPS: dict[str, tuple[tuple, Callable[[np.ndarray], np.ndarray], tuple[float, float]]] = {
    "log1p": ((), np.log1p, (-0.9, 5)),
    "log2": ((), np.log2, (0.1, 5)),
    "log10": ((), np.log10, (0.1, 5)),
    "expm1": ((), np.expm1, (-3, 3)),
    "round": ((), np.round, (-3, 3)),
    "trunc": ((), np.trunc, (-3, 3)),
    "asin": ((), np.arcsin, (-0.95, 0.95)),
    "acos": ((), np.arccos, (-0.95, 0.95)),
    "atan": ((), np.arctan, (-3, 3)),
    "sinh": ((), np.sinh, (-3, 3)),
    "cosh": ((), np.cosh, (-3, 3)),
    "asinh": ((), np.arcsinh, (-3, 3)),
    "acosh": ((), np.arccosh, (1.05, 5)),
    "atanh": ((), np.arctanh, (-0.95, 0.95)),
    "tan": ((), np.tan, (-1.4, 1.4)),
    "reciprocal": ((), np.reciprocal, (0.2, 3)),
    "celu": ((0.7,), lambda x: celu(x, f32(0.7)), (-3, 3)),
    "hardshrink": ((0.4,), lambda x: np.where(np.abs(x) >= f32(0.4), x, 0), (-2, 2)),
    "softshrink": ((0.4,), lambda x: np.sign(x) * np.maximum(np.abs(x) - f32(0.4), 0), (-2, 2)),
    "tanh_shrink": ((), lambda x: x - np.tanh(x), (-3, 3)),
    "erfinv": ((), erfinv_reference, (-0.95, 0.95)),
    "thresholded_relu": ((0.3, -0.5), lambda x: np.where(x > f32(0.3), x, -0.5), (-2, 2)),
}
KERNEL = {"hardshrink": "hard_shrink"}
FLOAT_OUT_FOR_INTEGERS = ("log1p", "log2", "log10", "expm1")

# PaddlePaddle 3.3.1 registers log1p, log2, log10 and expm1 for int32/int64 with a float32
# output, and so does phiops (tests/ops/test_dtype24.py runs those kernels); eager calls compute
# integer inputs in float32 before the kernel (ops/op_traits.yaml float_math), which
# test_integer_inputs_compute_in_float32 checks gives PaddlePaddle's dtype and values; its API
# casts erfinv's integer inputs to float32 too (no integer kernel)


def wide(array: np.ndarray) -> np.ndarray:
    return array.astype(np.complex128 if array.dtype.kind == "c" else np.float64)


def call(op: str, x: np.ndarray, *attrs):
    return getattr(phi, op)(phi.to_tensor(x), *(attrs or OPS[op][0]))


# -- forward, every registered dtype ----------------------------------------------------------


@op_test(*OPS, kind="dtypes")
@pytest.mark.parametrize(
    "op, dtype", [(op, dtype) for op in OPS for dtype in cpu_dtypes(KERNEL.get(op, op))]
)
def test_op_matches_numpy_for_each_dtype(op: str, dtype: DataType) -> None:
    _, reference, (low, high) = OPS[op]
    if dtype.is_complex:
        low, high = -0.8, 0.8  # away from the branch points and poles
    x = sample((3, 4), dtype, seed=7, low=low, high=high)
    out = call(op, x)
    # integer kernels of log1p, log2, log10 and expm1 write float32, as PaddlePaddle's
    float_out = dtype.is_integer and op in FLOAT_OUT_FOR_INTEGERS
    assert out.dtype == (D.FLOAT32 if float_out else dtype)
    assert out.shape == [3, 4]
    with np.errstate(divide="ignore", invalid="ignore"):  # integer samples hold 0 and negatives
        expected = reference(wide(x.astype(np.float32) if dtype is D.BFLOAT16 else x))
    if float_out:
        np.testing.assert_allclose(out.numpy(), expected, **tolerance(D.FLOAT32))
    elif dtype.is_integer:
        np.testing.assert_array_equal(out.numpy(), expected.astype(dtype.numpy_dtype))
    else:
        actual = out.numpy().astype(np.float32) if dtype is D.BFLOAT16 else out.numpy()
        np.testing.assert_allclose(actual, expected, **tolerance(dtype))


# -- shapes: 0-D, empty --------------------------------------------------------------------


@op_test(*OPS, kind="edge")
@pytest.mark.parametrize("op", sorted(OPS))
def test_op_of_0d_tensor_is_0d(op: str) -> None:
    _, reference, (low, high) = OPS[op]
    value = np.array((low + high) / 2 + 0.13)
    out = call(op, value)
    assert out.shape == [] and out.dtype == D.FLOAT64
    np.testing.assert_allclose(out.numpy(), reference(value), rtol=1e-14)


@pytest.mark.parametrize("op", sorted(OPS))
def test_op_of_empty_tensor_is_empty(op: str) -> None:
    out = call(op, np.zeros((2, 0, 3), np.float32))
    assert out.shape == [2, 0, 3] and out.dtype == D.FLOAT32


# -- IEEE edges, without warnings -----------------------------------------------------------

# op -> (inputs, PaddlePaddle 3.3.1's float64 results)
EDGES = {
    "log1p": ([-1.0, -2.0, INF, 0.0, 1e-300], [-INF, NAN, INF, 0.0, 1e-300]),
    "log2": ([0.0, -1.0, INF, 8.0], [-INF, NAN, INF, 3.0]),
    "log10": ([0.0, -1.0, INF, 1000.0], [-INF, NAN, INF, 3.0]),
    "expm1": ([-INF, INF, 1e-300, 1000.0], [-1.0, INF, 1e-300, INF]),
    "asin": ([1.0, -1.0, 1.5, NAN], [np.pi / 2, -np.pi / 2, NAN, NAN]),
    "acos": ([1.0, -1.0, 1.5], [0.0, np.pi, NAN]),
    "atan": ([INF, -INF, 0.0], [np.pi / 2, -np.pi / 2, 0.0]),
    "sinh": ([INF, -INF, 1000.0], [INF, -INF, INF]),
    "cosh": ([INF, -INF, -1000.0], [INF, INF, INF]),
    "asinh": ([INF, -INF, 0.0], [INF, -INF, 0.0]),
    "acosh": ([1.0, 0.5, INF], [0.0, NAN, INF]),
    "atanh": ([1.0, -1.0, 2.0], [INF, -INF, NAN]),
    "tan": ([INF, 0.0, -0.0], [NAN, 0.0, -0.0]),
    "reciprocal": ([0.0, -0.0, INF], [INF, -INF, 0.0]),
    "trunc": ([-2.7, 2.7, -0.2, INF, NAN], [-2.0, 2.0, -0.0, INF, NAN]),
    "erfinv": ([1.0, -1.0, 1.5, -INF, NAN, 0.0], [INF, -INF, INF, -INF, NAN, 0.0]),
}


@pytest.mark.parametrize("op", sorted(EDGES))
def test_ieee_edges_are_paddles_without_warnings(op: str) -> None:
    inputs, expected = EDGES[op]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = call(op, np.array(inputs))
    np.testing.assert_array_equal(out.numpy(), expected)
    numbers = ~np.isnan(expected)  # nan's sign bit is not specified
    np.testing.assert_array_equal(np.signbit(out.numpy())[numbers], np.signbit(expected)[numbers])


# -- round --------------------------------------------------------------------------------------


def test_round_sends_halves_to_the_even_neighbour() -> None:
    out = phi.round(phi.to_tensor(np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5])))
    np.testing.assert_array_equal(out.numpy(), [0.0, 2.0, 2.0, -0.0, -2.0, -2.0])


def test_round_keeps_decimals_places() -> None:
    out = phi.round(phi.to_tensor(np.array([1.25, 2.675, -0.125, 3.14159])), 2)
    np.testing.assert_allclose(out.numpy(), [1.25, 2.68, -0.12, 3.14], rtol=1e-15)


def test_round_with_negative_decimals_rounds_to_tens() -> None:
    out = phi.round(phi.to_tensor(np.array([15.0, 25.0, -15.0, 14.0, 150.0], np.float32)), -1)
    np.testing.assert_array_equal(out.numpy(), [20.0, 20.0, -20.0, 10.0, 150.0])


def test_round_leaves_integers_unchanged_whatever_the_decimals() -> None:
    out = phi.round(phi.to_tensor(np.array([15, 25, -15], np.int32)), -1)
    assert out.dtype == D.INT32
    np.testing.assert_array_equal(out.numpy(), [15, 25, -15])


def test_round_rounds_complex_numbers_part_by_part() -> None:
    out = phi.round(phi.to_tensor(np.array([0.5 + 2.5j, 1.5 - 0.5j], np.complex64)))
    np.testing.assert_array_equal(out.numpy(), [0 + 2j, 2 - 0j])


def test_round_rejects_non_integer_decimals() -> None:
    with pytest.raises(InvalidArgumentError, match="decimals"):
        phi.round(phi.to_tensor(np.array([1.5])), 1.5)


def test_trunc_leaves_integers_unchanged() -> None:
    out = phi.trunc(phi.to_tensor(np.array([-3, 7], np.int64)))
    assert out.dtype == D.INT64
    np.testing.assert_array_equal(out.numpy(), [-3, 7])


# -- integer inputs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "op, dtype",
    [(op, d) for op in ("log1p", "log2", "log10", "expm1", "erfinv") for d in (D.INT32, D.INT64)]
    + [
        (op, d)
        for op in ("asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "tan")
        + ("reciprocal",)
        for d in (D.UINT8, D.INT8, D.INT16, D.INT32, D.INT64)
    ],
)
def test_integer_inputs_compute_in_float32(op: str, dtype: DataType) -> None:
    x = np.array([0, 1, 2, 7], dtype.numpy_dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = call(op, x)
    assert out.dtype == D.FLOAT32
    with np.errstate(all="ignore"):
        if op == "erfinv":  # saturating beyond 1, as PaddlePaddle's
            expected = np.array([0.0, INF, INF, INF])
        else:
            expected = OPS[op][1](x.astype(np.float64))
        np.testing.assert_allclose(out.numpy(), expected.astype(np.float32), rtol=1e-6)


@pytest.mark.parametrize("op", ["log1p", "expm1", "round", "trunc"])
def test_int8_and_bool_inputs_are_not_supported_as_in_paddle(op: str) -> None:
    for x in (np.array([1], np.int8), np.array([True])):
        with pytest.raises(NotFoundError, match=KERNEL.get(op, op)):
            call(op, x)


def test_bfloat16_log1p_holds_bfloat16() -> None:
    out = phi.log1p(phi.to_tensor(np.array([0.5, 3.0], ml_dtypes.bfloat16)))
    assert out.dtype == D.BFLOAT16


# -- the activations ------------------------------------------------------------------------------


def test_hardshrink_keeps_the_ends_of_the_band_as_paddle_does() -> None:
    x = np.array([0.5, -0.5, 0.49, -0.49, 0.0, NAN, INF], np.float32)
    out = phi.hardshrink(phi.to_tensor(x), 0.5)
    np.testing.assert_array_equal(out.numpy(), [0.5, -0.5, 0.0, -0.0, 0.0, NAN, INF])


def test_hardshrink_compares_float64_inputs_with_the_float32_threshold() -> None:
    # 0.6 as a float attribute is 0.6000000238...: float64 0.6 is inside the band
    out = phi.hardshrink(phi.to_tensor(np.array([0.6, 0.61, -0.6])), 0.6)
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.61, -0.0])


def test_softshrink_of_infinities_and_nan_is_nan() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = phi.softshrink(phi.to_tensor(np.array([INF, -INF, NAN, 0.5, 0.7])), 0.5)
    np.testing.assert_allclose(out.numpy(), [NAN, NAN, NAN, 0.0, 0.2], atol=1e-7)


def test_thresholded_relu_of_minus_infinity_is_nan() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = phi.thresholded_relu(phi.to_tensor(np.array([-INF, INF, NAN, 0.5, 2.0])), 1.0, 3.0)
    np.testing.assert_array_equal(out.numpy(), [NAN, INF, NAN, 3.0, 2.0])


def test_celu_tends_to_minus_alpha() -> None:
    out = phi.celu(phi.to_tensor(np.array([-INF, -1000.0, INF])), 0.5)
    np.testing.assert_array_equal(out.numpy(), [-0.5, -0.5, INF])


def test_celu_rejects_a_non_number_alpha() -> None:
    with pytest.raises(InvalidArgumentError, match="alpha"):
        phi.celu(phi.to_tensor(np.array([1.0])), "a")


@pytest.mark.parametrize("op", ["celu", "hardshrink", "softshrink", "tanh_shrink"])
def test_activation_rejects_integer_tensors_as_paddle(op: str) -> None:
    with pytest.raises(NotFoundError):
        call(op, np.array([1, 2], np.int32))


# -- gradients at the edges -----------------------------------------------------------------------


def _grad(op: str, x: np.ndarray, *attrs) -> np.ndarray:
    tensor = phi.to_tensor(x, stop_gradient=False)
    out = getattr(phi, op)(tensor, *attrs)
    (x_grad,) = phi.grad(out, [tensor], grad_outputs=phi.to_tensor(np.ones_like(x)))
    return x_grad.numpy()


def test_round_and_trunc_gradients_are_zero() -> None:
    x = np.array([0.4, 1.6, -2.2])
    np.testing.assert_array_equal(_grad("round", x, 0), np.zeros(3))
    np.testing.assert_array_equal(_grad("trunc", x), np.zeros(3))


def test_shrink_gradients_at_the_thresholds_are_paddles() -> None:
    x = np.array([0.5, -0.5, 0.3, NAN, INF], np.float32)
    np.testing.assert_array_equal(_grad("hardshrink", x, 0.5), [1, 1, 0, 0, 1])
    np.testing.assert_array_equal(_grad("softshrink", x, 0.5), [0, 0, 0, 0, 1])
    np.testing.assert_array_equal(_grad("thresholded_relu", x, 0.5, 0.0), [0, 0, 0, 0, 1])


def test_asinh_gradient_at_infinity_is_nan_in_float32_and_0_in_float64() -> None:
    np.testing.assert_array_equal(_grad("asinh", np.array([INF, -INF], np.float32)), [NAN, NAN])
    np.testing.assert_array_equal(_grad("asinh", np.array([INF, -INF])), [0.0, -0.0])


def test_complex_gradients_use_the_conjugate_derivative() -> None:
    x = np.array([0.3 + 0.4j, -0.2 - 0.5j])
    np.testing.assert_allclose(_grad("sinh", x), np.conj(np.cosh(x)), rtol=1e-14)
    np.testing.assert_allclose(_grad("reciprocal", x), np.conj(-1 / x**2), rtol=1e-14)


def test_erfinv_inverts_erf_to_the_last_digits_near_one() -> None:
    y = np.array([0.5, 0.9, 0.999, 0.999999, 1 - 2.0**-40, -0.9999999])
    x = phi.erfinv(phi.to_tensor(y)).numpy()
    # of y rounded as PaddlePaddle's (y + 1) / 2 rounds it; erfc keeps the digits of 1 - |y|
    # that erf would round away
    # (erfc's relative error is 2 * x**2 times x's: 1e-11 on it is about 2e-13 on x at x = 5)
    rounded = (y + 1) - 1
    np.testing.assert_allclose([math.erfc(abs(v)) for v in x], 1 - np.abs(rounded), rtol=1e-11)


def test_erfinv_gradient_is_from_the_output() -> None:
    y = np.array([-0.6, 0.0, 0.3])
    out = erfinv_reference(y)
    np.testing.assert_allclose(
        _grad("erfinv", y), math.sqrt(math.pi) / 2 * np.exp(out * out), rtol=1e-13
    )
