"""The rrelu op (normup family): eval-mode values per registered CPU dtype against numpy, the
training-mode slopes' range and statistics, its reproducibility under paddle.seed, its gradient
(out_grad times the slope), edges (0-D, empty, NaN, +-inf, non-contiguous) and bad bounds.
PaddlePaddle's own values (eval mode) are compared in tests/nn/test_normup.py and
tests/parity/test_normup_paddle.py."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
import phiops.nn.functional as F
from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test

rrelu_op = op_api("rrelu")
X = np.array([[-3.0, -1.0, -0.5, 0.0], [0.25, 1.0, -2.0, 4.0]])


def reference(x: np.ndarray, slope: float) -> np.ndarray:
    return np.where(x >= 0, x, x * slope)


@op_test("rrelu", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("rrelu"), ids=lambda d: d.name.lower())
def test_rrelu_in_eval_mode_uses_the_mean_slope_for_each_dtype(dtype: DataType) -> None:
    x = X.astype(dtype.numpy_dtype)
    out = rrelu_op(paddle.to_tensor(x), 0.1, 0.3, True)
    assert out.dtype == dtype
    slope = np.float32((np.float32(0.1) + np.float32(0.3)) / 2)
    np.testing.assert_allclose(
        out.numpy().astype(np.float64), reference(x.astype(np.float64), slope), rtol=1e-3
    )


@pytest.mark.parametrize("dtype", cpu_dtypes("rrelu"), ids=lambda d: d.name.lower())
def test_rrelu_in_training_draws_slopes_in_lower_upper(dtype: DataType) -> None:
    x = -np.linspace(0.5, 2.0, 4000).astype(dtype.numpy_dtype)
    out = rrelu_op(paddle.to_tensor(x), 0.2, 0.5, False).numpy().astype(np.float64)
    slopes = out / x.astype(np.float64)
    assert slopes.min() >= 0.2 - 1e-3 and slopes.max() <= 0.5 + 1e-3
    # uniform on [0.2, 0.5): mean 0.35, standard deviation 0.3 / sqrt(12) = 0.0866
    assert abs(slopes.mean() - 0.35) < 0.01
    assert abs(slopes.std() - 0.3 / np.sqrt(12)) < 0.01
    assert len(np.unique(np.round(slopes, 3))) > 100


def test_rrelu_in_training_keeps_non_negative_values() -> None:
    x = np.abs(X)
    np.testing.assert_array_equal(F.rrelu(paddle.to_tensor(x)).numpy(), x)


def test_paddle_seed_makes_the_slopes_reproducible() -> None:
    x = paddle.to_tensor(-np.ones(64))
    paddle.seed(5)
    first = F.rrelu(x).numpy()
    second = F.rrelu(x).numpy()
    paddle.seed(5)
    again = F.rrelu(x).numpy()
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, second)


@pytest.mark.parametrize("training", [True, False])
def test_rrelu_gradient_is_the_slope(training: bool) -> None:
    x = paddle.to_tensor(X)
    x.stop_gradient = False
    out = F.rrelu(x, 0.1, 0.3, training=training)
    out.backward(paddle.to_tensor(np.full(X.shape, 2.0)))
    slopes = np.where(X >= 0, 1.0, out.numpy() / np.where(X == 0, 1, X))
    np.testing.assert_allclose(x.grad.numpy(), 2.0 * slopes, rtol=1e-12)


@op_test("rrelu", kind="edge")
def test_rrelu_edges() -> None:
    # 0-D, empty, NaN and infinities, a non-contiguous view
    assert rrelu_op(paddle.to_tensor(np.array(-2.0)), 0.5, 0.5, True).numpy() == -1.0
    empty = rrelu_op(paddle.to_tensor(np.zeros((0, 3))), 0.1, 0.3, False)
    assert empty.shape == [0, 3]
    special = np.array([np.nan, np.inf, -np.inf, -0.0])
    out = rrelu_op(paddle.to_tensor(special), 0.25, 0.25, True).numpy()
    np.testing.assert_array_equal(out[:3], [np.nan, np.inf, -np.inf])
    assert out[3] == 0.0
    view = paddle.to_tensor(X)[:, ::2]
    np.testing.assert_allclose(
        rrelu_op(view, 0.1, 0.3, True).numpy(), reference(X[:, ::2], 0.2), rtol=1e-6
    )


@pytest.mark.parametrize(
    "lower, upper, match",
    [
        (-0.1, 0.3, "'lower' must be in \\[0, 1\\]"),
        (0.5, 0.2, "'upper' must be >= "),
        (0.5, 1.5, "'upper'"),
    ],
)
def test_bad_bounds_name_the_argument(lower: float, upper: float, match: str) -> None:
    x = paddle.to_tensor(X)
    with pytest.raises(InvalidArgumentError, match=match):
        rrelu_op(x, lower, upper, False)
    with pytest.raises(InvalidArgumentError, match=match):
        F.rrelu(x, lower, upper)


def test_rrelu_bounds_must_be_floats_and_x_a_tensor() -> None:
    with pytest.raises(InvalidArgumentError, match="must be floats"):
        F.rrelu(paddle.to_tensor(X), 0, 1)
    with pytest.raises(InvalidArgumentError, match="must be a Tensor"):
        F.rrelu(X)


def test_rrelu_layer_draws_in_train_mode_and_uses_the_mean_in_eval() -> None:
    layer = paddle.nn.RReLU(0.1, 0.3)
    x = paddle.to_tensor(-np.ones(200))
    assert len(np.unique(layer(x).numpy())) > 50
    layer.eval()
    np.testing.assert_allclose(layer(x).numpy(), np.full(200, -0.2), rtol=1e-6)
    assert "lower=0.1, upper=0.3" in repr(layer)
