"""Sparse tensors as user Tensors: ``sparse_coo_tensor``, ``sparse_csr_tensor``, the conversions
(``to_dense``, ``to_sparse_coo``, ``to_sparse_csr``, ``coalesce``) and the Tensor methods that
read a sparse tensor's parts (``indices``, ``values``, ``crows``, ``cols``, ``nnz``,
``is_coalesced``), with PaddlePaddle 3.3.1's signatures and gradients.

A user Tensor of a sparse kind holds its SparseCooTensor / SparseCsrTensor (runtime/tensor/
sparse.py) in its ``array`` slot and that storage's meta (of kind SPARSE_COO / SPARSE_CSR).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.autograd.grad_mode import set_grad_enabled
from phiops.runtime.backends import to_backend
from phiops.runtime.common import to_data_type
from phiops.runtime.eager.tensor import Tensor, to_tensor, wrap_array
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.core import Value
from phiops.runtime.kernels.impl.sparse_arrays import csr_to_coo, dense_to_coo, keys_of, lookup
from phiops.runtime.sparse.autograd import attach
from phiops.runtime.sparse.registry import sparse_op_api
from phiops.runtime.tensor.dense_tensor import DenseTensor
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__ = [
    "sparse_coo_tensor",
    "sparse_csr_tensor",
    "to_dense",
    "to_sparse_coo",
    "to_sparse_csr",
    "coalesce",
    "values",
    "indices",
    "crows",
    "cols",
    "nnz",
    "is_coalesced",
    "is_same_shape",
    "wrap_sparse",
    "storage_of",
    "with_values",
    "dense",
    "grad_values",
    "install_sparse_methods",
]

_COO, _CSR = TensorKind.SPARSE_COO, TensorKind.SPARSE_CSR


def wrap_sparse(storage: Any, stop_gradient: bool = True) -> Tensor:
    """A user Tensor holding ``storage`` (a SparseCooTensor or SparseCsrTensor)."""
    tensor = wrap_array(storage, storage.meta)
    tensor.stop_gradient = stop_gradient
    return tensor


def dense(array: Any) -> Tensor:
    """A user Tensor over a dense array."""
    return wrap_array(array, DenseTensor(array).meta)


def static_call(*arguments: Any) -> bool:
    """Whether a call builds into a static program: one of its tensor ``arguments`` is a Value
    (runtime/static/sparse.py types and builds it; the eager checks here read storage)."""
    return any(isinstance(argument, Value) for argument in arguments)


def storage_of(
    x: Any, op: str, argument: str = "x", kinds: tuple[TensorKind, ...] = (_COO, _CSR)
) -> Any:
    """``x``'s sparse storage; InvalidArgumentError naming ``op`` and ``argument`` when ``x`` is
    not a Tensor of one of ``kinds``; UnimplementedError for a Value of a static program (the
    functions that build into one, runtime/static/sparse.py, never read storage)."""
    if isinstance(x, Value):
        raise UnimplementedError(
            f"{op}(): building it into a static program is not implemented (argument "
            f"'{argument}' is a Value of type {x.type}; docs/tensor_kinds.md lists the sparse "
            "ops built)"
        )
    if not isinstance(x, Tensor):
        raise InvalidArgumentError(
            f"{op}(): argument '{argument}' must be a sparse Tensor, got {type(x).__name__}"
        )
    kind = x.meta.kind
    if kind not in kinds:
        wanted = " or ".join(k.title for k in kinds)
        raise InvalidArgumentError(
            f"{op}(): argument '{argument}' must be a {wanted}, got a {kind.title}"
        )
    return x.array


def with_values(storage: Any, new_values: Any) -> Any:
    """A storage of ``storage``'s pattern holding ``new_values``."""
    if isinstance(storage, SparseCsrTensor):
        return SparseCsrTensor(storage.crows, storage.cols, DenseTensor(new_values), storage.shape)
    return SparseCooTensor(
        storage.indices, DenseTensor(new_values), storage.shape, storage.coalesced
    )


def grad_values(grad: Tensor, like: Any) -> Any:
    """The values of ``grad`` (a gradient for the sparse tensor ``like``) in ``like``'s entry
    order: its own when it has ``like``'s pattern (the grad ops give it so), else looked up."""
    storage = grad.array
    if grad.meta.kind is TensorKind.DENSE:
        return grad.array.reshape((-1,) + tuple(like.values.array.shape[1:]))[keys_of(like)]
    if type(storage) is type(like) and storage.values.array.shape == like.values.array.shape:
        if isinstance(like, SparseCsrTensor):
            same = storage.crows.array is like.crows.array and storage.cols.array is like.cols.array
        else:
            same = storage.indices.array is like.indices.array
        if same:
            return storage.values.array
    return lookup(storage, keys_of(like))


