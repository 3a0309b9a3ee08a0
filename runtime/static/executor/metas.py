"""Metas against the types a program declares: the DataType of an IR element type, whether a
planned meta fits its value's declared type, and metas and types with their extents unknown."""

from __future__ import annotations

from typing import Any

from phiops.runtime.common import DataType, to_data_type
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError, UnimplementedError
from phiops.runtime.ir.types import ELEMENT_TYPES, DenseTensorType, SelectedRowsType, VectorType
from phiops.runtime.tensor.kinds import TensorKind

__all__ = [
    "check_fits",
    "dtype_name",
    "dtype_of",
    "extents_unknown",
    "has_unknown_dims",
    "rank_only",
]


def dtype_name(name: str, where: str) -> DataType:
    """The DataType of a dtype name (`float32`); UnimplementedError for one phiops lacks."""
    try:
        return to_data_type(name, where)
    except InvalidArgumentError:
        raise UnimplementedError(f"{where}: phiops has no dtype '{name}'") from None


def dtype_of(element: str, where: str) -> DataType:
    """The DataType of an IR element type (`f32`) or a dtype attribute (`float32`)."""
    return dtype_name(ELEMENT_TYPES.get(element, element), where)


def has_unknown_dims(meta: Any) -> bool:
    if isinstance(meta, tuple):
        return any(has_unknown_dims(item) for item in meta)
    return meta is not None and -1 in meta.dims


def check_fits(meta: Any, declared: Any, where: str) -> None:
    """PreconditionNotMetError unless ``meta`` (a tuple of metas for a vector) fits the declared
    type: same dtype, same rank, same extent wherever both know it; a declared [-1] is a tensor
    of unknown rank too (what follows p_recv, whose shape comes from the sender)."""
    if isinstance(declared, VectorType) and isinstance(meta, tuple):
        if len(meta) != len(declared.types):
            raise PreconditionNotMetError(
                f"{where}: computed {len(meta)} tensors, but the program declares {declared}"
            )
        for item, item_type in zip(meta, declared.types):
            check_fits(item, item_type, where)
        return
    if not isinstance(declared, (DenseTensorType, SelectedRowsType)) or not isinstance(
        meta, DenseTensorMeta
    ):
        return
    if (meta.kind is TensorKind.SELECTED_ROWS) != isinstance(declared, SelectedRowsType):
        raise PreconditionNotMetError(
            f"{where}: computed a {meta.kind.title}, but the program declares {declared}"
        )
    dims = meta.dims
    dims_unknown = tuple(declared.dims) == (-1,)
    if (
        dtype_of(declared.element, where) is not meta.dtype
        or not dims_unknown
        and len(dims) != len(declared.dims)
        or any(d != -1 and m != -1 and d != m for d, m in zip(declared.dims, dims))
    ):
        raise PreconditionNotMetError(
            f"{where}: computed {meta.dtype.name.lower()} {list(dims)}, but the program declares "
            f"{declared}"
        )


def extents_unknown(meta: Any) -> Any:
    """``meta`` with every extent unknown (-1), dtype and rank kept."""
    if isinstance(meta, tuple):
        return tuple(extents_unknown(item) for item in meta)
    if not isinstance(meta, DenseTensorMeta):
        return meta
    return DenseTensorMeta.get(meta.dtype, (-1,) * len(meta.dims), meta.layout, meta.place)


def rank_only(declared: Any) -> Any:
    """A declared type with every extent unknown (-1), element type and rank kept."""
    if isinstance(declared, VectorType):
        return VectorType(tuple(rank_only(t) for t in declared.types))
    if not isinstance(declared, DenseTensorType):
        return declared
    return DenseTensorType((-1,) * len(declared.dims), declared.element, declared.layout)
