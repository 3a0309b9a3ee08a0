"""The sparse kinds as data: SparseCooTensor (PHI's ``phi::SparseCooTensor``), SparseCsrTensor
(``phi::SparseCsrTensor``), TensorArray and StringTensor.

They validate what they are built from and convert ``to_dense``. Their ops are not generated
ones: ``phiops.sparse`` (runtime/sparse/), the TensorArray steps of the executor
(runtime/static/tensor_array.py) and ``phiops.strings`` run them; a generated (dense) op handed
one raises UnimplementedError saying where its ops are (MISSING_PART).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.tensor.dense_tensor import DenseTensor, DenseTensorMeta, TensorBase
from phiops.runtime.tensor.kinds import TensorKind

__all__ = [
    "SparseCooMeta",
    "SparseCsrMeta",
    "TensorArrayMeta",
    "StringTensorMeta",
    "SparseCooTensor",
    "SparseCsrTensor",
    "TensorArray",
    "StringTensor",
    "MISSING_PART",
]

# What is missing for ops on each kind (dispatch's UnimplementedError names it).
MISSING_PART = {
    TensorKind.SPARSE_COO: "a sparse COO tensor's ops are phiops.sparse's (e.g. phiops.sparse.add)",
    TensorKind.SPARSE_CSR: "a sparse CSR tensor's ops are phiops.sparse's (e.g. phiops.sparse.add)",
    TensorKind.TENSOR_ARRAY: "a TensorArray's ops are the array ops (phiops.tensor.array_read, ...)",
    TensorKind.STRING: "a StringTensor's ops are phiops.strings's (lower, upper, empty)",
}


class SparseCooMeta(DenseTensorMeta):
    """The meta of a SparseCooTensor: dtype of its values, its dense dims, layout, place."""

    __slots__ = ()
    kind = TensorKind.SPARSE_COO
    _interned: dict[tuple, DenseTensorMeta] = {}


class SparseCsrMeta(DenseTensorMeta):
    """The meta of a SparseCsrTensor: dtype of its values, its dense dims, layout, place."""

    __slots__ = ()
    kind = TensorKind.SPARSE_CSR
    _interned: dict[tuple, DenseTensorMeta] = {}


class TensorArrayMeta(DenseTensorMeta):
    """The meta of a TensorArray: its items' dtype; dims ``[length]``."""

    __slots__ = ()
    kind = TensorKind.TENSOR_ARRAY
    _interned: dict[tuple, DenseTensorMeta] = {}


class StringTensorMeta(DenseTensorMeta):
    """The meta of a StringTensor: dtype UNDEFINED (PHI's PSTRING), its dims."""

    __slots__ = ()
    kind = TensorKind.STRING
    _interned: dict[tuple, DenseTensorMeta] = {}


def _dense(value: Any, what: str) -> DenseTensor:
    if isinstance(value, DenseTensor):
        return value
    if not hasattr(value, "dtype") or not hasattr(value, "shape"):
        value = np.asarray(value)
    try:
        return DenseTensor(value)
    except Exception as error:  # an array of a dtype phiops has no DataType for
        raise InvalidArgumentError(f"{what}: {error}") from None


def _shape(shape: Any, what: str) -> tuple[int, ...]:
    try:
        dims = tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"{what}: shape must be a sequence of ints, got {shape!r}") from None
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(f"{what}: shape must not have negative dims, got {list(dims)}")
    return dims


def _host(array: Any) -> np.ndarray:
    return DenseTensor(array).to_numpy() if not isinstance(array, np.ndarray) else array


