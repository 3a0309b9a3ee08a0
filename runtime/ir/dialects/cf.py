"""The cf dialect: yield, and the stack ops of control-flow backward (`%stack_0` and friends)."""

from __future__ import annotations

from phiops.runtime.ir.dialect import Dialect
from phiops.runtime.ir.dialects.table import op_def_from_row
from phiops.runtime.ir.types import SimpleDialectType, Type

__all__ = ["ControlFlowDialect", "STACK", "INLET", "OUTLET"]

STACK = SimpleDialectType("cf.stack")
INLET = SimpleDialectType("cf.inlet")
OUTLET = SimpleDialectType("cf.outlet")
_TYPES = {t.name: t for t in (STACK, INLET, OUTLET)}

CF_OPS = {
    "yield": ("...", "", ""),
    "stack_create": ("", "", "stack inlet outlet"),
    "tuple_push": ("...", "", ""),
    "tuple_pop": ("outlet", "", "..."),
    "has_elements": ("stack", "", "out"),
}


class ControlFlowDialect(Dialect):
    name = "cf"

    def __init__(self) -> None:
        super().__init__()
        for op, row in CF_OPS.items():
            self.add_op(op_def_from_row(f"cf.{op}", row))

    def parse_type(self, parser, text: str, pos: int) -> Type:
        found = _TYPES.get(text)
        if found is None:
            raise parser.error(f"dialect 'cf' has no type '{text}'", pos)
        return found

    def result_names(self, op):
        return ["stack", "inlet", "outlet"] if op.name == "cf.stack_create" else None
