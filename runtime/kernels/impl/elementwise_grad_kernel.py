"""Grad kernels of the binary arithmetic ops: add, subtract, multiply, divide, maximum, minimum,
fmax, fmin, elementwise_pow, and multiply's double grad; plus ``reduce_to_shape``, which sums a gradient
of the broadcast shape back to one input's shape.

The formulas are PaddlePaddle's (paddle/phi/kernels/impl/elementwise_grad_kernel_impl.h and
funcs/elementwise_functor.h): complex gradients use the conjugate of the partial derivative
(MulGradDX<complex>: dout * conj(y)). phiops' autograd gives integer and bool tensors no
gradients, but a static program may run these kernels in any dtype PaddlePaddle 3.3.1 registers
them for on CPU, so they are registered for those. Their integer kernels compute what C++ does
with PHI's functors: divide_grad's quotients truncate toward zero (int8, int16 and uint8 computed
in int, as C++ promotes them, then wrapped back), elementwise_pow_grad converts its double
results to the integer type as x86 does (nan and out-of-range values become the type's minimum).
Outputs never alias inputs: a gradient that equals ``out_grad`` is returned as a copy.
A gradient the autograd engine does not want (``ctx.wants``) is not computed: None instead.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

REAL = (D.FLOAT32, D.FLOAT64)
REAL_AND_COMPLEX = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
INT = (D.INT32, D.INT64)
# PaddlePaddle 3.3.1's CPU registrations where they go beyond the floating and complex dtypes:
# integer and bool gradients, which a static program may ask for (phiops' autograd does not:
# integer tensors stop gradients)
ADD_GRAD_DTYPES = REAL_AND_COMPLEX + (D.BOOL, D.UINT8, D.INT8, D.INT16) + INT
SUBTRACT_GRAD_DTYPES = REAL_AND_COMPLEX + (D.BFLOAT16, D.INT16) + INT
MULTIPLY_GRAD_DTYPES = REAL_AND_COMPLEX + (D.BFLOAT16, D.BOOL) + INT
MAXIMUM_MINIMUM_GRAD_DTYPES = REAL + (D.BFLOAT16,) + INT
DIVIDE_GRAD_DTYPES = REAL_AND_COMPLEX + (D.BOOL, D.UINT8, D.INT8, D.INT16) + INT
ELEMENTWISE_POW_GRAD_DTYPES = REAL_AND_COMPLEX + (D.BFLOAT16,) + INT

__all__ = ["reduce_to_shape", "conj_if_complex"]


def reduce_to_shape(xp: ModuleType, grad: Array, shape: tuple[int, ...]) -> Array:
    """``grad`` (of a broadcast result's shape) summed back to an input of ``shape``.

    Sums over the leading axes ``shape`` lacks and over the axes where ``shape`` has 1 and
    ``grad`` does not, keeping ``grad``'s dtype. Returns ``grad`` itself when the shapes are
    already equal, so a caller that needs a fresh array must copy. InvalidArgumentError when
    ``shape`` does not broadcast to ``grad.shape``."""
    shape = tuple(shape)
    if grad.shape == shape:
        return grad
    leading = grad.ndim - len(shape)
    if leading < 0 or any(n != 1 and n != grad.shape[leading + i] for i, n in enumerate(shape)):
        raise InvalidArgumentError(
            f"reduce_to_shape: a gradient with dims {list(grad.shape)} cannot be reduced to "
            f"dims {list(shape)}, which do not broadcast to it"
        )
    axes = tuple(range(leading)) + tuple(
        leading + i for i, n in enumerate(shape) if n == 1 and grad.shape[leading + i] != 1
    )
    return xp.sum(grad, axis=axes, dtype=grad.dtype).reshape(shape)


def conj_if_complex(xp: ModuleType, array: Array) -> Array:
    """conj(array) for complex data; a real array unchanged (conj would copy it)."""
    return xp.conj(array) if array.dtype.kind == "c" else array


def _fresh(xp: ModuleType, grad: Array, source: Array) -> Array:
    """``grad``, copied when it is the input array ``source`` itself."""
    return xp.array(grad, copy=True) if grad is source else grad


@register_kernel("add_grad", dtypes=ADD_GRAD_DTYPES)
def add_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array, axis: int
) -> tuple[Array, Array]:
    """x_grad = y_grad = out_grad, each summed to its input's shape. Only the shapes of x and
    y are read (no_need_buffer); ``axis`` is the legacy broadcast axis, always -1."""
    xp = ctx.xp
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = _fresh(xp, reduce_to_shape(xp, out_grad, x.shape), out_grad)
    if ctx.wants(1):
        y_grad = _fresh(xp, reduce_to_shape(xp, out_grad, y.shape), out_grad)
    return x_grad, y_grad


@register_kernel("subtract_grad", dtypes=SUBTRACT_GRAD_DTYPES)
def subtract_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array, axis: int
) -> tuple[Array, Array]:
    """x_grad = out_grad, y_grad = -out_grad, each summed to its input's shape."""
    xp = ctx.xp
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = _fresh(xp, reduce_to_shape(xp, out_grad, x.shape), out_grad)
    if ctx.wants(1):
        y_grad = xp.negative(reduce_to_shape(xp, out_grad, y.shape))
    return x_grad, y_grad


@register_kernel("multiply_grad", dtypes=MULTIPLY_GRAD_DTYPES)
@ieee_results
def multiply_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array, axis: int
) -> tuple[Array, Array]:
    """x_grad = out_grad * conj(y), y_grad = out_grad * conj(x), summed to the inputs' shapes."""
    xp = ctx.xp
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = reduce_to_shape(xp, out_grad * conj_if_complex(xp, y), x.shape)
    if ctx.wants(1):
        y_grad = reduce_to_shape(xp, out_grad * conj_if_complex(xp, x), y.shape)
    return x_grad, y_grad