class SparseCooTensor(TensorBase):
    """``indices`` (int ``[sparse_dim, nnz]``), ``values`` (``[nnz, *dense dims]``), the dense
    ``shape`` and whether it is ``coalesced`` (indices sorted, each once), as PHI's
    SparseCooTensor."""

    __slots__ = ("indices", "values", "shape", "coalesced")

    def __init__(self, indices: Any, values: Any, shape: Any, coalesced: bool = False) -> None:
        what = "SparseCooTensor"
        indices, values = _dense(indices, what), _dense(values, what)
        dims = _shape(shape, what)
        index_dims = indices.meta.dims
        if len(index_dims) != 2 or not indices.meta.dtype.is_integer:
            raise InvalidArgumentError(
                f"{what}: indices must be a 2-D integer tensor [sparse_dim, nnz], got "
                f"{indices.meta.dtype.name.lower()} {list(index_dims)}"
            )
        sparse_dim, nnz = index_dims
        if sparse_dim > len(dims) or sparse_dim == 0 and nnz:
            raise InvalidArgumentError(
                f"{what}: indices has {sparse_dim} sparse dims, shape {list(dims)} has only "
                f"{len(dims)}"
            )
        expected = (nnz,) + dims[sparse_dim:]
        if values.meta.dims != expected:
            raise InvalidArgumentError(
                f"{what}: values must have dims {list(expected)} ([nnz] + the dense dims of "
                f"shape), got {list(values.meta.dims)}"
            )
        if nnz:
            host = _host(indices.array)
            low = host.min(axis=1)
            high = host.max(axis=1)
            for axis in range(sparse_dim):
                if low[axis] < 0 or high[axis] >= dims[axis]:
                    raise InvalidArgumentError(
                        f"{what}: indices[{axis}] must be in [0, {dims[axis]}), got "
                        f"{int(low[axis] if low[axis] < 0 else high[axis])}"
                    )
        self.indices, self.values, self.shape = indices, values, dims
        self.coalesced = bool(coalesced)

    @property
    def meta(self) -> DenseTensorMeta:  # type: ignore[override]
        value = self.values.meta
        return SparseCooMeta.get(value.dtype, self.shape, value.layout, value.place)

    @property
    def dims(self) -> tuple[int, ...]:
        """The dense shape (a user Tensor's ``shape`` of this kind, as PaddlePaddle's)."""
        return self.shape

    @property
    def dtype(self) -> Any:
        """The values' array dtype (what autograd reads to tell a differentiable tensor)."""
        return self.values.array.dtype

    @property
    def sparse_dim(self) -> int:
        return self.indices.meta.dims[0]

    @property
    def nnz(self) -> int:
        return self.indices.meta.dims[1]

    def to_dense(self) -> DenseTensor:
        """The dense tensor: zeros with each value added at its index (repeated indices of an
        uncoalesced tensor add up)."""
        from phiops.runtime.backends import scatter_at
        from phiops.runtime.device import module_of

        values = self.values.array
        xp = module_of(values)
        dense = xp.zeros(self.shape, dtype=values.dtype)
        if self.nnz:
            index = tuple(self.indices.array[axis] for axis in range(self.sparse_dim))
            flat = xp.ravel_multi_index(index, self.shape[: self.sparse_dim])
            view = dense.reshape((-1,) + self.shape[self.sparse_dim :])
            scatter_at("add", view, flat, values)
        return DenseTensor(dense)

    def to_numpy(self) -> np.ndarray:
        return self.to_dense().to_numpy()


class SparseCsrTensor(TensorBase):
    """``crows`` (row offsets, ``[rows + 1]``, or ``[batch * (rows + 1)]`` for 3-D), ``cols``
    and ``values`` (``[nnz]``) of a 2-D or 3-D ``shape``, as PHI's SparseCsrTensor."""

    __slots__ = ("crows", "cols", "values", "shape")

    def __init__(self, crows: Any, cols: Any, values: Any, shape: Any) -> None:
        what = "SparseCsrTensor"
        crows, cols, values = _dense(crows, what), _dense(cols, what), _dense(values, what)
        dims = _shape(shape, what)
        if len(dims) not in (2, 3):
            raise InvalidArgumentError(f"{what}: shape must be 2-D or 3-D, got {list(dims)}")
        for name, part in (("crows", crows), ("cols", cols)):
            if len(part.meta.dims) != 1 or not part.meta.dtype.is_integer:
                raise InvalidArgumentError(
                    f"{what}: {name} must be a 1-D integer tensor, got "
                    f"{part.meta.dtype.name.lower()} {list(part.meta.dims)}"
                )
        if len(values.meta.dims) != 1 or values.meta.dims != cols.meta.dims:
            raise InvalidArgumentError(
                f"{what}: values must be 1-D with one entry per column index "
                f"({cols.meta.dims[0]}), got {list(values.meta.dims)}"
            )
        batch = dims[0] if len(dims) == 3 else 1
        rows, width = dims[-2], dims[-1]
        if crows.meta.dims[0] != batch * (rows + 1):
            raise InvalidArgumentError(
                f"{what}: crows must have {batch * (rows + 1)} entries (batch * (rows + 1)) for "
                f"shape {list(dims)}, got {crows.meta.dims[0]}"
            )
        offsets = _host(crows.array).reshape(batch, rows + 1)
        if (offsets[:, 0] != 0).any() or (np.diff(offsets, axis=1) < 0).any():
            raise InvalidArgumentError(
                f"{what}: each batch's crows must start at 0 and never decrease"
            )
        if int(offsets[:, -1].sum()) != cols.meta.dims[0]:
            raise InvalidArgumentError(
                f"{what}: crows counts {int(offsets[:, -1].sum())} entries, cols has "
                f"{cols.meta.dims[0]}"
            )
        host_cols = _host(cols.array)
        if host_cols.size and (host_cols.min() < 0 or host_cols.max() >= width):
            raise InvalidArgumentError(f"{what}: cols must be in [0, {width})")
        self.crows, self.cols, self.values, self.shape = crows, cols, values, dims

    @property
    def meta(self) -> DenseTensorMeta:  # type: ignore[override]
        value = self.values.meta
        return SparseCsrMeta.get(value.dtype, self.shape, value.layout, value.place)

    @property
    def dims(self) -> tuple[int, ...]:
        """The dense shape (a user Tensor's ``shape`` of this kind, as PaddlePaddle's)."""
        return self.shape

    @property
    def dtype(self) -> Any:
        """The values' array dtype (what autograd reads to tell a differentiable tensor)."""
        return self.values.array.dtype

    @property
    def nnz(self) -> int:
        return self.cols.meta.dims[0]

    def to_dense(self) -> DenseTensor:
        """The dense tensor: zeros with each value at its (row, column); a repeated pair adds
        up."""
        from phiops.runtime.backends import scatter_at
        from phiops.runtime.device import module_of

        values = self.values.array
        xp = module_of(values)
        dims = self.shape
        batch = dims[0] if len(dims) == 3 else 1
        rows, width = dims[-2], dims[-1]
        dense = xp.zeros((batch * rows * width,), dtype=values.dtype)
        if self.nnz:
            offsets = xp.asarray(_host(self.crows.array).reshape(batch, rows + 1))
            counts = xp.diff(offsets, axis=1).reshape(-1)
            row_of = xp.repeat(xp.arange(batch * rows), counts)
            flat = row_of * width + self.cols.array.astype(row_of.dtype)
            scatter_at("add", dense, flat, values)
        return DenseTensor(dense.reshape(dims))

    def to_numpy(self) -> np.ndarray:
        return self.to_dense().to_numpy()


