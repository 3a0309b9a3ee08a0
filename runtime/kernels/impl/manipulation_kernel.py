"""Shape manipulation kernels: reshape, transpose, squeeze, unsqueeze, flatten, expand.

reshape, squeeze, unsqueeze and flatten are view ops (``view : (x -> out)``): they return
``x.reshape(...)``, which shares memory with ``x`` whenever the array module can. transpose
returns the array module's transposed view. expand returns a new contiguous array, as PHI's
ExpandKernel does, so that its output never aliases ``x``. Shapes come from the same helpers
as the InferMeta functions, so kernels and InferMeta cannot disagree.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.infermeta.unary import (
    expand_out_dims,
    flatten_out_dims,
    reshape_out_dims,
    squeeze_out_dims,
    unsqueeze_out_dims,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

# PaddlePaddle registers reshape for ALL_DTYPE (PD_REGISTER_GENERAL_KERNEL) and the others for
# bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex64 and
# complex128: ALL_TYPES without bfloat16.
RESHAPE_DTYPES = (DataType.ALL_DTYPE,)
MANIPULATION_DTYPES = ALL_TYPES
# transpose (and cast) take the unsigned 16/32/64-bit dtypes as well
UNSIGNED_WIDE = (DataType.UINT16, DataType.UINT32, DataType.UINT64)


@register_kernel("reshape", dtypes=RESHAPE_DTYPES)
def reshape_kernel(ctx: KernelContext, x: Array, shape: tuple[int, ...]) -> Array:
    # Without a 0 (copy the input dimension), the array module resolves -1 itself.
    return x.reshape(reshape_out_dims(shape, x.shape) if 0 in shape else shape)


@register_kernel("transpose", dtypes=MANIPULATION_DTYPES + UNSIGNED_WIDE)
def transpose_kernel(ctx: KernelContext, x: Array, perm: tuple[int, ...]) -> Array:
    # The method, not xp.transpose: that Python-level wrapper costs more than the transpose.
    return x.transpose(perm)


@register_kernel("squeeze", dtypes=MANIPULATION_DTYPES)
def squeeze_kernel(ctx: KernelContext, x: Array, axis: tuple[int, ...]) -> Array:
    return x.reshape(squeeze_out_dims(axis, x.shape))


@register_kernel("unsqueeze", dtypes=MANIPULATION_DTYPES)
def unsqueeze_kernel(ctx: KernelContext, x: Array, axis: tuple[int, ...]) -> Array:
    return x.reshape(unsqueeze_out_dims(axis, x.shape))


@register_kernel("flatten", dtypes=MANIPULATION_DTYPES)
def flatten_kernel(ctx: KernelContext, x: Array, start_axis: int, stop_axis: int) -> Array:
    return x.reshape(flatten_out_dims(start_axis, stop_axis, x.shape))


@register_kernel("expand", dtypes=MANIPULATION_DTYPES)
def expand_kernel(ctx: KernelContext, x: Array, shape: tuple[int, ...]) -> Array:
    # A copy: ascontiguousarray would make a 0-D result 1-D, and hand back the read-only
    # broadcast view itself (x's memory) when the shape does not change.
    return ctx.xp.broadcast_to(x, expand_out_dims(shape, x.shape)).copy()
