"""The sparse conversion kernels (PHI's ``paddle/phi/kernels/sparse/sparse_utils_kernel.h`` and
``coalesce_kernel.h``): ``dense_to_csr``, ``coo_to_csr``,
``coo_to_dense``, ``csr_to_dense``, ``values_{coo,csr}``, ``coalesce_coo``, the grads of
``to_dense`` and ``values`` PHI has (``coo_to_dense_grad``, ``values_coo_grad``), and
``mask_as_{coo,csr}`` (``mask_kernel.h``: a dense tensor's entries at a sparse pattern) with
their grads.

A kernel from dense tensors to a sparse one is selected by its output's kind
(runtime/sparse/registry.py, ``OutputKindDispatcher``): its input cannot say which.
"""

from __future__ import annotations

from math import prod
from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.sparse_arrays import (
    coalesce_parts,
    coo_to_csr,
    dense_to_coo,
    key_space,
    keys_of,
    make_coo,
)
from phiops.runtime.kernels.impl.sparse_unary_kernel import with_values
from phiops.runtime.kernels.kernel import KernelContext
from phiops.runtime.kernels.registration import COMPLEX, register_kernel
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__: list[str] = []

Array = Any

_D = DataType
_NUMBERS = (
    _D.FLOAT16,
    _D.FLOAT32,
    _D.FLOAT64,
    _D.INT8,
    _D.UINT8,
    _D.INT16,
    _D.INT32,
    _D.INT64,
) + COMPLEX
# the value dtypes of PHI's CPU conversion kernels (runtime/kernels/paddle_3_3_1_cpu.json)
FROM_DENSE = _NUMBERS
FROM_SPARSE = (_D.BOOL,) + _NUMBERS
COALESCE = tuple(d for d in _NUMBERS if d is not _D.INT8)
# the grads of to_dense and values: no float16
SPARSE_GRAD = tuple(d for d in FROM_SPARSE if d is not _D.FLOAT16)
# mask_as's: no float16 (its grads have it)
MASK_AS = SPARSE_GRAD


def _check_csr_rank(x: Any) -> None:
    if len(x.shape) not in (2, 3):
        raise InvalidArgumentError(
            f"to_sparse_csr(): argument 'x' must be 2-D or 3-D, got shape {list(x.shape)}"
        )


@register_kernel("dense_to_csr", dtypes=FROM_DENSE)
def dense_to_csr_kernel(ctx: KernelContext, x: Array) -> SparseCsrTensor:
    """PHI's ``dense_to_csr``: the nonzeros of a 2-D or 3-D ``x``."""
    _check_csr_rank(x)
    return coo_to_csr(dense_to_coo(x, len(x.shape)))


@register_kernel("coo_to_csr", dtypes=FROM_SPARSE)
def coo_to_csr_kernel(ctx: KernelContext, x: SparseCooTensor) -> SparseCsrTensor:
    """PHI's ``coo_to_csr``: a 2-D or 3-D COO tensor whose every dim is sparse, coalesced."""
    _check_csr_rank(x)
    if x.sparse_dim != len(x.shape):
        raise InvalidArgumentError(
            f"to_sparse_csr(): argument 'x' must have every dim sparse (sparse_dim "
            f"{x.sparse_dim}, rank {len(x.shape)})"
        )
    return coo_to_csr(x)


@register_kernel("coo_to_dense", dtypes=FROM_SPARSE)
def coo_to_dense_kernel(ctx: KernelContext, x: SparseCooTensor) -> Array:
    """PHI's ``coo_to_dense``: the dense tensor (repeated entries added)."""
    return x.to_dense().array


@register_kernel("csr_to_dense", dtypes=FROM_SPARSE)
def csr_to_dense_kernel(ctx: KernelContext, x: SparseCsrTensor) -> Array:
    """PHI's ``csr_to_dense``."""
    return x.to_dense().array


@register_kernel("coo_to_dense_grad", dtypes=SPARSE_GRAD)
def coo_to_dense_grad_kernel(
    ctx: KernelContext, x: SparseCooTensor, out_grad: Array
) -> SparseCooTensor:
    """PHI's ``coo_to_dense_grad``: the dense gradient at x's entries, x's pattern."""
    rows = out_grad.reshape((-1,) + tuple(x.values.array.shape[1:]))
    return with_values(x, rows[keys_of(x)])


@register_kernel("values_coo", dtypes=FROM_SPARSE)
def values_coo_kernel(ctx: KernelContext, x: SparseCooTensor) -> Array:
    """PHI's ``values_coo``: the stored values ``[nnz, *dense dims]``, in entry order."""
    return x.values.array


@register_kernel("values_csr", dtypes=FROM_SPARSE)
def values_csr_kernel(ctx: KernelContext, x: SparseCsrTensor) -> Array:
    """PHI's ``values_csr``."""
    return x.values.array


@register_kernel("values_coo_grad", dtypes=SPARSE_GRAD)
def values_coo_grad_kernel(
    ctx: KernelContext, x: SparseCooTensor, out_grad: Array
) -> SparseCooTensor:
    """PHI's ``values_coo_grad``: the values' gradient in x's pattern."""
    return with_values(x, out_grad)


@register_kernel("coalesce_coo", dtypes=COALESCE)
def coalesce_coo_kernel(ctx: KernelContext, x: SparseCooTensor) -> SparseCooTensor:
    """PHI's ``coalesce_coo``: the indices sorted and each once, a repeated one's values added."""
    keys, values = coalesce_parts(keys_of(x), x.values.array)
    return make_coo(keys, values, x.shape, x.sparse_dim, True)


def _mask_as(x: Array, mask: Any) -> Any:
    if tuple(x.shape) != tuple(mask.shape):
        raise InvalidArgumentError(
            f"mask_as(): arguments 'x' {list(x.shape)} and 'mask' {list(mask.shape)} must have "
            "the same shape"
        )
    space = key_space(mask)
    rows = x.reshape((prod(space),) + tuple(x.shape[len(space) :]))
    return with_values(mask, rows[keys_of(mask)])


def _mask_as_grad(x: Array, mask: Any, out_grad: Any) -> Array:
    return with_values(mask, out_grad.values.array).to_dense().array.astype(x.dtype, copy=False)


@register_kernel("mask_as_coo", dtypes=MASK_AS)
def mask_as_coo_kernel(ctx: KernelContext, x: Array, mask: SparseCooTensor) -> SparseCooTensor:
    """PHI's ``mask_as_coo``: dense ``x``'s entries at ``mask``'s pattern."""
    return _mask_as(x, mask)


@register_kernel("mask_as_csr", dtypes=MASK_AS)
def mask_as_csr_kernel(ctx: KernelContext, x: Array, mask: SparseCsrTensor) -> SparseCsrTensor:
    """PHI's ``mask_as_csr``."""
    return _mask_as(x, mask)


@register_kernel("mask_as_coo_grad", dtypes=FROM_SPARSE)
def mask_as_coo_grad_kernel(
    ctx: KernelContext, x: Array, mask: SparseCooTensor, out_grad: SparseCooTensor
) -> Array:
    """PHI's ``mask_as_coo_grad``: the output gradient made dense (zero off the pattern)."""
    return _mask_as_grad(x, mask, out_grad)


@register_kernel("mask_as_csr_grad", dtypes=FROM_SPARSE)
def mask_as_csr_grad_kernel(
    ctx: KernelContext, x: Array, mask: SparseCsrTensor, out_grad: SparseCsrTensor
) -> Array:
    """PHI's ``mask_as_csr_grad``."""
    return _mask_as_grad(x, mask, out_grad)
