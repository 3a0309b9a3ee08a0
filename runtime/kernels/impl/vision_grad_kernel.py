"""Gradients of the vision kernels of vision_kernel.py.

A shuffle's gradient is the inverse shuffle of ``out_grad``: pixel_shuffle's is
pixel_unshuffle, channel_shuffle's with ``groups`` is channel_shuffle with C / groups groups.
unfold's gradient is fold (col2im) of ``out_grad`` and fold's is unfold (im2col); affine_grid's
is ``out_grad`` contracted with the base grid, theta_grad[n] = out_grad[n]^T @ base.
The dtype lists are PaddlePaddle 3.3.1's CPU registrations of the grad kernels.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.vision_kernel import (
    base_grid,
    col2im,
    fold_pads,
    im2col,
    shuffle_channels,
    shuffle_pixels,
    unfold_blocks,
    unshuffle_pixels,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
REAL = (D.FLOAT32, D.FLOAT64)
REAL_AND_COMPLEX = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


@register_kernel("pixel_shuffle_grad", dtypes=REAL)
def pixel_shuffle_grad_kernel(
    ctx: KernelContext, out_grad: Array, upscale_factor: int, data_format: str
) -> Array:
    return unshuffle_pixels(ctx.xp, out_grad, upscale_factor, data_format == "NHWC")


@register_kernel("pixel_unshuffle_grad", dtypes=REAL)
def pixel_unshuffle_grad_kernel(
    ctx: KernelContext, out_grad: Array, downscale_factor: int, data_format: str
) -> Array:
    return shuffle_pixels(ctx.xp, out_grad, downscale_factor, data_format == "NHWC")


@register_kernel("channel_shuffle_grad", dtypes=REAL)
def channel_shuffle_grad_kernel(
    ctx: KernelContext, out_grad: Array, groups: int, data_format: str
) -> Array:
    channel_last = data_format == "NHWC"
    channels = out_grad.shape[3] if channel_last else out_grad.shape[1]
    return shuffle_channels(ctx.xp, out_grad, channels // groups, channel_last)


@register_kernel("unfold_grad", dtypes=REAL)
def unfold_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out_grad: Array,
    kernel_sizes: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
) -> Array:
    blocks = unfold_blocks(x.shape[2:], kernel_sizes, strides, paddings, dilations)
    return col2im(
        ctx.xp, out_grad, tuple(x.shape), kernel_sizes, strides, paddings, dilations, blocks
    )


@register_kernel("fold_grad", dtypes=REAL_AND_COMPLEX)
def fold_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out_grad: Array,
    output_sizes: tuple[int, ...],
    kernel_sizes: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
) -> Array:
    pads = fold_pads(paddings)
    blocks = unfold_blocks(output_sizes, kernel_sizes, strides, pads, dilations)
    return im2col(ctx.xp, out_grad, kernel_sizes, strides, pads, dilations, blocks)


@register_kernel("affine_grid_grad", dtypes=REAL)
def affine_grid_grad_kernel(
    ctx: KernelContext, output_grad: Array, output_shape: tuple[int, ...], align_corners: bool
) -> Array:
    xp = ctx.xp
    spatial = tuple(output_shape[2:])
    rank = len(spatial)
    base = base_grid(xp, spatial, align_corners, output_grad.dtype).reshape(-1, rank + 1)
    grad = output_grad.reshape(output_grad.shape[0], -1, rank)
    return xp.matmul(xp.swapaxes(grad, 1, 2), base[None])
