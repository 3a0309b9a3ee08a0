"""The sparse ops that move entries: ``sum``, ``transpose``, ``reshape``, ``slice``, and the
softmax along the last axis; each with its gradient, the output gradient's values looked up at
each input entry's key in the output (runtime/kernels/impl/sparse_arrays.py).

They take a COO tensor whose every dim is sparse (UnimplementedError for one with dense dims)
or a CSR tensor, which they handle as its COO entries and give back as CSR.
"""

from __future__ import annotations

from math import prod
from typing import Any, Sequence

from phiops.runtime.backends import module_of, scatter_at
from phiops.runtime.common import to_data_type
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.impl.sparse_arrays import (
    coalesce_parts,
    coo_parts,
    flat_keys,
    lookup,
    make_coo,
    make_csr,
)
from phiops.runtime.sparse.autograd import attach
from phiops.runtime.sparse.creation import grad_values, storage_of, with_values, wrap_sparse
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__ = ["sum", "transpose", "reshape", "slice", "softmax"]


def _entries(op: str, x: Tensor) -> tuple[Any, Any, Any]:
    """(storage, indices over every dim, values) of ``x``."""
    storage = storage_of(x, op)
    if isinstance(storage, SparseCooTensor) and storage.sparse_dim != len(storage.shape):
        raise UnimplementedError(
            f"{op}(): a COO tensor with dense dims (sparse_dim {storage.sparse_dim} < rank "
            f"{len(storage.shape)}) is not implemented"
        )
    indices, values = coo_parts(storage)
    return storage, indices, values


def _rebuilt(
    source: Any, indices: Any, values: Any, shape: tuple[int, ...], keep_order: bool
) -> tuple[Any, Any]:
    """(output storage of ``source``'s kind, each source entry's key in it): COO keeps the
    entries in order unless they must be merged; CSR is rebuilt sorted."""
    xp = module_of(values)
    keys = flat_keys(indices, shape, xp)
    if isinstance(source, SparseCsrTensor):
        unique, summed = coalesce_parts(keys, values)
        return make_csr(unique, summed, shape), keys
    if keep_order:
        return make_coo(keys, values, shape, len(shape), False), keys
    unique, summed = coalesce_parts(keys, values)
    return make_coo(unique, summed, shape, len(shape), True), keys


def _at_keys(grad: Tensor, keys: Any) -> Any:
    """The values of the output gradient ``grad`` (sparse, or dense as a seed may be) at
    ``keys`` of the output."""
    if grad.meta.kind is TensorKind.DENSE:
        return grad.array.reshape(-1)[keys]
    return lookup(grad.array, keys)


def _grad_by_keys(source: Any, keys: Any) -> Any:
    def backward(grad: Tensor) -> list[Any]:
        return [wrap_sparse(with_values(source, _at_keys(grad, keys)))]

    return backward


def _axes(op: str, argument: str, axes: Any, rank: int) -> list[int]:
    items = [axes] if isinstance(axes, int) else list(axes)
    found = []
    for axis in items:
        if isinstance(axis, Tensor):
            axis = int(axis.item())
        if not isinstance(axis, int) or not -rank <= axis < rank:
            raise InvalidArgumentError(
                f"{op}(): argument '{argument}' has {axis!r}, not an axis of a {rank}-D tensor"
            )
        found.append(axis % rank)
    return found


