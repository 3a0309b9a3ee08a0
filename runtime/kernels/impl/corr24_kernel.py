"""Kernel of the corr24 op (issue 24): ``correlation``, FlowNet's cost volume (PWC-Net, FlowNet).

PaddlePaddle 3.3.1 registers ``correlation`` on CPU for float32 and float64, but that CPU kernel
refuses to run ("Correlation only supports GPU now", paddle/phi/kernels/cpu/
correlation_kernel.cc); phiops computes on the CPU (and on the GPU, through CuPy) what 3.3.1's GPU
kernel computes (paddle/phi/kernels/gpu/correlation_kernel.cu):

- both inputs are zero-padded by ``pad_size`` on each side of H and W;
- output position ``(oh, ow)`` is centred at ``(y, x) = (oh * stride1 + max_displacement,
  ow * stride1 + max_displacement)`` of the padded input1;
- for displacement ``(dy, dx) = (ty * stride2, tx * stride2)``, ``ty, tx`` in ``[-r, r]``,
  ``r = max_displacement // stride2``, output channel ``(ty + r) * (2r + 1) + tx + r`` holds the
  sum over the channels and over the window offsets ``j, i`` in ``[-kr, kr]``, ``kr =
  (kernel_size - 1) // 2``, of ``input1[y + j, x + i] * input2[y + dy + j, x + dx + i]``,
  divided by ``kernel_size ** 2 * C`` (an even kernel_size therefore sums the window of the odd
  size below it but divides by its own square, as PaddlePaddle's does; C = 0 gives 0 / 0, NaN).

``corr_type_multiply`` is ignored, as PaddlePaddle's kernel ignores it. Where the window reaches
outside the padded input (a kernel_size above 1 with ``max_displacement`` or ``pad_size`` too
small for it), PaddlePaddle's GPU kernel reads neighbouring memory (the previous row, or before
the buffer); phiops reads zeros there.

Vectorised: the inputs are padded once more by ``kr`` so that every window lies inside; for each
of the ``(2r + 1) ** 2`` displacements one product of input1 with shifted input2, summed over the
channels, gives a map over the span of the windows, and ``kernel_size ** 2`` strided slices of
those maps add up the windows.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

__all__ = ["correlation_kernel", "correlation_geometry"]


class CorrelationGeometry:
    """The extents and offsets correlation and its grad share, for input dims ``[N, C, H, W]``."""

    def __init__(
        self,
        dims: tuple[int, ...],
        pad_size: int,
        kernel_size: int,
        max_displacement: int,
        stride1: int,
        stride2: int,
    ) -> None:
        _, channels, height, width = dims
        self.kr = (kernel_size - 1) // 2
        self.window = 2 * self.kr + 1
        self.radius = max_displacement // stride2
        self.side = 2 * self.radius + 1
        border = self.kr + max_displacement
        self.oh = max(-(-(height + 2 * pad_size - 2 * border) // stride1), 0)
        self.ow = max(-(-(width + 2 * pad_size - 2 * border) // stride1), 0)
        # the rows/columns the windows of input1 span, from `start` of the twice-padded input
        self.span_h = (self.oh - 1) * stride1 + self.window
        self.span_w = (self.ow - 1) * stride1 + self.window
        self.start = max_displacement  # paddle's max_displacement - kr, plus the extra kr
        self.margin = pad_size + self.kr  # zeros around the input in the twice-padded one
        self.stride1 = stride1
        self.stride2 = stride2
        self.nelems = kernel_size * kernel_size * channels

    def displacements(self) -> list[tuple[int, int]]:
        """(dy, dx) of each output channel, in order."""
        r, s = self.radius, self.stride2
        return [(ty * s, tx * s) for ty in range(-r, r + 1) for tx in range(-r, r + 1)]

    def window_slices(self) -> list[tuple[slice, slice]]:
        """For each window offset, the strided slices of a span map that land on the outputs."""
        s = self.stride1
        stop_h, stop_w = (self.oh - 1) * s + 1, (self.ow - 1) * s + 1
        return [
            (slice(j, j + stop_h, s), slice(i, i + stop_w, s))
            for j in range(self.window)
            for i in range(self.window)
        ]

    def pad(self, xp, x: Array) -> Array:
        m = self.margin
        return xp.pad(x, ((0, 0), (0, 0), (m, m), (m, m)))

    def region(self, dy: int = 0, dx: int = 0) -> tuple[slice, ...]:
        """The span of the windows in the twice-padded input, shifted by (dy, dx)."""
        y, x = self.start + dy, self.start + dx
        return (slice(None), slice(None), slice(y, y + self.span_h), slice(x, x + self.span_w))


def correlation_geometry(
    dims: tuple[int, ...],
    pad_size: int,
    kernel_size: int,
    max_displacement: int,
    stride1: int,
    stride2: int,
) -> CorrelationGeometry:
    return CorrelationGeometry(dims, pad_size, kernel_size, max_displacement, stride1, stride2)


# PaddlePaddle 3.3.1 registers correlation on CPU (and GPU) for float32 and float64.
@register_kernel("correlation", dtypes=(DataType.FLOAT32, DataType.FLOAT64))
def correlation_kernel(
    ctx: KernelContext,
    input1: Array,
    input2: Array,
    pad_size: int,
    kernel_size: int,
    max_displacement: int,
    stride1: int,
    stride2: int,
    corr_type_multiply: int,
) -> Array:
    xp = ctx.xp
    geo = correlation_geometry(
        input1.shape, pad_size, kernel_size, max_displacement, stride1, stride2
    )
    moves = geo.displacements()
    n = input1.shape[0]
    out = xp.zeros((n, len(moves), geo.oh, geo.ow), dtype=input1.dtype)
    if out.size == 0:
        return out
    padded1, padded2 = geo.pad(xp, input1), geo.pad(xp, input2)
    first = padded1[geo.region()]
    # maps[:, t] = sum over channels of input1 * input2 shifted by displacement t, over the span
    maps = xp.empty((n, len(moves), geo.span_h, geo.span_w), dtype=input1.dtype)
    for t, (dy, dx) in enumerate(moves):
        maps[:, t] = (first * padded2[geo.region(dy, dx)]).sum(axis=1)
    for rows, cols in geo.window_slices():
        out += maps[:, :, rows, cols]
    with np.errstate(invalid="ignore", divide="ignore"):
        out /= input1.dtype.type(geo.nelems)
    return out
