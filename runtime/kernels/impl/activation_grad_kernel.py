"""Grad kernels of the unary math and activation ops, and the double grads of tanh, sigmoid,
exp, relu and square.

Formulas are PaddlePaddle's functors (paddle/phi/kernels/funcs/activation_functor.h); complex
gradients use the conjugate of the derivative (TanhGradFunctor<ComplexType<T>>:
dout * conj(1 - out^2)). Each kernel is registered for the floating and complex dtypes its
forward kernel has: integer and bool tensors get no gradients. The double grads of tanh, sigmoid
and square take complex inputs too, where PaddlePaddle 3.3.1 applies the real formulas as they
are, without conjugates (recorded in tests/data/dtype24/).
"""

from __future__ import annotations

import math

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.activation_kernel import erf
from phiops.runtime.kernels.impl.elementwise_grad_kernel import conj_if_complex
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

REAL = (D.FLOAT32, D.FLOAT64)
REAL_AND_COMPLEX = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
EXP_LOG_DTYPES = (D.FLOAT16, D.FLOAT32, D.FLOAT64)
COMPLEX = (D.COMPLEX64, D.COMPLEX128)
INT = (D.INT32, D.INT64)
# PaddlePaddle 3.3.1's CPU registrations of the zero gradients of floor and ceil
ROUNDING_GRAD_DTYPES = (
    D.BFLOAT16,
    D.FLOAT16,
    D.FLOAT32,
    D.FLOAT64,
    D.UINT8,
    D.INT8,
    D.INT16,
    D.INT32,
    D.INT64,
)

_SQRT_HALF = math.sqrt(0.5)
_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_ONE_OVER_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
_GELU_CONSTANT = 0.044715


@register_kernel("exp_grad", dtypes=EXP_LOG_DTYPES + (D.COMPLEX64, D.COMPLEX128) + INT)
@ieee_results
def exp_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * conj(out)."""
    return out_grad * conj_if_complex(ctx.xp, out)


@register_kernel("log_grad", dtypes=EXP_LOG_DTYPES + COMPLEX)
@ieee_results
def log_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad / conj(x) (inf at x == 0)."""
    return out_grad / conj_if_complex(ctx.xp, x)


