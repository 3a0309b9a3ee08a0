"""Dialects: each contributes op definitions, types, and custom op printers/parsers.

A dialect registered with `register_dialect` is found by the parser and printer by its name
(the part of "pd_op.matmul" before the dot), so a new dialect plugs in without touching either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping

from phiops.runtime.errors import AlreadyExistsError

if TYPE_CHECKING:
    from phiops.runtime.ir.core import Operation
    from phiops.runtime.ir.parser import Parser
    from phiops.runtime.ir.printer import Printer
    from phiops.runtime.ir.types import Type

__all__ = [
    "OperandDef",
    "ResultDef",
    "OpDef",
    "Dialect",
    "register_dialect",
    "get_dialect",
    "registered_dialects",
    "COMMON_ATTRIBUTES",
]

# attributes PaddlePaddle's framework adds to ops of any dialect, with their kinds
COMMON_ATTRIBUTES = {
    "stop_gradient": "array<bool>",
    "persistable": "array<bool>",
    "struct_name": "str",
    "is_persistable": "array<bool>",
    "op_role": "int32",
    "chunk_id": "int32",
}


@dataclass(frozen=True)
class OperandDef:
    """``kind``: "tensor" (a single value), "vector" (a `vec[...]` or tensor array) or "any"."""

    name: str
    kind: str = "tensor"
    optional: bool = False


@dataclass(frozen=True)
class ResultDef:
    name: str
    kind: str = "tensor"
    optional: bool = False


@dataclass(frozen=True)
class OpDef:
    """What the parser and verifier know of an op: operands, attributes (name -> kind),
    results; ``variadic_*`` ops take any number."""

    name: str
    operands: tuple[OperandDef, ...] = ()
    attributes: Mapping[str, str] = field(default_factory=dict)
    results: tuple[ResultDef, ...] = ()
    variadic_operands: bool = False
    variadic_results: bool = False
    num_regions: int = 0

    def attribute_kind(self, name: str) -> str | None:
        kind = self.attributes.get(name)
        return kind if kind is not None else COMMON_ATTRIBUTES.get(name)


OpPrinter = Callable[["Printer", "Operation", int], None]
OpParser = Callable[["Parser", list, int], "Operation"]


class Dialect:
    """Base class: subclasses set ``name`` and fill ``ops``; override `lookup`, `parse_type`,
    `result_names` where they need to."""

    name: str = ""

    def __init__(self) -> None:
        self.ops: dict[str, OpDef] = {}
        self.op_printers: dict[str, OpPrinter] = {}
        self.op_parsers: dict[str, OpParser] = {}

    def add_op(self, op: OpDef) -> None:
        self.ops[op.name] = op

    def lookup(self, name: str) -> OpDef | None:
        """The definition of the op "dialect.name", or None."""
        return self.ops.get(name)

    def parse_type(self, parser: Parser, text: str, pos: int) -> Type:
        """Build the type spelled ``text`` (e.g. "cf.stack", "pd_op.tensor_array<f32>")."""
        raise parser.error(f"dialect '{self.name}' has no type '{text}'", pos)

    def parse_attribute(self, parser: Parser, kind: str, pos: int) -> object:
        """The value of an attribute of this dialect's ``kind``, read from ``parser``'s tokens;
        `Attribute` prints it with ``str()``."""
        raise parser.error(f"dialect '{self.name}' has no attribute kind '{kind}'", pos)

    def result_names(self, op: Operation) -> list[str] | None:
        """Names without the counter for `op`'s results (cf.stack_create: stack, inlet, outlet),
        or None to number them `%N`."""
        return None


_DIALECTS: dict[str, Dialect] = {}


def register_dialect(dialect: Dialect, *, replace: bool = False) -> Dialect:
    if dialect.name in _DIALECTS and not replace:
        raise AlreadyExistsError(f"dialect '{dialect.name}' is already registered")
    _DIALECTS[dialect.name] = dialect
    return dialect


def unregister_dialect(name: str) -> None:
    _DIALECTS.pop(name, None)


def get_dialect(name: str) -> Dialect | None:
    return _DIALECTS.get(name)


def registered_dialects() -> list[str]:
    return sorted(_DIALECTS)
