"""Grad kernels of the manip24 ops of issue 24 (index_add_grad, expand_as_grad, multiplex_grad,
broadcast_tensors_grad, fill_diagonal_grad, fill_diagonal_tensor_grad), for the dtypes PaddlePaddle 3.3.1 registers on CPU.

- index_add_grad: ``x_grad`` is ``out_grad``; ``add_value_grad`` gathers ``out_grad``'s slices
  at ``index`` along ``axis``.
- expand_as_grad: ``out_grad`` summed over the axes the forward broadcast.
- multiplex_grad: row i of ``out_grad`` goes to row i of ``inputs_grad[index[i, 0]]``, every
  other row is zero.
- broadcast_tensors_grad: each ``out_grad`` summed over the axes its input was broadcast along.
- fill_diagonal_grad: ``out_grad`` with the positions the forward wrote set to zero.
- fill_diagonal_tensor_grad: ``out_grad`` with the filled diagonal set to zero; y gets no
  gradient, as PaddlePaddle 3.3.1's backward op has none.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.elementwise_grad_kernel import reduce_to_shape
from phiops.runtime.kernels.impl.manip24_kernel import (
    FILL_DIAGONAL_TENSOR_DTYPES,
    any_dtype,
    checked_index,
    diagonal_positions,
    diagonal_view,
    diagonal_walk,
)
from phiops.runtime.kernels.impl.manipulation_grad_kernel import expand_grad_kernel
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

INDEX_ADD_GRAD_DTYPES = (D.FLOAT16, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
EXPAND_AS_GRAD_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
MULTIPLEX_GRAD_DTYPES = (D.COMPLEX128, D.COMPLEX64, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
BROADCAST_TENSORS_GRAD_DTYPES = (D.COMPLEX128, D.COMPLEX64, D.FLOAT16, D.FLOAT32, D.FLOAT64)
BROADCAST_TENSORS_GRAD_DTYPES += (D.INT32, D.INT64)
FILL_DIAGONAL_GRAD_DTYPES = (D.BOOL, D.FLOAT16, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)


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


@register_kernel("broadcast_tensors_grad", dtypes=BROADCAST_TENSORS_GRAD_DTYPES)
def broadcast_tensors_grad_kernel(
    ctx: KernelContext, input: list[Array], out_grad: list[Array]
) -> list[Array]:
    xp = ctx.xp
    grads = [reduce_to_shape(xp, grad, tuple(x.shape)) for x, grad in zip(input, out_grad)]
    return [g.copy() if g is grad else g for g, grad in zip(grads, out_grad)]


@register_kernel("fill_diagonal_grad", dtypes=FILL_DIAGONAL_GRAD_DTYPES)
def fill_diagonal_grad_kernel(
    ctx: KernelContext, out_grad: Array, value: float, offset: int, wrap: bool
) -> Array:
    xp = ctx.xp
    x_grad = out_grad.copy()
    x_grad.reshape(-1)[diagonal_walk(xp, out_grad.shape, offset, wrap)] = 0
    return x_grad


@register_kernel("fill_diagonal_tensor_grad", dtypes=FILL_DIAGONAL_TENSOR_DTYPES)
def fill_diagonal_tensor_grad_kernel(
    ctx: KernelContext, out_grad: Array, offset: int, dim1: int, dim2: int
) -> Array:
    x_grad = out_grad.copy()
    view = diagonal_view(x_grad, dim1, dim2)
    rows, cols = diagonal_positions(ctx.xp, view.shape[-2], view.shape[-1], offset)
    view[..., rows, cols] = 0
    return x_grad