def _index_array(value: Any, op: str, argument: str) -> Any:
    if isinstance(value, Tensor):
        if value.meta.kind is not TensorKind.DENSE:
            raise InvalidArgumentError(f"{op}(): argument '{argument}' must be a dense Tensor")
        array = value.array
    else:
        array = np.asarray(value)
    if array.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"{op}(): argument '{argument}' must hold integers, got dtype {array.dtype}"
        )
    return array.astype(np.int64)


def _values_tensor(values: Any, dtype: Any, place: Any) -> Tensor:
    if isinstance(values, Tensor):
        if dtype is not None and values.dtype is not to_data_type(dtype):
            from phiops.runtime.dispatch.op_def import op_api

            return op_api("cast")(values, to_data_type(dtype))
        return values
    return to_tensor(values, dtype=dtype, place=place)


def _shape_argument(shape: Any, op: str) -> tuple[int, ...] | None:
    if shape is None:
        return None
    if isinstance(shape, Tensor):
        shape = shape.numpy().tolist()
    try:
        return tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"{op}(): argument 'shape' must be a sequence of ints, got {shape!r}"
        ) from None


def sparse_coo_tensor(
    indices: Any,
    values: Any,
    shape: Any = None,
    dtype: Any = None,
    place: Any = None,
    stop_gradient: bool = True,
) -> Tensor:
    """A sparse COO tensor from ``indices`` (``[sparse_dim, nnz]``) and ``values``
    (``[nnz, *dense dims]``); ``shape`` defaults to the smallest that holds every index. The
    entries are kept as given (``coalesce`` sorts them and adds repeats)."""
    if static_call(indices, values):
        from phiops.runtime.static.sparse import build_sparse_coo_tensor

        return build_sparse_coo_tensor(indices, values, shape)
    op = "sparse_coo_tensor"
    index = _index_array(indices, op, "indices")
    if index.ndim == 1:
        index = index.reshape(1, -1)
    if index.ndim != 2:
        raise InvalidArgumentError(
            f"{op}(): argument 'indices' must be 2-D [sparse_dim, nnz], got shape {list(index.shape)}"
        )
    value = _values_tensor(values, dtype, place)
    if value.meta.kind is not TensorKind.DENSE:
        raise InvalidArgumentError(f"{op}(): argument 'values' must be a dense Tensor")
    sparse_dim, count = index.shape
    if not value.shape or value.shape[0] != count:
        raise InvalidArgumentError(
            f"{op}(): argument 'values' must have one row per index ({count}, the second dim of "
            f"'indices'), got shape {value.shape}"
        )
    dense_dims = tuple(value.shape[1:])
    smallest = tuple(int(d) + 1 for d in index.max(axis=1)) if count else (0,) * sparse_dim
    given = _shape_argument(shape, op)
    if given is None:
        given = smallest + dense_dims
    if len(given) != sparse_dim + len(dense_dims):
        raise InvalidArgumentError(
            f"{op}(): argument 'shape' {list(given)} must have {sparse_dim + len(dense_dims)} dims "
            f"({sparse_dim} sparse from 'indices' + {len(dense_dims)} dense from 'values')"
        )
    if count and (index.min() < 0 or any(s > g for s, g in zip(smallest, given))):
        raise InvalidArgumentError(
            f"{op}(): argument 'indices' is out of range for shape {list(given)}: the indices "
            f"need at least {list(smallest)} and must not be negative"
        )
    if tuple(given[sparse_dim:]) != dense_dims:
        raise InvalidArgumentError(
            f"{op}(): argument 'shape' {list(given)} must end with the dense dims of 'values' "
            f"{list(dense_dims)}"
        )
    index = to_backend(index, value.place)
    storage = SparseCooTensor(DenseTensor(index), DenseTensor(value.array), given)
    out = wrap_sparse(storage)

    def backward(grad: Tensor) -> list[Any]:
        return [dense(grad_values(grad, storage))]

    attach(op, [value], out, backward)
    out.stop_gradient = stop_gradient
    return out


