"""Kernels of the basic24 ops of issue 24 (creation, utility, framework and small manipulation
ops), for the dtypes PaddlePaddle 3.3.1 registers on CPU (paddle/phi/kernels/cpu/<op>_kernel.cc).

PHI's semantics, checked against 3.3.1:

- fill: every element set to ``value`` converted to x's dtype as ``Scalar::to<T>()`` does (a C++
  cast: toward zero for integers, nonzero is True for bool); a converted value that is NaN is an
  error (PHI: "fill value should not be NaN"). NaN, inf or a value outside an integer dtype's
  range, undefined in C++, is an error here too.
- increment: ``x + static_cast<T>(value)`` on a one-element x, value held as a float32 (so a
  float64 x gets 2 - 1.7f = 0.29999995...); an integer dtype truncates it toward zero first
  (3.3.1: 3 + 1.7 gives 4 in int32).
- full_ reuses ``full`` and assign_out_ reuses ``assign`` (runtime/kernels/impl/full_kernel.py,
  cast_kernel.py), as PHI's specs do.
"""

from __future__ import annotations

import math

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

D = DataType

# PaddlePaddle 3.3.1 registers fill on CPU for every dtype numpy holds, uint16, uint32 and uint64
# included (and the float8 types, which numpy lacks).
FILL_DTYPES = ALL_TYPES + (D.UINT16, D.UINT32, D.UINT64)
INCREMENT_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)


def cast_like_cpp(value: bool | int | float, dtype: np.dtype, op: str, arg: str) -> object:
    """``value`` converted to ``dtype`` as a C++ ``static_cast`` does where that is defined;
    NaN, inf or a value outside an integer dtype's range is an InvalidArgumentError."""
    if dtype.kind == "b":
        return bool(value)
    if dtype.kind in "iu":
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidArgumentError(
                f"{op}(): argument '{arg}': {value!r} cannot be converted to {dtype}"
            )
        whole = int(value)
        info = np.iinfo(dtype)
        if not info.min <= whole <= info.max:
            raise InvalidArgumentError(
                f"{op}(): argument '{arg}': {value!r} is out of range for {dtype}: it must lie "
                f"in [{info.min}, {info.max}]"
            )
        return whole
    return value


@register_kernel("fill", dtypes=FILL_DTYPES)
def fill_kernel(ctx: KernelContext, x: Array, value: bool | int | float) -> Array:
    if isinstance(value, float) and math.isnan(value):
        raise InvalidArgumentError("fill(): argument 'value': the fill value must not be NaN")
    fill_value = cast_like_cpp(value, x.dtype, "fill", "value")
    out = ctx.xp.empty(x.shape, dtype=x.dtype)
    with np.errstate(over="ignore"):
        out.fill(fill_value)
    return out


@register_kernel("increment", dtypes=INCREMENT_DTYPES)
def increment_kernel(ctx: KernelContext, x: Array, value: float) -> Array:
    # value is a float attribute: a float32, as PHI holds it, converted to x's dtype
    step = x.dtype.type(cast_like_cpp(float(np.float32(value)), x.dtype, "increment", "value"))
    with np.errstate(over="ignore"):
        return x + step
