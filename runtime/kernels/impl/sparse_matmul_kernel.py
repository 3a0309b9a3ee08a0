"""The sparse matrix-product kernels (PHI's ``paddle/phi/kernels/sparse/matmul_kernel.h``,
``mv_kernel.h``, ``addmm_kernel.h``): ``matmul_{coo,csr}_{dense,coo,csr}``,
``masked_matmul_csr``, ``mv_{coo,csr}``, ``addmm_{coo,csr}_{dense,coo,csr}``.

A sparse 2-D or 3-D (batched) ``x`` times a dense ``y`` is a segmented sum over x's entries
(scipy.sparse on CPU when it is installed); a sparse ``y`` gives a sparse product whose
pattern is the product's nonzeros (COO coalesced, CSR sorted).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.backends import module_of, scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.impl.sparse_arrays import coo_parts, keys_of, lookup, make_coo, make_csr
from phiops.runtime.kernels.impl.sparse_unary_kernel import with_values
from phiops.runtime.kernels.kernel import KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__ = [
    "SPARSE_PRODUCT",
    "entries",
    "segment_product",
    "sparse_dense_product",
    "sparse_sparse_product",
    "masked_product",
    "check_all_sparse",
]

Array = Any
Storage = Any  # SparseCooTensor | SparseCsrTensor

# the value dtypes of PHI's sparse product kernels (float and double)
SPARSE_PRODUCT = (DataType.FLOAT32, DataType.FLOAT64)


def check_all_sparse(op: str, storage: Storage, argument: str = "x") -> None:
    """UnimplementedError for a COO tensor with dense dims (the products take sparse dims only)."""
    if isinstance(storage, SparseCooTensor) and storage.sparse_dim != len(storage.shape):
        raise UnimplementedError(
            f"{op}(): a COO '{argument}' with dense dims (sparse_dim {storage.sparse_dim} < rank "
            f"{len(storage.shape)}) is not implemented"
        )


def _check_product(op: str, x_shape: tuple[int, ...], y_shape: tuple[int, ...]) -> None:
    if (
        len(x_shape) not in (2, 3)
        or len(x_shape) != len(y_shape)
        or x_shape[:-2] != y_shape[:-2]
        or x_shape[-1] != y_shape[-2]
    ):
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' {list(x_shape)} and 'y' {list(y_shape)} cannot be "
            "multiplied: they need one rank (2 or 3), one batch and x's last dim equal to y's "
            "second-to-last"
        )


def entries(storage: Storage) -> tuple[Array, Array, Array, int]:
    """(flat row over batch * rows, column, values, batch) of a 2-D/3-D sparse matrix."""
    indices, values = coo_parts(storage)
    shape = storage.shape
    if len(shape) == 3:
        return indices[0] * shape[1] + indices[1], indices[2], values, shape[0]
    return indices[0], indices[1], values, 1


def segment_product(
    rows: Array, source: Array, vals: Array, operand: Array, out_rows: int
) -> Array:
    """``out[r] = sum of vals[e] * operand[source[e]]`` over the entries ``e`` of row ``r``, as a
    dense ``[out_rows, N]`` array: a CSR product. On CPU through scipy.sparse when it is
    installed, else numpy's segmented sum over the entries sorted by row; on other backends
    through ``scatter_at``."""
    xp = module_of(operand)
    width = operand.shape[-1]
    if xp is np:
        try:
            import scipy.sparse as scipy_sparse
        except ImportError:
            scipy_sparse = None
        if scipy_sparse is not None:
            matrix = scipy_sparse.csr_matrix(
                (vals, (rows, source)), shape=(out_rows, operand.shape[0])
            )
            return np.asarray(matrix @ operand, dtype=operand.dtype)
        out = np.zeros((out_rows, width), dtype=operand.dtype)
        if rows.shape[0]:
            order = np.argsort(rows, kind="stable")
            sorted_rows = rows[order]
            starts = np.flatnonzero(np.r_[True, sorted_rows[1:] != sorted_rows[:-1]])
            products = vals[order, None] * operand[source[order]]
            out[sorted_rows[starts]] = np.add.reduceat(products, starts, axis=0)
        return out
    out = xp.zeros((out_rows, width), dtype=operand.dtype)
    if rows.shape[0]:
        scatter_at("add", out, rows, vals[:, None] * operand[source])
    return out


def _sources(storage: Storage) -> tuple[Array, Array, Array, int, int, int]:
    """(rows, the row of the flat dense operand each entry reads, values, batch, M, K)."""
    rows, cols, vals, batch = entries(storage)
    m, k = storage.shape[-2], storage.shape[-1]
    source = (rows // m) * k + cols if batch > 1 else cols
    return rows, source, vals, batch, m, k


def sparse_dense_product(op: str, storage: Storage, y: Array) -> Array:
    """``storage @ y`` as a dense array ([batch,] M, N)."""
    check_all_sparse(op, storage)
    _check_product(op, storage.shape, tuple(y.shape))
    rows, source, vals, batch, m, k = _sources(storage)
    n = y.shape[-1]
    flat_y = y.reshape(batch * k, n)
    out = segment_product(rows, source, vals.astype(y.dtype, copy=False), flat_y, batch * m)
    return out.reshape(tuple(storage.shape[:-1]) + (n,))


def sparse_sparse_product(op: str, x: Storage, y: Storage) -> Storage:
    """``x @ y`` of two sparse tensors of one kind: the product's nonzeros, of x's kind."""
    check_all_sparse(op, x)
    check_all_sparse(op, y, "y")
    _check_product(op, x.shape, y.shape)
    product = x.to_dense().array @ y.to_dense().array
    xp = module_of(product)
    shape = tuple(product.shape)
    keys = xp.nonzero(product.reshape(-1))[0].astype(xp.int64)
    vals = product.reshape(-1)[keys]
    if isinstance(x, SparseCsrTensor):
        return make_csr(keys, vals, shape)
    return make_coo(keys, vals, shape, len(shape), True)


def masked_product(op: str, x: Array, y: Array, mask: Storage) -> Array:
    """The values of ``x @ y`` at the entries of ``mask``, in its entry order."""
    _check_product(op, tuple(x.shape), tuple(y.shape))
    expected = tuple(x.shape[:-1]) + (y.shape[-1],)
    if mask.shape != expected:
        raise InvalidArgumentError(
            f"{op}(): argument 'mask' must have the product's shape {list(expected)}, got "
            f"{list(mask.shape)}"
        )
    rows, cols, _, batch = entries(mask)
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    flat_x = x.reshape(batch * m, k)
    flat_yt = y.swapaxes(-1, -2).reshape(batch * n, k)
    other = (rows // m) * n + cols if batch > 1 else cols
    return (flat_x[rows] * flat_yt[other]).sum(axis=-1).astype(x.dtype, copy=False)


@register_kernel("matmul_coo_dense", dtypes=SPARSE_PRODUCT)
def matmul_coo_dense_kernel(ctx: KernelContext, x: SparseCooTensor, y: Array) -> Array:
    """PHI's ``matmul_coo_dense``: sparse ``x`` @ dense ``y``, dense."""
    return sparse_dense_product("matmul", x, y)


