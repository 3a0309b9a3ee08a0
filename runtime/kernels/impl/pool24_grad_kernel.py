"""lp_pool2d_grad and fractional_max_pool2d_grad/3d_grad (issue 24's pool24).

lp_pool2d_grad, as PaddlePaddle 3.3.1's CPU ``LPPoolGrad``: each window passes
``dy * powf(x / y, p - 1)`` to each of its elements (the ratio in double, the power in
float32, the product in double), so a zero output gives NaN; max and avg reductions
(``norm_type`` +inf, ``pooling_type`` max or avg) take pool2d_grad's gradients. Regular windows
add one strided slice per kernel tap; adaptive ones gather each window's elements and add them
back with ``scatter_at``, as windows may overlap and short ones repeat their last index.

fractional_max_pool2d_grad/3d_grad add each output's gradient at the element its mask names.
"""

from __future__ import annotations

from typing import Any

import numpy

from phiops.runtime.backends import scatter_at
from phiops.runtime.kernels.impl.conv_kernel import channels_first, pad_spatial
from phiops.runtime.kernels.impl.pool24_kernel import (
    FRACTIONAL_DTYPES,
    LP_POOL_DTYPES,
    lp_geometry,
    lp_reduction,
)
from phiops.runtime.kernels.impl.pool_grad_kernel import pool_grad
from phiops.runtime.kernels.impl.pool_kernel import PoolGeometry, adaptive_bounds, adaptive_indices
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def _share(xp: Any, part: Array, y: Array, dy: Array, norm_type: float, dtype: Any) -> Array:
    """dy * powf(x / y, p - 1) for window elements ``part`` of outputs ``y`` (both double)."""
    single = xp.float32
    power = (part / y).astype(single) ** single(norm_type - 1.0)
    return (dy * power.astype(xp.float64)).astype(dtype, copy=False)


def lp_pool_grad(
    xp: Any, x: Array, out: Array, dout: Array, geometry: PoolGeometry, norm_type: float
) -> Array:
    """The gradient of the power mean for ``x`` [N, C, H, W]."""
    y = out.astype(xp.float64)
    dy = dout.astype(xp.float64)
    wide = x.astype(xp.float64)
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if geometry.adaptive:
            return _adaptive_grad(xp, wide, y, dy, geometry, norm_type, x.dtype)
        extent = geometry.padded_extent()
        padded = pad_spatial(xp, wide, extent)
        grad = xp.zeros(padded.shape, x.dtype)
        for tap in geometry.taps():
            where = geometry.tap_slices(tap)
            grad[where] += _share(xp, padded[where], y, dy, norm_type, x.dtype)
    crop = (slice(None), slice(None)) + tuple(
        slice(p0, p0 + size) for size, (p0, _) in zip(geometry.spatial, extent)
    )
    return grad[crop]


def _adaptive_grad(
    xp: Any,
    x: Array,
    y: Array,
    dy: Array,
    geometry: PoolGeometry,
    norm_type: float,
    dtype: Any,
) -> Array:
    rows, cols = adaptive_indices(xp, geometry)  # [out_d, widest_d]
    valid = [
        xp.asarray([[k < end - start for k in range(table.shape[1])] for start, end in bounds])
        for table, bounds in zip(
            (rows, cols),
            (adaptive_bounds(size, out) for size, out in zip(geometry.spatial, geometry.out)),
        )
    ]
    n, c = x.shape[:2]
    row_index = rows[:, :, None, None]  # [oh, kh, 1, 1]
    col_index = cols[None, None, :, :]  # [1, 1, ow, kw]
    part = x[:, :, row_index, col_index]  # [N, C, oh, kh, ow, kw]
    share = _share(
        xp, part, y[:, :, :, None, :, None], dy[:, :, :, None, :, None], norm_type, dtype
    )
    inside = valid[0][:, :, None, None] & valid[1][None, None, :, :]
    share = xp.where(inside, share, xp.zeros((), dtype))
    grad = xp.zeros(x.shape, dtype)
    shape = share.shape
    batch = xp.arange(n).reshape(n, 1, 1, 1, 1, 1)
    channel = xp.arange(c).reshape(1, c, 1, 1, 1, 1)
    index = tuple(xp.broadcast_to(i, shape) for i in (batch, channel, row_index, col_index))
    scatter_at("add", grad, index, share)
    return grad


@register_kernel("lp_pool2d_grad", dtypes=LP_POOL_DTYPES)
def lp_pool2d_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    ceil_mode: bool,
    exclusive: bool,
    data_format: str,
    pooling_type: str,
    global_pooling: bool,
    adaptive: bool,
    padding_algorithm: str,
    norm_type: float,
) -> Array:
    xp = ctx.xp
    geometry = lp_geometry(
        x,
        kernel_size,
        strides,
        paddings,
        ceil_mode,
        data_format,
        global_pooling,
        adaptive,
        padding_algorithm,
        norm_type,
    )
    reduction = lp_reduction(pooling_type, norm_type)
    if reduction == "max" and global_pooling and adaptive:
        geometry.as_phi_global_adaptive_max()
    geometry.check_scratch(x, geometry.adaptive)
    last = geometry.channel_last
    planes = [channels_first(xp, a, last) for a in (x, out, out_grad)]
    if reduction == "lp":
        grad = lp_pool_grad(xp, *planes, geometry, norm_type)
    else:
        grad = pool_grad(xp, *planes, geometry, reduction, exclusive)
    if last:
        grad = xp.moveaxis(grad, 1, -1)
    return xp.ascontiguousarray(grad)


def fractional_max_pool_grad(xp: Any, x: Array, mask: Array, out_grad: Array) -> Array:
    """Each output's gradient added at the input element its mask names (in its plane or
    volume), as PHI's FractionalMaxPool{2,3}dGradFunctor; a mask of -1 (a window without a
    maximum) passes nothing."""
    n, c = x.shape[:2]
    plane = 1
    for extent in x.shape[2:]:
        plane *= extent
    grad = xp.zeros((n * c * plane,), out_grad.dtype)
    if out_grad.size == 0:
        return grad.reshape(x.shape)
    offsets = (xp.arange(n * c, dtype="int64") * plane).reshape((n, c) + (1,) * (mask.ndim - 2))
    flat = (mask.astype("int64") + offsets).ravel()
    values = out_grad.ravel()
    kept = mask.ravel() >= 0
    scatter_at("add", grad, flat[kept], values[kept])
    return grad.reshape(x.shape)


@register_kernel("fractional_max_pool2d_grad", dtypes=FRACTIONAL_DTYPES)
@register_kernel("fractional_max_pool3d_grad", dtypes=FRACTIONAL_DTYPES)
def fractional_max_pool2d_grad_kernel(
    ctx: KernelContext,
    x: Array,
    mask: Array,
    out_grad: Array,
    output_size: tuple[int, ...],
    kernel_size: tuple[int, ...],
    random_u: float,
    return_mask: bool,
) -> Array:
    return fractional_max_pool_grad(ctx.xp, x, mask, out_grad)
