"""Whole-tensor predicates of issue 24 (losscum family): is_empty and equal_all, for the dtypes
PaddlePaddle 3.3.1 registers on CPU (paddle/phi/kernels/cpu/is_empty_kernel.cc,
compare_kernel.cc). Both give a 0-D bool tensor; equal_all is false for different shapes
(broadcastable ones too) and for any NaN, as PHI's element-by-element == is."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

IS_EMPTY_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
EQUAL_ALL_DTYPES = (D.BOOL, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)


def _bool_output(kernel: Kernel) -> None:
    kernel.output_at(0).set_dtype(DataType.BOOL)


@register_kernel("is_empty", dtypes=IS_EMPTY_DTYPES, configure=_bool_output)
def is_empty_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.asarray(x.size == 0)


@register_kernel("equal_all", dtypes=EQUAL_ALL_DTYPES, configure=_bool_output)
def equal_all_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    xp = ctx.xp
    if x.shape != y.shape:
        return xp.asarray(False)
    return xp.asarray(bool(xp.all(x == y)))
