"""The sparse kernels that move entries (PHI's ``paddle/phi/kernels/sparse/``: ``transpose``,
``reshape``, ``sum``, ``slice`` and ``softmax``, each ``_coo`` and ``_csr``), with their grads.

They take a COO tensor whose every dim is sparse (UnimplementedError for one with dense dims)
or a CSR tensor, which they handle as its COO entries and give back as CSR. A grad kernel looks
the output gradient's values up at each input entry's key in the output
(runtime/kernels/impl/sparse_arrays.py), so x_grad has x's pattern, entries in its order.
"""

from __future__ import annotations

from math import prod
from typing import Any, Sequence

from phiops.runtime.backends import module_of, scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.impl.sparse_arrays import (
    coalesce_parts,
    coo_parts,
    flat_keys,
    keys_of,
    lookup,
    make_coo,
    make_csr,
)
from phiops.runtime.kernels.impl.sparse_unary_kernel import with_values
from phiops.runtime.kernels.kernel import KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__ = [
    "SPARSE_MOVE",
    "sum_shape",
    "slice_bounds",
    "reshape_dims",
]

Array = Any
Storage = Any  # SparseCooTensor | SparseCsrTensor

_D = DataType
# the value dtypes of PHI's CPU transpose/reshape/slice sparse kernels
SPARSE_MOVE = (
    _D.BOOL,
    _D.FLOAT32,
    _D.FLOAT64,
    _D.INT8,
    _D.UINT8,
    _D.INT16,
    _D.INT32,
    _D.INT64,
)
# sum's: no int8/uint8
SPARSE_SUM = (_D.BOOL, _D.FLOAT32, _D.FLOAT64, _D.INT16, _D.INT32, _D.INT64)
SPARSE_SOFTMAX = (_D.FLOAT32, _D.FLOAT64)


def _entries(op: str, storage: Storage) -> tuple[Array, Array]:
    """(indices over every dim, values) of ``storage``."""
    if isinstance(storage, SparseCooTensor) and storage.sparse_dim != len(storage.shape):
        raise UnimplementedError(
            f"{op}(): a COO tensor with dense dims (sparse_dim {storage.sparse_dim} < rank "
            f"{len(storage.shape)}) is not implemented"
        )
    return coo_parts(storage)


def _rebuilt(
    source: Storage, indices: Array, values: Array, shape: tuple[int, ...], keep_order: bool
) -> Storage:
    """The output storage of ``source``'s kind: COO keeps the entries in order unless they must
    be merged; CSR is rebuilt sorted."""
    xp = module_of(values)
    keys = flat_keys(indices, shape, xp)
    if isinstance(source, SparseCsrTensor):
        unique, summed = coalesce_parts(keys, values)
        return make_csr(unique, summed, shape)
    if keep_order:
        return make_coo(keys, values, shape, len(shape), False)
    unique, summed = coalesce_parts(keys, values)
    return make_coo(unique, summed, shape, len(shape), True)


def _at(out_grad: Storage, indices: Array, shape: tuple[int, ...], like: Storage) -> Storage:
    """``like``'s pattern holding ``out_grad``'s values at ``indices`` (one column per entry of
    ``like``) of the output ``shape``."""
    xp = module_of(like.values.array)
    found = lookup(out_grad, flat_keys(indices, shape, xp))
    return with_values(like, found.astype(like.values.array.dtype, copy=False))


def _axes(op: str, argument: str, axes: Sequence[int], rank: int) -> list[int]:
    found = []
    for axis in axes:
        if not -rank <= axis < rank:
            raise InvalidArgumentError(
                f"{op}(): argument '{argument}' has {axis!r}, not an axis of a {rank}-D tensor"
            )
        found.append(axis % rank)
    return found


# -- transpose ---------------------------------------------------------------------------------


def _transpose(x: Storage, perm: Sequence[int]) -> Storage:
    indices, values = _entries("transpose", x)
    order = _axes("transpose", "perm", perm, len(x.shape))
    shape = tuple(x.shape[d] for d in order)
    return _rebuilt(x, indices[order], values, shape, keep_order=True)


def _inverse(perm: Sequence[int]) -> list[int]:
    rank = len(perm)
    order = [p % rank for p in perm]
    return [order.index(d) for d in range(rank)]


