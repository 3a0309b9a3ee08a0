"""interp_antialias: antialiased resizing of 4-D images, as PHI's CPU kernel
(paddle/phi/kernels/cpu/interpolate_kernel.cc, InterpAntialiasKernel), which follows PyTorch's
antialiased ``interpolate`` and PIL's resampling.

Separable, width first: per spatial dim an [out, in] weight matrix, applied as one GEMM, the
result rounded to x's dtype between the two passes as PHI's temporary buffer of T is. Output
position i is centred at ``ratio * (i + 0.5)`` in the input; the filter (bilinear: the
triangle 1 - |t| on |t| < 1; bicubic: Keys' cubic with a = -0.5 on |t| < 2) is stretched by the
ratio when it is at least 1 (downsampling), so its support is ``size/2 * ratio``; the taps are
the input pixels whose centres ``floor(centre -/+ support + 0.5)`` bound, clipped to the image,
and their weights, the filter at ``(j + xmin - centre + 0.5) / ratio``, are normalised to sum
to 1. ratio is PHI's AreaPixelComputeScale, computed in float32 (float64 for a float64 x) and
passed on as a float32: (in-1)/(out-1) with ``align_corners`` (0 for one output pixel), else
1/scale or in/out. The weights are computed in float32 for float16, bfloat16 and float32 x,
in float64 for float64 (PHI's MPTypeTrait) and for uint8, whose weights are then quantised to
16-bit fixed point per output pixel (the largest precision P, at most 22, that keeps twice the
largest weight under 2^15), summed in integers with a rounding bias of 2^(P-1), shifted right
by P and clamped to [0, 255] after each pass: PIL's arithmetic. An unchanged size returns x.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.sizes import check_scratch_size
from phiops.runtime.kernels.impl.interp_kernel import as_nchw, from_nchw, tensor_out_sizes
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle 3.3.1's CPU registration of interp_antialias.
INTERP_ANTIALIAS_DTYPES = (
    DataType.FLOAT16,
    DataType.BFLOAT16,
    DataType.FLOAT32,
    DataType.FLOAT64,
    DataType.UINT8,
)

# Bicubic's cubic convolution parameter in PHI's antialias filter (funcs::antialias).
BICUBIC_A = -0.5


def _bilinear_filter(t: np.ndarray) -> np.ndarray:
    t = np.abs(t)
    return np.where(t < 1, t.dtype.type(1) - t, t.dtype.type(0))


def _bicubic_filter(t: np.ndarray) -> np.ndarray:
    wt = t.dtype.type
    a = wt(BICUBIC_A)
    t = np.abs(t)
    near = ((a + wt(2)) * t - (a + wt(3))) * t * t + wt(1)
    far = (((t - wt(5)) * t + wt(8)) * t - wt(4)) * a
    return np.where(t < 1, near, np.where(t < 2, far, wt(0)))


# method -> (filter, its size: the support at ratio 1 is size / 2)
FILTERS: dict[str, tuple[Callable[[np.ndarray], np.ndarray], int]] = {
    "bilinear": (_bilinear_filter, 2),
    "bicubic": (_bicubic_filter, 4),
}


def antialias_ratio(
    size: int, out: int, scale: float, align_corners: bool, wide: bool
) -> np.float32:
    """PHI's AreaPixelComputeScale in float32 (float64 when ``wide``), passed on as float32."""
    mt = np.float64 if wide else np.float32
    if align_corners:
        ratio = mt(size - 1) / mt(out - 1) if out > 1 else mt(0)
    elif scale > 0:
        ratio = mt(1.0 / scale)
    else:
        ratio = mt(size) / mt(out) if out > 0 else mt(0)
    return np.float32(ratio)


