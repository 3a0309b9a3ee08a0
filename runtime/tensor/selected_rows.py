"""SelectedRows: some rows of a tall tensor (PHI's ``phi::SelectedRows``).

``rows`` (a 1-D int64 array) names, for each row of ``value`` (a DenseTensor), which row of a
``[height, ...]`` tensor it is; every other row is zero. A row may appear more than once (its
values then add up, as a sparse embedding gradient has them before ``merge_selected_rows``).
This is the gradient ``embedding(sparse=True)`` produces: a batch touching 1,000 rows of a
million-row table gives 1,000 rows of values, not a million.

Its meta, SelectedRowsMeta, has the dims of the whole tensor (``[height, ...]``), as PHI's
MetaTensor reports ``GetCompleteDims()`` to InferMeta, so a plan made for one batch serves the
next one whatever its number of rows; the value's own dims are ``value.meta.dims``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common import DataLayout, DataType, Place
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.tensor.dense_tensor import DenseTensor, DenseTensorMeta, TensorBase
from phiops.runtime.tensor.kinds import TensorKind

__all__ = ["SelectedRowsMeta", "SelectedRows", "merge_rows"]


class SelectedRowsMeta(DenseTensorMeta):
    """The meta of a SelectedRows: dtype, the complete dims ``[height, ...]``, layout, place."""

    __slots__ = ()

    kind = TensorKind.SELECTED_ROWS
    _interned: dict[tuple, DenseTensorMeta] = {}

    @property
    def height(self) -> int:
        """The row count of the whole tensor (the first complete dim)."""
        return self.dims[0]


class SelectedRows(TensorBase):
    """``rows`` (1-D integer array), ``height`` (int) and ``value`` (a DenseTensor whose first
    dim is ``len(rows)``). ``check`` validates them (InvalidArgumentError naming what is
    wrong); kernels that build one from arrays they made pass ``check=False``."""

    __slots__ = ("rows", "height", "value")

    def __init__(self, rows: Any, height: int, value: Any, check: bool = True) -> None:
        if not isinstance(value, DenseTensor):
            value = DenseTensor(value)
        if check:
            _check(rows, height, value)
        self.rows = rows
        self.height = int(height)
        self.value = value

    @property
    def meta(self) -> SelectedRowsMeta:  # type: ignore[override]
        value = self.value.meta
        return SelectedRowsMeta.get(  # type: ignore[return-value]
            value.dtype, (self.height,) + value.dims[1:], value.layout, value.place
        )

    @property
    def dtype(self) -> DataType:
        return self.value.meta.dtype

    @property
    def dims(self) -> tuple[int, ...]:
        """The value's dims (PHI's ``SelectedRows::dims()``); the whole tensor's are
        ``meta.dims``."""
        return self.value.meta.dims

    def to_dense(self) -> DenseTensor:
        """The ``[height, ...]`` DenseTensor it stands for: zeros, with each value row added at
        its row (repeated rows add up)."""
        from phiops.runtime.backends import scatter_at
        from phiops.runtime.device import module_of

        array = self.value.array
        xp = module_of(array)
        dense = xp.zeros(self.meta.dims, dtype=array.dtype)
        if len(self.rows):
            scatter_at("add", dense, self.rows, array)
        return DenseTensor(dense)

    def to_host_rows(self) -> np.ndarray:
        """``rows`` as a numpy array."""
        return _host(self.rows)

    def to_numpy(self) -> np.ndarray:
        """The value's data (what PaddlePaddle's ``numpy()`` of a SelectedRows tensor gives)."""
        return self.value.to_numpy()

    def merged(self) -> SelectedRows:
        """The same tensor with each row once, rows sorted, repeated rows' values added (PHI's
        ``MergeAdd``)."""
        rows, values = merge_rows(self.rows, self.value.array)
        return SelectedRows(rows, self.height, DenseTensor(values), check=False)

    def __repr__(self) -> str:
        return (
            f"SelectedRows(rows={list(np.asarray(_host(self.rows)).tolist())}, "
            f"height={self.height}, value={self.value.meta!r})"
        )


def merge_rows(rows: Any, values: Any) -> tuple[Any, Any]:
    """Sorted unique ``rows`` and, for each, the sum of its ``values`` rows (PHI's
    ``MergeAdd``): O(len(rows)) memory, whatever the height."""
    from phiops.runtime.backends import scatter_at
    from phiops.runtime.device import module_of

    xp = module_of(values)
    if rows.shape[0] < 2 or bool((xp.diff(rows) > 0).all()):
        return rows, values  # already each row once, sorted
    unique, inverse = xp.unique(rows, return_inverse=True)
    inverse = inverse.reshape(-1)
    merged = xp.zeros((unique.shape[0],) + tuple(values.shape[1:]), dtype=values.dtype)
    scatter_at("add", merged, inverse, values)
    return unique.astype(rows.dtype, copy=False), merged


def _host(array: Any) -> np.ndarray:
    if isinstance(array, np.ndarray):
        return array
    from phiops.runtime.common import CPUPlace
    from phiops.runtime.device import to_backend

    return to_backend(array, CPUPlace())


def _check(rows: Any, height: Any, value: DenseTensor) -> None:
    if isinstance(height, bool) or not isinstance(height, (int, np.integer)) or height < 0:
        raise InvalidArgumentError(
            f"SelectedRows: height must be a non-negative int, got {height!r}"
        )
    dtype = getattr(rows, "dtype", None)
    if dtype is None or getattr(rows, "ndim", None) != 1 or np.dtype(dtype).kind not in "iu":
        raise InvalidArgumentError(
            "SelectedRows: rows must be a 1-D integer array, got "
            f"{type(rows).__name__} {getattr(rows, 'dtype', '')} "
            f"{list(getattr(rows, 'shape', []))}"
        )
    dims = value.meta.dims
    if not dims or dims[0] != rows.shape[0]:
        raise InvalidArgumentError(
            f"SelectedRows: value must have one row per entry of rows ({rows.shape[0]}), got "
            f"value dims {list(dims)}"
        )
    if rows.shape[0]:
        host = _host(rows)
        low, high = int(host.min()), int(host.max())
        if low < 0 or high >= height:
            raise InvalidArgumentError(
                f"SelectedRows: rows must be in [0, height={height}), got a row "
                f"{low if low < 0 else high}"
            )


def selected_rows_meta(
    dtype: DataType, dims: tuple[int, ...], layout: DataLayout, place: Place
) -> SelectedRowsMeta:
    """The interned SelectedRowsMeta for these values."""
    return SelectedRowsMeta.get(dtype, dims, layout, place)  # type: ignore[return-value]


def add_selected_rows(a: TensorBase, b: TensorBase) -> TensorBase:
    """``a + b`` where one or both are SelectedRows (the other a DenseTensor), as PaddlePaddle
    accumulates gradients: two SelectedRows give one with the rows of both, merged (sorted,
    each once); a SelectedRows and a DenseTensor give a new DenseTensor."""
    from phiops.runtime.backends import scatter_at
    from phiops.runtime.device import module_of

    if isinstance(a, SelectedRows) and isinstance(b, SelectedRows):
        if a.height != b.height or a.dims[1:] != b.dims[1:]:
            raise InvalidArgumentError(
                f"adding SelectedRows: heights and row dims must agree, got "
                f"{list(a.meta.dims)} and {list(b.meta.dims)}"
            )
        xp = module_of(a.value.array)
        rows = xp.concatenate([a.rows, b.rows.astype(a.rows.dtype, copy=False)])
        values = xp.concatenate([a.value.array, b.value.array.astype(a.value.array.dtype)])
        merged_rows, merged = merge_rows(rows, values)
        return SelectedRows(merged_rows, a.height, DenseTensor(merged), check=False)
    dense, sparse = (b, a) if isinstance(a, SelectedRows) else (a, b)
    assert isinstance(sparse, SelectedRows) and isinstance(dense, DenseTensor)
    if dense.meta.dims != sparse.meta.dims:
        raise InvalidArgumentError(
            f"adding a SelectedRows to a dense tensor: dims must agree, got "
            f"{list(sparse.meta.dims)} and {list(dense.meta.dims)}"
        )
    total = dense.array.copy()
    if len(sparse.rows):
        scatter_at("add", total, sparse.rows, sparse.value.array.astype(total.dtype, copy=False))
    return DenseTensor(total)
