"""Unary math kernels: log1p, log2, log10, expm1, round, trunc, asin, acos, atan,
sinh, cosh, asinh, acosh, atanh, tan, reciprocal, and the activations celu, hardshrink
(kernel ``hard_shrink``), softshrink, tanh_shrink and thresholded_relu.

The dtype lists are PaddlePaddle 3.3.1's CPU registrations (paddle/phi/kernels/cpu/
activation_kernel.cc, round/trunc in activation_kernel.cc and trunc_kernel.cc), bfloat16 arrays
coming from ml_dtypes. PHI also registers log1p, log2, log10 and expm1 for int32/int64 with a
float32 output (the input cast to float32, then the float32 functor), and so do we; eager calls
cast integer inputs of these ops, and PaddlePaddle's API those of the trigonometric ops, to
float32 before the kernel by the dispatcher's promotion rules (ops/op_traits.yaml
``float_math``), which gives the same result.
"""

from __future__ import annotations

import math

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.activation_kernel import (
    INT_IN_FLOAT_OUT,
    as_float32_if_integer,
    float32_for_integers,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

REAL = (D.FLOAT32, D.FLOAT64)
REAL_AND_COMPLEX = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
LOG_DTYPES = (
    D.FLOAT16,
    D.BFLOAT16,
    D.FLOAT32,
    D.FLOAT64,
    D.COMPLEX64,
    D.COMPLEX128,
) + INT_IN_FLOAT_OUT
EXPM1_DTYPES = (D.FLOAT16, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128) + INT_IN_FLOAT_OUT
ROUND_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
TRUNC_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)

_LN2 = math.log(2.0)


@register_kernel("log1p", dtypes=LOG_DTYPES, configure=float32_for_integers)
@ieee_results
def log1p_kernel(ctx: KernelContext, x: Array) -> Array:
    """log(1 + x): -inf at -1, nan below, as in PHI; an integer x in float32."""
    return ctx.xp.log1p(as_float32_if_integer(x))


@register_kernel("log2", dtypes=LOG_DTYPES, configure=float32_for_integers)
@ieee_results
def log2_kernel(ctx: KernelContext, x: Array) -> Array:
    """log2(x); for complex x PHI's log(x) / ln 2 (-inf + nan*j at 0); an integer x in
    float32."""
    xp = ctx.xp
    x = as_float32_if_integer(x)
    return xp.log(x) / _LN2 if x.dtype.kind == "c" else xp.log2(x)


@register_kernel("log10", dtypes=LOG_DTYPES, configure=float32_for_integers)
@ieee_results
def log10_kernel(ctx: KernelContext, x: Array) -> Array:
    """log10(x); an integer x in float32."""
    return ctx.xp.log10(as_float32_if_integer(x))


@register_kernel("expm1", dtypes=EXPM1_DTYPES, configure=float32_for_integers)
@ieee_results
def expm1_kernel(ctx: KernelContext, x: Array) -> Array:
    """exp(x) - 1; an integer x in float32."""
    return ctx.xp.expm1(as_float32_if_integer(x))


@register_kernel("round", dtypes=ROUND_DTYPES)
@ieee_results
def round_kernel(ctx: KernelContext, x: Array, decimals: int) -> Array:
    """PHI's RoundFunctor: rint (halves to even) of x * 10**decimals, divided back (of x /
    10**-decimals, multiplied back, for negative decimals), the factor in x's dtype; integers
    are returned unchanged and complex numbers rounded part by part."""
    xp = ctx.xp
    if x.dtype.kind in "iu":
        return x.copy()
    if decimals == 0:
        return xp.rint(x)
    factor = xp.asarray(10.0 ** abs(decimals), dtype=x.real.dtype)
    if decimals > 0:
        return xp.rint(x * factor) / factor
    return xp.rint(x / factor) * factor


@register_kernel("trunc", dtypes=TRUNC_DTYPES)
def trunc_kernel(ctx: KernelContext, input: Array) -> Array:  # noqa: A002 (the spec's name)
    """Rounds towards zero; integers are returned unchanged."""
    return input.copy() if input.dtype.kind in "iu" else ctx.xp.trunc(input)


