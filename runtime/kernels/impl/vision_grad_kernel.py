"""Gradients of the vision kernels of vision_kernel.py.

A shuffle's gradient is the inverse shuffle of ``out_grad``: pixel_shuffle's is
pixel_unshuffle, channel_shuffle's with ``groups`` is channel_shuffle with C / groups groups.
The dtype lists are PaddlePaddle 3.3.1's CPU registrations of the grad kernels.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.vision_kernel import (
    shuffle_channels,
    shuffle_pixels,
    unshuffle_pixels,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
REAL = (D.FLOAT32, D.FLOAT64)


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
