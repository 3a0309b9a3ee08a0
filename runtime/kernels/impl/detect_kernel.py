"""Kernels of the detection ops: grid_sample, roi_align, roi_pool, nms, multiclass_nms3.

grid_sample follows PHI's CPU kernel (paddle/phi/kernels/cpu/grid_sample_kernel.cc,
grid_sample_utils.h). The grid's normalised coordinates in [-1, 1] become pixel positions,
``(g + 1) * (size - 1) / 2`` with ``align_corners``, else ``(g + 1) * size / 2 - 0.5``, computed
in the input's dtype; ``padding_mode`` "border" clips them to [0, size - 1], "reflection"
reflects them at the borders (at the pixel centres with ``align_corners``, else at the
outer edges, then clips), "zeros" leaves them. "bilinear" sums the 2 (4-D) or 3 (5-D) corner
neighbours weighted by the distances to the opposite corners, in PHI's order; a neighbour
outside the input counts as 0. "nearest" takes the neighbour at the position rounded half to
even (what PaddlePaddle 3.3.1's CPU build gives, 2.5 reading pixel 2), and tests that the
rounded position lies inside (-0.4 reads pixel 0), for 4-D and 5-D inputs. A NaN coordinate
gives 0 with "nearest" and NaN with "bilinear" (PHI's kernel indexes the input with it, which
is undefined). A ``mode`` or ``padding_mode`` PHI does not know is an InvalidArgumentError (PHI
returns zeros or ignores it). The dtype lists are PaddlePaddle
3.3.1's CPU registrations.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.infermeta.sizes import check_scratch_size
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.native import native_function
from phiops.runtime.kernels.registration import register_kernel

D = DataType
REAL = (D.FLOAT32, D.FLOAT64)
ROI_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32)

GRID_SAMPLE_MODES = ("bilinear", "nearest")
GRID_SAMPLE_PADDINGS = ("zeros", "border", "reflection")


def pixels(extents: Sequence[int]) -> int:
    """The number of points of ``extents`` (1 for none)."""
    count = 1
    for extent in extents:
        count *= int(extent)
    return count


def check_grid_sample_options(mode: str, padding_mode: str) -> None:
    if mode not in GRID_SAMPLE_MODES:
        raise InvalidArgumentError(
            f"argument 'mode' must be one of {list(GRID_SAMPLE_MODES)}, got {mode!r}"
        )
    if padding_mode not in GRID_SAMPLE_PADDINGS:
        raise InvalidArgumentError(
            f"argument 'padding_mode' must be one of {list(GRID_SAMPLE_PADDINGS)}, "
            f"got {padding_mode!r}"
        )


def grid_positions(
    xp: Any, coordinate: Array, size: int, align_corners: bool, padding_mode: str
) -> tuple[Array, Array]:
    """Pixel positions of one grid coordinate and d(position)/d(coordinate), as PHI's
    Unnormalize and ClipWithMask compute them in the grid's dtype."""
    dtype = coordinate.dtype.type
    max_val = size - 1
    factor = dtype(max_val * 0.5) if align_corners else dtype((max_val + 1) * 0.5)
    if align_corners:
        position = (coordinate + dtype(1)) * factor
    else:
        position = (coordinate + dtype(1)) * factor - dtype(0.5)
    scale = xp.full(position.shape, factor, dtype=position.dtype)
    if padding_mode == "border":
        clipped = xp.minimum(xp.maximum(position, dtype(0)), dtype(max_val))
        return clipped, scale * (clipped == position)
    if padding_mode == "reflection":
        if align_corners:
            double_range = dtype(max_val * 2)
            shifted = position
        else:
            double_range = dtype((max_val + 1) * 2)
            shifted = position + dtype(0.5)
        magnitude = xp.abs(shifted)
        with np.errstate(invalid="ignore", divide="ignore"):
            extra = magnitude - xp.floor(magnitude / double_range) * double_range
        flip = extra > (double_range - extra)
        sign = xp.where((shifted < 0) == flip, dtype(1), dtype(-1)).astype(position.dtype)
        reflected = xp.minimum(extra, double_range - extra)
        if align_corners:
            if max_val == 0:
                return xp.zeros_like(position), scale * sign
            return reflected, scale * sign
        reflected = reflected - dtype(0.5)
        clipped = xp.minimum(xp.maximum(reflected, dtype(0)), dtype(max_val))
        return clipped, scale * sign * (clipped == reflected)
    return position, scale


