"""conv2d, depthwise_conv2d and conv3d: im2col through strided windows, then one batched matmul.

Channels-first input (NCHW, NCDHW) is padded and viewed (``as_strided``, no copy) as windows
[N, groups, C/groups, *kernel, *out]; the windows are copied once into a column matrix and one
batched ``matmul`` with the filter reshaped to [groups, M/groups, C/groups * prod(kernel)]
gives [N, groups, M/groups, prod(out)], the output's own layout (``convolve_channels_first``).
Channels-last input is padded; ``as_strided`` views it (no copy) as windows
[N, *out, *kernel, groups, C/groups]; the windows are copied once into a column matrix [groups,
N * prod(out), prod(kernel) * C/groups] (im2col, contiguous runs of channels), and one
``matmul`` with the filter [groups, prod(kernel) * C/groups, M/groups] gives every output
channel of every group. The output is produced directly in the requested layout. Geometry
(paddings, "SAME"/"VALID", dilations) is PHI's, from ``phiops.runtime.infermeta.spatial``.

Fast paths (issue 26), each equal to the general one within float32 rounding:

- a 1x1 convolution without padding is one GEMM on the input itself (a strided view of it when
  strided), no column matrix: per image for channels first (the batch folded into the GEMM when
  the images are small), over all pixels at once for channels last;
- a 2-D KxK convolution on numpy float arrays takes the compiled im2col with the batch folded
  into the columns, then one GEMM per group (`convolve_folded`; a batch of large images keeps
  one GEMM per image; channels last: the compiled channels-last im2col and one GEMM; without
  the extension a channels-first batch of small images folds through ``as_strided`` windows,
  `convolve_folded_windows`);
- a 2-D channels-first float32 convolution (groups 1) with few output channels takes the
  compiled direct kernel where the CPU has AVX2 and FMA (`convolve_direct`, csrc/conv_direct.h):
  no column matrix, the sums in registers, which im2col + GEMM cannot match when the GEMM is
  skinny (`direct_pays`);
- a depthwise convolution (groups == C > 1, any channel multiplier) is a direct kernel: the
  compiled ones for 2-D numpy float arrays, channels first or last (`depthwise_nhwc`: each
  output pixel's channels one vector, the same sums in the same order as the channels-first
  kernel's, so the same bits), otherwise prod(kernel) vectorised multiply-adds of shifted views
  (`depthwise`), never a GEMM per group.

The compiled loops split large calls between threads (``FLAGS_intra_op_threads``) and the GEMMs
run on ``FLAGS_blas_threads``'s threads (`phiops.runtime.kernels.blas`).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy

from phiops.runtime.common import DataType
from phiops.runtime.infermeta.sizes import check_scratch_size
from phiops.runtime.infermeta.spatial import CHANNEL_LAST, conv_transpose_out_size, resolve_paddings
from phiops.runtime.kernels import blas
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.native import native_function, native_kernels, parallel_rows
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/conv_kernel.cc).
CONV_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


class ConvGeometry:
    """Everything about one convolution call that does not depend on the values."""

    __slots__ = (
        "pads", "strides", "dilations", "kernel", "out", "groups", "channel_last", "pointwise"
    )  # fmt: skip

    def __init__(
        self,
        x_shape: tuple[int, ...],
        filter_shape: tuple[int, ...],
        strides: tuple[int, ...],
        paddings: tuple[int, ...],
        padding_algorithm: str,
        dilations: tuple[int, ...],
        groups: int,
        data_format: str,
    ) -> None:
        self.channel_last = data_format in CHANNEL_LAST
        spatial = tuple(x_shape[1:-1] if self.channel_last else x_shape[2:])
        self.kernel = tuple(filter_shape[2:])
        self.strides = tuple(strides)
        self.pads, self.dilations = resolve_paddings(
            paddings, padding_algorithm, spatial, self.kernel, strides, dilations
        )
        self.out = tuple(
            (size + p0 + p1 - (d * (k - 1) + 1)) // s + 1
            for size, k, d, (p0, p1), s in zip(
                spatial, self.kernel, self.dilations, self.pads, self.strides
            )
        )
        self.groups = groups
        self.pointwise = _pointwise(self)

    @classmethod
    def of_transpose(
        cls,
        x_shape: tuple[int, ...],
        filter_shape: tuple[int, ...],
        strides: tuple[int, ...],
        paddings: tuple[int, ...],
        output_padding: tuple[int, ...],
        output_size: tuple[int, ...],
        padding_algorithm: str,
        dilations: tuple[int, ...],
        groups: int,
        data_format: str,
    ) -> tuple[ConvGeometry, tuple[int, ...]]:
        """(geometry, output shape) of a transposed convolution of ``x`` [N, C, *spatial]
        (channels last for NHWC/NDHWC): the convolution whose input is the transpose's output
        and whose output is ``x``, paddings ("SAME" from ``x``'s extents) and sizes as PHI's
        ConvTransposeInferMeta."""
        geometry = cls.__new__(cls)
        geometry.channel_last = data_format in CHANNEL_LAST
        spatial = tuple(x_shape[1:-1] if geometry.channel_last else x_shape[2:])
        geometry.kernel = tuple(filter_shape[2:])
        geometry.strides = tuple(strides)
        geometry.pads, geometry.dilations = resolve_paddings(
            paddings, padding_algorithm, spatial, geometry.kernel, strides, dilations
        )
        geometry.out = spatial
        geometry.groups = groups
        geometry.pointwise = _pointwise(geometry)
        out_spatial = tuple(
            conv_transpose_out_size(
                size,
                k,
                d,
                p,
                s,
                output_padding[axis] if output_padding else None,
                output_size[axis] if output_size else None,
                axis,
            )
            for axis, (size, k, d, p, s) in enumerate(
                zip(spatial, geometry.kernel, geometry.dilations, geometry.pads, strides)
            )
        )
        channels = filter_shape[1] * groups
        if geometry.channel_last:
            return geometry, (x_shape[0],) + out_spatial + (channels,)
        return geometry, (x_shape[0], channels) + out_spatial


def channels_first(xp: Any, x: Array, channel_last: bool) -> Array:
    """``x`` as [N, C, *spatial]."""
    if not channel_last:
        return x
    return xp.moveaxis(x, -1, 1)


def channels_last(xp: Any, x: Array, channel_last: bool) -> Array:
    """``x`` as a contiguous [N, *spatial, C]."""
    return xp.ascontiguousarray(x if channel_last else xp.moveaxis(x, 1, -1))


def pad_spatial(xp: Any, x: Array, pads: tuple[tuple[int, int], ...], value: float = 0) -> Array:
    """``x`` [N, C, *spatial] padded with ``value`` on the spatial dims."""
    if not any(p for pair in pads for p in pair):
        return x
    return xp.pad(x, ((0, 0), (0, 0)) + tuple(pads), constant_values=value)


def windows(
    xp: Any,
    padded: Array,
    out: tuple[int, ...],
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
) -> Array:
    """A read-only view [N, C, *out, *kernel] of the sliding windows of ``padded``."""
    step = padded.strides[2:]
    shape = padded.shape[:2] + tuple(out) + tuple(kernel)
    view_strides = (
        padded.strides[:2]
        + tuple(b * s for b, s in zip(step, strides))
        + tuple(b * d for b, d in zip(step, dilations))
    )
    return xp.lib.stride_tricks.as_strided(padded, shape, view_strides)


def im2col(xp: Any, x_last: Array, geometry: ConvGeometry) -> Array:
    """The column matrix [groups, N * prod(out), prod(kernel) * C/groups] of ``x_last``
    ([N, *spatial, C], contiguous): channels last, each row copies runs of C/groups
    contiguous values, which is what makes the copy fast."""
    n, c = x_last.shape[0], x_last.shape[-1]
    g, rank = geometry.groups, len(geometry.out)
    pads = ((0, 0),) + tuple(geometry.pads) + ((0, 0),)
    padded = xp.pad(x_last, pads) if any(p for pair in geometry.pads for p in pair) else x_last
    step = padded.strides[1:-1]
    shape = (n,) + geometry.out + geometry.kernel + (g, c // g)
    view_strides = (
        (padded.strides[0],)
        + tuple(b * s for b, s in zip(step, geometry.strides))
        + tuple(b * d for b, d in zip(step, geometry.dilations))
        + (padded.strides[-1] * (c // g), padded.strides[-1])
    )
    view = xp.lib.stride_tricks.as_strided(padded, shape, view_strides)
    rows, width = n * _prod(geometry.out), _prod(geometry.kernel) * (c // g)
    if g == 1:
        return xp.ascontiguousarray(view).reshape(1, rows, width)
    # [N, *out, *k, G, Cg] -> [G, N, *out, *k, Cg]
    order = (1 + 2 * rank,) + tuple(range(1 + 2 * rank)) + (2 + 2 * rank,)
    return xp.ascontiguousarray(xp.transpose(view, order)).reshape(g, rows, width)


def columns_channels_first(xp: Any, x: Array, geometry: ConvGeometry) -> Array:
    """The column matrix [N, groups, C/groups * prod(kernel), prod(out)] of ``x`` [N, C,
    *spatial]: strided windows of the padded input copied once, each row copying runs of an
    output row's width. 2-D numpy float input takes the compiled im2col of
    `phiops.runtime.kernels.native` when it is built (no padded copy, one pass)."""
    n, c, g = x.shape[0], x.shape[1], geometry.groups
    width = (c // g) * _prod(geometry.kernel)
    native = native_kernels(x) if len(geometry.kernel) == 2 else None
    if native is not None:
        columns = xp.empty((n, g, width, _prod(geometry.out)), x.dtype)
        native.im2col_2d(
            xp.ascontiguousarray(x),
            n * c,
            *x.shape[2:],
            *geometry.kernel,
            *geometry.out,
            *geometry.strides,
            *geometry.dilations,
            *(before for before, _ in geometry.pads),
            columns,
        )
        return columns
    padded = pad_spatial(xp, x, geometry.pads)
    step = padded.strides[2:]
    shape = (n, g, c // g) + geometry.kernel + geometry.out
    view_strides = (
        (padded.strides[0], padded.strides[1] * (c // g), padded.strides[1])
        + tuple(b * d for b, d in zip(step, geometry.dilations))
        + tuple(b * s for b, s in zip(step, geometry.strides))
    )
    view = xp.lib.stride_tricks.as_strided(padded, shape, view_strides)
    return xp.ascontiguousarray(view).reshape(n, g, width, _prod(geometry.out))


def convolve_channels_first(xp: Any, x: Array, filter: Array, geometry: ConvGeometry) -> Array:
    """The convolution of ``x`` [N, C, *spatial] as [N, M, *out], without moving channels: the
    filter [groups, M/groups, C/groups * prod(kernel)] is ``filter`` reshaped, and its batched
    product with the columns, [N, groups, M/groups, prod(out)], is the output's layout already
    (for NCHW about 1.5x faster than going through channels last)."""
    n, m, g = x.shape[0], filter.shape[0], geometry.groups
    columns = columns_channels_first(xp, x, geometry)
    result = blas.matmul(xp, filter.reshape(g, m // g, columns.shape[2]), columns)
    return result.reshape((n, m) + geometry.out)


def filter_matrix(xp: Any, filter: Array, groups: int) -> Array:
    """``filter`` [M, C/groups, *kernel] as [groups, prod(kernel) * C/groups, M/groups]."""
    m, cg = filter.shape[:2]
    rank = filter.ndim - 2
    grouped = filter.reshape((groups, m // groups, cg) + filter.shape[2:])
    # [G, Mg, Cg, *k] -> [G, *k, Cg, Mg]
    order = (0,) + tuple(range(3, 3 + rank)) + (2, 1)
    return xp.ascontiguousarray(xp.transpose(grouped, order)).reshape(groups, -1, m // groups)


def output_from_matrix(
    xp: Any, result: Array, n: int, geometry: ConvGeometry, channel_last: bool
) -> Array:
    """[groups, N * prod(out), M/groups] back to [N, M, *out] (or [N, *out, M])."""
    g, _, mg = result.shape
    rank = len(geometry.out)
    result = result.reshape((g, n) + geometry.out + (mg,))
    if channel_last:  # [G, N, *out, Mg] -> [N, *out, G, Mg]
        order = (1,) + tuple(range(2, 2 + rank)) + (0, 2 + rank)
        return xp.ascontiguousarray(xp.transpose(result, order)).reshape(
            (n,) + geometry.out + (g * mg,)
        )
    order = (1, 0, 2 + rank) + tuple(range(2, 2 + rank))  # -> [N, G, Mg, *out]
    return xp.ascontiguousarray(xp.transpose(result, order)).reshape((n, g * mg) + geometry.out)


def check_columns(n: int, channels: int, geometry: ConvGeometry, itemsize: int) -> None:
    """Refuse, before it is allocated, a column matrix (im2col's, or the col2im input of a
    gradient or transpose: N * prod(out) rows of prod(kernel) * C values) larger than
    FLAGS_max_alloc_bytes."""
    rows, width = n * _prod(geometry.out), _prod(geometry.kernel) * channels
    check_scratch_size("im2col column matrix", (rows, width), itemsize)


def _prod(values: tuple[int, ...]) -> int:
    count = 1
    for v in values:
        count *= v
    return count


# Below this many output pixels per image a channels-first convolution of a batch folds the
# batch into one GEMM per group (1x1: two transposing copies; KxK: the compiled im2col's layout
# and one transposing copy of the output) instead of one GEMM per image: a product with that
# few columns runs at a fraction of the GEMM rate, and each one reads the whole filter. Above
# it the copies cost more than they gain (bench/conv.py --compare-with: ResNet50's and
# MobileNetV2's first layers at batch 8, 0.4-0.6x).
FOLD_BATCH_MAX_PIXELS = 256

# The direct kernel computes 4 output channels x 8-24 pixels of a row per register tile at
# 30-40 GFLOP/s on one core; im2col + OpenBLAS wins once the product has enough output channels
# to run at BLAS speed. Timed on the zoo's 130 channels-first KxK convolution shapes
# (bench/conv_direct.py, 2 cores): with up to 16 output channels direct was faster in 26 of 27
# (1.1-3.2x; U-Net's 16 -> 8 at 64x64 1.6x), with 17-32 in 11 of 21 (0.55-1.7x), beyond that in
# 17 of 82 (ResNet's 64 -> 64 at 37x37 2.2x slower). With 17-32 it won each time the sum was
# short, C * kh * kw between 64 and 160 (5 of 5, 1.2-1.7x: the CRNNs' 16 -> 32 at 16x32), and
# lost from about 400 up.
DIRECT_MAX_CHANNELS = 16
DIRECT_MID_CHANNELS = 32
DIRECT_MID_DEPTH = (64, 160)  # C * kh * kw above the first, at most the second
DIRECT_MIN_WIDTH = 4  # output rows narrower than this waste most of the 8 lanes
_direct_available: bool | None = None


def is_pointwise(geometry: ConvGeometry) -> bool:
    """Whether the convolution is 1x1 (any rank) without padding: each output pixel reads one
    input pixel (every ``stride``-th), so no column matrix is needed."""
    return geometry.pointwise


def _pointwise(geometry: ConvGeometry) -> bool:
    return all(k == 1 for k in geometry.kernel) and not any(
        p for pair in geometry.pads for p in pair
    )


# (shapes and attributes) -> ConvGeometry: a model runs the same convolutions at every step, and
# working a geometry out costs more than a small convolution's GEMM
_GEOMETRIES: dict[tuple, ConvGeometry] = {}
_GEOMETRIES_MAX = 4096


def conv_geometry(
    x_shape: tuple[int, ...],
    filter_shape: tuple[int, ...],
    strides: Any,
    paddings: Any,
    padding_algorithm: str,
    dilations: Any,
    groups: int,
    data_format: str,
) -> ConvGeometry:
    """``ConvGeometry(...)`` of these arguments, made once (geometries are never changed)."""
    key = (
        x_shape, filter_shape, tuple(strides), tuple(paddings), padding_algorithm,
        tuple(dilations), groups, data_format,
    )  # fmt: skip
    geometry = _GEOMETRIES.get(key)
    if geometry is None:
        geometry = ConvGeometry(*key)
        if len(_GEOMETRIES) >= _GEOMETRIES_MAX:
            _GEOMETRIES.clear()
        _GEOMETRIES[key] = geometry
    return geometry


def pointwise(xp: Any, x: Array, filter: Array, geometry: ConvGeometry) -> Array:
    """A 1x1 convolution without padding as GEMMs on ``x`` itself (a strided view of it when
    strided; dilations do not matter for one tap)."""
    n, g, m = x.shape[0], geometry.groups, filter.shape[0]
    rank = len(geometry.out)
    if any(s > 1 for s in geometry.strides):
        steps = tuple(slice(None, None, s) for s in geometry.strides)
        if geometry.channel_last:
            x = xp.ascontiguousarray(x[(slice(None),) + steps + (slice(None),)])
        else:
            x = xp.ascontiguousarray(x[(slice(None), slice(None)) + steps])
    pixels = _prod(geometry.out)
    if geometry.channel_last:
        c = x.shape[-1]
        rows = x.reshape(n * pixels, c)
        if g == 1:
            out = blas.matmul(xp, rows, filter.reshape(m, c).T)
            return out.reshape((n,) + geometry.out + (m,))
        # [N*P, G, Cg] x [G, Cg, Mg] per group -> [G, N*P, Mg]
        grouped = xp.moveaxis(rows.reshape(n * pixels, g, c // g), 1, 0)
        weights = xp.moveaxis(filter.reshape(g, m // g, c // g), 2, 1)
        out = blas.matmul(xp, grouped, weights)
        return xp.ascontiguousarray(xp.moveaxis(out, 0, 1)).reshape((n,) + geometry.out + (m,))
    c = x.shape[1]
    weights = filter.reshape(g, m // g, c // g)
    if n > 1 and pixels < FOLD_BATCH_MAX_PIXELS:
        # [N, G, Cg, P] -> [G, Cg, N, P]: one GEMM per group over the whole batch
        columns = xp.ascontiguousarray(
            xp.transpose(x.reshape(n, g, c // g, pixels), (1, 2, 0, 3))
        ).reshape(g, c // g, n * pixels)
        out = blas.matmul(xp, weights, columns).reshape(m, n, pixels)
        return xp.ascontiguousarray(xp.transpose(out, (1, 0, 2))).reshape((n, m) + geometry.out)
    out = blas.matmul(xp, weights, x.reshape(n, g, c // g, pixels))
    return out.reshape((n, m) + geometry.out)


def direct_pays(m: int, depth: int, geometry: ConvGeometry) -> bool:
    """Whether the direct kernel beats im2col + GEMM for ``m`` output channels, each the sum of
    ``depth`` = C * kh * kw products (the thresholds above); it takes no negative (cropping)
    padding."""
    if geometry.out[1] < DIRECT_MIN_WIDTH or any(before < 0 for before, _ in geometry.pads):
        return False
    if m <= DIRECT_MAX_CHANNELS:
        return True
    low, high = DIRECT_MID_DEPTH
    return m <= DIRECT_MID_CHANNELS and low < depth <= high


def direct_kernel(x: Array) -> Any:
    """The compiled direct convolution for the numpy float32 array ``x`` where the extension
    has it and the CPU runs it, else None."""
    global _direct_available
    if x.dtype != numpy.float32:
        return None
    kernel = native_function(x, "conv_direct_2d")
    if kernel is None:
        return None
    if _direct_available is None:
        _direct_available = bool(native_kernels(x).conv_direct_available())
    return kernel if _direct_available else None


def convolve_direct(kernel: Any, x: Array, filter: Array, geometry: ConvGeometry) -> Array:
    """A 2-D channels-first float32 convolution (groups 1) by the compiled direct kernel, split
    between threads by (image, block of 4 output channels)."""
    x = numpy.ascontiguousarray(x)
    weights = numpy.ascontiguousarray(filter, dtype=numpy.float32)
    n, c = x.shape[:2]
    m = weights.shape[0]
    out = numpy.empty((n, m) + geometry.out, numpy.float32)
    args = (
        *x.shape[2:],
        *geometry.kernel,
        *geometry.out,
        *geometry.strides,
        *geometry.dilations,
        *(before for before, _ in geometry.pads),
    )
    rows = n * ((m + 3) // 4)
    macs = out.size * c * _prod(geometry.kernel)
    # counted as 8 multiply-adds an element moved: split from 16 million (PARALLEL_MIN_WORK)
    parallel_rows(lambda r0, r1: kernel(x, weights, n, c, m, *args, r0, r1, out), rows, macs // 8)
    return out


def convolve_folded(
    xp: Any, im2col_2d: Any, x: Array, filter: Array, geometry: ConvGeometry
) -> Array:
    """A 2-D convolution of a numpy float batch through the compiled im2col ``im2col_2d``
    (``im2col_folded_2d`` or ``im2col_nhwc_2d``): channels first, the columns
    [C * kh * kw, N * oh * ow] (the batch folded in) and one GEMM per group; channels last
    (groups 1), the columns [N * oh * ow, kh * kw * C] and one GEMM."""
    x = xp.ascontiguousarray(x)
    n, g, m = x.shape[0], geometry.groups, filter.shape[0]
    taps, pixels = _prod(geometry.kernel), _prod(geometry.out)
    geometry_args = (
        *geometry.kernel,
        *geometry.out,
        *geometry.strides,
        *geometry.dilations,
        *(before for before, _ in geometry.pads),
    )
    if geometry.channel_last:
        h, w, c = x.shape[1:]
        columns = xp.empty((n * pixels, taps * c), x.dtype)
        parallel_rows(
            lambda r0, r1: im2col_2d(x, n, c, h, w, *geometry_args, r0, r1, columns),
            n * pixels,
            2 * columns.size,
        )
        out = blas.matmul(xp, columns, filter_matrix(xp, filter, 1)[0])
        return out.reshape((n,) + geometry.out + (m,))
    c, h, w = x.shape[1:]
    columns = xp.empty((c * taps, n * pixels), x.dtype)
    parallel_rows(
        lambda r0, r1: im2col_2d(x, n, c, h, w, *geometry_args, r0, r1, columns),
        c,
        2 * columns.size,
    )
    weights = filter.reshape(g, m // g, (c // g) * taps)
    out = blas.matmul(xp, weights, columns.reshape(g, (c // g) * taps, n * pixels))
    if n == 1:
        return out.reshape((1, m) + geometry.out)
    out = out.reshape(m, n, pixels)
    return xp.ascontiguousarray(xp.transpose(out, (1, 0, 2))).reshape((n, m) + geometry.out)


def convolve_folded_windows(xp: Any, x: Array, filter: Array, geometry: ConvGeometry) -> Array:
    """`convolve_folded`'s channels-first product without the extension: the padded input
    viewed (``as_strided``) as windows [C, *kernel, N, *out], copied once into the columns
    [groups, C/groups * prod(kernel), N * prod(out)], one GEMM per group for the whole batch."""
    n, c, g, m = x.shape[0], x.shape[1], geometry.groups, filter.shape[0]
    pixels = _prod(geometry.out)
    padded = pad_spatial(xp, x, geometry.pads)
    step = padded.strides[2:]
    view = xp.lib.stride_tricks.as_strided(
        padded,
        (c,) + geometry.kernel + (n,) + geometry.out,
        (padded.strides[1],)
        + tuple(b * d for b, d in zip(step, geometry.dilations))
        + (padded.strides[0],)
        + tuple(b * s for b, s in zip(step, geometry.strides)),
    )
    width = (c // g) * _prod(geometry.kernel)
    columns = xp.ascontiguousarray(view).reshape(g, width, n * pixels)
    out = blas.matmul(xp, filter.reshape(g, m // g, width), columns).reshape(m, n, pixels)
    return xp.ascontiguousarray(xp.transpose(out, (1, 0, 2))).reshape((n, m) + geometry.out)


def depthwise_nhwc(kernel: Any, x: Array, filter: Array, geometry: ConvGeometry) -> Array:
    """A 2-D depthwise convolution of a channels-last numpy float array [N, H, W, C] by the
    compiled ``depthwise_conv2d_nhwc``: each output pixel's channels at once, the filter [M, 1,
    kh, kw] packed tap-major ([kh * kw, M]) for the call; the sums of ``depthwise_conv2d``'s
    channels-first kernel, in the same order (the same bits)."""
    x = numpy.ascontiguousarray(x)
    n, h, w, c = x.shape
    m = filter.shape[0]
    weights = numpy.ascontiguousarray(filter.reshape(m, -1).T, dtype=x.dtype)
    out = numpy.empty((n,) + geometry.out + (m,), x.dtype)
    args = (
        h,
        w,
        *geometry.kernel,
        *geometry.out,
        *geometry.strides,
        *geometry.dilations,
        *(before for before, _ in geometry.pads),
    )
    parallel_rows(
        lambda r0, r1: kernel(x, weights, n, c, m // c, *args, r0, r1, out),
        n * geometry.out[0],
        x.size + 2 * out.size,
    )
    return out


def depthwise(xp: Any, x: Array, filter: Array, geometry: ConvGeometry) -> Array:
    """The convolution with groups == C: output channel ``c * mult + j`` is input channel ``c``
    convolved with its own filter [1, *kernel]. 2-D numpy float arrays take the compiled
    kernels (channels first: one output plane in cache at a time; channels last: one output
    pixel's channels at a time, `depthwise_nhwc`); everything else adds prod(kernel) products of
    a shifted (strided) view of the padded input and one weight per channel."""
    n, rank = x.shape[0], len(geometry.kernel)
    c = x.shape[-1] if geometry.channel_last else x.shape[1]
    m = filter.shape[0]
    mult = m // c
    name = "depthwise_conv2d_nhwc" if geometry.channel_last else "depthwise_conv2d"
    kernel = native_function(x, name) if rank == 2 else None
    if kernel is not None and geometry.channel_last:
        return depthwise_nhwc(kernel, x, filter, geometry)
    if kernel is not None:
        x = xp.ascontiguousarray(x)
        weights = xp.ascontiguousarray(filter, dtype=x.dtype)
        out = xp.empty((n, m) + geometry.out, x.dtype)
        args = (
            *x.shape[2:],
            *geometry.kernel,
            *geometry.out,
            *geometry.strides,
            *geometry.dilations,
            *(before for before, _ in geometry.pads),
        )
        parallel_rows(
            lambda r0, r1: kernel(x, weights, n, c, mult, *args, r0, r1, out),
            n * m,
            x.size + 2 * out.size,
        )
        return out
    pads = tuple(geometry.pads)
    if geometry.channel_last:
        padded = xp.pad(x, ((0, 0),) + pads + ((0, 0),)) if any(p for q in pads for p in q) else x
        # [M, 1, *k] -> [*k, C, mult]
        weights = xp.moveaxis(filter.reshape((c, mult) + geometry.kernel), (0, 1), (-2, -1))
        out = xp.zeros((n,) + geometry.out + (c, mult), x.dtype)
    else:
        padded = pad_spatial(xp, x, pads)
        # [M, 1, *k] -> [*k, C, mult, 1...]: broadcast against [N, C, mult, *out]
        weights = xp.moveaxis(filter.reshape((c, mult) + geometry.kernel), (0, 1), (-2, -1))
        weights = weights.reshape(weights.shape + (1,) * rank)
        out = xp.zeros((n, c, mult) + geometry.out, x.dtype)
    product = xp.empty_like(out)
    for tap in itertools.product(*(range(k) for k in geometry.kernel)):
        window = tuple(
            slice(t * d, t * d + s * (o - 1) + 1, s)
            for t, d, s, o in zip(tap, geometry.dilations, geometry.strides, geometry.out)
        )
        if geometry.channel_last:
            part = padded[(slice(None),) + window + (slice(None), None)]
        else:
            part = padded[(slice(None), slice(None), None) + window]
        xp.multiply(part, weights[tap], out=product)
        out += product
    if geometry.channel_last:
        return out.reshape((n,) + geometry.out + (m,))
    return out.reshape((n, m) + geometry.out)


def convolve(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    dilations: tuple[int, ...],
    groups: int,
    data_format: str,
) -> Array:
    """The convolution all three kernels compute."""
    xp = ctx.xp
    geometry = conv_geometry(
        input.shape,
        filter.shape,
        strides,
        paddings,
        padding_algorithm,
        dilations,
        groups,
        data_format,
    )
    n = input.shape[0]
    if input.size == 0 or _prod(geometry.out) == 0:
        shape = (
            (n,) + geometry.out + (filter.shape[0],)
            if geometry.channel_last
            else (n, filter.shape[0]) + geometry.out
        )
        return xp.zeros(shape, input.dtype)
    channels = input.shape[-1 if geometry.channel_last else 1]
    # FLAGS_max_alloc_bytes refuses the calls it refused before the fast paths, which allocate
    # no column matrix (depthwise, 1x1) or the same one: the bound stays the im2col matrix's
    check_columns(n, channels, geometry, input.itemsize)
    if groups == channels > 1 and filter.shape[0] % channels == 0:
        return depthwise(xp, input, filter, geometry)
    if is_pointwise(geometry):
        return pointwise(xp, input, filter, geometry)
    if len(geometry.kernel) == 2 and groups == 1 and not geometry.channel_last:
        depth = channels * _prod(geometry.kernel)
        pays = direct_pays(filter.shape[0], depth, geometry)
        kernel = direct_kernel(input) if pays else None
        if kernel is not None:
            return convolve_direct(kernel, input, filter, geometry)
    # channels first, a batch of large images takes one GEMM per image (the columns' layout is
    # the output's): folding it in would cost a transposing copy of the output and gain nothing
    folds = n == 1 or _prod(geometry.out) < FOLD_BATCH_MAX_PIXELS
    if len(geometry.kernel) == 2 and (folds if not geometry.channel_last else groups == 1):
        name = "im2col_nhwc_2d" if geometry.channel_last else "im2col_folded_2d"
        columns = native_function(input, name)
        if columns is not None:
            return convolve_folded(xp, columns, input, filter, geometry)
    if not geometry.channel_last:
        if n > 1 and folds:
            return convolve_folded_windows(xp, input, filter, geometry)
        return convolve_channels_first(xp, input, filter, geometry)
    x_last = channels_last(xp, input, geometry.channel_last)
    result = blas.matmul(xp, im2col(xp, x_last, geometry), filter_matrix(xp, filter, groups))
    return output_from_matrix(xp, result, n, geometry, geometry.channel_last)


@register_kernel("conv2d", dtypes=CONV_DTYPES)
def conv2d_kernel(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    dilations: tuple[int, ...],
    groups: int,
    data_format: str,
) -> Array:
    return convolve(
        ctx, input, filter, strides, paddings, padding_algorithm, dilations, groups, data_format
    )


@register_kernel("depthwise_conv2d", dtypes=CONV_DTYPES)
@register_kernel("conv3d", dtypes=CONV_DTYPES)
def conv3d_kernel(  # depthwise_conv2d takes its arguments in the same order
    ctx: KernelContext,
    input: Array,
    filter: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    groups: int,
    dilations: tuple[int, ...],
    data_format: str,
) -> Array:
    return convolve(
        ctx, input, filter, strides, paddings, padding_algorithm, dilations, groups, data_format
    )
