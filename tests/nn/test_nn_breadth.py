"""The activations and padding of paddle.nn.functional / paddle.nn (runtime/nn/activation.py,
runtime/nn/padding.py) against PaddlePaddle 3.3.1's results and input gradients, recorded by
tests/tools/make_nn_breadth_fixtures.py from the same case table (tests/tools/nn_breadth_cases.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError
from tests.tools.nn_breadth_cases import cases

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "nn_breadth" / "paddle_3_3_1.json").read_text()
)
X, FUNCTIONS, LAYERS = cases(paddle)
F = paddle.nn.functional


def run(fn: Any, array: np.ndarray) -> tuple[np.ndarray, str, np.ndarray]:
    x = paddle.to_tensor(array)
    x.stop_gradient = False
    out = fn(x)
    weights = paddle.to_tensor(
        np.linspace(0.5, 1.5, out.size).astype(out.numpy().dtype).reshape(out.shape)
    )
    (out * weights).sum().backward()
    return out.numpy(), str(out.dtype).split(".")[-1], x.grad.numpy()


def check(got: tuple[np.ndarray, str, np.ndarray], recorded: dict) -> None:
    out, dtype, grad = got
    assert dtype == recorded["dtype"]
    np.testing.assert_allclose(out, np.array(recorded["out"]), rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(grad, np.array(recorded["grad"]), rtol=2e-5, atol=2e-6)


def test_the_input_is_the_recorded_one() -> None:
    np.testing.assert_array_equal(X, np.array(DATA["X"], np.float32))


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_function_matches_paddle(name: str) -> None:
    fn, array = FUNCTIONS[name]
    check(run(fn, array), DATA["functions"][name])


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_matches_paddle(name: str) -> None:
    make, array = LAYERS[name]
    check(run(make(), array), DATA["layers"][name])


def test_every_case_was_recorded() -> None:
    assert set(FUNCTIONS) == set(DATA["functions"])
    assert set(LAYERS) == set(DATA["layers"])


def test_one_hot_matches_paddle() -> None:
    out = F.one_hot(paddle.to_tensor(np.array([[0, 3], [2, 1]], np.int64)), 4)
    np.testing.assert_array_equal(out.numpy(), np.array(DATA["one_hot"], np.float32))
    assert out.dtype == paddle.float32


def test_prelu_layer_learns_one_weight_per_channel() -> None:
    layer = paddle.nn.PReLU(3, init=0.1)
    assert layer.weight.shape == [3] and not layer.weight.stop_gradient
    np.testing.assert_array_equal(layer.weight.numpy(), np.full(3, 0.1, np.float32))
    assert "num_parameters=3" in repr(layer)


def test_inplace_variants_write_into_x() -> None:
    for fn, ref in [
        (lambda t: F.elu_(t, 0.5), lambda a: np.where(a > 0, a, 0.5 * (np.exp(a) - 1))),
        (lambda t: F.leaky_relu_(t, 0.1), lambda a: np.where(a >= 0, a, 0.1 * a)),
        (lambda t: F.hardtanh_(t, -1.0, 0.5), lambda a: np.clip(a, -1.0, 0.5)),
        (F.relu_, lambda a: np.maximum(a, 0)),
        (lambda t: F.silu(t, inplace=True), lambda a: a / (1 + np.exp(-a))),
    ]:
        x = paddle.to_tensor(X.copy())
        out = fn(x)
        np.testing.assert_allclose(x.numpy(), ref(X), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(out.numpy(), x.numpy())


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: F.celu(paddle.to_tensor(X), alpha=0.0), ZeroDivisionError, "alpha cannot be 0"),
        (lambda: F.selu(paddle.to_tensor(X), scale=1.0), ValueError, "scale must be greater"),
        (lambda: F.softshrink(paddle.to_tensor(X), -1.0), ValueError, "no less than zero"),
        (lambda: F.elu_(paddle.to_tensor(X), -0.5), InvalidArgumentError, "alpha must be >= 0"),
        (lambda: F.glu(paddle.to_tensor(X[:, :3])), InvalidArgumentError, "must be even"),
        (
            lambda: F.prelu(paddle.to_tensor(X), paddle.to_tensor(np.ones(4, np.float32))),
            InvalidArgumentError,
            "4 elements, x has 3 channels",
        ),
        (
            lambda: paddle.nn.Softmax2D()(paddle.to_tensor(X[0, 0])),
            InvalidArgumentError,
            "3-D or 4-D",
        ),
        (lambda: paddle.nn.PReLU(0), InvalidArgumentError, "positive int"),
        (lambda: F.pad(paddle.to_tensor(X), [1, 1], mode="wrap"), InvalidArgumentError, "mode"),
        (
            lambda: F.pad(paddle.to_tensor(X), [1, 1, 1], mode="reflect"),
            InvalidArgumentError,
            "takes 4 numbers",
        ),
        (
            lambda: F.pad(paddle.to_tensor(X[0, 0]), [1, 1, 1, 1], mode="reflect"),
            InvalidArgumentError,
            "must be in \\[3, 4, 5\\]",
        ),
        (
            lambda: F.pad(paddle.to_tensor(X), [1, 1, 1, 1], mode="reflect", data_format="NCL"),
            InvalidArgumentError,
            "data format should be in",
        ),
        (
            lambda: F.pad(paddle.to_tensor(X), [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
            InvalidArgumentError,
            "at most 8",
        ),
        (lambda: paddle.nn.Pad2D([1, 2]), InvalidArgumentError, "4 ints"),
        (lambda: F.pad(paddle.to_tensor(X), [1.5, 0, 0, 0]), InvalidArgumentError, "ints"),
    ],
)
def test_bad_arguments_name_what_was_wrong(call: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        call()


def test_gumbel_softmax_samples_sum_to_one_and_hard_is_one_hot_with_the_soft_gradient() -> None:
    # random: properties here (tests/ops/test_rng24.py compares the values with PaddlePaddle's)
    paddle.seed(7)
    logits = np.log(np.array([[0.05, 0.05, 0.9]] * 400, dtype="float32"))
    soft = F.gumbel_softmax(paddle.to_tensor(logits), temperature=0.5).numpy()
    np.testing.assert_allclose(soft.sum(-1), 1.0, rtol=1e-5)
    assert (soft > 0).all()
    # the argmax of x + Gumbel noise is a draw of softmax(x): the 0.9 category about 90% of rows
    assert 0.82 < (soft.argmax(-1) == 2).mean() < 0.97
    x = paddle.to_tensor(np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]]))
    x.stop_gradient = False
    hard = F.gumbel_softmax(x, temperature=2.0, hard=True, axis=1)
    assert sorted(np.unique(hard.numpy()).tolist()) == [0.0, 1.0]
    np.testing.assert_array_equal(hard.numpy().sum(1), [1.0, 1.0])
    # PaddlePaddle 3.3.1's gradient is the softmax's through the returned sample: zero for the
    # one-hot (its documentation's straight-through estimator is not what its kernel does)
    weights = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    (hard * paddle.to_tensor(weights)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((2, 3)))
    x.clear_gradient()
    soft = F.gumbel_softmax(x, temperature=2.0, axis=1)
    (soft * paddle.to_tensor(weights)).sum().backward()
    out = soft.numpy()
    # softmax's gradient through the sample, not divided by the temperature (as 3.3.1's kernel)
    expected = out * (weights - (weights * out).sum(1, keepdims=True))
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-12, atol=1e-15)
    with pytest.raises(InvalidArgumentError, match="temperature"):
        F.gumbel_softmax(x, temperature=0.0)


def test_temporal_shift_moves_a_channel_share_between_segments() -> None:
    # N=1, T=3 segments, C=4 channels, shift_ratio 0.25: channel 0 takes the previous segment's
    # values, channel 1 the next segment's, channels 2-3 stay (numpy reference)
    x = np.arange(3 * 4 * 1 * 2, dtype="float32").reshape(3, 4, 1, 2)
    expected = x.copy()
    expected[:, 0] = np.concatenate([np.zeros_like(x[:1, 0]), x[:-1, 0]])
    expected[:, 1] = np.concatenate([x[1:, 1], np.zeros_like(x[:1, 1])])
    out = F.temporal_shift(paddle.to_tensor(x), seg_num=3, shift_ratio=0.25)
    np.testing.assert_array_equal(out.numpy(), expected)
    nhwc = F.temporal_shift(paddle.to_tensor(x.transpose(0, 2, 3, 1)), 3, data_format="NHWC")
    np.testing.assert_array_equal(nhwc.numpy(), expected.transpose(0, 2, 3, 1))
    with pytest.raises(ValueError, match="should be 'NCHW' or 'NHWC'"):
        F.temporal_shift(paddle.to_tensor(x), 3, data_format="NCDHW")
