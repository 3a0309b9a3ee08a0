"""FLAGS_max_alloc_bytes bounds a kernel's scratch memory as well as its outputs: conv's im2col
column matrices (forward, gradient, transpose and its gradient), pooling's padded input and
gathered windows, and interpolation's weight matrices are refused before they are allocated,
with a `ResourceExhaustedError` naming the op, the buffer and its size. Every call here has
outputs well under the limit; only the scratch is over it."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import ResourceExhaustedError
from phiops.runtime.flags import flags_guard

LIMIT = 1 << 20  # 1 MiB; the column matrices below need 1,638,400 bytes
COLUMNS = r"its im2col column matrix of shape \[1024, 400\] needs 1638400 bytes of scratch memory, "
OVER = rf"more than FLAGS_max_alloc_bytes={LIMIT}"


def _tensor(*shape: int, grad: bool = False) -> phi.Tensor:
    tensor = phi.to_tensor(np.random.default_rng(0).random(shape, dtype=np.float32))
    tensor.stop_gradient = not grad
    return tensor


def test_conv2d_refuses_an_im2col_matrix_over_the_limit() -> None:
    x, w = _tensor(1, 16, 32, 32), _tensor(16, 16, 5, 5)
    with flags_guard({"max_alloc_bytes": LIMIT}):
        with pytest.raises(ResourceExhaustedError, match=rf"^conv2d\(\): {COLUMNS}{OVER}$"):
            phi.conv2d(x, w, paddings=[2, 2])


def test_conv2d_channels_last_refuses_an_im2col_matrix_over_the_limit() -> None:
    x, w = _tensor(1, 32, 32, 16), _tensor(16, 16, 5, 5)
    with flags_guard({"max_alloc_bytes": LIMIT}):
        with pytest.raises(ResourceExhaustedError, match=rf"^conv2d\(\): {COLUMNS}"):
            phi.conv2d(x, w, paddings=[2, 2], data_format="NHWC")


def test_depthwise_conv2d_is_named_as_itself() -> None:
    x, w = _tensor(1, 16, 64, 64), _tensor(16, 1, 5, 5)
    with flags_guard({"max_alloc_bytes": 300_000}):
        with pytest.raises(ResourceExhaustedError, match=r"^depthwise_conv2d\(\): its im2col"):
            phi.depthwise_conv2d(x, w, paddings=[2, 2], groups=16)


def test_conv2d_grad_refuses_a_column_matrix_over_the_limit() -> None:
    x, w = _tensor(1, 16, 32, 32, grad=True), _tensor(16, 16, 5, 5, grad=True)
    out = phi.conv2d(x, w, paddings=[2, 2])
    with flags_guard({"max_alloc_bytes": LIMIT}):
        with pytest.raises(ResourceExhaustedError, match=rf"^conv2d_grad\(\): {COLUMNS}{OVER}$"):
            out.sum().backward()


def test_conv2d_transpose_and_its_grad_refuse_a_column_matrix_over_the_limit() -> None:
    x, w = _tensor(1, 16, 32, 32, grad=True), _tensor(16, 16, 5, 5, grad=True)
    with flags_guard({"max_alloc_bytes": LIMIT}):
        with pytest.raises(ResourceExhaustedError, match=rf"^conv2d_transpose\(\): {COLUMNS}"):
            phi.conv2d_transpose(x, w, paddings=[2, 2])
    out = phi.conv2d_transpose(x, w, paddings=[2, 2])
    with flags_guard({"max_alloc_bytes": LIMIT}):
        with pytest.raises(ResourceExhaustedError, match=r"^conv2d_transpose_grad\(\): its im2col"):
            out.sum().backward()


def test_convolutions_under_the_limit_are_unchanged() -> None:
    x, w = _tensor(1, 16, 32, 32), _tensor(16, 16, 5, 5)
    expected = phi.conv2d(x, w, paddings=[2, 2]).numpy()
    with flags_guard({"max_alloc_bytes": 2 * LIMIT}):
        np.testing.assert_array_equal(phi.conv2d(x, w, paddings=[2, 2]).numpy(), expected)


def test_pool2d_refuses_a_padded_input_over_the_limit() -> None:
    x = _tensor(1, 1, 64, 64)
    with flags_guard({"max_alloc_bytes": LIMIT}):
        with pytest.raises(
            ResourceExhaustedError,
            match=r"^pool2d\(\): its padded input of shape \[1, 1, 1003, 1003\] needs 4024036 "
            r"bytes of scratch memory",
        ):
            phi.pool2d(
                x,
                [3, 3],
                [500, 500],
                [500, 500],
                False,
                True,
                "NCHW",
                "avg",
                False,
                False,
                "EXPLICIT",
            )


def test_max_pool2d_with_index_refuses_gathered_windows_over_the_limit() -> None:
    x = _tensor(1, 1, 128, 128)
    with flags_guard({"max_alloc_bytes": LIMIT}):
        with pytest.raises(
            ResourceExhaustedError,
            match=r"^max_pool2d_with_index\(\): its gathered windows of shape "
            r"\[1, 1, 128, 128, 5, 5\] needs 1638400 bytes",
        ):
            phi.max_pool2d_with_index(x, [5, 5], [1, 1], [2, 2])


def test_bilinear_interp_grad_refuses_a_weight_matrix_over_the_limit() -> None:
    x = _tensor(1, 1, 4, 1000, grad=True)
    out = phi.bilinear_interp(x, out_h=4, out_w=1000)
    with flags_guard({"max_alloc_bytes": LIMIT}):
        with pytest.raises(
            ResourceExhaustedError,
            match=r"^bilinear_interp_grad\(\): its interpolation weight matrix of shape "
            r"\[1000, 1000\] needs 8000000 bytes",
        ):
            out.sum().backward()
