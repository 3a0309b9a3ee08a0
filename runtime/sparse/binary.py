"""The sparse binary ops: ``add``, ``subtract``, ``multiply``, ``divide`` of two sparse tensors
of one kind, the matrix products (``matmul``, ``masked_matmul``, ``addmm``, ``mv``) and
``mask_as``, with their gradients (PaddlePaddle's sparse_ops.yaml / sparse_backward.yaml).

The elementwise ops are generated from PaddlePaddle's sparse_ops.yaml entries
(ops/sparse_ops.yaml -> generated/sparse_api.py; kernels ``add_coo_coo``, ``add_csr_csr``, ...
in runtime/kernels/impl/sparse_binary_*.py); these are ``paddle.sparse``'s functions over them,
which check their arguments first as PaddlePaddle's Python does.
"""

from __future__ import annotations

from math import prod
from typing import Any

import numpy as np

from phiops.runtime.backends import module_of, scatter_at
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.impl.sparse_arrays import (
    coo_parts,
    key_space,
    keys_of,
    make_coo,
    make_csr,
)
from phiops.runtime.sparse.autograd import attach
from phiops.runtime.sparse.creation import dense, grad_values, storage_of, with_values, wrap_sparse
from phiops.runtime.sparse.registry import sparse_op_api
from phiops.runtime.sparse.unary import scale
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__ = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "matmul",
    "masked_matmul",
    "addmm",
    "mv",
    "mask_as",
]


def _check_pair(op: str, x: Tensor, y: Tensor) -> tuple[Any, Any]:
    sx = storage_of(x, op, "x")
    if isinstance(y, Tensor) and y.meta.kind is TensorKind.DENSE:
        raise UnimplementedError(
            f"{op}(): a sparse 'x' with a dense 'y' is not implemented (PaddlePaddle 3.3.1's CPU "
            "kernels refuse it too); make 'y' sparse (y.to_sparse_coo(...)) or 'x' dense"
        )
    sy = storage_of(y, op, "y")
    if x.meta.kind is not y.meta.kind:
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' and 'y' must be sparse tensors of one kind, got a "
            f"{x.meta.kind.title} and a {y.meta.kind.title}"
        )
    if sx.shape != sy.shape:
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' and 'y' must have the same shape, got {list(sx.shape)} and "
            f"{list(sy.shape)}"
        )
    if x.dtype is not y.dtype:
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' and 'y' must have the same dtype, got "
            f"{x.dtype.name.lower()} and {y.dtype.name.lower()}"
        )
    if key_space(sx) != key_space(sy):
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' and 'y' must have the same sparse_dim, got "
            f"{len(key_space(sx))} and {len(key_space(sy))}"
        )
    return sx, sy


