"""max_pool2d_with_index: max pooling (NCHW) that also returns where each maximum is.

As PHI's MaxPool2dWithIndexFunctor: windows are clipped to the input (padding never wins),
``mask`` holds the int32 flat index h * W + w of the first maximum in row-major window order,
and adaptive pooling takes the windows [floor(i*in/out), ceil((i+1)*in/out)).
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.conv_kernel import pad_spatial
from phiops.runtime.kernels.impl.pool_kernel import (
    PoolGeometry,
    adaptive_indices,
    gather_windows,
    pool,
    window_coordinates,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/pool_kernel.cc).
MAX_POOL_WITH_INDEX_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


def flat_positions(coordinates: list[Array], spatial: tuple[int, ...]) -> Array:
    """Flat indices in a plane of ``spatial`` dims from per-dim coordinate arrays."""
    flat = coordinates[0]
    for coordinate, extent in zip(coordinates[1:], spatial[1:]):
        flat = flat * extent + coordinate
    return flat


def max_positions(xp: Any, x: Array, out: Array, geometry: PoolGeometry) -> Array:
    """For each output, the flat input-plane index of the first element of its window equal to
    it (row-major window order)."""
    if geometry.adaptive:
        indices = adaptive_indices(xp, geometry)
    else:
        indices = [
            (xp.arange(o, dtype="int64") * s - p0)[:, None] + xp.arange(k, dtype="int64")[None, :]
            for o, s, k, (p0, _) in zip(
                geometry.out, geometry.strides, geometry.kernel, geometry.pads
            )
        ]
    # positions outside the input never hold the maximum: clip them and mark them impossible
    valid = [(idx >= 0) & (idx < size) for idx, size in zip(indices, geometry.spatial)]
    clipped = [xp.clip(idx, 0, size - 1) for idx, size in zip(indices, geometry.spatial)]
    gathered = gather_windows(xp, x, clipped)  # [N, C, o1, k1, o2, k2, ...]
    rank = len(indices)
    order = (0, 1) + tuple(range(2, 2 + 2 * rank, 2)) + tuple(range(3, 3 + 2 * rank, 2))
    candidates = xp.transpose(gathered, order).reshape(out.shape + (-1,))
    inside = window_coordinates(xp, [v.astype("int64") for v in valid])
    inside_all = inside[0]
    for mask in inside[1:]:
        inside_all = inside_all * mask
    hits = (candidates == out[..., None]) & (inside_all > 0)
    first = xp.argmax(hits, axis=-1)
    flat = flat_positions(window_coordinates(xp, clipped), geometry.spatial)  # [*out, K]
    chosen = xp.take_along_axis(
        xp.broadcast_to(flat, first.shape + flat.shape[-1:]), first[..., None], axis=-1
    )
    return chosen[..., 0]


@register_kernel(
    "max_pool2d_with_index",
    dtypes=MAX_POOL_WITH_INDEX_DTYPES,
    configure=lambda k: k.output_at(1).set_dtype(DataType.INT32),
)
def max_pool2d_with_index_kernel(
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
        "NCHW",
        global_pooling,
        adaptive,
        "EXPLICIT",
    )
    geometry.check_scratch(x, True)
    out = pool(xp, x, geometry, "max", True)
    return out, max_positions(xp, x, out, geometry).astype("int32")