@register_kernel("transpose_coo", dtypes=SPARSE_MOVE)
def transpose_coo_kernel(
    ctx: KernelContext, x: SparseCooTensor, perm: list[int]
) -> SparseCooTensor:
    """PHI's ``transpose_coo``: the dims permuted, the entries in their order."""
    return _transpose(x, perm)


@register_kernel("transpose_csr", dtypes=SPARSE_MOVE)
def transpose_csr_kernel(
    ctx: KernelContext, x: SparseCsrTensor, perm: list[int]
) -> SparseCsrTensor:
    """PHI's ``transpose_csr``: the dims permuted, rebuilt sorted."""
    return _transpose(x, perm)


@register_kernel("transpose_coo_grad", dtypes=SPARSE_MOVE)
def transpose_coo_grad_kernel(
    ctx: KernelContext, out_grad: SparseCooTensor, perm: list[int]
) -> SparseCooTensor:
    """PHI's ``transpose_coo_grad``: out_grad transposed back."""
    return _transpose(out_grad, _inverse(perm))


@register_kernel("transpose_csr_grad", dtypes=SPARSE_MOVE)
def transpose_csr_grad_kernel(
    ctx: KernelContext, out_grad: SparseCsrTensor, perm: list[int]
) -> SparseCsrTensor:
    """PHI's ``transpose_csr_grad``."""
    return _transpose(out_grad, _inverse(perm))


# -- reshape -----------------------------------------------------------------------------------


def reshape_dims(op: str, shape: tuple[int, ...], wanted: Sequence[int]) -> tuple[int, ...]:
    """``wanted`` resolved against ``shape``: one -1 inferred, a 0 copies shape's dim."""
    dims = [shape[i] if d == 0 and i < len(shape) else d for i, d in enumerate(wanted)]
    total = prod(shape)
    if list(dims).count(-1) > 1:
        raise InvalidArgumentError(
            f"{op}(): argument 'shape' must have at most one -1, got {list(wanted)}"
        )
    if -1 in dims:
        known = prod(d for d in dims if d != -1)
        if known == 0 or total % known:
            raise InvalidArgumentError(
                f"{op}(): cannot infer -1 in {list(wanted)} for {total} elements"
            )
        dims[dims.index(-1)] = total // known
    if prod(dims) != total or any(d < 0 for d in dims):
        raise InvalidArgumentError(
            f"{op}(): argument 'shape' {list(wanted)} has {prod(dims)} elements, x "
            f"{list(shape)} has {total}"
        )
    return tuple(dims)


def _reshape(x: Storage, shape: Sequence[int]) -> Storage:
    indices, values = _entries("reshape", x)
    xp = module_of(values)
    new_shape = reshape_dims("reshape", x.shape, shape)
    if isinstance(x, SparseCsrTensor) and len(new_shape) not in (2, 3):
        raise InvalidArgumentError(
            f"reshape(): a CSR result must be 2-D or 3-D, got {list(new_shape)}"
        )
    flat = flat_keys(indices, x.shape, xp)
    new_indices = (
        xp.stack(xp.unravel_index(flat, new_shape)).astype(xp.int64)
        if flat.shape[0]
        else xp.zeros((len(new_shape), 0), dtype=xp.int64)
    )
    return _rebuilt(x, new_indices, values, new_shape, keep_order=True)


@register_kernel("reshape_coo", dtypes=SPARSE_MOVE)
def reshape_coo_kernel(ctx: KernelContext, x: SparseCooTensor, shape: list[int]) -> SparseCooTensor:
    """PHI's ``reshape_coo``: the same entries in a new shape, in their order."""
    return _reshape(x, shape)


@register_kernel("reshape_csr", dtypes=SPARSE_MOVE)
def reshape_csr_kernel(ctx: KernelContext, x: SparseCsrTensor, shape: list[int]) -> SparseCsrTensor:
    """PHI's ``reshape_csr``: 2-D or 3-D results."""
    return _reshape(x, shape)


def _flat_grad(x: Storage, out_grad: Storage) -> Storage:
    """x's pattern holding out_grad's values at the same flat positions (a reshape keeps them)."""
    _entries("reshape_grad", x)
    found = lookup(out_grad, keys_of(x))
    return with_values(x, found.astype(x.values.array.dtype, copy=False))


