"""Attribute normalisers used by the generated API before dispatch.

Each turns what a user may pass into the plain value kernels and InferMeta functions receive
(see DESIGN.md §4) or raises InvalidArgumentError naming the op and the argument. The generated
code calls them only when the value is not already of the exact target type and, for integers,
within range (``INT32_MIN`` ... ``INT64_MAX``, spelled out in the generated test).

Ranges are checked here, once, so no kernel meets a value its C++ counterpart could not hold:
``int`` attributes are int32, ``int64_t`` ones and every int inside an ``IntArray`` or a
``Scalar`` int64; a float attribute or Scalar must be a float (an int too large for one is an
error, not an OverflowError inside a kernel); a ``float`` attribute must fit float32, as PHI
stores it (inf and nan are float32 values; 1e39 is an error, not a silent inf).

A complex value in a plain ``Scalar`` is accepted only when the op computes in a complex dtype
(its kernel's data type source: the ``dtype`` argument or the input tensor). For a real tensor,
PaddlePaddle 3.3.1's Python API rejects it (``paddle.pow(x, 1+1j)``, ``paddle.scale(x,
bias=1+2j)``, ``paddle.uniform(min=1j)``: TypeError) or, through ``paddle._C_ops``, silently
drops the imaginary part (``scale``, ``pad``, ``clip``); phiops never drops it silently.
"""

from __future__ import annotations

from operator import countOf
from typing import Any

import numpy as np

from phiops.runtime.common import DataType, IntArray, Place, Scalar, to_data_type, to_place
from phiops.runtime.common.data_type import data_type_named
from phiops.runtime.errors import InvalidArgumentError

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
    "to_float32",
    "to_str",
    "to_int_array",
    "to_int_list",
    "to_float_list",
    "to_float32_list",
    "to_bool_list",
    "to_str_list",
    "to_scalar",
    "to_scalar_int",
    "to_scalar_float",
    "to_scalar_float32",
    "to_scalar_bool",
    "to_scalar_list",
    "to_dtype",
    "to_place_attr",
]


INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
FLOAT32_OVERFLOW = float(2**128 - 2**103)
"""The smallest magnitude that rounds to inf in float32 (FLT_MAX plus half an ulp): a ``float``
attribute must be below it (or be inf or nan)."""


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


def to_float32(value: Any, op: str, arg: str) -> float:
    """``float``: a float that float32 holds (inf and nan included), as PHI stores it."""
    number = to_float(value, op, arg)
    if -FLOAT32_OVERFLOW < number < FLOAT32_OVERFLOW or number != number or abs(number) == np.inf:
        return number
    raise InvalidArgumentError(
        f"{op}(): argument '{arg}' is {_shown(value)}, out of range for float32 (largest "
        f"finite value {float(np.finfo(np.float32).max):.8g}; inf and nan are allowed)"
    )


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


# Tuples of plain ints already found within int64's range: a list attribute passed again (the
# same shape, perm or axis on every call) skips min() and max(). Bounded, cleared when full.
_IN_INT64_RANGE: set[tuple[int, ...]] = set()
_IN_INT64_RANGE_LIMIT = 4096


def _plain_int64s(value: Any) -> tuple[int, ...] | None:
    """``value`` as a tuple when it is an empty list or tuple, or one of plain ints in int64's range
    (the common case, checked with a few C-level calls); None sends it to the full conversion,
    which also says what is wrong."""
    kind = type(value)
    if kind is list:
        items = tuple(value)
    elif kind is tuple:
        items = value
    else:
        return None
    if not items:
        return ()
    # Exact ints first: 4.0 or True equal 4 and 1, so the set lookup alone would let them pass.
    if countOf(map(type, items), int) == len(items):
        if items in _IN_INT64_RANGE:
            return items
        if INT64_MIN <= min(items) and max(items) <= INT64_MAX:
            if len(_IN_INT64_RANGE) >= _IN_INT64_RANGE_LIMIT:
                _IN_INT64_RANGE.clear()
            _IN_INT64_RANGE.add(items)
            return items
    return None


def to_int_array(value: Any, op: str, arg: str) -> tuple[int, ...]:
    """IntArray: an int, a list/tuple of ints or 1-element int tensors, or an int tensor."""
    plain = _plain_int64s(value)
    if plain is not None:
        return plain
    if type(value) is not tuple or not all(type(item) is int for item in value):
        try:
            value = IntArray(value).data
        except InvalidArgumentError as error:
            if _holds_value(value):  # static mode: the built operation's operand
                from phiops.runtime.dispatch.value_attributes import int_array_from_value

                return int_array_from_value(value, op, arg)
            raise InvalidArgumentError(f"{op}(): argument '{arg}': {error}") from None
    for position, item in enumerate(value):
        _in_range(item, INT64_MIN, INT64_MAX, op, f"{arg}[{position}]", "int64")
    return value


def _holds_value(value: Any) -> bool:
    """Whether an IntArray or Scalar argument is (or, a list, holds) a Value of a static program
    (only on the slow paths: the generated API's eager fast path never gets here)."""
    from phiops.runtime.ir.core import Value

    if isinstance(value, Value):
        return True
    return isinstance(value, (list, tuple)) and any(isinstance(item, Value) for item in value)


def to_int_list(value: Any, op: str, arg: str) -> tuple[int, ...]:
    """int[] / int64_t[]: a list or tuple of ints (an int is a 1-element list)."""
    plain = _plain_int64s(value)
    if plain is not None:
        return plain
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return (to_int64(value, op, arg),)
    if isinstance(value, (list, tuple)):
        return tuple(to_int64(item, op, f"{arg}[{i}]") for i, item in enumerate(value))
    raise _fail(op, arg, "a list of ints", value)


