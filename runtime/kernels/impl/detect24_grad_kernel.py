"""Grad kernels of the detect24 ops (issue 24), following PaddlePaddle 3.3.1's CPU kernels for
the dtypes it registers (float32, float64).

- psroi_pool_grad: each bin's out_grad divided by its pixel count, added to every pixel of the
  bin in the input channel the bin read (bins of one image overlapping add up); an empty bin
  gives nothing.
- affine_channel_grad: x_grad = out_grad * scale; scale_grad and bias_grad sum out_grad * x and
  out_grad over every dimension but the channels'.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.detect24_kernel import channel_shape, psroi_bins
from phiops.runtime.kernels.impl.detect_kernel import keep_boxes_num_dtype, roi_batch_ids
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

REAL = (DataType.FLOAT32, DataType.FLOAT64)


@register_kernel("psroi_pool_grad", dtypes=REAL, configure=keep_boxes_num_dtype)
def psroi_pool_grad_kernel(
    ctx: KernelContext,
    x: Array,
    boxes: Array,
    boxes_num: Array | None,
    out_grad: Array,
    pooled_height: int,
    pooled_width: int,
    output_channels: int,
    spatial_scale: float,
) -> Array:
    xp = ctx.xp
    batch, channels, height, width = x.shape
    images = np.array(roi_batch_ids(xp, boxes_num, boxes.shape[0], batch), np.int64)
    rows, cols, count_h, count_w = psroi_bins(
        xp, boxes, pooled_height, pooled_width, spatial_scale, height, width
    )
    area = (count_h[:, :, None] * count_w[:, None, :])[:, None, :, :]
    empty = area == 0
    share = xp.where(empty, xp.zeros_like(out_grad), out_grad / xp.where(empty, 1, area))
    owner = xp.asarray((images[:, None] == np.arange(batch)[None, :]).astype(x.dtype))
    grad = xp.einsum("rn,rcij,rih,rjw->ncijhw", owner, share.astype(x.dtype), rows, cols)
    return grad.reshape(batch, channels, height, width).astype(x.dtype)


@register_kernel("affine_channel_grad", dtypes=REAL)
def affine_channel_grad_kernel(
    ctx: KernelContext,
    x: Array,
    scale: Array,
    bias: Array,
    out_grad: Array,
    data_layout: str,
) -> tuple[Array, Array, Array]:
    shape = channel_shape(x, data_layout)
    axis = 1 if data_layout == "NCHW" else x.ndim - 1
    others = tuple(i for i in range(x.ndim) if i != axis)
    x_grad = out_grad * scale.reshape(shape)
    scale_grad = (out_grad * x).sum(axis=others).astype(x.dtype)
    bias_grad = out_grad.sum(axis=others).astype(x.dtype)
    return x_grad, scale_grad, bias_grad
