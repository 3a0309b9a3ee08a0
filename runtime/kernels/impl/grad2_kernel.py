"""Double and triple grad kernels of the elementwise ops (issue 24, grad2): the backward ops of
the backward ops, which ``phi.grad(..., create_graph=True)`` runs when it differentiates a
gradient once more.

Each kernel differentiates the lower-order grad kernel it is the backward of, treating that
kernel's tensor arguments as independent variables, as PaddlePaddle's functors do
(paddle/phi/kernels/funcs/activation_functor.h ``*GradGradFunctor``/``*TripleGradFunctor``,
impl/elementwise_grad_kernel_impl.h ``*DoubleGrad``/``*TripleGrad``). Names follow the specs:
``ddx`` is ``grad_x_grad`` (the gradient flowing into the first grad's output), ``dout``/``gout``
the upstream gradient of the forward op. An absent optional gradient counts as zeros.

Broadcast binary ops sum each gradient back to its input's shape with ``reduce_to_shape``.
divide_double_grad uses ``grad_out / y`` where PHI reads the saved ``grad_x``; the values agree
with PaddlePaddle 3.3.1's, a broadcast x included (tests/tools/grad2_cases.py and a [2, 1] / [3]
check in the side venv).

Complex data: the double grads of the unary ops follow the convention of multiply_double_grad
(elementwise_grad_kernel.py): for ``grad_x = grad_out * conj(f'(x))``, ``grad_out_grad = ddx *
f'(x)`` and ``x_grad = grad_out * conj(ddx * f''(x))``. The triple grads apply their real
formulas to complex data unchanged. Integer dtypes, which PaddlePaddle registers and phiops'
autograd never differentiates (a static program may still run them), compute in the promoted
floating type and cast back, as PHI's integer functors truncate.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.elementwise_grad_kernel import conj_if_complex, reduce_to_shape
from phiops.runtime.kernels.impl.scale_kernel import scalar_as
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

D = DataType

REAL = (D.FLOAT32, D.FLOAT64)
COMPLEX = (D.COMPLEX64, D.COMPLEX128)
INT = (D.INT32, D.INT64)
# PaddlePaddle 3.3.1's CPU registrations (runtime/kernels/paddle_3_3_1_cpu.json)
SIN_COS_DTYPES = (D.FLOAT16,) + REAL + COMPLEX + INT
TANH_TRIPLE_DTYPES = (D.FLOAT16,) + REAL + COMPLEX
SIGMOID_TRIPLE_DTYPES = REAL + COMPLEX
LOG_DOUBLE_DTYPES = (D.FLOAT16,) + REAL + COMPLEX
SQRT_DOUBLE_DTYPES = (D.FLOAT16,) + REAL
ABS_DOUBLE_DTYPES = REAL + COMPLEX + INT
HALF_AND_REAL = (D.FLOAT16,) + REAL
SOFTPLUS_DOUBLE_DTYPES = (D.FLOAT16,) + REAL + COMPLEX
POW_DOUBLE_DTYPES = REAL + COMPLEX + INT
ADD_DOUBLE_DTYPES = REAL + COMPLEX + (D.INT16,) + INT
SUBTRACT_DOUBLE_DTYPES = ADD_DOUBLE_DTYPES + (D.BFLOAT16,)
DIVIDE_DOUBLE_DTYPES = REAL + COMPLEX + (D.BOOL,) + INT
MULTIPLY_TRIPLE_DTYPES = REAL + COMPLEX + (D.BFLOAT16, D.BOOL) + INT


def _cast(value: Array, like: Array) -> Array:
    """``value`` in ``like``'s dtype (integer data computed in floating point, truncated)."""
    return value if value.dtype == like.dtype else value.astype(like.dtype)


def _float(xp: ModuleType, x: Array) -> Array:
    """Integer and bool data as float64, floating and complex data as they are."""
    return x.astype(np.float64) if x.dtype.kind in "biu" else x


