"""Logic and bit kernels: all, any, isnan, isinf, isfinite, bitwise_and/or/xor/not,
allclose, isclose. Dtypes are PaddlePaddle 3.3.1's CPU registrations (checked by calling its
ops), without bfloat16; every output but the bitwise ones is bool."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.reduce_kernel import reduction_axes
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

ALL_ANY_DTYPES = (D.BOOL, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
ISNAN_DTYPES = (
    D.INT32,
    D.INT64,
    D.FLOAT16,
    D.BFLOAT16,
    D.FLOAT32,
    D.FLOAT64,
    D.COMPLEX64,
    D.COMPLEX128,
)
ISINF_DTYPES = (D.UINT8, D.INT8, D.INT16) + ISNAN_DTYPES
BITWISE_DTYPES = (D.BOOL, D.UINT8, D.INT8, D.INT16, D.INT32, D.INT64)
ALLCLOSE_DTYPES = (D.BOOL, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)
ISCLOSE_DTYPES = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


def _bool_output(kernel: Kernel) -> None:
    kernel.output_at(0).set_dtype(DataType.BOOL)


@register_kernel("all", dtypes=ALL_ANY_DTYPES, configure=_bool_output)
def all_kernel(ctx: KernelContext, x: Array, axis: tuple[int, ...], keepdim: bool) -> Array:
    """True where every element along ``axis`` (every axis when empty) is nonzero."""
    return ctx.xp.all(x, axis=reduction_axes(axis, x.ndim), keepdims=keepdim)


@register_kernel("any", dtypes=ALL_ANY_DTYPES, configure=_bool_output)
def any_kernel(ctx: KernelContext, x: Array, axis: tuple[int, ...], keepdim: bool) -> Array:
    """True where some element along ``axis`` (every axis when empty) is nonzero."""
    return ctx.xp.any(x, axis=reduction_axes(axis, x.ndim), keepdims=keepdim)


@register_kernel("isnan", dtypes=ISNAN_DTYPES, configure=_bool_output)
def isnan_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.isnan(x)


@register_kernel("isinf", dtypes=ISINF_DTYPES, configure=_bool_output)
def isinf_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.isinf(x)


@register_kernel("isfinite", dtypes=ISNAN_DTYPES, configure=_bool_output)
def isfinite_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.isfinite(x)


@register_kernel("bitwise_and", dtypes=BITWISE_DTYPES)
def bitwise_and_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """x & y; logical and for bool."""
    return ctx.xp.bitwise_and(x, y)


@register_kernel("bitwise_or", dtypes=BITWISE_DTYPES)
def bitwise_or_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.bitwise_or(x, y)


@register_kernel("bitwise_xor", dtypes=BITWISE_DTYPES)
def bitwise_xor_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.bitwise_xor(x, y)


@register_kernel("bitwise_not", dtypes=BITWISE_DTYPES)
def bitwise_not_kernel(ctx: KernelContext, x: Array) -> Array:
    """~x (two's complement); logical not for bool."""
    return ctx.xp.invert(x)


def close_elements(
    xp: object, x: Array, y: Array, rtol: float, atol: float, equal_nan: bool
) -> Array:
    """PHI's IsClose/AllClose element test: a == b, or |a - b| <= atol + rtol * |b|, or the two
    sides within 1e-15; a nan is close only to a nan, and only with ``equal_nan``. (So -inf is
    close to inf: both sides are inf.) Integers and bools are compared as float64."""
    if x.dtype.kind in "biu":
        x, y = x.astype(xp.float64), y.astype(xp.float64)
    left = xp.abs(x - y)
    right = atol + rtol * xp.abs(y)
    close = (x == y) | (left <= right) | (xp.abs(left - right) <= 1e-15)
    x_nan, y_nan = xp.isnan(x), xp.isnan(y)
    either_nan = x_nan | y_nan
    nan_result = (x_nan & y_nan) if equal_nan else xp.zeros_like(either_nan)
    return xp.where(either_nan, nan_result, close)


@register_kernel("allclose", dtypes=ALLCLOSE_DTYPES, configure=_bool_output)
@ieee_results
def allclose_kernel(
    ctx: KernelContext, x: Array, y: Array, rtol: float, atol: float, equal_nan: bool
) -> Array:
    """Whether every element pair is close (``close_elements``); true for empty tensors."""
    xp = ctx.xp
    return xp.asarray(xp.all(close_elements(xp, x, y, rtol, atol, equal_nan)))


@register_kernel("isclose", dtypes=ISCLOSE_DTYPES, configure=_bool_output)
@ieee_results
def isclose_kernel(
    ctx: KernelContext, x: Array, y: Array, rtol: float, atol: float, equal_nan: bool
) -> Array:
    """Whether each element pair is close (``close_elements``)."""
    return close_elements(ctx.xp, x, y, rtol, atol, equal_nan)
