"""Grad kernels of the math3 ops (math3_kernel.py): atan2, copysign, heaviside, lerp, angle,
real, imag and complex.

PHI's formulas (paddle/phi/kernels/impl/atan2_grad_kernel_impl.h, copysign_grad_kernel.cc,
elementwise_grad_kernel for heaviside, lerp_grad_kernel_impl.h): each gradient is reduced to its
input's shape where the forward op broadcast; a gradient the autograd engine does not want
(``ctx.wants``) is None. The dtype lists are PaddlePaddle 3.3.1's CPU registrations.
"""

from __future__ import annotations

from typing import Callable

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.elementwise_grad_kernel import reduce_to_shape
from phiops.runtime.kernels.impl.math3_kernel import (
    ANGLE_DTYPES,
    COMPLEX,
    COPYSIGN_DTYPES,
    HEAVISIDE_DTYPES,
    REAL,
)
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
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


# -- complex numbers: angle_grad, real_grad, imag_grad, complex_grad (conj_grad, as_complex_grad
# and as_real_grad invoke the forward ops)


def _out_grad_as_it_comes(index: int) -> Callable[[Kernel], None]:
    """``out_grad`` (input ``index``) keeps its own dtype: real for a complex kernel (angle_grad,
    real_grad, imag_grad), complex for a real one (complex_grad), as PHI's kernels take it."""

    def configure(kernel: Kernel) -> None:
        kernel.input_at(index).set_dtype(D.ALL_DTYPE)

    return configure


@register_kernel("angle_grad", dtypes=ANGLE_DTYPES, configure=_out_grad_as_it_comes(1))
@ieee_results
def angle_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """PHI's AngleGradFunctor: for complex x, out_grad * (-imag + real * 1j) / |x|^2, 0 where x
    is 0; for real x, 0."""
    xp = ctx.xp
    if x.dtype.kind != "c":
        return xp.zeros(x.shape, x.dtype)
    norm = x.real * x.real + x.imag * x.imag
    safe = xp.where(norm == 0, xp.ones((), norm.dtype), norm)
    grad = xp.empty(x.shape, x.dtype)
    grad.real = xp.where(norm == 0, 0, -out_grad * x.imag / safe)
    grad.imag = xp.where(norm == 0, 0, out_grad * x.real / safe)
    return grad


@register_kernel("real_grad", dtypes=COMPLEX, configure=_out_grad_as_it_comes(0))
def real_grad_kernel(ctx: KernelContext, out_grad: Array) -> Array:
    """out_grad + 0j."""
    xp = ctx.xp
    grad = xp.zeros(out_grad.shape, xp.complex64 if out_grad.dtype == xp.float32 else xp.complex128)
    grad.real = out_grad
    return grad


@register_kernel("imag_grad", dtypes=COMPLEX, configure=_out_grad_as_it_comes(0))
def imag_grad_kernel(ctx: KernelContext, out_grad: Array) -> Array:
    """0 + out_grad * 1j."""
    xp = ctx.xp
    grad = xp.zeros(out_grad.shape, xp.complex64 if out_grad.dtype == xp.float32 else xp.complex128)
    grad.imag = out_grad
    return grad


@register_kernel("complex_grad", dtypes=REAL, configure=_out_grad_as_it_comes(2))
def complex_grad_kernel(
    ctx: KernelContext, real: Array, imag: Array, out_grad: Array
) -> tuple[Array, Array]:
    """real_grad = real(out_grad), imag_grad = imag(out_grad), each reduced to its input's
    shape."""
    xp = ctx.xp
    real_grad = imag_grad = None
    if ctx.wants(0):
        real_grad = reduce_to_shape(xp, out_grad.real.copy(), tuple(real.shape))
    if ctx.wants(1):
        imag_grad = reduce_to_shape(xp, out_grad.imag.copy(), tuple(imag.shape))
    return real_grad, imag_grad
