"""Transposed convolution against PaddlePaddle's generated ops (``paddle._C_ops``) on
the same inputs: forward outputs and the gradients of ``sum(out * g)`` for x and filter. Runs
only where PaddlePaddle is installed.

Known differences, not compared here:
- ``data_format="NDHWC"``: PHI puts channels last only for "NHWC" (also for 5-D inputs, which
  is what paddle.nn.functional.conv3d_transpose passes) and reads "NDHWC" as channels first;
  phiops reads it as channels last.
- ``output_padding`` >= stride (allowed when dilation > stride): PaddlePaddle 3.3.1's CPU kernel
  fails in im2col ("Output_height and padding ... are inconsistent"); phiops computes it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402

RNG = np.random.default_rng(81)


def floats(*shape: int, dtype: str = "float32") -> np.ndarray:
    return RNG.uniform(-2, 2, shape).astype(dtype)


# (case id, op, x, filter, attributes after x and filter)
CASES: list[tuple[str, str, np.ndarray, np.ndarray, list[Any]]] = []


def add(case_id: str, op: str, x: np.ndarray, w: np.ndarray, attrs: list[Any]) -> None:
    CASES.append((case_id, op, x, w, attrs))


x4 = floats(2, 4, 5, 6)
add(
    "basic",
    "conv2d_transpose",
    x4,
    floats(4, 3, 3, 3),
    [[1, 1], [0, 0], [], [], "EXPLICIT", 1, [1, 1], "NCHW"],
)
add(
    "stride-pad",
    "conv2d_transpose",
    x4,
    floats(4, 3, 3, 2),
    [[2, 3], [1, 2], [], [], "EXPLICIT", 1, [1, 1], "NCHW"],
)
add(
    "asym-pad",
    "conv2d_transpose",
    x4,
    floats(4, 2, 3, 3),
    [[2, 1], [1, 0, 2, 1], [], [], "EXPLICIT", 1, [1, 1], "NCHW"],
)
add(
    "groups-dilation",
    "conv2d_transpose",
    x4,
    floats(4, 3, 2, 3),
    [[1, 2], [1, 1], [], [], "EXPLICIT", 2, [2, 1], "NCHW"],
)
add(
    "output-padding",
    "conv2d_transpose",
    x4,
    floats(4, 3, 3, 3),
    [[2, 3], [1, 1], [1, 2], [], "EXPLICIT", 1, [1, 1], "NCHW"],
)
add(
    "output-size",
    "conv2d_transpose",
    x4,
    floats(4, 3, 3, 3),
    [[2, 3], [1, 1], [], [10, 18], "EXPLICIT", 1, [1, 1], "NCHW"],
)
add(
    "same",
    "conv2d_transpose",
    x4,
    floats(4, 3, 3, 2),
    [[2, 2], [0, 0], [], [], "SAME", 1, [2, 2], "NCHW"],
)
add(
    "valid",
    "conv2d_transpose",
    x4,
    floats(4, 3, 2, 2),
    [[1, 2], [3, 3], [], [], "VALID", 1, [1, 1], "NCHW"],
)
add(
    "nhwc",
    "conv2d_transpose",
    floats(2, 5, 6, 4),
    floats(4, 3, 3, 3),
    [[2, 1], [1, 0], [1, 0], [], "EXPLICIT", 2, [1, 1], "NHWC"],
)
add(
    "float64",
    "conv2d_transpose",
    floats(1, 2, 4, 3, dtype="float64"),
    floats(2, 2, 3, 3, dtype="float64"),
    [[2, 2], [1, 1], [], [], "EXPLICIT", 1, [2, 2], "NCHW"],
)
add(
    "depthwise",
    "depthwise_conv2d_transpose",
    x4,
    floats(4, 1, 3, 3),
    [[1, 1], [1, 1], [], [], "EXPLICIT", 4, [1, 1], "NCHW"],
)
add(
    "depthwise-stride-nhwc",
    "depthwise_conv2d_transpose",
    floats(2, 5, 6, 4),
    floats(4, 2, 3, 3),
    [[2, 2], [1, 1], [], [], "EXPLICIT", 4, [1, 1], "NHWC"],
)
x5 = floats(1, 2, 3, 4, 5)
add(
    "3d",
    "conv3d_transpose",
    x5,
    floats(2, 3, 2, 2, 2),
    [[1, 1, 1], [0, 0, 0], [], [], "EXPLICIT", 1, [1, 1, 1], "NCDHW"],
)
add(
    "3d-stride-pad-groups",
    "conv3d_transpose",
    x5,
    floats(2, 2, 3, 2, 3),
    [[2, 1, 2], [1, 0, 1], [1, 0, 0], [], "EXPLICIT", 2, [1, 2, 1], "NCDHW"],
)
add(
    "3d-output-size-same",
    "conv3d_transpose",
    x5,
    floats(2, 3, 2, 3, 2),
    [[2, 2, 1], [0, 0, 0], [], [6, 8, 5], "SAME", 1, [1, 1, 1], "NCDHW"],
)
add(
    "3d-nhwc",
    "conv3d_transpose",
    floats(1, 3, 4, 5, 2),
    floats(2, 3, 2, 2, 2),
    [[1, 2, 1], [1, 1, 0], [], [], "EXPLICIT", 1, [1, 1, 1], "NHWC"],
)
add(
    "3d-float64",
    "conv3d_transpose",
    floats(1, 2, 2, 3, 3, dtype="float64"),
    floats(2, 1, 2, 2, 2, dtype="float64"),
    [[2, 2, 2], [0, 1, 0, 1, 1, 0], [], [], "EXPLICIT", 1, [1, 1, 1], "NCDHW"],
)


def tolerance(dtype: np.dtype) -> dict[str, float]:
    return {"rtol": 2e-4, "atol": 2e-4} if dtype == np.float32 else {"rtol": 1e-10, "atol": 1e-10}


@pytest.mark.parametrize("case_id, op, x, w, attrs", CASES, ids=[c[0] for c in CASES])
def test_forward_and_gradients_equal_paddle(case_id, op, x, w, attrs):
    phi_x, phi_w = (phi.to_tensor(a.copy(), stop_gradient=False) for a in (x, w))
    pd_x, pd_w = (paddle.to_tensor(a.copy(), stop_gradient=False) for a in (x, w))
    phi_out = getattr(phi, op)(phi_x, phi_w, *attrs)
    pd_out = getattr(paddle._C_ops, op)(pd_x, pd_w, *attrs)
    got, want = phi_out.numpy(), pd_out.numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, **tolerance(want.dtype))
    g = RNG.standard_normal(want.shape).astype(x.dtype)
    (phi_out * phi.to_tensor(g)).sum().backward()
    (pd_out * paddle.to_tensor(g)).sum().backward()
    np.testing.assert_allclose(phi_x.grad.numpy(), pd_x.grad.numpy(), **tolerance(x.dtype))
    np.testing.assert_allclose(phi_w.grad.numpy(), pd_w.grad.numpy(), **tolerance(x.dtype))


@pytest.mark.parametrize(
    "attrs",
    [
        [[2, 2], [0, 0], [], [8, 8], "EXPLICIT", 1, [1, 1], "NCHW"],  # output_size too large
        [[2, 2], [0, 0], [], [5, 5], "EXPLICIT", 1, [1, 1], "NCHW"],  # output_size too small
        [[2, 2], [0, 0], [2, 2], [], "EXPLICIT", 1, [1, 1], "NCHW"],  # output_padding >= stride
        [[1, 1], [0, 0], [], [6], "EXPLICIT", 1, [1, 1], "NCHW"],  # one output_size for 2 dims
    ],
)
def test_both_reject_the_same_bad_sizes(attrs):
    x, w = floats(1, 2, 3, 3), floats(2, 3, 2, 2)
    with pytest.raises(ValueError):
        paddle._C_ops.conv2d_transpose(paddle.to_tensor(x), paddle.to_tensor(w), *attrs)
    with pytest.raises(phi.InvalidArgumentError):
        phi.conv2d_transpose(phi.to_tensor(x), phi.to_tensor(w), *attrs)
