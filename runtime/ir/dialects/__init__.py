"""The registered dialects: builtin, pd_op (its op table comes from generated/) and cf."""

from __future__ import annotations

from phiops.runtime.ir.dialects.builtin import BuiltinDialect
from phiops.runtime.ir.dialects.cf import ControlFlowDialect
from phiops.runtime.ir.dialects.pd_op import PaddleDialect, register_op_table
from phiops.runtime.ir.dialect import get_dialect, register_dialect

__all__ = ["BuiltinDialect", "ControlFlowDialect", "PaddleDialect", "register_op_table"]

for _dialect in (BuiltinDialect, PaddleDialect, ControlFlowDialect):
    if get_dialect(_dialect.name) is None:
        register_dialect(_dialect())