def _zeros_if_none(xp: ModuleType, value: Array | None, like: Array) -> Array:
    return xp.zeros(like.shape, dtype=like.dtype) if value is None else value


def _c(xp: ModuleType, value: Array) -> Array:
    return conj_if_complex(xp, value)


def _f32(value: float) -> float:
    """A ``float`` attribute as PHI holds it: rounded to float32 (0.7 is 0.699999988...)."""
    return float(np.float32(value))


# -- unary activations: double grads --------------------------------------------------------------


def _unary_double(
    ctx: KernelContext, x: Array, grad_out: Array, ddx: Array, first: Array, second: Array
) -> tuple[Array | None, Array | None]:
    """x_grad = grad_out * conj(ddx * f''(x)), grad_out_grad = ddx * f'(x), given f' and f''
    computed in floating point; both cast to x's dtype."""
    xp = ctx.xp
    x_grad = grad_out_grad = None
    if ctx.wants(0):
        x_grad = _cast(_float(xp, grad_out) * _c(xp, _float(xp, ddx) * second), x)
    if ctx.wants(1):
        grad_out_grad = _cast(_float(xp, ddx) * first, x)
    return x_grad, grad_out_grad


@register_kernel("sin_double_grad", dtypes=SIN_COS_DTYPES)
@ieee_results
def sin_double_grad_kernel(
    ctx: KernelContext, x: Array, grad_out: Array, grad_x_grad: Array
) -> tuple[Array, Array]:
    """Backward of sin_grad (grad_x = grad_out * cos(x)): x_grad = -grad_out * grad_x_grad *
    sin(x), grad_out_grad = grad_x_grad * cos(x)."""
    xp = ctx.xp
    xf = _float(xp, x)
    return _unary_double(ctx, x, grad_out, grad_x_grad, xp.cos(xf), -xp.sin(xf))


@register_kernel("cos_double_grad", dtypes=SIN_COS_DTYPES)
@ieee_results
def cos_double_grad_kernel(
    ctx: KernelContext, x: Array, grad_out: Array, grad_x_grad: Array
) -> tuple[Array, Array]:
    """Backward of cos_grad (grad_x = -grad_out * sin(x)): x_grad = -grad_out * grad_x_grad *
    cos(x), grad_out_grad = -grad_x_grad * sin(x)."""
    xp = ctx.xp
    xf = _float(xp, x)
    return _unary_double(ctx, x, grad_out, grad_x_grad, -xp.sin(xf), -xp.cos(xf))


@register_kernel("log_double_grad", dtypes=LOG_DOUBLE_DTYPES)
@ieee_results
def log_double_grad_kernel(
    ctx: KernelContext, x: Array, grad_out: Array, grad_x_grad: Array
) -> tuple[Array, Array]:
    """Backward of log_grad (grad_x = grad_out / x): x_grad = -grad_out * grad_x_grad / x**2,
    grad_out_grad = grad_x_grad / x (inf at x == 0)."""
    xp = ctx.xp
    one = x.dtype.type(1)
    inverse = one / x
    return _unary_double(ctx, x, grad_out, grad_x_grad, inverse, -(inverse * inverse))


@register_kernel("sqrt_double_grad", dtypes=SQRT_DOUBLE_DTYPES)
@ieee_results
def sqrt_double_grad_kernel(
    ctx: KernelContext, out: Array, grad_x: Array, grad_x_grad: Array
) -> tuple[Array, Array]:
    """Backward of sqrt_grad (grad_x = 0.5 * grad_out / out) in out and grad_out, PHI's
    SqrtGradGradFunctor: out_grad = -grad_x_grad * grad_x / out, grad_out_grad = 0.5 *
    grad_x_grad / out."""
    out_grad = grad_out_grad = None
    if ctx.wants(0):
        out_grad = -(grad_x_grad * grad_x) / out
    if ctx.wants(1):
        grad_out_grad = out.dtype.type(0.5) * grad_x_grad / out
    return out_grad, grad_out_grad


