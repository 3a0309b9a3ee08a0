"""Kernels with Scalar attributes: scale, pow, clip.

PHI converts each Scalar to the tensor's element type before computing (``Scalar::to<T>()``,
a C++ static_cast), so on an integer tensor a fractional scale, exponent or bound is truncated
toward zero first: scale(int x, 2.5) multiplies by 2. Values beyond the integer type's range
(undefined in C++) wrap around for scale, consistently with its wrapping arithmetic (so
scale(uint8 x, -1) is -x modulo 256), and saturate to the type's limits for pow and clip.
"""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

D = DataType

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/scale_kernel.cc,
# activation_kernel.cc for pow, clip_kernel.cc) without bfloat16.
SCALE_DTYPES = ALL_TYPES
POW_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
CLIP_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)


def scalar_as(
    xp: ModuleType,
    value: bool | int | float | complex,
    dtype: np.dtype,
    name: str,
    *,
    wrap: bool = False,
) -> Array:
    """``value`` converted to ``dtype`` as a 0-D array, the way PHI's Scalar::to<T>() does:
    truncation toward zero for integers, != 0 for bool, the real part for a complex value
    given to a real type. An integer out of the type's range wraps around (``wrap``) or
    saturates to the type's limits."""
    dtype = np.dtype(dtype)
    if isinstance(value, complex) and dtype.kind != "c":
        value = value.real
    if dtype.kind in "iu":
        value = _integer_value(value, dtype, name, wrap)
    elif dtype.kind == "b":
        value = value != 0
    return xp.asarray(value, dtype=dtype)


def _integer_value(value: bool | int | float, dtype: np.dtype, name: str, wrap: bool) -> int:
    if math.isnan(value):
        raise InvalidArgumentError(
            f"argument '{name}' is nan, which has no value in integer type {dtype}"
        )
    info = np.iinfo(dtype)
    if math.isinf(value):
        return int(info.max) if value > 0 else int(info.min)
    whole = math.trunc(value)
    if wrap:
        return (whole - int(info.min)) % (int(info.max) - int(info.min) + 1) + int(info.min)
    return min(max(whole, int(info.min)), int(info.max))


@register_kernel("scale", dtypes=SCALE_DTYPES)
@ieee_results
def scale_kernel(
    ctx: KernelContext,
    x: Array,
    scale: bool | int | float | complex,
    bias: bool | int | float | complex,
    bias_after_scale: bool,
) -> Array:
    """scale * x + bias, or scale * (x + bias) when ``bias_after_scale`` is false, computed in
    x's dtype (integers wrap around on overflow; on bool * is and, + is or, as in Eigen)."""
    xp = ctx.xp
    factor = scalar_as(xp, scale, x.dtype, "scale", wrap=True)
    offset = scalar_as(xp, bias, x.dtype, "bias", wrap=True)
    if bias_after_scale:
        return factor * x + offset
    return factor * (x + offset)


@register_kernel("pow", dtypes=POW_DTYPES)
@ieee_results
def pow_kernel(ctx: KernelContext, x: Array, y: bool | int | float | complex) -> Array:
    """x ** y for a Scalar exponent, PHI's PowFunctor ``x.pow(static_cast<T>(factor))`` with
    ``factor`` a C++ float: the exponent is rounded to float32, then converted to x's dtype
    (so an integer tensor's exponent is truncated: pow(int x, 2.7) squares). A negative
    exponent on an integer tensor raises InvalidArgumentError (Eigen's integer pow requires
    a non-negative exponent)."""
    xp = ctx.xp
    exponent = scalar_as(xp, float(np.float32(complex(y).real)), x.dtype, "y")
    if x.dtype.kind in "iu" and exponent < 0:
        raise InvalidArgumentError(
            f"pow: an integer tensor cannot be raised to a negative power, got y={y!r}"
        )
    return xp.power(x, exponent)


@register_kernel("clip", dtypes=CLIP_DTYPES)
def clip_kernel(ctx: KernelContext, x: Array, min: float, max: float) -> Array:  # noqa: A002
    """x limited to [min, max] (nan stays nan). PHI's ClipKernel: both bounds are first
    converted to x's dtype, and min > max raises InvalidArgumentError."""
    xp = ctx.xp
    low = scalar_as(xp, min, x.dtype, "min")
    high = scalar_as(xp, max, x.dtype, "max")
    if low > high:
        raise InvalidArgumentError(
            f"max should be greater than or equal to min. But received min = {float(low):f}, "
            f"max = {float(high):f}"
        )
    return xp.clip(x, low, high)