def split_grid(
    xp: Any, grid: Array, spatial: Sequence[int], align_corners: bool, padding_mode: str
) -> list[tuple[Array, Array]]:
    """(position, scale) per spatial dim of x, outermost first (grid's last axis holds x, y
    (, z), innermost first)."""
    count = len(spatial)
    return [
        grid_positions(xp, grid[..., count - 1 - axis], spatial[axis], align_corners, padding_mode)
        for axis in range(count)
    ]


def gather_corner(
    xp: Any, flat_x: Array, corner: Sequence[Array], spatial: Sequence[int]
) -> tuple[Array, Array, Array]:
    """The values of x [N, C, prod(spatial)] at integer-valued ``corner`` positions (one array
    [N, *out] per spatial dim), 0 outside; also the flat index and the in-bounds mask."""
    inside = None
    index = None
    for position, size in zip(corner, spatial):
        ok = (position >= 0) & (position <= size - 1)
        inside = ok if inside is None else inside & ok
        whole = xp.where(ok, position, 0).astype(xp.int64)
        index = whole if index is None else index * size + whole
    n = flat_x.shape[0]
    points = pixels(corner[0].shape[1:])
    index = xp.where(inside, index, 0).reshape(n, 1, points)
    values = xp.take_along_axis(
        flat_x, xp.broadcast_to(index, (n, flat_x.shape[1], index.shape[2])), axis=2
    )
    mask = inside.reshape(n, 1, points)
    zero = xp.zeros((), dtype=flat_x.dtype)
    return xp.where(mask, values, zero), index, mask


def nearest_positions(xp: Any, positions: Sequence[Array]) -> list[Array]:
    """The positions "nearest" reads: rounded half to even; whether they lie inside is tested
    after rounding (-0.4 reads pixel 0)."""
    return [xp.rint(p) for p in positions]


def bilinear_corners(
    xp: Any, positions: Sequence[Array]
) -> list[tuple[tuple[Array, ...], tuple[Array, ...]]]:
    """The 2^d corners of each position: (corner positions, their weight factors), in PHI's
    order (west-north, east-north, west-south, east-south; top before bottom in 3-D)."""
    lows = [xp.floor(p) for p in positions]
    # distance to the low side (weight of the high corner) and to the high side
    to_low = [p - low for p, low in zip(positions, lows)]
    to_high = [(low + 1) - p for p, low in zip(positions, lows)]
    corners = []
    count = len(positions)
    for bits in range(1 << count):
        # bit 0: innermost (x), then y, then z; PHI orders x fastest
        picks = [(bits >> (count - 1 - axis)) & 1 for axis in range(count)]
        corner = tuple(low + pick for low, pick in zip(lows, picks))
        weights = tuple(to_low[axis] if pick else to_high[axis] for axis, pick in enumerate(picks))
        corners.append((corner, weights))
    return corners


@register_kernel("grid_sample", dtypes=REAL)
def grid_sample_kernel(
    ctx: KernelContext, x: Array, grid: Array, mode: str, padding_mode: str, align_corners: bool
) -> Array:
    xp = ctx.xp
    check_grid_sample_options(mode, padding_mode)
    n, c = x.shape[:2]
    spatial = x.shape[2:]
    out_spatial = grid.shape[1:-1]
    flat_x = x.reshape(n, c, pixels(spatial))
    points = pixels(out_spatial)
    positions = [p for p, _ in split_grid(xp, grid, spatial, align_corners, padding_mode)]
    if mode == "nearest":
        out, _, _ = gather_corner(xp, flat_x, nearest_positions(xp, positions), spatial)
    else:
        out = None
        for corner, weights in bilinear_corners(xp, positions):
            values, _, _ = gather_corner(xp, flat_x, corner, spatial)
            term = values
            for weight in _opposite(weights):
                term = term * weight.reshape(n, 1, points)
            out = term if out is None else out + term
    return out.reshape((n, c) + tuple(out_spatial))


def _opposite(weights: tuple[Array, ...]) -> tuple[Array, ...]:
    """PHI multiplies a corner's value by the x weight first, then y, then z."""
    return tuple(reversed(weights))


# --- roi_align and roi_pool ---------------------------------------------------------------------


def keep_boxes_num_dtype(kernel: Kernel) -> None:
    """boxes_num (input 2) is int32 or int64 whatever the kernel's dtype."""
    kernel.input_at(2).set_dtype(DataType.ALL_DTYPE)


def keep_boxes_num_and_int64_arg_max(kernel: Kernel) -> None:
    keep_boxes_num_dtype(kernel)
    kernel.output_at(1).set_dtype(DataType.INT64)


