"""Grad kernels of conv2d, depthwise_conv2d and conv3d.

With the forward's column matrix ``cols`` [G, N*P, K*Cg] and the output gradient as
``dout`` [G, N*P, Mg]: ``filter_grad = cols^T @ dout`` and ``dcols = dout @ filter^T``, two
batched matmuls; col2im then adds ``dcols`` back onto the padded input, one strided slice per
kernel tap (prod(kernel) vectorised adds, never a loop over pixels or channels), or, for a
strided undilated convolution, one block of kernel phases at a time (prod(ceil(k / s)) adds). For 2-D
channels-first numpy float input, the compiled col2im of `phiops.runtime.kernels.native` does that in
one pass over ``dcols`` when it is built.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from phiops.runtime.kernels import blas
from phiops.runtime.kernels.impl.conv_kernel import (
    CONV_DTYPES,
    ConvGeometry,
    channels_last,
    check_columns,
    columns_channels_first,
    conv_geometry,
    filter_matrix,
    im2col,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.native import native_kernels
from phiops.runtime.kernels.registration import register_kernel


def col2im(xp: Any, dcols: Array, x_shape: tuple[int, ...], geometry: ConvGeometry) -> Array:
    """Sum ``dcols`` [N, *out, *kernel, G, Cg] back onto a channels-last input of ``x_shape``
    ([N, *spatial, C]): one strided add per kernel tap."""
    rank = len(geometry.out)
    n, c, g = x_shape[0], x_shape[-1], geometry.groups
    padded_shape = (
        (n,)
        + tuple(size + p0 + p1 for size, (p0, p1) in zip(x_shape[1:-1], geometry.pads))
        + (g, c // g)
    )
    if all(d == 1 for d in geometry.dilations) and any(s > 1 for s in geometry.strides):
        padded = _col2im_by_phase(xp, dcols, padded_shape, geometry)
    else:
        padded = _col2im_by_tap(xp, dcols, padded_shape, geometry)
    crop = (slice(None),) + tuple(
        slice(p0, p0 + size) for size, (p0, _) in zip(x_shape[1:-1], geometry.pads)
    )
    return padded[crop].reshape(x_shape)


def _col2im_by_tap(
    xp: Any, dcols: Array, padded_shape: tuple[int, ...], geometry: ConvGeometry
) -> Array:
    """col2im's sums, one strided add per kernel tap."""
    rank = len(geometry.out)
    padded = xp.zeros(padded_shape, dcols.dtype)
    lead = (slice(None),) * (1 + rank)
    for tap in itertools.product(*(range(k) for k in geometry.kernel)):
        target = (slice(None),) + tuple(
            slice(t * d, t * d + s * (o - 1) + 1, s)
            for t, d, s, o in zip(tap, geometry.dilations, geometry.strides, geometry.out)
        )
        padded[target] += dcols[lead + tap]
    return padded


