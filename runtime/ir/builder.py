"""The builder that static-graph code uses to append operations to a block."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Mapping, Sequence

from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.ir.dialect import get_dialect
from phiops.runtime.ir.types import Type
from phiops.runtime.ir.verify import operand_problems

__all__ = ["Builder", "to_attribute", "scoped_attributes", "scoped_attributes_of"]

_INT32 = (-(2**31), 2**31 - 1)

# (block, attributes) of the ``scoped_attributes`` blocks being run, innermost last
_SCOPED: list[tuple[Block, dict[str, Any]]] = []


@contextlib.contextmanager
def scoped_attributes(block: Block, **attributes: Any) -> Iterator[None]:
    """Every operation created in ``block`` inside the ``with`` block gets ``attributes`` too (its
    own attributes of the same name win), not those of nested blocks: how the ops of a Layer
    called in static mode get PaddlePaddle's ``struct_name`` (a ``pd_op.if`` does, the ops of
    its branches do not)."""
    _SCOPED.append((block, attributes))
    try:
        yield
    finally:
        _SCOPED.pop()


def scoped_attributes_of(block: Block) -> dict[str, Any]:
    """The attributes ``scoped_attributes`` gives an operation created in ``block`` now."""
    if _SCOPED and _SCOPED[-1][0] is block:
        return dict(_SCOPED[-1][1])
    return {}


def to_attribute(value: Any, kind: str | None = None) -> Attribute:
    """A Python value as an Attribute of ``kind`` (inferred from the value when None)."""
    if isinstance(value, Attribute):
        return value
    if kind is None:
        if isinstance(value, bool):
            kind = "bool"
        elif isinstance(value, int):
            kind = "int32" if _INT32[0] <= value <= _INT32[1] else "int64"
        elif isinstance(value, float):
            kind = "double"
        elif isinstance(value, str):
            kind = "str"
        elif isinstance(value, (list, tuple)):
            return Attribute("array", tuple(to_attribute(v) for v in value))
        else:
            raise InvalidArgumentError(f"cannot make an attribute of {type(value).__name__}")
    if kind.startswith("array<"):
        return Attribute("array", tuple(to_attribute(v, kind[6:-1]) for v in value))
    if kind == "scalar":  # a Scalar attribute prints as the number it holds, as the parser reads it
        return to_attribute(value.item() if hasattr(value, "item") else value)
    if kind == "intarray":
        return Attribute("intarray", tuple(int(v) for v in value))
    if kind in ("float", "double"):
        return Attribute(kind, float(value))
    if kind in ("int32", "int64"):
        return Attribute(kind, int(value))
    if kind == "bool":
        return Attribute(kind, bool(value))
    return Attribute(kind, value)


class Builder:
    """Appends (or inserts at ``index``) operations into ``block``, checked against their op
    definitions; attribute values may be plain Python values, typed by the definition."""

    def __init__(self, block: Block, index: int | None = None) -> None:
        self.block = block
        self.index = index

    def set_insertion_point(self, block: Block, index: int | None = None) -> None:
        self.block, self.index = block, index

    def create(
        self,
        name: str,
        operands: Sequence[Value | None] = (),
        result_types: Sequence[Type] = (),
        attributes: Mapping[str, Any] | None = None,
        num_regions: int = 0,
    ) -> Operation:
        dialect = get_dialect(name.partition(".")[0])
        opdef = dialect.lookup(name) if dialect is not None else None
        if opdef is None:
            raise NotFoundError(f"op '{name}': no registered dialect defines it")
        problems = operand_problems(opdef, operands)
        if problems:
            raise InvalidArgumentError(problems[0][1])
        if not opdef.variadic_results and len(result_types) != len(opdef.results):
            raise InvalidArgumentError(
                f"'{name}' has {len(opdef.results)} result(s), got {len(result_types)} type(s)"
            )
        if _SCOPED and _SCOPED[-1][0] is self.block:
            attributes = {**_SCOPED[-1][1], **(attributes or {})}
        typed = {
            key: to_attribute(value, opdef.attribute_kind(key))
            for key, value in (attributes or {}).items()
        }
        op = Operation(name, operands, result_types, typed, num_regions)
        if self.index is None:
            self.block.append(op)
        else:
            self.block.insert(self.index, op)
            self.index += 1
        return op
