"""assign_value and assign_value_: a tensor of ``shape`` and ``dtype`` holding ``values``.

PHI's AssignValueKernel (paddle/phi/kernels/assign_kernel.cc) converts each Scalar with
``Scalar::to<T>``, a C++ cast: toward zero for integers and for bool (then nonzero is True, so
0.5 is False, as PaddlePaddle 3.3.1 gives), the real part of a complex value for a real dtype. Where PHI copies fewer values than the shape holds (leaving
the rest uninitialised) or drops the extra ones, phiops raises; a value that does not fit an
integer dtype (NaN, inf, out of range: undefined in C++) is an error too. Errors name
``assign_value``, the kernel both ops run, as PHI's do.
"""

from __future__ import annotations

import math

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

# PaddlePaddle 3.3.1's CPU registrations
ASSIGN_VALUE_DTYPES = (
    D.BFLOAT16,
    D.BOOL,
    D.INT8,
    D.INT32,
    D.INT64,
    D.FLOAT16,
    D.FLOAT32,
    D.FLOAT64,
    D.COMPLEX64,
    D.COMPLEX128,
)


def _converted(value: bool | int | float | complex, dtype: np.dtype, position: int) -> object:
    if dtype.kind == "c":
        return value
    if isinstance(value, complex):
        value = value.real
    if dtype.kind == "b":
        # PaddlePaddle 3.3.1 gives False for 0.5 and -0.5: the value goes through an integer
        return bool(math.trunc(value)) if math.isfinite(value) else True
    if dtype.kind in "iu":
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidArgumentError(
                f"argument 'values[{position}]' {value!r} cannot be converted " f"to {dtype}"
            )
        info = np.iinfo(dtype)
        if not info.min <= math.trunc(value) <= info.max:
            raise InvalidArgumentError(
                f"argument 'values[{position}]' {value!r} is out of the range "
                f"of {dtype} [{info.min}, {info.max}]"
            )
        return math.trunc(value)
    return value


@register_kernel("assign_value", dtypes=ASSIGN_VALUE_DTYPES)
def assign_value_kernel(
    ctx: KernelContext,
    shape: tuple[int, ...],
    dtype: DataType,
    values: tuple[bool | int | float | complex, ...],
) -> Array:
    count = math.prod(shape)
    if len(values) != count:
        raise InvalidArgumentError(
            f"argument 'values' must hold one value per element of argument 'shape' "
            f"{list(shape)} ({count}), got {len(values)}"
        )
    np_dtype = dtype.numpy_dtype
    converted = [_converted(value, np_dtype, i) for i, value in enumerate(values)]
    return ctx.xp.asarray(np.array(converted, dtype=np_dtype).reshape(shape))