def antialias_weights(
    size: int, out: int, ratio: np.float32, method: str, wt: type
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(first tap, number of taps, normalised weights [out, taps]) of each output pixel along
    one dim, in ``wt`` arithmetic as PHI's ComputeAAWeightsSpanCPU and ComputeAAWeightsCPU."""
    function, filter_size = FILTERS[method]
    scale = wt(ratio)
    half = wt(0.5)
    support = wt(filter_size) * half * scale if scale >= wt(1) else wt(filter_size) * half
    centre = scale * (np.arange(out).astype(wt) + half)
    first = np.maximum(np.floor(centre - support + half).astype(np.int64), 0)
    taps = np.minimum(np.floor(centre + support + half).astype(np.int64), size) - first
    invscale = wt(1) / scale if scale >= wt(1) else wt(1)
    width = max(int(taps.max()), 1) if out else 1
    j = np.arange(width).astype(wt)
    offset = (first.astype(wt) - centre)[:, None]
    weights = function(((j[None, :] + offset) + half) * invscale).astype(wt)
    weights = np.where(np.arange(width)[None, :] < taps[:, None], weights, wt(0))
    total = np.zeros(out, wt)
    for k in range(width):  # PHI's running sum, tap by tap
        total = total + weights[:, k]
    safe = np.where(total != 0, total, wt(1))
    weights = np.where((total != 0)[:, None], weights / safe[:, None], weights).astype(wt)
    return first, taps, weights


def dense_matrix(
    size: int, first: np.ndarray, taps: np.ndarray, weights: np.ndarray, dtype: Any
) -> np.ndarray:
    """The [out, size] matrix holding each output pixel's tap weights."""
    check_scratch_size("interp_antialias weight matrix", (len(first), size), 8)
    matrix = np.zeros((len(first), size), dtype)
    for k in range(weights.shape[1]):
        rows = np.nonzero(k < taps)[0]
        matrix[rows, first[rows] + k] = weights[rows, k]
    return matrix


def fixed_point(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int16 weights as int64, precision P) of each row, as PIL and PHI's uint8 kernel
    quantise them: P the first of 0..21 at which round(max|w| * 2^(P+1)) reaches 2^15, else
    22; the weights round(w * 2^P), halves away from zero."""
    largest = np.abs(weights).max(axis=1) if weights.size else np.zeros(len(weights))
    precision = np.full(len(weights), 22, np.int64)
    for p in range(21, -1, -1):
        reached = (0.5 + largest * float(1 << (p + 1))).astype(np.int64) >= (1 << 15)
        precision = np.where(reached, p, precision)
    scaled = weights * np.exp2(precision.astype(np.float64))[:, None]
    rounded = np.sign(scaled) * np.floor(np.abs(scaled) + 0.5)
    return rounded.astype(np.int16).astype(np.int64), precision


class AntialiasPlan:
    """Output size and per-dim weights of one interp_antialias call on a 4-D x."""

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
        wide: bool,
    ) -> None:
        if interp_method not in FILTERS:
            raise InvalidArgumentError(
                f"argument 'interp_method' must be one of {list(FILTERS)} for an antialiased "
                f"resize, got {interp_method!r}"
            )
        if len(shape) != 4:
            raise InvalidArgumentError(
                f"argument 'x' must be 4-D for an antialiased resize, got dims {list(shape)}"
            )
        self.method = interp_method
        self.channel_last = data_format == "NHWC"
        self.spatial = tuple(shape[1:3] if self.channel_last else shape[2:])
        self.out, scales = tensor_out_sizes(
            self.spatial, out_size, size_tensor, scale_tensor, out_d, out_h, out_w, scale
        )
        self.ratios = tuple(
            antialias_ratio(size, out, s, align_corners, wide)
            for size, out, s in zip(self.spatial, self.out, scales)
        )

    @property
    def unchanged(self) -> bool:
        return self.out == self.spatial

    def weights(self, axis: int, wt: type) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return antialias_weights(
            self.spatial[axis], self.out[axis], self.ratios[axis], self.method, wt
        )

    def matrices(self, xp: Any, wt: type) -> tuple[Array, Array]:
        """The [out_h, in_h] and [out_w, in_w] weight matrices, in ``wt``."""
        return tuple(
            xp.asarray(dense_matrix(self.spatial[axis], *self.weights(axis, wt), wt))
            for axis in (0, 1)
        )


def compute_type(dtype: Any) -> type:
    """PHI's MPTypeTrait: float64 for float64, float32 for the other float dtypes."""
    return np.float64 if dtype == np.float64 else np.float32


def _resample_uint8(xp: Any, nchw: Array, plan: AntialiasPlan) -> Array:
    result = nchw
    for axis in (1, 0):  # width, then height
        first, taps, weights = plan.weights(axis, np.float64)
        quantised, precision = fixed_point(weights)
        matrix = xp.asarray(dense_matrix(plan.spatial[axis], first, taps, quantised, np.int64))
        bias = xp.asarray(np.left_shift(1, np.maximum(precision - 1, 0)))
        shift = xp.asarray(precision)
        if axis == 1:
            accum = xp.matmul(result.astype(np.int64), matrix.T) + bias
            result = xp.clip(accum >> shift, 0, 255).astype(np.uint8)
        else:
            accum = xp.matmul(matrix, result.astype(np.int64)) + bias[:, None]
            result = xp.clip(accum >> shift[:, None], 0, 255).astype(np.uint8)
    return result


@register_kernel("interp_antialias", dtypes=INTERP_ANTIALIAS_DTYPES)
def interp_antialias_kernel(
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
    xp = ctx.xp
    plan = AntialiasPlan(
        x.shape, out_size, size_tensor, scale_tensor, data_format, out_d, out_h, out_w, scale,
        interp_method, align_corners, x.dtype == np.float64,
    )  # fmt: skip
    if plan.unchanged:
        return xp.array(x, copy=True)
    nchw = as_nchw(xp, x, plan.channel_last)
    if x.size == 0:
        result = xp.zeros(nchw.shape[:2] + plan.out, x.dtype)
    elif x.dtype == np.uint8:
        result = _resample_uint8(xp, nchw, plan)
    else:
        wt = compute_type(x.dtype)
        rows, cols = plan.matrices(xp, wt)
        temp = xp.matmul(nchw.astype(wt), cols.T).astype(x.dtype)
        result = xp.matmul(rows, temp.astype(wt)).astype(x.dtype)
    return from_nchw(xp, result, plan.channel_last)
