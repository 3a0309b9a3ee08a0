"""More activation kernels: relu6, hardswish, hardsigmoid, swish, elu, selu,
softplus, softsign, mish, hardtanh, logsigmoid, prelu, erf and logsumexp.

Formulas are PaddlePaddle's functors (paddle/phi/kernels/funcs/activation_functor.h). Dtypes
are PaddlePaddle's CPU registrations (float32 and float64; erf also float16; hardswish, softplus,
softsign and logsigmoid also complex64/complex128, forward only here: their complex grads are not
registered) except: erf and logsumexp of integer tensors (PHI computes them into a float32
output while UnchangedInferMeta says the input dtype) find no kernel, as exp and log do
(activation_kernel.py).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.activation_kernel import erf
from phiops.runtime.kernels.impl.reduce_kernel import reduction_axes
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.native import native_function
from phiops.runtime.kernels.registration import register_kernel

D = DataType

REAL = (D.FLOAT32, D.FLOAT64)
REAL_AND_COMPLEX = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
ERF_DTYPES = (D.FLOAT16, D.FLOAT32, D.FLOAT64)


def float_attr(scalar_type: Callable[[Any], Any], value: float) -> Any:
    """A ``float`` attribute as PHI's kernels see it: rounded to float32 (the attribute's C++
    type), then converted to the kernel's dtype."""
    return scalar_type(np.float32(value))


@register_kernel("relu6", dtypes=REAL)
def relu6_kernel(ctx: KernelContext, x: Array) -> Array:
    """min(max(x, 0), 6), PHI's Relu6Functor."""
    xp = ctx.xp
    return xp.minimum(xp.maximum(x, x.dtype.type(0)), x.dtype.type(6))


@register_kernel("hardswish", dtypes=REAL_AND_COMPLEX)
def hardswish_kernel(ctx: KernelContext, x: Array) -> Array:
    """x * min(max(x + 3, 0), 6) / 6, PHI's HardSwishFunctor (threshold 6, scale 6, offset 3);
    complex numbers clipped in numpy's (lexicographic) order."""
    native = native_function(x, "hardswish")
    if native is not None:  # the same operations in one pass (the same bits)
        out = np.empty(x.shape, x.dtype)
        native(x if x.flags.c_contiguous else np.ascontiguousarray(x), out, x.size)
        return out
    xp = ctx.xp
    t = x.dtype.type
    return x * xp.minimum(xp.maximum(x + t(3), t(0)), t(6)) / t(6)


@register_kernel("hardsigmoid", dtypes=REAL)
def hardsigmoid_kernel(ctx: KernelContext, x: Array, slope: float, offset: float) -> Array:
    """max(min(slope * x + offset, 1), 0), PHI's HardSigmoidFunctor."""
    xp = ctx.xp
    t = x.dtype.type
    return xp.maximum(xp.minimum(x * float_attr(t, slope) + float_attr(t, offset), t(1)), t(0))


@register_kernel("swish", dtypes=REAL)
@ieee_results
def swish_kernel(ctx: KernelContext, x: Array) -> Array:
    """x / (1 + exp(-x)), PHI's SwishFunctor with beta 1."""
    return x / (1 + ctx.xp.exp(-x))


@register_kernel("elu", dtypes=REAL)
@ieee_results
def elu_kernel(ctx: KernelContext, x: Array, alpha: float) -> Array:
    """x where x >= 0, alpha * (exp(x) - 1) below, PHI's ELUFunctor."""
    xp = ctx.xp
    return xp.where(x < 0, float_attr(x.dtype.type, alpha) * xp.expm1(x), x)


@register_kernel("selu", dtypes=REAL)
@ieee_results
def selu_kernel(ctx: KernelContext, x: Array, scale: float, alpha: float) -> Array:
    """scale * x where x > 0, scale * alpha * (exp(x) - 1) elsewhere, PHI's SeluFunctor."""
    xp = ctx.xp
    t = x.dtype.type
    return float_attr(t, scale) * xp.where(x > 0, x, float_attr(t, alpha) * xp.expm1(x))


@register_kernel("softplus", dtypes=REAL_AND_COMPLEX)
@ieee_results
def softplus_kernel(ctx: KernelContext, x: Array, beta: float, threshold: float) -> Array:
    """x where beta * x > threshold, log(1 + exp(beta * x)) / beta elsewhere (PHI's
    SoftplusFunctor)."""
    xp = ctx.xp
    t = x.dtype.type
    scaled = x * float_attr(t, beta)
    return xp.where(
        scaled > float_attr(t, threshold), x, xp.log1p(xp.exp(scaled)) / float_attr(t, beta)
    )


