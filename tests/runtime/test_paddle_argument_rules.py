"""Arguments PaddlePaddle 3.3.1 refuses and phiops accepted: bernoulli's probabilities outside
[0, 1] (its CPU kernel, an OutOfRange error naming the first; NaN too), layer_norm's epsilon
outside [0, 0.001] (LayerNormInferMeta) and isclose/allclose of two dtypes (their kernels read
``y`` as ``x``'s type). Each is an error naming the op and the argument, read from PaddlePaddle
3.3.1 (paddle/phi/kernels/cpu/bernoulli_kernel.cc, paddle/phi/infermeta/ternary.cc) and checked
against it by hand."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import InvalidArgumentError, OutOfRangeError


@pytest.mark.parametrize("value, shown", [(1.5, "1.5"), (-0.1, "-0.1"), (float("nan"), "nan")])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bernoulli_refuses_a_probability_outside_0_1(value: float, shown: str, dtype: str) -> None:
    x = phi.to_tensor(np.array([0.5, value, 2.0], dtype))
    with pytest.raises(
        OutOfRangeError,
        match=rf"^bernoulli\(\): argument 'x' must hold probabilities in \[0, 1\], got {shown}",
    ):
        phi.bernoulli(x)


def test_bernoulli_is_an_index_error_as_paddles_out_of_range() -> None:
    with pytest.raises(IndexError):
        phi.bernoulli(phi.to_tensor(np.array([1.5], "float32")))


def test_bernoulli_accepts_0_and_1_and_an_empty_tensor() -> None:
    out = phi.bernoulli(phi.to_tensor(np.array([0.0, 1.0, 1.0], "float32")))
    np.testing.assert_array_equal(out.numpy(), [0.0, 1.0, 1.0])
    assert phi.bernoulli(phi.to_tensor(np.zeros((0,), "float32"))).shape == [0]


@pytest.mark.parametrize("epsilon", [-1.0, -1e-12, 0.002, float("nan")])
def test_layer_norm_refuses_an_epsilon_outside_0_to_0_001(epsilon: float) -> None:
    x = phi.to_tensor(np.ones((2, 3), "float32"))
    with pytest.raises(
        InvalidArgumentError,
        match=r"^layer_norm\(\): argument 'epsilon' must be in \[0, 0.001\], got ",
    ):
        phi.layer_norm(x, None, None, epsilon, 1)


@pytest.mark.parametrize("epsilon", [0.0, 1e-5, 0.001])
def test_layer_norm_accepts_an_epsilon_in_0_to_0_001(epsilon: float) -> None:
    x = phi.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    assert phi.layer_norm(x, None, None, epsilon, 1).shape == [2, 3]


@pytest.mark.parametrize("op", ["isclose", "allclose"])
@pytest.mark.parametrize("y_dtype", ["int32", "float64"])
def test_isclose_and_allclose_refuse_two_dtypes(op: str, y_dtype: str) -> None:
    x = phi.to_tensor(np.ones((2,), "float32"))
    y = phi.to_tensor(np.ones((2,), y_dtype))
    with pytest.raises(
        InvalidArgumentError,
        match=rf"^{op}\(\): arguments 'x' and 'y' must have the same dtype, got float32 and "
        rf"{y_dtype}",
    ):
        getattr(phi, op)(x, y)


def test_isclose_of_one_dtype_is_unchanged() -> None:
    x = phi.to_tensor(np.array([1.0, 2.0], "float64"))
    y = phi.to_tensor(np.array([1.0, 2.5], "float64"))
    np.testing.assert_array_equal(phi.isclose(x, y).numpy(), [True, False])