def int64_output(kernel: Kernel) -> None:
    kernel.output_at(0).set_dtype(DataType.INT64)


def multiclass_nms_dtypes(kernel: Kernel) -> None:
    """rois_num (input 2) is int32 or int64; index and nms_rois_num are int32."""
    kernel.input_at(2).set_dtype(DataType.ALL_DTYPE)
    kernel.output_at(1).set_dtype(DataType.INT32)
    kernel.output_at(2).set_dtype(DataType.INT32)


def roi_counts(rois_num: Array | None, total: int) -> list[int]:
    """The number of boxes of each image, from rois_num, checked against ``total``."""
    if rois_num is None:
        raise InvalidArgumentError(
            "argument 'rois_num' is required with 2-D scores: it gives the number of boxes of "
            "each image (phiops tensors carry no LoD to take it from)"
        )
    counts = [int(v) for v in np.asarray(to_host(rois_num)).reshape(-1)]
    if any(count < 0 for count in counts) or sum(counts) != total:
        raise InvalidArgumentError(
            f"argument 'rois_num' must hold non-negative counts summing to the number of "
            f"boxes ({total}), got {counts}"
        )
    return counts


def roi_batch_ids(xp: Any, boxes_num: Array | None, rois: int, batch: int) -> list[int]:
    """The image of each box: boxes_num[n] consecutive boxes belong to image n. PHI reads a
    LoD from boxes without boxes_num, which phiops tensors do not carry."""
    if boxes_num is None:
        raise InvalidArgumentError(
            "argument 'boxes_num' is required: it gives the number of boxes of each image "
            "(phiops tensors carry no LoD to take it from)"
        )
    counts = [int(v) for v in np.asarray(to_host(boxes_num)).reshape(-1)]
    if len(counts) != batch:
        raise InvalidArgumentError(
            f"argument 'boxes_num' must give one count per image of x ({batch}), "
            f"got {len(counts)}"
        )
    if any(count < 0 for count in counts) or sum(counts) != rois:
        raise InvalidArgumentError(
            f"argument 'boxes_num' must hold non-negative counts summing to the number of "
            f"boxes ({rois}), got {counts}"
        )
    return [n for n, count in enumerate(counts) for _ in range(count)]


def to_host(array: Array) -> Any:
    return array.get() if hasattr(array, "get") else array


def finite_boxes(boxes: Array) -> np.ndarray:
    """boxes on the host, checked to be finite (PHI's kernels index pixels with them)."""
    host = np.asarray(to_host(boxes))
    if host.dtype.kind == "f" and not np.isfinite(host).all():
        raise InvalidArgumentError("argument 'boxes' must hold finite coordinates, got NaN or inf")
    return host


def _scaled(value: Any, spatial_scale: float, dtype: Any) -> Any:
    """``value * spatial_scale`` as PHI computes ``T * float``: in float32 for float32 boxes,
    float64 for float64, float for int."""
    if np.dtype(dtype) == np.float64:
        return np.float64(value) * np.float64(np.float32(spatial_scale))
    return np.float32(value) * np.float32(spatial_scale)


def _as_t(value: Any, dtype: Any) -> Any:
    """A C++ conversion to T: truncation toward zero for an int T."""
    if np.dtype(dtype).kind in "iu":
        return np.dtype(dtype).type(np.trunc(value))
    return np.dtype(dtype).type(value)


def _divide(a: Any, b: Any, dtype: Any) -> Any:
    """``a / b`` in T: C's truncating division for an int T."""
    if np.dtype(dtype).kind in "iu":
        return np.dtype(dtype).type(int(a / b) if b else 0)
    return np.dtype(dtype).type(a) / np.dtype(dtype).type(b)