@register_kernel("asin", dtypes=REAL_AND_COMPLEX)
@ieee_results
def asin_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.arcsin(x)


@register_kernel("acos", dtypes=REAL_AND_COMPLEX)
@ieee_results
def acos_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.arccos(x)


@register_kernel("atan", dtypes=REAL_AND_COMPLEX)
@ieee_results
def atan_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.arctan(x)


@register_kernel("sinh", dtypes=REAL_AND_COMPLEX)
@ieee_results
def sinh_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.sinh(x)


@register_kernel("cosh", dtypes=REAL_AND_COMPLEX)
@ieee_results
def cosh_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.cosh(x)


@register_kernel("asinh", dtypes=REAL_AND_COMPLEX)
@ieee_results
def asinh_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.arcsinh(x)


@register_kernel("acosh", dtypes=REAL_AND_COMPLEX)
@ieee_results
def acosh_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.arccosh(x)


@register_kernel("atanh", dtypes=REAL_AND_COMPLEX)
@ieee_results
def atanh_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.arctanh(x)


@register_kernel("tan", dtypes=REAL_AND_COMPLEX)
@ieee_results
def tan_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.tan(x)


@register_kernel("reciprocal", dtypes=REAL_AND_COMPLEX)
@ieee_results
def reciprocal_kernel(ctx: KernelContext, x: Array) -> Array:
    """1 / x: +-inf at +-0."""
    return ctx.xp.reciprocal(x)


def as_float_attribute(value: float) -> float:
    """``value`` as PHI holds a ``float`` attribute: rounded to float32 (a float64 tensor is
    compared with 0.6f, not 0.6)."""
    return float(np.float32(value))


@register_kernel("celu", dtypes=REAL)
@ieee_results
def celu_kernel(ctx: KernelContext, x: Array, alpha: float) -> Array:
    """PHI's CeluFunctor: max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    xp = ctx.xp
    alpha = as_float_attribute(alpha)
    zero = xp.zeros((), dtype=x.dtype)
    return xp.maximum(x, zero) + xp.minimum(alpha * (xp.exp(x / alpha) - 1), zero)


@register_kernel("hard_shrink", dtypes=REAL)
@ieee_results
def hard_shrink_kernel(ctx: KernelContext, x: Array, threshold: float) -> Array:
    """x * (x <= -threshold or x >= threshold), as PaddlePaddle 3.3.1 computes it: the band
    (-threshold, threshold) becomes 0 (-0 for negative x), its ends and nan stay."""
    threshold = as_float_attribute(threshold)
    keep = (x <= -threshold) | (x >= threshold)
    return x * keep.astype(x.dtype)


@register_kernel("softshrink", dtypes=REAL)
@ieee_results
def softshrink_kernel(ctx: KernelContext, x: Array, threshold: float) -> Array:
    """PHI's SoftShrinkFunctor, (x > t) * (x - t) + (x < -t) * (x + t): x - t above t, x + t
    below -t, 0 between; nan and +-inf give nan (inf * 0 in the other term)."""
    threshold = as_float_attribute(threshold)
    above = (x > threshold).astype(x.dtype)
    below = (x < -threshold).astype(x.dtype)
    return above * (x - threshold) + below * (x + threshold)


@register_kernel("tanh_shrink", dtypes=REAL)
@ieee_results
def tanh_shrink_kernel(ctx: KernelContext, x: Array) -> Array:
    """x - tanh(x)."""
    return x - ctx.xp.tanh(x)


@register_kernel("thresholded_relu", dtypes=REAL)
@ieee_results
def thresholded_relu_kernel(ctx: KernelContext, x: Array, threshold: float, value: float) -> Array:
    """PHI's ThresholdedReluFunctor, (x > threshold) * x + (x <= threshold) * value: x above
    threshold, value elsewhere; nan and -inf give nan (-inf * 0)."""
    threshold = as_float_attribute(threshold)
    value = as_float_attribute(value)
    above = (x > threshold).astype(x.dtype)
    return above * x + (x <= threshold).astype(x.dtype) * value
