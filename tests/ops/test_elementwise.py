"""Binary arithmetic ops: add, subtract, multiply, divide, maximum, minimum, elementwise_pow,
floor_divide, remainder. References are computed with numpy in float64 (complex128 for complex
inputs), independently of the kernels."""

from __future__ import annotations

import re
from typing import Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType
BINARY_OPS = (
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "elementwise_pow",
    "floor_divide",
    "remainder",
)


def wide(array: np.ndarray) -> np.ndarray:
    """The reference precision: complex128 for complex data, float64 for everything else."""
    return array.astype(np.complex128 if array.dtype.kind == "c" else np.float64)


def run(op: str, x: np.ndarray, y: np.ndarray):
    return getattr(phi, op)(phi.to_tensor(x), phi.to_tensor(y))


def check_against(
    op: str,
    dtype: DataType,
    x: np.ndarray,
    y: np.ndarray,
    reference: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> None:
    out = run(op, x, y)
    assert out.dtype == dtype
    assert out.shape == list(np.broadcast_shapes(x.shape, y.shape))
    expected = reference(wide(x), wide(y))
    if dtype is D.BOOL or dtype.is_integer:
        np.testing.assert_array_equal(out.numpy(), expected.astype(dtype.numpy_dtype))
    else:
        np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


def exact_floats(shape: tuple[int, ...], dtype: DataType, seed: int) -> np.ndarray:
    """Multiples of 1/4 in [-5, 5]: exact in every float dtype, so floor and fmod of them agree
    between float16 and float64."""
    return (np.random.default_rng(seed).integers(-20, 21, size=shape) / 4).astype(dtype.numpy_dtype)


def exact_divisors(shape: tuple[int, ...], dtype: DataType, seed: int) -> np.ndarray:
    return (
        np.random.default_rng(seed)
        .choice([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5], size=shape)
        .astype(dtype.numpy_dtype)
    )


# -- forward, every registered dtype --------------------------------------------------------------


@op_test("add", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("add"))
def test_add_matches_numpy_for_each_dtype(dtype):
    reference = np.logical_or if dtype is D.BOOL else np.add
    check_against(
        "add", dtype, sample((3, 4), dtype, seed=1), sample((3, 4), dtype, seed=2), reference
    )


@op_test("subtract", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("subtract"))
def test_subtract_matches_numpy_for_each_dtype(dtype):
    check_against(
        "subtract", dtype, sample((3, 4), dtype, seed=1), sample((3, 4), dtype, seed=2), np.subtract
    )


@op_test("multiply", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("multiply"))
def test_multiply_matches_numpy_for_each_dtype(dtype):
    reference = np.logical_and if dtype is D.BOOL else np.multiply
    check_against(
        "multiply", dtype, sample((3, 4), dtype, seed=1), sample((3, 4), dtype, seed=2), reference
    )


@op_test("divide", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("divide"))
def test_divide_matches_numpy_for_each_dtype(dtype):
    """Integer tensors divide truly, to float32 (PaddlePaddle 3.3.1); bool / true is x."""
    x = sample((3, 4), dtype, seed=1, low=-9, high=9)
    y = sample((3, 4), dtype, seed=2, nonzero=True)
    if dtype is D.BOOL:
        check_against("divide", dtype, x, np.ones_like(y), lambda a, b: a)
    elif dtype.is_integer:
        out = run("divide", x, y)
        assert out.dtype == D.FLOAT32
        np.testing.assert_allclose(out.numpy(), wide(x) / wide(y), **tolerance(D.FLOAT32))
    else:
        check_against("divide", dtype, x, y, np.divide)


@op_test("maximum", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("maximum"))
def test_maximum_matches_numpy_for_each_dtype(dtype):
    check_against(
        "maximum", dtype, sample((3, 4), dtype, seed=1), sample((3, 4), dtype, seed=2), np.maximum
    )


@op_test("minimum", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("minimum"))
def test_minimum_matches_numpy_for_each_dtype(dtype):
    check_against(
        "minimum", dtype, sample((3, 4), dtype, seed=1), sample((3, 4), dtype, seed=2), np.minimum
    )


@op_test("elementwise_pow", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("elementwise_pow"))
def test_elementwise_pow_matches_numpy_for_each_dtype(dtype):
    if dtype.is_integer:
        x = sample((3, 4), dtype, seed=1, low=-3, high=3)
        y = sample((3, 4), dtype, seed=2, low=0, high=4)
    else:
        x = sample((3, 4), dtype, seed=1, low=0.5, high=3)
        y = sample((3, 4), dtype, seed=2, low=-2, high=2)
    check_against("elementwise_pow", dtype, x, y, np.power)


@op_test("floor_divide", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("floor_divide"))
def test_floor_divide_matches_numpy_for_each_dtype(dtype):
    if dtype.is_integer:
        x = sample((3, 4), dtype, seed=1, low=-9, high=9)
        y = sample((3, 4), dtype, seed=2, nonzero=True)
    else:
        x, y = exact_floats((3, 4), dtype, seed=1), exact_divisors((3, 4), dtype, seed=2)
    check_against("floor_divide", dtype, x, y, lambda a, b: np.floor(a / b))


@op_test("remainder", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("remainder"))
def test_remainder_matches_numpy_for_each_dtype(dtype):
    if dtype.is_complex:
        x, y = sample((3, 4), dtype, seed=1), sample((3, 4), dtype, seed=2, nonzero=True)

        def away(values: np.ndarray) -> np.ndarray:  # C++ std::round
            return np.sign(values) * np.floor(np.abs(values) + 0.5)

        def complex_remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            q = a / b
            return a - b * (away(q.real) + 1j * away(q.imag))

        check_against("remainder", dtype, x, y, complex_remainder)
        return
    if dtype.is_integer:
        x = sample((3, 4), dtype, seed=1, low=-9, high=9)
        y = sample((3, 4), dtype, seed=2, nonzero=True)
    else:
        x, y = exact_floats((3, 4), dtype, seed=1), exact_divisors((3, 4), dtype, seed=2)
    check_against("remainder", dtype, x, y, lambda a, b: a - np.floor(a / b) * b)


def test_complex_remainder_rounds_the_quotient_half_away_from_zero():
    """PaddlePaddle 3.3.1: (1+0j) % (2+0j) is -1, (7+3j) % (2+1j) is 1 (values from its CPU build)."""
    x = np.array([1, 7 + 3j, 5.5 + 1j], np.complex64)
    y = np.array([2, 2 + 1j, 2], np.complex64)
    np.testing.assert_allclose(run("remainder", x, y).numpy(), [-1, 1, -0.5 - 1j], atol=1e-6)


# -- shapes: broadcasting, 0-D, empty (every op) ----------------------------------------------------

SAFE_REFERENCE = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "elementwise_pow": np.power,
    "floor_divide": lambda a, b: np.floor(a / b),
    "remainder": lambda a, b: a - np.floor(a / b) * b,
}


