"""Binary arithmetic kernels: add, subtract, multiply, divide, maximum, minimum, fmax, fmin,
elementwise_pow, floor_divide, remainder.

Inputs arrive broadcast-compatible and already cast to the kernel dtype, so ``x`` and ``y``
share one dtype; numpy/CuPy broadcasting gives the shape ElementwiseInferMeta computed.
The dtype lists are PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/elementwise_*.cc)
(bfloat16 arrays come from ml_dtypes).
"""

from __future__ import annotations

from types import ModuleType

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, KernelContext, array_ufunc
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.registration import ARITHMETIC, INTEGRAL, register_kernel

D = DataType

ADD_DTYPES = (D.BOOL,) + INTEGRAL + (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
SUBTRACT_DTYPES = (
    D.INT16,
    D.INT32,
    D.INT64,
    D.BFLOAT16,
    D.FLOAT32,
    D.FLOAT64,
    D.COMPLEX64,
    D.COMPLEX128,
)
MULTIPLY_DTYPES = (
    D.BOOL,
    D.INT32,
    D.INT64,
    D.BFLOAT16,
    D.FLOAT32,
    D.FLOAT64,
    D.COMPLEX64,
    D.COMPLEX128,
)
DIVIDE_DTYPES = (
    D.BOOL,
    D.UINT8,
    D.INT8,
    D.INT16,
    D.INT32,
    D.INT64,
    D.FLOAT32,
    D.FLOAT64,
    D.COMPLEX64,
    D.COMPLEX128,
)
MIN_MAX_DTYPES = (D.INT32, D.INT64, D.BFLOAT16, D.FLOAT32, D.FLOAT64)
FMAX_FMIN_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)
REMAINDER_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
FLOOR_DIVIDE_DTYPES = ARITHMETIC + (D.BFLOAT16,)
ELEMENTWISE_POW_DTYPES = (
    D.INT32,
    D.INT64,
    D.BFLOAT16,
    D.FLOAT32,
    D.FLOAT64,
    D.COMPLEX64,
    D.COMPLEX128,
)

# PHI's DIV_ERROR_INFO, raised by its integer divide/floor_divide/remainder functors.
INTEGER_DIVISION_BY_ZERO = (
    "Integer division by zero encountered in (floor) divide. Please check the input value."
)


def _round_half_away(xp: ModuleType, values: Array) -> Array:
    """C++ std::round: halves away from zero (numpy's round goes to even)."""
    return xp.sign(values) * xp.floor(xp.abs(values) + 0.5)


def _is_integer(array: Array) -> bool:
    return array.dtype.kind in "iu"


def _check_integer_divisor(xp: ModuleType, x: Array, y: Array) -> None:
    """InvalidArgumentError when an integer ``y`` holds a zero that reaches the output.

    PHI enforces this inside its integer functors; here it is one reduction before the
    division (a device synchronisation on GPU)."""
    if x.size and y.size and bool(xp.any(y == 0)):
        raise InvalidArgumentError(INTEGER_DIVISION_BY_ZERO)


@register_kernel("add", dtypes=ADD_DTYPES)
@array_ufunc("add")
def add_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """x + y; on bool this is logical or, as C++ bool arithmetic converted back to bool."""
    return ctx.xp.add(x, y)


@register_kernel("subtract", dtypes=SUBTRACT_DTYPES)
@array_ufunc("subtract")
def subtract_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.subtract(x, y)


@register_kernel("multiply", dtypes=MULTIPLY_DTYPES)
@array_ufunc("multiply")
def multiply_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """x * y; on bool this is logical and (PHI's MultiplyFunctor<bool>)."""
    return ctx.xp.multiply(x, y)


@register_kernel("divide", dtypes=DIVIDE_DTYPES)
@ieee_results
def divide_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """x / y. Integers divide as C++ does, truncating toward zero (-7 / 2 == -3), and a zero
    divisor raises InvalidArgumentError; floats follow IEEE (x / 0 is inf or nan)."""
    xp = ctx.xp
    if x.dtype.kind == "b":
        # C++ bool / bool: integer division, a false divisor raises; x / true is x.
        _check_integer_divisor(xp, x, y)
        return xp.broadcast_to(x, xp.broadcast_shapes(x.shape, y.shape)).copy()
    if not _is_integer(x):
        return xp.true_divide(x, y)
    _check_integer_divisor(xp, x, y)
    floored = xp.floor_divide(x, y)
    # Floor and truncation differ by one where the division is inexact and the signs differ.
    inexact = xp.not_equal(floored * y, x)
    return floored + (inexact & xp.not_equal(x < 0, y < 0)).astype(x.dtype)


