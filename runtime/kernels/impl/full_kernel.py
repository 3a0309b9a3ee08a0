"""Creation kernels: full and full_like (ones, zeros, ones_like, zeros_like invoke them).

Semantics are PHI's (paddle/phi/kernels/cpu/full_kernel.cc): ``full`` converts its value to the
output dtype as a C++ cast does (toward zero for integers, nonzero is True for bool), except
that NaN, inf or a value out of an integer dtype's range is an error (PaddlePaddle wraps it);
``full_like`` first checks that a real value lies in the output dtype's range (nan and inf are
allowed for floating types).
"""

from __future__ import annotations

import math

import numpy as np

from phiops.runtime.common import Backend, DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

# PaddlePaddle registers full and full_like on CPU for bool, uint8, int8, int16, int32, int64,
# float16, bfloat16, float32, float64, complex64, complex128 (and float8 for full): ALL_TYPES
# without the types numpy lacks.
FULL_DTYPES = ALL_TYPES


def _any_input(kernel: Kernel) -> None:
    # x only lends its shape: PHI lets it live on any backend; any dtype needs no cast.
    kernel.input_at(0).set_backend(Backend.ALL_BACKEND).set_dtype(DataType.ALL_DTYPE)


@register_kernel("full", dtypes=FULL_DTYPES)
def full_kernel(ctx: KernelContext, shape: tuple[int, ...], value: float, dtype: DataType) -> Array:
    np_dtype = dtype.numpy_dtype
    if np_dtype.kind in "iu":
        # An integer dtype: a C++ cast of NaN, inf or an out-of-range value is undefined, and
        # numpy wraps it silently; both are errors here.
        value = _checked_real(value, np_dtype, "full")
        return ctx.xp.full(shape, value, dtype=np_dtype)
    # empty + fill: the same values and warnings as xp.full for a float, complex or bool dtype,
    # without xp.full's Python-level wrapper (a third of the cost for a small tensor).
    out = ctx.xp.empty(shape, dtype=np_dtype)
    out.fill(value)
    return out


@register_kernel("full_like", dtypes=FULL_DTYPES, configure=_any_input)
def full_like_kernel(
    ctx: KernelContext, x: Array, value: bool | int | float | complex, dtype: DataType
) -> Array:
    out_dtype = x.dtype if dtype is DataType.UNDEFINED else dtype.numpy_dtype
    if out_dtype.kind != "c":
        value = _checked_real(value, out_dtype, "full_like")
    return ctx.xp.full(x.shape, value, dtype=out_dtype)


def _checked_real(
    value: bool | int | float | complex, dtype: np.dtype, op: str
) -> bool | int | float:
    if isinstance(value, complex):
        raise InvalidArgumentError(
            f"{op}(): argument 'value': a complex value {value!r} cannot fill a tensor of dtype "
            f"{dtype}"
        )
    if isinstance(value, float) and not math.isfinite(value):
        if dtype.kind == "f":
            return value
        raise InvalidArgumentError(
            f"{op}(): argument 'value': value {value!r} cannot fill a tensor of dtype {dtype}"
        )
    info = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype) if dtype.kind in "iu" else None
    low, high = (info.min, info.max) if info is not None else (0, 1)
    if not low <= value <= high:
        raise InvalidArgumentError(
            f"{op}(): argument 'value': value {value!r} is out of range for dtype {dtype}: it must lie "
            f"in [{low}, {high}]"
        )
    return value