@register_kernel("rsqrt_double_grad", dtypes=SQRT_DOUBLE_DTYPES)
@ieee_results
def rsqrt_double_grad_kernel(
    ctx: KernelContext, out: Array, grad_x: Array, grad_x_grad: Array
) -> tuple[Array, Array]:
    """Backward of rsqrt_grad (grad_x = -0.5 * grad_out * out**3) in out and grad_out, PHI's
    RsqrtGradGradFunctor: out_grad = 3 * grad_x_grad * grad_x / out, grad_out_grad = -0.5 *
    grad_x_grad * out**3."""
    out_grad = grad_out_grad = None
    if ctx.wants(0):
        out_grad = out.dtype.type(3) * grad_x_grad * grad_x / out
    if ctx.wants(1):
        grad_out_grad = out.dtype.type(-0.5) * grad_x_grad * out * out * out
    return out_grad, grad_out_grad


@register_kernel("abs_double_grad", dtypes=ABS_DOUBLE_DTYPES)
def abs_double_grad_kernel(ctx: KernelContext, x: Array, grad_x_grad: Array) -> Array:
    """Backward of abs_grad (grad_x = grad_out * sign(x)) in grad_out: grad_out_grad =
    grad_x_grad * sign(x), 0 at x == 0; for complex x, grad_x_grad * x / |x|. abs_grad is
    piecewise constant in x, which gets no gradient."""
    xp = ctx.xp
    if x.dtype.kind == "c":
        magnitude = xp.abs(x)
        safe = xp.where(magnitude == 0, 1, magnitude)
        return grad_x_grad * xp.where(magnitude == 0, 0, x / safe).astype(x.dtype)
    return grad_x_grad * xp.sign(x).astype(grad_x_grad.dtype)


@register_kernel("leaky_relu_double_grad", dtypes=HALF_AND_REAL)
def leaky_relu_double_grad_kernel(
    ctx: KernelContext, x: Array, grad_x_grad: Array, negative_slope: float
) -> Array:
    """Backward of leaky_relu_grad in grad_out, PHI's LeakyReluGradGradFunctor: grad_out_grad
    = grad_x_grad where x > 0, grad_x_grad * negative_slope where x <= 0."""
    xp = ctx.xp
    dtype = grad_x_grad.dtype
    # negative_slope unrounded: PaddlePaddle 3.3.1 gives grad_x_grad * 0.1 for a slope of 0.1,
    # where elu's and celu's alpha and softplus's beta act rounded to float32
    slope = xp.where(xp.greater(x, 0), dtype.type(1), dtype.type(negative_slope))
    return grad_x_grad * slope.astype(dtype)


@register_kernel("elu_double_grad", dtypes=HALF_AND_REAL)
@ieee_results
def elu_double_grad_kernel(
    ctx: KernelContext, x: Array, grad_out: Array, grad_x_grad: Array, alpha: float
) -> tuple[Array, Array]:
    """Backward of elu_grad (grad_x = grad_out where x > 0, grad_out * alpha * exp(x) where
    x <= 0), PHI's ELUGradGradFunctor: x_grad = grad_x_grad * grad_out * alpha * exp(x) where
    x <= 0 (0 elsewhere), grad_out_grad = grad_x_grad * (1 where x > 0, alpha * exp(x))."""
    xp = ctx.xp
    dtype = x.dtype
    scaled = dtype.type(_f32(alpha)) * xp.exp(x)
    positive = xp.greater(x, 0)
    zero = dtype.type(0)
    x_grad = grad_out_grad = None
    if ctx.wants(0):
        x_grad = xp.where(positive, zero, grad_x_grad * grad_out * scaled).astype(dtype)
    if ctx.wants(1):
        grad_out_grad = (grad_x_grad * xp.where(positive, dtype.type(1), scaled)).astype(dtype)
    return x_grad, grad_out_grad