def add(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``x + y`` of two sparse tensors of one kind, shape and dtype: the union of their
    patterns, coalesced (sparse op ``add``, ops/sparse_ops.yaml)."""
    _check_pair("add", x, y)
    return sparse_op_api("add")(x, y)


def subtract(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``x - y`` of two sparse tensors of one kind, shape and dtype (the union of their
    patterns; sparse op ``subtract``)."""
    _check_pair("subtract", x, y)
    return sparse_op_api("subtract")(x, y)


def multiply(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``x * y`` of two sparse tensors of one kind, shape and dtype (on the union of their
    patterns, as PaddlePaddle's kernel: an entry of one only is a stored zero; sparse op
    ``multiply``)."""
    _check_pair("multiply", x, y)
    return sparse_op_api("multiply")(x, y)


def divide(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``x / y`` of two sparse tensors of one kind, shape and dtype, at every position (a zero
    divided by a zero is NaN there, as PaddlePaddle 3.3.1's CPU kernel stores it; sparse op
    ``divide``)."""
    _check_pair("divide", x, y)
    return sparse_op_api("divide")(x, y)


def _matrix_dims(op: str, argument: str, shape: tuple[int, ...]) -> None:
    if len(shape) not in (2, 3):
        raise InvalidArgumentError(
            f"{op}(): argument '{argument}' must be 2-D or 3-D (batched), got shape {list(shape)}"
        )


def _check_product(
    op: str,
    x_shape: tuple[int, ...],
    y_shape: tuple[int, ...],
    x_name: str = "x",
    y_name: str = "y",
) -> None:
    _matrix_dims(op, x_name, x_shape)
    _matrix_dims(op, y_name, y_shape)
    if len(x_shape) != len(y_shape) or x_shape[:-2] != y_shape[:-2] or x_shape[-1] != y_shape[-2]:
        raise InvalidArgumentError(
            f"{op}(): arguments '{x_name}' {list(x_shape)} and '{y_name}' {list(y_shape)} cannot "
            "be multiplied: they need one rank, one batch and x's last dim equal to y's "
            "second-to-last"
        )


def _entries(storage: Any) -> tuple[Any, Any, Any, int]:
    """(flat row over batch * rows, column, values, batch) of a 2-D/3-D sparse matrix."""
    indices, values = coo_parts(storage)
    shape = storage.shape
    if len(shape) == 3:
        return indices[0] * shape[1] + indices[1], indices[2], values, shape[0]
    return indices[0], indices[1], values, 1


def _segment_product(rows: Any, source: Any, vals: Any, operand: Any, out_rows: int) -> Any:
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


def _sparse_dense_product(storage: Any, y: Any) -> Any:
    """``storage @ y`` as a dense array ([batch,] M, N)."""
    shape = storage.shape
    rows, cols, vals, batch = _entries(storage)
    m, k, n = shape[-2], shape[-1], y.shape[-1]
    flat_y = y.reshape(batch * k, n)
    source = (rows // m) * k + cols if batch > 1 else cols
    out = _segment_product(rows, source, vals.astype(y.dtype, copy=False), flat_y, batch * m)
    return out.reshape(tuple(shape[:-1]) + (n,))


def matmul(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``x @ y`` for a sparse 2-D or 3-D ``x``: with a dense ``y`` a dense result, with a sparse
    ``y`` of ``x``'s kind a sparse result (its pattern: the nonzeros of the product)."""
    op = "matmul"
    sx = storage_of(x, op, "x")
    if isinstance(sx, SparseCooTensor) and sx.sparse_dim != len(sx.shape):
        raise UnimplementedError(
            f"{op}(): a COO 'x' with dense dims (sparse_dim {sx.sparse_dim} < rank "
            f"{len(sx.shape)}) is not implemented"
        )
    if not isinstance(y, Tensor):
        raise InvalidArgumentError(f"{op}(): argument 'y' must be a Tensor, got {type(y).__name__}")
    if x.dtype is not y.dtype:
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' and 'y' must have the same dtype, got "
            f"{x.dtype.name.lower()} and {y.dtype.name.lower()}"
        )
    _check_product(op, sx.shape, tuple(y.shape))
    if y.meta.kind is TensorKind.DENSE:
        return _matmul_dense(x, sx, y)
    sy = storage_of(y, op, "y")
    if x.meta.kind is not y.meta.kind:
        raise InvalidArgumentError(
            f"{op}(): a sparse 'y' must be of x's kind, got a {x.meta.kind.title} and a "
            f"{y.meta.kind.title}"
        )
    return _matmul_sparse(x, sx, y, sy)


def _matmul_dense(x: Tensor, sx: Any, y: Tensor) -> Tensor:
    ya = y.array
    out = dense(_sparse_dense_product(sx, ya))
    shape = sx.shape
    rows, cols, vals, batch = _entries(sx)
    m, k = shape[-2], shape[-1]
    n = ya.shape[-1]
    source = (rows // m) * k + cols if batch > 1 else cols

    def backward(grad: Tensor) -> list[Any]:
        g = grad.array.reshape(batch * m, n)
        flat_y = ya.reshape(batch * k, n)
        gx = (g[rows] * flat_y[source]).sum(axis=-1)
        gy = _segment_product(source, rows, vals.astype(ya.dtype, copy=False), g, batch * k)
        return [wrap_sparse(with_values(sx, gx.astype(vals.dtype))), dense(gy.reshape(ya.shape))]

    return attach("matmul", [x, y], out, backward)


def _swap(array: Any) -> Any:
    return array.swapaxes(-1, -2)


def _matmul_sparse(x: Tensor, sx: Any, y: Tensor, sy: Any) -> Tensor:
    xd, yd = sx.to_dense().array, sy.to_dense().array
    xp = module_of(xd)
    product = xd @ yd
    shape = tuple(product.shape)
    keys = xp.nonzero(product.reshape(-1))[0].astype(xp.int64)
    vals = product.reshape(-1)[keys]
    if isinstance(sx, SparseCsrTensor):
        storage: Any = make_csr(keys, vals, shape)
    else:
        storage = make_coo(keys, vals, shape, len(shape), True)

    def backward(grad: Tensor) -> list[Any]:
        g = grad.array.to_dense().array
        gx = (g @ _swap(yd)).reshape(-1)[keys_of(sx)]
        gy = (_swap(xd) @ g).reshape(-1)[keys_of(sy)]
        return [wrap_sparse(with_values(sx, gx)), wrap_sparse(with_values(sy, gy))]

    return attach("matmul", [x, y], wrap_sparse(storage), backward)


def masked_matmul(x: Tensor, y: Tensor, mask: Tensor, name: str | None = None) -> Tensor:
    """``x @ y`` of dense ``x`` and ``y``, computed only at the entries of sparse ``mask``
    (a sparse tensor of mask's pattern)."""
    op = "masked_matmul"
    for argument, value in (("x", x), ("y", y)):
        if not isinstance(value, Tensor) or value.meta.kind is not TensorKind.DENSE:
            raise InvalidArgumentError(f"{op}(): argument '{argument}' must be a dense Tensor")
    sm = storage_of(mask, op, "mask")
    if x.dtype is not y.dtype:
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' and 'y' must have the same dtype, got "
            f"{x.dtype.name.lower()} and {y.dtype.name.lower()}"
        )
    _check_product(op, tuple(x.shape), tuple(y.shape))
    expected = tuple(x.shape[:-1]) + (y.shape[-1],)
    if sm.shape != expected:
        raise InvalidArgumentError(
            f"{op}(): argument 'mask' must have the product's shape {list(expected)}, got "
            f"{list(sm.shape)}"
        )
    xa, ya = x.array, y.array
    xp = module_of(xa)
    rows, cols, _, batch = _entries(sm)
    m, k, n = xa.shape[-2], xa.shape[-1], ya.shape[-1]
    flat_x = xa.reshape(batch * m, k)
    flat_yt = _swap(ya).reshape(batch * n, k)
    other = (rows // m) * n + cols if batch > 1 else cols
    result = (flat_x[rows] * flat_yt[other]).sum(axis=-1).astype(xa.dtype)
    storage = with_values(sm, result)

    def backward(grad: Tensor) -> list[Any]:
        gv = grad_values(grad, storage)
        gx = xp.zeros((batch * m, k), dtype=xa.dtype)
        gyt = xp.zeros((batch * n, k), dtype=xa.dtype)
        if rows.shape[0]:
            scatter_at("add", gx, rows, gv[:, None] * flat_yt[other])
            scatter_at("add", gyt, other, gv[:, None] * flat_x[rows])
        gy = _swap(gyt.reshape(tuple(ya.shape[:-2]) + (n, k)))
        return [dense(gx.reshape(xa.shape)), dense(xp.ascontiguousarray(gy)), None]

    return attach(op, [x, y, None], wrap_sparse(storage), backward)


def addmm(
    input: Tensor,
    x: Tensor,
    y: Tensor,
    beta: float = 1.0,
    alpha: float = 1.0,
    name: str | None = None,
) -> Tensor:
    """``beta * input + alpha * (x @ y)`` for sparse ``x``: with dense ``input`` and ``y`` a
    dense result, with all three sparse (of one kind) a sparse one."""
    op = "addmm"
    if not isinstance(input, Tensor):
        raise InvalidArgumentError(
            f"{op}(): argument 'input' must be a Tensor, got {type(input).__name__}"
        )
    storage_of(x, op, "x")
    if not isinstance(y, Tensor):
        raise InvalidArgumentError(f"{op}(): argument 'y' must be a Tensor, got {type(y).__name__}")
    if (input.meta.kind is TensorKind.DENSE) != (y.meta.kind is TensorKind.DENSE):
        raise InvalidArgumentError(
            f"{op}(): arguments 'input' and 'y' must both be dense or both sparse, got a "
            f"{input.meta.kind.title} and a {y.meta.kind.title}"
        )
    product = matmul(x, y)
    if list(input.shape) != list(product.shape):
        raise InvalidArgumentError(
            f"{op}(): argument 'input' must have the product's shape {list(product.shape)}, got "
            f"{list(input.shape)}"
        )
    if input.meta.kind is TensorKind.DENSE:
        scaled = op_api("scale")
        return op_api("add")(
            scaled(input, float(beta), 0.0, True), scaled(product, float(alpha), 0.0, True)
        )
    return add(scale(input, beta), scale(product, alpha))


def mv(x: Tensor, vec: Tensor, name: str | None = None) -> Tensor:
    """``x @ vec`` of a sparse 2-D ``x`` [M, N] and a dense 1-D ``vec`` [N]: dense [M]."""
    op = "mv"
    sx = storage_of(x, op, "x")
    if len(sx.shape) != 2:
        raise InvalidArgumentError(f"{op}(): argument 'x' must be 2-D, got shape {list(sx.shape)}")
    if not isinstance(vec, Tensor) or vec.meta.kind is not TensorKind.DENSE or len(vec.shape) != 1:
        raise InvalidArgumentError(f"{op}(): argument 'vec' must be a dense 1-D Tensor")
    if vec.shape[0] != sx.shape[1]:
        raise InvalidArgumentError(
            f"{op}(): argument 'vec' must have {sx.shape[1]} entries (x's columns), got "
            f"{vec.shape[0]}"
        )
    reshape = op_api("reshape")
    column = matmul(x, reshape(vec, [vec.shape[0], 1]))
    return reshape(column, [sx.shape[0]])


def mask_as(x: Tensor, mask: Tensor, name: str | None = None) -> Tensor:
    """The entries of dense ``x`` at the pattern of sparse ``mask`` (a sparse tensor of mask's
    kind and pattern)."""
    op = "mask_as"
    sm = storage_of(mask, op, "mask")
    if not isinstance(x, Tensor) or x.meta.kind is not TensorKind.DENSE:
        raise InvalidArgumentError(f"{op}(): argument 'x' must be a dense Tensor")
    if tuple(x.shape) != sm.shape:
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' {x.shape} and 'mask' {list(sm.shape)} must have the same shape"
        )
    xa = x.array
    space = key_space(sm)
    picked = xa.reshape((prod(space),) + tuple(xa.shape[len(space) :]))[keys_of(sm)]
    storage = with_values(sm, picked)

    def backward(grad: Tensor) -> list[Any]:
        full = with_values(storage, grad_values(grad, storage)).to_dense().array
        return [dense(full), None]

    return attach(op, [x, None], wrap_sparse(storage), backward)
