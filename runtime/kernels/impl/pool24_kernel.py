"""lp_pool2d and fractional_max_pool2d/3d, issue 24's pool24.

lp_pool2d: power-mean pooling, (sum of x ** p over each window) ** (1 / p).

As PaddlePaddle 3.3.1's CPU kernel (the ``LPPool`` process of paddle/phi/kernels/funcs/pooling.h
run by the pool2d functors): windows are those of pool2d (clipped to the input, so padding is
never in one; adaptive windows when ``adaptive``), each element's power is ``powf`` (float32,
for float64 inputs too) summed in the input's dtype, and the root is ``powf`` again, so float64
results carry float32 precision. ``norm_type`` +inf pools the maximum, as do ``pooling_type``
max; ``pooling_type`` avg averages as pool2d does; 0 is refused. The sums are one strided slice
per kernel tap (regular windows) or the separable products of the adaptive windows, as
pool_kernel.py does them.

fractional_max_pool2d/3d: the maximum of pseudo-random windows (Graham, "Fractional
Max-Pooling", 2015) as PaddlePaddle 3.3.1's CPU functors (paddle/phi/kernels/funcs/pooling.cc):
window bounds per axis from one u in float32 arithmetic, u drawn from the place's
std::mt19937_64 when ``random_u`` is 0; the windows of every axis are gathered at once and the
first maximum of each found by one ``argmax``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.conv_kernel import channels_first, pad_spatial
from phiops.runtime.kernels import mt19937
from phiops.runtime.kernels.impl.pool_kernel import (
    PoolGeometry,
    adaptive_einsum,
    adaptive_matrices,
    pool,
    window_coordinates,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.random import engine_for

# PaddlePaddle 3.3.1's CPU registrations of lp_pool2d and lp_pool2d_grad.
LP_POOL_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


def lp_geometry(
    x: Array,
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    ceil_mode: bool,
    data_format: str,
    global_pooling: bool,
    adaptive: bool,
    padding_algorithm: str,
    norm_type: float,
) -> PoolGeometry:
    """The windows of one lp_pool2d call, after refusing a zero ``norm_type``."""
    if norm_type == 0:
        raise InvalidArgumentError("lp_pool2d: argument 'norm_type' must be nonzero, got 0")
    return PoolGeometry(
        x.shape,
        kernel_size,
        strides,
        paddings,
        ceil_mode,
        data_format,
        global_pooling,
        adaptive,
        padding_algorithm,
    )


def lp_reduction(pooling_type: str, norm_type: float) -> str:
    """What lp_pool2d takes of each window: max, avg (pool2d's) or lp (the power mean)."""
    if norm_type == math.inf or pooling_type == "max":
        return "max"
    return "avg" if pooling_type == "avg" else "lp"


def lp_pool(xp: Any, x: Array, geometry: PoolGeometry, norm_type: float) -> Array:
    """(sum over each window of powf(x, p)) ** (1 / p) for ``x`` [N, C, H, W]."""
    single = xp.float32
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore"):
        powered = (x.astype(single) ** single(norm_type)).astype(x.dtype, copy=False)
        if geometry.adaptive:
            matrices = adaptive_matrices(xp, geometry, x.dtype)
            summed = xp.einsum(adaptive_einsum(2, False), powered, *matrices)
        else:
            padded = pad_spatial(xp, powered, geometry.padded_extent())
            summed = None
            for tap in geometry.taps():
                part = padded[geometry.tap_slices(tap)]
                summed = part.copy() if summed is None else summed + part
        root = summed.astype(single) ** single(1.0 / norm_type)
    return root.astype(x.dtype, copy=False)


@register_kernel("lp_pool2d", dtypes=LP_POOL_DTYPES)
def lp_pool2d_kernel(
    ctx: KernelContext,
    x: Array,
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
    geometry.check_scratch(x, geometry.adaptive and reduction == "max")
    planes = channels_first(xp, x, geometry.channel_last)
    if reduction == "lp":
        result = lp_pool(xp, planes, geometry, norm_type)
    else:
        result = pool(xp, planes, geometry, reduction, exclusive)
    if geometry.channel_last:
        result = xp.moveaxis(result, 1, -1)
    return xp.ascontiguousarray(result)


# PaddlePaddle 3.3.1's CPU registrations of fractional_max_pool2d/3d and their grads.
FRACTIONAL_DTYPES = (DataType.FLOAT16, DataType.FLOAT32, DataType.FLOAT64)


def fractional_bounds(extent: int, out: int, kernel: int, u: Any) -> list[tuple[int, int]]:
    """[start, end) of each fractional window along one axis, in float32 as PHI's
    FractionalRationalU, FractionalStartIndex and FractionalEndIndex (funcs/pooling.h):
    alpha = (extent - kernel) / (out - 1) with a kernel, extent / out without, u scaled to
    the largest value that keeps the windows inside without one."""
    single = numpy.float32
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore"):
        alpha = single(extent - kernel) / single(out - (1 if kernel > 0 else 0))
        if kernel <= 0:
            base = extent // out
            u_max1 = single(base + 2) / alpha - single(1)
            u_max2 = single(extent + 1 - base) / alpha - single(out - 1)
            u = u * min(u_max1, u_max2)
        shift = _trunc(u * alpha)
        bounds = []
        for idx in range(out):
            start = _trunc((single(idx) + u) * alpha) - shift
            if kernel > 0:
                end = start + kernel
            else:
                end = _trunc((single(idx + 1) + u) * alpha) - shift
            bounds.append((max(start, 0), min(end, extent)))
    return bounds


def _trunc(value: Any) -> int:
    """C's static_cast<int> of a finite float; a non-finite one (output_size 1 with a kernel
    divides by zero) starts the window at 0."""
    return int(value) if numpy.isfinite(value) else 0


def fractional_u(ctx: KernelContext, random_u: float) -> Any:
    """The u of the windows: ``random_u``, or when it is 0 one draw of
    std::uniform_real_distribution<float>(0, 1) from the place's engine, as PHI's CPU
    functor draws it (so ``paddle.seed`` replays it)."""
    if random_u != 0:
        return numpy.float32(random_u)
    state = engine_for(ctx.place)
    return mt19937.uniform(state, 1, 0.0, 1.0, numpy.float32)[0]


def fractional_max_pool(
    xp: Any, x: Array, output_size: tuple[int, ...], kernel_size: tuple[int, ...], u: Any
) -> tuple[Array, Array]:
    """Max of each fractional window of ``x`` [N, C, *spatial] and the flat index (in its
    plane or volume) of the first maximum in row-major order, int32. As PHI, a window's
    maximum starts at the lowest finite float, so NaN never wins and a window of values at or
    below it gives that value and index -1."""
    spatial = x.shape[2:]
    rank = len(spatial)
    tables = []
    for extent, out, kernel in zip(spatial, output_size, kernel_size):
        bounds = fractional_bounds(extent, out, kernel, u)
        widest = max(max(end - start for start, end in bounds), 1)
        rows = [[min(start + k, max(end - 1, 0)) for k in range(widest)] for start, end in bounds]
        tables.append(xp.asarray(rows, dtype="int64"))
    lead = x.shape[:2]
    outs = tuple(output_size)
    if x.size == 0 or any(extent == 0 for extent in spatial):
        return xp.zeros(lead + outs, x.dtype), xp.full(lead + outs, -1, "int32")
    coordinates = window_coordinates(xp, tables)  # per dim [*out, K]
    flat = coordinates[0]
    for d in range(1, rank):
        flat = flat * spatial[d] + coordinates[d]
    planes = x.reshape(lead + (-1,))
    candidates = planes[..., flat]  # [N, C, *out, K]
    with numpy.errstate(over="ignore"):  # float16's lowest float is -inf, as PHI's cast
        low = x.dtype.type(-numpy.finfo(numpy.float32).max)
    candidates = xp.where(xp.isnan(candidates), xp.asarray(-xp.inf, x.dtype), candidates)
    first = xp.argmax(candidates, axis=-1)
    best = xp.take_along_axis(candidates, first[..., None], axis=-1)[..., 0]
    index = xp.take_along_axis(xp.broadcast_to(flat, candidates.shape), first[..., None], axis=-1)[
        ..., 0
    ]
    found = best > low
    out = xp.where(found, best, xp.asarray(low, x.dtype))
    mask = xp.where(found, index, -1).astype("int32")
    return out, mask


def _fractional_kernel(
    ctx: KernelContext,
    x: Array,
    output_size: tuple[int, ...],
    kernel_size: tuple[int, ...],
    random_u: float,
    rank: int,
    op: str,
) -> tuple[Array, Array]:
    if x.ndim != rank + 2:
        raise InvalidArgumentError(
            f"{op}: argument 'x' must be a {rank + 2}-D tensor, got shape {list(x.shape)}"
        )
    u = fractional_u(ctx, random_u)
    return fractional_max_pool(ctx.xp, x, tuple(output_size), tuple(kernel_size), u)


@register_kernel("fractional_max_pool2d", dtypes=FRACTIONAL_DTYPES)
def fractional_max_pool2d_kernel(
    ctx: KernelContext,
    x: Array,
    output_size: tuple[int, ...],
    kernel_size: tuple[int, ...],
    random_u: float,
    return_mask: bool,
) -> tuple[Array, Array]:
    return _fractional_kernel(
        ctx, x, output_size, kernel_size, random_u, 2, "fractional_max_pool2d"
    )


@register_kernel("fractional_max_pool3d", dtypes=FRACTIONAL_DTYPES)
def fractional_max_pool3d_kernel(
    ctx: KernelContext,
    x: Array,
    output_size: tuple[int, ...],
    kernel_size: tuple[int, ...],
    random_u: float,
    return_mask: bool,
) -> tuple[Array, Array]:
    return _fractional_kernel(
        ctx, x, output_size, kernel_size, random_u, 3, "fractional_max_pool3d"
    )