@register_kernel("celu_double_grad", dtypes=HALF_AND_REAL)
@ieee_results
def celu_double_grad_kernel(
    ctx: KernelContext, x: Array, grad_out: Array, grad_x_grad: Array, alpha: float
) -> tuple[Array, Array]:
    """Backward of celu_grad (grad_x = grad_out where x > 0, grad_out * exp(x / alpha) where
    x <= 0), PHI's CELUGradGradFunctor: x_grad = grad_x_grad * grad_out * exp(x / alpha) /
    alpha where x <= 0 (0 elsewhere), grad_out_grad = grad_x_grad * (1 where x > 0,
    exp(x / alpha))."""
    xp = ctx.xp
    dtype = x.dtype
    a = dtype.type(_f32(alpha))
    growth = xp.exp(x / a)
    positive = xp.greater(x, 0)
    x_grad = grad_out_grad = None
    if ctx.wants(0):
        x_grad = xp.where(positive, dtype.type(0), grad_x_grad * grad_out * growth / a)
        x_grad = x_grad.astype(dtype)
    if ctx.wants(1):
        grad_out_grad = (grad_x_grad * xp.where(positive, dtype.type(1), growth)).astype(dtype)
    return x_grad, grad_out_grad


@register_kernel("softplus_double_grad", dtypes=SOFTPLUS_DOUBLE_DTYPES)
@ieee_results
def softplus_double_grad_kernel(
    ctx: KernelContext,
    x: Array,
    grad_out: Array,
    grad_x_grad: Array,
    beta: float,
    threshold: float,
) -> tuple[Array, Array]:
    """Backward of softplus_grad (grad_x = grad_out * s with s = sigmoid(beta * x), or
    grad_out where beta * x > threshold), PHI's SoftplusDoubleGradFunctor: x_grad =
    grad_x_grad * grad_out * beta * s * (1 - s) (0 above the threshold), grad_out_grad =
    grad_x_grad * s (grad_x_grad above the threshold)."""
    xp = ctx.xp
    dtype = x.dtype
    b = dtype.type(_f32(beta))
    scaled = b * x
    linear = xp.greater(
        scaled.real if dtype.kind == "c" else scaled, dtype.type(_f32(threshold)).real
    )
    one = dtype.type(1)
    s = one / (one + xp.exp(-scaled))
    first = xp.where(linear, one, s).astype(dtype)
    second = xp.where(linear, dtype.type(0), b * s * (one - s)).astype(dtype)
    return _unary_double(ctx, x, grad_out, grad_x_grad, first, second)


@register_kernel("pow_double_grad", dtypes=POW_DOUBLE_DTYPES)
@ieee_results
def pow_double_grad_kernel(
    ctx: KernelContext,
    x: Array,
    grad_out: Array,
    grad_x_grad: Array,
    y: bool | int | float | complex,
) -> tuple[Array, Array]:
    """Backward of pow_grad (grad_x = grad_out * y * x**(y - 1)), with y rounded to float32
    as the forward kernel does: x_grad = grad_out * grad_x_grad * y * (y - 1) * x**(y - 2),
    grad_out_grad = grad_x_grad * y * x**(y - 1)."""
    xp = ctx.xp
    xf = _float(xp, x)
    e = scalar_as(xp, float(np.float32(complex(y).real)), xf.dtype, "y")
    first = e * xp.power(xf, e - 1)
    second = e * (e - 1) * xp.power(xf, e - 2)
    return _unary_double(ctx, x, grad_out, grad_x_grad, first, second)


# -- unary activations: triple grads --------------------------------------------------------------