def _c_divide(xp: Any, a: Array, b: Array) -> Array:
    """a / b as C++ divides integers: the quotient truncated toward zero."""
    quotient = xp.floor_divide(a, b)
    inexact = (quotient * b != a) & ((a < 0) != (b < 0))
    return quotient + inexact.astype(quotient.dtype)


def _integer_divide_grads(
    ctx: KernelContext, x: Array, y: Array, out: Array, out_grad: Array
) -> tuple[Array | None, Array | None]:
    """PHI's DivGradDX/DivGradDY on integers and bool: x_grad = dout / y, y_grad = -dout *
    out / y, in C++'s arithmetic: bool, uint8, int8 and int16 promoted to int, the quotients
    truncated, the results converted back to the input type (wrapping; nonzero is true)."""
    xp = ctx.xp
    if bool(xp.any(y == 0)):
        raise InvalidArgumentError(
            f"divide_grad: argument 'y' of integer type {y.dtype} holds 0, an integer division "
            f"by zero (PaddlePaddle 3.3.1's kernel dies with SIGFPE there)"
        )
    dtype = out_grad.dtype
    wide = np.int32 if dtype.itemsize < 4 or dtype.kind == "b" else dtype
    dout, divisor = out_grad.astype(wide), y.astype(wide)
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = reduce_to_shape(xp, _c_divide(xp, dout, divisor).astype(dtype), x.shape)
    if ctx.wants(1):
        product = -dout * out.astype(wide)
        y_grad = reduce_to_shape(xp, _c_divide(xp, product, divisor).astype(dtype), y.shape)
    return x_grad, y_grad


@register_kernel("divide_grad", dtypes=DIVIDE_GRAD_DTYPES)
@ieee_results
def divide_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out: Array, out_grad: Array, axis: int
) -> tuple[Array, Array]:
    """x_grad = out_grad / conj(y), y_grad = -out_grad * conj(out / y) (PHI's DivGradXYFunctor),
    summed to the inputs' shapes. A zero y gives inf/nan, as the forward op does; for integer
    and bool inputs see ``_integer_divide_grads`` (a zero y raises InvalidArgumentError)."""
    xp = ctx.xp
    if out_grad.dtype.kind in "biu":
        return _integer_divide_grads(ctx, x, y, out, out_grad)
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = reduce_to_shape(xp, out_grad / conj_if_complex(xp, y), x.shape)
    if ctx.wants(1):
        y_grad = reduce_to_shape(xp, -out_grad * conj_if_complex(xp, out / y), y.shape)
    return x_grad, y_grad


