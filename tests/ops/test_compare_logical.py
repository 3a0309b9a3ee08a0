"""Comparison ops (equal, not_equal, greater_than, greater_equal, less_than, less_equal) and
logical ops (logical_and, logical_or, logical_not): bool results, PHI's float equality
tolerance and complex ordering, nonzero-is-true for non-bool inputs."""

from __future__ import annotations

import re

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType
COMPARE_OPS = ("equal", "not_equal", "greater_than", "greater_equal", "less_than", "less_equal")
LOGICAL_BINARY_OPS = ("logical_and", "logical_or")

# numpy references; complex numbers are ordered by their real parts, then their imaginary parts,
# as numpy and PaddlePaddle 3.3.1 order them.
ORDERINGS = {
    "greater_than": np.greater,
    "greater_equal": np.greater_equal,
    "less_than": np.less,
    "less_equal": np.less_equal,
}


def compare_reference(op: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if op == "equal":
        return x == y
    if op == "not_equal":
        return x != y
    if x.dtype.kind == "c":
        return ORDERINGS[op](x.astype(np.complex128), y.astype(np.complex128))
    return ORDERINGS[op](x.astype(np.float64), y.astype(np.float64))


def run(op: str, *arrays: np.ndarray):
    return getattr(phi, op)(*(phi.to_tensor(a) for a in arrays))


def partly_equal_pair(dtype: DataType) -> tuple[np.ndarray, np.ndarray]:
    """Two (3, 4) samples equal in about half of the positions."""
    x = sample((3, 4), dtype, seed=1)
    other = sample((3, 4), dtype, seed=2)
    same = np.random.default_rng(3).integers(0, 2, size=(3, 4)).astype(bool)
    return x, np.where(same, x, other)


# -- forward, every registered dtype --------------------------------------------------------------


def check_compare(op: str, dtype: DataType) -> None:
    x, y = partly_equal_pair(dtype)
    out = run(op, x, y)
    assert out.dtype == D.BOOL
    assert out.shape == [3, 4]
    np.testing.assert_array_equal(out.numpy(), compare_reference(op, x, y))


@op_test("equal", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("equal"))
def test_equal_matches_numpy_for_each_dtype(dtype):
    check_compare("equal", dtype)


@op_test("not_equal", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("not_equal"))
def test_not_equal_matches_numpy_for_each_dtype(dtype):
    check_compare("not_equal", dtype)


@op_test("greater_than", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("greater_than"))
def test_greater_than_matches_numpy_for_each_dtype(dtype):
    check_compare("greater_than", dtype)


@op_test("greater_equal", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("greater_equal"))
def test_greater_equal_matches_numpy_for_each_dtype(dtype):
    check_compare("greater_equal", dtype)


@op_test("less_than", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("less_than"))
def test_less_than_matches_numpy_for_each_dtype(dtype):
    check_compare("less_than", dtype)


@op_test("less_equal", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("less_equal"))
def test_less_equal_matches_numpy_for_each_dtype(dtype):
    check_compare("less_equal", dtype)


def with_zeros(array: np.ndarray, seed: int) -> np.ndarray:
    """``array`` with about a third of its elements set to 0 (false)."""
    keep = np.random.default_rng(seed).integers(0, 3, size=array.shape) > 0
    return np.where(keep, array, np.zeros((), array.dtype))


def check_logical(op: str, dtype: DataType) -> None:
    x = with_zeros(sample((3, 4), dtype, seed=1), seed=3)
    y = with_zeros(sample((3, 4), dtype, seed=2), seed=4)
    out = run(op, x, y)
    assert out.dtype == D.BOOL
    assert out.shape == [3, 4]
    reference = {"logical_and": np.logical_and, "logical_or": np.logical_or}.get(op, np.logical_xor)
    np.testing.assert_array_equal(out.numpy(), reference(x != 0, y != 0))


@op_test("logical_and", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("logical_and"))
def test_logical_and_matches_numpy_for_each_dtype(dtype):
    check_logical("logical_and", dtype)


@op_test("logical_or", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("logical_or"))
def test_logical_or_matches_numpy_for_each_dtype(dtype):
    check_logical("logical_or", dtype)


@op_test("logical_xor", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("logical_xor"))
def test_logical_xor_matches_numpy_for_each_dtype(dtype):
    check_logical("logical_xor", dtype)


@op_test("logical_xor", kind="edge")
def test_logical_xor_broadcasts_and_counts_nan_as_true():
    x = np.array([[np.nan], [0.0]])
    y = np.array([1.0, 0.0])
    out = run("logical_xor", x, y)
    assert out.shape == [2, 2]
    np.testing.assert_array_equal(out.numpy(), [[False, True], [True, False]])


@op_test("logical_not", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("logical_not"))
def test_logical_not_matches_numpy_for_each_dtype(dtype):
    x = with_zeros(sample((3, 4), dtype, seed=1), seed=3)
    out = run("logical_not", x)
    assert out.dtype == D.BOOL
    assert out.shape == [3, 4]
    np.testing.assert_array_equal(out.numpy(), x == 0)


# -- shapes: broadcasting, 0-D, empty -------------------------------------------------------------


@op_test(*COMPARE_OPS, *LOGICAL_BINARY_OPS, kind="edge")
@pytest.mark.parametrize("op", COMPARE_OPS + LOGICAL_BINARY_OPS)
def test_binary_op_broadcasts_column_with_row_to_bool(op):
    x = np.array([[-1], [0], [2]], np.int64)
    y = np.array([[0, 2, -1, 5]], np.int64)
    out = run(op, x, y)
    assert out.dtype == D.BOOL
    assert out.shape == [3, 4]
    expected = {"logical_and": np.logical_and, "logical_or": np.logical_or}.get(op)
    expected = expected(x, y) if expected else compare_reference(op, x, y)
    np.testing.assert_array_equal(out.numpy(), expected)


@pytest.mark.parametrize("op", COMPARE_OPS + LOGICAL_BINARY_OPS)
def test_binary_op_of_0d_with_nd_gives_nd_bool(op):
    out = run(op, np.array(1.0), np.array([0.0, 1.0, 2.0]))
    assert out.dtype == D.BOOL
    assert out.shape == [3]


@pytest.mark.parametrize("op", COMPARE_OPS + LOGICAL_BINARY_OPS)
def test_binary_op_of_two_0d_tensors_is_0d_bool(op):
    out = run(op, np.array(1, np.int32), np.array(2, np.int32))
    assert out.dtype == D.BOOL
    assert out.shape == []


@pytest.mark.parametrize("op", COMPARE_OPS + LOGICAL_BINARY_OPS)
def test_binary_op_with_an_empty_tensor_gives_an_empty_bool_tensor(op):
    out = run(op, np.zeros((2, 0), np.float32), np.zeros((1, 1), np.float32))
    assert out.dtype == D.BOOL
    assert out.shape == [2, 0]


@pytest.mark.parametrize("op", COMPARE_OPS + LOGICAL_BINARY_OPS)
def test_binary_op_rejects_shapes_that_do_not_broadcast(op):
    with pytest.raises(
        InvalidArgumentError,
        match=re.escape(
            "argument 'y' with dims [2] cannot be broadcast with argument 'x' with dims [3]: "
            "dimension 0 differs (2 vs 3)"
        ),
    ):
        run(op, np.ones(3, np.float32), np.ones(2, np.float32))


@op_test("logical_not", kind="edge")
def test_logical_not_of_0d_and_empty_tensors():
    zero_d = run("logical_not", np.array(0.0, np.float32))
    assert zero_d.shape == [] and zero_d.dtype == D.BOOL and bool(zero_d.numpy()) is True
    empty = run("logical_not", np.zeros((0, 2), np.int32))
    assert empty.shape == [0, 2] and empty.dtype == D.BOOL


# -- PHI's semantics ------------------------------------------------------------------------------


def test_compare_of_int_and_float_raises_as_paddle_does():
    with pytest.raises(InvalidArgumentError, match=r"^less_than\(\): x is int32 and y is float32"):
        run("less_than", np.array([1, 2, 3], np.int32), np.array([1.5, 1.5, 3.0], np.float32))


def test_compare_of_float32_and_float64_compares_in_float64():
    out = run("less_than", np.array([1, 2, 3], np.float32), np.array([1.5, 1.5, 3.0], np.float64))
    np.testing.assert_array_equal(out.numpy(), [True, False, False])


def test_equal_of_doubles_tolerates_differences_below_1e_8():
    out = run("equal", np.array([1.0, 1.0]), np.array([1.0 + 5e-9, 1.0 + 5e-8]))
    np.testing.assert_array_equal(out.numpy(), [True, False])


def test_not_equal_of_doubles_tolerates_differences_below_1e_8():
    out = run("not_equal", np.array([1.0, 1.0]), np.array([1.0 + 5e-9, 1.0 + 5e-8]))
    np.testing.assert_array_equal(out.numpy(), [False, True])


def test_equal_of_float16_is_exact():
    out = run("equal", np.array([0.0], np.float16), np.array([2.0**-24], np.float16))
    np.testing.assert_array_equal(out.numpy(), [False])


def test_equal_never_holds_for_nan_and_holds_for_equal_infinities():
    x = np.array([np.nan, np.inf, np.inf, -np.inf])
    y = np.array([np.nan, np.inf, -np.inf, -np.inf])
    np.testing.assert_array_equal(run("equal", x, y).numpy(), [False, True, False, True])


def test_complex_numbers_are_ordered_by_real_then_imaginary_part():
    # PaddlePaddle 3.3.1 gives these (less_than(1+0j, 1+2j) is true), as numpy does
    x = np.array([1 + 0j, 1 + 5j, 2 - 1j, 1 + 5j], np.complex64)
    y = np.array([1 + 5j, 1 + 0j, 1 + 9j, 1 + 5j], np.complex64)
    np.testing.assert_array_equal(run("less_than", x, y).numpy(), [True, False, False, False])
    np.testing.assert_array_equal(run("greater_than", x, y).numpy(), [False, True, True, False])
    np.testing.assert_array_equal(run("less_equal", x, y).numpy(), [True, False, False, True])
    np.testing.assert_array_equal(run("greater_equal", x, y).numpy(), [False, True, True, True])


def test_complex_equality_compares_both_parts():
    out = run("equal", np.array([1 + 1j, 1 + 1j]), np.array([1 + 1j, 1 - 1j]))
    np.testing.assert_array_equal(out.numpy(), [True, False])


def test_logical_ops_treat_nonzero_numbers_as_true():
    x = np.array([0.0, 2.5, -3.0, np.nan], np.float32)
    y = np.array([4.0, 0.0, 1.0, 1.0], np.float32)
    np.testing.assert_array_equal(run("logical_and", x, y).numpy(), [False, False, True, True])
    np.testing.assert_array_equal(run("logical_or", x, y).numpy(), [True, True, True, True])
    np.testing.assert_array_equal(run("logical_not", x).numpy(), [True, False, False, False])
