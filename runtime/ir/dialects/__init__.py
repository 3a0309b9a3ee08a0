"""The registered dialects: builtin, pd_op (its op table comes from generated/) and cf."""

from __future__ import annotations

from runtime.ir.dialects.builtin import BuiltinDialect
from runtime.ir.dialects.cf import ControlFlowDialect
from runtime.ir.dialects.pd_op import PaddleDialect, register_op_table
from runtime.ir.dialect import get_dialect, register_dialect

__all__ = ["BuiltinDialect", "ControlFlowDialect", "PaddleDialect", "register_op_table"]

for _dialect in (BuiltinDialect, PaddleDialect, ControlFlowDialect):
    if get_dialect(_dialect.name) is None:
        register_dialect(_dialect())
