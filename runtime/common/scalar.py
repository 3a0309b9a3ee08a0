"""Scalar and IntArray: attribute values that may also come from tensors."""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common.data_type import DataType, from_numpy_dtype
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["Scalar", "IntArray"]

_PY_TYPES = {
    bool: DataType.BOOL,
    int: DataType.INT64,
    float: DataType.FLOAT64,
    complex: DataType.COMPLEX128,
}


class Scalar:
    """One number of any dtype: from a Python/numpy number or a 1-element tensor."""

    __slots__ = ("value", "dtype")

    def __init__(self, value: Any) -> None:
        if isinstance(value, Scalar):
            self.value, self.dtype = value.value, value.dtype
            return
        dtype = _PY_TYPES.get(type(value))
        if dtype is not None:
            self.value, self.dtype = value, dtype
            return
        array = _array_of(value)
        if array is None:
            raise InvalidArgumentError(
                f"expected a number or a 1-element tensor, got {type(value).__name__} {value!r}"
            )
        if array.size != 1:
            raise InvalidArgumentError(
                f"a Scalar tensor must hold exactly 1 element, got shape {list(array.shape)}"
            )
        self.dtype = from_numpy_dtype(array.dtype)
        self.value = array.reshape(()).item()

    def to(self, kind: type) -> Any:
        """The value as ``bool``, ``int``, ``float`` or ``complex``."""
        return kind(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scalar) and self.value == other.value and self.dtype == other.dtype

    def __hash__(self) -> int:
        return hash((self.value, self.dtype))

    def __repr__(self) -> str:
        return f"Scalar({self.value!r}, {self.dtype!r})"


class IntArray:
    """A list of ints given as a list/tuple, a 1-D int tensor, or a list of 1-element int tensors."""

    __slots__ = ("data", "from_tensor")

    def __init__(self, value: Any) -> None:
        self.from_tensor = False
        if isinstance(value, IntArray):
            self.data, self.from_tensor = value.data, value.from_tensor
            return
        if isinstance(value, (bool, np.bool_)):
            raise InvalidArgumentError(f"expected a list of ints, got bool {value!r}")
        if isinstance(value, (int, np.integer)):
            self.data = (int(value),)
            return
        array = _array_of(value)
        if array is not None:
            if array.dtype.kind not in "iu" or array.ndim > 1:
                raise InvalidArgumentError(
                    f"an IntArray tensor must be a 0-D or 1-D integer tensor, "
                    f"got {array.dtype} with shape {list(array.shape)}"
                )
            self.data = tuple(int(v) for v in array.reshape(-1).tolist())
            self.from_tensor = True
            return
        if isinstance(value, (list, tuple)):
            items = []
            for position, item in enumerate(value):
                if isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
                    items.append(int(item))
                    continue
                inner = _array_of(item)
                if inner is None or inner.size != 1 or inner.dtype.kind not in "iu":
                    raise InvalidArgumentError(
                        f"element {position} must be an int or a 1-element int tensor, "
                        f"got {type(item).__name__} {item!r}"
                    )
                items.append(int(inner.reshape(()).item()))
                self.from_tensor = True
            self.data = tuple(items)
            return
        raise InvalidArgumentError(
            f"expected an int, a list of ints or an int tensor, got {type(value).__name__} {value!r}"
        )

    def __repr__(self) -> str:
        return f"IntArray({list(self.data)})"


class IntArrayFromValue(tuple):
    """An IntArray attribute given as a Value of a static program (or a list mixing ints and
    1-element Values), as known while the program is built: an int where the value is known
    (a plain int of the list), -1 where it comes from the data. ``source`` is what was given; the
    built operation takes it as an operand (PHI's ``IntArray::FromTensor()`` at compile time). A
    -1 here is "unknown", not reshape's "infer": InferMeta functions test ``is_from_value``."""

    source: Any

    def __new__(cls, values: tuple[int, ...], source: Any) -> IntArrayFromValue:
        array = super().__new__(cls, values)
        array.source = source
        return array


def is_from_value(value: Any) -> bool:
    """Whether an IntArray attribute comes from a Value being built (see IntArrayFromValue)."""
    return type(value) is IntArrayFromValue


def _array_of(value: Any) -> Any:
    """The backend array behind a Tensor or numpy value, else None."""
    impl = getattr(value, "_impl", None)
    if impl is not None:
        return impl.to_numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    return None
