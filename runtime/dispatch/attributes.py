"""Attribute normalisers used by the generated API before dispatch.

Each turns what a user may pass into the plain value kernels and InferMeta functions receive
(see DESIGN.md §4) or raises InvalidArgumentError naming the op and the argument. The generated
code calls them only when the value is not already of the exact target type and, for integers,
within range (``INT32_MIN`` ... ``INT64_MAX``, spelled out in the generated test).

Ranges are checked here, once, so no kernel meets a value its C++ counterpart could not hold:
``int`` attributes are int32, ``int64_t`` ones and every int inside an ``IntArray`` or a
``Scalar`` int64; a float attribute or Scalar must be a float (an int too large for one is an
error, not an OverflowError inside a kernel).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime.common import DataType, IntArray, Place, Scalar, to_data_type, to_place
from runtime.errors import InvalidArgumentError

__all__ = [
    "INT32_MIN",
    "INT32_MAX",
    "INT64_MIN",
    "INT64_MAX",
    "to_bool",
    "to_int",
    "to_int32",
    "to_int64",
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


INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def _fail(op: str, arg: str, expected: str, value: Any) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"{op}(): argument '{arg}' expects {expected}, got {type(value).__name__} {_shown(value)}"
    )


def _shown(value: Any) -> str:
    """``repr`` of a value for a message, shortened: an int of thousands of digits stays
    readable (and within Python's int-to-str digit limit)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return f"an int of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


def _in_range(value: int, low: int, high: int, op: str, arg: str, kind: str) -> int:
    if not low <= value <= high:
        raise InvalidArgumentError(
            f"{op}(): argument '{arg}' is {_shown(value)}, out of range for {kind} "
            f"[{low}, {high}]"
        )
    return value


def to_bool(value: Any, op: str, arg: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise _fail(op, arg, "a bool", value)


def to_int(value: Any, op: str, arg: str) -> int:
    """An int of any size (callers check the range their type needs)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    raise _fail(op, arg, "an int", value)


def to_int32(value: Any, op: str, arg: str) -> int:
    """``int``: an int in [-2**31, 2**31 - 1]."""
    return _in_range(to_int(value, op, arg), INT32_MIN, INT32_MAX, op, arg, "int32")


def to_int64(value: Any, op: str, arg: str) -> int:
    """``int64_t``: an int in [-2**63, 2**63 - 1]."""
    return _in_range(to_int(value, op, arg), INT64_MIN, INT64_MAX, op, arg, "int64")


def to_float(value: Any, op: str, arg: str) -> float:
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    ):
        return _as_float(value, op, arg)
    raise _fail(op, arg, "a float", value)


def _as_float(value: Any, op: str, arg: str) -> float:
    try:
        return float(value)
    except OverflowError:
        raise InvalidArgumentError(
            f"{op}(): argument '{arg}' is {_shown(value)}, too large for a float"
        ) from None


def to_str(value: Any, op: str, arg: str) -> str:
    if isinstance(value, str):
        return value
    raise _fail(op, arg, "a str", value)


def to_int_array(value: Any, op: str, arg: str) -> tuple[int, ...]:
    """IntArray: an int, a list/tuple of ints or 1-element int tensors, or an int tensor."""
    if type(value) is not tuple or not all(type(item) is int for item in value):
        try:
            value = IntArray(value).data
        except InvalidArgumentError as error:
            raise InvalidArgumentError(f"{op}(): argument '{arg}': {error}") from None
    for position, item in enumerate(value):
        _in_range(item, INT64_MIN, INT64_MAX, op, f"{arg}[{position}]", "int64")
    return value


def to_int_list(value: Any, op: str, arg: str) -> tuple[int, ...]:
    """int[] / int64_t[]: a list or tuple of ints (an int is a 1-element list)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return (to_int64(value, op, arg),)
    if isinstance(value, (list, tuple)):
        return tuple(to_int64(item, op, f"{arg}[{i}]") for i, item in enumerate(value))
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
    """Scalar: a Python/numpy number or a 1-element tensor, as a Python number; an int must
    fit int64, as PHI's Scalar holds it."""
    try:
        number = Scalar(value).value
    except InvalidArgumentError as error:
        raise InvalidArgumentError(f"{op}(): argument '{arg}': {error}") from None
    if type(number) is int:
        _in_range(number, INT64_MIN, INT64_MAX, op, arg, "an int64 Scalar")
    return number


def to_scalar_int(value: Any, op: str, arg: str) -> int:
    number = to_scalar(value, op, arg)
    if isinstance(number, complex) or isinstance(number, float) and not number.is_integer():
        raise _fail(op, arg, "an integer Scalar", value)
    return _in_range(int(number), INT64_MIN, INT64_MAX, op, arg, "an int64 Scalar")


def to_scalar_float(value: Any, op: str, arg: str) -> float:
    number = to_scalar(value, op, arg)
    if isinstance(number, complex):
        raise _fail(op, arg, "a real Scalar", value)
    return _as_float(number, op, arg)


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
