"""Typed attributes. The printed text drops the type tags; each `Attribute` keeps its kind.

Kinds: bool, int32, int64, float, double, str, array, intarray, dtype, place, layout, null.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["Attribute", "KINDS", "format_float", "DTYPE_NAMES"]

KINDS = (
    "bool",
    "int32",
    "int64",
    "float",
    "double",
    "str",
    "array",
    "intarray",
    "dtype",
    "place",
    "layout",
    "null",
)
DTYPE_NAMES = frozenset(
    "float32 float64 float16 bfloat16 int8 uint8 int16 int32 int64 bool complex64 complex128 "
    "float8_e4m3fn float8_e5m2 Undefined pstring".split()
)


def format_float(value: float) -> str:
    """C++ `ostream << value` with the default precision: `%g`, 6 significant digits."""
    if value != value:
        return "nan"
    return "%g" % value


class Attribute:
    """One typed attribute value. ``array`` holds a tuple of Attributes, ``intarray`` a tuple of
    ints, ``place`` its text inside `Place(...)` (`cpu`, `undefined:0`, `gpu:0`)."""

    __slots__ = ("kind", "value")

    def __init__(self, kind: str, value: Any) -> None:
        self.kind = kind
        self.value = value

    def __str__(self) -> str:
        kind, value = self.kind, self.value
        if kind == "bool":
            return "true" if value else "false"
        if kind in ("int32", "int64"):
            return str(value)
        if kind in ("float", "double"):
            return format_float(value)
        if kind == "str":
            return '"' + value.replace('"', '\\"') + '"'
        if kind == "array":
            return "[" + ",".join(str(v) for v in value) + "]"
        if kind == "intarray":
            return "[" + ",".join(str(v) for v in value) + "]"
        if kind == "place":
            return f"Place({value})"
        if kind == "null":
            return "<#AttrNull>"
        return str(value)  # dtype, layout

    def __repr__(self) -> str:
        return f"Attribute({self.kind}, {self})"

    def _key(self) -> tuple:
        value = self.value
        if self.kind in ("float", "double") and math.isnan(value):
            value = "nan"
        elif self.kind == "array":
            value = tuple(v._key() for v in value)
        return (self.kind, value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Attribute) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())