@register_kernel("reshape_coo_grad", dtypes=SPARSE_MOVE)
def reshape_coo_grad_kernel(
    ctx: KernelContext, x: SparseCooTensor, out_grad: SparseCooTensor
) -> SparseCooTensor:
    """PHI's ``reshape_coo_grad``: out_grad back in x's shape and pattern."""
    return _flat_grad(x, out_grad)


@register_kernel("reshape_csr_grad", dtypes=SPARSE_MOVE)
def reshape_csr_grad_kernel(
    ctx: KernelContext, x: SparseCsrTensor, out_grad: SparseCsrTensor
) -> SparseCsrTensor:
    """PHI's ``reshape_csr_grad``."""
    return _flat_grad(x, out_grad)


# -- sum ---------------------------------------------------------------------------------------


def sum_shape(
    shape: tuple[int, ...], axis: Sequence[int], keepdim: bool, is_csr: bool, op: str = "sum"
) -> tuple[tuple[int, ...], list[int]]:
    """(the output shape, the summed axes) of sparse ``sum``: a COO total without keepdim is
    ``[1]``; CSR keeps its rank and sums over its last axis or all of them."""
    rank = len(shape)
    axes = list(range(rank)) if not axis else _axes(op, "axis", axis, rank)
    if is_csr and axis and axes != [rank - 1]:
        raise InvalidArgumentError(
            f"{op}(): a CSR tensor sums over its last axis (-1) or all axes (None), got "
            f"axis={list(axis)}"
        )
    if not axis and not is_csr and not keepdim:
        return (1,), axes
    if keepdim or is_csr:
        return tuple(1 if d in axes else n for d, n in enumerate(shape)), axes
    return tuple(n for d, n in enumerate(shape) if d not in axes), axes


def _sum_indices(x: Storage, axis: Sequence[int], keepdim: bool) -> tuple:
    """(the output shape, each x entry's indices in the output)."""
    indices, _ = _entries("sum", x)
    xp = module_of(x.values.array)
    is_csr = isinstance(x, SparseCsrTensor)
    shape, axes = sum_shape(x.shape, axis, keepdim, is_csr)
    if not axis and not is_csr and not keepdim:
        return shape, xp.zeros((1, indices.shape[1]), dtype=xp.int64)
    if keepdim or is_csr:
        out_indices = indices.copy()
        for d in axes:
            out_indices[d] = 0
        return shape, out_indices
    kept = [d for d in range(len(x.shape)) if d not in axes]
    return shape, indices[kept]


def _sum(xp: Any, x: Storage, axis: Sequence[int], dtype: DataType, keepdim: bool) -> Storage:
    shape, out_indices = _sum_indices(x, axis, keepdim)
    values = x.values.array
    if dtype is not DataType.UNDEFINED:
        values = values.astype(dtype.numpy_dtype)
    if isinstance(x, SparseCsrTensor):
        # Each row gets its sum (zero for an empty row), as PHI's SumCsrKernel stores it.
        keys = flat_keys(out_indices, shape, xp)
        every = xp.arange(prod(shape), dtype=xp.int64)
        totals = xp.zeros((every.shape[0],), dtype=values.dtype)
        if keys.shape[0]:
            scatter_at("add", totals, keys, values)
        return make_csr(every, totals, shape)
    return _rebuilt(x, out_indices, values, shape, keep_order=False)


@register_kernel("sum_coo", dtypes=SPARSE_SUM)
def sum_coo_kernel(
    ctx: KernelContext, x: SparseCooTensor, axis: list[int], dtype: DataType, keepdim: bool
) -> SparseCooTensor:
    """PHI's ``sum_coo``: the sum over ``axis`` (all when empty), coalesced."""
    return _sum(ctx.xp, x, axis, dtype, keepdim)


@register_kernel("sum_csr", dtypes=SPARSE_SUM)
def sum_csr_kernel(
    ctx: KernelContext, x: SparseCsrTensor, axis: list[int], dtype: DataType, keepdim: bool
) -> SparseCsrTensor:
    """PHI's ``sum_csr``: each row's sum (or the total), the rank kept."""
    return _sum(ctx.xp, x, axis, dtype, keepdim)


