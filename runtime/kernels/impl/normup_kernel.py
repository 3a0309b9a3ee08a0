"""``rrelu``, as PaddlePaddle 3.3.1's CPU kernel (paddle/phi/kernels/cpu/rrelu_kernel.cc)
computes it: out = x where x >= 0, else x * slope, with ``noise`` holding each element's slope
(1 where x >= 0). In training (``is_test`` false) the slopes are uniform in [lower, upper),
drawn in float32 as PHI's ``std::uniform_real_distribution<float>``; with ``is_test`` they are
(lower + upper) / 2, computed in float32.

The draws are PaddlePaddle's: as PHI, one number per element that is not >= 0 (NaN included),
in flat order, from the place's engine (``phiops.runtime.random.engine_for``, the mt19937_64
``paddle.seed`` seeds), so after the same seed the slopes are PaddlePaddle 3.3.1's CPU ones.

Also ``linear_interp``, ``bicubic_interp`` and ``trilinear_interp`` (see their section below).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.backends import scatter_at, to_numpy
from phiops.runtime.common import DataType
from phiops.runtime.infermeta.sizes import check_scratch_size
from phiops.runtime.kernels.impl.interp_kernel import (
    InterpPlan,
    _ratio,
    as_nchw,
    bilinear_axis,
    from_nchw,
    interpolate,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.kernels import mt19937
from phiops.runtime.random import engine_for


# PaddlePaddle 3.3.1 registers rrelu on CPU for float16, float32 and float64.
@register_kernel("rrelu", dtypes=(DataType.FLOAT16, DataType.FLOAT32, DataType.FLOAT64))
def rrelu_kernel(
    ctx: KernelContext, x: Array, lower: float, upper: float, is_test: bool
) -> tuple[Array, Array]:
    xp = ctx.xp
    low, high = np.float32(lower), np.float32(upper)
    if is_test:
        slopes = xp.asarray((low + high) / np.float32(2.0), dtype=x.dtype)
    else:
        # PHI: one std::uniform_real_distribution<float>(lower, upper) draw of the place's
        # engine per element that is not >= 0 (NaN included), in flat order
        negative = ~(to_numpy(x) >= 0).reshape(-1)
        draws = mt19937.uniform(
            engine_for(ctx.place, 0), int(negative.sum()), low, high, np.float32
        )
        flat = np.zeros(negative.shape, np.float32)
        flat[negative] = draws
        slopes = xp.asarray(flat.reshape(x.shape).astype(x.dtype))
    noise = xp.where(x >= 0, xp.asarray(1, dtype=x.dtype), slopes).astype(x.dtype, copy=False)
    return x * noise, noise


# ---- linear_interp, bicubic_interp, trilinear_interp ------------------------------------------
#
# As PHI's CPU kernels (paddle/phi/kernels/cpu/interpolate_kernel.cc): the output size and the
# per-dim ratio come as for nearest_interp/bilinear_interp (interp_kernel.InterpPlan); each
# spatial dim then has its own taps, applied one dim after the other (the weights are
# separable, so this is PHI's sum of weighted corners, rounded in another order):
# - linear (1-D), trilinear (3-D): the two neighbours of PHI's bilinear_interp along each dim,
#   (1 - d, d), with half-pixel centres when ``align_mode`` is 0 and ``align_corners`` false;
# - bicubic (2-D): source position ratio * k with ``align_corners``, else ratio * (k + 0.5) -
#   0.5 (in double, then the compute type, as PHI), its floor i and fraction t, and the four
#   neighbours i - 1 .. i + 2 (clamped to the edge) weighted by Keys' cubic convolution with
#   A = -0.75: W(t + 1), W(t), W(1 - t), W(2 - t).
# ``interp_method`` picks the method as in PHI (the op's name gives the usual one); equal input
# and output sizes copy x, as PHI does. Sums are in float32 (float64 for float64 input) and
# cast back, so uint8 results truncate as PHI's do.

CUBIC_A = -0.75


def cubic_weights(t: np.ndarray) -> list[np.ndarray]:
    """Keys' cubic convolution weights of the four neighbours i - 1 .. i + 2 of a source
    position i + t, as PHI's get_cubic_upsample_coefficients (A = -0.75), in t's dtype."""
    a = t.dtype.type(CUBIC_A)
    one, two, three = t.dtype.type(1), t.dtype.type(2), t.dtype.type(3)
    four, five, eight = t.dtype.type(4), t.dtype.type(5), t.dtype.type(8)

    def near(x: np.ndarray) -> np.ndarray:  # |x| <= 1
        return ((a + two) * x - (a + three)) * x * x + one

    def far(x: np.ndarray) -> np.ndarray:  # 1 < |x| < 2
        return ((a * x - five * a) * x + eight * a) * x - four * a

    return [far(t + one), near(t), near(one - t), far(two - t)]


def resample_taps(
    method: str,
    size: int,
    out: int,
    scale: float,
    align_corners: bool,
    align_mode: int,
    compute: Any,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """(source index, weight) pairs of one spatial dim: each output position k is the sum over
    the pairs of weight[k] * x[index[k]]."""
    if method == "bicubic":
        ratio = _ratio(size, out, scale, align_corners)
        k = np.arange(out)
        if align_corners:
            position = (ratio * k.astype(np.float32)).astype(compute)
        else:
            position = (float(ratio) * (k + 0.5) - 0.5).astype(compute)
        base = np.floor(position)
        weights = cubic_weights((position - base).astype(compute))
        base = base.astype(np.int64)
        return [
            (np.clip(base - 1 + tap, 0, size - 1), weight) for tap, weight in enumerate(weights)
        ]
    low, high, frac = bilinear_axis(size, out, scale, align_corners, align_mode)
    frac = frac.astype(compute)
    return [(low, np.dtype(compute).type(1) - frac), (high, frac)]


def resample_matrix(
    method: str,
    size: int,
    out: int,
    scale: float,
    align_corners: bool,
    align_mode: int,
    compute: Any = np.float32,
) -> np.ndarray:
    """The [out, size] float64 weights of one spatial dim (the grad kernels' transpose), taps
    computed in ``compute`` (PHI's T for bicubic; linear weights are float32 in PHI)."""
    check_scratch_size("interpolation weight matrix", (out, size), 8)
    matrix = np.zeros((out, size), np.float64)
    rows = np.arange(out)
    for index, weight in resample_taps(
        method, size, out, scale, align_corners, align_mode, compute
    ):
        scatter_at("add", matrix, (rows, index), weight.astype(np.float64))
    return matrix


def resample(ctx: KernelContext, x: Array, plan: InterpPlan) -> Array:
    """x resized by ``plan`` (linear, trilinear or bicubic; nearest and bilinear go to
    interp_kernel.interpolate)."""
    if plan.method in ("nearest", "bilinear"):
        return interpolate(ctx, x, plan)
    xp = ctx.xp
    if tuple(plan.out) == tuple(plan.spatial):
        return xp.array(x, copy=True)
    compute = np.float64 if x.dtype == np.float64 else np.float32
    result = as_nchw(xp, x, plan.channel_last).astype(compute)
    # last spatial dim first, as PHI's bicubic kernel interpolates along x, then along y
    for dim in reversed(range(len(plan.spatial))):
        axis = 2 + dim
        taps = resample_taps(
            plan.method,
            plan.spatial[dim],
            plan.out[dim],
            plan.scales[dim],
            plan.align_corners,
            plan.mode,
            compute,
        )
        shape = (-1,) + (1,) * (result.ndim - axis - 1)
        total = None
        for index, weight in taps:
            term = xp.take(result, xp.asarray(index), axis=axis) * xp.asarray(weight.reshape(shape))
            total = term if total is None else total + term
        result = total
    return from_nchw(xp, result.astype(x.dtype), plan.channel_last)


def _resample_kernel(
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
    return resample(ctx, x, plan)


# PaddlePaddle 3.3.1's CPU registrations: bfloat16, float16, float32, float64, and uint8 but
# for bicubic_interp.
RESAMPLE_DTYPES = (
    DataType.BFLOAT16,
    DataType.FLOAT16,
    DataType.FLOAT32,
    DataType.FLOAT64,
    DataType.UINT8,
)
linear_interp_kernel = register_kernel("linear_interp", dtypes=RESAMPLE_DTYPES)(_resample_kernel)
trilinear_interp_kernel = register_kernel("trilinear_interp", dtypes=RESAMPLE_DTYPES)(
    _resample_kernel
)
bicubic_interp_kernel = register_kernel("bicubic_interp", dtypes=RESAMPLE_DTYPES[:4])(
    _resample_kernel
)
