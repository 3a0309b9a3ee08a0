"""What the executor reads of the arrays a run holds: their meta, and a host (numpy) copy."""

from __future__ import annotations

from typing import Any

from phiops.runtime.backends import place_of_array, to_numpy
from phiops.runtime.common import DataLayout
from phiops.runtime.common.data_type import from_numpy_dtype
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta

__all__ = ["array_meta", "meta_of_array", "to_numpy"]


def array_meta(array: Any) -> Any:
    """The meta of an array (a tuple of metas for a list of arrays, None for an absent one)."""
    if isinstance(array, list):
        return tuple(array_meta(item) for item in array)
    if array is None:
        return None
    return DenseTensorMeta.get(
        from_numpy_dtype(array.dtype), tuple(array.shape), DataLayout.NCHW, place_of_array(array)
    )


def meta_of_array(array: Any, planned: DenseTensorMeta) -> DenseTensorMeta:
    """The meta of a result whose planned dims were unknown (-1: they depend on the data)."""
    return DenseTensorMeta.get(planned.dtype, tuple(array.shape), planned.layout, planned.place)