def to_float_list(value: Any, op: str, arg: str) -> tuple[float, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(to_float(item, op, f"{arg}[{i}]") for i, item in enumerate(value))
    raise _fail(op, arg, "a list of floats", value)


def to_float32_list(value: Any, op: str, arg: str) -> tuple[float, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(to_float32(item, op, f"{arg}[{i}]") for i, item in enumerate(value))
    raise _fail(op, arg, "a list of floats", value)


def to_bool_list(value: Any, op: str, arg: str) -> tuple[bool, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(to_bool(item, op, f"{arg}[{i}]") for i, item in enumerate(value))
    raise _fail(op, arg, "a list of bools", value)


def to_str_list(value: Any, op: str, arg: str) -> tuple[str, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(to_str(item, op, f"{arg}[{i}]") for i, item in enumerate(value))
    raise _fail(op, arg, "a list of str", value)


def to_scalar(
    value: Any, op: str, arg: str, dtype_from: tuple[Any, ...] | None = None
) -> bool | int | float | complex:
    """Scalar: a Python/numpy number or a 1-element tensor, as a Python number; an int must
    fit int64, as PHI's Scalar holds it. With ``dtype_from`` (what the op's data type comes from,
    in order: tensors, lists of tensors, DataType-likes), a complex number is accepted only when
    the first of them that names a data type names a complex one. In static mode a 1-element
    Value is taken as it is (the built operation's operand)."""
    number = _scalar_number(value, op, arg)
    if type(number) is int:
        _in_range(number, INT64_MIN, INT64_MAX, op, arg, "an int64 Scalar")
    elif type(number) is complex and dtype_from is not None:
        dtype = _data_type_of(dtype_from)
        if not dtype.is_complex:
            computes = "a real dtype" if dtype == DataType.UNDEFINED else dtype.name.lower()
            raise InvalidArgumentError(
                f"{op}(): argument '{arg}' is the complex number {_shown(number)}, but the op "
                f"computes in {computes}; a complex value needs a complex tensor or dtype"
            )
    return number


_NUMBERS = (bool, int, float, complex)


def _scalar_number(value: Any, op: str, arg: str) -> Any:
    """The Python number of a Scalar argument; in static mode a 1-element Value, checked, as it
    is (the built operation takes it as an operand)."""
    try:
        return Scalar(value).value
    except InvalidArgumentError as error:
        if _holds_value(value) and not isinstance(value, (list, tuple)):
            from phiops.runtime.dispatch.value_attributes import scalar_from_value

            return scalar_from_value(value, op, arg)
        raise InvalidArgumentError(f"{op}(): argument '{arg}': {error}") from None


def _data_type_of(sources: tuple[Any, ...]) -> DataType:
    """The first data type named by ``sources``; UNDEFINED when none names one (a value of the
    wrong type is skipped here: its own normaliser or the dispatch reports it)."""
    for source in sources:
        if isinstance(source, (list, tuple)):
            source = source[0] if source else None
        if source is None:
            continue
        try:
            dtype = to_data_type(getattr(source, "dtype", source))
        except (InvalidArgumentError, TypeError, ValueError):
            continue
        if dtype != DataType.UNDEFINED:
            return dtype
    return DataType.UNDEFINED


def to_scalar_int(value: Any, op: str, arg: str) -> int:
    number = to_scalar(value, op, arg)
    if not isinstance(number, _NUMBERS):
        return number  # a Value (static mode)
    if isinstance(number, complex) or isinstance(number, float) and not number.is_integer():
        raise _fail(op, arg, "an integer Scalar", value)
    return _in_range(int(number), INT64_MIN, INT64_MAX, op, arg, "an int64 Scalar")


def to_scalar_float(value: Any, op: str, arg: str) -> float:
    """``Scalar(double)``: a real number; an int beyond int64 too, when a double holds it."""
    number = _scalar_number(value, op, arg)
    if not isinstance(number, _NUMBERS):
        return number  # a Value (static mode)
    if isinstance(number, complex):
        raise _fail(op, arg, "a real Scalar", value)
    return _as_float(number, op, arg)


def to_scalar_float32(value: Any, op: str, arg: str) -> float:
    """``Scalar(float)``: a real number that float32 holds (inf and nan included)."""
    number = to_scalar_float(value, op, arg)
    return to_float32(number, op, arg) if isinstance(number, _NUMBERS) else number


def to_scalar_bool(value: Any, op: str, arg: str) -> bool:
    number = to_scalar(value, op, arg)
    return bool(number) if isinstance(number, _NUMBERS) else number


def to_scalar_list(
    value: Any, op: str, arg: str, dtype_from: tuple[Any, ...] | None = None
) -> tuple[bool | int | float | complex, ...]:
    """Scalar[]: each item as ``to_scalar`` (``dtype_from`` included) takes it."""
    if isinstance(value, (list, tuple)):
        return tuple(to_scalar(item, op, f"{arg}[{i}]", dtype_from) for i, item in enumerate(value))
    raise _fail(op, arg, "a list of numbers", value)


def to_dtype(value: Any, op: str, arg: str) -> DataType:
    """DataType: a DataType, a numpy dtype or a name such as "float32"; None is UNDEFINED."""
    if value is None:
        return DataType.UNDEFINED
    if type(value) is str:
        found = data_type_named(value)  # "float32": one lookup, no message built
        if found is not None:
            return found
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
REAL_SCALAR_TYPES = (bool, int, float)
"""The types a plain ``Scalar`` passes without its normaliser (a complex one is checked)."""