def roi_align_axis(
    start: Any,
    bin_size: Any,
    pooled: int,
    grid: int,
    size: int,
    dtype: Any,
    grad_form: bool,
) -> np.ndarray:
    """[pooled, size] weights of one axis of roi_align: the sum over a bin's ``grid`` sample
    points of their bilinear weights on the pixels, as PHI's GetIndexesAndRatios (forward) or
    its grad kernel (``grad_form``) locate the points; points outside [-1, size] weigh 0."""
    t = np.dtype(dtype).type
    integer = np.dtype(dtype).kind in "iu"
    check_scratch_size("sample grid", (pooled, max(grid, 0)), 8)
    p = np.arange(pooled).reshape(-1, 1)
    i = np.arange(max(grid, 0)).reshape(1, -1)
    if integer:
        if grad_form:
            position = start + p * bin_size + np.trunc(i * bin_size / grid).astype(np.int64)
        else:
            position = start + bin_size * p + np.zeros_like(i)
        position = position.astype(np.float64)
    elif grad_form:
        offset = (i + t(0.5)).astype(dtype) * t(bin_size) / t(grid)
        position = t(start) + (p * t(bin_size)).astype(dtype) + offset
    else:
        fraction = (i + t(0.5)).astype(dtype) / t(grid)
        position = t(start) + t(bin_size) * (p.astype(dtype) + fraction)
    valid = (position >= -1.0) & (position <= size)
    position = np.where(position <= 0, t(0), position).astype(position.dtype)
    low = np.trunc(position).astype(np.int64)
    clamp = low >= size - 1
    low = np.where(clamp, size - 1, low)
    high = np.where(clamp, low, low + 1)
    position = np.where(clamp, low.astype(position.dtype), position)
    upper = (position - low) if not integer else (position - low).astype(np.int64)
    lower = 1 - upper
    extent = max(size, 0)
    rows = np.broadcast_to(p, low.shape)
    valid = valid & (size > 0)
    flat = np.concatenate([(rows * extent + low)[valid], (rows * extent + high)[valid]])
    amounts = np.concatenate([lower[valid], upper[valid]]).astype(np.float64)
    weights = np.bincount(flat, weights=amounts, minlength=pooled * extent)
    return weights.reshape(pooled, extent).astype(dtype)


def roi_align_geometry(
    box: Any,
    spatial_scale: float,
    pooled_height: int,
    pooled_width: int,
    sampling_ratio: int,
    aligned: bool,
    dtype: Any,
    grad_form: bool,
) -> tuple[Any, Any, Any, Any, int, int]:
    """(xmin, ymin, bin width, bin height, grid height, grid width) of one box, in T, as PHI's
    roi_align kernels compute them (the grad kernel clamps the box to 1 pixel even when
    ``aligned``)."""
    t = np.dtype(dtype).type
    offset = t(0.5) if aligned and not np.dtype(dtype).kind in "iu" else t(0)
    xmin, ymin, xmax, ymax = (_as_t(_scaled(v, spatial_scale, dtype) - offset, dtype) for v in box)
    width, height = t(xmax - xmin), t(ymax - ymin)
    if not aligned or grad_form:
        width, height = max(width, t(1)), max(height, t(1))
    grid_h = (
        sampling_ratio
        if sampling_ratio > 0
        else int(math.ceil(_divide(height, pooled_height, dtype)))
    )
    grid_w = (
        sampling_ratio
        if sampling_ratio > 0
        else int(math.ceil(_divide(width, pooled_width, dtype)))
    )
    bin_w = _divide(width, pooled_width, dtype)
    bin_h = _divide(height, pooled_height, dtype)
    return xmin, ymin, bin_w, bin_h, grid_h, grid_w


@register_kernel("roi_align", dtypes=ROI_DTYPES, configure=keep_boxes_num_dtype)
def roi_align_kernel(
    ctx: KernelContext,
    x: Array,
    boxes: Array,
    boxes_num: Array | None,
    pooled_height: int,
    pooled_width: int,
    spatial_scale: float,
    sampling_ratio: int,
    aligned: bool,
) -> Array:
    xp = ctx.xp
    batch, channels, height, width = x.shape
    rois = boxes.shape[0]
    out = xp.zeros((rois, channels, pooled_height, pooled_width), dtype=x.dtype)
    if rois == 0:
        return out
    images = roi_batch_ids(xp, boxes_num, rois, batch)
    host_boxes = finite_boxes(boxes)
    dtype = x.dtype
    native = native_function(x, "roi_align")
    if native is not None and _native_grid_fits(host_boxes, spatial_scale, sampling_ratio):
        # the same geometry and axis weights in one compiled pass over the boxes (the product
        # sums in its own order: the same numbers to float rounding)
        native(
            np.ascontiguousarray(x),
            np.ascontiguousarray(host_boxes, dtype=dtype),
            np.asarray(images, dtype=np.int64),
            rois, channels, height, width, pooled_height, pooled_width,
            float(spatial_scale), int(sampling_ratio), bool(aligned), out,
        )  # fmt: skip
        return out
    for r in range(rois):
        xmin, ymin, bin_w, bin_h, grid_h, grid_w = roi_align_geometry(
            host_boxes[r],
            spatial_scale,
            pooled_height,
            pooled_width,
            sampling_ratio,
            aligned,
            dtype,
            False,
        )
        along_y = roi_align_axis(ymin, bin_h, pooled_height, grid_h, height, dtype, False)
        along_x = roi_align_axis(xmin, bin_w, pooled_width, grid_w, width, dtype, False)
        count = _sample_share(grid_h * grid_w, dtype)
        out[r] = _separable(xp, x[images[r]], along_y, along_x) * count
    return out


