"""Unary math and activation ops (exp, log, sqrt, rsqrt, square, abs, sign, floor, ceil, sin, cos,
tanh, sigmoid, relu, gelu, silu, leaky_relu) and the unary ops with attributes (scale, pow, clip,
cast, assign). References are numpy in float64 (complex128 for complex inputs) and math.erf."""

from __future__ import annotations

import math
import re
import warnings
from typing import Any, Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.activation_kernel import erf
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType

_math_erf = np.vectorize(math.erf, otypes=[np.float64])


def exact_gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + _math_erf(x / math.sqrt(2)))


def tanh_gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


# op -> (float64 reference, sample range for real inputs)
MATH_OPS: dict[str, tuple[Callable[[np.ndarray], np.ndarray], tuple[float, float]]] = {
    "exp": (np.exp, (-3, 3)),
    "log": (np.log, (0.1, 5)),
    "sqrt": (np.sqrt, (0, 5)),
    "rsqrt": (lambda x: 1 / np.sqrt(x), (0.1, 5)),
    "square": (lambda x: x * x, (-3, 3)),
    "abs": (np.abs, (-3, 3)),
    "sign": (np.sign, (-3, 3)),
    "floor": (np.floor, (-3, 3)),
    "ceil": (np.ceil, (-3, 3)),
    "sin": (np.sin, (-3, 3)),
    "cos": (np.cos, (-3, 3)),
    "tanh": (np.tanh, (-3, 3)),
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), (-6, 6)),
    "relu": (lambda x: np.maximum(x, 0), (-3, 3)),
    "gelu": (exact_gelu, (-4, 4)),
    "silu": (lambda x: x / (1 + np.exp(-x)), (-6, 6)),
    "leaky_relu": (lambda x: np.where(x >= 0, x, 0.02 * x), (-3, 3)),
}
ATTRIBUTE_OPS = ("scale", "pow", "clip", "cast", "assign")
ALL_UNARY_OPS = tuple(MATH_OPS) + ATTRIBUTE_OPS

# Every dtype numpy has: assign is registered for ALL_DTYPE, i.e. any of them.
NUMPY_DTYPES = [d for d in DataType if d not in (D.UNDEFINED, D.BFLOAT16)]


def call(op: str, x: np.ndarray):
    """``op`` on ``x`` with fixed attributes where the op needs some."""
    tensor = phi.to_tensor(x)
    if op == "clip":
        return phi.clip(tensor, -1.5, 2.5)
    if op == "cast":
        return phi.cast(tensor, D.FLOAT64)
    return getattr(phi, op)(tensor)


def wide(array: np.ndarray) -> np.ndarray:
    return array.astype(np.complex128 if array.dtype.kind == "c" else np.float64)


def assert_matches(out, expected: np.ndarray, dtype: DataType) -> None:
    if dtype is D.BOOL or dtype.is_integer:
        np.testing.assert_array_equal(out.numpy(), expected.astype(dtype.numpy_dtype))
    else:
        np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


# -- forward, every registered dtype --------------------------------------------------------------


@op_test(*MATH_OPS, kind="dtypes")
@pytest.mark.parametrize("op, dtype", [(op, dtype) for op in MATH_OPS for dtype in cpu_dtypes(op)])
def test_math_op_matches_numpy_for_each_dtype(op, dtype):
    reference, (low, high) = MATH_OPS[op]
    if dtype.is_complex:
        low, high = -1, 1  # away from the poles of tanh at +-i*pi/2
    x = sample((3, 4), dtype, seed=1, low=low, high=high)
    out = call(op, x)
    out_dtype = (
        {D.COMPLEX64: D.FLOAT32, D.COMPLEX128: D.FLOAT64}.get(dtype, dtype)
        if op == "abs"
        else dtype
    )
    if op in ("exp", "log") and dtype.is_integer:  # their integer kernels write float32
        out_dtype = D.FLOAT32
    assert out.dtype == out_dtype
    assert out.shape == [3, 4]
    with np.errstate(divide="ignore", invalid="ignore"):  # integer samples hold 0 and negatives
        expected = reference(wide(x))
    assert_matches(out, expected, out_dtype)


