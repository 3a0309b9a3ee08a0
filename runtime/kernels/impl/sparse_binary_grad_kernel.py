"""The sparse elementwise grad kernels (PHI's
``paddle/phi/kernels/sparse/elementwise_grad_kernel.h``): ``x_grad`` has x's pattern and
``y_grad`` y's, each holding the output gradient's values at its entries' keys times the op's
derivative there (complex values conjugated, as PHI's).

The output gradient arrives with the forward output's pattern, entries in its order
(runtime/sparse/autograd.py makes it so); it is looked up by key, so any pattern serves.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.kernels.impl.sparse_arrays import keys_of, lookup
from phiops.runtime.kernels.impl.sparse_binary_kernel import (
    COMBINE,
    SPARSE_BIAS,
    SPARSE_ELEMENTWISE,
    check_bias,
    check_same_layout,
    quiet,
)
from phiops.runtime.kernels.impl.sparse_unary_kernel import with_values
from phiops.runtime.kernels.kernel import KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__: list[str] = []

Array = Any
Storage = Any  # SparseCooTensor | SparseCsrTensor


def _conj(xp: Any, values: Array) -> Array:
    return xp.conj(values) if values.dtype.kind == "c" else values


def _grads(
    xp: Any, op: str, x: Storage, y: Storage, out: Storage | None, out_grad: Storage
) -> tuple[Storage, Storage]:
    check_same_layout(f"{op}_grad", x, y)
    dtype = x.values.array.dtype
    kx, ky = keys_of(x), keys_of(y)
    gx, gy = lookup(out_grad, kx), lookup(out_grad, ky)
    with quiet(xp):
        if op == "subtract":
            gy = -gy
        elif op == "multiply":
            gx = gx * _conj(xp, lookup(y, kx))
            gy = gy * _conj(xp, lookup(x, ky))
        elif op == "divide":
            at_y = _conj(xp, lookup(y, ky))
            gx = gx / _conj(xp, lookup(y, kx))
            gy = -gy * _conj(xp, lookup(out, ky)) / at_y
    return (
        with_values(x, gx.astype(dtype, copy=False)),
        with_values(y, gy.astype(dtype, copy=False)),
    )


def _register(op: str) -> None:
    if op == "divide":

        def coo_kernel(
            ctx: KernelContext,
            x: SparseCooTensor,
            y: SparseCooTensor,
            out: SparseCooTensor,
            out_grad: SparseCooTensor,
        ) -> tuple[SparseCooTensor, SparseCooTensor]:
            return _grads(ctx.xp, op, x, y, out, out_grad)

        def csr_kernel(
            ctx: KernelContext,
            x: SparseCsrTensor,
            y: SparseCsrTensor,
            out: SparseCsrTensor,
            out_grad: SparseCsrTensor,
        ) -> tuple[SparseCsrTensor, SparseCsrTensor]:
            return _grads(ctx.xp, op, x, y, out, out_grad)

    else:

        def coo_kernel(  # type: ignore[misc]
            ctx: KernelContext, x: SparseCooTensor, y: SparseCooTensor, out_grad: SparseCooTensor
        ) -> tuple[SparseCooTensor, SparseCooTensor]:
            return _grads(ctx.xp, op, x, y, None, out_grad)

        def csr_kernel(  # type: ignore[misc]
            ctx: KernelContext, x: SparseCsrTensor, y: SparseCsrTensor, out_grad: SparseCsrTensor
        ) -> tuple[SparseCsrTensor, SparseCsrTensor]:
            return _grads(ctx.xp, op, x, y, None, out_grad)

    for kernel, kind in ((coo_kernel, "coo_coo"), (csr_kernel, "csr_csr")):
        kernel.__name__ = kernel.__qualname__ = f"{op}_{kind}_grad_kernel"
        kernel.__doc__ = (
            f"PHI's ``{op}_{kind}_grad``: the gradients of ``{op}`` in x's and y's patterns."
        )
        register_kernel(f"{op}_{kind}_grad", dtypes=SPARSE_ELEMENTWISE)(kernel)


for _op in COMBINE:
    _register(_op)


@register_kernel("add_coo_dense_grad", dtypes=SPARSE_BIAS)
def add_coo_dense_grad_kernel(
    ctx: KernelContext, x: SparseCooTensor, y: Array, out_grad: SparseCooTensor
) -> tuple[SparseCooTensor, Array]:
    """PHI's ``add_coo_dense_grad``: ``x_grad`` the output gradient in x's pattern, ``y_grad``
    (dense, y's shape) its stored rows summed."""
    check_bias("add_grad", x, y)
    g = lookup(out_grad, keys_of(x))
    return with_values(x, g.astype(x.values.array.dtype, copy=False)), g.sum(axis=0).astype(
        y.dtype, copy=False
    )