@register_kernel("maximum", dtypes=MIN_MAX_DTYPES)
def maximum_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """PHI's MaximumFunctor ``a > b ? a : b``, with a nan in either input propagating (as
    PaddlePaddle 3.3.1's CPU kernel gives it); fmax is the one that ignores nan."""
    xp = ctx.xp
    return _nan_first(xp, x, xp.where(xp.greater(x, y), x, y))


@register_kernel("minimum", dtypes=MIN_MAX_DTYPES)
def minimum_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """PHI's MinimumFunctor ``a < b ? a : b``, with a nan in either input propagating."""
    xp = ctx.xp
    return _nan_first(xp, x, xp.where(xp.less(x, y), x, y))


def _nan_first(xp: ModuleType, x: Array, chosen: Array) -> Array:
    """``chosen`` with x's nans put back (a nan in y already wins both comparisons above)."""
    if x.dtype.kind in "iub":
        return chosen
    return xp.where(xp.isnan(x), x, chosen)


@register_kernel("fmax", dtypes=FMAX_FMIN_DTYPES)
def fmax_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """The larger of x and y, ignoring a nan (nan only where both are); y on a tie, so
    fmax(-0.0, 0.0) is 0.0 and fmax(0.0, -0.0) is -0.0, as PaddlePaddle's CPU kernel gives."""
    xp = ctx.xp
    return _ignoring_nan(xp, x, y, xp.where(xp.greater(x, y), x, y))


@register_kernel("fmin", dtypes=FMAX_FMIN_DTYPES)
def fmin_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """The smaller of x and y, ignoring a nan (nan only where both are); y on a tie."""
    xp = ctx.xp
    return _ignoring_nan(xp, x, y, xp.where(xp.less(x, y), x, y))


def _ignoring_nan(xp: ModuleType, x: Array, y: Array, chosen: Array) -> Array:
    """``chosen`` with the other input taken where one of x, y is nan."""
    if x.dtype.kind in "iub":
        return chosen
    return xp.where(xp.isnan(x), y, xp.where(xp.isnan(y), x, chosen))


@register_kernel("elementwise_pow", dtypes=ELEMENTWISE_POW_DTYPES)
@ieee_results
def elementwise_pow_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """x ** y. Integers are raised as PHI's CPU kernel does, by ``std::pow`` on doubles cast
    back to the integer type (truncating: 2 ** -1 == 0, (-2) ** -1 == 0, 1 ** -3 == 1).

    The exact power of integers is an integer (y >= 0) or, for y < 0, 0 truncated from at most
    0.5 in magnitude or +-1; rounding the double to the nearest integer gives that same result,
    also where a device's ``pow`` lands an ulp below the integer (seen with CuPy on an H200,
    where truncating gave 2 for a CPU result of 3)."""
    xp = ctx.xp
    if _is_integer(x):
        powered = xp.rint(xp.power(x.astype(xp.float64), y.astype(xp.float64)))
        # 0 ** -1 is inf in double; PaddlePaddle's integer result is 0 there.
        return xp.where(xp.isfinite(powered), powered, 0).astype(x.dtype)
    return xp.power(x, y)


@register_kernel("floor_divide", dtypes=FLOOR_DIVIDE_DTYPES)
@ieee_results
def floor_divide_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """floor(x / y), Python's ``//``: -7 // 2 == -4. A zero integer divisor raises
    InvalidArgumentError; a zero float divisor gives x / 0 (inf or nan), as in PHI."""
    xp = ctx.xp
    if _is_integer(x):
        _check_integer_divisor(xp, x, y)
    return xp.floor_divide(x, y)


@register_kernel("remainder", dtypes=REMAINDER_DTYPES)
@ieee_results
def remainder_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """x mod y with the sign of the divisor, Python's ``%``: -7 % 2 == 1, 7 % -2 == -1.

    Floats follow PHI's functor exactly: ``fmod`` plus y where the signs differ (a zero result
    keeps fmod's sign, x mod 0 is nan). A zero integer divisor raises InvalidArgumentError.
    Complex numbers as PaddlePaddle 3.3.1's CPU kernel computes them: x - y * q with q the
    quotient x / y rounded half away from zero, part by part (so 1 % 2 is -1 there)."""
    xp = ctx.xp
    if x.dtype.kind == "c":
        quotient = x / y
        rounded = _round_half_away(xp, quotient.real) + 1j * _round_half_away(xp, quotient.imag)
        return x - y * rounded.astype(x.dtype)
    if _is_integer(x):
        _check_integer_divisor(xp, x, y)
        return xp.remainder(x, y)
    result = xp.fmod(x, y)
    wrong_sign = xp.not_equal(result, 0) & xp.not_equal(result < 0, y < 0)
    return xp.where(wrong_sign, result + y, result)
