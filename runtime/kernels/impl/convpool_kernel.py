"""max_pool3d_with_index and unpool/unpool3d (the convpool family).

max_pool3d_with_index: max pooling of an NCDHW x that also returns where each maximum is.

As PHI's MaxPool3dWithIndexFunctor (paddle/phi/kernels/funcs/pooling.cc): windows are clipped
to the input (padding never wins), ``mask`` holds the int32 flat index d * H * W + h * W + w of
the first maximum in row-major window order, and adaptive pooling takes the windows
[floor(i*in/out), ceil((i+1)*in/out)). Adaptive and global pooling use the 2-D op's helpers
(which work for any rank); regular windows take one pass instead: the input padded with -inf
viewed as windows [N, C, *out, K], copied once, ``argmax`` picking the first maximum of each and
its tap giving the flat position (about as fast as numpy's windowed max + argmax; the helpers'
pool-then-match took 1.8x that). A window whose real elements are all -inf (or that holds NaN)
keeps its first real element's position.

unpool/unpool3d: as PHI's UnpoolKernel/Unpool3dKernel, a zero output of
[N, C, *output_size] with each value of x written at the flat position (in its output plane) its
index names; an index outside [0, plane) is an InvalidArgumentError (PHI enforces < plane). Of
repeated positions the last value wins on numpy, as in PHI's loop (CuPy leaves it unspecified).
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
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
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


# PaddlePaddle 3.3.1 registers unpool and unpool3d on CPU for float32, float64 and int64
# (runtime/kernels/paddle_3_3_1_cpu.json); the indices may be int32 or int64.
UNPOOL_DTYPES = (DataType.FLOAT32, DataType.FLOAT64, DataType.INT64)


def _any_index_dtype(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)


def flat_unpool_indices(xp: Any, indices: Array, plane: int, op: str) -> Array:
    """``indices`` [N, C, *in] as int64 [N * C, prod(in)], each checked to be in [0, plane)."""
    rows = indices.shape[0] * indices.shape[1]
    flat = indices.reshape(rows, indices.size // rows if rows else 0).astype("int64", copy=False)
    if flat.size:
        low, high = int(flat.min()), int(flat.max())
        if low < 0 or high >= plane:
            bad = low if low < 0 else high
            raise InvalidArgumentError(
                f"{op}(): argument 'indices' must hold positions in [0, {plane}) of the output "
                f"plane, got {bad}"
            )
    return flat


def unpool_into(xp: Any, x: Array, indices: Array, output_size: tuple[int, ...], op: str) -> Array:
    """A zero [N, C, *output_size] with each value of x at the flat position its index names (of
    repeated positions, the last value)."""
    n, c = x.shape[:2]
    plane = math.prod(output_size)
    flat = flat_unpool_indices(xp, indices, plane, op)
    out = xp.zeros((n * c, plane), dtype=x.dtype)
    if flat.size:
        rows = xp.arange(n * c, dtype="int64")[:, None]
        out[rows, flat] = x.reshape(n * c, flat.shape[1])
    return out.reshape((n, c) + tuple(output_size))


@register_kernel("unpool", dtypes=UNPOOL_DTYPES, configure=_any_index_dtype)
def unpool_kernel(
    ctx: KernelContext,
    x: Array,
    indices: Array,
    ksize: tuple[int, ...],
    strides: tuple[int, ...],
    padding: tuple[int, ...],
    output_size: tuple[int, ...],
    data_format: str,
) -> Array:
    return unpool_into(ctx.xp, x, indices, tuple(output_size), "unpool")


@register_kernel("unpool3d", dtypes=UNPOOL_DTYPES, configure=_any_index_dtype)
def unpool3d_kernel(
    ctx: KernelContext,
    x: Array,
    indices: Array,
    ksize: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    output_size: tuple[int, ...],
    data_format: str,
) -> Array:
    return unpool_into(ctx.xp, x, indices, tuple(output_size), "unpool3d")