@register_kernel("sin_triple_grad", dtypes=SIN_COS_DTYPES)
@ieee_results
def sin_triple_grad_kernel(
    ctx: KernelContext,
    x: Array,
    grad_out_forward: Array | None,
    grad_x_grad_forward: Array | None,
    grad_x_grad: Array,
    grad_out_grad_grad: Array | None,
) -> tuple[Array, Array, Array]:
    """Backward of sin_double_grad (A = -dout * ddx * sin(x), B = ddx * cos(x)), with a =
    grad_x_grad and b = grad_out_grad_grad the gradients of A and B: x_grad = -a * dout * ddx *
    cos(x) - b * ddx * sin(x), grad_out_forward_grad = -a * ddx * sin(x),
    grad_x_grad_forward_grad = -a * dout * sin(x) + b * cos(x)."""
    xp = ctx.xp
    xf = _float(xp, x)
    s, c = xp.sin(xf), xp.cos(xf)
    return _unary_triple(
        ctx,
        x,
        grad_out_forward,
        grad_x_grad_forward,
        grad_x_grad,
        grad_out_grad_grad,
        first=c,
        second=-s,
        third=-c,
    )


@register_kernel("cos_triple_grad", dtypes=SIN_COS_DTYPES)
@ieee_results
def cos_triple_grad_kernel(
    ctx: KernelContext,
    x: Array,
    grad_out_forward: Array | None,
    grad_x_grad_forward: Array | None,
    grad_x_grad: Array,
    grad_out_grad_grad: Array | None,
) -> tuple[Array, Array, Array]:
    """Backward of cos_double_grad (A = -dout * ddx * cos(x), B = -ddx * sin(x)), with a =
    grad_x_grad and b = grad_out_grad_grad: x_grad = a * dout * ddx * sin(x) - b * ddx *
    cos(x), grad_out_forward_grad = -a * ddx * cos(x), grad_x_grad_forward_grad = -a * dout *
    cos(x) - b * sin(x)."""
    xp = ctx.xp
    xf = _float(xp, x)
    s, c = xp.sin(xf), xp.cos(xf)
    return _unary_triple(
        ctx,
        x,
        grad_out_forward,
        grad_x_grad_forward,
        grad_x_grad,
        grad_out_grad_grad,
        first=-s,
        second=-c,
        third=s,
    )


def _unary_triple(
    ctx: KernelContext,
    x: Array,
    dout: Array | None,
    ddx: Array | None,
    a: Array,
    b: Array | None,
    *,
    first: Array,
    second: Array,
    third: Array,
) -> tuple[Array | None, Array | None, Array | None]:
    """The triple grad of an op whose double grad gives A = dout * ddx * f''(x) and B = ddx *
    f'(x): x_grad = a * dout * ddx * f''' + b * ddx * f'', dout_grad = a * ddx * f'',
    ddx_grad = a * dout * f'' + b * f'."""
    xp = ctx.xp
    dout = _float(xp, _zeros_if_none(xp, dout, x))
    ddx = _float(xp, _zeros_if_none(xp, ddx, x))
    a = _float(xp, a)
    b = _float(xp, _zeros_if_none(xp, b, x))
    x_grad = dout_grad = ddx_grad = None
    if ctx.wants(0):
        x_grad = _cast(a * dout * ddx * third + b * ddx * second, x)
    if ctx.wants(1):
        dout_grad = _cast(a * ddx * second, x)
    if ctx.wants(2):
        ddx_grad = _cast(a * dout * second + b * first, x)
    return x_grad, dout_grad, ddx_grad