def _sum_grad(x: Storage, out_grad: Storage, axis: Sequence[int], keepdim: bool) -> Storage:
    shape, out_indices = _sum_indices(x, axis, keepdim)
    return _at(out_grad, out_indices, shape, x)


@register_kernel("sum_coo_grad", dtypes=SPARSE_SUM)
def sum_coo_grad_kernel(
    ctx: KernelContext,
    x: SparseCooTensor,
    out_grad: SparseCooTensor,
    axis: list[int],
    keepdim: bool,
) -> SparseCooTensor:
    """PHI's ``sum_coo_grad``: each x entry gets the gradient of the sum it went into."""
    return _sum_grad(x, out_grad, axis, keepdim)


@register_kernel("sum_csr_grad", dtypes=SPARSE_SUM)
def sum_csr_grad_kernel(
    ctx: KernelContext,
    x: SparseCsrTensor,
    out_grad: SparseCsrTensor,
    axis: list[int],
    keepdim: bool,
) -> SparseCsrTensor:
    """PHI's ``sum_csr_grad`` (each entry its own row's gradient)."""
    return _sum_grad(x, out_grad, axis, keepdim)


# -- slice -------------------------------------------------------------------------------------


def slice_bounds(
    shape: tuple[int, ...], axes: Sequence[int], starts: Sequence[int], ends: Sequence[int]
) -> tuple[list[int], list[tuple[int, int]]]:
    """(the axes, each one's clipped [start, end)) of sparse ``slice``; negative bounds count
    from the end."""
    rank = len(shape)
    axis_list = _axes("slice", "axes", axes, rank)
    for argument, value in (("starts", starts), ("ends", ends)):
        if len(value) != len(axis_list):
            raise InvalidArgumentError(
                f"slice(): argument '{argument}' must be {len(axis_list)} ints (one per axis), "
                f"got {list(value)}"
            )
    bounds = []
    for axis, start, end in zip(axis_list, starts, ends):
        size = shape[axis]
        start = min(max(start + size if start < 0 else start, 0), size)
        end = min(max(end + size if end < 0 else end, 0), size)
        bounds.append((start, max(end, start)))
    return axis_list, bounds


def _slice_parts(x: Storage, axes: Sequence[int], starts: Sequence[int], ends: Sequence[int]):
    """(which x entries are kept, their shifted indices, the output shape)."""
    indices, _ = _entries("slice", x)
    xp = module_of(x.values.array)
    axis_list, bounds = slice_bounds(x.shape, axes, starts, ends)
    shape = list(x.shape)
    keep = xp.ones((indices.shape[1],), dtype=bool)
    shifted = indices.copy()
    for axis, (start, end) in zip(axis_list, bounds):
        keep &= (indices[axis] >= start) & (indices[axis] < end)
        shifted[axis] = indices[axis] - start
        shape[axis] = end - start
    return keep, shifted, tuple(shape)


def _slice(x: Storage, axes: Sequence[int], starts: Sequence[int], ends: Sequence[int]) -> Storage:
    keep, shifted, shape = _slice_parts(x, axes, starts, ends)
    xp = module_of(x.values.array)
    chosen = xp.nonzero(keep)[0]
    return _rebuilt(x, shifted[:, chosen], x.values.array[chosen], shape, keep_order=True)


def _slice_grad(
    x: Storage, out_grad: Storage, axes: Sequence[int], starts: Sequence[int], ends: Sequence[int]
) -> Storage:
    keep, shifted, shape = _slice_parts(x, axes, starts, ends)
    xp = module_of(x.values.array)
    found = lookup(out_grad, flat_keys(xp.where(keep[None, :], shifted, 0), shape, xp))
    values = xp.where(keep, found, 0).astype(x.values.array.dtype, copy=False)
    return with_values(x, values)


@register_kernel("slice_coo", dtypes=SPARSE_MOVE)
def slice_coo_kernel(
    ctx: KernelContext, x: SparseCooTensor, axes: list[int], starts: list[int], ends: list[int]
) -> SparseCooTensor:
    """PHI's ``slice_coo``: the entries inside the bounds, shifted to start at 0."""
    return _slice(x, axes, starts, ends)


@register_kernel("slice_csr", dtypes=SPARSE_MOVE)
def slice_csr_kernel(
    ctx: KernelContext, x: SparseCsrTensor, axes: list[int], starts: list[int], ends: list[int]
) -> SparseCsrTensor:
    """PHI's ``slice_csr``."""
    return _slice(x, axes, starts, ends)


