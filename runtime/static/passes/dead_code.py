"""Dead-code elimination: the top-level ops whose results reach no fetched value and which have
no effect beyond their results are not compiled."""

from __future__ import annotations

from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.static.executor.liveness import operands_within

__all__ = ["dead_ops", "has_effects"]


def has_effects(op: Operation) -> bool:
    """Whether running ``op`` does more than compute its results, so that it must run even when
    nothing reads them: control flow and ops of other dialects than pd_op and builtin's pure
    list ops, scope writes (``set_parameter``, ``shadow_output``), the program's inputs, in-place
    ops (they change their operand), random ops (they draw from the generator: a ``seed``
    attribute) and printing."""
    name = op.name
    if op.regions:
        return True
    dialect, _, short = name.partition(".")
    if dialect == "builtin":
        return short not in ("parameter", "combine", "split", "slice")
    if dialect != "pd_op" or short in ("data", "feed") or short == "print":
        return True
    op_def = OP_DEFS.get(short)
    if op_def is None:
        # an in-place variant without an OpDef of its own writes its operand; an op phiops
        # does not know is kept (compiling it gives its error)
        return True
    if short.endswith("_") and op_def.info.inplace:
        return True
    return "seed" in op_def.info.attr_names or "seed" in op.attributes


def dead_ops(block: Block, fetched: list[Value]) -> frozenset[int]:
    """The indices of the top-level ops of ``block`` that need not run to compute ``fetched``."""
    needed: set[Value] = set(fetched)
    dead: set[int] = set()
    for index in range(len(block.ops) - 1, -1, -1):
        op = block.ops[index]
        if has_effects(op) or any(result in needed for result in op.results):
            needed.update(operands_within(op))
        else:
            dead.add(index)
    return frozenset(dead)
