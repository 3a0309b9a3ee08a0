"""Grad kernels of the lookup and indexing ops: embedding, gather, gather_nd, index_select,
take_along_axis, masked_select, scatter, scatter_nd_add, put_along_axis, index_put.

A gather's gradient scatter-adds ``out_grad`` back to the positions it read (repeated indices
add up); a scatter's gradient for ``x`` is ``out_grad`` with the overwritten positions zeroed and
for ``updates`` the gather of ``out_grad`` at the index, as PHI's CPU grad kernels compute them.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.gather_scatter_kernel import (
    ALONG_AXIS_DTYPES,
    GATHER_DTYPES,
    GATHER_ND_DTYPES,
    INDEX_PUT_DTYPES,
    INDEX_SELECT_DTYPES,
    MASKED_SELECT_DTYPES,
    SCATTER_DTYPES,
    SCATTER_ND_ADD_DTYPES,
    along_axis_index,
    check_non_negative_index,
    check_reduce,
    flat_index,
    index_put_positions,
    nd_coordinates,
)
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

EMBEDDING_GRAD_DTYPES = (D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


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
    # as the forward op and PaddlePaddle 3.3.1's grad kernel: ids in [0, rows), else a named
    # error (not numpy's IndexError, nor a negative id wrapping to a row from the end)
    check_non_negative_index(xp, ids, rows, "embedding_grad", 0)
    scatter_at("add", grad, ids, out_grad.reshape(-1, width))
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
    scatter_at("add", moved, flat_index(index), source)
    return grad


@register_kernel("gather_nd_grad", dtypes=GATHER_ND_DTYPES, configure=_any_dtype(0, 1))
def gather_nd_grad_kernel(ctx: KernelContext, x: Array, index: Array, out_grad: Array) -> Array:
    xp = ctx.xp
    grad = xp.zeros(x.shape, dtype=out_grad.dtype)
    if index.shape[-1] == 0:
        return grad + out_grad.reshape((-1,) + tuple(x.shape)).sum(axis=0)
    scatter_at("add", grad, nd_coordinates(xp, x, index, "gather_nd_grad"), out_grad)
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
    where = along_axis_index(xp, arr, indices, axis, "take_along_axis_grad")
    scatter_at("add", grad, where, out_grad)
    return grad


@register_kernel("masked_select_grad", dtypes=MASKED_SELECT_DTYPES, configure=_any_dtype(0, 1))
def masked_select_grad_kernel(ctx: KernelContext, x: Array, mask: Array, out_grad: Array) -> Array:
    xp = ctx.xp
    shape = xp.broadcast_shapes(x.shape, mask.shape)
    grad = xp.zeros(shape, dtype=out_grad.dtype)
    selected = xp.broadcast_to(mask, shape)
    count = int(selected.sum())
    if tuple(out_grad.shape) != (count,):
        raise InvalidArgumentError(
            f"argument 'out_grad' must have dims [{count}] (masked_select's output: the {count} "
            f"true elements of mask), got {list(out_grad.shape)}"
        )
    grad[selected] = out_grad
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
    """PHI's PutAlongAxisGradKernel (funcs/gather_scatter_functor.cc), position by position.

    With p the position in ``arr`` each element i of ``indices`` writes to, n[p] how many
    elements write there and g = out_grad:

    - arr_grad is g, zeroed at every written position for ``assign`` or ``include_self=False``;
      otherwise divided there by n + 1 for ``mean``, multiplied by out / arr for ``mul``, and
      for ``amin``/``amax`` zeroed where arr lost (out != arr) and divided by m + 1 where it
      won, m counting the values that tie with it.
    - values_grad[i] is g[p] for the last element writing to p (``assign``; earlier ones get
      0), g[p] for ``add``, g[p] / (n[p] + include_self) for ``mean``, g[p] * (out[p] /
      value[i]) for ``mul``, and for ``amin``/``amax`` g[p] shared among the values equal to
      out[p] (and arr[p] when it equals out[p] too), 0 for the others.
    """
    xp = ctx.xp
    check_reduce(reduce, "put_along_axis_grad")
    where = along_axis_index(xp, arr, indices, axis, "put_along_axis_grad")
    position = xp.ravel_multi_index(
        tuple(xp.broadcast_to(w, indices.shape) for w in where), arr.shape
    ).reshape(-1)
    writes = xp.bincount(position, minlength=arr.size).reshape(arr.shape)
    written = writes > 0
    value = xp.broadcast_to(values, indices.shape).astype(arr.dtype).reshape(-1)
    flat_out, flat_arr = out.reshape(-1), arr.reshape(-1)
    grad_at = out_grad.reshape(-1)[position]
    dtype = out_grad.dtype.type
    arr_grad = out_grad.copy()
    if reduce == "assign" or not include_self:
        arr_grad[written] = 0
    elif reduce == "mean":
        arr_grad[written] = _c_divide(xp, arr_grad[written], (writes[written] + 1).astype(dtype))
    elif reduce in ("mul", "multiply"):
        arr_grad[written] = _c_divide(xp, arr_grad[written] * out[written], arr[written])
    elif reduce in ("amin", "amax"):
        arr_grad[written & (out != arr)] = 0
        ties = xp.bincount(
            position[(flat_out[position] == flat_arr[position]) & (flat_out[position] == value)],
            minlength=arr.size,
        ).reshape(arr.shape)
        arr_grad = _c_divide(xp, arr_grad, (ties + 1).astype(dtype))
    if reduce == "assign":
        last = xp.zeros(position.shape, dtype=bool)
        reversed_first = xp.unique(position[::-1], return_index=True)[1]
        last[position.size - 1 - reversed_first] = True
        values_grad = xp.where(last, grad_at, dtype(0))
    elif reduce == "add":
        values_grad = grad_at.copy()
    elif reduce == "mean":
        count = writes.reshape(-1)[position] + int(include_self)
        values_grad = _c_divide(xp, grad_at, count.astype(dtype))
    elif reduce in ("mul", "multiply"):
        values_grad = grad_at * _c_divide(xp, flat_out[position], value)
    else:
        hit = flat_out[position] == value
        winners = xp.bincount(position[hit], minlength=arr.size)[position]
        winners = winners + (flat_out[position] == flat_arr[position])
        values_grad = xp.where(hit, _c_divide(xp, grad_at, winners.astype(dtype)), dtype(0))
    return arr_grad, reduce_to_shape(xp, values_grad.reshape(indices.shape), tuple(values.shape))


def _c_divide(xp: Any, numerator: Array, denominator: Array) -> Array:
    """numerator / denominator as C++ divides: truncating toward zero for integers (a zero
    divisor gives 0 there instead of undefined behaviour), IEEE for floats."""
    if numerator.dtype.kind in "iu":
        safe = xp.where(denominator == 0, 1, denominator)
        quotient = xp.abs(numerator) // xp.abs(safe) * xp.sign(numerator) * xp.sign(safe)
        return xp.where(denominator == 0, 0, quotient).astype(numerator.dtype)
    with xp.errstate(divide="ignore", invalid="ignore"):
        return numerator / denominator


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
