"""Grad kernels of the ops with Scalar attributes: pow and clip (scale_grad is an ``invoke``
of scale and has no kernel).

The Scalar attributes are converted as the forward kernels convert them (``scalar_as``), so
the gradient is the derivative of exactly the function the forward kernel computed.
pow_grad is registered for the dtypes PaddlePaddle 3.3.1's CPU build registers: float32, float64,
complex64/128 (the conjugate derivative, as its other complex grads) and int32/int64, which
phiops' autograd never asks for (integer tensors get no gradients) but a static program may run.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.elementwise_grad_kernel import conj_if_complex
from phiops.runtime.kernels.impl.scale_kernel import scalar_as
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

REAL = (D.FLOAT32, D.FLOAT64)
POW_GRAD_DTYPES = REAL + (D.COMPLEX64, D.COMPLEX128, D.INT32, D.INT64)


@register_kernel("pow_grad", dtypes=POW_GRAD_DTYPES)
@ieee_results
def pow_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, y: bool | int | float | complex
) -> Array:
    """x_grad = out_grad * conj(y * x**(y - 1)), PHI's PowGradFunctor, with y rounded to
    float32 and then converted to x's dtype as the forward kernel does (truncated toward zero
    for an integer x, where the products wrap around as C++'s do). No special case for
    y == 0: at x == 0 that gives 0 * inf = nan, as in PHI. An integer x with y - 1 < 0 raises
    InvalidArgumentError: Eigen's integer power of a negative exponent never returns, so
    PaddlePaddle 3.3.1's kernel hangs there."""
    xp = ctx.xp
    exponent = scalar_as(xp, float(np.float32(complex(y).real)), x.dtype, "y")
    if x.dtype.kind in "iu" and exponent < 1:
        raise InvalidArgumentError(
            f"pow_grad: the gradient of an integer tensor needs y >= 1 (y is truncated to "
            f"{int(exponent)}, and x**(y - 1) would be a negative integer power), got y={y!r}; "
            f"cast x to a floating dtype"
        )
    derivative = exponent * xp.power(x, exponent - 1)
    return out_grad * conj_if_complex(xp, derivative)


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