def sparse_csr_tensor(
    crows: Any,
    cols: Any,
    values: Any,
    shape: Any = None,
    dtype: Any = None,
    place: Any = None,
    stop_gradient: bool = True,
) -> Tensor:
    """A sparse CSR tensor (2-D, or 3-D batched) from its row offsets ``crows``, column
    indices ``cols`` and ``values``; ``shape`` defaults to the smallest 2-D one that holds
    them."""
    op = "sparse_csr_tensor"
    if static_call(crows, cols, values):
        raise UnimplementedError(
            f"{op}(): building a CSR tensor from Values into a static program is not "
            "implemented (PaddlePaddle 3.3.1 has no static sparse_csr_tensor either); build a "
            "COO one with sparse_coo_tensor and convert it with to_sparse_csr()"
        )
    crow = _index_array(crows, op, "crows")
    col = _index_array(cols, op, "cols")
    for name, part in (("crows", crow), ("cols", col)):
        if part.ndim != 1:
            raise InvalidArgumentError(
                f"{op}(): argument '{name}' must be 1-D, got shape {list(part.shape)}"
            )
    value = _values_tensor(values, dtype, place)
    if value.meta.kind is not TensorKind.DENSE or len(value.shape) != 1:
        raise InvalidArgumentError(
            f"{op}(): argument 'values' must be a 1-D dense Tensor, got shape {value.shape}"
        )
    if value.shape[0] != col.shape[0]:
        raise InvalidArgumentError(
            f"{op}(): arguments 'cols' ({col.shape[0]}) and 'values' ({value.shape[0]}) must "
            "have the same length"
        )
    given = _shape_argument(shape, op)
    if given is None:
        given = (crow.shape[0] - 1, int(col.max()) + 1 if col.size else 0)
    if len(given) not in (2, 3):
        raise InvalidArgumentError(
            f"{op}(): argument 'shape' must be 2-D or 3-D, got {list(given)}"
        )
    batch = given[0] if len(given) == 3 else 1
    if crow.shape[0] != batch * (given[-2] + 1):
        raise InvalidArgumentError(
            f"{op}(): argument 'crows' must have {batch * (given[-2] + 1)} entries "
            f"(batch * (rows + 1)) for shape {list(given)}, got {crow.shape[0]}"
        )
    if col.size and (col.min() < 0 or col.max() >= given[-1]):
        raise InvalidArgumentError(
            f"{op}(): argument 'cols' is out of range: must be in [0, {given[-1]}) for shape "
            f"{list(given)}"
        )
    try:
        storage = SparseCsrTensor(
            DenseTensor(to_backend(crow, value.place)),
            DenseTensor(to_backend(col, value.place)),
            DenseTensor(value.array),
            given,
        )
    except InvalidArgumentError as error:
        raise InvalidArgumentError(f"{op}(): argument 'crows': {error}") from None
    out = wrap_sparse(storage)

    def backward(grad: Tensor) -> list[Any]:
        return [dense(grad_values(grad, storage))]

    attach(op, [value], out, backward)
    out.stop_gradient = stop_gradient
    return out


def _recorded_by_hand(op: str, inputs: list[Any], call: Any, backward: Any) -> Tensor:
    """The generated ``call()`` run without recording, and ``backward`` attached as its grad
    node: for the calls whose gradient PaddlePaddle's spec has no kernel for (to_sparse_csr and
    coalesce have no backward op; to_dense_grad and values_grad take COO only)."""
    with set_grad_enabled(False):
        out = call()
    return attach(op, inputs, out, backward)


def to_dense(x: Tensor) -> Tensor:
    """The dense tensor of sparse ``x`` (repeated entries added); its gradient flows back to
    ``x``'s entries (sparse op ``to_dense``)."""
    if static_call(x):
        return sparse_op_api("to_dense")(x)
    storage = storage_of(x, "to_dense")
    if x.meta.kind is _COO:
        return sparse_op_api("to_dense")(x)

    def backward(grad: Tensor) -> list[Any]:
        return [wrap_sparse(with_values(storage, grad_values(grad, storage)))]

    return _recorded_by_hand("to_dense", [x], lambda: sparse_op_api("to_dense")(x), backward)


def _dense_grad(grad: Tensor) -> list[Any]:
    """A dense input's gradient from its sparse conversion's (sparse or dense) gradient."""
    if grad.meta.kind is not TensorKind.DENSE:
        return [dense(grad.array.to_dense().array)]
    return [dense(grad.array)]


