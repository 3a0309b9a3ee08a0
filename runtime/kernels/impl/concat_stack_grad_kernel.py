"""Grad kernels of concat and stack (split_grad is concat itself: ``invoke : concat``).

concat_grad cuts ``out_grad`` along ``axis`` into pieces the sizes of the ``x`` tensors there
(``x`` is ``no_need_buffer``: only shapes and dtypes are read, so it is never cast; each piece
takes its tensor's dtype, since concat may have promoted mixed inputs). stack_grad unstacks
``out_grad`` along ``axis``: one gradient per index of that axis (its kernel does not receive
``x``). Both return views of ``out_grad``, as PHI's kernels share its memory when they can.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

# PaddlePaddle 3.3.1's CPU registrations: every dtype, concat_grad without bfloat16
STACK_GRAD_DTYPES = ALL_TYPES
CONCAT_GRAD_DTYPES = tuple(d for d in ALL_TYPES if d is not DataType.BFLOAT16)


def _shape_only_x(kernel: Kernel) -> None:
    kernel.input_at(0).set_dtype(DataType.ALL_DTYPE)


@register_kernel("concat_grad", dtypes=CONCAT_GRAD_DTYPES, configure=_shape_only_x)
def concat_grad_kernel(
    ctx: KernelContext, x: list[Array], out_grad: Array, axis: int
) -> list[Array]:
    index = axis + out_grad.ndim if axis < 0 else axis
    cut = [slice(None)] * out_grad.ndim
    pieces = []
    start = 0
    for item in x:
        size = item.shape[index]
        cut[index] = slice(start, start + size)
        pieces.append(out_grad[tuple(cut)].astype(item.dtype, copy=False))
        start += size
    return pieces


@register_kernel("stack_grad", dtypes=STACK_GRAD_DTYPES)
def stack_grad_kernel(ctx: KernelContext, out_grad: Array, axis: int) -> list[Array]:
    index = axis + out_grad.ndim if axis < 0 else axis
    lead = (slice(None),) * index
    return [out_grad[lead + (i,)] for i in range(out_grad.shape[index])]