def positive(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """float64 data in [0.5, 3): a valid operand of every binary op."""
    return sample(shape, D.FLOAT64, seed=seed, low=0.5, high=3)


@op_test(*BINARY_OPS, kind="edge")
@pytest.mark.parametrize("op", BINARY_OPS)
def test_binary_op_broadcasts_column_with_row(op):
    check_against(op, D.FLOAT64, positive((3, 1), 1), positive((1, 4), 2), SAFE_REFERENCE[op])


@pytest.mark.parametrize("op", BINARY_OPS)
def test_binary_op_broadcasts_0d_with_nd_both_ways(op):
    check_against(op, D.FLOAT64, positive((), 1), positive((2, 3), 2), SAFE_REFERENCE[op])
    check_against(op, D.FLOAT64, positive((2, 3), 1), positive((), 2), SAFE_REFERENCE[op])


@pytest.mark.parametrize("op", BINARY_OPS)
def test_binary_op_of_two_0d_tensors_is_0d(op):
    check_against(op, D.FLOAT64, positive((), 1), positive((), 2), SAFE_REFERENCE[op])


@pytest.mark.parametrize("op", BINARY_OPS)
def test_binary_op_with_an_empty_tensor_gives_an_empty_tensor(op):
    out = run(op, positive((0, 3), 1), positive((1, 3), 2))
    assert out.shape == [0, 3]
    assert out.dtype == D.FLOAT64


@pytest.mark.parametrize("op", BINARY_OPS)
def test_binary_op_rejects_shapes_that_do_not_broadcast(op):
    with pytest.raises(
        InvalidArgumentError,
        match=re.escape(
            "argument 'y' with dims [2, 3] cannot be broadcast with argument 'x' with dims "
            "[4, 3]: dimension 0 differs (2 vs 4)"
        ),
    ):
        run(op, positive((4, 3), 1), positive((2, 3), 2))


def test_add_rejects_zero_extent_against_extent_above_one():
    with pytest.raises(InvalidArgumentError, match=re.escape("dimension 0 differs (3 vs 0)")):
        run("add", positive((0,), 1), positive((3,), 2))


# -- type promotion ----------------------------------------------------------------------------------


def test_add_of_int32_and_float32_raises_naming_both_dtypes_and_the_cast():
    with pytest.raises(InvalidArgumentError) as caught:
        run("add", np.array([1, 2], np.int32), np.array([0.5, 0.25], np.float32))
    message = str(caught.value)
    assert message.startswith("add(): x is int32 and y is float32")
    assert "cast(x, 'float32')" in message


def test_add_of_float16_and_bfloat16_is_float32():
    x = phi.to_tensor(np.array([1.5, 2.0], np.float16))
    y = phi.to_tensor(np.array([0.5, 0.25], np.float32), dtype="bfloat16")
    out = phi.multiply(x, y)
    assert out.dtype == D.FLOAT32
    np.testing.assert_array_equal(out.numpy(), np.array([0.75, 0.5], np.float32))


def test_multiply_of_float32_and_float64_is_float64():
    out = run("multiply", np.array([3.0], np.float32), np.array([0.1], np.float64))
    assert out.dtype == D.FLOAT64
    np.testing.assert_allclose(out.numpy(), [0.3], rtol=1e-12)


# -- integer and bool semantics ------------------------------------------------------------------

SIGNS_X = np.array([-7, 7, -7, 7, 6], np.int64)
SIGNS_Y = np.array([2, 2, -2, -2, -3], np.int64)


def test_add_of_bools_is_logical_or():
    out = run("add", np.array([True, True, False]), np.array([True, False, False]))
    assert out.dtype == D.BOOL
    np.testing.assert_array_equal(out.numpy(), [True, True, False])


def test_multiply_of_bools_is_logical_and():
    out = run("multiply", np.array([True, True, False]), np.array([True, False, False]))
    np.testing.assert_array_equal(out.numpy(), [True, False, False])


def test_divide_of_integers_is_true_division_to_float32():
    out = run("divide", SIGNS_X, SIGNS_Y)
    assert out.dtype == D.FLOAT32
    np.testing.assert_allclose(out.numpy(), SIGNS_X / SIGNS_Y, rtol=1e-6)


def test_divide_of_integers_by_zero_follows_ieee_in_float32():
    out = run("divide", np.array([1, -2, 0], np.int32), np.array([0, 0, 0], np.int32))
    np.testing.assert_array_equal(out.numpy(), np.array([np.inf, -np.inf, np.nan], np.float32))


def _integer_divide_kernel(dtype: DataType):
    from phiops.runtime.common import Backend, CPUPlace, DataLayout
    from phiops.runtime.kernels import KERNEL_FACTORY, KernelContext, KernelKey

    kernel = KERNEL_FACTORY.select("divide", KernelKey(Backend.CPU, DataLayout.ALL_LAYOUT, dtype))
    return lambda x, y: kernel.fn(KernelContext(np, CPUPlace()), x, y)


def test_integer_divide_kernel_truncates_toward_zero():
    """The int kernel PHI registers (reached by static programs that carry int divides)."""
    out = _integer_divide_kernel(D.INT64)(SIGNS_X, SIGNS_Y)
    np.testing.assert_array_equal(out, [-3, 3, 3, -3, -2])


@pytest.mark.parametrize("dtype", [D.INT8, D.INT16])
def test_narrow_integer_divide_kernels_truncate_toward_zero(dtype: DataType):
    x, y = SIGNS_X.astype(dtype.numpy_dtype), SIGNS_Y.astype(dtype.numpy_dtype)
    out = _integer_divide_kernel(dtype)(x, y)
    assert out.dtype == dtype.numpy_dtype
    np.testing.assert_array_equal(out, [-3, 3, 3, -3, -2])


def test_uint8_divide_kernel_floors():
    out = _integer_divide_kernel(D.UINT8)(
        np.array([7, 255, 0], np.uint8), np.array([2, 16, 3], np.uint8)
    )
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, [3, 15, 0])


