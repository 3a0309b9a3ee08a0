"""Common types shared by every layer: DataType, Backend, DataLayout, Place, Scalar, IntArray."""

from runtime.common.backend import Backend, DataLayout
from runtime.common.data_type import DataType, promote_types, to_data_type
from runtime.common.place import CPUPlace, GPUPlace, Place, to_place
from runtime.common.scalar import IntArray, IntArrayFromValue, Scalar, is_from_value

__all__ = [
    "Backend",
    "DataLayout",
    "DataType",
    "promote_types",
    "to_data_type",
    "Place",
    "CPUPlace",
    "GPUPlace",
    "to_place",
    "Scalar",
    "IntArray",
    "IntArrayFromValue",
    "is_from_value",
]