@register_kernel("matmul_csr_dense", dtypes=SPARSE_PRODUCT)
def matmul_csr_dense_kernel(ctx: KernelContext, x: SparseCsrTensor, y: Array) -> Array:
    """PHI's ``matmul_csr_dense``: sparse ``x`` @ dense ``y``, dense."""
    return sparse_dense_product("matmul", x, y)


@register_kernel("matmul_coo_coo", dtypes=SPARSE_PRODUCT)
def matmul_coo_coo_kernel(
    ctx: KernelContext, x: SparseCooTensor, y: SparseCooTensor
) -> SparseCooTensor:
    """PHI's ``matmul_coo_coo``: the product's nonzeros, coalesced."""
    return sparse_sparse_product("matmul", x, y)


@register_kernel("matmul_csr_csr", dtypes=SPARSE_PRODUCT)
def matmul_csr_csr_kernel(
    ctx: KernelContext, x: SparseCsrTensor, y: SparseCsrTensor
) -> SparseCsrTensor:
    """PHI's ``matmul_csr_csr``: the product's nonzeros."""
    return sparse_sparse_product("matmul", x, y)


@register_kernel("masked_matmul_csr", dtypes=SPARSE_PRODUCT)
def masked_matmul_csr_kernel(
    ctx: KernelContext, x: Array, y: Array, mask: SparseCsrTensor
) -> SparseCsrTensor:
    """PHI's ``masked_matmul_csr``: dense ``x @ y`` at the entries of ``mask`` only."""
    return with_values(mask, masked_product("masked_matmul", x, y, mask))


