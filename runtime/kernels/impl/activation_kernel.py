"""Unary math and activation kernels: exp, log, sqrt, rsqrt, square, abs, sign, floor, ceil,
sin, cos, tanh, sigmoid, relu, gelu, silu, leaky_relu.

The dtype lists are PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/activation_kernel.cc,
abs_kernel.cc, sign_kernel.cc, gelu_kernel.cc), bfloat16 arrays coming from ml_dtypes. PHI
registers ``exp`` and ``log`` for int32/int64 with a float32 *output*
(DEFINE_CPU_ACTIVATION_KERNEL_WITH_INT_IN_FLOAT_OUT: the input cast to float32, then the float32
functor), and so do we: static programs hand those kernels their integer inputs. Eager calls of
exp, log, sqrt, sin... cast integer inputs to float32 before the kernel by the dispatcher's
promotion rules (runtime/common/promotion.py, ops/op_traits.yaml ``float_math``), which gives the
same result.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.native import native_function
from phiops.runtime.kernels.registration import INTEGRAL, register_kernel

D = DataType

REAL = (D.FLOAT32, D.FLOAT64)
REAL_AND_COMPLEX = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
INT_IN_FLOAT_OUT = (D.INT32, D.INT64)
EXP_DTYPES = (D.FLOAT16, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128) + INT_IN_FLOAT_OUT
LOG_DTYPES = (
    D.FLOAT16,
    D.BFLOAT16,
    D.FLOAT32,
    D.FLOAT64,
    D.COMPLEX64,
    D.COMPLEX128,
) + INT_IN_FLOAT_OUT
ROUNDING_DTYPES = INTEGRAL + (D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64)
SQUARE_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
ABS_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
SIGN_DTYPES = INTEGRAL + (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)

_REAL_OF = {D.COMPLEX64: D.FLOAT32, D.COMPLEX128: D.FLOAT64}


def float32_for_integers(kernel: Kernel) -> None:
    """An integer kernel of exp, log, ... writes float32 (PHI: WITH_INT_IN_FLOAT_OUT)."""
    if kernel.key.dtype in INT_IN_FLOAT_OUT:
        kernel.output_at(0).set_dtype(D.FLOAT32)


def as_float32_if_integer(x: Array) -> Array:
    """``x`` cast to float32 when it is an integer array, as PHI's integer kernels of exp, log,
    ... cast it before the float32 functor; any other array unchanged."""
    return x.astype(np.float32) if x.dtype.kind in "iu" else x


def _real_output(kernel: Kernel) -> None:
    """abs of a complex tensor is real (PHI: OutputAt(0).SetDataType(ToReal(dtype)))."""
    kernel.output_at(0).set_dtype(_REAL_OF.get(kernel.key.dtype, kernel.key.dtype))


@register_kernel("exp", dtypes=EXP_DTYPES, configure=float32_for_integers)
@ieee_results
def exp_kernel(ctx: KernelContext, x: Array) -> Array:
    """exp(x); an integer x in float32."""
    return ctx.xp.exp(as_float32_if_integer(x))


@register_kernel("log", dtypes=LOG_DTYPES, configure=float32_for_integers)
@ieee_results
def log_kernel(ctx: KernelContext, x: Array) -> Array:
    """Natural log: log(0) is -inf and log of a negative number nan, silently, as in PHI; an
    integer x in float32."""
    return ctx.xp.log(as_float32_if_integer(x))


@register_kernel("sqrt", dtypes=REAL_AND_COMPLEX)
@ieee_results
def sqrt_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.sqrt(x)


@register_kernel("rsqrt", dtypes=REAL)
@ieee_results
def rsqrt_kernel(ctx: KernelContext, x: Array) -> Array:
    """1 / sqrt(x): inf at 0, nan below."""
    return 1 / ctx.xp.sqrt(x)


@register_kernel("square", dtypes=SQUARE_DTYPES)
@ieee_results
def square_kernel(ctx: KernelContext, x: Array) -> Array:
    """x * x; integers wrap around on overflow like C++."""
    return ctx.xp.multiply(x, x)


@register_kernel("abs", dtypes=ABS_DTYPES, configure=_real_output)
def abs_kernel(ctx: KernelContext, x: Array) -> Array:
    """|x|; the modulus, of the real dtype, for complex x."""
    return ctx.xp.abs(x)


@register_kernel("sign", dtypes=SIGN_DTYPES)
def sign_kernel(ctx: KernelContext, x: Array) -> Array:
    """Eigen's sign, (x > 0) - (x < 0): -1, 0 or 1, and 0 for nan (numpy's sign gives nan);
    x / |x| (0 at 0) for complex x."""
    xp = ctx.xp
    if x.dtype.kind == "c":
        modulus = xp.abs(x)
        return xp.where(modulus == 0, 0, x / xp.where(modulus == 0, 1, modulus)).astype(x.dtype)
    signs = xp.greater(x, 0).astype(x.dtype) - xp.less(x, 0).astype(x.dtype)
    return signs if x.dtype.kind in "iu" else xp.where(xp.isnan(x), x, signs)


@register_kernel("floor", dtypes=ROUNDING_DTYPES)
def floor_kernel(ctx: KernelContext, x: Array) -> Array:
    """floor(x); integers are their own floor."""
    return x.copy() if x.dtype.kind in "iu" else ctx.xp.floor(x)


@register_kernel("ceil", dtypes=ROUNDING_DTYPES)
def ceil_kernel(ctx: KernelContext, x: Array) -> Array:
    """ceil(x); integers are their own ceiling."""
    return x.copy() if x.dtype.kind in "iu" else ctx.xp.ceil(x)


@register_kernel("sin", dtypes=REAL_AND_COMPLEX)
@ieee_results
def sin_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.sin(x)


@register_kernel("cos", dtypes=REAL_AND_COMPLEX)
@ieee_results
def cos_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.cos(x)


@register_kernel("tanh", dtypes=REAL_AND_COMPLEX)
@ieee_results
def tanh_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.tanh(x)


@register_kernel("sigmoid", dtypes=REAL_AND_COMPLEX)
@ieee_results
def sigmoid_kernel(ctx: KernelContext, x: Array) -> Array:
    """1 / (1 + exp(-x)), PHI's SigmoidFunctor (exp overflows to inf, giving 0, for x << 0)."""
    return 1 / (1 + ctx.xp.exp(-x))