def _col2im_by_phase(
    xp: Any, dcols: Array, padded_shape: tuple[int, ...], geometry: ConvGeometry
) -> Array:
    """col2im's sums for a strided, undilated convolution: output position ``i * s + q * s + r``
    takes tap ``q * s + r`` of column ``i``, so the taps of one ``q`` (every phase ``r`` < s)
    land in one block of the output seen as [N, blocks, s, ...]: ceil(k / s) adds per
    dimension in place of k (one for a transposed convolution's usual k == s, four for FCN's
    k = 2s upsampling). Each output element takes its taps in the order the per-tap loop adds
    them (q, hence the tap, ascending), so the sums are the same to the bit."""
    rank = len(geometry.out)
    n = padded_shape[0]
    blocks = [
        -(-k // s) for k, s in zip(geometry.kernel, geometry.strides)
    ]  # ceil(k / s) per dimension
    extents = [s * (o + b) for s, o, b in zip(geometry.strides, geometry.out, blocks)]
    channels = padded_shape[1 + rank :]
    split: tuple[int, ...] = (n,)
    for o, b, s in zip(geometry.out, blocks, geometry.strides):
        split += (o + b, s)
    buffer = xp.zeros(split + channels, dcols.dtype)
    # dcols [N, *out, *kernel, G, Cg] -> [N, out_1, kernel_1, out_2, kernel_2, ..., G, Cg]
    interleaved = xp.transpose(
        dcols,
        (0,)
        + tuple(j for d in range(rank) for j in (1 + d, 1 + rank + d))
        + tuple(range(1 + 2 * rank, dcols.ndim)),
    )
    for q in itertools.product(*(range(b) for b in blocks)):
        source: tuple[Any, ...] = (slice(None),)
        target: tuple[Any, ...] = (slice(None),)
        for d in range(rank):
            s, k, o = geometry.strides[d], geometry.kernel[d], geometry.out[d]
            width = min(s, k - q[d] * s)
            source += (slice(None), slice(q[d] * s, q[d] * s + width))
            target += (slice(q[d], q[d] + o), slice(0, width))
        buffer[target] += interleaved[source]
    whole = buffer.reshape((n,) + tuple(extents) + channels)
    return whole[(slice(None),) + tuple(slice(0, e) for e in padded_shape[1 : 1 + rank])]


def convolve_grad_channels_first(
    xp: Any,
    input: Array,
    filter: Array,
    out_grad: Array,
    geometry: ConvGeometry,
    want_input: bool = True,
    want_filter: bool = True,
) -> tuple[Array | None, Array | None]:
    """(input_grad, filter_grad) for channels-first input, in the forward's layout: with
    ``columns`` [N, G, K*Cg, P] and ``dout`` [N, G, Mg, P], ``filter_grad = sum over N of dout @
    columns^T`` and ``dcols = filter^T @ dout``, two batched matmuls; col2im adds ``dcols`` back
    onto the padded input, one strided add per kernel tap. A gradient not wanted is None."""
    n, c = input.shape[:2]
    m, g = filter.shape[0], geometry.groups
    taps = math.prod(geometry.kernel)
    dout = out_grad.reshape(n, g, m // g, math.prod(geometry.out))
    filter_grad = None
    if want_filter:
        columns = columns_channels_first(xp, input, geometry)
        filter_grad = blas.matmul(xp, dout, columns.transpose(0, 1, 3, 2)).sum(axis=0)
        filter_grad = filter_grad.reshape(filter.shape)
    if not want_input:
        return None, filter_grad
    weights = filter.reshape(g, m // g, (c // g) * taps).transpose(0, 2, 1)
    dcols = blas.matmul(xp, weights, dout).reshape((n, c) + geometry.kernel + geometry.out)
    native = native_kernels(dcols) if len(geometry.kernel) == 2 else None
    if native is not None:
        input_grad = xp.empty(input.shape, dcols.dtype)
        native.col2im_2d(
            xp.ascontiguousarray(dcols),
            n * c,
            *input.shape[2:],
            *geometry.kernel,
            *geometry.out,
            *geometry.strides,
            *geometry.dilations,
            *(before for before, _ in geometry.pads),
            input_grad,
        )
        return input_grad, filter_grad
    padded = xp.zeros(
        (n, c) + tuple(size + p0 + p1 for size, (p0, p1) in zip(input.shape[2:], geometry.pads)),
        dcols.dtype,
    )
    for tap in itertools.product(*(range(k) for k in geometry.kernel)):
        target = (slice(None), slice(None)) + tuple(
            slice(t * d, t * d + s * (o - 1) + 1, s)
            for t, d, s, o in zip(tap, geometry.dilations, geometry.strides, geometry.out)
        )
        padded[target] += dcols[(slice(None), slice(None)) + tap]
    crop = (slice(None), slice(None)) + tuple(
        slice(p0, p0 + size) for size, (p0, _) in zip(input.shape[2:], geometry.pads)
    )
    return xp.ascontiguousarray(padded[crop]), filter_grad


def dout_matrix(xp: Any, dout: Array, groups: int, channel_last: bool) -> Array:
    """An output gradient [N, M, *out] (or [N, *out, M]) as [G, N*P, M/groups]."""
    m = dout.shape[-1] if channel_last else dout.shape[1]
    grouped = channels_last(xp, dout, channel_last).reshape(-1, groups, m // groups)
    return xp.ascontiguousarray(grouped.transpose(1, 0, 2))


def input_grad_of(
    xp: Any, dmat: Array, filter: Array, geometry: ConvGeometry, x_last_shape: tuple[int, ...]
) -> Array:
    """The gradient [N, *spatial, C] of a convolution's channels-last input of
    ``x_last_shape`` from the output gradient ``dmat`` [G, N*P, Mg]: ``dout @ filter^T``, then
    col2im."""
    groups, rank = geometry.groups, len(geometry.out)
    n, c = x_last_shape[0], x_last_shape[-1]
    dcols = blas.matmul(xp, dmat, filter_matrix(xp, filter, groups).transpose(0, 2, 1))
    dcols = dcols.reshape((groups, n) + geometry.out + geometry.kernel + (c // groups,))
    # [G, N, *out, *k, Cg] -> [N, *out, *k, G, Cg]
    order = tuple(range(1, 2 + 2 * rank)) + (0, 2 + 2 * rank)
    return col2im(xp, xp.transpose(dcols, order), x_last_shape, geometry)


def filter_grad_of(
    xp: Any, cols: Array, dmat: Array, geometry: ConvGeometry, filter_shape: tuple[int, ...]
) -> Array:
    """The gradient of a convolution's filter [M, C/groups, *kernel] from the input's column
    matrix ``cols`` [G, N*P, K*Cg] and the output gradient ``dmat`` [G, N*P, Mg]."""
    groups, rank = geometry.groups, len(geometry.out)
    m, cg = filter_shape[:2]
    filter_grad = blas.matmul(xp, cols.transpose(0, 2, 1), dmat)  # [G, K*Cg, Mg]
    # [G, *k, Cg, Mg] -> [G, Mg, Cg, *k]
    filter_grad = filter_grad.reshape((groups,) + geometry.kernel + (cg, m // groups))
    order = (0, 2 + rank, 1 + rank) + tuple(range(1, 1 + rank))
    return xp.ascontiguousarray(xp.transpose(filter_grad, order).reshape(filter_shape))


def convolve_grad(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    out_grad: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    dilations: tuple[int, ...],
    groups: int,
    data_format: str,
) -> tuple[Array, Array]:
    xp = ctx.xp
    geometry = conv_geometry(
        input.shape,
        filter.shape,
        strides,
        paddings,
        padding_algorithm,
        dilations,
        groups,
        data_format,
    )
    want_input, want_filter = ctx.wants(0), ctx.wants(1)
    if input.size == 0 or out_grad.size == 0:
        return (
            xp.zeros_like(input) if want_input else None,
            xp.zeros_like(filter) if want_filter else None,
        )
    last = geometry.channel_last
    check_columns(input.shape[0], input.shape[-1 if last else 1], geometry, input.itemsize)
    if not last:
        return convolve_grad_channels_first(
            xp, input, filter, out_grad, geometry, want_input, want_filter
        )
    x_last = channels_last(xp, input, last)
    dmat = dout_matrix(xp, out_grad, groups, last)
    input_grad = filter_grad = None
    if want_filter:
        filter_grad = filter_grad_of(xp, im2col(xp, x_last, geometry), dmat, geometry, filter.shape)
    if want_input:
        input_grad = xp.ascontiguousarray(input_grad_of(xp, dmat, filter, geometry, x_last.shape))
    return input_grad, filter_grad


@register_kernel("conv2d_grad", dtypes=CONV_DTYPES)
def conv2d_grad_kernel(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    out_grad: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    dilations: tuple[int, ...],
    groups: int,
    data_format: str,
) -> tuple[Array, Array]:
    return convolve_grad(
        ctx,
        input,
        filter,
        out_grad,
        strides,
        paddings,
        padding_algorithm,
        dilations,
        groups,
        data_format,
    )


@register_kernel("depthwise_conv2d_grad", dtypes=CONV_DTYPES)
@register_kernel("conv3d_grad", dtypes=CONV_DTYPES)
def conv3d_grad_kernel(  # depthwise_conv2d_grad takes its arguments in the same order
    ctx: KernelContext,
    input: Array,
    filter: Array,
    out_grad: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    groups: int,
    dilations: tuple[int, ...],
    data_format: str,
) -> tuple[Array, Array]:
    return convolve_grad(
        ctx,
        input,
        filter,
        out_grad,
        strides,
        paddings,
        padding_algorithm,
        dilations,
        groups,
        data_format,
    )
