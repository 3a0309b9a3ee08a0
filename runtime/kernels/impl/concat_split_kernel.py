"""concat, split and stack.

Inputs arrive checked by ConcatInferMeta / SplitInferMeta / StackInferMeta. concat and stack
receive their tensors already cast to the kernel dtype (the highest of the inputs'). split
returns views of ``x`` along ``axis``; a -1 section takes what the others leave.
"""

from __future__ import annotations

from phiops.runtime.infermeta.unary import split_axis, split_sections
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

# PaddlePaddle registers concat, split and stack on CPU for bool, uint8, int8, int16, int32,
# int64, float16, bfloat16, float32, float64, complex64 and complex128: ALL_TYPES without
# bfloat16.
CONCAT_SPLIT_DTYPES = ALL_TYPES


@register_kernel("concat", dtypes=CONCAT_SPLIT_DTYPES)
def concat_kernel(ctx: KernelContext, x: list[Array], axis: int) -> Array:
    return ctx.xp.concatenate(x, axis=axis)


@register_kernel("split", dtypes=CONCAT_SPLIT_DTYPES)
def split_kernel(ctx: KernelContext, x: Array, sections: tuple[int, ...], axis: int) -> list[Array]:
    index = split_axis(axis, x.shape)
    pieces = []
    start = 0
    cut = [slice(None)] * x.ndim
    for section in split_sections(sections, index, x.shape):
        cut[index] = slice(start, start + section)
        pieces.append(x[tuple(cut)])
        start += section
    return pieces


@register_kernel("stack", dtypes=CONCAT_SPLIT_DTYPES)
def stack_kernel(ctx: KernelContext, x: list[Array], axis: int) -> Array:
    return ctx.xp.stack(x, axis=axis)
