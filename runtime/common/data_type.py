"""DataType: the element types of PHI, with their numpy spellings."""

from __future__ import annotations

import enum
from typing import Any, Callable

import ml_dtypes
import numpy as np

from phiops.runtime.errors import InvalidArgumentError

__all__ = ["DataType", "data_type_named", "to_data_type", "promote_types"]


class DataType(enum.IntEnum):
    """Element type of a tensor; the order is PHI's and decides promotion (higher wins)."""

    UNDEFINED = 0
    BOOL = 1
    UINT8 = 2
    INT8 = 3
    UINT16 = 4
    INT16 = 5
    INT32 = 6
    UINT32 = 7
    INT64 = 8
    UINT64 = 9
    BFLOAT16 = 10
    FLOAT16 = 11
    FLOAT32 = 12
    FLOAT64 = 13
    COMPLEX64 = 14
    COMPLEX128 = 15

    ALL_DTYPE = 0  # alias of UNDEFINED, PHI's "any dtype" in kernel keys

    def __repr__(self) -> str:
        return f"phi.{self.name.lower()}" if self is not DataType.UNDEFINED else "phi.undefined"

    __str__ = __repr__

    @property
    def numpy_dtype(self) -> np.dtype:
        """The numpy dtype of this DataType; InvalidArgumentError when numpy has none."""
        try:
            return _TO_NUMPY[self]
        except KeyError:
            raise InvalidArgumentError(f"DataType {self.name} has no numpy equivalent") from None

    @property
    def is_floating_point(self) -> bool:
        return self in (DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT32, DataType.FLOAT64)

    @property
    def is_complex(self) -> bool:
        return self in (DataType.COMPLEX64, DataType.COMPLEX128)

    @property
    def is_integer(self) -> bool:
        return DataType.UINT8 <= self <= DataType.UINT64

    @property
    def to_complex(self) -> DataType:
        """The complex counterpart (FLOAT32 -> COMPLEX64); complex types map to themselves."""
        if self is DataType.FLOAT64 or self is DataType.COMPLEX128:
            return DataType.COMPLEX128
        return DataType.COMPLEX64


_TO_NUMPY: dict[DataType, np.dtype] = {
    DataType.BOOL: np.dtype(np.bool_),
    DataType.UINT8: np.dtype(np.uint8),
    DataType.INT8: np.dtype(np.int8),
    DataType.UINT16: np.dtype(np.uint16),
    DataType.INT16: np.dtype(np.int16),
    DataType.INT32: np.dtype(np.int32),
    DataType.UINT32: np.dtype(np.uint32),
    DataType.INT64: np.dtype(np.int64),
    DataType.UINT64: np.dtype(np.uint64),
    DataType.FLOAT16: np.dtype(np.float16),
    # numpy has no bfloat16; ml_dtypes registers one (a numpy dtype of kind "V").
    DataType.BFLOAT16: np.dtype(ml_dtypes.bfloat16),
    DataType.FLOAT32: np.dtype(np.float32),
    DataType.FLOAT64: np.dtype(np.float64),
    DataType.COMPLEX64: np.dtype(np.complex64),
    DataType.COMPLEX128: np.dtype(np.complex128),
}
_FROM_NUMPY: dict[np.dtype, DataType] = {v: k for k, v in _TO_NUMPY.items()}
_FROM_NAME: dict[str, DataType] = {
    **{m.name.lower(): m for m in DataType},
    **{str(v): k for k, v in _TO_NUMPY.items()},
    "bool_": DataType.BOOL,
    "half": DataType.FLOAT16,
    "float": DataType.FLOAT32,
    "double": DataType.FLOAT64,
    "int": DataType.INT32,
    "long": DataType.INT64,
}


def from_numpy_dtype(dtype: np.dtype) -> DataType:
    """DataType of a numpy dtype; InvalidArgumentError for one phiops does not support."""
    try:
        return _FROM_NUMPY[dtype]
    except KeyError:
        raise InvalidArgumentError(f"numpy dtype {dtype} is not supported by phiops") from None


# The DataType of a name spelled as to_data_type knows it ("float32", "double"), else None: one
# dict lookup, for the hot paths that take the usual spelling before the full normalisation.
data_type_named: Callable[[str], DataType | None] = _FROM_NAME.get


def to_data_type(value: Any, where: str = "dtype") -> DataType:
    """Normalise a DataType, a numpy dtype (or type) or a name such as "float32"."""
    if isinstance(value, DataType):
        return value
    if isinstance(value, str):
        found = _FROM_NAME.get(value)  # the common spelling ("float32") in one lookup
        if found is not None:
            return found
        found = _FROM_NAME.get(value.lower().removeprefix("paddle.").removeprefix("phi."))
        if found is None:
            raise InvalidArgumentError(
                f"{where}: unknown data type {value!r}; expected one of "
                + ", ".join(sorted(m.name.lower() for m in DataType if m))
            )
        return found
    try:
        np_dtype = np.dtype(value)
    except TypeError:
        raise InvalidArgumentError(
            f"{where}: expected a DataType, numpy dtype or name such as 'float32', "
            f"got {type(value).__name__} {value!r}"
        ) from None
    try:
        return _FROM_NUMPY[np_dtype]
    except KeyError:
        raise InvalidArgumentError(f"{where}: numpy dtype {np_dtype} is not supported") from None


def promote_types(dtypes: list[DataType]) -> DataType:
    """PHI's kernel-key rule: the highest DataType among the inputs."""
    return max(dtypes, default=DataType.UNDEFINED)