@register_kernel("sqrt_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def sqrt_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    """x_grad = 0.5 * out_grad / conj(out) (inf at out == 0)."""
    return out_grad * out.dtype.type(0.5) / conj_if_complex(ctx.xp, out)


@register_kernel("rsqrt_grad", dtypes=REAL)
@ieee_results
def rsqrt_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    """x_grad = -0.5 * out_grad * out**3."""
    return out_grad * out.dtype.type(-0.5) * out * out * out


@register_kernel("square_grad", dtypes=REAL_AND_COMPLEX + INT)
@ieee_results
def square_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * conj(2 * x)."""
    return out_grad * x.dtype.type(2) * conj_if_complex(ctx.xp, x)


@register_kernel("abs_grad", dtypes=REAL_AND_COMPLEX + INT)
def abs_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * sign(x) (0 at x == 0); for complex x, out_grad * x / |x| (0 at 0)
    with out_grad real, PHI's AbsGradFunctor: the imaginary part of a complex out_grad
    (the dispatcher casts the real out_grad to x's dtype) is ignored."""
    xp = ctx.xp
    if x.dtype.kind != "c":
        return out_grad * xp.sign(x)
    modulus = xp.abs(x)
    nonzero = modulus != 0
    direction = xp.where(nonzero, x / xp.where(nonzero, modulus, 1), 0).astype(x.dtype)
    return xp.real(out_grad) * direction


@register_kernel("floor_grad", dtypes=ROUNDING_GRAD_DTYPES)
def floor_grad_kernel(ctx: KernelContext, out_grad: Array) -> Array:
    """Zeros: floor is piecewise constant (PHI's ZeroGradFunctor)."""
    return ctx.xp.zeros(out_grad.shape, dtype=out_grad.dtype)


@register_kernel("ceil_grad", dtypes=ROUNDING_GRAD_DTYPES)
def ceil_grad_kernel(ctx: KernelContext, out_grad: Array) -> Array:
    """Zeros: ceil is piecewise constant (PHI's ZeroGradFunctor)."""
    return ctx.xp.zeros(out_grad.shape, dtype=out_grad.dtype)


@register_kernel("sin_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def sin_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * conj(cos(x))."""
    xp = ctx.xp
    return out_grad * conj_if_complex(xp, xp.cos(x))


@register_kernel("cos_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def cos_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """x_grad = -out_grad * conj(sin(x))."""
    xp = ctx.xp
    return -out_grad * conj_if_complex(xp, xp.sin(x))


@register_kernel("tanh_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def tanh_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * conj(1 - out**2)."""
    xp = ctx.xp
    return out_grad * conj_if_complex(xp, 1 - out * out)


@register_kernel("sigmoid_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def sigmoid_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * conj(out * (1 - out))."""
    return out_grad * conj_if_complex(ctx.xp, out * (1 - out))


@register_kernel("relu_grad", dtypes=REAL)
@ieee_results
def relu_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * (out > 0), PHI's ReluGradFunctor (0 at x == 0; an inf out_grad
    where out <= 0 gives nan, as inf * 0 does in PHI)."""
    return ctx.xp.multiply(out_grad, ctx.xp.greater(out, 0))


@register_kernel("gelu_grad", dtypes=REAL)
@ieee_results
def gelu_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array, approximate: bool) -> Array:
    """PHI's GeluGradFunctor. Exact: out_grad * (0.5 * (1 + erf(x / sqrt(2))) + x * pdf(x))
    with pdf the standard normal density. With ``approximate`` (t = tanh(sqrt(2 / pi) *
    (x + 0.044715 * x**3))): out_grad * (0.5 * (1 + t) + 0.5 * x * (1 - t**2) *
    sqrt(2 / pi) * (1 + 3 * 0.044715 * x**2))."""
    xp = ctx.xp
    square = x * x
    if approximate:
        t = xp.tanh(_SQRT_2_OVER_PI * x * (1 + _GELU_CONSTANT * square))
        slope = _SQRT_2_OVER_PI * (1 + 3 * _GELU_CONSTANT * square)
        derivative = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * slope
    else:
        cdf = 0.5 * (1 + erf(xp, x * _SQRT_HALF))
        derivative = cdf + x * (_ONE_OVER_SQRT_2PI * xp.exp(-0.5 * square))
    return out_grad * derivative.astype(x.dtype, copy=False)


@register_kernel("silu_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def silu_grad_kernel(ctx: KernelContext, x: Array, out: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * conj(s * (1 + x * (1 - s))) with s = sigmoid(x), PHI's
    SiluGradFunctor (it recomputes s from x; ``out`` is not read)."""
    xp = ctx.xp
    s = 1 / (1 + xp.exp(-x))
    return out_grad * conj_if_complex(xp, s * (1 + x * (1 - s)))


@register_kernel("leaky_relu_grad", dtypes=REAL)
@ieee_results
def leaky_relu_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, negative_slope: float
) -> Array:
    """PHI's LeakyReluGradFunctor: out_grad * (negative_slope if x < 0 else 1); slope 1 at
    x == 0, and 0 where x is nan."""
    xp = ctx.xp
    dtype = out_grad.dtype
    slope = xp.less(x, 0).astype(dtype) * dtype.type(negative_slope) + xp.greater_equal(
        x, 0
    ).astype(dtype)
    return out_grad * slope


@register_kernel("tanh_double_grad", dtypes=(D.FLOAT16,) + REAL_AND_COMPLEX)
@ieee_results
def tanh_double_grad_kernel(
    ctx: KernelContext, out: Array, grad_out: Array, grad_x_grad: Array
) -> tuple[Array, Array]:
    """Backward of tanh_grad (grad_x = grad_out * (1 - out**2)): out_grad = -2 * out *
    grad_out * grad_x_grad, grad_out_grad = grad_x_grad * (1 - out**2)."""
    out_grad = out.dtype.type(-2) * out * grad_out * grad_x_grad
    grad_out_grad = grad_x_grad * (1 - out * out)
    return out_grad, grad_out_grad


@register_kernel("sigmoid_double_grad", dtypes=REAL_AND_COMPLEX)
@ieee_results
def sigmoid_double_grad_kernel(
    ctx: KernelContext, out: Array, fwd_grad_out: Array, grad_x_grad: Array
) -> tuple[Array, Array]:
    """Backward of sigmoid_grad (grad_x = fwd_grad_out * out * (1 - out)): out_grad =
    grad_x_grad * fwd_grad_out * (1 - 2 * out), fwd_grad_out_grad = grad_x_grad * out *
    (1 - out)."""
    out_grad = grad_x_grad * fwd_grad_out * (1 - out.dtype.type(2) * out)
    fwd_grad_out_grad = grad_x_grad * out * (1 - out)
    return out_grad, fwd_grad_out_grad


@register_kernel("exp_double_grad", dtypes=EXP_LOG_DTYPES)
@ieee_results
def exp_double_grad_kernel(
    ctx: KernelContext, out: Array, grad_out: Array, grad_x_grad: Array
) -> tuple[Array, Array]:
    """Backward of exp_grad (grad_x = grad_out * out): out_grad = grad_x_grad * grad_out,
    grad_out_grad = grad_x_grad * out."""
    return grad_x_grad * grad_out, grad_x_grad * out


@register_kernel("relu_double_grad", dtypes=(D.FLOAT16,) + REAL)
@ieee_results
def relu_double_grad_kernel(ctx: KernelContext, out: Array, grad_x_grad: Array) -> Array:
    """Backward of relu_grad w.r.t. its grad_out: grad_out_grad = grad_x_grad * (out > 0)
    (relu_grad is piecewise constant in out, which gets no gradient)."""
    return ctx.xp.multiply(grad_x_grad, ctx.xp.greater(out, 0))


@register_kernel("square_double_grad", dtypes=(D.FLOAT16,) + REAL_AND_COMPLEX + INT)
@ieee_results
def square_double_grad_kernel(
    ctx: KernelContext, x: Array, grad_out: Array, grad_x_grad: Array
) -> tuple[Array, Array]:
    """Backward of square_grad (grad_x = 2 * x * grad_out): x_grad = 2 * grad_out *
    grad_x_grad, grad_out_grad = 2 * x * grad_x_grad."""
    two = x.dtype.type(2)
    return two * grad_out * grad_x_grad, two * x * grad_x_grad
