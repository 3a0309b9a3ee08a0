"""Common types shared by every layer: DataType, Backend, DataLayout, Place, Scalar, IntArray."""

from phiops.runtime.common.backend import (
    Backend,
    CustomBackend,
    DataLayout,
    backend_named,
    custom_backend,
    custom_backends,
)
from phiops.runtime.common.data_type import DataType, promote_types, to_data_type
from phiops.runtime.common.place import CPUPlace, CustomPlace, GPUPlace, Place, to_place
from phiops.runtime.common.scalar import IntArray, IntArrayFromValue, Scalar, is_from_value

__all__ = [
    "Backend",
    "CustomBackend",
    "backend_named",
    "custom_backend",
    "custom_backends",
    "DataLayout",
    "DataType",
    "promote_types",
    "to_data_type",
    "Place",
    "CPUPlace",
    "GPUPlace",
    "CustomPlace",
    "to_place",
    "Scalar",
    "IntArray",
    "IntArrayFromValue",
    "is_from_value",
]
