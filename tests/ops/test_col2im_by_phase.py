"""col2im of a strided, undilated convolution (transposed convolutions' forward, convolutions'
input gradients) adds each block of kernel phases at once; the sums must be those of the
per-tap loop to the bit, for every rank, group count, layout, padding and kernel/stride ratio
(kernel a multiple of the stride, not one, smaller than it)."""

from __future__ import annotations

import numpy as np
import pytest

from phiops.runtime.kernels.impl import conv_grad_kernel
from phiops.runtime.kernels.impl.conv_kernel import ConvGeometry

CASES = [
    # x shape (channels first), filter shape, strides, paddings, groups
    ((1, 3, 8, 8), (3, 3, 16, 16), (8, 8), (4, 4), 1),
    ((2, 4, 5, 6), (4, 2, 3, 3), (2, 2), (1, 1), 1),
    ((1, 2, 7, 5), (2, 3, 4, 5), (3, 2), (0, 0), 1),
    ((1, 4, 6, 6), (4, 1, 2, 2), (3, 3), (0, 0), 4),  # kernel smaller than the stride
    ((2, 4, 9), (4, 3, 5), (2,), (2,), 2),
    ((1, 2, 3, 4, 5), (2, 2, 2, 3, 4), (2, 1, 3), (0, 1, 1), 1),
]


@pytest.mark.parametrize("channel_last", [False, True], ids=["NC..", "N..C"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"k{c[1][2:]}-s{c[2]}-g{c[4]}")
def test_the_phase_blocks_sum_as_the_taps_do(case, channel_last) -> None:
    x_shape, filter_shape, strides, paddings, groups = case
    rank = len(strides)
    formats = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}[rank]
    if channel_last:
        x_shape = (x_shape[0],) + x_shape[2:] + (x_shape[1],)
    # the convolution whose input gradient this is: its input is x_shape, dilation 1
    geometry = ConvGeometry(
        x_shape, filter_shape, strides, paddings, "EXPLICIT", (1,) * rank, groups,
        formats[channel_last],
    )  # fmt: skip
    n, c = x_shape[0], x_shape[-1] if channel_last else x_shape[1]
    spatial = x_shape[1:-1] if channel_last else x_shape[2:]
    dcols = (
        np.random.default_rng(3)
        .standard_normal((n,) + geometry.out + geometry.kernel + (groups, c // groups))
        .astype(np.float32)
    )
    x_last = (n,) + tuple(spatial) + (c,)
    by_phase = conv_grad_kernel.col2im(np, dcols, x_last, geometry)
    padded_shape = (
        (n,)
        + tuple(size + p0 + p1 for size, (p0, p1) in zip(spatial, geometry.pads))
        + (groups, c // groups)
    )
    by_tap = conv_grad_kernel._col2im_by_tap(np, dcols, padded_shape, geometry)
    crop = (slice(None),) + tuple(slice(p0, p0 + s) for s, (p0, _) in zip(spatial, geometry.pads))
    np.testing.assert_array_equal(by_phase, by_tap[crop].reshape(x_last))
    assert any(s > 1 for s in strides)  # so col2im took the phase blocks
