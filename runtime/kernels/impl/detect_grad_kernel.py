"""Gradients of the detection kernels of detect_kernel.py.

grid_sample_grad follows PHI's CPU kernel (paddle/phi/kernels/cpu/grid_sample_grad_kernel.cc):
x_grad adds each output gradient, times the corner's weight, into the input pixel each corner
read (the pixel "nearest" read); grid_grad (bilinear only, zeros for "nearest") is, per
coordinate, the sum over channels of out_grad times the difference of the corner values along
that coordinate weighted by the other coordinates' weights, times d(position)/d(coordinate)
(0 where "border" or "reflection" clipped the position, negated where reflection flipped it).
roi_align_grad spreads each output gradient, divided by its bin's sample count, over the
pixels the samples read, as PHI's grad kernel places them (it clamps a box to at least one pixel
even when ``aligned``, which its forward kernel does not); roi_pool_grad adds each output
gradient to the pixel arg_max names. The dtype lists are PaddlePaddle 3.3.1's CPU registrations
of the grad kernels.
"""

from __future__ import annotations

from typing import Any, Sequence

from phiops.runtime.common import DataType
import numpy as np

from phiops.runtime.kernels.impl.detect_kernel import (
    ROI_DTYPES,
    bilinear_corners,
    check_grid_sample_options,
    finite_boxes,
    gather_corner,
    keep_boxes_num_dtype,
    nearest_positions,
    pixels,
    roi_align_axis,
    roi_align_geometry,
    roi_batch_ids,
    split_grid,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
REAL = (D.FLOAT32, D.FLOAT64)


def add_into(
    xp: Any, shape: Sequence[int], index: Array, mask: Array, values: Array, dtype: Any
) -> Array:
    """An array of ``shape`` [N, C, *spatial] holding, at each flat spatial ``index`` [N, 1, P]
    (where ``mask``), the sum of ``values`` [N, C, P] sent there."""
    n, c = shape[0], shape[1]
    size = 1
    for extent in shape[2:]:
        size *= extent
    base = (xp.arange(n).reshape(n, 1, 1) * c + xp.arange(c).reshape(1, c, 1)) * size
    target = (base + index).reshape(-1)
    weights = xp.where(mask, values, xp.zeros((), dtype=values.dtype)).reshape(-1)
    total = xp.bincount(target, weights=weights, minlength=n * c * size)
    return total.astype(dtype).reshape(tuple(shape))


@register_kernel("grid_sample_grad", dtypes=REAL)
def grid_sample_grad_kernel(
    ctx: KernelContext,
    x: Array,
    grid: Array,
    out_grad: Array,
    mode: str,
    padding_mode: str,
    align_corners: bool,
) -> tuple[Array, Array]:
    xp = ctx.xp
    check_grid_sample_options(mode, padding_mode)
    n, c = x.shape[:2]
    spatial = x.shape[2:]
    flat_x = x.reshape(n, c, pixels(spatial))
    points = pixels(grid.shape[1:-1])
    flat_grad = out_grad.reshape(n, c, points)
    located = split_grid(xp, grid, spatial, align_corners, padding_mode)
    positions = [p for p, _ in located]
    want_x, want_grid = ctx.wants(0), ctx.wants(1)
    if mode == "nearest":
        x_grad = None
        if want_x:
            _, index, mask = gather_corner(xp, flat_x, nearest_positions(xp, positions), spatial)
            x_grad = add_into(xp, x.shape, index, mask, flat_grad, x.dtype)
        return x_grad, (xp.zeros_like(grid) if want_grid else None)

    corners = bilinear_corners(xp, positions)
    count = len(spatial)
    x_grad = xp.zeros(x.shape, dtype=x.dtype) if want_x else None
    values = []
    for corner, weights in corners:
        value, index, mask = gather_corner(xp, flat_x, corner, spatial)
        values.append(value)
        if want_x:
            scaled = flat_grad
            for weight in reversed(weights):
                scaled = scaled * weight.reshape(n, 1, points)
            x_grad += add_into(xp, x.shape, index, mask, scaled, x.dtype)
    if not want_grid:
        return x_grad, None
    grid_grad = xp.zeros(grid.shape, dtype=grid.dtype)
    for axis in range(count):
        bit = 1 << (count - 1 - axis)
        along = None
        for low in range(1 << count):
            if low & bit:
                continue
            difference = values[low | bit] - values[low]
            for other in reversed(range(count)):
                if other != axis:
                    difference = difference * corners[low][1][other].reshape(n, 1, points)
            along = difference if along is None else along + difference
        summed = (along * flat_grad).sum(axis=1).reshape(grid.shape[:-1])
        grid_grad[..., count - 1 - axis] = summed * located[axis][1]
    return x_grad, grid_grad


@register_kernel("roi_align_grad", dtypes=ROI_DTYPES, configure=keep_boxes_num_dtype)
def roi_align_grad_kernel(
    ctx: KernelContext,
    x: Array,
    boxes: Array,
    boxes_num: Array | None,
    out_grad: Array,
    pooled_height: int,
    pooled_width: int,
    spatial_scale: float,
    sampling_ratio: int,
    aligned: bool,
) -> Array:
    """Each output gradient divided by its bin's sample count, spread over the pixels the
    samples read with their bilinear weights (the sample points as PHI's grad kernel places
    them)."""
    xp = ctx.xp
    batch, channels, height, width = x.shape
    dtype = out_grad.dtype
    x_grad = xp.zeros(x.shape, dtype=dtype)
    rois = boxes.shape[0]
    if rois == 0:
        return x_grad
    images = roi_batch_ids(xp, boxes_num, rois, batch)
    host_boxes = finite_boxes(boxes)
    for r in range(rois):
        xmin, ymin, bin_w, bin_h, grid_h, grid_w = roi_align_geometry(
            host_boxes[r],
            spatial_scale,
            pooled_height,
            pooled_width,
            sampling_ratio,
            aligned,
            dtype,
            True,
        )
        along_y = roi_align_axis(ymin, bin_h, pooled_height, grid_h, height, dtype, True)
        along_x = roi_align_axis(xmin, bin_w, pooled_width, grid_w, width, dtype, True)
        rows = np.flatnonzero(along_y.any(axis=0))
        cols = np.flatnonzero(along_x.any(axis=0))
        if rows.size == 0 or cols.size == 0:
            continue
        points = grid_h * grid_w
        if np.dtype(dtype).kind in "iu":
            share = xp.trunc(out_grad[r] / points).astype(dtype)
        else:
            share = out_grad[r] / dtype.type(points)
        spread = xp.einsum(
            "ph,cpq,qw->chw", xp.asarray(along_y[:, rows]), share, xp.asarray(along_x[:, cols])
        )
        rows_at, cols_at = xp.asarray(rows), xp.asarray(cols)
        x_grad[images[r], :, rows_at[:, None], cols_at[None, :]] += spread.astype(dtype).transpose(
            1, 2, 0
        )
    return x_grad


@register_kernel("roi_pool_grad", dtypes=ROI_DTYPES, configure=keep_boxes_num_dtype)
def roi_pool_grad_kernel(
    ctx: KernelContext,
    x: Array,
    boxes: Array,
    boxes_num: Array | None,
    arg_max: Array,
    out_grad: Array,
    pooled_height: int,
    pooled_width: int,
    spatial_scale: float,
) -> Array:
    """Each output gradient added to the input pixel its bin's maximum came from (none for an
    empty bin)."""
    xp = ctx.xp
    batch, channels, height, width = x.shape
    rois = boxes.shape[0]
    if rois == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    images = xp.asarray(roi_batch_ids(xp, boxes_num, rois, batch), dtype=xp.int64)
    pixels_per_map = height * width
    base = (images.reshape(-1, 1) * channels + xp.arange(channels).reshape(1, -1)) * pixels_per_map
    flat = arg_max.reshape(rois, channels, -1).astype(xp.int64)
    target = xp.broadcast_to(base.reshape(rois, channels, 1), flat.shape) + flat
    found = flat >= 0
    amounts = xp.where(found, out_grad.reshape(rois, channels, -1), xp.zeros((), out_grad.dtype))
    total = xp.bincount(
        xp.where(found, target, 0).reshape(-1),
        weights=amounts.reshape(-1).astype(xp.float64),
        minlength=batch * channels * pixels_per_map,
    )
    return total.astype(x.dtype).reshape(x.shape)
