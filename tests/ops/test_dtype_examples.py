"""Everyday dtype examples (promotion, casts, integer division, comparisons), each behaving as PaddlePaddle 3.3.1 does (values from its CPU build,
tests/data/dtype_semantics/)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType as D
from phiops.runtime.errors import InvalidArgumentError


def test_integer_tensor_divided_by_an_int_is_true_division_in_float32() -> None:
    out = phi.to_tensor([-1, 7]) / 2
    assert out.dtype is D.FLOAT32
    np.testing.assert_array_equal(out.numpy(), np.array([-0.5, 3.5], np.float32))
    out = phi.divide(phi.to_tensor([-1, 7]), phi.to_tensor([2, 2]))
    np.testing.assert_array_equal(out.numpy(), np.array([-0.5, 3.5], np.float32))


def test_maximum_of_nan_and_one_is_nan_and_minimum_too() -> None:
    x, y = phi.to_tensor([float("nan")]), phi.to_tensor([1.0])
    assert np.isnan(phi.maximum(x, y).numpy()).all()
    assert np.isnan(phi.minimum(y, x).numpy()).all()


def test_and_of_integer_tensors_is_bitwise() -> None:
    out = phi.to_tensor([12, 5]) & phi.to_tensor([10, 3])
    assert out.dtype is D.INT64
    assert out.numpy().tolist() == [8, 1]


def test_numpy_scalar_times_tensor_is_a_tensor_with_its_graph() -> None:
    x = phi.to_tensor([1.0, 2.0], stop_gradient=False)
    out = np.float32(2) * x
    assert isinstance(out, phi.Tensor)
    phi.sum(out).backward()
    assert x.grad.numpy().tolist() == [2.0, 2.0]
    assert isinstance(np.float64(3) - x, phi.Tensor)
    assert (np.float64(3) - x).numpy().tolist() == [2.0, 1.0]


def test_python_scalar_on_the_left_keeps_paddles_dtype() -> None:
    t = phi.to_tensor(np.array([1, 2], np.int32))
    assert (2 - t).dtype is D.INT32 and (2 - t).numpy().tolist() == [1, 0]
    assert (2.5 * t).dtype is D.FLOAT32
    assert (1 + phi.to_tensor([True])).dtype is D.INT64
    assert (phi.to_tensor(np.array([1.0], np.float16)) * 2.0).dtype is D.FLOAT16


def test_mixed_integer_and_float_tensors_are_refused_naming_the_cast() -> None:
    with pytest.raises(InvalidArgumentError, match=r"cast\(x, 'float32'\)"):
        phi.to_tensor(np.array([1], np.int32)) + phi.to_tensor([0.5])


def test_exp_sqrt_tanh_of_integer_tensors_are_float32() -> None:
    t = phi.to_tensor(np.array([0, 1], np.int32))
    for op in (phi.exp, phi.sqrt, phi.tanh):
        assert op(t).dtype is D.FLOAT32


def test_uint8_minus_one_wraps_in_uint8() -> None:
    out = phi.to_tensor(np.array([0, 5], np.uint8)) - 1
    assert out.dtype is D.UINT8
    assert out.numpy().tolist() == [255, 4]


def test_bfloat16_to_tensor_cast_and_numpy() -> None:
    t = phi.to_tensor([1.5, -2.0], dtype="bfloat16")
    assert t.dtype is D.BFLOAT16
    assert t.numpy().astype(np.float32).tolist() == [1.5, -2.0]
    assert phi.cast(t, "float32").numpy().tolist() == [1.5, -2.0]
    assert phi.cast(phi.to_tensor([3.0]), "bfloat16").dtype is D.BFLOAT16


def test_python_complex_data_defaults_to_complex64() -> None:
    assert phi.to_tensor([1 + 2j]).dtype is D.COMPLEX64
    assert phi.to_tensor(np.array([1 + 2j])).dtype is D.COMPLEX128


def test_bfloat16_sum_accumulates_in_float32() -> None:
    """256 + 1 + 1 + ... is 256 in bfloat16 at each step; in float32 the ones add up."""
    t = phi.to_tensor([256.0] + [1.0] * 64, dtype="bfloat16")
    assert phi.sum(t).numpy().astype(np.float32).item() == 320.0


@pytest.mark.parametrize("divisor", [0.0, 0, -0.0])
def test_a_float16_tensor_divided_by_zero_gives_inf_and_nan_as_paddle(divisor: float) -> None:
    # PaddlePaddle 3.3.1: to_tensor([1, -2, 0], float16) / 0.0 is [inf, -inf, nan] (float16 has
    # no divide kernel on CPU; the division is a scale by inf). / -0.0 flips the infinities.
    import phiops as paddle

    x = paddle.to_tensor(np.array([1.0, -2.0, 0.0], "float16"))
    out = x / divisor
    assert out.dtype == paddle.float16
    sign = -1.0 if str(divisor) == "-0.0" else 1.0
    np.testing.assert_array_equal(
        out.numpy(), np.array([sign * np.inf, -sign * np.inf, np.nan], "float16")
    )
