"""Comparison kernels: equal, not_equal, greater_than, greater_equal, less_than, less_equal.

The output is bool whatever the input dtype. Semantics are PHI's compare functors
(paddle/phi/kernels/funcs/compare_functors.h):
- float32/float64 ``equal`` is approximate: |x - y| < 1e-8 (the difference taken in the input
  dtype, compared in double); infinities compare exactly and nan equals nothing. float16,
  integers, bool and complex compare exactly.
- complex numbers are ordered by their real parts, then their imaginary parts, as numpy orders
  them (PaddlePaddle 3.3.1: less_than(1+0j, 1+2j) is true).
"""

from __future__ import annotations

from types import ModuleType

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

# PaddlePaddle's CPU registration (paddle/phi/kernels/cpu/compare_kernel.cc) without bfloat16.
COMPARE_DTYPES = ALL_TYPES

# PHI's EqualFunctor tolerance for std::is_floating_point types (float, double).
EQUAL_TOLERANCE = 1e-8


def _bool_output(kernel: Kernel) -> None:
    kernel.output_at(0).set_dtype(DataType.BOOL)


def _equal(xp: ModuleType, x: Array, y: Array) -> Array:
    if x.dtype.kind != "f" or x.dtype.itemsize < 4:
        return xp.equal(x, y)
    close = xp.abs(x - y).astype(xp.float64, copy=False) < EQUAL_TOLERANCE
    infinite = xp.isinf(x) | xp.isinf(y)
    return xp.where(infinite, xp.equal(x, y), close)


@register_kernel("equal", dtypes=COMPARE_DTYPES, configure=_bool_output)
@ieee_results
def equal_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return _equal(ctx.xp, x, y)


@register_kernel("not_equal", dtypes=COMPARE_DTYPES, configure=_bool_output)
@ieee_results
def not_equal_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.logical_not(_equal(ctx.xp, x, y))


@register_kernel("greater_than", dtypes=COMPARE_DTYPES, configure=_bool_output)
def greater_than_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.greater(x, y)


@register_kernel("greater_equal", dtypes=COMPARE_DTYPES, configure=_bool_output)
def greater_equal_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.greater_equal(x, y)


@register_kernel("less_than", dtypes=COMPARE_DTYPES, configure=_bool_output)
def less_than_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.less(x, y)


@register_kernel("less_equal", dtypes=COMPARE_DTYPES, configure=_bool_output)
def less_equal_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.less_equal(x, y)
