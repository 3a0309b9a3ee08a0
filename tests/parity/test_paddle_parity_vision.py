"""The vision ops and their ``paddle.nn.functional`` functions against PaddlePaddle 3.3.1 run
live (pixel_shuffle, pixel_unshuffle, channel_shuffle, unfold, fold, affine_grid, and
``paddle.unfold``): forward results and the gradient of ``sum(out * g)`` for random inputs of
both dtypes (data formats, paddings, strides, dilations, align_corners), and the same refusals
of bad arguments. Runs only where PaddlePaddle is installed."""

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


# (function name, input shape, positional arguments after x, keyword arguments)
WINDOW_CASES = [
    ("unfold", (2, 3, 5, 6), ([2, 3],), {}),
    ("unfold", (1, 2, 7, 5), (3,), {"strides": 2, "paddings": 1, "dilations": [1, 2]}),
    ("unfold", (1, 2, 6, 6), ([2, 2],), {"paddings": [1, 0, 2, 1]}),
    ("fold", (2, 12, 12), ([4, 5], 2), {}),
    ("fold", (1, 18, 9), ([6, 5], [3, 3]), {"strides": [2, 1], "paddings": [1, 0]}),
    ("fold", (1, 8, 25), (5, 2), {"paddings": 1, "dilations": 2}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "name, shape, args, kwargs", WINDOW_CASES, ids=lambda v: str(v).replace(" ", "")
)
def test_unfold_and_fold_match_paddle(name: str, shape, args, kwargs, dtype: str) -> None:
    x_np = RNG.uniform(-3, 3, size=shape).astype(dtype)
    theirs_x = paddle.to_tensor(x_np, stop_gradient=False)
    theirs = getattr(paddle.nn.functional, name)(theirs_x, *args, **kwargs)
    g_np = RNG.uniform(-1, 1, size=theirs.shape).astype(dtype)
    (theirs_grad,) = paddle.grad(theirs, theirs_x, paddle.to_tensor(g_np))

    ours_x = phiops_paddle.to_tensor(x_np, stop_gradient=False)
    ours = getattr(F, name)(ours_x, *args, **kwargs)
    (ours_grad,) = phiops_paddle.grad(ours, [ours_x], grad_outputs=phiops_paddle.to_tensor(g_np))
    tolerance = {"rtol": 1e-6, "atol": 1e-6} if dtype == "float32" else {"rtol": 1e-13}
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), **tolerance)
    np.testing.assert_allclose(ours_grad.numpy(), theirs_grad.numpy(), **tolerance)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "theta_shape, out_shape, align_corners",
    [
        ((2, 2, 3), [2, 3, 4, 5], True),
        ((2, 2, 3), [2, 1, 3, 2], False),
        ((1, 3, 4), [1, 1, 2, 3, 4], True),
        ((2, 3, 4), [2, 2, 3, 2, 2], False),
    ],
)
def test_affine_grid_matches_paddle(theta_shape, out_shape, align_corners, dtype: str) -> None:
    theta_np = RNG.uniform(-2, 2, size=theta_shape).astype(dtype)
    theirs_theta = paddle.to_tensor(theta_np, stop_gradient=False)
    theirs = paddle.nn.functional.affine_grid(theirs_theta, out_shape, align_corners)
    g_np = RNG.uniform(-1, 1, size=theirs.shape).astype(dtype)
    (theirs_grad,) = paddle.grad(theirs, theirs_theta, paddle.to_tensor(g_np))

    ours_theta = phiops_paddle.to_tensor(theta_np, stop_gradient=False)
    ours = F.affine_grid(ours_theta, out_shape, align_corners)
    (ours_grad,) = phiops_paddle.grad(
        ours, [ours_theta], grad_outputs=phiops_paddle.to_tensor(g_np)
    )
    tolerance = (
        {"rtol": 1e-5, "atol": 1e-6} if dtype == "float32" else {"rtol": 1e-12, "atol": 1e-13}
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), **tolerance)
    np.testing.assert_allclose(ours_grad.numpy(), theirs_grad.numpy(), **tolerance)


@pytest.mark.parametrize(
    "shape, axis, size, step", [((2, 3, 4), 2, 2, 1), ((5, 3), 0, 3, 2), ((6,), -1, 6, 1)]
)
def test_paddle_unfold_matches_paddle(shape, axis: int, size: int, step: int) -> None:
    x_np = RNG.uniform(-3, 3, size=shape).astype("float32")
    theirs = paddle.unfold(paddle.to_tensor(x_np), axis, size, step)
    ours = phiops_paddle.unfold(phiops_paddle.to_tensor(x_np), axis, size, step)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
