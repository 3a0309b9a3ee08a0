"""conv2d, depthwise_conv2d and conv3d: im2col through strided windows, then one batched matmul.

The padded input is viewed (no copy) as windows [N, C, *out, *kernel] with ``as_strided``; the
windows of each group are copied once into a column matrix [groups, N * prod(out), C/groups *
prod(kernel)] (im2col), and one ``matmul`` with the filter [groups, C/groups * prod(kernel),
M/groups] gives every output channel of every group. Channels-last inputs are moved to channels
first for the windows and the output is produced directly in the requested layout. Geometry
(paddings, "SAME"/"VALID", dilations) is PHI's, from ``runtime.infermeta.spatial``.
"""

from __future__ import annotations

from typing import Any

from runtime.common import DataType
from runtime.infermeta.spatial import CHANNEL_LAST, resolve_paddings
from runtime.kernels.kernel import Array, KernelContext
from runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/conv_kernel.cc).
CONV_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


class ConvGeometry:
    """Everything about one convolution call that does not depend on the values."""

    __slots__ = ("pads", "strides", "dilations", "kernel", "out", "groups", "channel_last")

    def __init__(
        self,
        x_shape: tuple[int, ...],
        filter_shape: tuple[int, ...],
        strides: tuple[int, ...],
        paddings: tuple[int, ...],
        padding_algorithm: str,
        dilations: tuple[int, ...],
        groups: int,
        data_format: str,
    ) -> None:
        self.channel_last = data_format in CHANNEL_LAST
        spatial = tuple(x_shape[1:-1] if self.channel_last else x_shape[2:])
        self.kernel = tuple(filter_shape[2:])
        self.strides = tuple(strides)
        self.pads, self.dilations = resolve_paddings(
            paddings, padding_algorithm, spatial, self.kernel, strides, dilations
        )
        self.out = tuple(
            (size + p0 + p1 - (d * (k - 1) + 1)) // s + 1
            for size, k, d, (p0, p1), s in zip(
                spatial, self.kernel, self.dilations, self.pads, self.strides
            )
        )
        self.groups = groups


def channels_first(xp: Any, x: Array, channel_last: bool) -> Array:
    """``x`` as [N, C, *spatial]."""
    if not channel_last:
        return x
    return xp.moveaxis(x, -1, 1)


def pad_spatial(xp: Any, x: Array, pads: tuple[tuple[int, int], ...], value: float = 0) -> Array:
    """``x`` [N, C, *spatial] padded with ``value`` on the spatial dims."""
    if not any(p for pair in pads for p in pair):
        return x
    return xp.pad(x, ((0, 0), (0, 0)) + tuple(pads), constant_values=value)


def windows(
    xp: Any,
    padded: Array,
    out: tuple[int, ...],
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
) -> Array:
    """A read-only view [N, C, *out, *kernel] of the sliding windows of ``padded``."""
    step = padded.strides[2:]
    shape = padded.shape[:2] + tuple(out) + tuple(kernel)
    view_strides = (
        padded.strides[:2]
        + tuple(b * s for b, s in zip(step, strides))
        + tuple(b * d for b, d in zip(step, dilations))
    )
    return xp.lib.stride_tricks.as_strided(padded, shape, view_strides)


def im2col(xp: Any, x: Array, geometry: ConvGeometry) -> Array:
    """The column matrix [groups, N * prod(out), C/groups * prod(kernel)] of ``x``
    ([N, C, *spatial], channels first)."""
    n, c = x.shape[:2]
    g = geometry.groups
    padded = xp.ascontiguousarray(pad_spatial(xp, x, geometry.pads))
    view = windows(xp, padded, geometry.out, geometry.kernel, geometry.strides, geometry.dilations)
    rank = len(geometry.out)
    view = view.reshape((n, g, c // g) + view.shape[2:])
    # [N, G, Cg, *out, *k] -> [G, N, *out, Cg, *k]
    order = (1, 0) + tuple(range(3, 3 + rank)) + (2,) + tuple(range(3 + rank, 3 + 2 * rank))
    cols = xp.transpose(view, order)
    rows = n * _prod(geometry.out)
    return xp.ascontiguousarray(cols).reshape(g, rows, (c // g) * _prod(geometry.kernel))


def filter_matrix(filter: Array, groups: int) -> Array:
    """``filter`` [M, C/groups, *kernel] as [groups, C/groups * prod(kernel), M/groups]."""
    m = filter.shape[0]
    return filter.reshape(groups, m // groups, -1).transpose(0, 2, 1)


def output_from_matrix(
    xp: Any, result: Array, n: int, geometry: ConvGeometry, channel_last: bool
) -> Array:
    """[groups, N * prod(out), M/groups] back to [N, M, *out] (or [N, *out, M])."""
    g, _, mg = result.shape
    rank = len(geometry.out)
    result = result.reshape((g, n) + geometry.out + (mg,))
    if channel_last:  # [G, N, *out, Mg] -> [N, *out, G, Mg]
        order = (1,) + tuple(range(2, 2 + rank)) + (0, 2 + rank)
        return xp.ascontiguousarray(xp.transpose(result, order)).reshape(
            (n,) + geometry.out + (g * mg,)
        )
    order = (1, 0, 2 + rank) + tuple(range(2, 2 + rank))  # -> [N, G, Mg, *out]
    return xp.ascontiguousarray(xp.transpose(result, order)).reshape((n, g * mg) + geometry.out)


def _prod(values: tuple[int, ...]) -> int:
    count = 1
    for v in values:
        count *= v
    return count


def convolve(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    dilations: tuple[int, ...],
    groups: int,
    data_format: str,
) -> Array:
    """The convolution all three kernels compute."""
    xp = ctx.xp
    geometry = ConvGeometry(
        input.shape,
        filter.shape,
        strides,
        paddings,
        padding_algorithm,
        dilations,
        groups,
        data_format,
    )
    x = channels_first(xp, input, geometry.channel_last)
    n = x.shape[0]
    if input.size == 0 or _prod(geometry.out) == 0:
        shape = (
            (n,) + geometry.out + (filter.shape[0],)
            if geometry.channel_last
            else (n, filter.shape[0]) + geometry.out
        )
        return xp.zeros(shape, input.dtype)
    result = xp.matmul(im2col(xp, x, geometry), filter_matrix(filter, groups))
    return output_from_matrix(xp, result, n, geometry, geometry.channel_last)


@register_kernel("conv2d", dtypes=CONV_DTYPES)
def conv2d_kernel(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    dilations: tuple[int, ...],
    groups: int,
    data_format: str,
) -> Array:
    return convolve(
        ctx, input, filter, strides, paddings, padding_algorithm, dilations, groups, data_format
    )


@register_kernel("depthwise_conv2d", dtypes=CONV_DTYPES)
def depthwise_conv2d_kernel(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    groups: int,
    dilations: tuple[int, ...],
    data_format: str,
) -> Array:
    return convolve(
        ctx, input, filter, strides, paddings, padding_algorithm, dilations, groups, data_format
    )


@register_kernel("conv3d", dtypes=CONV_DTYPES)
def conv3d_kernel(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    groups: int,
    dilations: tuple[int, ...],
    data_format: str,
) -> Array:
    return convolve(
        ctx, input, filter, strides, paddings, padding_algorithm, dilations, groups, data_format
    )
