"""erfinv, the inverse error function, and its gradient.

numpy has no erfinv (and SciPy is not a dependency), so it is computed with xp operations: M.
Giles' single-precision approximation ("Approximating the erfinv function", GPU Computing Gems
Jade Edition, 2011) as the starting point, then four Newton steps in float64 with Cody's
approximations of erf and erfc (activation_kernel.py), which bring it to float64 accuracy (each
step squares the relative error): on erf(x) = y for |y| < 0.5, on erfc(|x|) = 1 - |y| beyond,
where 1 - |y| is exact and erfc keeps the digits that 1 - erfc would round away. float32 inputs are computed in float64 and rounded.
Edges as PaddlePaddle 3.3.1's: erfinv(x) is +-inf for x at or beyond +-1 (infinities
included) and nan for nan.
"""

from __future__ import annotations

import math
from types import ModuleType

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.activation_kernel import (
    _ERFC_ARGUMENT_LIMIT,
    _ERFC_C,
    _ERFC_D,
    _ERFC_P,
    _ERFC_Q,
    _ONE_OVER_SQRT_PI,
    erf,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

# Giles' coefficients, central region (w < 5) and tails, highest degree first
_CENTRAL = (
    2.81022636e-08,
    3.43273939e-07,
    -3.5233877e-06,
    -4.39150654e-06,
    0.00021858087,
    -0.00125372503,
    -0.00417768164,
    0.246640727,
    1.50140941,
)
_TAIL = (
    -0.000200214257,
    0.000100950558,
    0.00134934322,
    -0.00367342844,
    0.00573950773,
    -0.0076224613,
    0.00943887047,
    1.00167406,
    2.83297682,
)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_NEWTON_STEPS = 4


def _horner(coefficients: tuple[float, ...], w: Array) -> Array:
    result = coefficients[0] + 0 * w
    for coefficient in coefficients[1:]:
        result = result * w + coefficient
    return result


def erfc_of_positive(xp: ModuleType, y: Array) -> Array:
    """erfc(y) for y > 0.46875 with Cody's two rational approximations there (the ones
    activation_kernel.erf uses), without erf's rounding to 1 - erfc: near |x| = 1 the Newton
    steps must see the small difference 1 - |x| exactly."""
    c, d, p, q = _ERFC_C, _ERFC_D, _ERFC_P, _ERFC_Q
    y = xp.minimum(y, _ERFC_ARGUMENT_LIMIT)
    numerator, denominator = c[8] * y, y
    for i in range(7):
        numerator = (numerator + c[i]) * y
        denominator = (denominator + d[i]) * y
    middle = (numerator + c[7]) / (denominator + d[7])
    inverse_square = 1 / (y * y)
    numerator, denominator = p[5] * inverse_square, inverse_square
    for i in range(4):
        numerator = (numerator + p[i]) * inverse_square
        denominator = (denominator + q[i]) * inverse_square
    large = inverse_square * (numerator + p[4]) / (denominator + q[4])
    large = (_ONE_OVER_SQRT_PI - large) / y
    truncated = xp.trunc(y * 16) / 16
    return (
        xp.exp(-truncated * truncated)
        * xp.exp(-(y - truncated) * (y + truncated))
        * xp.where(y <= 4, middle, large)
    )


@ieee_results
def erfinv(xp: ModuleType, y: Array) -> Array:
    """erfinv of a float64 array: +-inf at and beyond +-1 (as PaddlePaddle 3.3.1 gives), nan for
    nan."""
    inside = xp.abs(y) < 1
    y_inside = xp.where(inside, y, 0.0)
    w = -xp.log((1 - y_inside) * (1 + y_inside))
    central = _horner(_CENTRAL, w - 2.5)
    tail = _horner(_TAIL, xp.sqrt(w) - 3)
    x = xp.where(w < 5, central, tail) * y_inside
    # Newton on erf(x) = y near 0, on erfc(|x|) = 1 - |y| (exact for |y| >= 0.5) beyond
    magnitude, complement = xp.abs(y_inside), 1 - xp.abs(y_inside)
    for _ in range(_NEWTON_STEPS):
        slope = _TWO_OVER_SQRT_PI * xp.exp(-x * x)
        near_zero = x - (erf(xp, x) - y_inside) / slope
        size = xp.abs(x)
        tail_step = (erfc_of_positive(xp, xp.maximum(size, 0.46875)) - complement) / slope
        x = xp.where(magnitude < 0.5, near_zero, xp.sign(y_inside) * (size + tail_step))
    return xp.where(inside, x, xp.sign(y) * xp.inf)  # sign(nan) * inf is nan


@register_kernel("erfinv", dtypes=(D.FLOAT32, D.FLOAT64))
def erfinv_kernel(ctx: KernelContext, x: Array) -> Array:
    """The y with erf(y) = x. PaddlePaddle 3.3.1 computes ndtri((x + 1) / 2) / sqrt(2) in x's
    dtype, so x is first rounded as x + 1 rounds it (to a multiple of 2**-52 in float64, 2**-23
    in float32 for positive x): near 1 that rounding, not the inverse, decides the last digits."""
    rounded = (x + 1) - 1
    return erfinv(ctx.xp, rounded.astype(ctx.xp.float64)).astype(x.dtype)