@register_kernel("tanh_triple_grad", dtypes=TANH_TRIPLE_DTYPES)
@ieee_results
def tanh_triple_grad_kernel(
    ctx: KernelContext,
    out: Array,
    grad_out_forward: Array,
    grad_x_grad_forward: Array,
    grad_out_new_grad: Array | None,
    grad_out_grad_grad: Array | None,
) -> tuple[Array, Array, Array]:
    """Backward of tanh_double_grad (A = -2 * out * dout * ddx, B = ddx * (1 - out**2)) in
    out, dout and ddx, with a = grad_out_new_grad and b = grad_out_grad_grad (zeros when
    absent): out_grad = -2 * (a * dout + b * out) * ddx, grad_out_forward_grad = -2 * a * out *
    ddx, grad_x_grad_forward_grad = -2 * a * out * dout + b * (1 - out**2)."""
    xp = ctx.xp
    dout, ddx = grad_out_forward, grad_x_grad_forward
    a = _zeros_if_none(xp, grad_out_new_grad, out)
    b = _zeros_if_none(xp, grad_out_grad_grad, out)
    two = out.dtype.type(2)
    out_grad = dout_grad = ddx_grad = None
    if ctx.wants(0):
        out_grad = -two * (a * dout + b * out) * ddx
    if ctx.wants(1):
        dout_grad = -two * a * out * ddx
    if ctx.wants(2):
        ddx_grad = -two * a * out * dout + b * (1 - out * out)
    return out_grad, dout_grad, ddx_grad


@register_kernel("sigmoid_triple_grad", dtypes=SIGMOID_TRIPLE_DTYPES)
@ieee_results
def sigmoid_triple_grad_kernel(
    ctx: KernelContext,
    out: Array,
    fwd_grad_out: Array,
    grad_grad_x: Array,
    grad_out_grad: Array,
    grad_grad_out_grad: Array | None,
) -> tuple[Array, Array, Array]:
    """Backward of sigmoid_double_grad (A = ddx * dout * (1 - 2 * out), B = ddx * out *
    (1 - out)) in out, dout and ddx, with a = grad_out_grad and b = grad_grad_out_grad (zeros
    when absent): out_grad = -2 * a * ddx * dout + b * ddx * (1 - 2 * out), fwd_grad_out_grad
    = a * ddx * (1 - 2 * out), grad_grad_x_grad = a * dout * (1 - 2 * out) + b * out *
    (1 - out)."""
    xp = ctx.xp
    dout, ddx, a = fwd_grad_out, grad_grad_x, grad_out_grad
    b = _zeros_if_none(xp, grad_grad_out_grad, out)
    two = out.dtype.type(2)
    slope = 1 - two * out
    out_grad = dout_grad = ddx_grad = None
    if ctx.wants(0):
        out_grad = -two * a * ddx * dout + b * ddx * slope
    if ctx.wants(1):
        dout_grad = a * ddx * slope
    if ctx.wants(2):
        ddx_grad = a * dout * slope + b * out * (1 - out)
    return out_grad, dout_grad, ddx_grad


@register_kernel("pow_triple_grad", dtypes=POW_DOUBLE_DTYPES)
@ieee_results
def pow_triple_grad_kernel(
    ctx: KernelContext,
    x: Array,
    grad_out: Array,
    grad_grad_x: Array,
    grad_x_grad: Array,
    grad_grad_out_grad: Array | None,
    y: bool | int | float | complex,
) -> tuple[Array, Array, Array]:
    """Backward of pow_double_grad (A = dout * ddx * y * (y - 1) * x**(y - 2), B = ddx * y *
    x**(y - 1)), with a = grad_x_grad and b = grad_grad_out_grad (zeros when absent): x_grad =
    a * dout * ddx * y(y-1)(y-2) x**(y-3) + b * ddx * y(y-1) x**(y-2), grad_out_grad = a * ddx
    * y(y-1) x**(y-2), grad_grad_x_grad = a * dout * y(y-1) x**(y-2) + b * y x**(y-1)."""
    xp = ctx.xp
    xf = _float(xp, x)
    e = scalar_as(xp, float(np.float32(complex(y).real)), xf.dtype, "y")
    first = e * xp.power(xf, e - 1)
    second = e * (e - 1) * xp.power(xf, e - 2)
    third = e * (e - 1) * (e - 2) * xp.power(xf, e - 3)
    return _unary_triple(
        ctx,
        x,
        grad_out,
        grad_grad_x,
        grad_x_grad,
        grad_grad_out_grad,
        first=first,
        second=second,
        third=third,
    )


# -- binary elementwise ops -----------------------------------------------------------------------


