"""Grad kernels of conv2d, depthwise_conv2d and conv3d.

With the forward's column matrix ``cols`` [G, N*P, Cg*K] and the output gradient as
``dout`` [G, N*P, Mg]: ``filter_grad = cols^T @ dout`` and ``dcols = dout @ filter^T``, two
batched matmuls; col2im then adds ``dcols`` back onto the padded input, one strided slice per
kernel tap (prod(kernel) vectorised adds, never a loop over pixels or channels).
"""

from __future__ import annotations

import itertools
from typing import Any

from runtime.kernels.impl.conv_kernel import (
    CONV_DTYPES,
    ConvGeometry,
    channels_first,
    filter_matrix,
    im2col,
)
from runtime.kernels.kernel import Array, KernelContext
from runtime.kernels.registration import register_kernel


def col2im(xp: Any, dcols: Array, x_shape: tuple[int, ...], geometry: ConvGeometry) -> Array:
    """Sum ``dcols`` [N, C, *out, *kernel] back onto an input of ``x_shape`` (channels first)."""
    padded_shape = x_shape[:2] + tuple(
        size + p0 + p1 for size, (p0, p1) in zip(x_shape[2:], geometry.pads)
    )
    padded = xp.zeros(padded_shape, dcols.dtype)
    rank = len(geometry.out)
    for tap in itertools.product(*(range(k) for k in geometry.kernel)):
        target = (slice(None), slice(None)) + tuple(
            slice(t * d, t * d + s * (o - 1) + 1, s)
            for t, d, s, o in zip(tap, geometry.dilations, geometry.strides, geometry.out)
        )
        padded[target] += dcols[(Ellipsis,) + tap] if rank else dcols
    crop = (slice(None), slice(None)) + tuple(
        slice(p0, p0 + size) for size, (p0, _) in zip(x_shape[2:], geometry.pads)
    )
    return padded[crop]


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
    if input.size == 0 or out_grad.size == 0:
        return xp.zeros_like(input), xp.zeros_like(filter)
    x = channels_first(xp, input, geometry.channel_last)
    dout = channels_first(xp, out_grad, geometry.channel_last)
    n, c = x.shape[:2]
    m = filter.shape[0]
    rank = len(geometry.out)
    # [N, M, *out] -> [G, N, *out, Mg] -> [G, N*P, Mg]
    dout = dout.reshape((n, groups, m // groups) + geometry.out)
    order = (1, 0) + tuple(range(3, 3 + rank)) + (2,)
    dmat = xp.ascontiguousarray(xp.transpose(dout, order)).reshape(groups, -1, m // groups)
    cols = im2col(xp, x, geometry)
    filter_grad = xp.matmul(cols.transpose(0, 2, 1), dmat)  # [G, Cg*K, Mg]
    filter_grad = filter_grad.transpose(0, 2, 1).reshape(filter.shape)
    dcols = xp.matmul(dmat, filter_matrix(filter, groups).transpose(0, 2, 1))  # [G, N*P, Cg*K]
    dcols = dcols.reshape((groups, n) + geometry.out + (c // groups,) + geometry.kernel)
    # [G, N, *out, Cg, *k] -> [N, G, Cg, *out, *k] -> [N, C, *out, *k]
    order = (1, 0, 2 + rank) + tuple(range(2, 2 + rank)) + tuple(range(3 + rank, 3 + 2 * rank))
    dcols = xp.transpose(dcols, order).reshape((n, c) + geometry.out + geometry.kernel)
    input_grad = col2im(xp, dcols, x.shape, geometry)
    if geometry.channel_last:
        input_grad = xp.moveaxis(input_grad, 1, -1)
    return xp.ascontiguousarray(input_grad), xp.ascontiguousarray(filter_grad)


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
def depthwise_conv2d_grad_kernel(
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


@register_kernel("conv3d_grad", dtypes=CONV_DTYPES)
def conv3d_grad_kernel(
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
