"""Grad kernels of conv2d_transpose, depthwise_conv2d_transpose and conv3d_transpose.

The transpose's output gradient plays the convolution's input: its column matrix ``cols`` (im2col
with the transpose's geometry) gives ``x_grad = cols @ filter`` (the forward convolution of the
output gradient) and ``filter_grad = cols^T @ x``, two batched matmuls.
"""

from __future__ import annotations

from phiops.runtime.kernels import blas
from phiops.runtime.kernels.impl.conv_grad_kernel import dout_matrix, filter_grad_of
from phiops.runtime.kernels.impl.conv_kernel import (
    CONV_DTYPES,
    ConvGeometry,
    channels_last,
    check_columns,
    filter_matrix,
    im2col,
    output_from_matrix,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


@register_kernel("conv2d_transpose_grad", dtypes=CONV_DTYPES)
@register_kernel("depthwise_conv2d_transpose_grad", dtypes=CONV_DTYPES)
@register_kernel("conv3d_transpose_grad", dtypes=CONV_DTYPES)
def conv_transpose_grad_kernel(
    ctx: KernelContext,
    x: Array,
    filter: Array,
    out_grad: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    output_padding: tuple[int, ...],
    output_size: tuple[int, ...],
    padding_algorithm: str,
    groups: int,
    dilations: tuple[int, ...],
    data_format: str,
) -> tuple[Array, Array]:
    xp = ctx.xp
    geometry, _ = ConvGeometry.of_transpose(
        x.shape,
        filter.shape,
        strides,
        paddings,
        output_padding,
        output_size,
        padding_algorithm,
        dilations,
        groups,
        data_format,
    )
    want_x, want_filter = ctx.wants(0), ctx.wants(1)
    if x.size == 0 or out_grad.size == 0 or filter.size == 0:
        return (
            xp.zeros_like(x) if want_x else None,
            xp.zeros_like(filter) if want_filter else None,
        )
    last = geometry.channel_last
    check_columns(out_grad.shape[0], out_grad.shape[-1 if last else 1], geometry, out_grad.itemsize)
    cols = im2col(xp, channels_last(xp, out_grad, last), geometry)
    x_grad = filter_grad = None
    if want_x:
        x_grad = output_from_matrix(
            xp,
            blas.matmul(xp, cols, filter_matrix(xp, filter, groups)),
            x.shape[0],
            geometry,
            last,
        )
    if want_filter:
        filter_grad = filter_grad_of(
            xp, cols, dout_matrix(xp, x, groups, last), geometry, filter.shape
        )
    return x_grad, filter_grad