@op_test("scale", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("scale"))
def test_scale_matches_numpy_for_each_dtype(dtype):
    x = sample((3, 4), dtype, seed=1)
    bias = 0.0 if dtype is D.BOOL else 1.0  # a true bias would make every bool result true
    out = phi.scale(phi.to_tensor(x), 3.0, bias, True)
    assert out.dtype == dtype and out.shape == [3, 4]
    expected = 3.0 * wide(x) + bias
    assert_matches(out, expected != 0 if dtype is D.BOOL else expected, dtype)


@op_test("pow", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("pow"))
def test_pow_matches_numpy_for_each_dtype(dtype):
    x = sample((3, 4), dtype, seed=1)
    out = phi.pow(phi.to_tensor(x), 3.0)
    assert out.dtype == dtype and out.shape == [3, 4]
    assert_matches(out, wide(x) ** 3, dtype)


@op_test("clip", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("clip"))
def test_clip_matches_numpy_for_each_dtype(dtype):
    x = sample((3, 4), dtype, seed=1)
    out = phi.clip(phi.to_tensor(x), -1.5, 2.5)
    assert out.dtype == dtype and out.shape == [3, 4]
    # Integer tensors get their bounds truncated toward zero first: [-1, 2].
    low, high = (-1, 2) if dtype.is_integer else (-1.5, 2.5)
    assert_matches(out, np.clip(wide(x), low, high), dtype)


def static_cast(value: Any, dtype: DataType) -> Any:
    """C++'s static_cast of one element, as Python computes it."""
    if dtype is D.BOOL:
        return value != 0
    if dtype.is_complex:
        return complex(value)
    real = value.real if isinstance(value, complex) else value
    return math.trunc(real) if dtype.is_integer else float(real)


@op_test("cast", kind="dtypes")
@pytest.mark.parametrize("target", cpu_dtypes("cast"))
@pytest.mark.parametrize("source", cpu_dtypes("cast"))
def test_cast_converts_between_every_pair_of_dtypes(source, target):
    values = [0.0, 1.0, 2.75, 3.0, 1.5]
    unsigned = (D.UINT8, D.UINT16, D.UINT32, D.UINT64)
    if not (source in unsigned or target in unsigned):
        values += [-1.5, -2.0]  # negative floats to unsigned integers are undefined in C++
    if source.is_complex:
        x = (np.array(values) + 0.5j).astype(source.numpy_dtype)
    else:
        x = np.array(values).astype(source.numpy_dtype)
    out = phi.cast(phi.to_tensor(x), target)
    assert out.dtype == target
    assert out.shape == [len(values)]
    expected = np.array([static_cast(v, target) for v in x.tolist()], dtype=target.numpy_dtype)
    np.testing.assert_array_equal(out.numpy(), expected)


@op_test("assign", kind="dtypes")
@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_assign_copies_every_dtype(dtype):
    x = sample((3, 4), dtype, seed=1)
    out = phi.assign(phi.to_tensor(x))
    assert out.dtype == dtype and out.shape == [3, 4]
    np.testing.assert_array_equal(out.numpy(), x)


# -- shapes: 0-D and empty ----------------------------------------------------------------------------


@op_test(*ALL_UNARY_OPS, kind="edge")
@pytest.mark.parametrize("op", ALL_UNARY_OPS)
def test_unary_op_of_0d_tensor_is_0d(op):
    out = call(op, np.array(0.75))
    assert out.shape == []
    assert out.dtype == D.FLOAT64
    reference = MATH_OPS[op][0] if op in MATH_OPS else None
    if reference is not None:
        np.testing.assert_allclose(out.numpy(), reference(np.array(0.75)), rtol=1e-14)


@pytest.mark.parametrize("op", ALL_UNARY_OPS)
def test_unary_op_of_empty_tensor_is_empty(op):
    out = call(op, np.zeros((2, 0, 3), np.float32))
    assert out.shape == [2, 0, 3]


# -- exp, log, sqrt, rsqrt: IEEE results without warnings ------------------------------------------


def test_log_of_zero_is_minus_infinity_and_of_negatives_nan_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = phi.log(phi.to_tensor(np.array([0.0, -1.0, 1.0])))
    np.testing.assert_array_equal(out.numpy(), [-np.inf, np.nan, 0.0])


def test_rsqrt_of_zero_is_infinity():
    out = phi.rsqrt(phi.to_tensor(np.array([0.0, 4.0])))
    np.testing.assert_array_equal(out.numpy(), [np.inf, 0.5])