@register_kernel("silu", dtypes=REAL_AND_COMPLEX)
@ieee_results
def silu_kernel(ctx: KernelContext, x: Array) -> Array:
    """x / (1 + exp(-x)), PHI's SiluFunctor."""
    return x / (1 + ctx.xp.exp(-x))


@register_kernel("relu", dtypes=REAL)
def relu_kernel(ctx: KernelContext, x: Array) -> Array:
    """PHI's ReluCPUFunctor ``x > 0 ? x : 0``: nan and -0.0 become +0.0.

    Branch-free, several times faster than a ``where``: ``fmax`` ignores nan (fmax(nan, 0) is
    0), and adding +0.0 turns the -0.0 that fmax(-0.0, 0) may return into +0.0."""
    xp = ctx.xp
    zero = x.dtype.type(0)
    out = xp.fmax(x, zero)
    out += zero  # in place for arrays; a 0-D input gives a numpy scalar, replaced
    return out


@register_kernel("leaky_relu", dtypes=REAL)
def leaky_relu_kernel(ctx: KernelContext, x: Array, negative_slope: float) -> Array:
    """x where x >= 0, negative_slope * x below: PHI's LeakyReluFunctor, max(x, a * x) for a
    slope below 1 and min(x, a * x) otherwise, with C++'s std::max/std::min: a NaN in
    ``a * x`` gives x (a NaN slope is the identity, as in PaddlePaddle), a NaN in x stays."""
    xp = ctx.xp
    with np.errstate(invalid="ignore"):  # inf * 0 and NaN slopes are meant (see above)
        scaled = x * xp.asarray(negative_slope, dtype=x.dtype)
    if negative_slope < 1:
        return xp.where(x < scaled, scaled, x)  # std::max(x, scaled)
    return xp.where(scaled < x, scaled, x)  # std::min(x, scaled)


_SQRT_HALF = 0.70710678118654752440
_SQRT_2_OVER_PI = 0.79788456080286535588
_GELU_CONSTANT = 0.044715

