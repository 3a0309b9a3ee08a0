"""Kernels of the vision ops: pixel_shuffle, pixel_unshuffle, channel_shuffle.

The shuffles are PHI's (paddle/phi/kernels/impl/*_kernel_impl.h): a reshape of ``x`` to six
(five) axes, a transpose, and a reshape to the output's dims. The dtype lists are PaddlePaddle
3.3.1's CPU registrations.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
REAL = (D.FLOAT32, D.FLOAT64)


def shuffle_pixels(xp, x: Array, factor: int, channel_last: bool) -> Array:
    """pixel_shuffle of ``x`` (and pixel_unshuffle's gradient): [N, C, H, W] ->
    [N, C / r^2, H * r, W * r]."""
    if channel_last:
        n, h, w, c = x.shape
        c_out = c // (factor * factor)
        blocks = x.reshape(n, h, w, c_out, factor, factor).transpose(0, 1, 4, 2, 5, 3)
        return xp.ascontiguousarray(blocks).reshape(n, h * factor, w * factor, c_out)
    n, c, h, w = x.shape
    c_out = c // (factor * factor)
    blocks = x.reshape(n, c_out, factor, factor, h, w).transpose(0, 1, 4, 2, 5, 3)
    return xp.ascontiguousarray(blocks).reshape(n, c_out, h * factor, w * factor)


def unshuffle_pixels(xp, x: Array, factor: int, channel_last: bool) -> Array:
    """pixel_unshuffle of ``x`` (and pixel_shuffle's gradient): [N, C, H, W] ->
    [N, C * r^2, H / r, W / r]."""
    if channel_last:
        n, h, w, c = x.shape
        h_out, w_out = h // factor, w // factor
        blocks = x.reshape(n, h_out, factor, w_out, factor, c).transpose(0, 1, 3, 5, 2, 4)
        return xp.ascontiguousarray(blocks).reshape(n, h_out, w_out, c * factor * factor)
    n, c, h, w = x.shape
    h_out, w_out = h // factor, w // factor
    blocks = x.reshape(n, c, h_out, factor, w_out, factor).transpose(0, 1, 3, 5, 2, 4)
    return xp.ascontiguousarray(blocks).reshape(n, c * factor * factor, h_out, w_out)


def shuffle_channels(xp, x: Array, groups: int, channel_last: bool) -> Array:
    """Channel c = g * (C / groups) + k of ``x`` goes to k * groups + g."""
    if channel_last:
        n, h, w, c = x.shape
        parts = x.reshape(n, h, w, groups, c // groups).transpose(0, 1, 2, 4, 3)
    else:
        n, c, h, w = x.shape
        parts = x.reshape(n, groups, c // groups, h, w).transpose(0, 2, 1, 3, 4)
    return xp.ascontiguousarray(parts).reshape(x.shape)


@register_kernel("pixel_shuffle", dtypes=REAL)
def pixel_shuffle_kernel(
    ctx: KernelContext, x: Array, upscale_factor: int, data_format: str
) -> Array:
    return shuffle_pixels(ctx.xp, x, upscale_factor, data_format == "NHWC")


@register_kernel("pixel_unshuffle", dtypes=REAL)
def pixel_unshuffle_kernel(
    ctx: KernelContext, x: Array, downscale_factor: int, data_format: str
) -> Array:
    return unshuffle_pixels(ctx.xp, x, downscale_factor, data_format == "NHWC")


@register_kernel("channel_shuffle", dtypes=REAL)
def channel_shuffle_kernel(ctx: KernelContext, x: Array, groups: int, data_format: str) -> Array:
    return shuffle_channels(ctx.xp, x, groups, data_format == "NHWC")