def test_sigmoid_saturates_without_overflow_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = phi.sigmoid(phi.to_tensor(np.array([-1000.0, 1000.0], np.float32)))
    np.testing.assert_array_equal(out.numpy(), [0.0, 1.0])


# -- abs, sign, relu, leaky_relu, square ----------------------------------------------------------


def test_abs_of_complex_is_its_real_modulus():
    out = phi.abs(phi.to_tensor(np.array([3 + 4j, -1j], np.complex64)))
    assert out.dtype == D.FLOAT32
    np.testing.assert_allclose(out.numpy(), [5.0, 1.0], rtol=1e-6)


def test_abs_of_integers_keeps_the_dtype():
    out = phi.abs(phi.to_tensor(np.array([-3, 0, 2], np.int32)))
    assert out.dtype == D.INT32
    np.testing.assert_array_equal(out.numpy(), [3, 0, 2])


def test_sign_of_zero_is_zero_and_of_nan_is_nan():
    out = phi.sign(phi.to_tensor(np.array([0.0, -0.0, np.nan, -2.0, 5.0], np.float32)))
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0, np.nan, -1.0, 1.0])


def test_relu_maps_nan_and_negatives_to_zero():
    out = phi.relu(phi.to_tensor(np.array([np.nan, -1.0, 0.0, 2.0])))
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0, 0.0, 2.0])


def test_leaky_relu_default_slope_is_0_02():
    out = phi.leaky_relu(phi.to_tensor(np.array([-2.0, 3.0])))
    np.testing.assert_allclose(out.numpy(), [-0.04, 3.0], rtol=1e-15)


def test_leaky_relu_with_slope_above_one():
    out = phi.leaky_relu(phi.to_tensor(np.array([-2.0, 3.0])), 1.5)
    np.testing.assert_allclose(out.numpy(), [-3.0, 3.0], rtol=1e-15)


def test_square_of_integers_wraps_around_on_overflow():
    out = phi.square(phi.to_tensor(np.array([2**16, 3], np.int32)))
    np.testing.assert_array_equal(out.numpy(), [0, 9])


# -- gelu and its erf ---------------------------------------------------------------------------


def test_erf_matches_math_erf_to_1e_14_in_float64():
    x = np.concatenate(
        [np.linspace(-30, 30, 20001), np.linspace(-1, 1, 2001), [0.0, 1e-300, 26.6, -27.0]]
    )
    np.testing.assert_allclose(erf(np, x), _math_erf(x), rtol=1e-14, atol=1e-15)


def test_erf_of_infinities_and_nan():
    np.testing.assert_array_equal(erf(np, np.array([np.inf, -np.inf, np.nan])), [1.0, -1.0, np.nan])


def test_erf_in_float32_is_accurate_to_float32_precision():
    x = np.linspace(-6, 6, 2001).astype(np.float32)
    result = erf(np, x)
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, _math_erf(x.astype(np.float64)), rtol=0, atol=3e-7)


def test_gelu_exact_matches_math_erf_in_float64():
    x = np.linspace(-10, 10, 401)
    out = phi.gelu(phi.to_tensor(x))
    np.testing.assert_allclose(out.numpy(), exact_gelu(x), rtol=1e-14, atol=1e-15)


def test_gelu_approximate_uses_the_tanh_formula():
    x = np.linspace(-5, 5, 101)
    out = phi.gelu(phi.to_tensor(x), True)
    np.testing.assert_allclose(out.numpy(), tanh_gelu(x), rtol=1e-14, atol=1e-15)
    assert np.abs(out.numpy() - exact_gelu(x)).max() > 1e-5  # the two differ


# -- scale ----------------------------------------------------------------------------------------


def test_scale_adds_bias_after_scaling_by_default():
    out = phi.scale(phi.to_tensor(np.array([1.0, 2.0])), 3.0, 0.5)
    np.testing.assert_array_equal(out.numpy(), [3.5, 6.5])


def test_scale_adds_bias_before_scaling_when_asked():
    out = phi.scale(phi.to_tensor(np.array([1.0, 2.0])), 3.0, 0.5, False)
    np.testing.assert_array_equal(out.numpy(), [4.5, 7.5])