def _half(xp: Any, grad: Array) -> Array:
    """grad / 2 in grad's dtype, truncated toward zero for integers (C++'s division)."""
    if grad.dtype.kind in "iu":
        return xp.where(grad < 0, -((-grad) // 2), grad // 2)
    return grad * grad.dtype.type(0.5)


def _extreme_grads(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array, x_wins: Array, y_wins: Array
) -> tuple[Array, Array]:
    """PaddlePaddle 3.3.1's maximum/minimum grads: the winner takes out_grad, a tie gives each
    half of it (integers: halved toward zero), a nan gives neither anything."""
    xp = ctx.xp
    tie = xp.equal(x, y)
    zero = xp.zeros((), dtype=out_grad.dtype)
    half = _half(xp, out_grad)
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = reduce_to_shape(xp, xp.where(x_wins, out_grad, xp.where(tie, half, zero)), x.shape)
    if ctx.wants(1):
        y_grad = reduce_to_shape(xp, xp.where(y_wins, out_grad, xp.where(tie, half, zero)), y.shape)
    return x_grad, y_grad


@register_kernel("maximum_grad", dtypes=MAXIMUM_MINIMUM_GRAD_DTYPES)
@ieee_results
def maximum_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """x_grad = out_grad where x > y, y_grad where x < y; a tie splits it in halves, as
    PaddlePaddle 3.3.1's CPU kernel does; where x or y is nan neither gets it."""
    return _extreme_grads(ctx, x, y, out_grad, ctx.xp.greater(x, y), ctx.xp.less(x, y))


@register_kernel("minimum_grad", dtypes=MAXIMUM_MINIMUM_GRAD_DTYPES)
@ieee_results
def minimum_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """x_grad = out_grad where x < y, y_grad where x > y; a tie splits it in halves, as
    PaddlePaddle 3.3.1's CPU kernel does; where x or y is nan neither gets it."""
    return _extreme_grads(ctx, x, y, out_grad, ctx.xp.less(x, y), ctx.xp.greater(x, y))


FMAX_FMIN_GRAD_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)


@register_kernel("fmax_grad", dtypes=FMAX_FMIN_GRAD_DTYPES)
@ieee_results
def fmax_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """PHI's FMaxGradDx/FMaxGradDy: x gets the gradient where ``x >= y`` or y is nan (the
    element fmax took from x), y everywhere else. Ties send it to x, unlike maximum_grad."""
    return _select_grads(ctx, x, y, out_grad, ctx.xp.greater_equal)


@register_kernel("fmin_grad", dtypes=FMAX_FMIN_GRAD_DTYPES)
@ieee_results
def fmin_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """PHI's FMinGradDx/FMinGradDy: x gets the gradient where ``x <= y`` or y is nan, y
    everywhere else."""
    return _select_grads(ctx, x, y, out_grad, ctx.xp.less_equal)


def _select_grads(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array, x_takes: Any
) -> tuple[Array | None, Array | None]:
    """out_grad split between x and y by where ``x_takes(x, y) or isnan(y)``, each reduced to its
    input's shape."""
    xp = ctx.xp
    to_x = x_takes(x, y)
    if y.dtype.kind in "fc":
        to_x = to_x | xp.isnan(y)
    zero = xp.zeros((), out_grad.dtype)
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = reduce_to_shape(xp, xp.where(to_x, out_grad, zero), tuple(x.shape))
    if ctx.wants(1):
        y_grad = reduce_to_shape(xp, xp.where(to_x, zero, out_grad), tuple(y.shape))
    return x_grad, y_grad


def _c_to_integer(xp: Any, value: Array, dtype: np.dtype) -> Array:
    """float64 ``value`` converted to the integer ``dtype`` as x86's C++ converts: truncated
    toward zero, with nan and values out of the type's range becoming its minimum."""
    low = float(np.iinfo(dtype).min)
    fits = xp.isfinite(value) & (value >= low) & (value < -low)
    return xp.where(fits, xp.trunc(xp.where(fits, value, 0.0)), low).astype(dtype)


def _integer_pow_grads(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array | None, Array | None]:
    """PHI's PowGradDX/PowGradDY on integers, as PaddlePaddle 3.3.1's CPU kernel computes them
    (tests/data/dtype24/ records it): the partial derivative in double, converted to the
    integer type (``_c_to_integer``), then multiplied by dout in the integer type, wrapping:
    x_grad = dout * int(y * x**(y - 1)), y_grad = dout * int(log(x) * x**y). At x == 0 its
    results are 0 where y >= 0 (dout for x_grad at y == 1) and the type's minimum where y < 0,
    whatever dout is, and so are ours."""
    xp = ctx.xp
    dtype = out_grad.dtype
    base = x.astype(np.float64)
    exponent = y.astype(np.float64)
    at_zero, negative = x == 0, y < 0
    lowest = np.iinfo(dtype).min
    x_grad = y_grad = None
    if ctx.wants(0):
        partial = _c_to_integer(xp, exponent * xp.power(base, exponent - 1), dtype)
        grad = out_grad * partial
        at_zero_grad = xp.where(negative, lowest, xp.where(y == 1, out_grad, 0)).astype(dtype)
        x_grad = reduce_to_shape(xp, xp.where(at_zero, at_zero_grad, grad), x.shape)
    if ctx.wants(1):
        partial = _c_to_integer(xp, xp.log(base) * xp.power(base, exponent), dtype)
        at_zero_grad = xp.where(negative, lowest, 0).astype(dtype)
        grad = xp.where(at_zero, at_zero_grad, out_grad * partial)
        y_grad = reduce_to_shape(xp, grad, y.shape)
    return x_grad, y_grad


@register_kernel("elementwise_pow_grad", dtypes=ELEMENTWISE_POW_GRAD_DTYPES)
@ieee_results
def elementwise_pow_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """PHI's PowGradDX/PowGradDY: x_grad = out_grad * y * x**(y - 1), y_grad = out_grad *
    log(x) * x**y (conjugated for complex), summed to the inputs' shapes. As in PHI,
    y_grad is nan where a real x is negative and at x == 0 (log(0) * 0). Integer inputs:
    ``_integer_pow_grads``."""
    xp = ctx.xp
    if out_grad.dtype.kind in "iu":
        return _integer_pow_grads(ctx, x, y, out_grad)
    x_grad = y_grad = None
    if ctx.wants(0):
        x_partial = y * xp.power(x, y - 1)
        x_grad = reduce_to_shape(xp, out_grad * conj_if_complex(xp, x_partial), x.shape)
    if ctx.wants(1):
        y_partial = xp.log(x) * xp.power(x, y)
        y_grad = reduce_to_shape(xp, out_grad * conj_if_complex(xp, y_partial), y.shape)
    return x_grad, y_grad


@register_kernel("multiply_double_grad", dtypes=MULTIPLY_GRAD_DTYPES)
@ieee_results
def multiply_double_grad_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array,
    grad_out: Array,
    grad_x_grad: Array | None,
    grad_y_grad: Array | None,
    axis: int,
) -> tuple[Array, Array, Array]:
    """Backward of multiply_grad (grad_x = grad_out * conj(y), grad_y = grad_out * conj(x)),
    PHI's MultiplyDoubleGradKernel: x_grad = grad_out * conj(grad_y_grad), y_grad = grad_out *
    conj(grad_x_grad), grad_out_grad = grad_x_grad * y + x * grad_y_grad. A missing
    grad_x_grad or grad_y_grad counts as zeros."""
    xp = ctx.xp
    x_grad = y_grad = grad_out_grad = None
    if ctx.wants(0):
        if grad_y_grad is None:
            x_grad = xp.zeros(x.shape, dtype=x.dtype)
        else:
            x_grad = reduce_to_shape(xp, grad_out * conj_if_complex(xp, grad_y_grad), x.shape)
    if ctx.wants(1):
        if grad_x_grad is None:
            y_grad = xp.zeros(y.shape, dtype=y.dtype)
        else:
            y_grad = reduce_to_shape(xp, grad_out * conj_if_complex(xp, grad_x_grad), y.shape)
    if ctx.wants(2):
        # grad_x_grad * y and x * grad_y_grad both have the broadcast shape, grad_out's.
        grad_out_grad = xp.zeros(grad_out.shape, dtype=grad_out.dtype)
        if grad_y_grad is not None:
            grad_out_grad = grad_out_grad + x * grad_y_grad
        if grad_x_grad is not None:
            grad_out_grad = grad_out_grad + grad_x_grad * y
    return x_grad, y_grad, grad_out_grad
