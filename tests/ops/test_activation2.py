"""Forward tests of the activations of activation2_kernel.py against float64 numpy references written from
their definitions (not from the kernels' formulas), for every registered dtype, plus 0-D,
empty, special values and bad input."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance


def _softplus(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, x)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1 + np.tanh(0.5 * x))


_ERF = np.vectorize(math.erf, otypes=[np.float64])
# selu's defaults as its kernel sees them: `float` attributes are float32 in PHI.
SELU_SCALE = float(np.float32(1.0507009873554804934193349852946))
SELU_ALPHA = float(np.float32(1.6732632423543772848170429916717))

# op -> (call with a tensor, reference on float64 values)
UNARY: dict[str, tuple[Callable[[Any], Any], Callable[[np.ndarray], np.ndarray]]] = {
    "relu6": (phi.relu6, lambda x: np.clip(x, 0, 6)),
    "hardswish": (phi.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "hardsigmoid": (
        lambda x: phi.hardsigmoid(x, 0.25, 0.5),
        lambda x: np.clip(0.25 * x + 0.5, 0, 1),
    ),
    "swish": (phi.swish, lambda x: x * _sigmoid(x)),
    "elu": (lambda x: phi.elu(x, 0.5), lambda x: np.where(x > 0, x, 0.5 * (np.exp(x) - 1))),
    "selu": (
        phi.selu,
        lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * (np.exp(x) - 1)),
    ),
    "softplus": (
        lambda x: phi.softplus(x, 2.0, 4.0),
        lambda x: np.where(2 * x > 4, x, _softplus(2 * x) / 2),
    ),
    "softsign": (phi.softsign, lambda x: x / (1 + np.abs(x))),
    "mish": (lambda x: phi.mish(x, 20.0), lambda x: x * np.tanh(_softplus(x))),
    "hardtanh": (lambda x: phi.hardtanh(x, -1.0, 2.0), lambda x: np.clip(x, -1, 2)),
    "logsigmoid": (phi.logsigmoid, lambda x: -_softplus(-x)),
    "erf": (phi.erf, _ERF),
}


def _cases() -> list[tuple[str, DataType]]:
    """Real dtypes: the complex ones (hardswish, softplus, softsign, logsigmoid) are checked
    against PaddlePaddle's values in tests/ops/test_dtype_semantics.py."""
    return [(op, dtype) for op in UNARY for dtype in cpu_dtypes(op) if not dtype.is_complex]


@op_test(*UNARY, kind="dtypes")
@pytest.mark.parametrize("op, dtype", _cases(), ids=lambda v: str(getattr(v, "name", v)))
def test_activation_matches_reference(op: str, dtype: DataType) -> None:
    call, reference = UNARY[op]
    x = sample((3, 5), dtype, low=-8, high=8)
    out = call(phi.to_tensor(x))
    assert out.dtype is dtype and out.shape == [3, 5]
    np.testing.assert_allclose(
        out.numpy().astype(np.float64), reference(x.astype(np.float64)), **tolerance(dtype)
    )


@op_test(*UNARY, kind="edge")
@pytest.mark.parametrize("op", list(UNARY))
@pytest.mark.parametrize("shape", [(), (0, 3)], ids=["0d", "empty"])
def test_activation_keeps_0d_and_empty_shapes(op: str, shape: tuple[int, ...]) -> None:
    call, reference = UNARY[op]
    x = sample(shape, DataType.FLOAT64, low=-4, high=4)
    out = call(phi.to_tensor(x))
    assert out.shape == list(shape)
    np.testing.assert_allclose(out.numpy(), reference(x), rtol=1e-12, atol=1e-12)


def test_relu_maps_nan_and_negative_zero_to_positive_zero() -> None:
    x = np.array([np.nan, -0.0, 0.0, -2.0, 3.0, np.inf, -np.inf], np.float32)
    out = phi.relu(phi.to_tensor(x)).numpy()
    np.testing.assert_array_equal(out, [0, 0, 0, 0, 3, np.inf, 0])
    assert not np.signbit(out).any()


def test_relu_grad_is_zero_where_relu_clamped() -> None:
    x = phi.to_tensor(np.array([-1.0, 0.0, 2.0, np.nan]), stop_gradient=False)
    phi.sum(phi.relu(x)).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0, 0, 1, 0])


def test_logsigmoid_does_not_overflow() -> None:
    out = phi.logsigmoid(phi.to_tensor(np.array([-1000.0, 1000.0]))).numpy()
    np.testing.assert_allclose(out, [-1000.0, 0.0])


# -- prelu --------------------------------------------------------------------------------------


