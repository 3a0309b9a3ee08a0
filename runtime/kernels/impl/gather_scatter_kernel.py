"""Lookup and indexing kernels: embedding, gather, gather_nd, index_select, take_along_axis,
masked_select, nonzero, one_hot, scatter, scatter_nd_add, put_along_axis, index_put.

Semantics are PHI's CPU kernels (paddle/phi/kernels/cpu/*), checked against PaddlePaddle 3.3.1
by tests/parity/test_paddle_parity_indexing.py. Index arguments keep their own integer dtype
(they are never cast to the data's dtype), and every index is range-checked: an out-of-range
one raises InvalidArgumentError naming the op, the axis and its size instead of reading
out of bounds. Outputs are new arrays; the inputs are never written.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

# PaddlePaddle 3.3.1's CPU registrations (core._get_all_register_op_kernels), bfloat16 aside.
GATHER_DTYPES = (D.BOOL, D.UINT8, D.INT8, D.INT16, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)
GATHER_DTYPES += (D.COMPLEX64, D.COMPLEX128)
# gather_nd: PaddlePaddle registers no bfloat16 there.
GATHER_ND_DTYPES = GATHER_DTYPES
GATHER_DTYPES += (D.BFLOAT16,)
INDEX_SELECT_DTYPES = (
    D.BOOL,
    D.INT32,
    D.INT64,
    D.BFLOAT16,
    D.FLOAT32,
    D.FLOAT64,
    D.COMPLEX64,
    D.COMPLEX128,
)
EMBEDDING_DTYPES = (D.INT8, D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
SCATTER_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)
SCATTER_ND_ADD_DTYPES = (D.UINT8, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)
ALONG_AXIS_DTYPES = (D.UINT8, D.INT16, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)
MASKED_SELECT_DTYPES = GATHER_DTYPES + (D.FLOAT16,)
NONZERO_DTYPES = (D.BOOL, D.INT16, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)
NONZERO_DTYPES += (D.BFLOAT16, D.COMPLEX64, D.COMPLEX128)
ONE_HOT_DTYPES = (D.INT32, D.INT64)
INDEX_PUT_DTYPES = MASKED_SELECT_DTYPES


def any_dtype_inputs(*positions: int) -> Any:
    """A registration hook: the inputs at ``positions`` (indices, masks) keep their own dtype."""

    def configure(kernel: Kernel) -> None:
        for position in positions:
            kernel.input_at(position).set_dtype(DataType.ALL_DTYPE)

    return configure


def check_index_range(xp: Any, index: Array, size: int, op: str, axis: int) -> None:
    """InvalidArgumentError unless every entry of ``index`` is in [-size, size) when negative
    indices are allowed, i.e. it addresses an element of an axis of ``size``."""
    if index.size == 0:
        return
    low, high = int(xp.min(index)), int(xp.max(index))
    if low < -size or high >= size:
        bad = low if low < -size else high
        raise InvalidArgumentError(
            f"{op}: index {bad} is out of range for axis {axis} with size {size} "
            f"(expected [{-size}, {size}))"
        )


def check_non_negative_index(xp: Any, index: Array, size: int, op: str, axis: int) -> None:
    """As check_index_range, for PHI kernels that accept only [0, size)."""
    if index.size == 0:
        return
    low, high = int(xp.min(index)), int(xp.max(index))
    if low < 0 or high >= size:
        bad = low if low < 0 else high
        raise InvalidArgumentError(
            f"{op}: index {bad} is out of range for axis {axis} with size {size} "
            f"(expected [0, {size}))"
        )


def flat_index(index: Array) -> Array:
    """A gather/scatter index as 1-D ([N, 1] and 0-D included)."""
    return index.reshape(-1)


# -- lookups -----------------------------------------------------------------------------------


@register_kernel("embedding", dtypes=EMBEDDING_DTYPES, configure=any_dtype_inputs(0))
def embedding_kernel(ctx: KernelContext, x: Array, weight: Array, padding_idx: int) -> Array:
    xp = ctx.xp
    rows = weight.shape[0]
    check_non_negative_index(xp, x, rows, "embedding", 0)
    out = xp.take(weight, x.reshape(-1), axis=0)
    if padding_idx != -1:
        row = padding_idx + rows if padding_idx < 0 else padding_idx
        out[x.reshape(-1) == row] = 0
    return out.reshape(tuple(x.shape) + (weight.shape[1],))


@register_kernel("gather", dtypes=GATHER_DTYPES, configure=any_dtype_inputs(1))
def gather_kernel(ctx: KernelContext, x: Array, index: Array, axis: int) -> Array:
    xp = ctx.xp
    a = int(axis)  # a Scalar: 1.0 is axis 1 (InferMeta checked it is whole)
    a = a + x.ndim if a < 0 else a
    check_non_negative_index(xp, index, x.shape[a], "gather", a)
    if index.ndim == 0:
        return xp.take(x, index, axis=a)
    return xp.take(x, flat_index(index), axis=a)


@register_kernel("gather_nd", dtypes=GATHER_ND_DTYPES, configure=any_dtype_inputs(1))
def gather_nd_kernel(ctx: KernelContext, x: Array, index: Array) -> Array:
    xp = ctx.xp
    depth = index.shape[-1]
    coordinates = nd_coordinates(xp, x, index, "gather_nd")
    if depth == 0:
        return xp.broadcast_to(x, tuple(index.shape[:-1]) + tuple(x.shape)).copy()
    return x[coordinates].copy()


def nd_coordinates(xp: Any, x: Array, index: Array, op: str) -> tuple[Array, ...]:
    """The per-axis coordinate arrays of a gather_nd/scatter_nd index [..., depth], each
    range-checked (PHI accepts negative coordinates: they count from the end)."""
    depth = index.shape[-1]
    coordinates = []
    for axis in range(depth):
        column = index[..., axis]
        check_index_range(xp, column, x.shape[axis], op, axis)
        coordinates.append(column)
    return tuple(coordinates)


@register_kernel("index_select", dtypes=INDEX_SELECT_DTYPES, configure=any_dtype_inputs(1))
def index_select_kernel(ctx: KernelContext, x: Array, index: Array, axis: int) -> Array:
    xp = ctx.xp
    a = axis + x.ndim if axis < 0 else axis
    check_non_negative_index(xp, index, x.shape[a], "index_select", a)
    return xp.take(x, flat_index(index), axis=a)


def along_axis_index(xp: Any, arr: Array, indices: Array, axis: int, op: str) -> tuple:
    """A fancy index addressing ``arr`` at ``indices`` along ``axis`` and at the position of each
    element of ``indices`` along the other axes (PHI's cpu_gather_kernel walk).

    put_along_axis's InferMeta (PaddlePaddle's UnchangedInferMeta on ``arr``) sees no
    ``indices``: their dtype and rank are checked here."""
    if indices.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"argument 'indices' must be int32 or int64, got {indices.dtype}"
        )
    if indices.ndim != arr.ndim:
        raise InvalidArgumentError(
            f"argument 'indices' must have the rank of 'arr' ({arr.ndim}), got {indices.ndim}"
        )
    if not -max(arr.ndim, 1) <= axis < max(arr.ndim, 1):
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-max(arr.ndim, 1)}, {max(arr.ndim, 1)}) for a tensor "
            f"of rank {arr.ndim}, got {axis}"
        )
    a = axis + arr.ndim if axis < 0 else axis
    check_index_range(xp, indices, arr.shape[a], op, a)
    for other in range(arr.ndim):
        if other != a and indices.shape[other] > arr.shape[other]:
            raise InvalidArgumentError(
                f"{op}: dimension {other} of 'indices' ({indices.shape[other]}) must not exceed "
                f"that of 'arr' ({arr.shape[other]})"
            )
    grids = xp.ogrid[tuple(slice(0, n) for n in indices.shape)] if indices.ndim else []
    positions = list(grids)
    positions[a] = indices
    return tuple(positions)


@register_kernel("take_along_axis", dtypes=ALONG_AXIS_DTYPES, configure=any_dtype_inputs(1))
def take_along_axis_kernel(ctx: KernelContext, arr: Array, indices: Array, axis: int) -> Array:
    return arr[along_axis_index(ctx.xp, arr, indices, axis, "take_along_axis")].copy()


@register_kernel("masked_select", dtypes=MASKED_SELECT_DTYPES, configure=any_dtype_inputs(1))
def masked_select_kernel(ctx: KernelContext, x: Array, mask: Array) -> Array:
    xp = ctx.xp
    shape = xp.broadcast_shapes(x.shape, mask.shape)
    return xp.broadcast_to(x, shape)[xp.broadcast_to(mask, shape)].copy()


@register_kernel(
    "nonzero",
    dtypes=NONZERO_DTYPES,
    configure=lambda k: k.output_at(0).set_dtype(DataType.INT64),
)
def nonzero_kernel(ctx: KernelContext, condition: Array) -> Array:
    xp = ctx.xp
    return xp.argwhere(condition).astype(xp.int64, copy=False)


@register_kernel(
    "one_hot",
    dtypes=ONE_HOT_DTYPES,
    configure=lambda k: k.output_at(0).set_dtype(DataType.FLOAT32),
)
def one_hot_kernel(ctx: KernelContext, x: Array, num_classes: int) -> Array:
    xp = ctx.xp
    check_non_negative_index(xp, x, num_classes, "one_hot", x.ndim)
    return (x[..., None] == xp.arange(num_classes)).astype(xp.float32)


# -- scatters ----------------------------------------------------------------------------------


@register_kernel("scatter", dtypes=SCATTER_DTYPES, configure=any_dtype_inputs(1))
def scatter_kernel(
    ctx: KernelContext, x: Array, index: Array, updates: Array, overwrite: bool
) -> Array:
    xp = ctx.xp
    rows = flat_index(index)
    check_non_negative_index(xp, rows, x.shape[0], "scatter", 0)
    updates = updates.reshape((rows.shape[0],) + tuple(x.shape[1:]))
    out = x.copy()
    if overwrite:
        # Later entries of a repeated index win, as PHI's ScatterAssign loop does.
        out[rows] = updates
    else:
        out[rows] = 0
        scatter_at("add", out, rows, updates)
    return out


@register_kernel("scatter_nd_add", dtypes=SCATTER_ND_ADD_DTYPES, configure=any_dtype_inputs(1))
def scatter_nd_add_kernel(ctx: KernelContext, x: Array, index: Array, updates: Array) -> Array:
    xp = ctx.xp
    out = x.copy()
    if index.shape[-1] == 0:
        out += updates.reshape((-1,) + tuple(x.shape)).sum(axis=0, dtype=x.dtype)
        return out
    scatter_at("add", out, nd_coordinates(xp, x, index, "scatter_nd_add"), updates)
    return out


_REDUCTIONS = ("assign", "add", "mul", "multiply", "mean", "amin", "amax")


def check_reduce(reduce: str, op: str) -> None:
    if reduce not in _REDUCTIONS:
        raise InvalidArgumentError(
            f"{op}: argument 'reduce' must be one of {list(_REDUCTIONS)}, got {reduce!r}"
        )


@register_kernel("put_along_axis", dtypes=ALONG_AXIS_DTYPES, configure=any_dtype_inputs(1))
def put_along_axis_kernel(
    ctx: KernelContext,
    arr: Array,
    indices: Array,
    values: Array,
    axis: int,
    reduce: str,
    include_self: bool,
) -> Array:
    xp = ctx.xp
    check_reduce(reduce, "put_along_axis")
    where = along_axis_index(xp, arr, indices, axis, "put_along_axis")
    values = xp.broadcast_to(values, indices.shape).astype(arr.dtype, copy=False)
    out = arr.copy()
    if reduce == "assign":
        out[where] = values
        return out
    if reduce == "mean":
        total = xp.zeros_like(arr)
        count = xp.zeros(arr.shape, dtype=xp.int64)
        scatter_at("add", total, where, values)
        scatter_at("add", count, where, 1)
        if include_self:
            total = total + arr
            count = count + 1
        touched = count > 0
        mean = total / xp.where(touched, count, 1)
        if arr.dtype.kind in "iu":
            mean = xp.floor(mean)
        out[touched] = mean[touched].astype(arr.dtype)
        return out
    ufunc = {
        "add": "add",
        "mul": "multiply",
        "multiply": "multiply",
        "amin": "minimum",
        "amax": "maximum",
    }[reduce]
    if not include_self:
        identity = {"add": 0, "mul": 1, "multiply": 1}.get(reduce)
        if identity is None:
            touched = xp.zeros(arr.shape, dtype=bool)
            touched[where] = True
            out[touched] = _extreme_identity(xp, arr.dtype, reduce)
        else:
            out[where] = identity
    scatter_at(ufunc, out, where, values)
    return out


def _extreme_identity(xp: Any, dtype: Any, reduce: str) -> Any:
    info = xp.finfo(dtype) if dtype.kind == "f" else xp.iinfo(dtype)
    return info.max if reduce == "amin" else info.min


@register_kernel("index_put", dtypes=INDEX_PUT_DTYPES, configure=any_dtype_inputs(1))
def index_put_kernel(
    ctx: KernelContext, x: Array, indices: list[Array], value: Array, accumulate: bool
) -> Array:
    xp = ctx.xp
    where = index_put_positions(xp, x, indices, "index_put")
    out = x.copy()
    target_shape = out[where].shape
    value = xp.broadcast_to(value, target_shape)
    if accumulate:
        scatter_at("add", out, where, value)
    else:
        out[where] = value
    return out


def index_put_positions(xp: Any, x: Array, indices: list[Array], op: str) -> tuple[Array, ...]:
    """The numpy advanced index for index_put's ``indices``: bool masks become the coordinates
    of their True elements (one per axis they cover), integer tensors are range-checked against
    their axis and broadcast together."""
    positions: list[Array] = []
    for index in indices:
        axis = len(positions)
        if index.dtype == bool:
            covered = tuple(x.shape[axis : axis + index.ndim])
            if tuple(index.shape) != covered:
                raise InvalidArgumentError(
                    f"{op}: the bool mask with shape {list(index.shape)} does not match the shape "
                    f"{list(covered)} of the axes {list(range(axis, axis + index.ndim))} it indexes"
                )
            positions.extend(xp.nonzero(index))
        else:
            if axis >= x.ndim:
                raise InvalidArgumentError(f"{op}: too many indices for a tensor of rank {x.ndim}")
            check_index_range(xp, index, x.shape[axis], op, axis)
            positions.append(index)
    try:
        xp.broadcast_shapes(*(p.shape for p in positions))
    except ValueError:
        raise InvalidArgumentError(
            f"{op}: the index tensors with shapes {[list(p.shape) for p in positions]} cannot be "
            "broadcast together"
        ) from None
    return tuple(positions)