# W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23
# (1969), as in his CALERF routine. In float64 the result is within 2.3e-16 of the true erf
# (absolute; 5e-16 relative) over the whole real line; in float32 within a few ulp.
_ERF_A = (
    3.16112374387056560e00,
    1.13864154151050156e02,
    3.77485237685302021e02,
    3.20937758913846947e03,
    1.85777706184603153e-1,
)
_ERF_B = (
    2.36012909523441209e01,
    2.44024637934444173e02,
    1.28261652607737228e03,
    2.84423683343917062e03,
)
_ERFC_C = (
    5.64188496988670089e-1,
    8.88314979438837594e00,
    6.61191906371416295e01,
    2.98635138197400131e02,
    8.81952221241769090e02,
    1.71204761263407058e03,
    2.05107837782607147e03,
    1.23033935479799725e03,
    2.15311535474403846e-8,
)
_ERFC_D = (
    1.57449261107098347e01,
    1.17693950891312499e02,
    5.37181101862009858e02,
    1.62138957456669019e03,
    3.29079923573345963e03,
    4.36261909014324716e03,
    3.43936767414372164e03,
    1.23033935480374942e03,
)
_ERFC_P = (
    3.05326634961232344e-1,
    3.60344899949804439e-1,
    1.25781726111229246e-1,
    1.60837851487422766e-2,
    6.58749161529837803e-4,
    1.63153871373020978e-2,
)
_ERFC_Q = (
    2.56852019228982242e00,
    1.87295284992346725e00,
    5.27905102951428412e-1,
    6.05183413124413191e-2,
    2.33520497626869185e-3,
)
_ONE_OVER_SQRT_PI = 5.6418958354775628695e-1
# erfc underflows to 0 beyond ~26.6; clamping keeps inf inputs away from inf/inf.
_ERFC_ARGUMENT_LIMIT = 32.0


@ieee_results
def erf(xp: ModuleType, x: Array) -> Array:
    """The error function of a float array, in its own dtype, with xp operations only (numpy
    has no erf, and one implementation must serve CuPy as well). Cody's three rational
    approximations: erf on |x| <= 0.46875, erfc on (0.46875, 4] and beyond 4."""
    a, b, c, d, p, q = _ERF_A, _ERF_B, _ERFC_C, _ERFC_D, _ERFC_P, _ERFC_Q
    y = xp.abs(x)
    square = y * y
    numerator, denominator = a[4] * square, square
    for i in range(3):
        numerator = (numerator + a[i]) * square
        denominator = (denominator + b[i]) * square
    small = x * (numerator + a[3]) / (denominator + b[3])

    y = xp.minimum(y, _ERFC_ARGUMENT_LIMIT)
    numerator, denominator = c[8] * y, y
    for i in range(7):
        numerator = (numerator + c[i]) * y
        denominator = (denominator + d[i]) * y
    middle = (numerator + c[7]) / (denominator + d[7])

    inverse_square = 1 / (y * y)
    numerator, denominator = p[5] * inverse_square, inverse_square
    for i in range(4):
        numerator = (numerator + p[i]) * inverse_square
        denominator = (denominator + q[i]) * inverse_square
    large = inverse_square * (numerator + p[4]) / (denominator + q[4])
    large = (_ONE_OVER_SQRT_PI - large) / y

    # exp(-y*y) split as exp(-t*t) * exp(-(y-t)(y+t)) with t = y rounded down to 1/16,
    # which keeps the rounding error of y*y out of the exponent.
    truncated = xp.trunc(y * 16) / 16
    erfc = (
        xp.exp(-truncated * truncated)
        * xp.exp(-(y - truncated) * (y + truncated))
        * xp.where(y <= 4, middle, large)
    )
    outer = (0.5 - erfc) + 0.5
    return xp.where(xp.abs(x) <= 0.46875, small, xp.where(x < 0, -outer, outer))


@register_kernel("gelu", dtypes=REAL)
@ieee_results
def gelu_kernel(ctx: KernelContext, x: Array, approximate: bool) -> Array:
    """GELU, PHI's GeluFunctor: 0.5 * x * (1 + erf(x / sqrt(2))), or with ``approximate``
    0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3)))."""
    xp = ctx.xp
    if approximate:
        inner = _SQRT_2_OVER_PI * (x + _GELU_CONSTANT * (x * x * x))
        return x * 0.5 * (1 + xp.tanh(inner))
    native = native_function(x, "gelu")
    if native is not None:  # the C library's erf, as PHI's CPU kernel: one pass
        out = np.empty(x.shape, x.dtype)  # (ascontiguousarray makes a 0-D array 1-D)
        native(x if x.flags.c_contiguous else np.ascontiguousarray(x), out, x.size)
        return out
    return x * 0.5 * (1 + erf(xp, x * _SQRT_HALF))