def _broadcast_sum(xp: ModuleType, terms: list[Array | None], like: Array) -> Array:
    """The sum of the present terms, broadcast to ``like``'s shape, in its dtype."""
    total = xp.zeros(like.shape, dtype=like.dtype)
    for term in terms:
        if term is not None:
            total = total + term
    return total.astype(like.dtype, copy=False)


@register_kernel("add_double_grad", dtypes=ADD_DOUBLE_DTYPES)
def add_double_grad_kernel(
    ctx: KernelContext,
    y: Array,
    grad_out: Array,
    grad_x_grad: Array | None,
    grad_y_grad: Array | None,
    axis: int,
) -> Array:
    """Backward of add_grad (grad_x = grad_y = grad_out, summed to x's and y's shapes) in
    grad_out: grad_out_grad = grad_x_grad + grad_y_grad, broadcast to grad_out's shape.
    Only y's shape is read; ``axis`` is the legacy broadcast axis, always -1."""
    return _broadcast_sum(ctx.xp, [grad_x_grad, grad_y_grad], grad_out)


@register_kernel("subtract_double_grad", dtypes=SUBTRACT_DOUBLE_DTYPES)
def subtract_double_grad_kernel(
    ctx: KernelContext,
    y: Array,
    grad_out: Array,
    grad_x_grad: Array | None,
    grad_y_grad: Array | None,
    axis: int,
) -> Array:
    """Backward of subtract_grad (grad_x = grad_out, grad_y = -grad_out) in grad_out:
    grad_out_grad = grad_x_grad - grad_y_grad, broadcast to grad_out's shape."""
    minus = None if grad_y_grad is None else -grad_y_grad
    return _broadcast_sum(ctx.xp, [grad_x_grad, minus], grad_out)


@register_kernel("add_triple_grad", dtypes=ADD_DOUBLE_DTYPES)
def add_triple_grad_kernel(
    ctx: KernelContext,
    grad_grad_x: Array,
    grad_grad_y: Array,
    grad_grad_out_grad: Array,
    axis: int,
) -> tuple[Array, Array]:
    """Backward of add_double_grad (grad_grad_out = grad_grad_x + grad_grad_y): both
    gradients are grad_grad_out_grad, summed to grad_grad_x's and grad_grad_y's shapes."""
    xp = ctx.xp
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = xp.array(reduce_to_shape(xp, grad_grad_out_grad, grad_grad_x.shape), copy=True)
    if ctx.wants(1):
        y_grad = xp.array(reduce_to_shape(xp, grad_grad_out_grad, grad_grad_y.shape), copy=True)
    return x_grad, y_grad


@register_kernel("divide_double_grad", dtypes=DIVIDE_DOUBLE_DTYPES)
@ieee_results
def divide_double_grad_kernel(
    ctx: KernelContext,
    y: Array,
    out: Array,
    grad_out: Array,
    grad_x: Array | None,
    grad_x_grad: Array | None,
    grad_y_grad: Array | None,
    axis: int,
) -> tuple[Array, Array, Array]:
    """Backward of divide_grad (grad_x = dout / y, grad_y = -dout * out / y) in y, out and
    dout, with ddx = grad_x_grad and ddy = grad_y_grad (zeros when absent): y_grad = dout *
    (out * ddy - ddx) / y**2 summed to y's shape, out_grad = -dout * ddy / y, grad_out_grad =
    (ddx - out * ddy) / y. ``grad_x`` is not read (see the module docstring)."""
    xp = ctx.xp
    dout = _float(xp, grad_out)
    yf, outf = _float(xp, y), _float(xp, out)
    ddx = 0 if grad_x_grad is None else _float(xp, grad_x_grad)
    ddy = 0 if grad_y_grad is None else _float(xp, grad_y_grad)
    y_grad = out_grad = grad_out_grad = None
    if ctx.wants(0):
        y_grad = dout * (outf * ddy - ddx) / (yf * yf)
        y_grad = _cast(reduce_to_shape(xp, xp.broadcast_to(y_grad, out.shape), y.shape), y)
    if ctx.wants(1):
        out_grad = _cast(xp.broadcast_to(-dout * ddy / yf, out.shape), out)
    if ctx.wants(2):
        grad_out_grad = _cast(xp.broadcast_to((ddx - outf * ddy) / yf, out.shape), out)
    if out_grad is not None:
        out_grad = xp.array(out_grad, copy=True)
    if grad_out_grad is not None:
        grad_out_grad = xp.array(grad_out_grad, copy=True)
    return y_grad, out_grad, grad_out_grad


