"""Grad kernels of the manip24 ops of issue 24 (index_add_grad, expand_as_grad, multiplex_grad),
for the dtypes PaddlePaddle 3.3.1 registers on CPU.

- index_add_grad: ``x_grad`` is ``out_grad``; ``add_value_grad`` gathers ``out_grad``'s slices
  at ``index`` along ``axis``.
- expand_as_grad: ``out_grad`` summed over the axes the forward broadcast.
- multiplex_grad: row i of ``out_grad`` goes to row i of ``inputs_grad[index[i, 0]]``, every
  other row is zero.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.manip24_kernel import any_dtype, checked_index
from phiops.runtime.kernels.impl.manipulation_grad_kernel import expand_grad_kernel
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

INDEX_ADD_GRAD_DTYPES = (D.FLOAT16, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
EXPAND_AS_GRAD_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
MULTIPLEX_GRAD_DTYPES = (D.COMPLEX128, D.COMPLEX64, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)


@register_kernel(
    "index_add_grad", dtypes=INDEX_ADD_GRAD_DTYPES, configure=lambda k: any_dtype(k, 0)
)
def index_add_grad_kernel(
    ctx: KernelContext, index: Array, add_value: Array, out_grad: Array, axis: int
) -> tuple[Array, Array]:
    xp = ctx.xp
    axis = axis + out_grad.ndim if axis < 0 else axis
    x_grad = out_grad.copy() if ctx.wants(0) else None
    value_grad = None
    if ctx.wants(1):
        where = checked_index(xp, index, out_grad.shape[axis], "index_add_grad")
        value_grad = xp.take(out_grad, where, axis=axis)
    return x_grad, value_grad


@register_kernel("expand_as_grad", dtypes=EXPAND_AS_GRAD_DTYPES)
def expand_as_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, target_shape: tuple[int, ...]
) -> Array:
    return expand_grad_kernel(ctx, x, out_grad, tuple(out_grad.shape))


@register_kernel(
    "multiplex_grad", dtypes=MULTIPLEX_GRAD_DTYPES, configure=lambda k: any_dtype(k, 1)
)
def multiplex_grad_kernel(
    ctx: KernelContext, inputs: list[Array], index: Array, out_grad: Array
) -> list[Array]:
    xp = ctx.xp
    rows = index.reshape(-1).astype(xp.int64)
    zero = xp.zeros((), dtype=out_grad.dtype)
    shape = (-1,) + (1,) * (out_grad.ndim - 1)
    return [xp.where((rows == k).reshape(shape), out_grad, zero) for k in range(len(inputs))]
