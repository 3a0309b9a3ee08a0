"""Attributes given as Values of a program being built (static mode).

An IntArray or Scalar attribute that PaddlePaddle's ``pd_op`` takes as an operand (``reshape``'s
shape, ``scale``'s scale) may be given, while building, as a Value (an IntArray also as a list
mixing ints and 1-element Values). runtime/dispatch/attributes.py hands such an argument here: it
is checked (a dense int Value of known length, built in static mode) and becomes an
``IntArrayFromValue`` (its entries as known while building, -1 where the data decides) or stays
the Value (a Scalar), which runtime/static/build.py then makes the operation's operand.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.common import DataType, IntArrayFromValue
from phiops.runtime.dispatch.build_mode import in_static_mode
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.core import Value
from phiops.runtime.ir.types import ELEMENT_TYPES, DenseTensorType, Type

__all__ = ["dtype_of_type", "int_array_from_value", "scalar_from_value"]


def dtype_of_type(type: Type) -> DataType:
    """The DataType of a dense tensor type's elements."""
    return DataType[ELEMENT_TYPES[type.element].upper()]


def _static_value(value: Value, op: str, arg: str) -> tuple[int, ...]:
    """The dims of a Value given for an attribute, checked to be a dense tensor and built in
    static mode."""
    if not in_static_mode():
        raise InvalidArgumentError(
            f"{op}(): argument '{arg}' is a Value of a static program, but static mode is off "
            "(phi.enable_static() builds programs)"
        )
    if not isinstance(value.type, DenseTensorType):
        raise InvalidArgumentError(
            f"{op}(): argument '{arg}' expects a dense tensor Value, got type {value.type}"
        )
    return value.type.dims


def _one_element(dims: tuple[int, ...]) -> bool:
    """Whether ``dims`` may hold exactly one element (an unknown extent may be 1)."""
    return all(d in (1, -1) for d in dims)


def _known_int(value: Value) -> int:
    """A 1-element int Value's number when a `pd_op.full` makes it (PaddlePaddle reads it so
    while building), else -1."""
    op = value.define_op
    if op is not None and op.name == "pd_op.full":
        number = op.attributes["value"].value
        if float(number).is_integer():
            return int(number)
    return -1


def int_array_from_value(value: Any, op: str, arg: str) -> IntArrayFromValue:
    """An IntArray argument given as an int Value (0-D or 1-D) or a list mixing ints and
    1-element int Values: its entries as known while building (-1 where the data decides)."""
    if isinstance(value, Value):
        dims = _static_value(value, op, arg)
        dtype = dtype_of_type(value.type)
        if dtype not in (DataType.INT32, DataType.INT64) or len(dims) > 1:
            raise InvalidArgumentError(
                f"{op}(): argument '{arg}' expects a 0-D or 1-D int32/int64 Value, got "
                f"{value.type}"
            )
        if -1 in dims:
            raise UnimplementedError(
                f"{op}(): argument '{arg}' is a Value of unknown length ({value.type}); building "
                "with it is not implemented"
            )
        count = dims[0] if dims else 1
        return IntArrayFromValue((_known_int(value),) if count == 1 else (-1,) * count, value)
    from phiops.runtime.dispatch.attributes import to_int64

    entries = []
    for position, item in enumerate(value):
        where = f"{arg}[{position}]"
        if isinstance(item, Value):
            dims = _static_value(item, op, where)
            dtype = dtype_of_type(item.type)
            if dtype not in (DataType.INT32, DataType.INT64) or not _one_element(dims):
                raise InvalidArgumentError(
                    f"{op}(): argument '{where}' expects an int or a 1-element int32/int64 "
                    f"Value, got a Value of type {item.type}"
                )
            entries.append(_known_int(item))
        else:
            entries.append(to_int64(item, op, where))
    return IntArrayFromValue(tuple(entries), tuple(value))


def scalar_from_value(value: Value, op: str, arg: str) -> Value:
    """A Scalar argument given as a Value: it must hold one element."""
    dims = _static_value(value, op, arg)
    if not _one_element(dims):
        raise InvalidArgumentError(
            f"{op}(): argument '{arg}' expects a number or a 1-element Value, got a Value of type "
            f"{value.type}"
        )
    return value
