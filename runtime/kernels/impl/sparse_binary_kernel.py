"""The sparse elementwise kernels (PHI's ``paddle/phi/kernels/sparse/elementwise_kernel.h``):
``add``, ``subtract``, ``multiply``, ``divide`` of two sparse tensors of one kind, shape and
sparse_dim (``add_coo_coo``, ``add_csr_csr``, ...), and ``add_coo_dense``.

They work in key space (runtime/kernels/impl/sparse_arrays.py): the output's pattern is the
union of the inputs' (every position for ``divide``, as PaddlePaddle's CPU kernel gives), each
input's values looked up there, missing ones zero; a COO output is coalesced.
"""

from __future__ import annotations

import contextlib
from math import prod
from typing import Any, Callable

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.impl.sparse_arrays import (
    key_space,
    keys_of,
    lookup,
    make_coo,
    make_csr,
)
from phiops.runtime.kernels.impl.sparse_unary_kernel import with_values
from phiops.runtime.kernels.kernel import KernelContext
from phiops.runtime.kernels.registration import COMPLEX, register_kernel
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__ = ["SPARSE_ELEMENTWISE", "SPARSE_BIAS", "COMBINE", "check_same_layout", "quiet", "union_of"]

Array = Any
Storage = Any  # SparseCooTensor | SparseCsrTensor

# the value dtypes of PHI's CPU elementwise sparse kernels (runtime/kernels/paddle_3_3_1_cpu.json)
SPARSE_ELEMENTWISE = (
    DataType.FLOAT32,
    DataType.FLOAT64,
    DataType.INT16,
    DataType.INT32,
    DataType.INT64,
) + COMPLEX

# add_coo_dense's (and its grad's): no int16
SPARSE_BIAS = tuple(dtype for dtype in SPARSE_ELEMENTWISE if dtype is not DataType.INT16)

# op -> the function of the two inputs' values at one position
COMBINE: dict[str, Callable[[Array, Array], Array]] = {
    "add": lambda a, b: a + b,
    "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b,
    "divide": lambda a, b: a / b,
}


def quiet(xp: Any) -> Any:
    """A context without numpy's warnings on a division by zero (PHI stores inf/NaN silently)."""
    if xp is np:
        return np.errstate(divide="ignore", invalid="ignore")
    return contextlib.nullcontext()


def check_same_layout(op: str, x: Storage, y: Storage) -> None:
    """InvalidArgumentError unless ``x`` and ``y`` have one shape and one sparse_dim."""
    if x.shape != y.shape:
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' and 'y' must have the same shape, got {list(x.shape)} and "
            f"{list(y.shape)}"
        )
    if key_space(x) != key_space(y):
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' and 'y' must have the same sparse_dim, got "
            f"{len(key_space(x))} and {len(key_space(y))}"
        )


def union_of(xp: Any, op: str, x: Storage, y: Storage) -> Array:
    """The output's keys: every position for ``divide``, else the union of x's and y's keys."""
    if op == "divide":
        return xp.arange(prod(key_space(x)), dtype=xp.int64)
    return xp.unique(xp.concatenate([keys_of(x), keys_of(y)]))


def _elementwise(xp: Any, op: str, x: Storage, y: Storage) -> Storage:
    check_same_layout(op, x, y)
    dtype = x.values.array.dtype
    union = union_of(xp, op, x, y)
    with quiet(xp):
        result = COMBINE[op](lookup(x, union), lookup(y, union)).astype(dtype, copy=False)
    if isinstance(x, SparseCsrTensor):
        return make_csr(union, result, x.shape)
    return make_coo(union, result, x.shape, x.sparse_dim, True)


def _register(op: str) -> None:
    def coo_kernel(ctx: KernelContext, x: SparseCooTensor, y: SparseCooTensor) -> SparseCooTensor:
        return _elementwise(ctx.xp, op, x, y)

    def csr_kernel(ctx: KernelContext, x: SparseCsrTensor, y: SparseCsrTensor) -> SparseCsrTensor:
        return _elementwise(ctx.xp, op, x, y)

    for kernel, kind in ((coo_kernel, "coo_coo"), (csr_kernel, "csr_csr")):
        kernel.__name__ = kernel.__qualname__ = f"{op}_{kind}_kernel"
        kernel.__doc__ = f"PHI's ``{op}_{kind}``: ``{op}`` on the union of the patterns."
        register_kernel(f"{op}_{kind}", dtypes=SPARSE_ELEMENTWISE)(kernel)


for _op in COMBINE:
    _register(_op)


def check_bias(op: str, x: SparseCooTensor, y: Array) -> None:
    """UnimplementedError unless dense ``y`` is 1-D over x's last dim, which x keeps dense
    (the one case PHI's ``add_coo_dense`` takes: a bias added to each stored row)."""
    if len(y.shape) != 1 or x.sparse_dim != len(x.shape) - 1 or y.shape[0] != x.shape[-1]:
        raise UnimplementedError(
            f"{op}(): a sparse COO 'x' {list(x.shape)} (sparse_dim {x.sparse_dim}) with a dense "
            f"'y' {list(y.shape)} is implemented only for a 1-D 'y' over x's last dim, kept "
            "dense in x (sparse_dim = rank - 1), as PaddlePaddle 3.3.1's kernel"
        )


@register_kernel("add_coo_dense", dtypes=SPARSE_BIAS)
def add_coo_dense_kernel(ctx: KernelContext, x: SparseCooTensor, y: Array) -> SparseCooTensor:
    """PHI's ``add_coo_dense``: dense 1-D ``y`` added to each stored row of ``x`` (whose last
    dim is dense), the pattern kept."""
    check_bias("add", x, y)
    values = x.values.array
    return with_values(x, (values + y).astype(values.dtype, copy=False))