def test_integer_divide_kernel_by_zero_raises():
    with pytest.raises(InvalidArgumentError, match="Integer division by zero"):
        _integer_divide_kernel(D.INT32)(np.array([1, 2], np.int32), np.array([1, 0], np.int32))


def test_divide_of_floats_by_zero_gives_inf_and_nan():
    out = run("divide", np.array([1.0, -1.0, 0.0]), np.array([0.0, 0.0, 0.0]))
    np.testing.assert_array_equal(out.numpy(), [np.inf, -np.inf, np.nan])


def test_floor_divide_of_negative_integers_rounds_toward_minus_infinity():
    out = run("floor_divide", SIGNS_X, SIGNS_Y)
    np.testing.assert_array_equal(out.numpy(), [-4, 3, 3, -4, -2])


def test_floor_divide_of_floats_rounds_toward_minus_infinity():
    out = run("floor_divide", np.array([-7.5, 7.5, 7.0]), np.array([2.0, -2.0, 3.5]))
    np.testing.assert_array_equal(out.numpy(), [-4.0, -4.0, 2.0])


def test_floor_divide_of_integers_by_zero_raises():
    with pytest.raises(InvalidArgumentError, match="Integer division by zero"):
        run("floor_divide", np.array([1], np.int64), np.array([0], np.int64))


