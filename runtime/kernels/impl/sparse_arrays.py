"""Array helpers on the parts of sparse tensors: flat keys, coalescing, the COO/CSR conversions
and look-ups of values by key. The sparse kernels (runtime/kernels/impl/sparse_*.py) and the
sparse ops above them (runtime/sparse/) share them. Written once against the array module of the values (numpy on
CPU, CuPy on GPU: only functions both have; scatters through ``backends.scatter_at``).

A *key* is the flat (row-major) index of an entry over the sparse dims: for a COO tensor the
first ``sparse_dim`` dims of its shape, for a CSR tensor all of them. Ops that change the
pattern (add, transpose, sum, ...) compute their output in key space and their gradients by
looking the output gradient's values up at each input entry's key.
"""

from __future__ import annotations

from math import prod
from typing import Any

from phiops.runtime.backends import module_of, scatter_at
from phiops.runtime.tensor.dense_tensor import DenseTensor
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__ = [
    "keys_of",
    "flat_keys",
    "unflat_keys",
    "coalesce_parts",
    "coo_parts",
    "make_coo",
    "make_csr",
    "csr_to_coo",
    "coo_to_csr",
    "dense_to_coo",
    "lookup",
    "key_space",
]

Storage = Any  # SparseCooTensor | SparseCsrTensor


def key_space(storage: Storage) -> tuple[int, ...]:
    """The dims a key of ``storage`` is flat over."""
    if isinstance(storage, SparseCsrTensor):
        return storage.shape
    return storage.shape[: storage.sparse_dim]


def coo_parts(storage: Storage) -> tuple[Any, Any]:
    """(indices ``[sparse dims, nnz]``, values) of ``storage``, in its entries' order; for a CSR
    tensor its (batch,) row and column of each entry."""
    if isinstance(storage, SparseCsrTensor):
        return csr_to_coo(storage)
    return storage.indices.array, storage.values.array


def keys_of(storage: Storage) -> Any:
    """The key of each entry of ``storage``, in its entries' order."""
    indices, values = coo_parts(storage)
    return flat_keys(indices, key_space(storage), module_of(values))


def flat_keys(indices: Any, space: tuple[int, ...], xp: Any) -> Any:
    if indices.shape[1] == 0:
        return xp.zeros((0,), dtype=xp.int64)
    if not space:
        return xp.zeros((indices.shape[1],), dtype=xp.int64)
    return xp.ravel_multi_index(tuple(indices.astype(xp.int64)), space).astype(xp.int64)


def unflat_keys(keys: Any, space: tuple[int, ...], xp: Any) -> Any:
    if not space:
        return xp.zeros((0, keys.shape[0]), dtype=xp.int64)
    if keys.shape[0] == 0:
        return xp.zeros((len(space), 0), dtype=xp.int64)
    return xp.stack(xp.unravel_index(keys, space)).astype(xp.int64)


def coalesce_parts(keys: Any, values: Any) -> tuple[Any, Any]:
    """Sorted unique keys and their values, the values of a repeated key added."""
    xp = module_of(values)
    if keys.shape[0] == 0:
        return keys, values
    unique, inverse = xp.unique(keys, return_inverse=True)
    summed = xp.zeros((unique.shape[0],) + values.shape[1:], dtype=values.dtype)
    scatter_at("add", summed, inverse.reshape(-1), values)
    return unique, summed


def make_coo(
    keys: Any, values: Any, shape: tuple[int, ...], sparse_dim: int, coalesced: bool
) -> SparseCooTensor:
    xp = module_of(values)
    indices = unflat_keys(keys, tuple(shape[:sparse_dim]), xp)
    return SparseCooTensor(DenseTensor(indices), DenseTensor(values), shape, coalesced)


def make_csr(keys: Any, values: Any, shape: tuple[int, ...]) -> SparseCsrTensor:
    """A CSR tensor of ``shape`` (2-D or 3-D) from sorted unique keys over it."""
    xp = module_of(values)
    batch = shape[0] if len(shape) == 3 else 1
    rows, width = shape[-2], shape[-1]
    row_of = keys // max(width, 1)
    counts = (
        xp.bincount(row_of, minlength=batch * rows)[: batch * rows]
        if keys.shape[0]
        else (xp.zeros((batch * rows,), dtype=xp.int64))
    )
    offsets = xp.cumsum(counts.reshape(batch, rows), axis=1)
    crows = xp.concatenate([xp.zeros((batch, 1), dtype=xp.int64), offsets.astype(xp.int64)], axis=1)
    cols = (keys % max(width, 1)).astype(xp.int64)
    return SparseCsrTensor(
        DenseTensor(crows.reshape(-1)), DenseTensor(cols), DenseTensor(values), shape
    )


def csr_to_coo(storage: SparseCsrTensor) -> tuple[Any, Any]:
    """(indices, values) of a CSR tensor's entries, in its order: rows (and batches) from
    ``crows``."""
    values = storage.values.array
    xp = module_of(values)
    shape = storage.shape
    batch = shape[0] if len(shape) == 3 else 1
    rows = shape[-2]
    offsets = storage.crows.array.astype(xp.int64).reshape(batch, rows + 1)
    counts = xp.diff(offsets, axis=1).reshape(-1)
    row_of = xp.repeat(xp.arange(batch * rows, dtype=xp.int64), counts)
    cols = storage.cols.array.astype(xp.int64)
    if len(shape) == 3:
        indices = xp.stack([row_of // rows, row_of % rows, cols])
    else:
        indices = xp.stack([row_of, cols])
    return indices, values


def coo_to_csr(storage: SparseCooTensor) -> SparseCsrTensor:
    """The CSR tensor of a COO tensor whose every dim is sparse (its entries coalesced)."""
    keys, values = coalesce_parts(keys_of(storage), storage.values.array)
    return make_csr(keys, values, storage.shape)


def dense_to_coo(array: Any, sparse_dim: int) -> SparseCooTensor:
    """The COO tensor of a dense array: an entry for each slice over the first ``sparse_dim``
    dims holding a nonzero, in row-major order."""
    xp = module_of(array)
    shape = tuple(array.shape)
    space = shape[:sparse_dim]
    rows = array.reshape((prod(space), -1))
    nonzero = xp.nonzero((rows != 0).any(axis=1))[0].astype(xp.int64)
    values = array.reshape((prod(space),) + shape[sparse_dim:])[nonzero]
    return make_coo(nonzero, values, shape, sparse_dim, True)


def lookup(storage: Storage, keys: Any) -> Any:
    """The values of ``storage`` at ``keys`` (zeros where it has no entry; a repeated entry's
    values added), one row per key."""
    own_keys, own_values = coalesce_parts(keys_of(storage), storage.values.array)
    xp = module_of(own_values)
    found = xp.zeros((keys.shape[0],) + own_values.shape[1:], dtype=own_values.dtype)
    if own_keys.shape[0] == 0 or keys.shape[0] == 0:
        return found
    position = xp.minimum(xp.searchsorted(own_keys, keys), own_keys.shape[0] - 1)
    hit = own_keys[position] == keys
    found[hit] = own_values[position[hit]]
    return found
