"""Grad kernels of the math3 binary ops (math3_kernel.py): atan2, copysign, heaviside, lerp.

PHI's formulas (paddle/phi/kernels/impl/atan2_grad_kernel_impl.h, copysign_grad_kernel.cc,
elementwise_grad_kernel for heaviside, lerp_grad_kernel_impl.h): each gradient is reduced to its
input's shape where the forward op broadcast; a gradient the autograd engine does not want
(``ctx.wants``) is None. The dtype lists are PaddlePaddle 3.3.1's CPU registrations.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.elementwise_grad_kernel import reduce_to_shape
from phiops.runtime.kernels.impl.math3_kernel import COPYSIGN_DTYPES, HEAVISIDE_DTYPES, REAL
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

ATAN2_GRAD_DTYPES = (D.FLOAT16, D.FLOAT32, D.FLOAT64)


@register_kernel("atan2_grad", dtypes=ATAN2_GRAD_DTYPES)
@ieee_results
def atan2_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """x_grad = out_grad * y / (x^2 + y^2), y_grad = -out_grad * x / (x^2 + y^2): NaN at
    x = y = 0, as PHI gives."""
    xp = ctx.xp
    norm = x * x + y * y
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = reduce_to_shape(xp, (out_grad * y / norm).astype(x.dtype), tuple(x.shape))
    if ctx.wants(1):
        y_grad = reduce_to_shape(xp, (-out_grad * x / norm).astype(y.dtype), tuple(y.shape))
    return x_grad, y_grad


@register_kernel("copysign_grad", dtypes=COPYSIGN_DTYPES)
@ieee_results
def copysign_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """PHI's CopySignGradDX: x_grad = out_grad * copysign(x, y) / x, and x itself where x is 0
    (so -0.0 there for x = -0.0, and NaN at infinite x); y_grad is 0."""
    xp = ctx.xp
    x_grad = y_grad = None
    if ctx.wants(0):
        if x.dtype.kind in "bu":
            grad = xp.where(x != 0, out_grad, xp.zeros((), out_grad.dtype))
        else:
            if x.dtype.kind == "f":
                factor = xp.copysign(x, y) / x
            else:
                factor = xp.where((x < 0) == (y < 0), 1, -1).astype(x.dtype)
            grad = xp.where(x == 0, x.astype(out_grad.dtype), out_grad * factor)
        x_grad = reduce_to_shape(xp, grad.astype(out_grad.dtype), tuple(x.shape))
    if ctx.wants(1):
        y_grad = xp.zeros(y.shape, y.dtype)
    return x_grad, y_grad


@register_kernel("heaviside_grad", dtypes=HEAVISIDE_DTYPES)
@ieee_results
def heaviside_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """x_grad is 0; y_grad = out_grad where x == 0, else 0."""
    xp = ctx.xp
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = xp.zeros(x.shape, out_grad.dtype)
    if ctx.wants(1):
        grad = xp.where(x == 0, out_grad, xp.zeros((), out_grad.dtype))
        y_grad = reduce_to_shape(xp, grad, tuple(y.shape))
    return x_grad, y_grad


@register_kernel("lerp_grad", dtypes=REAL)
@ieee_results
def lerp_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, weight: Array, out: Array, out_grad: Array
) -> tuple[Array, Array]:
    """x_grad = out_grad * (1 - weight), y_grad = out_grad * weight."""
    xp = ctx.xp
    x_grad = y_grad = None
    if ctx.wants(0):
        grad = xp.broadcast_to(out_grad * (1 - weight), out_grad.shape).astype(x.dtype)
        x_grad = reduce_to_shape(xp, grad, tuple(x.shape))
    if ctx.wants(1):
        grad = xp.broadcast_to(out_grad * weight, out_grad.shape).astype(y.dtype)
        y_grad = reduce_to_shape(xp, grad, tuple(y.shape))
    return x_grad, y_grad