def test_scale_of_integers_truncates_scale_and_bias_first():
    out = phi.scale(phi.to_tensor(np.array([1, 2, -3], np.int32)), 2.5, 1.9)
    assert out.dtype == D.INT32
    np.testing.assert_array_equal(out.numpy(), [3, 5, -5])


def test_scale_of_unsigned_integers_by_minus_one_negates_modulo_256():
    out = phi.scale(phi.to_tensor(np.array([1, 2, 0], np.uint8)), -1.0)
    assert out.dtype == D.UINT8
    np.testing.assert_array_equal(out.numpy(), [255, 254, 0])


def test_scale_defaults_leave_values_unchanged():
    x = np.array([1.5, -2.0], np.float32)
    np.testing.assert_array_equal(phi.scale(phi.to_tensor(x)).numpy(), x)


# -- pow ------------------------------------------------------------------------------------------


def test_pow_of_integers_truncates_the_exponent():
    out = phi.pow(phi.to_tensor(np.array([2, 3], np.int32)), 2.7)
    assert out.dtype == D.INT32
    np.testing.assert_array_equal(out.numpy(), [4, 9])


def test_pow_of_integers_rejects_negative_exponent():
    with pytest.raises(InvalidArgumentError, match="cannot be raised to a negative power"):
        phi.pow(phi.to_tensor(np.array([2], np.int64)), -1)


def test_pow_rounds_the_exponent_to_float32_as_phi_does():
    out = phi.pow(phi.to_tensor(np.array([10.0])), 0.1)
    np.testing.assert_array_equal(out.numpy(), [10.0 ** float(np.float32(0.1))])


def test_pow_default_exponent_is_one():
    x = np.array([1.5, -2.0])
    np.testing.assert_array_equal(phi.pow(phi.to_tensor(x)).numpy(), x)


# -- clip -----------------------------------------------------------------------------------------


def test_clip_rejects_min_greater_than_max():
    with pytest.raises(
        InvalidArgumentError,
        match=re.escape(
            "max should be greater than or equal to min. But received min = 2.000000, max = 1.000000"
        ),
    ):
        phi.clip(phi.to_tensor(np.array([1.0])), 2.0, 1.0)


def test_clip_keeps_nan():
    out = phi.clip(phi.to_tensor(np.array([np.nan, -5.0, 5.0])), -1.0, 1.0)
    np.testing.assert_array_equal(out.numpy(), [np.nan, -1.0, 1.0])


def test_clip_of_integers_saturates_out_of_range_bounds():
    out = phi.clip(phi.to_tensor(np.array([-(2**31), 0, 2**31 - 1], np.int32)), -1e20, 1e20)
    np.testing.assert_array_equal(out.numpy(), [-(2**31), 0, 2**31 - 1])


# -- cast and assign ------------------------------------------------------------------------------


def test_cast_of_floats_to_integers_truncates_toward_zero():
    out = phi.cast(phi.to_tensor(np.array([-2.7, -0.5, 0.5, 2.7])), D.INT32)
    np.testing.assert_array_equal(out.numpy(), [-2, 0, 0, 2])


def test_cast_of_nan_to_bool_is_true():
    out = phi.cast(phi.to_tensor(np.array([np.nan, 0.0, -0.0])), D.BOOL)
    np.testing.assert_array_equal(out.numpy(), [True, False, False])


def test_cast_of_complex_to_bool_looks_at_both_parts():
    out = phi.cast(phi.to_tensor(np.array([1j, 0j, 2 + 0j])), D.BOOL)
    np.testing.assert_array_equal(out.numpy(), [True, False, True])


def test_cast_accepts_a_dtype_name():
    out = phi.cast(phi.to_tensor(np.array([1.5])), "int64")
    assert out.dtype == D.INT64


def test_cast_to_the_same_dtype_returns_a_copy():
    x = phi.to_tensor(np.array([1.0, 2.0]))
    out = phi.cast(x, D.FLOAT64)
    assert not np.shares_memory(out.numpy(), x.numpy())


def test_assign_returns_a_copy_not_a_view():
    x = phi.to_tensor(np.arange(6.0).reshape(2, 3))
    out = phi.assign(x)
    assert not np.shares_memory(out.numpy(), x.numpy())
    np.testing.assert_array_equal(out.numpy(), x.numpy())