# the most sample points per bin and axis the compiled roi_align walks; beyond it the numpy
# path runs (and refuses a sample grid larger than FLAGS_max_alloc_bytes)
_NATIVE_GRID_MAX = 1 << 20


def _native_grid_fits(boxes: np.ndarray, spatial_scale: float, sampling_ratio: int) -> bool:
    """Whether every box's sample grid stays within `_NATIVE_GRID_MAX` points per axis (a grid
    is at most the box's scaled extent, at most twice its largest scaled coordinate, plus 1)."""
    if sampling_ratio > 0:
        return sampling_ratio <= _NATIVE_GRID_MAX
    reach = float(np.abs(boxes).max()) * abs(float(spatial_scale)) if boxes.size else 0.0
    return 2 * reach + 2 <= _NATIVE_GRID_MAX


def _sample_share(points: int, dtype: Any) -> Any:
    """T(1.0 / points), what each sample point of a bin adds to its mean (inf for no point, so
    that a float bin without points is NaN as in PHI; 0 for an int T, 1 / points truncated)."""
    if np.dtype(dtype).kind in "iu":
        return np.dtype(dtype).type(1 if points == 1 else 0)
    with np.errstate(divide="ignore"):
        return np.dtype(dtype).type(np.float64(1.0) / np.float64(points))


def _separable(xp: Any, image: Array, along_y: np.ndarray, along_x: np.ndarray) -> Array:
    """sum_{h, w} along_y[p, h] image[c, h, w] along_x[q, w], reading only the rows and columns
    with a nonzero weight."""
    rows = np.flatnonzero(along_y.any(axis=0))
    cols = np.flatnonzero(along_x.any(axis=0))
    if rows.size == 0 or cols.size == 0:
        return xp.zeros((image.shape[0], along_y.shape[0], along_x.shape[0]), dtype=image.dtype)
    block = image[:, xp.asarray(rows)][:, :, xp.asarray(cols)]
    wy = xp.asarray(along_y[:, rows])
    wx = xp.asarray(along_x[:, cols])
    if block.dtype.kind in "iu":  # BLAS has no integer GEMM; einsum keeps the exact sums
        return xp.einsum("ph,chw,qw->cpq", wy, block, wx).astype(image.dtype)
    # two batched GEMMs, [p, h] @ [c, h, w] then @ [w, q]: einsum's three-operand loop is
    # several times slower already at a few channels
    return ((wy @ block) @ wx.T).astype(image.dtype, copy=False)


def roi_pool_bins(
    box: Any, spatial_scale: float, pooled: int, axis: int, size: int, dtype: Any
) -> tuple[np.ndarray, np.ndarray]:
    """[pooled] (start, end) pixel ranges of one axis of a box's bins, as PHI's roi_pool
    computes them (box corners rounded half away from zero, float32 bin sizes)."""
    corners = [_round_away(_scaled(box[a], spatial_scale, dtype)) for a in (axis, axis + 2)]
    if not all(abs(c) < 2**31 for c in corners):
        raise InvalidArgumentError(
            f"argument 'boxes': box {list(np.asarray(box).tolist())} times spatial_scale "
            f"{spatial_scale} lies beyond the int32 pixel range"
        )
    start, end = (int(c) for c in corners)
    extent = max(end - start + 1, 1)
    bin_size = np.float32(extent) / np.float32(pooled)
    p = np.arange(pooled, dtype=np.float32)
    lows = np.floor(p * bin_size).astype(np.int64) + start
    highs = np.ceil((p + np.float32(1)) * bin_size).astype(np.int64) + start
    return np.clip(lows, 0, size), np.clip(highs, 0, size)


def _round_away(value: Any) -> Any:
    return np.sign(value) * np.floor(np.abs(value) + 0.5)


def _lowest(dtype: Any) -> Any:
    """-numeric_limits<T>::max()."""
    info = np.finfo(dtype) if np.dtype(dtype).kind == "f" else np.iinfo(dtype)
    return -info.max


