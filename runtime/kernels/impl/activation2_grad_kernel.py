"""Grad kernels of the activations (activation2_kernel.py), PaddlePaddle's grad
functors (paddle/phi/kernels/funcs/activation_functor.h), float32 and float64."""

from __future__ import annotations

import math

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.activation2_kernel import float_attr, mish_softplus, prelu_slopes
from phiops.runtime.kernels.impl.reduce_kernel import reduction_axes
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

REAL = (D.FLOAT32, D.FLOAT64)
# PaddlePaddle registers these grads for complex too: out_grad times the conjugate of the
# derivative, each branch chosen by the real part (PHI's complex comparisons compare real parts).
REAL_AND_COMPLEX = REAL + (D.COMPLEX64, D.COMPLEX128)
ERF_DTYPES = (D.FLOAT16, D.FLOAT32, D.FLOAT64)
_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


@register_kernel("relu6_grad", dtypes=REAL)
def relu6_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    """out_grad where 0 < out < 6, else 0."""
    xp = ctx.xp
    return xp.multiply(out_grad, (out > 0) & (out < out.dtype.type(6)))


@register_kernel("hardswish_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def hardswish_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """out_grad * (2x + 3) / 6 on -3 < x < 3, out_grad above, 0 below (PHI's
    HardSwishGradFunctor); for complex x, the conjugate slope, the range read on x's real part."""
    xp = ctx.xp
    t = x.dtype.type
    shifted = (x.real if x.dtype.kind == "c" else x) + 3
    inside = shifted < 6
    slope = xp.where(inside, (t(2) * x + t(3)) / t(6), t(1))
    if x.dtype.kind == "c":
        slope = xp.conj(slope)
    return out_grad * (shifted > 0) * slope


@register_kernel("hardsigmoid_grad", dtypes=REAL)
def hardsigmoid_grad_kernel(
    ctx: KernelContext, out: Array, out_grad: Array, slope: float, offset: float
) -> Array:
    """out_grad * slope where 0 < out < 1, else 0."""
    return out_grad * ((out > 0) & (out < 1)) * float_attr(out.dtype.type, slope)


@register_kernel("swish_grad", dtypes=REAL)
@ieee_results
def swish_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """out_grad * (out + s * (1 - out)) with s = sigmoid(x) and out = x * s."""
    s = 1 / (1 + ctx.xp.exp(-x))
    out = x * s
    return out_grad * (out + s * (1 - out))


@register_kernel("elu_grad", dtypes=REAL)
@ieee_results
def elu_grad_kernel(
    ctx: KernelContext, x: Array, out: Array, out_grad: Array, alpha: float
) -> Array:
    """out_grad where x > 0, out_grad * (out + alpha) elsewhere (PHI's ELUGradFunctor); for a
    negative alpha, out_grad * alpha * exp(x) (ELUGradNegativeAlphaFunctor)."""
    xp = ctx.xp
    t = x.dtype.type
    below = out_grad * (
        xp.exp(x) * float_attr(t, alpha) if alpha < 0 else out + float_attr(t, alpha)
    )
    return xp.where(x > 0, out_grad, below)


@register_kernel("selu_grad", dtypes=REAL)
@ieee_results
def selu_grad_kernel(
    ctx: KernelContext, out: Array, out_grad: Array, scale: float, alpha: float
) -> Array:
    """out_grad * scale where out > 0, out_grad * (out + scale * alpha) elsewhere, with
    scale * alpha multiplied in float32 as PHI's SeluGradFunctor does."""
    t = out.dtype.type
    return ctx.xp.where(
        out > 0,
        out_grad * float_attr(t, scale),
        out_grad * (out + t(np.float32(scale) * np.float32(alpha))),
    )


@register_kernel("softplus_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def softplus_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, beta: float, threshold: float
) -> Array:
    """out_grad where beta * x > threshold, out_grad * sigmoid(beta * x) elsewhere; for complex
    x, the conjugate sigmoid, the threshold compared with the real part."""
    xp = ctx.xp
    complex_x = x.dtype.kind == "c"
    t = x.real.dtype.type if complex_x else x.dtype.type
    scaled = x * float_attr(t, beta)
    e = xp.exp(scaled)
    sigmoid = e / (1 + e)
    if complex_x:
        sigmoid = xp.conj(sigmoid)
    above = (scaled.real if complex_x else scaled) > float_attr(t, threshold)
    return xp.where(above, out_grad, out_grad * sigmoid)


@register_kernel("softsign_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def softsign_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """out_grad / (1 + |x|)**2. For complex x = r e^(i phi), softsign x / (1 + |x|) is not
    holomorphic: out_grad * (df/dz + df/dz*), which is 1/(1 + r) - (r**2 + x**2) / (2r (1 + r)**2),
    the value PaddlePaddle 3.3.1 gives (nan at x = 0, as there)."""
    xp = ctx.xp
    r = xp.abs(x)
    denominator = 1 + r
    if x.dtype.kind != "c":
        return out_grad / (denominator * denominator)
    t = x.dtype.type
    return out_grad * (1 / denominator - (r * r + x * x) / (t(2) * r * denominator * denominator))


@register_kernel("mish_grad", dtypes=REAL)
@ieee_results
def mish_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array, threshold: float) -> Array:
    """out_grad * (tanh(sp) + x * (1 - tanh(sp)**2) * (1 - exp(-sp))) with sp = softplus(x),
    PHI's MishGradFunctor."""
    xp = ctx.xp
    sp = mish_softplus(xp, x, threshold)
    tsp = xp.tanh(sp)
    return out_grad * (tsp + x * (1 - tsp * tsp) * (1 - xp.exp(-sp)))


@register_kernel("hardtanh_grad", dtypes=REAL)
def hardtanh_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, t_min: float, t_max: float
) -> Array:
    """out_grad where t_min < x < t_max, else 0."""
    t = x.dtype.type
    return out_grad * ((x > float_attr(t, t_min)) & (x < float_attr(t, t_max)))


@register_kernel("logsigmoid_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def logsigmoid_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """out_grad * exp(-x - m) / (exp(-m) + exp(-x - m)) with m = max(-x, 0), which is
    out_grad * sigmoid(-x) without overflow; for complex x, m from the real part and the
    conjugate of sigmoid(-x)."""
    xp = ctx.xp
    real = x.real if x.dtype.kind == "c" else x
    m = xp.maximum(-real, real.dtype.type(0))
    e = xp.exp(-x - m)
    slope = e / (xp.exp(-m) + e)
    if x.dtype.kind == "c":
        slope = xp.conj(slope)
    return out_grad * slope


@register_kernel("prelu_grad", dtypes=REAL)
def prelu_grad_kernel(
    ctx: KernelContext, x: Array, alpha: Array, out_grad: Array, data_format: str, mode: str
) -> tuple[Array, Array]:
    """x_grad = out_grad where x > 0, alpha * out_grad elsewhere; alpha_grad sums
    out_grad * x over the elements at or below 0 that share each alpha."""
    xp = ctx.xp
    slopes = prelu_slopes(xp, x, alpha, data_format, mode)
    positive = x > 0
    x_grad = xp.where(positive, out_grad, slopes * out_grad)
    contribution = xp.where(positive, x.dtype.type(0), out_grad * x)
    if slopes.ndim == 0:
        alpha_grad = xp.sum(contribution)
    else:
        axes = tuple(i for i, n in enumerate(slopes.shape) if n == 1 and x.shape[i] != 1)
        alpha_grad = xp.sum(contribution, axis=axes, keepdims=True)
    return x_grad, alpha_grad.reshape(alpha.shape).astype(alpha.dtype, copy=False)


@register_kernel("erf_grad", dtypes=ERF_DTYPES)
@ieee_results
def erf_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """out_grad * 2 / sqrt(pi) * exp(-x**2)."""
    xp = ctx.xp
    wide = x.astype(xp.float32) if x.dtype == xp.float16 else x
    return (out_grad * (_TWO_OVER_SQRT_PI * xp.exp(-wide * wide))).astype(x.dtype, copy=False)


@register_kernel("logsumexp_grad", dtypes=REAL)
@ieee_results
def logsumexp_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    axis: tuple[int, ...],
    keepdim: bool,
    reduce_all: bool,
) -> Array:
    """out_grad * exp(x - out), with out and out_grad broadcast back over the reduced axes."""
    xp = ctx.xp
    axes = reduction_axes(axis, x.ndim, reduce_all)
    kept = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
    return out_grad.reshape(kept) * xp.exp(x - out.reshape(kept))