def _mv(op: str, x: Storage, vec: Array) -> Array:
    if len(x.shape) != 2 or len(vec.shape) != 1 or vec.shape[0] != x.shape[1]:
        raise InvalidArgumentError(
            f"{op}(): argument 'x' must be 2-D [M, N] and 'vec' 1-D [N], got {list(x.shape)} "
            f"and {list(vec.shape)}"
        )
    return sparse_dense_product(op, x, vec.reshape(-1, 1)).reshape(-1)


@register_kernel("mv_coo", dtypes=SPARSE_PRODUCT)
def mv_coo_kernel(ctx: KernelContext, x: SparseCooTensor, vec: Array) -> Array:
    """PHI's ``mv_coo``: sparse 2-D ``x`` @ dense 1-D ``vec``."""
    return _mv("mv", x, vec)


@register_kernel("mv_csr", dtypes=SPARSE_PRODUCT)
def mv_csr_kernel(ctx: KernelContext, x: SparseCsrTensor, vec: Array) -> Array:
    """PHI's ``mv_csr``."""
    return _mv("mv", x, vec)


def _addmm_dense(input: Array, x: Storage, y: Array, beta: float, alpha: float) -> Array:
    product = sparse_dense_product("addmm", x, y)
    if tuple(input.shape) != tuple(product.shape):
        raise InvalidArgumentError(
            f"addmm(): argument 'input' must have the product's shape {list(product.shape)}, "
            f"got {list(input.shape)}"
        )
    kind = input.dtype.type
    return (kind(beta) * input + kind(alpha) * product).astype(input.dtype, copy=False)


def _addmm_sparse(input: Storage, x: Storage, y: Storage, beta: float, alpha: float) -> Storage:
    product = sparse_sparse_product("addmm", x, y)
    if input.shape != product.shape:
        raise InvalidArgumentError(
            f"addmm(): argument 'input' must have the product's shape {list(product.shape)}, "
            f"got {list(input.shape)}"
        )
    check_all_sparse("addmm", input, "input")
    xp = module_of(product.values.array)
    union = xp.unique(xp.concatenate([keys_of(input), keys_of(product)]))
    dtype = product.values.array.dtype
    values = (
        dtype.type(beta) * lookup(input, union) + dtype.type(alpha) * lookup(product, union)
    ).astype(dtype, copy=False)
    if isinstance(x, SparseCsrTensor):
        return make_csr(union, values, product.shape)
    return make_coo(union, values, product.shape, len(product.shape), True)


@register_kernel("addmm_coo_dense", dtypes=SPARSE_PRODUCT)
def addmm_coo_dense_kernel(
    ctx: KernelContext, input: Array, x: SparseCooTensor, y: Array, beta: float, alpha: float
) -> Array:
    """PHI's ``addmm_coo_dense``: ``beta * input + alpha * (x @ y)``, dense."""
    return _addmm_dense(input, x, y, beta, alpha)


@register_kernel("addmm_csr_dense", dtypes=SPARSE_PRODUCT)
def addmm_csr_dense_kernel(
    ctx: KernelContext, input: Array, x: SparseCsrTensor, y: Array, beta: float, alpha: float
) -> Array:
    """PHI's ``addmm_csr_dense``."""
    return _addmm_dense(input, x, y, beta, alpha)


@register_kernel("addmm_coo_coo", dtypes=SPARSE_PRODUCT)
def addmm_coo_coo_kernel(
    ctx: KernelContext,
    input: SparseCooTensor,
    x: SparseCooTensor,
    y: SparseCooTensor,
    beta: float,
    alpha: float,
) -> SparseCooTensor:
    """PHI's ``addmm_coo_coo``: ``beta * input + alpha * (x @ y)`` on the union of the
    patterns, coalesced."""
    return _addmm_sparse(input, x, y, beta, alpha)


@register_kernel("addmm_csr_csr", dtypes=SPARSE_PRODUCT)
def addmm_csr_csr_kernel(
    ctx: KernelContext,
    input: SparseCsrTensor,
    x: SparseCsrTensor,
    y: SparseCsrTensor,
    beta: float,
    alpha: float,
) -> SparseCsrTensor:
    """PHI's ``addmm_csr_csr``."""
    return _addmm_sparse(input, x, y, beta, alpha)
