"""all, any, isnan, isinf, isfinite, bitwise_and/or/xor/not, allclose, isclose against numpy
references for every registered dtype; the Tensor operators ``& | ^ ~``; edge cases."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType


def _special(dtype: DataType) -> np.ndarray:
    if dtype.is_floating_point or dtype.is_complex:
        values = np.array([np.nan, np.inf, -np.inf, 0.0, -1.5, 2.0])
        return values.astype(dtype.numpy_dtype)
    return sample((6,), dtype)


@op_test("all", "any", kind="dtypes")
@pytest.mark.parametrize("op", ["all", "any"])
def test_all_any_match_numpy_for_every_dtype(op: str) -> None:
    for dtype in cpu_dtypes(op):
        x = sample((3, 4), dtype, low=0, high=1)
        for axis, keepdim in (([1], False), ([0], True), ([], False), ([-1, 0], False)):
            out = getattr(phi, op)(phi.to_tensor(x), axis, keepdim)
            expected = getattr(np, op)(x, axis=tuple(axis) or None, keepdims=keepdim)
            assert out.dtype is D.BOOL
            np.testing.assert_array_equal(out.numpy(), expected)


@op_test("all", "any", kind="edge")
def test_all_any_edges() -> None:
    assert phi.all(phi.to_tensor(np.ones((0, 2)))).numpy()
    assert not phi.any(phi.to_tensor(np.ones((0, 2)))).numpy()
    assert phi.any(phi.to_tensor(np.array(np.nan))).shape == []
    assert phi.any(phi.to_tensor(np.array([0.0, np.nan]))).numpy()
    with pytest.raises(InvalidArgumentError, match="axis"):
        phi.all(phi.to_tensor(np.ones((2, 2))), [2])


@op_test("isnan", "isinf", "isfinite", kind="dtypes")
@pytest.mark.parametrize("op", ["isnan", "isinf", "isfinite"])
def test_float_classes_match_numpy_for_every_dtype(op: str) -> None:
    for dtype in cpu_dtypes(op):
        x = _special(dtype)
        out = getattr(phi, op)(phi.to_tensor(x))
        assert out.dtype is D.BOOL
        np.testing.assert_array_equal(out.numpy(), getattr(np, op)(x))


@op_test("isnan", "isinf", "isfinite", kind="edge")
@pytest.mark.parametrize("op", ["isnan", "isinf", "isfinite"])
def test_float_classes_on_0d_and_empty(op: str) -> None:
    assert getattr(phi, op)(phi.to_tensor(np.array(np.inf))).shape == []
    assert getattr(phi, op)(phi.to_tensor(np.ones((2, 0)))).shape == [2, 0]
    complex_value = phi.to_tensor(np.array([complex(1, np.nan), complex(np.inf, 0)]))
    expected = getattr(np, op)(np.array([complex(1, np.nan), complex(np.inf, 0)]))
    np.testing.assert_array_equal(getattr(phi, op)(complex_value).numpy(), expected)


BITWISE = {
    "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor,
}


@op_test(*BITWISE, "bitwise_not", kind="dtypes")
@pytest.mark.parametrize("op", [*BITWISE, "bitwise_not"])
def test_bitwise_ops_match_numpy_for_every_dtype(op: str) -> None:
    for dtype in cpu_dtypes(op):
        x = sample((2, 5), dtype, low=-120, high=120)
        y = sample((2, 5), dtype, seed=1, low=-120, high=120)
        if op == "bitwise_not":
            out, expected = phi.bitwise_not(phi.to_tensor(x)), np.invert(x)
        else:
            out = getattr(phi, op)(phi.to_tensor(x), phi.to_tensor(y))
            expected = BITWISE[op](x, y)
        assert out.dtype is dtype
        np.testing.assert_array_equal(out.numpy(), expected)


@op_test(*BITWISE, "bitwise_not", kind="edge")
def test_bitwise_edges() -> None:
    x = phi.to_tensor(np.array([[1], [6]], np.int32))
    y = phi.to_tensor(np.array([3, 5, 12], np.int32))
    np.testing.assert_array_equal(
        phi.bitwise_and(x, y).numpy(), np.bitwise_and([[1], [6]], [3, 5, 12])
    )
    assert phi.bitwise_not(phi.to_tensor(np.array(0, np.int64))).numpy() == -1
    assert phi.bitwise_xor(
        phi.to_tensor(np.ones(0, np.uint8)), phi.to_tensor(np.ones(0, np.uint8))
    ).shape == [0]
    with pytest.raises(InvalidArgumentError):
        phi.bitwise_or(
            phi.to_tensor(np.ones((2, 3), np.int32)), phi.to_tensor(np.ones(2, np.int32))
        )
    with pytest.raises(Exception, match="bitwise_not"):
        phi.bitwise_not(phi.to_tensor(np.ones(3, np.float32)))


def test_python_operators_are_bitwise_on_integers_and_logical_on_bools() -> None:
    x = phi.to_tensor(np.array([1, 2, 12], np.int64))
    np.testing.assert_array_equal((x & phi.to_tensor(np.array([6, 6, 6]))).numpy(), [0, 2, 4])
    np.testing.assert_array_equal((6 & x).numpy(), [0, 2, 4])
    np.testing.assert_array_equal((1 | x).numpy(), [1, 3, 13])
    np.testing.assert_array_equal((x ^ x).numpy(), [0, 0, 0])
    np.testing.assert_array_equal((~x).numpy(), [-2, -3, -13])
    b = phi.to_tensor(np.array([True, False]))
    np.testing.assert_array_equal((True & b).numpy(), [True, False])
    np.testing.assert_array_equal((False | b).numpy(), [True, False])
    np.testing.assert_array_equal((True ^ b).numpy(), [False, True])
    np.testing.assert_array_equal((~b).numpy(), [False, True])


def test_tensor_and_python_int_on_the_right_raises_as_paddle_does() -> None:
    """PaddlePaddle 3.3.1 accepts ``6 & x`` but refuses ``x & 6``."""
    x = phi.to_tensor(np.array([1, 2, 12], np.int64))
    with pytest.raises(InvalidArgumentError, match=r"^bitwise_and\(\): Tensor & int"):
        x & 6


def test_bitwise_operators_refuse_float_tensors() -> None:
    f = phi.to_tensor(np.array([0.0, 2.0]))
    with pytest.raises(NotFoundError, match="bitwise_and"):
        f & f


def _close(a: np.ndarray, b: np.ndarray, rtol: float, atol: float, equal_nan: bool) -> np.ndarray:
    """Written from PaddlePaddle's definition: |a - b| <= atol + rtol * |b| (not numpy's
    symmetric test), a == b, or a nan pair with equal_nan."""
    a, b = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64), b.astype(
        np.complex128 if b.dtype.kind == "c" else np.float64
    )
    result = []
    for u, v in zip(a.ravel(), b.ravel()):
        if np.isnan(u) or np.isnan(v):
            result.append(bool(equal_nan and np.isnan(u) and np.isnan(v)))
        else:
            with np.errstate(invalid="ignore"):
                result.append(bool(u == v or abs(u - v) <= atol + rtol * abs(v)))
    return np.array(result).reshape(a.shape)


@op_test("isclose", "allclose", kind="dtypes")
@pytest.mark.parametrize("op", ["isclose", "allclose"])
def test_closeness_matches_reference_for_every_dtype(op: str) -> None:
    for dtype in cpu_dtypes(op):
        x = sample((12,), dtype, low=-5, high=5)
        y = (x + sample((12,), dtype, seed=1, low=0, high=1)).astype(dtype.numpy_dtype)
        for rtol, atol in ((1e-5, 1e-8), (0.2, 0.5)):
            out = getattr(phi, op)(phi.to_tensor(x), phi.to_tensor(y), rtol, atol)
            expected = _close(x, y, rtol, atol, False)
            assert out.dtype is D.BOOL
            np.testing.assert_array_equal(
                out.numpy(), expected if op == "isclose" else expected.all()
            )


@op_test("isclose", "allclose", kind="edge")
def test_closeness_edges() -> None:
    x = np.array([np.nan, np.inf, -np.inf, 1.0])
    y = np.array([np.nan, np.inf, np.inf, 1.0 + 1e-9])
    np.testing.assert_array_equal(
        phi.isclose(phi.to_tensor(x), phi.to_tensor(y)).numpy(), [False, True, True, True]
    )
    np.testing.assert_array_equal(
        phi.isclose(phi.to_tensor(x), phi.to_tensor(y), equal_nan=True).numpy(), [True] * 4
    )
    assert phi.allclose(phi.to_tensor(np.ones(0)), phi.to_tensor(np.ones(0))).numpy()
    assert phi.allclose(phi.to_tensor(np.array(1.0)), phi.to_tensor(np.array(1.0))).shape == []
    with pytest.raises(InvalidArgumentError, match="same dims"):
        phi.allclose(phi.to_tensor(np.ones((2, 3))), phi.to_tensor(np.ones(3)))
    with pytest.raises(InvalidArgumentError, match="same dims"):
        phi.isclose(phi.to_tensor(np.ones((2, 3))), phi.to_tensor(np.ones((1, 3))))
