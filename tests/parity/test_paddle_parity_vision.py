"""The vision ops and their ``paddle.nn.functional`` functions against PaddlePaddle 3.3.1 run
live (pixel_shuffle, pixel_unshuffle, channel_shuffle): forward results and the gradient of
``sum(out * g)`` for random inputs of both data formats and dtypes, and the same refusals of
bad arguments. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phiops_paddle  # noqa: E402
import phiops.nn.functional as F  # noqa: E402

RNG = np.random.default_rng(91)

# (function name, input shape, positional arguments after x)
CASES = [
    ("pixel_shuffle", (2, 8, 3, 5), (2,)),
    ("pixel_shuffle", (1, 27, 2, 2), (3, "NCHW")),
    ("pixel_shuffle", (2, 3, 5, 4), (2, "NHWC")),
    ("pixel_unshuffle", (2, 3, 4, 6), (2,)),
    ("pixel_unshuffle", (1, 6, 9, 2), (3, "NHWC")),
    ("channel_shuffle", (2, 12, 3, 2), (4,)),
    ("channel_shuffle", (2, 12, 3, 2), (6,)),
    ("channel_shuffle", (1, 2, 3, 10), (5, "NHWC")),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name, shape, args", CASES, ids=lambda v: str(v).replace(" ", ""))
def test_result_and_gradient_match_paddle(name: str, shape, args, dtype: str) -> None:
    x_np = RNG.uniform(-3, 3, size=shape).astype(dtype)
    theirs_x = paddle.to_tensor(x_np, stop_gradient=False)
    theirs = getattr(paddle.nn.functional, name)(theirs_x, *args)
    g_np = RNG.uniform(-1, 1, size=theirs.shape).astype(dtype)
    (theirs_grad,) = paddle.grad(theirs, theirs_x, paddle.to_tensor(g_np))

    ours_x = phiops_paddle.to_tensor(x_np, stop_gradient=False)
    ours = getattr(F, name)(ours_x, *args)
    (ours_grad,) = phiops_paddle.grad(ours, [ours_x], grad_outputs=phiops_paddle.to_tensor(g_np))
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    np.testing.assert_array_equal(ours_grad.numpy(), theirs_grad.numpy())


@pytest.mark.parametrize(
    "name, shape, args",
    [
        ("pixel_shuffle", (1, 7, 2, 2), (2,)),
        ("pixel_shuffle", (1, 8, 2), (2,)),
        ("pixel_unshuffle", (1, 1, 3, 4), (2,)),
        ("pixel_unshuffle", (1, 1, 4, 4), (0,)),
        ("channel_shuffle", (1, 6, 2, 2), (4,)),
        ("channel_shuffle", (1, 6, 2, 2), (0,)),
    ],
)
def test_both_refuse_bad_arguments_with_a_value_error(name: str, shape, args) -> None:
    x_np = np.zeros(shape, np.float32)
    with pytest.raises(ValueError):
        getattr(paddle.nn.functional, name)(paddle.to_tensor(x_np), *args)
    with pytest.raises(ValueError):
        getattr(F, name)(phiops_paddle.to_tensor(x_np), *args)
