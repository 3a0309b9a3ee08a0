"""The sparse ops that move entries: ``sum``, ``transpose``, ``reshape``, ``slice``, and the
softmax along the last axis.

The ops are generated from PaddlePaddle's sparse_ops.yaml entries (ops/sparse_ops.yaml ->
generated/sparse_api.py; kernels ``transpose_coo``, ``sum_csr``, ... and their grads in
runtime/kernels/impl/sparse_shape_kernel.py); these are ``paddle.sparse``'s functions over
them, which turn their arguments into the ops' (an axis list, a DataType) and check them first.
They take a COO tensor whose every dim is sparse (UnimplementedError for one with dense dims)
or a CSR tensor.
"""

from __future__ import annotations

from typing import Any, Sequence

from phiops.runtime.common import DataType, to_data_type
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.impl.sparse_shape_kernel import reshape_dims, sum_shape
from phiops.runtime.sparse.creation import static_call, storage_of
from phiops.runtime.sparse.registry import sparse_op_api
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__ = ["sum", "transpose", "reshape", "slice", "softmax"]


def _storage(op: str, x: Tensor) -> Any:
    """``x``'s storage; UnimplementedError for a COO tensor with dense dims."""
    storage = storage_of(x, op)
    if isinstance(storage, SparseCooTensor) and storage.sparse_dim != len(storage.shape):
        raise UnimplementedError(
            f"{op}(): a COO tensor with dense dims (sparse_dim {storage.sparse_dim} < rank "
            f"{len(storage.shape)}) is not implemented"
        )
    return storage


def _ints(op: str, argument: str, value: Any) -> list[int]:
    """``value`` (an int, ints, Tensors or a Tensor) as a list of ints."""
    if isinstance(value, Tensor):
        value = value.numpy().reshape(-1).tolist()
    items = [value] if isinstance(value, int) else list(value)
    found = []
    for item in items:
        if isinstance(item, Tensor):
            item = int(item.item())
        if isinstance(item, bool) or not isinstance(item, int):
            raise InvalidArgumentError(f"{op}(): argument '{argument}' must be ints, got {value!r}")
        found.append(item)
    return found


def _axes(op: str, argument: str, axes: Any, rank: int) -> list[int]:
    found = []
    for axis in _ints(op, argument, axes):
        if not -rank <= axis < rank:
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
    the last axis, or all; sparse op ``sum``)."""
    op = "sum"
    value_dtype = DataType.UNDEFINED if dtype is None else to_data_type(dtype)
    if static_call(x):  # the axes as given, as PaddlePaddle's full_int_array holds them
        axes = [] if axis is None else _ints(op, "axis", axis)
        return sparse_op_api(op)(x, axes, value_dtype, bool(keepdim))
    storage = _storage(op, x)
    axes = [] if axis is None else _axes(op, "axis", axis, len(storage.shape))
    sum_shape(storage.shape, axes, keepdim, isinstance(storage, SparseCsrTensor))  # checks axis
    return sparse_op_api(op)(x, axes, value_dtype, bool(keepdim))


def transpose(x: Tensor, perm: Sequence[int], name: str | None = None) -> Tensor:
    """Sparse ``x`` with its dims permuted by ``perm`` (COO: the entries in their order; CSR:
    2-D, or 3-D permutations, rebuilt sorted; sparse op ``transpose``)."""
    op = "transpose"
    if static_call(x):
        return sparse_op_api(op)(x, _ints(op, "perm", perm))
    storage = _storage(op, x)
    rank = len(storage.shape)
    order = _axes(op, "perm", perm, rank)
    if sorted(order) != list(range(rank)):
        raise InvalidArgumentError(
            f"{op}(): argument 'perm' must be a permutation of 0..{rank - 1}, got {list(perm)}"
        )
    return sparse_op_api(op)(x, order)


def reshape(x: Tensor, shape: Any, name: str | None = None) -> Tensor:
    """Sparse ``x`` with the same entries in a new ``shape`` (one -1 inferred, a 0 copies x's
    dim); a CSR result must be 2-D or 3-D (sparse op ``reshape``)."""
    op = "reshape"
    if static_call(x):
        return sparse_op_api(op)(x, _ints(op, "shape", shape))
    storage = _storage(op, x)
    wanted = _ints(op, "shape", shape)
    new_shape = reshape_dims(op, storage.shape, wanted)
    if isinstance(storage, SparseCsrTensor) and len(new_shape) not in (2, 3):
        raise InvalidArgumentError(
            f"{op}(): a CSR result must be 2-D or 3-D, got {list(new_shape)}"
        )
    return sparse_op_api(op)(x, list(new_shape))


def slice(x: Tensor, axes: Any, starts: Any, ends: Any, name: str | None = None) -> Tensor:
    """The entries of sparse ``x`` with ``starts[i] <= index < ends[i]`` along each of ``axes``
    (negative bounds count from the end, bounds clipped to the dim), shifted to start at 0
    (sparse op ``slice``)."""
    op = "slice"
    if static_call(x):
        return sparse_op_api(op)(
            x, _ints(op, "axes", axes), _ints(op, "starts", starts), _ints(op, "ends", ends)
        )
    storage = _storage(op, x)
    axis_list = _axes(op, "axes", axes, len(storage.shape))
    bounds = []
    for argument, value in (("starts", starts), ("ends", ends)):
        items = _ints(op, argument, value)
        if len(items) != len(axis_list):
            raise InvalidArgumentError(
                f"{op}(): argument '{argument}' must be {len(axis_list)} ints (one per axis), got "
                f"{value!r}"
            )
        bounds.append(items)
    return sparse_op_api(op)(x, axis_list, bounds[0], bounds[1])


def softmax(x: Tensor, axis: int = -1, name: str | None = None) -> Tensor:
    """The softmax of sparse ``x`` over its stored entries along the last axis (each row's
    entries; an absent entry is not a zero but left out), the pattern kept (sparse op
    ``softmax``)."""
    op = "softmax"
    if static_call(x):
        return sparse_op_api(op)(x, int(axis))
    storage = _storage(op, x)
    if axis not in (-1, len(storage.shape) - 1):
        raise UnimplementedError(
            f"{op}(): only axis=-1 is implemented (as PaddlePaddle's), got {axis}"
        )
    return sparse_op_api(op)(x, int(axis))
