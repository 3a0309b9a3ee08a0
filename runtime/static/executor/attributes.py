"""Attribute decoding: an IR attribute's plain Python value, the normaliser the generated API
uses for each attribute type, an op's defaults, and attributes computed while a program runs."""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.common import DataType, Place
from phiops.runtime.dispatch import attributes as _attr
from phiops.runtime.dispatch.op_def import OpDef
from phiops.runtime.dispatch.op_info import NO_DEFAULT
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.static.executor.arrays import to_numpy
from phiops.runtime.static.executor.metas import dtype_name

__all__ = [
    "NORMALISERS",
    "TENSOR_ATTRIBUTE_TYPES",
    "Computed",
    "attribute_value",
    "default",
    "scalar_of",
]

# attribute type in an OpInfo -> the normaliser the generated API also uses for it
NORMALISERS: dict[str, Callable[[Any, str, str], Any]] = {
    "bool": _attr.to_bool,
    "int": _attr.to_int32,
    "int64_t": _attr.to_int64,
    "float": _attr.to_float,
    "double": _attr.to_float,
    "str": _attr.to_str,
    "IntArray": _attr.to_int_array,
    "DataType": _attr.to_dtype,
    "Place": _attr.to_place_attr,
    "Scalar": _attr.to_scalar,
    "Scalar(int)": _attr.to_scalar_int,
    "Scalar(int64_t)": _attr.to_scalar_int,
    "Scalar(float)": _attr.to_scalar_float,
    "Scalar(double)": _attr.to_scalar_float,
    "Scalar(bool)": _attr.to_scalar_bool,
    "int[]": _attr.to_int_list,
    "int64_t[]": _attr.to_int_list,
    "float[]": _attr.to_float_list,
    "double[]": _attr.to_float_list,
    "bool[]": _attr.to_bool_list,
    "str[]": _attr.to_str_list,
    "Scalar[]": _attr.to_scalar_list,
}

# attribute types an op may take from a tensor computed while the program runs
TENSOR_ATTRIBUTE_TYPES = frozenset(
    (
        "IntArray",
        "Scalar",
        "Scalar(int)",
        "Scalar(int64_t)",
        "Scalar(float)",
        "Scalar(double)",
        "Scalar(bool)",
    )
)


def default(op_def: OpDef, name: str, where: str) -> Any:
    """The default of attribute ``name`` of ``op_def``, as its spec gives it (the registry's
    ``AttrInfo.default``)."""
    for attr in op_def.attrs:
        if attr.name == name and attr.default is not NO_DEFAULT:
            return attr.default
    raise InvalidArgumentError(f"{where}: attribute '{name}' is missing and has no default")


def attribute_value(attribute: Attribute, attr_type: str, place: Place, where: str) -> Any:
    """The plain Python value of an IR attribute."""
    kind, value = attribute.kind, attribute.value
    if kind == "array":
        return [attribute_value(item, attr_type, place, where) for item in value]
    if kind == "intarray":
        return list(value)
    if kind == "dtype":
        return DataType.UNDEFINED if value == "Undefined" else dtype_name(value, where)
    if kind == "place":
        return None if value.startswith("undefined") else value
    if kind == "null":
        return None
    return value


def scalar_of(constant: Any) -> Any:
    """The one number of a constant used as a Scalar (a 1-element list gives its element)."""
    if isinstance(constant, list):
        if len(constant) != 1:
            raise InvalidArgumentError(
                f"a list of tensors used as an IntArray needs 1-element tensors, got {constant}"
            )
        return constant[0]
    return constant


class Computed:
    """An attribute whose value is the array in ``slot`` (a shape from `pd_op.shape` arithmetic,
    a Scalar from a computed tensor): read, converted and normalised each run."""

    __slots__ = ("slot", "type", "normalise", "op", "name")

    def __init__(
        self, slot: int, attr_type: str, normalise: Callable[..., Any], op: str, name: str
    ) -> None:
        self.slot = slot
        self.type = attr_type
        self.normalise = normalise
        self.op = op
        self.name = name

    def value(self, slots: list) -> Any:
        held = slots[self.slot]
        if isinstance(held, list):  # a builtin.combine: each tensor gives all its elements
            items = [x for item in held for x in to_numpy(item).reshape(-1).tolist()]
        else:
            items = to_numpy(held).reshape(-1).tolist()
        raw = items if self.type == "IntArray" else scalar_of(items)
        return self.normalise(raw, self.op, self.name)