@register_kernel("multiply_triple_grad", dtypes=MULTIPLY_TRIPLE_DTYPES)
@ieee_results
def multiply_triple_grad_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array,
    fwd_grad_out: Array,
    fwd_grad_grad_x: Array | None,
    fwd_grad_grad_y: Array | None,
    grad_x_grad: Array | None,
    grad_y_grad: Array | None,
    grad_grad_out_grad: Array | None,
    axis: int,
) -> tuple[Array, Array, Array, Array, Array]:
    """Backward of multiply_double_grad (A = dout * conj(ddy) summed to x's shape, B = dout *
    conj(ddx) summed to y's shape, C = ddx * y + x * ddy), with a, b, c = grad_x_grad,
    grad_y_grad, grad_grad_out_grad (zeros when absent): x_grad = c * conj(ddy), y_grad = c *
    conj(ddx), fwd_grad_out_grad = a * conj(ddy) + b * conj(ddx), fwd_grad_grad_x_grad =
    dout * conj(b) + c * conj(y), fwd_grad_grad_y_grad = dout * conj(a) + c * conj(x), each
    summed to its input's shape."""
    xp = ctx.xp
    dout = fwd_grad_out
    ddx = _zeros_if_none(xp, fwd_grad_grad_x, x)
    ddy = _zeros_if_none(xp, fwd_grad_grad_y, y)
    a = _zeros_if_none(xp, grad_x_grad, x)
    b = _zeros_if_none(xp, grad_y_grad, y)
    c = _zeros_if_none(xp, grad_grad_out_grad, dout)
    shape = dout.shape

    def summed(value: Array, like: Array) -> Array:
        full = xp.broadcast_to(value, shape)
        reduced = reduce_to_shape(xp, full, like.shape)
        return xp.array(reduced, dtype=like.dtype, copy=True)

    results: list[Array | None] = [None] * 5
    if ctx.wants(0):
        results[0] = summed(c * _c(xp, ddy), x)
    if ctx.wants(1):
        results[1] = summed(c * _c(xp, ddx), y)
    if ctx.wants(2):
        results[2] = summed(a * _c(xp, ddy) + b * _c(xp, ddx), dout)
    if ctx.wants(3):
        results[3] = summed(dout * _c(xp, b) + c * _c(xp, y), x)
    if ctx.wants(4):
        results[4] = summed(dout * _c(xp, a) + c * _c(xp, x), y)
    return tuple(results)  # type: ignore[return-value]


# -- shape ops ------------------------------------------------------------------------------------


def _shape_only_grad_out(kernel: Kernel) -> None:
    kernel.input_at(0).set_dtype(DataType.ALL_DTYPE)


# PaddlePaddle 3.3.1 registers it, data movement only, for every dtype its CPU build has
@register_kernel("reshape_double_grad", dtypes=ALL_TYPES, configure=_shape_only_grad_out)
def reshape_double_grad_kernel(ctx: KernelContext, grad_out: Array, grad_x_grad: Array) -> Array:
    """Backward of reshape_grad (grad_x = grad_out reshaped to x's dims) in grad_out:
    grad_out_grad = grad_x_grad reshaped to grad_out's dims, a view (PHI runs it in place).
    Only grad_out's shape is read (no_need_buffer)."""
    return grad_x_grad.reshape(grad_out.shape)
