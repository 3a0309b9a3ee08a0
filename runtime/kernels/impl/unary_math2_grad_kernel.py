"""Gradients of the unary math kernels of unary_math2_kernel.py.

Each is PHI's grad functor (paddle/phi/kernels/funcs/activation_functor.h): for complex x the
gradient is out_grad times the conjugate of the derivative, as for sin and cos. The dtype lists
are PaddlePaddle 3.3.1's CPU registrations of the grad kernels.
"""

from __future__ import annotations

import math
from types import ModuleType

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.elementwise_grad_kernel import conj_if_complex
from phiops.runtime.kernels.impl.unary_math2_kernel import as_float_attribute
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

REAL = (D.FLOAT32, D.FLOAT64)
REAL_AND_COMPLEX = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
EXPM1_GRAD_DTYPES = (D.FLOAT16,) + REAL_AND_COMPLEX
ROUND_GRAD_DTYPES = (D.INT32, D.INT64) + REAL_AND_COMPLEX
TRUNC_GRAD_DTYPES = (D.INT32, D.INT64) + REAL

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)


def nan_at_float32_infinities(xp: ModuleType, x: Array, x_grad: Array) -> Array:
    """``x_grad`` with nan where a float32 ``x`` is infinite: PaddlePaddle 3.3.1's float32 asinh
    and acosh grad kernels (Eigen's vectorised float32 path) give nan there."""
    if x.dtype != xp.float32:
        return x_grad
    return xp.where(xp.isinf(x), xp.asarray(xp.nan, dtype=x_grad.dtype), x_grad)


@register_kernel("log1p_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def log1p_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """PHI's Log1pGradFunctor, out_grad * conj(1 / (1 + x)) (nan, not inf, for complex -1)."""
    return out_grad * conj_if_complex(ctx.xp, 1 / (1 + x))


@register_kernel("log2_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def log2_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """PHI's Log2GradFunctor, out_grad * conj(1 / (x * ln 2)) (nan, not inf, for complex 0)."""
    return out_grad * conj_if_complex(ctx.xp, 1 / (x * _LN2))


@register_kernel("log10_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def log10_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """PHI's Log10GradFunctor, out_grad * conj(1 / (x * ln 10)) (nan, not inf, for complex 0)."""
    return out_grad * conj_if_complex(ctx.xp, 1 / (x * _LN10))


@register_kernel("expm1_grad", dtypes=EXPM1_GRAD_DTYPES)
@ieee_results
def expm1_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * conj(out + 1), exp(x) being out + 1."""
    return out_grad * conj_if_complex(ctx.xp, out + 1)


@register_kernel("round_grad", dtypes=ROUND_GRAD_DTYPES)
def round_grad_kernel(ctx: KernelContext, out_grad: Array) -> Array:
    """Zeros: round is piecewise constant (PHI's ZeroGradFunctor)."""
    return ctx.xp.zeros(out_grad.shape, dtype=out_grad.dtype)


@register_kernel("trunc_grad", dtypes=TRUNC_GRAD_DTYPES)
def trunc_grad_kernel(ctx: KernelContext, out_grad: Array) -> Array:
    """Zeros: trunc is piecewise constant (PHI's TruncGradKernel)."""
    return ctx.xp.zeros(out_grad.shape, dtype=out_grad.dtype)


@register_kernel("asin_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def asin_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad / conj(sqrt(1 - x**2))."""
    xp = ctx.xp
    return out_grad / conj_if_complex(xp, xp.sqrt(1 - x * x))


@register_kernel("acos_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def acos_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = -out_grad / conj(sqrt(1 - x**2))."""
    xp = ctx.xp
    return -out_grad / conj_if_complex(xp, xp.sqrt(1 - x * x))


@register_kernel("atan_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def atan_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad / conj(1 + x**2)."""
    return out_grad / conj_if_complex(ctx.xp, 1 + x * x)


@register_kernel("sinh_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def sinh_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * conj(cosh(x))."""
    xp = ctx.xp
    return out_grad * conj_if_complex(xp, xp.cosh(x))


@register_kernel("cosh_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def cosh_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * conj(sinh(x))."""
    xp = ctx.xp
    return out_grad * conj_if_complex(xp, xp.sinh(x))


@register_kernel("asinh_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def asinh_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad / conj(sqrt(x**2 + 1)); nan at +-inf in float32, as PaddlePaddle
    3.3.1's float32 kernel gives there (0 in float64)."""
    xp = ctx.xp
    return nan_at_float32_infinities(xp, x, out_grad / conj_if_complex(xp, xp.sqrt(x * x + 1)))


@register_kernel("acosh_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def acosh_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad / conj(sqrt(x**2 - 1)); nan at +inf in float32, as PaddlePaddle
    3.3.1's float32 kernel gives there (0 in float64)."""
    xp = ctx.xp
    return nan_at_float32_infinities(xp, x, out_grad / conj_if_complex(xp, xp.sqrt(x * x - 1)))


@register_kernel("atanh_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def atanh_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad / conj(1 - x**2)."""
    return out_grad / conj_if_complex(ctx.xp, 1 - x * x)


@register_kernel("tan_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def tan_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad / conj(cos(x)**2)."""
    xp = ctx.xp
    cos = xp.cos(x)
    return out_grad / conj_if_complex(xp, cos * cos)


@register_kernel("reciprocal_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def reciprocal_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    """x_grad = -out_grad * conj(out**2), out being 1 / x."""
    return -out_grad * conj_if_complex(ctx.xp, out * out)


@register_kernel("celu_grad", dtypes=REAL)
@ieee_results
def celu_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array, alpha: float) -> Array:
    """PHI's CELUGradFunctor: out_grad * exp(x / alpha) * (x <= 0) + out_grad * (x > 0)."""
    xp = ctx.xp
    alpha = as_float_attribute(alpha)
    negative = (x <= 0).astype(x.dtype)
    positive = (x > 0).astype(x.dtype)
    return out_grad * xp.exp(x / alpha) * negative + out_grad * positive


@register_kernel("hard_shrink_grad", dtypes=REAL)
def hard_shrink_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, threshold: float
) -> Array:
    """out_grad where x <= -threshold or x >= threshold, 0 inside the band (and for nan)."""
    threshold = as_float_attribute(threshold)
    keep = (x <= -threshold) | (x >= threshold)
    return ctx.xp.where(keep, out_grad, ctx.xp.zeros((), dtype=out_grad.dtype))


@register_kernel("softshrink_grad", dtypes=REAL)
def softshrink_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, threshold: float
) -> Array:
    """out_grad where x > threshold or x < -threshold, 0 elsewhere (and for nan)."""
    threshold = as_float_attribute(threshold)
    keep = (x > threshold) | (x < -threshold)
    return ctx.xp.where(keep, out_grad, ctx.xp.zeros((), dtype=out_grad.dtype))


@register_kernel("tanh_shrink_grad", dtypes=REAL)
@ieee_results
def tanh_shrink_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * tanh(x)**2."""
    tanh = ctx.xp.tanh(x)
    return out_grad * tanh * tanh


@register_kernel("thresholded_relu_grad", dtypes=REAL)
def thresholded_relu_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, threshold: float, value: float
) -> Array:
    """out_grad where x > threshold, 0 elsewhere (and for nan)."""
    threshold = as_float_attribute(threshold)
    keep = x > threshold
    return ctx.xp.where(keep, out_grad, ctx.xp.zeros((), dtype=out_grad.dtype))
