"""nearest_interp (4-D and 5-D inputs) and bilinear_interp (4-D), as PHI's CPU kernels.

The source positions are computed as PHI computes them (paddle/phi/kernels/cpu/
interpolate_kernel.cc), in float32 where it uses float: ratio = (in-1)/(out-1) with
``align_corners``, else 1/scale or in/out; nearest takes int(ratio*k (+0.5 with
align_corners)); bilinear with ``align_mode`` 0 and no ``align_corners`` uses half-pixel
centres, otherwise ratio*k. ``interp_method`` picks the method, as in PHI (both ops accept
either). The output size comes from ``size_tensor``, else from ``scale_tensor``/``scale`` or
out_h/out_w with ``out_size`` replacing it, as PHI's kernels read them. Nearest gathers; bilinear sums four weighted gathers of the corners in PHI's order
and precision; the grad kernels apply the transposed [out, in] weight matrices of each
spatial dim with one ``einsum``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.multiary import interpolate_out_sizes, interpolate_scales, scaled_size
from phiops.runtime.infermeta.sizes import check_scratch_size
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/interpolate_kernel.cc).
INTERP_DTYPES = (
    DataType.FLOAT16,
    DataType.BFLOAT16,
    DataType.FLOAT32,
    DataType.FLOAT64,
    DataType.INT32,
    DataType.INT64,
    DataType.UINT8,
)
# bilinear_interp has no int32/int64 kernels there
BILINEAR_INTERP_DTYPES = tuple(
    d for d in INTERP_DTYPES if d not in (DataType.INT32, DataType.INT64)
)


def _ratio(size: int, out: int, scale: float, align_corners: bool) -> np.float32:
    if out <= 1:
        return np.float32(0)
    if align_corners:
        return np.float32(np.float32(size - 1) / np.float32(out - 1))
    return np.float32(1.0 / scale) if scale > 0 else np.float32(np.float32(size) / np.float32(out))


def nearest_indices(size: int, out: int, scale: float, align_corners: bool) -> np.ndarray:
    """Source index of each output position along one dim."""
    ratio, k = _ratio(size, out, scale, align_corners), np.arange(out, dtype=np.float32)
    position = ratio * k + np.float32(0.5) if align_corners else ratio * k
    return np.minimum(position.astype(np.int64), size - 1)


def bilinear_axis(
    size: int, out: int, scale: float, align_corners: bool, align_mode: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lower index, upper index, float32 weight of the upper one) of each output position."""
    ratio = _ratio(size, out, scale, align_corners)
    k = np.arange(out)
    if align_mode == 0 and not align_corners:  # half-pixel centres
        source = float(ratio) * (k + 0.5) - 0.5  # double in PHI
        low = np.maximum(source.astype(np.int64), 0)
        frac = np.maximum(source.astype(np.float32), np.float32(0)) - low.astype(np.float32)
    else:
        scaled = ratio * k.astype(np.float32)
        low = scaled.astype(np.int64)
        frac = scaled - low.astype(np.float32)
    return low, np.minimum(low + 1, size - 1), frac.astype(np.float32)


def bilinear_matrix(
    size: int, out: int, scale: float, align_corners: bool, align_mode: int
) -> np.ndarray:
    """[out, size] bilinear weights along one dim."""
    low, high, frac = bilinear_axis(size, out, scale, align_corners, align_mode)
    k = np.arange(out)
    matrix = np.zeros((out, size), np.float64)
    scatter_at("add", matrix, (k, low), (np.float32(1) - frac).astype(np.float64))
    scatter_at("add", matrix, (k, high), frac.astype(np.float64))
    return matrix


class InterpPlan:
    """Output sizes and per-dim source positions of one interpolation call."""

    __slots__ = ("method", "channel_last", "spatial", "out", "scales", "align_corners", "mode")

    def __init__(
        self,
        shape: tuple[int, ...],
        out_size: Array | None,
        size_tensor: list[Array] | None,
        scale_tensor: Array | None,
        data_format: str,
        out_d: int,
        out_h: int,
        out_w: int,
        scale: tuple[float, ...],
        interp_method: str,
        align_corners: bool,
        align_mode: int,
    ) -> None:
        self.method = interp_method
        self.channel_last = data_format in ("NHWC", "NDHWC")
        self.spatial = tuple(shape[1:-1] if self.channel_last else shape[2:])
        self.out, self.scales = tensor_out_sizes(
            self.spatial, out_size, size_tensor, scale_tensor, out_d, out_h, out_w, scale
        )
        self.align_corners, self.mode = align_corners, align_mode

    def matrices(self, xp: Any, dtype: Any) -> list[Array]:
        """Per spatial dim, the [out, in] weights (one-hot rows for nearest); a matrix larger
        than FLAGS_max_alloc_bytes is refused before it is allocated."""
        result = []
        for size, out, scale in zip(self.spatial, self.out, self.scales):
            check_scratch_size("interpolation weight matrix", (out, size), 8)
            if self.method == "nearest":
                matrix = np.zeros((out, size))
                matrix[np.arange(out), nearest_indices(size, out, scale, self.align_corners)] = 1
            else:
                matrix = bilinear_matrix(size, out, scale, self.align_corners, self.mode)
            result.append(xp.asarray(matrix.astype(dtype)))
        return result


