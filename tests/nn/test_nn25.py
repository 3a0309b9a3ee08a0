"""PaddlePaddle's channel dropouts (``dropout(axis=)``, ``dropout1d/2d/3d``, ``Dropout2D/3D``),
``cosine_similarity``, ``pairwise_distance``, the reflection/replication/circular padding layers,
``Silu``, ``Unflatten`` and the torch-style aliases (runtime/nn/nn25.py) give PaddlePaddle 3.3.1's
results after the same seed (tests/data/nn25/nn25.npz, from tests/tools/make_nn25_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import PhiError
from tests.nn.nn25_cases import SEED, X4, cases

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "nn25" / "nn25.npz")
CASES = cases()


@pytest.mark.parametrize("key", sorted(CASES))
def test_equals_paddles(key: str) -> None:
    paddle.seed(SEED)
    got = CASES[key](paddle).numpy()
    expected = DATA[key]
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_aliases_are_the_same_classes() -> None:
    nn = paddle.nn
    assert nn.Module is nn.Layer and nn.ModuleList is nn.LayerList and nn.ModuleDict is nn.LayerDict
    assert nn.AdaptiveMaxPool1d is nn.AdaptiveMaxPool1D and nn.ConstantPad3d is nn.ConstantPad3D
    assert nn.ReflectionPad2d is nn.ReflectionPad2D and issubclass(nn.Conv2d, nn.Conv2D)


def test_multi_label_margin_loss_gradient_matches_finite_differences() -> None:
    from tests.nn.nn25_cases import A, MLM_LABEL

    x = paddle.to_tensor(A.astype("float64"), stop_gradient=False)
    label = paddle.to_tensor(MLM_LABEL)
    (grad,) = paddle.grad(paddle.nn.functional.multi_label_margin_loss(x, label), x)
    loss = lambda v: float(  # noqa: E731
        paddle.nn.functional.multi_label_margin_loss(paddle.to_tensor(v), label)
    )
    numeric = np.zeros_like(A, dtype="float64")
    for index in np.ndindex(A.shape):
        step = np.zeros_like(numeric)
        step[index] = 1e-6
        numeric[index] = (loss(A + step) - loss(A - step)) / 2e-6
    np.testing.assert_allclose(grad.numpy(), numeric, atol=1e-6)


def test_parameter_dict_registers_its_parameters() -> None:
    weights = paddle.nn.ParameterDict({"w": paddle.create_parameter([2], "float32")})
    weights["b"] = paddle.create_parameter([3], "float32", is_bias=True)
    assert list(weights) == ["w", "b"] and len(weights) == 2
    assert sorted(weights.state_dict()) == ["b", "w"]
    with pytest.raises(PhiError, match="element 0 must be a \\(key, parameter\\) pair"):
        weights.update([1])


def test_channel_dropout_gradient_follows_the_mask() -> None:
    paddle.seed(SEED)
    x = paddle.to_tensor(X4, stop_gradient=False)
    out = paddle.nn.functional.dropout2d(x, 0.5)
    (grad,) = paddle.grad(out.sum(), x)
    kept = out.numpy() != 0
    np.testing.assert_allclose(grad.numpy(), np.where(kept, 2.0, 0.0))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda F: F.dropout2d(paddle.ones([2, 3])), "dropout2d: x must have 4 dimensions"),
        (lambda F: F.dropout3d(paddle.ones([1, 1, 1, 1, 1]), data_format="NCHW"), "data_format"),
        (lambda F: F.dropout1d(paddle.ones([2]), 0.5), "dropout1d: expected a 2-D or 3-D"),
        (lambda F: F.dropout(paddle.ones([2, 3]), 0.5, axis=[2]), "dropout: axis values must be"),
        (lambda F: F.alpha_dropout(paddle.ones([2, 3]), 1.5), "alpha_dropout: p must be in"),
        (lambda F: F.feature_alpha_dropout(paddle.ones([3]), 0.5), "at least 2 dimensions"),
        (
            lambda F: F.multi_label_margin_loss(paddle.ones([2, 3]), paddle.to_tensor([[3, 0]])),
            "label values must be in \\[-1, 3\\)",
        ),
        (
            lambda F: F.multi_label_margin_loss(paddle.ones([3]), paddle.to_tensor([0])),
            "must be 2-D",
        ),
    ],
)
def test_bad_input_is_named(call, message: str) -> None:
    with pytest.raises(PhiError, match=message):
        call(paddle.nn.functional)
