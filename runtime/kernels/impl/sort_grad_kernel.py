"""Grad kernels of argsort and topk: ``out_grad`` goes back to the positions ``indices`` name."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

ARGSORT_GRAD_DTYPES = (D.UINT8, D.INT16, D.INT32, D.INT64, D.FLOAT16, D.BFLOAT16, D.FLOAT32)
ARGSORT_GRAD_DTYPES += (D.FLOAT64,)
TOPK_GRAD_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)


def _indices_and_x_any_dtype(kernel: Kernel) -> None:
    kernel.input_at(0).set_dtype(DataType.ALL_DTYPE)
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)


@register_kernel("argsort_grad", dtypes=ARGSORT_GRAD_DTYPES, configure=_indices_and_x_any_dtype)
def argsort_grad_kernel(
    ctx: KernelContext,
    indices: Array,
    x: Array,
    out_grad: Array,
    axis: int,
    descending: bool,
    stable: bool,
) -> Array:
    xp = ctx.xp
    grad = xp.zeros(x.shape, dtype=out_grad.dtype)
    if x.ndim == 0:
        return out_grad.copy()
    xp.put_along_axis(grad, indices, out_grad, axis=axis)
    return grad


@register_kernel("topk_grad", dtypes=TOPK_GRAD_DTYPES, configure=_indices_and_x_any_dtype)
def topk_grad_kernel(
    ctx: KernelContext,
    x: Array,
    indices: Array,
    out_grad: Array,
    k: int,
    axis: int,
    largest: bool,
    sorted: bool,
) -> Array:
    xp = ctx.xp
    grad = xp.zeros(x.shape, dtype=out_grad.dtype)
    if x.ndim == 0:
        return out_grad.copy()
    xp.put_along_axis(grad, indices, out_grad, axis=axis)
    return grad
