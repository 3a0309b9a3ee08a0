"""Grad kernels of the lookup and indexing ops: embedding, gather, gather_nd, index_select,
take_along_axis, masked_select, scatter, scatter_nd_add, put_along_axis, index_put.

A gather's gradient scatter-adds ``out_grad`` back to the positions it read (repeated indices
add up); a scatter's gradient for ``x`` is ``out_grad`` with the overwritten positions zeroed and
for ``updates`` the gather of ``out_grad`` at the index, as PHI's CPU grad kernels compute them.
"""

from __future__ import annotations

from typing import Any

from runtime.common import DataType
from runtime.errors import UnimplementedError
from runtime.kernels.impl.gather_scatter_kernel import (
    ALONG_AXIS_DTYPES,
    GATHER_DTYPES,
    INDEX_PUT_DTYPES,
    INDEX_SELECT_DTYPES,
    MASKED_SELECT_DTYPES,
    SCATTER_DTYPES,
    SCATTER_ND_ADD_DTYPES,
    along_axis_index,
    check_reduce,
    flat_index,
    index_put_positions,
    nd_coordinates,
)
from runtime.kernels.kernel import Array, Kernel, KernelContext
from runtime.kernels.registration import register_kernel

D = DataType

EMBEDDING_GRAD_DTYPES = (D.FLOAT16, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


def _any_dtype(*positions: int) -> Any:
    def configure(kernel: Kernel) -> None:
        for position in positions:
            kernel.input_at(position).set_dtype(DataType.ALL_DTYPE)

    return configure


def reduce_to_shape(xp: Any, grad: Array, shape: tuple[int, ...]) -> Array:
    """``grad`` summed over the axes that broadcasting ``shape`` to ``grad.shape`` created."""
    if tuple(grad.shape) == tuple(shape):
        return grad
    extra = grad.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(
        extra + i for i, n in enumerate(shape) if n == 1 and grad.shape[extra + i] != 1
    )
    return grad.sum(axis=axes, keepdims=True).reshape(shape) if axes else grad.reshape(shape)


@register_kernel("embedding_grad", dtypes=EMBEDDING_GRAD_DTYPES, configure=_any_dtype(0, 1))
def embedding_grad_kernel(
    ctx: KernelContext, x: Array, weight: Array, out_grad: Array, padding_idx: int
) -> Array:
    xp = ctx.xp
    rows, width = weight.shape
    grad = xp.zeros((rows, width), dtype=out_grad.dtype)
    ids = x.reshape(-1)
    xp.add.at(grad, ids, out_grad.reshape(-1, width))
    if padding_idx != -1:
        grad[padding_idx + rows if padding_idx < 0 else padding_idx] = 0
    return grad


@register_kernel("gather_grad", dtypes=GATHER_DTYPES, configure=_any_dtype(0, 1))
def gather_grad_kernel(
    ctx: KernelContext, x: Array, index: Array, out_grad: Array, axis: int
) -> Array:
    xp = ctx.xp
    a = int(axis)  # a Scalar: 1.0 is axis 1 (InferMeta checked it is whole)
    a = a + x.ndim if a < 0 else a
    grad = xp.zeros(x.shape, dtype=out_grad.dtype)
    moved = xp.moveaxis(grad, a, 0)
    source = xp.moveaxis(out_grad.reshape(x.shape[:a] + (-1,) + x.shape[a + 1 :]), a, 0)
    xp.add.at(moved, flat_index(index), source)
    return grad


@register_kernel("gather_nd_grad", dtypes=GATHER_DTYPES, configure=_any_dtype(0, 1))
def gather_nd_grad_kernel(ctx: KernelContext, x: Array, index: Array, out_grad: Array) -> Array:
    xp = ctx.xp
    grad = xp.zeros(x.shape, dtype=out_grad.dtype)
    if index.shape[-1] == 0:
        return grad + out_grad.reshape((-1,) + tuple(x.shape)).sum(axis=0)
    xp.add.at(grad, nd_coordinates(xp, x, index, "gather_nd_grad"), out_grad)
    return grad


@register_kernel("index_select_grad", dtypes=INDEX_SELECT_DTYPES, configure=_any_dtype(0, 1))
def index_select_grad_kernel(
    ctx: KernelContext, x: Array, index: Array, out_grad: Array, axis: int
) -> Array:
    return gather_grad_kernel(ctx, x, index, out_grad, axis)


@register_kernel("take_along_axis_grad", dtypes=ALONG_AXIS_DTYPES, configure=_any_dtype(1))
def take_along_axis_grad_kernel(
    ctx: KernelContext, arr: Array, indices: Array, out_grad: Array, axis: int
) -> Array:
    xp = ctx.xp
    grad = xp.zeros(arr.shape, dtype=out_grad.dtype)
    xp.add.at(grad, along_axis_index(xp, arr, indices, axis, "take_along_axis_grad"), out_grad)
    return grad


@register_kernel("masked_select_grad", dtypes=MASKED_SELECT_DTYPES, configure=_any_dtype(0, 1))
def masked_select_grad_kernel(ctx: KernelContext, x: Array, mask: Array, out_grad: Array) -> Array:
    xp = ctx.xp
    shape = xp.broadcast_shapes(x.shape, mask.shape)
    grad = xp.zeros(shape, dtype=out_grad.dtype)
    grad[xp.broadcast_to(mask, shape)] = out_grad
    return reduce_to_shape(xp, grad, tuple(x.shape))


@register_kernel("scatter_grad", dtypes=SCATTER_DTYPES, configure=_any_dtype(0, 1))
def scatter_grad_kernel(
    ctx: KernelContext, index: Array, updates: Array, out_grad: Array, overwrite: bool
) -> tuple[Array, Array]:
    xp = ctx.xp
    rows = flat_index(index)
    x_grad = out_grad.copy()
    x_grad[rows] = 0
    updates_grad = xp.take(out_grad, rows, axis=0).reshape(updates.shape)
    return x_grad, updates_grad


@register_kernel("scatter_nd_add_grad", dtypes=SCATTER_ND_ADD_DTYPES, configure=_any_dtype(0, 1))
def scatter_nd_add_grad_kernel(
    ctx: KernelContext, index: Array, updates: Array, out_grad: Array
) -> tuple[Array, Array]:
    xp = ctx.xp
    if index.shape[-1] == 0:
        updates_grad = xp.broadcast_to(out_grad, updates.shape).copy()
    else:
        updates_grad = out_grad[nd_coordinates(xp, out_grad, index, "scatter_nd_add_grad")]
    return out_grad.copy(), updates_grad.reshape(updates.shape)


@register_kernel("put_along_axis_grad", dtypes=ALONG_AXIS_DTYPES, configure=_any_dtype(1, 3))
def put_along_axis_grad_kernel(
    ctx: KernelContext,
    arr: Array,
    indices: Array,
    values: Array,
    out: Array,
    out_grad: Array,
    axis: int,
    reduce: str,
    include_self: bool,
) -> tuple[Array, Array]:
    xp = ctx.xp
    check_reduce(reduce, "put_along_axis_grad")
    where = along_axis_index(xp, arr, indices, axis, "put_along_axis_grad")
    if reduce == "assign" or (reduce == "add" and not include_self):
        arr_grad = out_grad.copy()
        arr_grad[where] = 0
    elif reduce == "add":
        arr_grad = out_grad.copy()
    else:
        raise UnimplementedError(
            f"put_along_axis_grad: the gradient of reduce={reduce!r} is not implemented; "
            "'assign' and 'add' are"
        )
    values_grad = out_grad[where].astype(out_grad.dtype, copy=True)
    return arr_grad, reduce_to_shape(xp, values_grad, tuple(values.shape))


@register_kernel("index_put_grad", dtypes=INDEX_PUT_DTYPES, configure=_any_dtype(1))
def index_put_grad_kernel(
    ctx: KernelContext,
    x: Array,
    indices: list[Array],
    value: Array,
    out_grad: Array,
    accumulate: bool,
) -> tuple[Array, Array]:
    xp = ctx.xp
    where = index_put_positions(xp, x, indices, "index_put_grad")
    x_grad = out_grad.copy()
    if not accumulate:
        x_grad[where] = 0
    value_grad = reduce_to_shape(xp, out_grad[where], tuple(value.shape))
    return x_grad, value_grad
