"""max_pool3d_with_index: max pooling of an NCDHW x that also returns where each maximum is.

As PHI's MaxPool3dWithIndexFunctor (paddle/phi/kernels/funcs/pooling.cc): windows are clipped
to the input (padding never wins), ``mask`` holds the int32 flat index d * H * W + h * W + w of
the first maximum in row-major window order, and adaptive pooling takes the windows
[floor(i*in/out), ceil((i+1)*in/out)). Adaptive and global pooling use the 2-D op's helpers
(which work for any rank); regular windows take one pass instead: the input padded with -inf
viewed as windows [N, C, *out, K], copied once, ``argmax`` picking the first maximum of each and
its tap giving the flat position (about as fast as numpy's windowed max + argmax; the helpers'
pool-then-match took 1.8x that). A window whose real elements are all -inf (or that holds NaN)
keeps its first real element's position.
"""

from __future__ import annotations

import math
from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.max_pool_with_index_kernel import (
    MAX_POOL_WITH_INDEX_DTYPES,
    max_positions,
)
from phiops.runtime.kernels.impl.conv_kernel import pad_spatial
from phiops.runtime.kernels.impl.pool_kernel import PoolGeometry, pool
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


# PaddlePaddle 3.3.1 registers max_pool3d_with_index on CPU for float32 and float64
# (paddle/phi/kernels/cpu/pool_kernel.cc), as the 2-D op.
@register_kernel(
    "max_pool3d_with_index",
    dtypes=MAX_POOL_WITH_INDEX_DTYPES,
    configure=lambda k: k.output_at(1).set_dtype(DataType.INT32),
)
def max_pool3d_with_index_kernel(
    ctx: KernelContext,
    x: Array,
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    global_pooling: bool,
    adaptive: bool,
    ceil_mode: bool,
) -> tuple[Array, Array]:
    xp = ctx.xp
    geometry = PoolGeometry(
        x.shape,
        kernel_size,
        strides,
        paddings,
        ceil_mode,
        "NCDHW",
        global_pooling,
        adaptive,
        "EXPLICIT",
    )
    if x.size == 0:  # an empty batch or channel axis: nothing to pool
        shape = tuple(x.shape[:2]) + tuple(geometry.out)
        return xp.zeros(shape, dtype=x.dtype), xp.zeros(shape, dtype="int32")
    geometry.check_scratch(x, True)
    if not geometry.adaptive and not global_pooling:
        return _regular_windows(xp, x, geometry)
    out = pool(xp, x, geometry, "max", True)
    return out, max_positions(xp, x, out, geometry).astype("int32")


def _regular_windows(xp: Any, x: Array, geometry: PoolGeometry) -> tuple[Array, Array]:
    """(out, mask) of regular windows: one copy of the windows, one argmax."""
    extent = geometry.padded_extent()
    padded = pad_spatial(xp, x, extent, value=-xp.inf)
    rank = len(geometry.spatial)
    step = padded.strides[2:]
    view = xp.lib.stride_tricks.as_strided(
        padded,
        tuple(x.shape[:2]) + tuple(geometry.out) + tuple(geometry.kernel),
        padded.strides[:2] + tuple(b * s for b, s in zip(step, geometry.strides)) + step,
    )
    taps = math.prod(geometry.kernel)
    windows = view.reshape(tuple(x.shape[:2]) + tuple(geometry.out) + (taps,))  # copies
    first = xp.argmax(windows, axis=-1)
    out = xp.take_along_axis(windows, first[..., None], axis=-1)[..., 0]
    flat = None
    remaining = first
    for axis in range(rank - 1, -1, -1):  # the tap's coordinate along each axis, last first
        k = geometry.kernel[axis]
        tap = remaining % k
        remaining = remaining // k
        shape = [1] * (2 + rank)
        shape[2 + axis] = geometry.out[axis]
        start = (
            xp.arange(geometry.out[axis], dtype="int64") * geometry.strides[axis]
            - extent[axis][0]
        ).reshape(shape)
        coordinate = xp.clip(start + tap, 0, geometry.spatial[axis] - 1)
        stride = math.prod(geometry.spatial[axis + 1 :])
        flat = coordinate * stride if flat is None else flat + coordinate * stride
    return out, flat.astype("int32")
