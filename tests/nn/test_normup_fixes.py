"""Two fixes found after the normup branch: F.pad builds into a static program (x a Value), and
F.batch_norm in training leaves the running statistics it updates as PaddlePaddle 3.3.1 does,
stop_gradient=True (they are buffers written in place, not results of the graph). Expected
values come from numpy (np.pad, the batch's mean and variance)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

F = paddle.nn.functional
X = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5) / 7.0


def run_static(build: Any, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            fetch = build()
        return paddle.static.Executor().run(main, feed=feed, fetch_list=fetch)
    finally:
        paddle.disable_static()


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        # constant, one pair per axis from the first (the pad op)
        (
            {"pad": [0, 0, 1, 0, 2, 1, 0, 3], "value": 1.5},
            np.pad(X, [(0, 0), (1, 0), (2, 1), (0, 3)], constant_values=1.5),
        ),
        # reflect over the spatial axes of an NHWC x (the pad3d op)
        (
            {"pad": [1, 2, 0, 1], "mode": "reflect", "data_format": "NHWC"},
            np.pad(X, [(0, 0), (0, 1), (1, 2), (0, 0)], mode="reflect"),
        ),
        # replicate of NCHW: [left, right, top, bottom]
        (
            {"pad": [2, 0, 1, 1], "mode": "replicate"},
            np.pad(X, [(0, 0), (0, 0), (1, 1), (2, 0)], mode="edge"),
        ),
    ],
    ids=["constant", "reflect-nhwc", "replicate"],
)
def test_pad_builds_into_a_static_program(kwargs: dict, expected: np.ndarray) -> None:
    def build() -> list[Any]:
        x = paddle.static.data("x", list(X.shape), "float32")
        return [F.pad(x, **kwargs)]

    (out,) = run_static(build, {"x": X})
    np.testing.assert_array_equal(out, expected.astype(np.float32))
    # and eagerly the same
    np.testing.assert_array_equal(F.pad(paddle.to_tensor(X), **kwargs).numpy(), expected)


def test_pad_in_a_static_program_names_what_it_cannot_take() -> None:
    def build_with_value_pad() -> list[Any]:
        x = paddle.static.data("x", list(X.shape), "float32")
        pads = paddle.static.data("pads", [4], "int32")
        return [F.pad(x, pads, mode="reflect")]

    with pytest.raises(UnimplementedError, match="pad: pad given as a Value"):
        run_static(build_with_value_pad, {})
    with pytest.raises(InvalidArgumentError, match="pad: x must be a Tensor, got ndarray"):
        F.pad(X, [1, 1, 1, 1])


def _running(layer: Any) -> tuple[Any, Any]:
    return layer._mean, layer._variance


@pytest.mark.parametrize("make", ["BatchNorm1D", "BatchNorm2D", "functional"])
def test_batch_norm_training_keeps_the_running_statistics_out_of_the_graph(make: str) -> None:
    x = paddle.to_tensor(X if make != "BatchNorm1D" else np.ascontiguousarray(X[:, :, 0]))
    x.stop_gradient = False
    if make == "functional":
        mean = paddle.to_tensor(np.zeros(3, np.float32))
        variance = paddle.to_tensor(np.ones(3, np.float32))
        out = F.batch_norm(x, mean, variance, training=True, momentum=0.9)
    else:
        layer = getattr(paddle.nn, make)(3)
        layer.train()
        out = layer(x)
        mean, variance = _running(layer)
    # PaddlePaddle 3.3.1: both stay stop_gradient=True after a training forward
    assert mean.stop_gradient and variance.stop_gradient
    axes = (0, 2, 3) if x.ndim == 4 else (0, 2)
    values = x.numpy()
    # the batch's mean and (biased) variance, as PaddlePaddle 3.3.1 updates them
    np.testing.assert_allclose(mean.numpy(), 0.1 * values.mean(axis=axes), rtol=1e-5)
    np.testing.assert_allclose(variance.numpy(), 0.9 + 0.1 * values.var(axis=axes), rtol=1e-5)
    # the gradient still flows to x, and backward leaves the statistics alone
    out.sum().backward()
    assert x.grad is not None and mean.grad is None and variance.grad is None
    np.testing.assert_allclose(mean.numpy(), 0.1 * values.mean(axis=axes), rtol=1e-5)