def _prelu(x: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    return np.where(x > 0, x, alpha * x)


@op_test("prelu", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("prelu"), ids=lambda d: d.name)
def test_prelu_modes_match_reference(dtype: DataType) -> None:
    x = sample((2, 3, 4), dtype)
    alpha = sample((3,), dtype, seed=1, low=0, high=1)
    out = phi.prelu(phi.to_tensor(x), phi.to_tensor(alpha), "NCHW", "channel")
    np.testing.assert_allclose(out.numpy(), _prelu(x, alpha[None, :, None]), **tolerance(dtype))
    alpha4 = sample((4,), dtype, seed=2, low=0, high=1)
    out = phi.prelu(phi.to_tensor(x), phi.to_tensor(alpha4), "NHWC", "channel")
    np.testing.assert_allclose(out.numpy(), _prelu(x, alpha4), **tolerance(dtype))
    one = sample((1,), dtype, seed=3, low=0, high=1)
    out = phi.prelu(phi.to_tensor(x), phi.to_tensor(one))
    np.testing.assert_allclose(out.numpy(), _prelu(x, one[0]), **tolerance(dtype))
    each = sample((1, 3, 4), dtype, seed=4, low=0, high=1)
    out = phi.prelu(phi.to_tensor(x), phi.to_tensor(each), "NCHW", "element")
    np.testing.assert_allclose(out.numpy(), _prelu(x, each), **tolerance(dtype))


@op_test("prelu", kind="edge")
@pytest.mark.parametrize(
    "x_shape, alpha_shape, data_format, mode, message",
    [
        ((2, 3), (2,), "NCHW", "all", "one value for mode 'all'"),
        ((2, 3), (2,), "NCHW", "channel", "one value per channel"),
        ((3,), (3,), "NCHW", "channel", "at least 2 dimensions"),
        ((2, 3), (3,), "NCL", "channel", "'NCHW' or 'NHWC'"),
        ((2, 3, 4), (3,), "NCHW", "element", "one value per element of a sample"),
        ((2, 3), (1,), "NCHW", "elementwise", "must be one of 'all', 'channel' or 'element'"),
    ],
)
def test_prelu_rejects_bad_alpha_and_mode(
    x_shape: tuple[int, ...],
    alpha_shape: tuple[int, ...],
    data_format: str,
    mode: str,
    message: str,
) -> None:
    x = phi.to_tensor(np.ones(x_shape))
    alpha = phi.to_tensor(np.ones(alpha_shape))
    with pytest.raises(InvalidArgumentError, match=message):
        phi.prelu(x, alpha, data_format, mode)


def test_prelu_on_an_empty_batch_and_a_0d_tensor() -> None:
    out = phi.prelu(phi.to_tensor(np.ones((0, 3))), phi.to_tensor(np.ones(3)), "NCHW", "channel")
    assert out.shape == [0, 3]
    out = phi.prelu(phi.to_tensor(np.array(-2.0)), phi.to_tensor(np.array([0.5])))
    assert out.shape == [] and out.numpy() == -1.0


# -- logsumexp ----------------------------------------------------------------------------------


def _logsumexp(x: np.ndarray, axis: Any, keepdims: bool) -> np.ndarray:
    return np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdims))


@op_test("logsumexp", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("logsumexp"), ids=lambda d: d.name)
def test_logsumexp_matches_reference(dtype: DataType) -> None:
    x = sample((2, 3, 4), dtype)
    for axis, keepdim in (([0], False), ([-1, 1], True), ([], False)):
        out = phi.logsumexp(phi.to_tensor(x), axis, keepdim)
        expected = _logsumexp(x.astype(np.float64), tuple(axis) or None, keepdim)
        assert out.dtype is dtype
        np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@op_test("logsumexp", kind="edge")
def test_logsumexp_edges() -> None:
    big = phi.logsumexp(phi.to_tensor(np.array([1000.0, 1000.0])), [0])
    np.testing.assert_allclose(big.numpy(), 1000 + np.log(2))
    zero_d = phi.logsumexp(phi.to_tensor(np.array(2.5)), [0])
    assert zero_d.shape == [] and zero_d.numpy() == 2.5
    empty = phi.logsumexp(phi.to_tensor(np.ones((0, 3))), [0])
    np.testing.assert_array_equal(empty.numpy(), [-np.inf] * 3)
    every = phi.logsumexp(phi.to_tensor(np.zeros((2, 2))), [0], reduce_all=True)
    np.testing.assert_allclose(every.numpy(), np.log(4))
    with pytest.raises(InvalidArgumentError, match="at most 4 dimensions"):
        phi.logsumexp(phi.to_tensor(np.ones((1,) * 5)), [0])
    with pytest.raises(InvalidArgumentError, match="axis"):
        phi.logsumexp(phi.to_tensor(np.ones((2, 3))), [2])