@register_kernel("softsign", dtypes=REAL_AND_COMPLEX)
def softsign_kernel(ctx: KernelContext, x: Array) -> Array:
    """x / (1 + |x|) (the modulus for complex x)."""
    return x / (1 + ctx.xp.abs(x))


def mish_softplus(xp: object, x: Array, threshold: float) -> Array:
    """softplus(x) as mish uses it: x beyond ``threshold``, log(1 + exp(x)) below."""
    return xp.where(x > float_attr(x.dtype.type, threshold), x, xp.log1p(xp.exp(x)))


@register_kernel("mish", dtypes=REAL)
@ieee_results
def mish_kernel(ctx: KernelContext, x: Array, threshold: float) -> Array:
    """x * tanh(softplus(x)), PHI's MishFunctor."""
    xp = ctx.xp
    return x * xp.tanh(mish_softplus(xp, x, threshold))


@register_kernel("hardtanh", dtypes=REAL)
def hardtanh_kernel(ctx: KernelContext, x: Array, t_min: float, t_max: float) -> Array:
    """min(max(x, t_min), t_max), PHI's HardTanhFunctor."""
    xp = ctx.xp
    t = x.dtype.type
    return xp.minimum(xp.maximum(x, float_attr(t, t_min)), float_attr(t, t_max))


@register_kernel("logsigmoid", dtypes=REAL_AND_COMPLEX)
@ieee_results
def logsigmoid_kernel(ctx: KernelContext, x: Array) -> Array:
    """log(1 / (1 + exp(-x))) computed as -m - log(exp(-m) + exp(-x - m)) with m = max(-x, 0),
    PHI's LogSigmoidFunctor, which never overflows; -log(1 + exp(-x)) for complex x."""
    xp = ctx.xp
    if x.dtype.kind == "c":
        return -xp.log1p(xp.exp(-x))
    m = xp.maximum(-x, x.dtype.type(0))
    return -m - xp.log(xp.exp(-m) + xp.exp(-x - m))


def prelu_slopes(xp: object, x: Array, alpha: Array, data_format: str, mode: str) -> Array:
    """``alpha`` shaped to broadcast against ``x`` for ``mode``."""
    if mode == "all":
        return alpha.reshape(())
    if mode == "channel":
        shape = [1] * x.ndim
        shape[1 if data_format == "NCHW" else -1] = alpha.size
        return alpha.reshape(shape)
    return alpha.reshape((1,) + x.shape[1:])


@register_kernel("prelu", dtypes=REAL)
def prelu_kernel(ctx: KernelContext, x: Array, alpha: Array, data_format: str, mode: str) -> Array:
    """x where x > 0, alpha * x elsewhere; one alpha, one per channel or one per element of a
    sample (``mode``)."""
    xp = ctx.xp
    return xp.where(x > 0, x, prelu_slopes(xp, x, alpha, data_format, mode) * x)


@register_kernel("erf", dtypes=ERF_DTYPES)
def erf_kernel(ctx: KernelContext, x: Array) -> Array:
    """The error function (Cody's rational approximations, activation_kernel.erf), computed in
    float32 for float16 input."""
    xp = ctx.xp
    if x.dtype == xp.float16:
        return erf(xp, x.astype(xp.float32)).astype(xp.float16)
    return erf(xp, x)


@register_kernel("logsumexp", dtypes=REAL)
@ieee_results
def logsumexp_kernel(
    ctx: KernelContext, x: Array, axis: tuple[int, ...], keepdim: bool, reduce_all: bool
) -> Array:
    """max + log(sum(exp(x - max))) over the reduced axes, PHI's LogsumexpFunctor: nan where
    the maximum is infinite, -inf over zero elements."""
    xp = ctx.xp
    axes = reduction_axes(axis, x.ndim, reduce_all)
    if x.size == 0:
        shape = tuple(
            1 if i in axes else n for i, n in enumerate(x.shape) if keepdim or i not in axes
        )
        return xp.full(shape, -xp.inf, dtype=x.dtype)
    top = xp.max(x, axis=axes, keepdims=True)
    out = xp.log(xp.sum(xp.exp(x - top), axis=axes, keepdims=True)) + top
    return out if keepdim else out.reshape(tuple(n for i, n in enumerate(x.shape) if i not in axes))
