"""Grad kernels of the special functions (fftspecial_special_kernel.py), as PaddlePaddle 3.3.1's:
lgamma' = gammaln' = digamma, digamma' = polygamma(1, .), polygamma(n, .)' = polygamma(n + 1,
.), I0' = I1, I0e' = I1e - sign(x) I0e, I1' = I0 - I1 / x and I1e' = I0e - I1e (sign(x) + 1/x)
(both 1/2 at x = 0), each times out_grad, computed in float64; gammaincc's only for y.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.kernels.impl.fftspecial_special_kernel import (
    REAL,
    bessel_i64,
    digamma64,
    lgamma64,
    polygamma64,
)
from phiops.runtime.kernels.impl.elementwise_grad_kernel import reduce_to_shape
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def _times(xp, out_grad: Array, derivative: Array) -> Array:  # noqa: ANN001
    return (out_grad.astype(xp.float64, copy=False) * derivative).astype(out_grad.dtype, copy=False)


@register_kernel("lgamma_grad", dtypes=REAL)
def lgamma_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    return _times(ctx.xp, out_grad, digamma64(ctx.xp, x.astype(ctx.xp.float64)))


@register_kernel("gammaln_grad", dtypes=REAL)
def gammaln_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    return _times(ctx.xp, out_grad, digamma64(ctx.xp, x.astype(ctx.xp.float64)))


@register_kernel("digamma_grad", dtypes=REAL)
def digamma_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    return _times(ctx.xp, out_grad, polygamma64(ctx.xp, 1, x.astype(ctx.xp.float64)))


@register_kernel("polygamma_grad", dtypes=REAL)
def polygamma_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array, n: int) -> Array:
    return _times(ctx.xp, out_grad, polygamma64(ctx.xp, n + 1, x.astype(ctx.xp.float64)))


@register_kernel("i0_grad", dtypes=REAL)
def i0_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    return _times(ctx.xp, out_grad, bessel_i64(ctx.xp, 1, x.astype(ctx.xp.float64), False))


@register_kernel("i0e_grad", dtypes=REAL)
def i0e_grad_kernel(ctx: KernelContext, x: Array, out: Array, out_grad: Array) -> Array:
    xp = ctx.xp
    x64 = x.astype(xp.float64)
    derivative = bessel_i64(xp, 1, x64, True) - xp.sign(x64) * out.astype(xp.float64)
    return _times(xp, out_grad, derivative)


@register_kernel("i1_grad", dtypes=REAL)
def i1_grad_kernel(ctx: KernelContext, x: Array, out: Array, out_grad: Array) -> Array:
    xp = ctx.xp
    x64 = x.astype(xp.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        derivative = bessel_i64(xp, 0, x64, False) - out.astype(xp.float64) / x64
    return _times(xp, out_grad, xp.where(x64 == 0, 0.5, derivative))


@register_kernel("i1e_grad", dtypes=REAL)
def i1e_grad_kernel(ctx: KernelContext, x: Array, out: Array, out_grad: Array) -> Array:
    xp = ctx.xp
    x64 = x.astype(xp.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        derivative = bessel_i64(xp, 0, x64, True) - out.astype(xp.float64) * (
            xp.sign(x64) + 1.0 / x64
        )
    return _times(xp, out_grad, xp.where(x64 == 0, 0.5, derivative))


@register_kernel("gammaincc_grad", dtypes=REAL)
def gammaincc_grad_kernel(ctx: KernelContext, x: Array, y: Array, out_grad: Array) -> Array:
    """dQ(x, y)/dy = -exp(-y) y^(x - 1) / Gamma(x), computed as PaddlePaddle does (so NaN where
    its factors overflow), summed over the axes y was broadcast along."""
    xp = ctx.xp
    x64, y64 = x.astype(xp.float64), y.astype(xp.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        derivative = -xp.exp(-y64) * y64 ** (x64 - 1.0) / xp.exp(lgamma64(xp, x64))
        grad = out_grad.astype(xp.float64) * derivative
    return reduce_to_shape(xp, grad, y.shape).astype(y.dtype, copy=False)
