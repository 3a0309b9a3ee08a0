"""The builtin dialect: parameters, combine/split of vectors, shadow outputs."""

from __future__ import annotations

from phiops.runtime.ir.dialect import Dialect
from phiops.runtime.ir.dialects.table import op_def_from_row

__all__ = ["BuiltinDialect"]

_FLAGS = "is_distributed:array<bool> is_parameter:array<bool> need_clip:array<bool>"
BUILTIN_OPS = {
    "parameter": ("", f"parameter_name:str trainable:array<bool> {_FLAGS}", "out"),
    "set_parameter": ("parameter", "parameter_name:str", ""),
    "shadow_output": ("x", "output_name:str", ""),
    "combine": ("...", "", "out"),
    "split": ("x[]", "", "..."),
    "slice": ("x[]", "index:int32", "out"),
    "constant": ("", "", "out"),
    "module": ("", "", ""),
}


class BuiltinDialect(Dialect):
    name = "builtin"

    def __init__(self) -> None:
        super().__init__()
        for op, row in BUILTIN_OPS.items():
            self.add_op(op_def_from_row(f"builtin.{op}", row))