def test_floor_divide_of_floats_by_zero_gives_inf_and_nan():
    out = run("floor_divide", np.array([1.0, -1.0, 0.0]), np.array([0.0, 0.0, 0.0]))
    np.testing.assert_array_equal(out.numpy(), [np.inf, -np.inf, np.nan])


def test_remainder_of_negative_integers_takes_the_sign_of_the_divisor():
    out = run("remainder", SIGNS_X, SIGNS_Y)
    np.testing.assert_array_equal(out.numpy(), [1, 1, -1, -1, 0])


def test_remainder_of_floats_takes_the_sign_of_the_divisor():
    out = run("remainder", np.array([-7.5, 7.5, 6.0]), np.array([2.0, -2.0, -3.0]))
    np.testing.assert_array_equal(out.numpy(), [0.5, -0.5, 0.0])


def test_remainder_of_integers_by_zero_raises():
    with pytest.raises(InvalidArgumentError, match="Integer division by zero"):
        run("remainder", np.array([3], np.int32), np.array([0], np.int32))


def test_remainder_of_floats_by_zero_is_nan():
    assert np.isnan(run("remainder", np.array([3.0]), np.array([0.0])).numpy()).all()


def test_elementwise_pow_of_integers_truncates_negative_powers():
    out = run(
        "elementwise_pow", np.array([2, -1, 1, 3], np.int32), np.array([-1, -1, -3, 3], np.int32)
    )
    assert out.dtype == D.INT32
    np.testing.assert_array_equal(out.numpy(), [0, -1, 1, 27])


def test_maximum_propagates_nan_from_either_input():
    out = run("maximum", np.array([np.nan, 1.0]), np.array([1.0, np.nan]))
    np.testing.assert_array_equal(out.numpy(), [np.nan, np.nan])


def test_minimum_propagates_nan_from_either_input():
    out = run("minimum", np.array([np.nan, 1.0]), np.array([1.0, np.nan]))
    np.testing.assert_array_equal(out.numpy(), [np.nan, np.nan])


def test_subtract_of_integers_wraps_around_on_overflow():
    out = run("subtract", np.array([-(2**31)], np.int32), np.array([1], np.int32))
    np.testing.assert_array_equal(out.numpy(), [2**31 - 1])


@op_test("fmax", kind="dtypes")
@op_test("fmin", kind="dtypes")
@pytest.mark.parametrize("op, reference", [("fmax", np.fmax), ("fmin", np.fmin)])
def test_fmax_fmin_match_numpy_for_each_dtype(op, reference):
    for dtype in cpu_dtypes(op):
        x = sample((3, 4), dtype, seed=1)
        y = sample((4,), dtype, seed=2)
        check_against(op, dtype, x, y, reference)


@op_test("fmax", kind="edge")
@op_test("fmin", kind="edge")
def test_fmax_fmin_ignore_a_nan_and_give_nan_only_for_two():
    x = np.array([np.nan, 1.0, np.nan], np.float32)
    y = np.array([1.0, np.nan, np.nan], np.float32)
    np.testing.assert_array_equal(run("fmax", x, y).numpy(), [1.0, 1.0, np.nan])
    np.testing.assert_array_equal(run("fmin", x, y).numpy(), [1.0, 1.0, np.nan])
    assert run("fmax", np.zeros((0, 2), np.int32), np.zeros((2,), np.int32)).shape == [0, 2]
