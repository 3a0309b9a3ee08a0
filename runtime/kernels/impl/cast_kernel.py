"""cast and assign: element-type conversion and copy."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import Backend, DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

# PaddlePaddle's CPU registration (paddle/phi/kernels/cpu/cast_kernel.cc) without
# float8: the dtypes ``x`` may have; the target may be any dtype numpy has.
CAST_DTYPES = ALL_TYPES + (DataType.UINT16, DataType.UINT32, DataType.UINT64)


def _output_dtype_from_attribute(kernel: Kernel) -> None:
    """PHI: OutputAt(0).SetDataType(UNDEFINED), the output dtype is the ``dtype`` attribute."""
    kernel.output_at(0).set_dtype(DataType.UNDEFINED)


def _any_backend_input(kernel: Kernel) -> None:
    """PHI registers assign for every dtype, with InputAt(0).SetBackend(ALL_BACKEND)."""
    kernel.input_at(0).set_backend(Backend.ALL_BACKEND)


@register_kernel("cast", dtypes=CAST_DTYPES, configure=_output_dtype_from_attribute)
def cast_kernel(ctx: KernelContext, x: Array, dtype: DataType) -> Array:
    """x converted to ``dtype`` as C++'s static_cast converts each element: floats to integers
    truncate toward zero (out-of-range values and nan give unspecified integers), anything to
    bool is ``!= 0`` (nan is true), complex to a real type keeps the real part. Always a copy,
    also when the dtype does not change."""
    try:
        target = _SAFE_CASTS[dtype][x.dtype]
    except KeyError:
        target = _safe_target(x.dtype, dtype)
    if target is not None:
        return x.astype(target)
    return _converted(ctx, x, dtype)


# target DataType -> source numpy dtype -> the target numpy dtype when numpy casts every value of
# the source exactly (``np.can_cast(..., "safe")``: float32 -> float64, int32 -> int64), so no
# floating-point warning can arise and no warning state needs setting; None for the others.
# Nested rather than keyed by pairs: two lookups without building and hashing a tuple.
_SAFE_CASTS: dict[DataType, dict[object, object]] = {}


def _safe_target(source: object, dtype: DataType) -> object:
    target = dtype.numpy_dtype
    safe = target if np.can_cast(source, target, "safe") else None
    _SAFE_CASTS.setdefault(dtype, {})[source] = safe
    return safe


@ieee_results
def _converted(ctx: KernelContext, x: Array, dtype: DataType) -> Array:
    target = dtype.numpy_dtype
    if x.dtype.kind == "c" and target.kind != "c":
        if target.kind == "b":
            return ctx.xp.not_equal(x, 0)
        x = x.real
    return x.astype(target, copy=True)


@register_kernel("assign", dtypes=(DataType.ALL_DTYPE,), configure=_any_backend_input)
def assign_kernel(ctx: KernelContext, x: Array) -> Array:
    """A copy of x (never a view of it)."""
    return x.copy()
