"""The sparse matrix-product grad kernels (PHI's ``matmul_grad_kernel.h``, ``mv_grad_kernel.h``,
``addmm_grad_kernel.h`` under ``paddle/phi/kernels/sparse/``): a sparse input's gradient has its
pattern (the product's gradient at its entries), a dense input's is dense.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.backends import scatter_at
from phiops.runtime.kernels.impl.sparse_arrays import keys_of, lookup
from phiops.runtime.kernels.impl.sparse_matmul_kernel import (
    SPARSE_PRODUCT,
    entries,
    segment_product,
)
from phiops.runtime.kernels.impl.sparse_unary_kernel import with_values
from phiops.runtime.kernels.kernel import KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__: list[str] = []

Array = Any
Storage = Any  # SparseCooTensor | SparseCsrTensor


def _sparse_dense_grads(x: Storage, y: Array, out_grad: Array, scale: float = 1.0) -> tuple:
    """(x_grad in x's pattern, dense y_grad) of ``x @ y`` for the dense ``out_grad``."""
    rows, cols, vals, batch = entries(x)
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    source = (rows // m) * k + cols if batch > 1 else cols
    g = out_grad.reshape(batch * m, n)
    if scale != 1.0:
        g = g * g.dtype.type(scale)
    flat_y = y.reshape(batch * k, n)
    gx = (g[rows] * flat_y[source]).sum(axis=-1).astype(vals.dtype, copy=False)
    gy = segment_product(source, rows, vals.astype(y.dtype, copy=False), g, batch * k)
    return with_values(x, gx), gy.reshape(y.shape)


def _sparse_sparse_grads(x: Storage, y: Storage, out_grad: Storage, scale: float = 1.0) -> tuple:
    """(x_grad, y_grad) of ``x @ y`` in x's and y's patterns, for the sparse ``out_grad``."""
    g = out_grad.to_dense().array
    if scale != 1.0:
        g = g * g.dtype.type(scale)
    xd, yd = x.to_dense().array, y.to_dense().array
    gx = (g @ yd.swapaxes(-1, -2)).reshape(-1)[keys_of(x)]
    gy = (xd.swapaxes(-1, -2) @ g).reshape(-1)[keys_of(y)]
    return with_values(x, gx), with_values(y, gy)


@register_kernel("matmul_coo_dense_grad", dtypes=SPARSE_PRODUCT)
def matmul_coo_dense_grad_kernel(
    ctx: KernelContext, x: SparseCooTensor, y: Array, out_grad: Array
) -> tuple[SparseCooTensor, Array]:
    """PHI's ``matmul_coo_dense_grad``: x_grad in x's pattern, dense y_grad."""
    return _sparse_dense_grads(x, y, out_grad)


@register_kernel("matmul_csr_dense_grad", dtypes=SPARSE_PRODUCT)
def matmul_csr_dense_grad_kernel(
    ctx: KernelContext, x: SparseCsrTensor, y: Array, out_grad: Array
) -> tuple[SparseCsrTensor, Array]:
    """PHI's ``matmul_csr_dense_grad``."""
    return _sparse_dense_grads(x, y, out_grad)


@register_kernel("matmul_coo_coo_grad", dtypes=SPARSE_PRODUCT)
def matmul_coo_coo_grad_kernel(
    ctx: KernelContext, x: SparseCooTensor, y: SparseCooTensor, out_grad: SparseCooTensor
) -> tuple[SparseCooTensor, SparseCooTensor]:
    """PHI's ``matmul_coo_coo_grad``: x_grad and y_grad in x's and y's patterns."""
    return _sparse_sparse_grads(x, y, out_grad)


@register_kernel("matmul_csr_csr_grad", dtypes=SPARSE_PRODUCT)
def matmul_csr_csr_grad_kernel(
    ctx: KernelContext, x: SparseCsrTensor, y: SparseCsrTensor, out_grad: SparseCsrTensor
) -> tuple[SparseCsrTensor, SparseCsrTensor]:
    """PHI's ``matmul_csr_csr_grad``."""
    return _sparse_sparse_grads(x, y, out_grad)


@register_kernel("masked_matmul_csr_grad", dtypes=SPARSE_PRODUCT)
def masked_matmul_csr_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: SparseCsrTensor
) -> tuple[Array, Array]:
    """PHI's ``masked_matmul_csr_grad``: the dense gradients of ``x @ y`` taken at the entries
    of ``out_grad`` (the mask's pattern) only."""
    xp = ctx.xp
    rows, cols, gv, batch = entries(out_grad)
    m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
    flat_x = x.reshape(batch * m, k)
    flat_yt = y.swapaxes(-1, -2).reshape(batch * n, k)
    other = (rows // m) * n + cols if batch > 1 else cols
    gx = xp.zeros((batch * m, k), dtype=x.dtype)
    gyt = xp.zeros((batch * n, k), dtype=x.dtype)
    if rows.shape[0]:
        scatter_at("add", gx, rows, gv[:, None] * flat_yt[other])
        scatter_at("add", gyt, other, gv[:, None] * flat_x[rows])
    gy = gyt.reshape(tuple(y.shape[:-2]) + (n, k)).swapaxes(-1, -2)
    return gx.reshape(x.shape), xp.ascontiguousarray(gy)


def _mv_grads(x: Storage, vec: Array, out_grad: Array) -> tuple:
    x_grad, vec_grad = _sparse_dense_grads(x, vec.reshape(-1, 1), out_grad.reshape(-1, 1))
    return x_grad, vec_grad.reshape(vec.shape)


@register_kernel("mv_coo_grad", dtypes=SPARSE_PRODUCT)
def mv_coo_grad_kernel(
    ctx: KernelContext, x: SparseCooTensor, vec: Array, out_grad: Array
) -> tuple[SparseCooTensor, Array]:
    """PHI's ``mv_coo_grad``: x_grad in x's pattern, dense vec_grad."""
    return _mv_grads(x, vec, out_grad)


@register_kernel("mv_csr_grad", dtypes=SPARSE_PRODUCT)
def mv_csr_grad_kernel(
    ctx: KernelContext, x: SparseCsrTensor, vec: Array, out_grad: Array
) -> tuple[SparseCsrTensor, Array]:
    """PHI's ``mv_csr_grad``."""
    return _mv_grads(x, vec, out_grad)


def _addmm_dense_grads(
    input: Array, x: Storage, y: Array, out_grad: Array, alpha: float, beta: float
) -> tuple:
    x_grad, y_grad = _sparse_dense_grads(x, y, out_grad, alpha)
    input_grad = (out_grad * out_grad.dtype.type(beta)).astype(input.dtype, copy=False)
    return input_grad, x_grad, y_grad


def _addmm_sparse_grads(
    input: Storage, x: Storage, y: Storage, out_grad: Storage, alpha: float, beta: float
) -> tuple:
    x_grad, y_grad = _sparse_sparse_grads(x, y, out_grad, alpha)
    at_input = lookup(out_grad, keys_of(input))
    dtype = input.values.array.dtype
    input_grad = with_values(input, (at_input * dtype.type(beta)).astype(dtype, copy=False))
    return input_grad, x_grad, y_grad


@register_kernel("addmm_coo_dense_grad", dtypes=SPARSE_PRODUCT)
def addmm_coo_dense_grad_kernel(
    ctx: KernelContext,
    input: Array,
    x: SparseCooTensor,
    y: Array,
    out_grad: Array,
    alpha: float,
    beta: float,
) -> tuple[Array, SparseCooTensor, Array]:
    """PHI's ``addmm_coo_dense_grad``: ``beta * out_grad`` for input, ``alpha`` times the
    product's gradients for x (its pattern) and y."""
    return _addmm_dense_grads(input, x, y, out_grad, alpha, beta)


@register_kernel("addmm_csr_dense_grad", dtypes=SPARSE_PRODUCT)
def addmm_csr_dense_grad_kernel(
    ctx: KernelContext,
    input: Array,
    x: SparseCsrTensor,
    y: Array,
    out_grad: Array,
    alpha: float,
    beta: float,
) -> tuple[Array, SparseCsrTensor, Array]:
    """PHI's ``addmm_csr_dense_grad``."""
    return _addmm_dense_grads(input, x, y, out_grad, alpha, beta)


@register_kernel("addmm_coo_coo_grad", dtypes=SPARSE_PRODUCT)
def addmm_coo_coo_grad_kernel(
    ctx: KernelContext,
    input: SparseCooTensor,
    x: SparseCooTensor,
    y: SparseCooTensor,
    out_grad: SparseCooTensor,
    alpha: float,
    beta: float,
) -> tuple[SparseCooTensor, SparseCooTensor, SparseCooTensor]:
    """PHI's ``addmm_coo_coo_grad``: each input's gradient in its pattern."""
    return _addmm_sparse_grads(input, x, y, out_grad, alpha, beta)


@register_kernel("addmm_csr_csr_grad", dtypes=SPARSE_PRODUCT)
def addmm_csr_csr_grad_kernel(
    ctx: KernelContext,
    input: SparseCsrTensor,
    x: SparseCsrTensor,
    y: SparseCsrTensor,
    out_grad: SparseCsrTensor,
    alpha: float,
    beta: float,
) -> tuple[SparseCsrTensor, SparseCsrTensor, SparseCsrTensor]:
    """PHI's ``addmm_csr_csr_grad``."""
    return _addmm_sparse_grads(input, x, y, out_grad, alpha, beta)
