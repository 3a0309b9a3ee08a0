"""Logical kernels: logical_and, logical_or, logical_xor, logical_not.

Inputs of any registered dtype count as true where nonzero; the output is bool. The ops'
``kernel.data_type: x`` makes x's dtype the kernel dtype, so ``y`` arrives cast to it. Complex
inputs are compared with zero first: numpy's logical ufuncs take complex arrays, CuPy's do not.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import SIGNED_INTEGRAL, register_kernel

D = DataType

# PaddlePaddle's CPU registration (paddle/phi/kernels/cpu/logical_kernel.cc).
LOGICAL_DTYPES = (D.BOOL,) + SIGNED_INTEGRAL + (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


def _bool_output(kernel: Kernel) -> None:
    kernel.output_at(0).set_dtype(DataType.BOOL)


def _truth(x: Array) -> Array:
    """``x`` as the logical ufuncs read it; complex as ``x != 0``, which every backend has."""
    return x != 0 if x.dtype.kind == "c" else x


@register_kernel("logical_and", dtypes=LOGICAL_DTYPES, configure=_bool_output)
def logical_and_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.logical_and(_truth(x), _truth(y))


@register_kernel("logical_or", dtypes=LOGICAL_DTYPES, configure=_bool_output)
def logical_or_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.logical_or(_truth(x), _truth(y))


@register_kernel("logical_xor", dtypes=LOGICAL_DTYPES, configure=_bool_output)
def logical_xor_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.logical_xor(_truth(x), _truth(y))


@register_kernel("logical_not", dtypes=LOGICAL_DTYPES, configure=_bool_output)
def logical_not_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.logical_not(_truth(x))