def sum(
    x: Tensor, axis: Any = None, dtype: Any = None, keepdim: bool = False, name: str | None = None
) -> Tensor:
    """The sum of sparse ``x`` over ``axis`` (all axes when None), a sparse tensor of x's kind
    (COO: shape ``[1]`` for the total without keepdim; CSR keeps its rank and sums only over
    the last axis, or all)."""
    op = "sum"
    storage, indices, values = _entries(op, x)
    xp = module_of(values)
    shape = storage.shape
    rank = len(shape)
    is_csr = isinstance(storage, SparseCsrTensor)
    axes = list(range(rank)) if axis is None else _axes(op, "axis", axis, rank)
    if is_csr and axis is not None and axes != [rank - 1]:
        raise InvalidArgumentError(
            f"{op}(): a CSR tensor sums over its last axis (-1) or all axes (None), got axis={axis!r}"
        )
    if dtype is not None:
        values = values.astype(to_data_type(dtype).numpy_dtype)
    if axis is None and not is_csr and not keepdim:
        out_shape: tuple[int, ...] = (1,)
        out_indices = xp.zeros((1, indices.shape[1]), dtype=xp.int64)
    elif keepdim or is_csr:
        out_shape = tuple(1 if d in axes else n for d, n in enumerate(shape))
        out_indices = indices.copy()
        for d in axes:
            out_indices[d] = 0
    else:
        kept = [d for d in range(rank) if d not in axes]
        out_shape = tuple(shape[d] for d in kept)
        out_indices = indices[kept]
    if is_csr:
        # Each row gets its sum (zero for an empty row), as PHI's SumCsrKernel stores it.
        keys = flat_keys(out_indices, out_shape, xp)
        every = xp.arange(prod(out_shape), dtype=xp.int64)
        totals = xp.zeros((every.shape[0],), dtype=values.dtype)
        if keys.shape[0]:
            scatter_at("add", totals, keys, values)
        out_storage: Any = make_csr(every, totals, out_shape)
    else:
        out_storage, keys = _rebuilt(storage, out_indices, values, out_shape, keep_order=False)
    out = wrap_sparse(out_storage)
    return attach(op, [x], out, _grad_by_keys(storage, keys))


def transpose(x: Tensor, perm: Sequence[int], name: str | None = None) -> Tensor:
    """Sparse ``x`` with its dims permuted by ``perm`` (COO: the entries in their order; CSR:
    2-D, or 3-D permutations, rebuilt sorted)."""
    op = "transpose"
    storage, indices, values = _entries(op, x)
    rank = len(storage.shape)
    order = _axes(op, "perm", perm, rank)
    if sorted(order) != list(range(rank)):
        raise InvalidArgumentError(
            f"{op}(): argument 'perm' must be a permutation of 0..{rank - 1}, got {list(perm)}"
        )
    shape = tuple(storage.shape[d] for d in order)
    out_storage, keys = _rebuilt(storage, indices[order], values, shape, keep_order=True)
    return attach(op, [x], wrap_sparse(out_storage), _grad_by_keys(storage, keys))


def reshape(x: Tensor, shape: Any, name: str | None = None) -> Tensor:
    """Sparse ``x`` with the same entries in a new ``shape`` (one -1 inferred, a 0 copies x's
    dim); a CSR result must be 2-D or 3-D."""
    op = "reshape"
    storage, indices, values = _entries(op, x)
    xp = module_of(values)
    if isinstance(shape, Tensor):
        shape = shape.numpy().tolist()
    wanted = [int(d.item()) if isinstance(d, Tensor) else d for d in shape]
    if not all(isinstance(d, int) for d in wanted) or wanted.count(-1) > 1:
        raise InvalidArgumentError(
            f"{op}(): argument 'shape' must be ints with at most one -1, got {list(shape)}"
        )
    dims = [storage.shape[i] if d == 0 else d for i, d in enumerate(wanted)]
    total = prod(storage.shape)
    if -1 in dims:
        known = prod(d for d in dims if d != -1)
        if known == 0 or total % known:
            raise InvalidArgumentError(f"{op}(): cannot infer -1 in {wanted} for {total} elements")
        dims[dims.index(-1)] = total // known
    new_shape = tuple(dims)
    if prod(new_shape) != total or any(d < 0 for d in new_shape):
        raise InvalidArgumentError(
            f"{op}(): argument 'shape' {wanted} has {prod(new_shape)} elements, x "
            f"{list(storage.shape)} has {total}"
        )
    if isinstance(storage, SparseCsrTensor) and len(new_shape) not in (2, 3):
        raise InvalidArgumentError(
            f"{op}(): a CSR result must be 2-D or 3-D, got {list(new_shape)}"
        )
    flat = flat_keys(indices, storage.shape, xp)
    new_indices = (
        xp.stack(xp.unravel_index(flat, new_shape)).astype(xp.int64)
        if flat.shape[0]
        else xp.zeros((len(new_shape), 0), dtype=xp.int64)
    )
    out_storage, keys = _rebuilt(storage, new_indices, values, new_shape, keep_order=True)
    return attach(op, [x], wrap_sparse(out_storage), _grad_by_keys(storage, keys))