def to_sparse_coo(x: Tensor, sparse_dim: int) -> Tensor:
    """A COO tensor of ``x``: from a dense tensor, an entry for each nonzero slice over the first
    ``sparse_dim`` dims; from a CSR tensor, its entries.

    Hand-written, not the sparse op: its backward op ``to_sparse_coo_grad`` runs the kernel
    ``coo_to_dense`` on an argument named ``out_grad``, which ``to_dense`` passes as ``x``, and
    phiops's kernels take their arguments by name."""
    if static_call(x):
        from phiops.runtime.static.sparse import build_to_sparse_coo

        return build_to_sparse_coo(x, sparse_dim)
    op = "to_sparse_coo"
    if not isinstance(x, Tensor):
        raise InvalidArgumentError(f"{op}(): argument 'x' must be a Tensor, got {type(x).__name__}")
    kind = x.meta.kind
    if kind is _COO:
        return x
    if kind is _CSR:
        source = x.array
        indices, vals = csr_to_coo(source)
        storage = SparseCooTensor(DenseTensor(indices), DenseTensor(vals), source.shape, True)

        def from_csr(grad: Tensor) -> list[Any]:
            return [wrap_sparse(with_values(source, grad_values(grad, source)))]

        return attach(op, [x], wrap_sparse(storage), from_csr)
    if kind is not TensorKind.DENSE:
        raise InvalidArgumentError(f"{op}(): argument 'x' is a {kind.title}")
    if not isinstance(sparse_dim, (int, np.integer)) or not 0 < sparse_dim <= len(x.shape):
        raise InvalidArgumentError(
            f"{op}(): argument 'sparse_dim' must be an int in [1, {len(x.shape)}] (the rank of "
            f"x), got {sparse_dim!r}"
        )
    storage = dense_to_coo(x.array, int(sparse_dim))
    return attach(op, [x], wrap_sparse(storage), _dense_grad)


def to_sparse_csr(x: Tensor) -> Tensor:
    """A CSR tensor of a 2-D or 3-D ``x`` (dense, or COO with every dim sparse; sparse op
    ``to_sparse_csr``)."""
    if static_call(x):
        return sparse_op_api("to_sparse_csr")(x)
    op = "to_sparse_csr"
    if not isinstance(x, Tensor):
        raise InvalidArgumentError(f"{op}(): argument 'x' must be a Tensor, got {type(x).__name__}")
    kind = x.meta.kind
    if kind is _CSR:
        return x
    if len(x.shape) not in (2, 3):
        raise InvalidArgumentError(f"{op}(): argument 'x' must be 2-D or 3-D, got shape {x.shape}")
    if kind is _COO:
        source = x.array
        if source.sparse_dim != len(source.shape):
            raise InvalidArgumentError(
                f"{op}(): argument 'x' must have every dim sparse (sparse_dim "
                f"{source.sparse_dim}, rank {len(source.shape)})"
            )

        def from_coo(grad: Tensor) -> list[Any]:
            return [wrap_sparse(with_values(source, grad_values(grad, source)))]

        return _recorded_by_hand(op, [x], lambda: sparse_op_api(op)(x), from_coo)
    if kind is not TensorKind.DENSE:
        raise InvalidArgumentError(f"{op}(): argument 'x' is a {kind.title}")
    return _recorded_by_hand(op, [x], lambda: sparse_op_api(op)(x), _dense_grad)


def coalesce(x: Tensor, name: str | None = None) -> Tensor:
    """``x`` (COO) with its indices sorted and each once, a repeated index's values added
    (sparse op ``coalesce``)."""
    if static_call(x):
        return sparse_op_api("coalesce")(x)
    source = storage_of(x, "coalesce", kinds=(_COO,))

    def backward(grad: Tensor) -> list[Any]:
        return [wrap_sparse(with_values(source, lookup(grad.array, keys_of(source))))]

    return _recorded_by_hand("coalesce", [x], lambda: sparse_op_api("coalesce")(x), backward)


def values(x: Tensor) -> Tensor:
    """The values of sparse ``x`` (``[nnz, *dense dims]``), in its entries' order; the gradient
    flows back to them (sparse op ``values``)."""
    if static_call(x):
        return sparse_op_api("values")(x)
    storage = storage_of(x, "values")
    if x.meta.kind is _COO:
        return sparse_op_api("values")(x)

    def backward(grad: Tensor) -> list[Any]:
        return [wrap_sparse(with_values(storage, grad.array))]

    return _recorded_by_hand("values", [x], lambda: sparse_op_api("values")(x), backward)


def indices(x: Tensor) -> Tensor:
    """The indices of COO ``x`` (int64 ``[sparse_dim, nnz]``)."""
    if static_call(x):
        from phiops.runtime.static.sparse import build_indices

        return build_indices(x)
    return dense(storage_of(x, "indices", kinds=(_COO,)).indices.array)