@register_kernel("roi_pool", dtypes=ROI_DTYPES, configure=keep_boxes_num_and_int64_arg_max)
def roi_pool_kernel(
    ctx: KernelContext,
    x: Array,
    boxes: Array,
    boxes_num: Array | None,
    pooled_height: int,
    pooled_width: int,
    spatial_scale: float,
) -> tuple[Array, Array]:
    xp = ctx.xp
    batch, channels, height, width = x.shape
    rois = boxes.shape[0]
    out = xp.zeros((rois, channels, pooled_height, pooled_width), dtype=x.dtype)
    arg_max = xp.full((rois, channels, pooled_height, pooled_width), -1, dtype=xp.int64)
    if rois == 0:
        return out, arg_max
    images = roi_batch_ids(xp, boxes_num, rois, batch)
    host_boxes = finite_boxes(boxes)
    lowest = _lowest(x.dtype)
    for r in range(rois):
        h_lo, h_hi = roi_pool_bins(host_boxes[r], spatial_scale, pooled_height, 1, height, x.dtype)
        w_lo, w_hi = roi_pool_bins(host_boxes[r], spatial_scale, pooled_width, 0, width, x.dtype)
        image = x[images[r]]
        for ph in range(pooled_height):
            for pw in range(pooled_width):
                hs, he, ws, we = int(h_lo[ph]), int(h_hi[ph]), int(w_lo[pw]), int(w_hi[pw])
                if he <= hs or we <= ws:
                    continue
                region = image[:, hs:he, ws:we].reshape(channels, -1)
                # the first value greater than every earlier one and than -max (NaN never is)
                candidates = xp.where(region > lowest, region, xp.asarray(lowest, dtype=x.dtype))
                best = xp.argmax(candidates, axis=1)
                value = xp.take_along_axis(candidates, best.reshape(-1, 1), axis=1).reshape(-1)
                found = value > lowest
                out[r, :, ph, pw] = xp.where(found, value, xp.asarray(lowest, dtype=x.dtype))
                span = we - ws
                index = (hs + best // span) * width + ws + best % span
                arg_max[r, :, ph, pw] = xp.where(found, index, -1)
    return out, arg_max


# --- nms -----------------------------------------------------------------------------------------


def overlaps(xp: Any, box: Array, others: Array, threshold: Any) -> Array:
    """Whether the IoU of ``box`` [4] with each of ``others`` [M, 4] exceeds ``threshold``, in
    the boxes' dtype and PHI's order (CalculateIoU); an IoU of 0/0 (NaN) does not."""
    zero = box.dtype.type(0)
    width = xp.minimum(box[2], others[:, 2]) - xp.maximum(box[0], others[:, 0])
    height = xp.minimum(box[3], others[:, 3]) - xp.maximum(box[1], others[:, 1])
    inter = xp.where(width > 0, width, zero) * xp.where(height > 0, height, zero)
    union = (
        (box[2] - box[0]) * (box[3] - box[1])
        + ((others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1]))
        - inter
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        return inter / union > threshold


@register_kernel("nms", dtypes=REAL, configure=int64_output)
def nms_kernel(ctx: KernelContext, x: Array, threshold: float) -> Array:
    """Greedy non-maximum suppression of boxes taken in the given order (sort them by score
    first): a box is kept unless a kept box before it overlaps it with IoU > threshold."""
    xp = ctx.xp
    count = x.shape[0]
    limit = x.dtype.type(np.float32(threshold))
    suppressed = np.zeros(count, dtype=bool)
    for i in range(count):
        if suppressed[i] or i + 1 == count:
            continue
        hits = np.asarray(to_host(overlaps(xp, x[i], x[i + 1 :], limit)))
        suppressed[i + 1 :] |= hits
    return xp.asarray(np.flatnonzero(~suppressed).astype(np.int64))


# --- multiclass_nms3 -----------------------------------------------------------------------------


def nms_fast(
    boxes: np.ndarray,
    scores: np.ndarray,
    score_threshold: Any,
    nms_threshold: Any,
    eta: Any,
    top_k: int,
    normalized: bool,
) -> list[int]:
    """PHI's NMSFast: candidates above score_threshold by descending score (ties in index
    order), at most top_k of them, each kept unless its overlap with a kept box exceeds the
    threshold (a NaN overlap drops it too), the threshold shrinking by eta after each kept box
    while it is above 0.5."""
    candidates = np.flatnonzero(scores > score_threshold)
    order = candidates[np.argsort(-scores[candidates].astype(np.float64), kind="stable")]
    if -1 < top_k < order.size:
        order = order[:top_k]
    ordered = boxes[order]
    x1, y1, x2, y2 = (np.ascontiguousarray(ordered[:, i]) for i in range(4))
    t = boxes.dtype.type
    norm = t(0) if normalized else t(1)
    w, h = x2 - x1, y2 - y1
    area = np.where((x2 < x1) | (y2 < y1), t(0), w * h if normalized else (w + norm) * (h + norm))
    greedy = native_function(x1, "nms_greedy")
    if greedy is not None:
        # the compiled walk: the same overlaps in the same dtype, computed for kept boxes only
        kept = np.empty(order.size, dtype=np.int64)
        count = greedy(
            x1,
            y1,
            x2,
            y2,
            np.ascontiguousarray(area, dtype=x1.dtype),
            order.size,
            float(norm),
            float(nms_threshold),
            float(eta),
            kept,
        )
        return order[kept[:count]].tolist()
    if order.size <= _NMS_MATRIX_LIMIT:
        return _greedy_with_matrix(order, x1, y1, x2, y2, area, norm, nms_threshold, eta)
    # the candidates not yet suppressed, in order, and the largest overlap of each with a box
    # kept so far (NaN counted as infinite). A candidate once above the threshold stays above
    # it (overlaps only grow, the threshold only shrinks), so the first one left is kept, and
    # each kept box costs one vectorised row over those left: JaccardOverlap's terms commute,
    # so the row is each later candidate's overlap with the kept box, as NMSFast computes it
    alive = np.arange(order.size)
    worst = np.full(order.size, -np.inf, dtype=np.float64)
    selected: list[int] = []
    adaptive = nms_threshold
    while alive.size:
        k, rest = alive[0], alive[1:]
        selected.append(int(order[k]))
        if eta < 1 and adaptive > 0.5:
            adaptive = adaptive * eta
        if not rest.size:
            break
        row = _overlap_rows(k, rest, x1, y1, x2, y2, area, norm)[0].astype(np.float64)
        row[np.isnan(row)] = np.inf
        seen = np.maximum(worst[rest], row)
        keep = seen <= adaptive
        worst[rest] = seen
        alive = rest[keep]
    return selected


# up to this many candidates of one class, NMS computes their overlaps as one matrix (4 MB of
# float32 at the limit) and walks them in a scalar loop; beyond it, one row per kept box
_NMS_MATRIX_LIMIT = 1024


def _overlap_rows(
    rows: Any, columns: Any, x1: Any, y1: Any, x2: Any, y2: Any, area: Any, norm: Any
) -> np.ndarray:
    """PHI's JaccardOverlap of the boxes ``rows`` (an index or index array) with the boxes
    ``columns``, [len(rows), len(columns)], in the boxes' dtype (NaN where 0/0)."""
    r = np.atleast_1d(rows)[:, None]
    c = np.asarray(columns)[None, :]
    inter = (np.minimum(x2[r], x2[c]) - np.maximum(x1[r], x1[c]) + norm) * (
        np.minimum(y2[r], y2[c]) - np.maximum(y1[r], y1[c]) + norm
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area[r] + area[c] - inter)
    disjoint = (x1[c] > x2[r]) | (x2[c] < x1[r]) | (y1[c] > y2[r]) | (y2[c] < y1[r])
    return np.where(disjoint, x1.dtype.type(0), iou)


def _greedy_with_matrix(
    order: np.ndarray,
    x1: Any,
    y1: Any,
    x2: Any,
    y2: Any,
    area: Any,
    norm: Any,
    nms_threshold: Any,
    eta: Any,
) -> list[int]:
    """NMSFast's greedy walk over ``order`` with every overlap computed up front."""
    everything = np.arange(order.size)
    overlap = _overlap_rows(everything, everything, x1, y1, x2, y2, area, norm)
    overlap[np.isnan(overlap)] = np.inf
    worst = np.full(order.size, -np.inf, dtype=overlap.dtype)
    selected: list[int] = []
    adaptive = nms_threshold
    for k in range(order.size):
        if selected and not worst[k] <= adaptive:
            continue
        selected.append(int(order[k]))
        np.maximum(worst, overlap[k], out=worst)
        if eta < 1 and adaptive > 0.5:
            adaptive = adaptive * eta
    return selected


def multiclass_nms_image(
    boxes: np.ndarray,
    scores: np.ndarray,
    per_class_boxes: bool,
    score_threshold: Any,
    nms_top_k: int,
    keep_top_k: int,
    nms_threshold: Any,
    normalized: bool,
    eta: Any,
    background_label: int,
) -> dict[int, list[int]]:
    """PHI's MultiClassNMS for one image: scores [C, M] (boxes [M, 4]) or, with
    ``per_class_boxes``, scores [M, C] (boxes [M, C, 4]); the kept box indices per class."""
    classes = scores.shape[1] if per_class_boxes else scores.shape[0]
    kept: dict[int, list[int]] = {}
    for c in range(classes):
        if c == background_label:
            continue
        class_scores = scores[:, c] if per_class_boxes else scores[c]
        class_boxes = boxes[:, c] if per_class_boxes else boxes
        selected = nms_fast(
            class_boxes, class_scores, score_threshold, nms_threshold, eta, nms_top_k, normalized
        )
        kept[c] = sorted(selected) if per_class_boxes else selected
    total = sum(len(v) for v in kept.values())
    if keep_top_k > -1 and total > keep_top_k:
        # the (score as float32, class, index) triples by descending score, ties in class and
        # then kept order (a stable sort)
        labels = sorted(kept)
        classes_of = np.concatenate([np.full(len(kept[c]), c, dtype=np.int64) for c in labels])
        index_of = np.concatenate([np.asarray(kept[c], dtype=np.int64) for c in labels])
        values = scores[index_of, classes_of] if per_class_boxes else scores[classes_of, index_of]
        order = np.argsort(-values.astype(np.float32).astype(np.float64), kind="stable")
        order = order[:keep_top_k]
        kept = {}
        for c, i in zip(classes_of[order].tolist(), index_of[order].tolist()):
            kept.setdefault(c, []).append(i)
        if per_class_boxes:
            kept = {c: sorted(v) for c, v in kept.items()}
    return {c: kept[c] for c in sorted(kept)}


@register_kernel("multiclass_nms3", dtypes=REAL, configure=multiclass_nms_dtypes)
def multiclass_nms3_kernel(
    ctx: KernelContext,
    bboxes: Array,
    scores: Array,
    rois_num: Array | None,
    score_threshold: float,
    nms_top_k: int,
    keep_top_k: int,
    nms_threshold: float,
    normalized: bool,
    nms_eta: float,
    background_label: int,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    host_boxes = np.asarray(to_host(bboxes))
    host_scores = np.asarray(to_host(scores))
    t = host_scores.dtype.type
    box_size = host_boxes.shape[-1]
    if box_size != 4:
        raise UnimplementedError(
            f"argument 'bboxes': boxes of {box_size} coordinates (polygons) are not "
            "implemented, only [x1, y1, x2, y2]"
        )
    limits = (t(np.float32(score_threshold)), t(np.float32(nms_threshold)), t(np.float32(nms_eta)))
    batched = host_scores.ndim == 3
    if batched:
        spans = [(i, i + 1) for i in range(host_scores.shape[0])]
    else:
        counts = roi_counts(rois_num, host_scores.shape[0])
        starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        spans = list(zip(starts[:-1].tolist(), starts[1:].tolist()))
    rows: list[np.ndarray] = []
    index: list[int] = []
    per_image: list[int] = []
    for image, (start, end) in enumerate(spans):
        if batched:
            image_boxes, image_scores = host_boxes[image], host_scores[image]
            offset = image * host_scores.shape[2]
        else:
            image_boxes, image_scores = host_boxes[start:end], host_scores[start:end]
            offset = start * host_scores.shape[1]
        if not batched and end == start:
            per_image.append(0)
            continue
        kept = multiclass_nms_image(
            image_boxes,
            image_scores,
            not batched,
            limits[0],
            nms_top_k,
            keep_top_k,
            limits[1],
            normalized,
            limits[2],
            background_label,
        )
        before = len(index)
        for label, indices in kept.items():
            for i in indices:
                if batched:
                    score, box, flat = image_scores[label, i], image_boxes[i], offset + i
                else:
                    score, box = image_scores[i, label], image_boxes[i, label]
                    flat = offset + i * host_scores.shape[1] + label
                rows.append(np.concatenate([[t(label), score], box]).astype(host_scores.dtype))
                index.append(flat)
        per_image.append(len(index) - before)
    out = np.stack(rows) if rows else np.zeros((0, box_size + 2), host_scores.dtype)
    return (
        xp.asarray(out),
        xp.asarray(np.array(index, np.int32).reshape(-1, 1)),
        xp.asarray(np.array(per_image, np.int32)),
    )