def slice(x: Tensor, axes: Any, starts: Any, ends: Any, name: str | None = None) -> Tensor:
    """The entries of sparse ``x`` with ``starts[i] <= index < ends[i]`` along each of ``axes``
    (negative bounds count from the end, bounds clipped to the dim), shifted to start at 0."""
    op = "slice"
    storage, indices, values = _entries(op, x)
    xp = module_of(values)
    rank = len(storage.shape)
    axis_list = _axes(op, "axes", axes, rank)

    def bounds(value: Any, argument: str) -> list[int]:
        if isinstance(value, Tensor):
            value = value.numpy().tolist()
        items = [int(v.item()) if isinstance(v, Tensor) else v for v in value]
        if len(items) != len(axis_list) or not all(isinstance(v, int) for v in items):
            raise InvalidArgumentError(
                f"{op}(): argument '{argument}' must be {len(axis_list)} ints (one per axis), got "
                f"{value!r}"
            )
        return items

    start_list, end_list = bounds(starts, "starts"), bounds(ends, "ends")
    shape = list(storage.shape)
    keep = xp.ones((indices.shape[1],), dtype=bool)
    shifted = indices.copy()
    for axis, start, end in zip(axis_list, start_list, end_list):
        size = storage.shape[axis]
        start = min(max(start + size if start < 0 else start, 0), size)
        end = min(max(end + size if end < 0 else end, 0), size)
        end = max(end, start)
        keep &= (indices[axis] >= start) & (indices[axis] < end)
        shifted[axis] = indices[axis] - start
        shape[axis] = end - start
    chosen = xp.nonzero(keep)[0]
    out_shape = tuple(shape)
    out_storage, _ = _rebuilt(
        storage, shifted[:, chosen], values[chosen], out_shape, keep_order=True
    )
    all_keys = flat_keys(xp.where(keep[None, :], shifted, 0), out_shape, xp)

    def backward(grad: Tensor) -> list[Any]:
        found = _at_keys(grad, all_keys)
        return [wrap_sparse(with_values(storage, xp.where(keep, found, 0).astype(values.dtype)))]

    return attach(op, [x], wrap_sparse(out_storage), backward)


def softmax(x: Tensor, axis: int = -1, name: str | None = None) -> Tensor:
    """The softmax of sparse ``x`` over its stored entries along the last axis (each row's
    entries; an absent entry is not a zero but left out), the pattern kept."""
    op = "softmax"
    storage, indices, values = _entries(op, x)
    xp = module_of(values)
    rank = len(storage.shape)
    if axis not in (-1, rank - 1):
        raise UnimplementedError(
            f"{op}(): only axis=-1 is implemented (as PaddlePaddle's), got {axis}"
        )
    rows = flat_keys(indices[:-1], tuple(storage.shape[:-1]), xp)
    count = prod(storage.shape[:-1])
    peak = xp.full((count,), -xp.inf, dtype=values.dtype)
    if rows.shape[0]:
        scatter_at("maximum", peak, rows, values)
    shifted = xp.exp(values - peak[rows])
    totals = xp.zeros((count,), dtype=values.dtype)
    if rows.shape[0]:
        scatter_at("add", totals, rows, shifted)
    result = (shifted / totals[rows]).astype(values.dtype)
    out_storage = with_values(storage, result)

    def backward(grad: Tensor) -> list[Any]:
        g = grad_values(grad, out_storage)
        dots = xp.zeros((count,), dtype=values.dtype)
        if rows.shape[0]:
            scatter_at("add", dots, rows, g * result)
        return [wrap_sparse(with_values(storage, (result * (g - dots[rows])).astype(values.dtype)))]

    return attach(op, [x], wrap_sparse(out_storage), backward)
