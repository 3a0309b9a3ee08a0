"""pool2d_grad and pool3d_grad, as PHI's CPU grad functors (paddle/phi/kernels/funcs/pooling.cc).

Max pooling passes each output's gradient to the first input of its window (in row-major
order) that equals the output, so ties get it once: kernel taps are visited in that order, each
a strided slice of every window at once; adaptive windows, which may overlap unevenly, find
the positions at once and sum the gradients with one ``bincount``. Average pooling spreads each gradient
evenly over its window: one strided add per kernel tap, or the transposed separable product
for adaptive windows.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.kernels.impl.conv_kernel import channels_first, pad_spatial
from phiops.runtime.kernels.impl.pool_kernel import (
    POOL_DTYPES,
    PoolGeometry,
    adaptive_einsum,
    adaptive_indices,
    adaptive_matrices,
    gather_windows,
    window_coordinates,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def _scatter_first_max(
    xp: Any,
    candidates: Array,
    out: Array,
    dout: Array,
    coordinates: list[Array],
    padded_shape: tuple[int, ...],
) -> Array:
    """Add ``dout`` at the first candidate equal to ``out``.

    ``candidates`` is [N, C, *out, K] (K window elements in row-major order) and
    ``coordinates[d]`` [*out, K] the spatial index of each candidate along dim d in an array of
    ``padded_shape``."""
    n, c = out.shape[:2]
    first = xp.argmax(candidates == out[..., None], axis=-1)  # [N, C, *out]
    flat = xp.zeros(first.shape, "int64")
    for d, coordinate in enumerate(coordinates):
        chosen = xp.take_along_axis(
            xp.broadcast_to(coordinate, first.shape + coordinate.shape[-1:]),
            first[..., None],
            axis=-1,
        )[..., 0]
        flat = flat * padded_shape[2 + d] + chosen
    plane = 1
    for extent in padded_shape[2:]:
        plane *= extent
    flat = flat + (xp.arange(n * c, dtype="int64") * plane).reshape(
        (n, c) + (1,) * (first.ndim - 2)
    )
    summed = xp.bincount(flat.ravel(), weights=dout.ravel(), minlength=n * c * plane)
    return summed.reshape(padded_shape).astype(dout.dtype, copy=False)


def _tiled_max_grad(
    xp: Any, x: Array, out: Array, dout: Array, geometry: PoolGeometry
) -> Array | None:
    """Max pooling's gradient when the windows tile ``x`` exactly (stride equal to the kernel,
    no padding, every element in a window) and each window holds its maximum once; None
    otherwise, for the tap-by-tap walk. ``out`` and ``dout`` are repeated along the last
    axis and broadcast along the others, so every comparison runs over long contiguous rows;
    one match per window (no ties, no NaN) is checked by counting."""
    kernel, spatial = tuple(geometry.kernel), tuple(geometry.spatial)
    if (
        tuple(geometry.strides) != kernel
        or tuple(o * k for o, k in zip(geometry.out, kernel)) != spatial
        or any(p for pair in geometry.padded_extent() for p in pair)
    ):
        return None
    blocks = x.shape[:2]
    for o, k in zip(geometry.out[:-1], kernel[:-1]):
        blocks += (o, k)
    blocks += spatial[-1:]
    spread_axes = tuple(3 + 2 * d for d in range(len(kernel) - 1))

    def upsampled(a: Array) -> Array:
        return xp.expand_dims(xp.repeat(a, kernel[-1], axis=-1), spread_axes)

    hit = x.reshape(blocks) == upsampled(out)
    if int(xp.count_nonzero(hit)) != out.size:
        return None
    grad = xp.where(hit, upsampled(dout), xp.zeros((), dout.dtype))
    return grad.reshape(x.shape)


def pool_grad(
    xp: Any,
    x: Array,
    out: Array,
    dout: Array,
    geometry: PoolGeometry,
    pooling_type: str,
    exclusive: bool,
) -> Array:
    """The gradient of ``pool`` for ``x`` [N, C, *spatial] (channels first)."""
    rank = len(geometry.spatial)
    if geometry.adaptive:
        if pooling_type == "avg":
            matrices = adaptive_matrices(xp, geometry, dout.dtype)
            counts = matrices[0].sum(axis=1)
            for matrix in matrices[1:]:
                counts = xp.multiply.outer(counts, matrix.sum(axis=1))
            spread = xp.einsum(adaptive_einsum(rank, True), dout / counts, *matrices)
            return spread.astype(dout.dtype, copy=False)
        indices = adaptive_indices(xp, geometry)
        gathered = gather_windows(xp, x, indices)  # [N, C, o1, k1, o2, k2, ...]
        order = (
            tuple(range(2)) + tuple(range(2, 2 + 2 * rank, 2)) + tuple(range(3, 3 + 2 * rank, 2))
        )
        candidates = xp.transpose(gathered, order).reshape(out.shape + (-1,))
        coordinates = window_coordinates(xp, indices)
        return _scatter_first_max(xp, candidates, out, dout, coordinates, x.shape)
    extent = geometry.padded_extent()
    if pooling_type == "max":
        tiled = _tiled_max_grad(xp, x, out, dout, geometry)
        if tiled is not None:
            return tiled
        padded = pad_spatial(xp, x, extent, float(xp.finfo(x.dtype).min))
        grad = xp.zeros(padded.shape, dout.dtype)
        taken = xp.zeros(out.shape, bool)
        zero = xp.zeros((), dout.dtype)
        for tap in geometry.taps():
            where = geometry.tap_slices(tap)
            hit = padded[where] == out
            hit &= ~taken
            grad[where] += xp.where(hit, dout, zero)
            taken |= hit
    else:
        padded_shape = x.shape[:2] + tuple(
            size + p0 + p1 for size, (p0, p1) in zip(geometry.spatial, extent)
        )
        grad = xp.zeros(padded_shape, dout.dtype)
        if exclusive:
            share = dout / geometry.window_counts(xp, dout.dtype)
        else:
            share = dout / geometry.inclusive_counts(xp, dout.dtype)
        share = share.astype(dout.dtype, copy=False)
        for tap in geometry.taps():
            grad[geometry.tap_slices(tap)] += share
    crop = (slice(None), slice(None)) + tuple(
        slice(p0, p0 + size) for size, (p0, _) in zip(geometry.spatial, extent)
    )
    return grad[crop]


@register_kernel("pool2d_grad", dtypes=POOL_DTYPES)
@register_kernel("pool3d_grad", dtypes=POOL_DTYPES)
def pool2d_grad_kernel(
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
) -> Array:
    xp = ctx.xp
    geometry = PoolGeometry(
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
    if global_pooling and adaptive and pooling_type == "max":
        geometry.as_phi_global_adaptive_max()
    geometry.check_scratch(x, geometry.adaptive and pooling_type == "max")
    last = geometry.channel_last
    grad = pool_grad(
        xp,
        channels_first(xp, x, last),
        channels_first(xp, out, last),
        channels_first(xp, out_grad, last),
        geometry,
        pooling_type,
        exclusive,
    )
    if last:
        grad = xp.moveaxis(grad, 1, -1)
    return xp.ascontiguousarray(grad)
