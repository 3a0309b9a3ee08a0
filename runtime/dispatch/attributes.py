"""Attribute normalisers used by the generated API before dispatch.

Each turns what a user may pass into the plain value kernels and InferMeta functions receive
(see DESIGN.md §4) or raises InvalidArgumentError naming the op and the argument. The generated
code calls them only when the value is not already of the exact target type.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime.common import DataType, IntArray, Place, Scalar, to_data_type, to_place
from runtime.errors import InvalidArgumentError

__all__ = [
    "to_bool",
    "to_int",
    "to_float",
    "to_str",
    "to_int_array",
    "to_int_list",
    "to_float_list",
    "to_bool_list",
    "to_str_list",
    "to_scalar",
    "to_scalar_int",
    "to_scalar_float",
    "to_scalar_bool",
    "to_scalar_list",
    "to_dtype",
    "to_place_attr",
]


def _fail(op: str, arg: str, expected: str, value: Any) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"{op}(): argument '{arg}' expects {expected}, got {type(value).__name__} {value!r}"
    )


def to_bool(value: Any, op: str, arg: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise _fail(op, arg, "a bool", value)


def to_int(value: Any, op: str, arg: str) -> int:
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    raise _fail(op, arg, "an int", value)


def to_float(value: Any, op: str, arg: str) -> float:
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    ):
        return float(value)
    raise _fail(op, arg, "a float", value)


def to_str(value: Any, op: str, arg: str) -> str:
    if isinstance(value, str):
        return value
    raise _fail(op, arg, "a str", value)


def to_int_array(value: Any, op: str, arg: str) -> tuple[int, ...]:
    """IntArray: an int, a list/tuple of ints or 1-element int tensors, or an int tensor."""
    if type(value) is tuple and all(type(item) is int for item in value):
        return value
    try:
        return IntArray(value).data
    except InvalidArgumentError as error:
        raise InvalidArgumentError(f"{op}(): argument '{arg}': {error}") from None


def to_int_list(value: Any, op: str, arg: str) -> tuple[int, ...]:
    """int[] / int64_t[]: a list or tuple of ints (an int is a 1-element list)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return (int(value),)
    if isinstance(value, (list, tuple)):
        return tuple(to_int(item, op, f"{arg}[{i}]") for i, item in enumerate(value))
    raise _fail(op, arg, "a list of ints", value)


def to_float_list(value: Any, op: str, arg: str) -> tuple[float, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(to_float(item, op, f"{arg}[{i}]") for i, item in enumerate(value))
    raise _fail(op, arg, "a list of floats", value)


def to_bool_list(value: Any, op: str, arg: str) -> tuple[bool, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(to_bool(item, op, f"{arg}[{i}]") for i, item in enumerate(value))
    raise _fail(op, arg, "a list of bools", value)


def to_str_list(value: Any, op: str, arg: str) -> tuple[str, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(to_str(item, op, f"{arg}[{i}]") for i, item in enumerate(value))
    raise _fail(op, arg, "a list of str", value)


def to_scalar(value: Any, op: str, arg: str) -> bool | int | float | complex:
    """Scalar: a Python/numpy number or a 1-element tensor, as a Python number."""
    try:
        return Scalar(value).value
    except InvalidArgumentError as error:
        raise InvalidArgumentError(f"{op}(): argument '{arg}': {error}") from None


def to_scalar_int(value: Any, op: str, arg: str) -> int:
    number = to_scalar(value, op, arg)
    if isinstance(number, float) and not number.is_integer() or isinstance(number, complex):
        raise _fail(op, arg, "an integer Scalar", value)
    return int(number)


def to_scalar_float(value: Any, op: str, arg: str) -> float:
    number = to_scalar(value, op, arg)
    if isinstance(number, complex):
        raise _fail(op, arg, "a real Scalar", value)
    return float(number)


def to_scalar_bool(value: Any, op: str, arg: str) -> bool:
    return bool(to_scalar(value, op, arg))


def to_scalar_list(value: Any, op: str, arg: str) -> tuple[bool | int | float | complex, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(to_scalar(item, op, f"{arg}[{i}]") for i, item in enumerate(value))
    raise _fail(op, arg, "a list of numbers", value)


def to_dtype(value: Any, op: str, arg: str) -> DataType:
    """DataType: a DataType, a numpy dtype or a name such as "float32"; None is UNDEFINED."""
    if value is None:
        return DataType.UNDEFINED
    return to_data_type(value, f"{op}(): argument '{arg}'")


def to_place_attr(value: Any, op: str, arg: str) -> Place:
    """Place: a Place, "cpu", "gpu", "gpu:N"; None is the undefined place."""
    return to_place(value, f"{op}(): argument '{arg}'")


IntArrayLike = Any
"""int, a sequence of ints or 1-element int tensors, or an int tensor."""
ScalarLike = Any
"""A Python/numpy number or a 1-element tensor."""
DataTypeLike = Any
"""A DataType, a numpy dtype, or a name such as "float32"."""
PlaceLike = Any
"""A Place, "cpu", "gpu" or "gpu:N"; None for the undefined place."""
SCALAR_TYPES = (bool, int, float, complex)
