"""Grad kernels of the ops with Scalar attributes: pow and clip (scale_grad is an ``invoke``
of scale and has no kernel).

The Scalar attributes are converted as the forward kernels convert them (``scalar_as``), so
the gradient is the derivative of exactly the function the forward kernel computed.
Registered for float32 and float64: integer tensors get no gradients.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.scale_kernel import scalar_as
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

REAL = (D.FLOAT32, D.FLOAT64)


@register_kernel("pow_grad", dtypes=REAL)
@ieee_results
def pow_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, y: bool | int | float | complex
) -> Array:
    """x_grad = out_grad * y * x**(y - 1), PHI's PowGradFunctor, with y rounded to float32
    as the forward kernel does. No special case for y == 0: at x == 0 that gives
    0 * inf = nan, as in PHI."""
    xp = ctx.xp
    exponent = scalar_as(xp, float(np.float32(complex(y).real)), x.dtype, "y")
    return out_grad * exponent * xp.power(x, exponent - 1)


@register_kernel("clip_grad", dtypes=REAL + (D.INT32, D.INT64))
def clip_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out_grad: Array,
    min: bool | int | float | complex,  # noqa: A002
    max: bool | int | float | complex,  # noqa: A002
) -> Array:
    """out_grad where min < x < max, else 0: PHI's ClipGradFunctor, whose strict inequalities
    give 0 at the bounds themselves and where x is nan. Like PHI's ClipGradKernel it does not
    check min <= max (the forward kernel has refused that already); min > max gives zeros."""
    xp = ctx.xp
    low = scalar_as(xp, min, x.dtype, "min")
    high = scalar_as(xp, max, x.dtype, "max")
    inside = xp.logical_and(xp.greater(x, low), xp.less(x, high))
    return xp.where(inside, out_grad, xp.zeros((), dtype=out_grad.dtype))