def crows(x: Tensor) -> Tensor:
    """The row offsets of CSR ``x``."""
    return dense(storage_of(x, "crows", kinds=(_CSR,)).crows.array)


def cols(x: Tensor) -> Tensor:
    """The column indices of CSR ``x``."""
    return dense(storage_of(x, "cols", kinds=(_CSR,)).cols.array)


def nnz(x: Tensor) -> int:
    """The number of stored entries of sparse ``x``."""
    return storage_of(x, "nnz").nnz


def is_coalesced(x: Tensor) -> bool:
    """Whether COO ``x`` is known to be coalesced (made by ``coalesce`` or an op that sorts)."""
    return bool(storage_of(x, "is_coalesced", kinds=(_COO,)).coalesced)


def is_same_shape(x: Tensor, y: Tensor) -> bool:
    """Whether ``x`` and ``y`` (dense or sparse) have the same shape."""
    for argument, value in (("x", x), ("y", y)):
        if not isinstance(value, (Tensor, Value)):
            raise InvalidArgumentError(
                f"is_same_shape(): argument '{argument}' must be a Tensor, got {type(value).__name__}"
            )
    return list(x.shape) == list(y.shape)


def _sparse_repr(self: Tensor) -> str:
    storage = self.array
    head = (
        f"Tensor(shape={list(storage.shape)}, dtype={self.dtype.name.lower()}, "
        f"place={self.place!r}, stop_gradient={self.stop_gradient}, \n"
    )

    def part(label: str, array: Any) -> str:
        host = np.asarray(array.get() if hasattr(array, "get") else array)
        prefix = " " * (len(label) + 8)
        return f"       {label}=" + np.array2string(host, separator=", ", prefix=prefix)

    if isinstance(storage, SparseCsrTensor):
        parts = [
            part("crows", storage.crows.array),
            part("cols", storage.cols.array),
            part("values", storage.values.array),
        ]
    else:
        parts = [part("indices", storage.indices.array), part("values", storage.values.array)]
    return head + ", \n".join(parts) + ")"


def install_sparse_methods() -> None:
    """Give Tensor PaddlePaddle 3.3.1's sparse methods (``to_dense``, ``to_sparse_coo``,
    ``to_sparse_csr``, ``coalesce``, ``values``, ``indices``, ``crows``, ``cols``, ``nnz``,
    ``is_coalesced``) and a repr of a sparse tensor's parts as PaddlePaddle prints them."""
    plain_repr = Tensor.__repr__

    def __repr__(self: Tensor) -> str:
        if self.meta.kind in (_COO, _CSR):
            return _sparse_repr(self)
        return plain_repr(self)

    if getattr(plain_repr, "_sparse_aware", False):
        return
    __repr__._sparse_aware = True  # type: ignore[attr-defined]
    Tensor.__repr__ = __repr__  # type: ignore[method-assign]
    Tensor.__str__ = __repr__  # type: ignore[method-assign]

    def to_dense_method(self: Tensor) -> Tensor:
        return to_dense(self)

    to_dense_method.__doc__ = to_dense.__doc__

    def to_sparse_coo_method(self: Tensor, sparse_dim: int) -> Tensor:
        return to_sparse_coo(self, sparse_dim)

    to_sparse_coo_method.__doc__ = to_sparse_coo.__doc__

    def to_sparse_csr_method(self: Tensor) -> Tensor:
        return to_sparse_csr(self)

    to_sparse_csr_method.__doc__ = to_sparse_csr.__doc__

    def coalesce_method(self: Tensor, name: str | None = None) -> Tensor:
        return coalesce(self)

    coalesce_method.__doc__ = coalesce.__doc__

    def reader(function: Any) -> Any:
        def method(self: Tensor) -> Any:
            return function(self)

        method.__name__ = method.__qualname__ = function.__name__
        method.__doc__ = function.__doc__
        return method

    for attribute, function in (
        ("to_dense", to_dense_method),
        ("to_sparse_coo", to_sparse_coo_method),
        ("to_sparse_csr", to_sparse_csr_method),
        ("coalesce", coalesce_method),
        ("values", reader(values)),
        ("indices", reader(indices)),
        ("crows", reader(crows)),
        ("cols", reader(cols)),
        ("nnz", reader(nnz)),
        ("is_coalesced", reader(is_coalesced)),
    ):
        setattr(Tensor, attribute, function)