def tensor_out_sizes(
    spatial: tuple[int, ...],
    out_size: Array | None,
    size_tensor: list[Array] | None,
    scale_tensor: Array | None,
    out_d: int,
    out_h: int,
    out_w: int,
    scale: tuple[float, ...],
) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """(output sizes, scales) as PHI's kernels read them: ``size_tensor`` first (the ratios
    then come from the sizes); else the scales of ``scale_tensor`` (one value for every dim, or
    one per dim) or of ``scale``, or the out_* attributes, with ``out_size`` replacing the
    sizes but not the scales the ratios come from."""
    rank = len(spatial)
    if size_tensor:
        sizes = tuple(int(item.reshape(-1).tolist()[0]) for item in size_tensor)
        scales: tuple[float, ...] = (0.0,) * rank
    elif scale_tensor is not None:
        values = [float(v) for v in scale_tensor.reshape(-1).tolist()]
        scales = tuple(values * rank if len(values) == 1 else values)
        if not all(s > 0 for s in scales):
            raise InvalidArgumentError(
                f"the values of argument 'scale_tensor' must be positive, got {values}"
            )
        sizes = tuple(scaled_size(size, s) for size, s in zip(spatial, scales))
    elif out_size is not None:
        scales = interpolate_scales(scale, rank)
    else:
        sizes, scales = interpolate_out_sizes(spatial, out_d, out_h, out_w, scale)
    if out_size is not None and not size_tensor:
        sizes = tuple(int(v) for v in out_size.reshape(-1).tolist())
    for axis, size in enumerate(sizes):
        if size <= 0:
            source = "size_tensor" if size_tensor else "out_size" if out_size is not None else ""
            raise InvalidArgumentError(
                f"the output size along spatial dim {axis} must be positive, got {size}"
                + (f" (argument '{source}')" if source else "")
            )
    return sizes, scales


def as_nchw(xp: Any, x: Array, channel_last: bool) -> Array:
    return xp.moveaxis(x, -1, 1) if channel_last else x


def from_nchw(xp: Any, y: Array, channel_last: bool) -> Array:
    return xp.ascontiguousarray(xp.moveaxis(y, 1, -1) if channel_last else y)


def interpolate(ctx: KernelContext, x: Array, plan: InterpPlan) -> Array:
    xp = ctx.xp
    nchw = as_nchw(xp, x, plan.channel_last)
    if plan.method == "nearest":
        indices = [
            nearest_indices(size, out, scale, plan.align_corners)
            for size, out, scale in zip(plan.spatial, plan.out, plan.scales)
        ]
        mesh = tuple(xp.asarray(index) for index in np.ix_(*indices))
        result = nchw[(slice(None), slice(None)) + mesh]
    else:
        # PHI's sum of four weighted corners, in float32 (float64 for a float64 input)
        compute = np.float64 if x.dtype == np.float64 else np.float32
        (top, bottom, dy), (left, right, dx) = (
            bilinear_axis(size, out, scale, plan.align_corners, plan.mode)
            for size, out, scale in zip(plan.spatial, plan.out, plan.scales)
        )
        rows = [xp.asarray(i)[:, None] for i in (top, bottom)]
        cols = [xp.asarray(i)[None, :] for i in (left, right)]
        dy = xp.asarray(dy.astype(compute))[:, None]
        dx = xp.asarray(dx.astype(compute))[None, :]
        one = compute(1)
        source = nchw.astype(compute, copy=False)
        result = source[:, :, rows[0], cols[0]] * (one - dy) * (one - dx)
        result += source[:, :, rows[1], cols[0]] * dy * (one - dx)
        result += source[:, :, rows[0], cols[1]] * (one - dy) * dx
        result += source[:, :, rows[1], cols[1]] * dy * dx
        result = result.astype(x.dtype)
    return from_nchw(xp, result, plan.channel_last)


def _interp_kernel(
    ctx: KernelContext,
    x: Array,
    out_size: Array | None,
    size_tensor: list[Array] | None,
    scale_tensor: Array | None,
    data_format: str,
    out_d: int,
    out_h: int,
    out_w: int,
    scale: tuple[float, ...],
    interp_method: str,
    align_corners: bool,
    align_mode: int,
) -> Array:
    plan = InterpPlan(
        x.shape,
        out_size,
        size_tensor,
        scale_tensor,
        data_format,
        out_d,
        out_h,
        out_w,
        scale,
        interp_method,
        align_corners,
        align_mode,
    )
    if plan.method not in ("nearest", "bilinear"):
        # PHI's kernels follow interp_method whichever op carries it (a bilinear_interp
        # asked for bicubic resamples bicubically): the other methods' kernel
        from phiops.runtime.kernels.impl.normup_kernel import resample

        return resample(ctx, x, plan)
    return interpolate(ctx, x, plan)


nearest_interp_kernel = register_kernel("nearest_interp", dtypes=INTERP_DTYPES)(_interp_kernel)
bilinear_interp_kernel = register_kernel("bilinear_interp", dtypes=BILINEAR_INTERP_DTYPES)(
    _interp_kernel
)