@register_kernel("slice_coo_grad", dtypes=SPARSE_MOVE)
def slice_coo_grad_kernel(
    ctx: KernelContext,
    x: SparseCooTensor,
    out_grad: SparseCooTensor,
    axes: list[int],
    starts: list[int],
    ends: list[int],
) -> SparseCooTensor:
    """PHI's ``slice_coo_grad``: out_grad at the kept entries, zero elsewhere, x's pattern."""
    return _slice_grad(x, out_grad, axes, starts, ends)


@register_kernel("slice_csr_grad", dtypes=SPARSE_MOVE)
def slice_csr_grad_kernel(
    ctx: KernelContext,
    x: SparseCsrTensor,
    out_grad: SparseCsrTensor,
    axes: list[int],
    starts: list[int],
    ends: list[int],
) -> SparseCsrTensor:
    """PHI's ``slice_csr_grad``."""
    return _slice_grad(x, out_grad, axes, starts, ends)


# -- softmax -----------------------------------------------------------------------------------


def _rows(op: str, x: Storage, axis: int) -> tuple[Array, int]:
    """(each entry's row over the leading dims, the number of rows)."""
    indices, values = _entries(op, x)
    rank = len(x.shape)
    if axis not in (-1, rank - 1):
        raise UnimplementedError(
            f"{op}(): only axis=-1 is implemented (as PaddlePaddle's), got {axis}"
        )
    xp = module_of(values)
    return flat_keys(indices[:-1], tuple(x.shape[:-1]), xp), prod(x.shape[:-1])


def _softmax(xp: Any, x: Storage, axis: int) -> Storage:
    rows, count = _rows("softmax", x, axis)
    values = x.values.array
    peak = xp.full((count,), -xp.inf, dtype=values.dtype)
    if rows.shape[0]:
        scatter_at("maximum", peak, rows, values)
    shifted = xp.exp(values - peak[rows])
    totals = xp.zeros((count,), dtype=values.dtype)
    if rows.shape[0]:
        scatter_at("add", totals, rows, shifted)
    return with_values(x, (shifted / totals[rows]).astype(values.dtype, copy=False))


def _softmax_grad(xp: Any, out: Storage, out_grad: Storage, axis: int) -> Storage:
    rows, count = _rows("softmax_grad", out, axis)
    result = out.values.array
    g = lookup(out_grad, keys_of(out))
    dots = xp.zeros((count,), dtype=result.dtype)
    if rows.shape[0]:
        scatter_at("add", dots, rows, g * result)
    return with_values(out, (result * (g - dots[rows])).astype(result.dtype, copy=False))


@register_kernel("softmax_coo", dtypes=SPARSE_SOFTMAX)
def softmax_coo_kernel(ctx: KernelContext, x: SparseCooTensor, axis: int) -> SparseCooTensor:
    """PHI's ``softmax_coo``: the softmax of each row's stored entries, the pattern kept."""
    return _softmax(ctx.xp, x, axis)


@register_kernel("softmax_csr", dtypes=SPARSE_SOFTMAX)
def softmax_csr_kernel(ctx: KernelContext, x: SparseCsrTensor, axis: int) -> SparseCsrTensor:
    """PHI's ``softmax_csr``."""
    return _softmax(ctx.xp, x, axis)


@register_kernel("softmax_coo_grad", dtypes=SPARSE_SOFTMAX)
def softmax_coo_grad_kernel(
    ctx: KernelContext, out: SparseCooTensor, out_grad: SparseCooTensor, axis: int
) -> SparseCooTensor:
    """PHI's ``softmax_coo_grad``: ``out * (out_grad - sum(out_grad * out) over the row)``."""
    return _softmax_grad(ctx.xp, out, out_grad, axis)


@register_kernel("softmax_csr_grad", dtypes=SPARSE_SOFTMAX)
def softmax_csr_grad_kernel(
    ctx: KernelContext, out: SparseCsrTensor, out_grad: SparseCsrTensor, axis: int
) -> SparseCsrTensor:
    """PHI's ``softmax_csr_grad``."""
    return _softmax_grad(ctx.xp, out, out_grad, axis)