class TensorArray(TensorBase):
    """A list of DenseTensors of one dtype (PHI's ``TensorArray``); its ops come with issue 28
    part 4."""

    __slots__ = ("items", "dtype")

    def __init__(self, items: Any = (), dtype: DataType = DataType.FLOAT32) -> None:
        tensors = [_dense(item, "TensorArray") for item in items]
        for position, tensor in enumerate(tensors):
            if tensor.meta.dtype is not dtype:
                raise InvalidArgumentError(
                    f"TensorArray: item {position} is {tensor.meta.dtype.name.lower()}, the array "
                    f"holds {dtype.name.lower()}"
                )
        self.items, self.dtype = tensors, dtype

    @property
    def meta(self) -> DenseTensorMeta:  # type: ignore[override]
        from phiops.runtime.common import CPUPlace, DataLayout

        place = self.items[0].meta.place if self.items else CPUPlace()
        return TensorArrayMeta.get(self.dtype, (len(self.items),), DataLayout.NCHW, place)

    def to_numpy(self) -> np.ndarray:
        raise UnimplementedError(
            f"TensorArray.to_numpy: not implemented; {MISSING_PART[TensorKind.TENSOR_ARRAY]}"
        )


class StringTensor(TensorBase):
    """An array of Python strings (PHI's ``StringTensor``; phiops has no PSTRING dtype, its
    meta says UNDEFINED). ``phiops.strings`` makes and converts them (runtime kernels in
    runtime/kernels/impl/string_kernels.py); ``shape`` and ``numpy()`` are PaddlePaddle's."""

    __slots__ = ("strings",)

    def __init__(self, strings: Any) -> None:
        array = np.asarray(strings, dtype=object)
        if not all(isinstance(item, str) for item in array.reshape(-1)):
            raise InvalidArgumentError("StringTensor: every item must be a str")
        self.strings = array

    @property
    def meta(self) -> DenseTensorMeta:  # type: ignore[override]
        from phiops.runtime.common import CPUPlace, DataLayout

        return StringTensorMeta.get(
            DataType.UNDEFINED, tuple(self.strings.shape), DataLayout.NCHW, CPUPlace()
        )

    def to_numpy(self) -> np.ndarray:
        return self.strings

    @property
    def shape(self) -> list[int]:
        """The extents, as PaddlePaddle's StringTensor gives them."""
        return list(self.strings.shape)

    def numpy(self) -> np.ndarray:
        """The strings as a numpy array of str (PaddlePaddle's ``StringTensor.numpy()``)."""
        return self.strings.astype(str) if self.strings.size else np.array(self.strings, dtype=str)

    def __repr__(self) -> str:
        return f"StringTensor(shape={self.shape}, {self.strings.tolist()!r})"
