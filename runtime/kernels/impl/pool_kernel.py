"""pool2d and pool3d (one kernel): max and average pooling, regular, global or adaptive, channels first or last.

Regular pooling views the padded input as strided slices, one per kernel tap, and combines
them with ``maximum``/``add`` (prod(kernel) vectorised steps, never a loop over pixels). As PHI's
CPU kernels (paddle/phi/kernels/funcs/pooling.cc): a window is clipped to the input, so padding
never wins a max; the average divides by the clipped window's size when ``exclusive`` and
otherwise by the window counted from its start, leading padding included, up to the input's end
plus the leading padding (prod(kernel) unless ceil_mode or trailing padding runs past that). Adaptive pooling uses the windows [floor(i*in/out), ceil((i+1)*in/out)):
averages as one separable matrix product per spatial dim, maxima over gathered windows.

Fast paths (issue 26): a pooling whose one window is the whole input (global pooling, adaptive
pooling to 1x1) is a ``mean``/``max`` over the spatial axes (the compiled kernel's one window
for small 2-D planes); regular 2-D pooling of numpy
float32/float64 arrays runs the compiled kernel (`phiops.runtime.kernels.native`: each output
row combined from the input rows its windows clip to, one pass, split between
``FLAGS_intra_op_threads`` threads when large). Channels-last 2-D arrays take the compiled
channels-last kernel (`pool_native_nhwc`: each output pixel's channels one vector, no
transposing copy in or out), whose results are the channels-first kernel's bit for bit. All give
the numpy path's values.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy

from phiops.runtime.common import DataType
from phiops.runtime.infermeta.sizes import check_scratch_size
from phiops.runtime.infermeta.spatial import CHANNEL_LAST, pool_out_size
from phiops.runtime.infermeta.unary import pool_geometry
from phiops.runtime.kernels.impl.conv_kernel import channels_first, pad_spatial
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.native import native_function, parallel_rows
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/pool_kernel.cc).
POOL_DTYPES = (DataType.FLOAT16, DataType.FLOAT32, DataType.FLOAT64)

_EINSUM_DIMS = "defgh"


class PoolGeometry:
    """The windows of one pooling call: kernel, strides, (before, after) paddings, output."""

    __slots__ = ("kernel", "strides", "pads", "out", "spatial", "adaptive", "channel_last")

    def __init__(
        self,
        shape: tuple[int, ...],
        kernel_size: tuple[int, ...],
        strides: tuple[int, ...],
        paddings: tuple[int, ...],
        ceil_mode: bool,
        data_format: str,
        global_pooling: bool,
        adaptive: bool,
        padding_algorithm: str,
    ) -> None:
        self.channel_last = data_format in CHANNEL_LAST
        self.spatial = tuple(shape[1:-1] if self.channel_last else shape[2:])
        self.kernel, self.pads = pool_geometry(
            self.spatial,
            tuple(kernel_size),
            tuple(strides),
            tuple(paddings),
            global_pooling,
            adaptive,
            padding_algorithm,
        )
        self.strides = tuple(strides)
        self.adaptive = adaptive and not global_pooling
        if global_pooling and adaptive:
            # PHI: global pooling makes the kernel the input's extent and adaptive pooling makes
            # the output that kernel, so each window is one element (the output is the input)
            self.adaptive = True
            self.out = self.spatial
        elif global_pooling:
            self.out = (1,) * len(self.spatial)
            self.strides = (1,) * len(self.spatial)
        elif self.adaptive:
            self.out = self.kernel
        else:
            self.out = tuple(
                pool_out_size(size, k, p, s, ceil_mode, axis)
                for axis, (size, k, p, s) in enumerate(
                    zip(self.spatial, self.kernel, self.pads, self.strides)
                )
            )

    def as_phi_global_adaptive_max(self) -> None:
        """pool2d/pool3d's max with global_pooling and adaptive, as PHI's CPU max functor runs it:
        it ignores ``adaptive`` (which only gave the output its dims, the input's) and takes
        regular windows of the whole extent from each output position at the given strides,
        clipped at the input's end."""
        self.adaptive = False
        self.kernel = self.spatial
        self.out = self.spatial
        self.pads = ((0, 0),) * len(self.spatial)

    def padded_extent(self) -> tuple[tuple[int, int], ...]:
        """(before, after) padding that makes every window fit inside the padded input."""
        return tuple(
            (p0, max((o - 1) * s + k - p0 - size, 0))
            for size, k, s, o, (p0, _) in zip(
                self.spatial, self.kernel, self.strides, self.out, self.pads
            )
        )

    def tap_slices(self, tap: tuple[int, ...]) -> tuple[slice, ...]:
        """The padded-input slice a kernel tap reads for every output position."""
        return (slice(None), slice(None)) + tuple(
            slice(t, t + s * (o - 1) + 1, s) for t, s, o in zip(tap, self.strides, self.out)
        )

    def taps(self) -> Any:
        return itertools.product(*(range(k) for k in self.kernel))

    def window_counts(self, xp: Any, dtype: Any) -> Array:
        """How many input elements (padding excluded) each regular window covers, [*out]."""
        ones = xp.ones((1, 1) + self.spatial, dtype)
        padded = pad_spatial(xp, ones, self.padded_extent())
        counts = xp.zeros((1, 1) + self.out, dtype)
        for tap in self.taps():
            counts += padded[self.tap_slices(tap)]
        return counts[0, 0]

    def inclusive_counts(self, xp: Any, dtype: Any) -> Array:
        """The divisor of a non-exclusive average per window, [*out], as PHI's pooling.cc
        computes it: the window from its unclamped start (``o * stride - pad_before``), ended at
        ``size + pad_before``. So the leading padding counts, and a window that ceil_mode lets
        run past that end (into the trailing padding or beyond) counts only what is before it:
        prod(kernel) for every window that stays inside."""
        counts = None
        for size, kernel, stride, (before, _), out in zip(
            self.spatial, self.kernel, self.strides, self.pads, self.out
        ):
            starts = xp.arange(out) * stride - before
            extents = xp.minimum(starts + kernel, size + before) - starts
            counts = extents if counts is None else xp.multiply.outer(counts, extents)
        return counts.astype(dtype)

    def check_scratch(self, x: Array, gathers_windows: bool) -> None:
        """Refuse, before allocating them, scratch buffers of pooling ``x`` larger than
        FLAGS_max_alloc_bytes: the padded copy of the input (regular windows)
        and, when ``gathers_windows`` (adaptive max, max_pool2d_with_index), the gathered
        windows [N, C, *out, *window]."""
        lead = (x.shape[0], x.shape[-1] if self.channel_last else x.shape[1])
        if not self.adaptive:
            extent = self.padded_extent()
            padded = tuple(size + p0 + p1 for size, (p0, p1) in zip(self.spatial, extent))
            check_scratch_size("padded input", lead + padded, x.itemsize)
        if gathers_windows:
            if self.adaptive:
                window = tuple(
                    max(end - start for start, end in adaptive_bounds(size, out))
                    for size, out in zip(self.spatial, self.out)
                )
            else:
                window = self.kernel
            check_scratch_size("gathered windows", lead + self.out + window, x.itemsize)


def adaptive_bounds(size: int, out: int) -> list[tuple[int, int]]:
    """[start, end) of each adaptive window: floor(i*size/out), ceil((i+1)*size/out)."""
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


def adaptive_matrices(xp: Any, geometry: PoolGeometry, dtype: Any) -> list[Array]:
    """Per spatial dim, the [out, in] 0/1 matrix of the adaptive windows."""
    matrices = []
    for size, out in zip(geometry.spatial, geometry.out):
        matrix = xp.zeros((out, size), dtype)
        for i, (start, end) in enumerate(adaptive_bounds(size, out)):
            matrix[i, start:end] = 1
        matrices.append(matrix)
    return matrices


def adaptive_indices(xp: Any, geometry: PoolGeometry) -> list[Array]:
    """Per spatial dim, [out, widest window] input indices; short windows repeat their last
    index, which changes no maximum and comes after the first match."""
    indices = []
    for size, out in zip(geometry.spatial, geometry.out):
        bounds = adaptive_bounds(size, out)
        widest = max(end - start for start, end in bounds)
        rows = [[min(start + k, end - 1) for k in range(widest)] for start, end in bounds]
        indices.append(xp.asarray(rows, dtype="int64"))
    return indices


def adaptive_einsum(rank: int, transpose: bool) -> str:
    """'nc<in>,<o><i>,...->nc<out>' for a separable product over ``rank`` spatial dims."""
    ins = _EINSUM_DIMS[:rank].upper()
    outs = _EINSUM_DIMS[:rank]
    mats = ",".join(o + i for o, i in zip(outs, ins))
    if transpose:
        return f"nc{outs},{mats}->nc{ins}"
    return f"nc{ins},{mats}->nc{outs}"


def gather_windows(xp: Any, x: Array, indices: list[Array]) -> Array:
    """[N, C, o1, k1, o2, k2, ...] gathered from ``x`` [N, C, *spatial]."""
    rank = len(indices)
    index: list[Any] = [slice(None), slice(None)]
    for d, idx in enumerate(indices):
        shape = [1] * (2 * rank)
        shape[2 * d], shape[2 * d + 1] = idx.shape
        index.append(idx.reshape(shape))
    return x[tuple(index)]


def window_coordinates(xp: Any, indices: list[Array]) -> list[Array]:
    """From per-dim [out_d, k_d] index tables, per-dim [*out, K] coordinates of each window
    element, K in row-major order over (k_1, k_2, ...)."""
    rank = len(indices)
    outs = tuple(idx.shape[0] for idx in indices)
    ks = tuple(idx.shape[1] for idx in indices)
    result = []
    for d, idx in enumerate(indices):
        shape = [1] * (2 * rank)
        shape[d], shape[rank + d] = idx.shape
        full = xp.broadcast_to(idx.reshape(shape), outs + ks)
        result.append(full.reshape(outs + (-1,)))
    return result


def covers_whole_input(geometry: PoolGeometry) -> bool:
    """Whether the pooling has one window, the whole input: adaptive to 1 per dim, or a regular
    window of the input's extent without padding."""
    if any(o != 1 for o in geometry.out):
        return False
    if geometry.adaptive:
        return True
    return geometry.kernel == geometry.spatial and not any(
        p for pair in geometry.pads for p in pair
    )


# A whole-input window of at most this many elements is pooled by the compiled kernel (one
# float sum per plane, in order); larger ones by numpy's mean (pairwise sums, as accurate as
# the float32 tolerance needs for any plane).
WHOLE_INPUT_NATIVE_MAX = 256


# dtype -> its lowest finite value, where a max starts
_LOWEST: dict[Any, float] = {}


def lowest(dtype: Any) -> float:
    """The lowest finite value of ``dtype``, where PHI's max pooling starts."""
    low = _LOWEST.get(dtype)
    if low is None:
        low = _LOWEST[dtype] = float(numpy.finfo(dtype).min)
    return low


def pool_native(
    pool2d: Any,
    x: Array,
    kernel: tuple[int, ...],
    out_size: tuple[int, ...],
    strides: tuple[int, ...],
    pads: tuple[tuple[int, int], ...],
    is_max: bool,
    exclusive: bool,
) -> Array:
    """Regular 2-D pooling of a numpy float array [N, C, H, W] by the compiled ``pool2d``."""
    x = numpy.ascontiguousarray(x)
    n, c, h, w = x.shape
    out = numpy.empty((n, c) + out_size, x.dtype)
    args = (
        h,
        w,
        *kernel,
        *out_size,
        *strides,
        *(before for before, _ in pads),
        is_max,
        exclusive,
        lowest(x.dtype),
    )
    parallel_rows(lambda r0, r1: pool2d(x, n * c, *args, r0, r1, out), n * c, x.size + out.size)
    return out


def native_pool_nhwc(x: Array, geometry: PoolGeometry) -> Any:
    """The compiled channels-last ``pool2d_nhwc`` for pooling ``x`` [N, H, W, C] where it
    applies (a numpy float array, the extension on and built with it; regular windows, or one
    window over a whole input small enough for `WHOLE_INPUT_NATIVE_MAX`), else None."""
    if not geometry.channel_last or len(geometry.spatial) != 2:
        return None
    if covers_whole_input(geometry):
        if geometry.spatial[0] * geometry.spatial[1] > WHOLE_INPUT_NATIVE_MAX:
            return None
    elif geometry.adaptive:
        return None
    return native_function(x, "pool2d_nhwc")


def pool_native_nhwc(
    pool2d_nhwc: Any, x: Array, geometry: PoolGeometry, is_max: bool, exclusive: bool
) -> Array:
    """2-D pooling of a numpy float array [N, H, W, C] by the compiled ``pool2d_nhwc``: each
    output pixel's channels at once, no transposing copy; the bits of `pool_native`'s."""
    x = numpy.ascontiguousarray(x)
    n, h, w, c = x.shape
    if covers_whole_input(geometry):  # global or adaptive-to-1x1: one window, the input
        kernel, out_size, strides, pads = (h, w), (1, 1), (1, 1), ((0, 0), (0, 0))
        exclusive = True
    else:
        kernel, out_size = geometry.kernel, geometry.out
        strides, pads = geometry.strides, geometry.pads
    out = numpy.empty((n,) + out_size + (c,), x.dtype)
    args = (
        h,
        w,
        *kernel,
        *out_size,
        *strides,
        *(before for before, _ in pads),
        is_max,
        exclusive,
        lowest(x.dtype),
    )
    parallel_rows(
        lambda r0, r1: pool2d_nhwc(x, n, c, *args, r0, r1, out),
        n * out_size[0],
        x.size + out.size,
    )
    return out


def pool(xp: Any, x: Array, geometry: PoolGeometry, pooling_type: str, exclusive: bool) -> Array:
    """Pool ``x`` [N, C, *spatial] (channels first)."""
    rank = len(geometry.spatial)
    is_max = pooling_type == "max"
    if x.size and covers_whole_input(geometry):
        pool2d = native_function(x, "pool2d") if rank == 2 else None
        if pool2d is not None and x[0, 0].size <= WHOLE_INPUT_NATIVE_MAX:
            # numpy reduces a short trailing axis a row at a time: 20x slower than this
            spatial = geometry.spatial
            return pool_native(pool2d, x, spatial, (1, 1), (1, 1), ((0, 0), (0, 0)), is_max, True)
        axes = tuple(range(2, 2 + rank))
        return x.max(axis=axes, keepdims=True) if is_max else x.mean(axis=axes, keepdims=True)
    pool2d = native_function(x, "pool2d") if rank == 2 and not geometry.adaptive else None
    if pool2d is not None:
        args = (geometry.kernel, geometry.out, geometry.strides, geometry.pads)
        return pool_native(pool2d, x, *args, is_max, exclusive)
    if geometry.adaptive:
        if pooling_type == "avg":
            matrices = adaptive_matrices(xp, geometry, x.dtype)
            summed = xp.einsum(adaptive_einsum(rank, False), x, *matrices)
            counts = matrices[0].sum(axis=1)
            for matrix in matrices[1:]:
                counts = xp.multiply.outer(counts, matrix.sum(axis=1))
            return (summed / counts).astype(x.dtype, copy=False)
        gathered = gather_windows(xp, x, adaptive_indices(xp, geometry))
        return gathered.max(axis=tuple(range(3, 3 + 2 * rank, 2)))
    # PHI starts a max at the lowest finite value: an all-padding window gives that, not -inf.
    low = float(xp.finfo(x.dtype).min) if is_max else 0
    padded = pad_spatial(xp, x, geometry.padded_extent(), low)
    result = None
    for tap in geometry.taps():
        part = padded[geometry.tap_slices(tap)]
        if result is None:
            result = part.copy()
        elif is_max:
            xp.maximum(result, part, out=result)
        else:
            result += part
    if is_max:
        return result
    if exclusive:
        return (result / geometry.window_counts(xp, x.dtype)).astype(x.dtype, copy=False)
    return (result / geometry.inclusive_counts(xp, x.dtype)).astype(x.dtype, copy=False)


# (shape, attributes, whether max) -> the PoolGeometry pool2d_kernel uses, made once: a model
# pools the same shapes every run, and working a geometry out costs more than a small pooling
# (the cached geometries are never changed)
_GEOMETRIES: dict[tuple, PoolGeometry] = {}
_GEOMETRIES_MAX = 4096


@register_kernel("pool2d", dtypes=POOL_DTYPES)
@register_kernel("pool3d", dtypes=POOL_DTYPES)
def pool2d_kernel(
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
) -> Array:
    xp = ctx.xp
    key = (
        x.shape, tuple(kernel_size), tuple(strides), tuple(paddings), ceil_mode, data_format,
        global_pooling, adaptive, padding_algorithm, pooling_type == "max",
    )  # fmt: skip
    geometry = _GEOMETRIES.get(key)
    if geometry is None:
        geometry = PoolGeometry(*key[:-1])
        if global_pooling and adaptive and pooling_type == "max":
            geometry.as_phi_global_adaptive_max()
        if len(_GEOMETRIES) >= _GEOMETRIES_MAX:
            _GEOMETRIES.clear()
        _GEOMETRIES[key] = geometry
    geometry.check_scratch(x, geometry.adaptive and pooling_type == "max")
    pool2d_nhwc = native_pool_nhwc(x, geometry)
    if pool2d_nhwc is not None:
        return pool_native_nhwc(pool2d_nhwc, x, geometry, pooling_type == "max", exclusive)
    result = pool(
        xp, channels_first(xp, x, geometry.channel_last), geometry, pooling_type, exclusive
    )
    if geometry.channel_last:
        result = xp.moveaxis(result, 1, -1)
    return xp.ascontiguousarray(result)
