"""`verify_program`: the IR verifier with what only the op definitions above the ir layer know,
for every program phiops loads or runs."""

from __future__ import annotations

from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.ir.core import Block, Program
from phiops.runtime.ir.verify import verify_block

__all__ = ["verify_program", "int_array_operands"]


_NONE: frozenset[str] = frozenset()
_FOUND: dict[str, frozenset[str]] = {}


def int_array_operands(op_name: str) -> frozenset[str]:
    """The IntArray arguments of pd_op ``op_name`` ("pd_op.reshape" -> {"shape"}), which a
    program may give as a vec of scalar tensors (as PaddlePaddle's translated programs do)."""
    found = _FOUND.get(op_name)
    if found is not None:
        return found
    dialect, _, name = op_name.partition(".")
    op_def = None
    if dialect == "pd_op":
        op_def = OP_DEFS.get(name) or OP_DEFS.get(name.rstrip("_"))
    if op_def is None:
        return _NONE  # not remembered: the op definitions may not be registered yet
    found = _FOUND[op_name] = frozenset(a.name for a in op_def.attrs if a.type == "IntArray")
    return found


def verify_program(program: Program | Block) -> None:
    """Verify ``program`` (or a program's top-level block) with `verify`'s checks; an IntArray
    operand may be a vec[...]. `ProgramVerifyError` names the op and what is wrong."""
    block = program.block if isinstance(program, Program) else program
    verify_block(block, vector_operands=int_array_operands)
