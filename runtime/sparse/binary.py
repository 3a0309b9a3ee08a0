"""The sparse binary ops: ``add``, ``subtract``, ``multiply``, ``divide`` of two sparse tensors
of one kind, the matrix products (``matmul``, ``masked_matmul``, ``addmm``, ``mv``) and
``mask_as``, with their gradients (PaddlePaddle's sparse_ops.yaml / sparse_backward.yaml).

The ops are generated from PaddlePaddle's sparse_ops.yaml entries
(ops/sparse_ops.yaml -> generated/sparse_api.py; kernels ``add_coo_coo``, ``matmul_csr_dense``,
``mask_as_coo``, ... in runtime/kernels/impl/sparse_{binary,matmul,convert}_*.py); these are
``paddle.sparse``'s functions over them, which check their arguments first as PaddlePaddle's
Python does.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.impl.sparse_arrays import key_space
from phiops.runtime.kernels.impl.sparse_matmul_kernel import check_all_sparse
from phiops.runtime.sparse.creation import static_call, storage_of, to_sparse_coo, to_sparse_csr
from phiops.runtime.sparse.registry import sparse_op_api
from phiops.runtime.tensor.kinds import TensorKind

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
    if not static_call(x, y):
        _check_pair("add", x, y)
    return sparse_op_api("add")(x, y)


def subtract(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``x - y`` of two sparse tensors of one kind, shape and dtype (the union of their
    patterns; sparse op ``subtract``)."""
    if not static_call(x, y):
        _check_pair("subtract", x, y)
    return sparse_op_api("subtract")(x, y)


def multiply(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``x * y`` of two sparse tensors of one kind, shape and dtype (on the union of their
    patterns, as PaddlePaddle's kernel: an entry of one only is a stored zero; sparse op
    ``multiply``)."""
    if not static_call(x, y):
        _check_pair("multiply", x, y)
    return sparse_op_api("multiply")(x, y)


def divide(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``x / y`` of two sparse tensors of one kind, shape and dtype, at every position (a zero
    divided by a zero is NaN there, as PaddlePaddle 3.3.1's CPU kernel stores it; sparse op
    ``divide``)."""
    if not static_call(x, y):
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


def matmul(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``x @ y`` for a sparse 2-D or 3-D ``x``: with a dense ``y`` a dense result, with a sparse
    ``y`` of ``x``'s kind a sparse result (its pattern: the nonzeros of the product; sparse op
    ``matmul``)."""
    op = "matmul"
    if static_call(x, y):
        return sparse_op_api(op)(x, y)
    sx = storage_of(x, op, "x")
    check_all_sparse(op, sx)
    if not isinstance(y, Tensor):
        raise InvalidArgumentError(f"{op}(): argument 'y' must be a Tensor, got {type(y).__name__}")
    if x.dtype is not y.dtype:
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' and 'y' must have the same dtype, got "
            f"{x.dtype.name.lower()} and {y.dtype.name.lower()}"
        )
    _check_product(op, sx.shape, tuple(y.shape))
    if y.meta.kind is not TensorKind.DENSE:
        storage_of(y, op, "y")
        if x.meta.kind is not y.meta.kind:
            raise InvalidArgumentError(
                f"{op}(): a sparse 'y' must be of x's kind, got a {x.meta.kind.title} and a "
                f"{y.meta.kind.title}"
            )
    return sparse_op_api(op)(x, y)


def masked_matmul(x: Tensor, y: Tensor, mask: Tensor, name: str | None = None) -> Tensor:
    """``x @ y`` of dense ``x`` and ``y``, computed only at the entries of sparse ``mask``
    (a sparse tensor of mask's kind and pattern; sparse op ``masked_matmul``, whose one kernel
    takes a CSR mask: a COO one goes through CSR and back)."""
    op = "masked_matmul"
    if static_call(x, y, mask):  # the one kernel takes a CSR mask, as 3.3.1's static API
        return sparse_op_api(op)(x, y, mask)
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
    if mask.meta.kind is TensorKind.SPARSE_CSR:
        return sparse_op_api(op)(x, y, mask)
    check_all_sparse(op, sm, "mask")
    out = sparse_op_api(op)(x, y, to_sparse_csr(mask))
    return to_sparse_coo(out, len(sm.shape))


def addmm(
    input: Tensor,
    x: Tensor,
    y: Tensor,
    beta: float = 1.0,
    alpha: float = 1.0,
    name: str | None = None,
) -> Tensor:
    """``beta * input + alpha * (x @ y)`` for sparse ``x``: with dense ``input`` and ``y`` a
    dense result, with all three sparse (of one kind) a sparse one (sparse op ``addmm``)."""
    op = "addmm"
    if static_call(input, x, y):
        return sparse_op_api(op)(input, x, y, float(beta), float(alpha))
    if not isinstance(input, Tensor):
        raise InvalidArgumentError(
            f"{op}(): argument 'input' must be a Tensor, got {type(input).__name__}"
        )
    sx = storage_of(x, op, "x")
    check_all_sparse(op, sx)
    if not isinstance(y, Tensor):
        raise InvalidArgumentError(f"{op}(): argument 'y' must be a Tensor, got {type(y).__name__}")
    if (input.meta.kind is TensorKind.DENSE) != (y.meta.kind is TensorKind.DENSE):
        raise InvalidArgumentError(
            f"{op}(): arguments 'input' and 'y' must both be dense or both sparse, got a "
            f"{input.meta.kind.title} and a {y.meta.kind.title}"
        )
    _check_product(op, sx.shape, tuple(y.shape))
    expected = list(sx.shape[:-1]) + [y.shape[-1]]
    if list(input.shape) != expected:
        raise InvalidArgumentError(
            f"{op}(): argument 'input' must have the product's shape {expected}, got "
            f"{list(input.shape)}"
        )
    return sparse_op_api(op)(input, x, y, float(beta), float(alpha))


def mv(x: Tensor, vec: Tensor, name: str | None = None) -> Tensor:
    """``x @ vec`` of a sparse 2-D ``x`` [M, N] and a dense 1-D ``vec`` [N]: dense [M] (sparse op
    ``mv``)."""
    op = "mv"
    if static_call(x, vec):
        return sparse_op_api(op)(x, vec)
    sx = storage_of(x, op, "x")
    if len(sx.shape) != 2:
        raise InvalidArgumentError(f"{op}(): argument 'x' must be 2-D, got shape {list(sx.shape)}")
    check_all_sparse(op, sx)
    if not isinstance(vec, Tensor) or vec.meta.kind is not TensorKind.DENSE or len(vec.shape) != 1:
        raise InvalidArgumentError(f"{op}(): argument 'vec' must be a dense 1-D Tensor")
    if vec.shape[0] != sx.shape[1]:
        raise InvalidArgumentError(
            f"{op}(): argument 'vec' must have {sx.shape[1]} entries (x's columns), got "
            f"{vec.shape[0]}"
        )
    return sparse_op_api(op)(x, vec)


def mask_as(x: Tensor, mask: Tensor, name: str | None = None) -> Tensor:
    """The entries of dense ``x`` at the pattern of sparse ``mask`` (a sparse tensor of mask's
    kind and pattern; sparse op ``mask_as``)."""
    op = "mask_as"
    if static_call(x, mask):
        return sparse_op_api(op)(x, mask)
    sm = storage_of(mask, op, "mask")
    if not isinstance(x, Tensor) or x.meta.kind is not TensorKind.DENSE:
        raise InvalidArgumentError(f"{op}(): argument 'x' must be a dense Tensor")
    if tuple(x.shape) != sm.shape:
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' {x.shape} and 'mask' {list(sm.shape)} must have the same shape"
        )
    return sparse_op_api(op)(x, mask)
