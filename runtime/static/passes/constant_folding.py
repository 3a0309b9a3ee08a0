"""Constant folding: the ops whose operands are all parameters or constants (results of such ops)
run once, when the plan is compiled; their results become constants of the plan, placed in
their slots before each run like parameters. The scope's parameters are not changed."""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.static.executor.builder import PlanBuilder
from phiops.runtime.static.executor.metas import has_unknown_dims
from phiops.runtime.static.executor.steps.builtin import BUILTIN_STEPS
from phiops.runtime.static.executor.steps.step import SCOPE_SLOT, run_checked
from phiops.runtime.static.passes.dead_code import has_effects

__all__ = ["foldable_ops", "fold_constants"]


def foldable_ops(block: Block, skipped: frozenset[int], parameters: set[Value]) -> list[int]:
    """The indices of the top-level kernel ops (in order) whose operands are all parameters or
    results of foldable ops, that have no effects and no regions."""
    constant = set(parameters)
    found = []
    for index, op in enumerate(block.ops):
        if index in skipped or not _is_plain_kernel_op(op):
            continue
        if all(operand is None or operand in constant for operand in op.operands):
            found.append(index)
            constant.update(op.results)
    return found


def _is_plain_kernel_op(op: Operation) -> bool:
    return op.name.startswith("pd_op.") and op.name not in BUILTIN_STEPS and not has_effects(op)


def fold_constants(
    builder: PlanBuilder,
    block: Block,
    indices: list[int],
    known: dict[Value, Any],
    compile_op: Callable[[PlanBuilder, int, Operation], None],
) -> dict[Value, Any]:
    """Compile the ops at ``indices`` into ``builder`` and run each at once on the arrays of
    ``known`` (parameter value -> array) and of the constants folded before it; return the
    arrays of their results (value -> array; a list for a list result). Their steps are taken
    out of the plan; their results keep their slots and metas in ``builder``."""
    arrays: dict[int, Any] = {builder.slot_of[v]: a for v, a in known.items()}
    folded: dict[Value, Any] = {}
    for index in indices:
        op = block.ops[index]
        first = len(builder.ops)
        compile_op(builder, index, op)
        steps = builder.ops[first:]
        del builder.ops[first:]
        slots: list[Any] = [None] * builder.num_slots
        for slot, array in arrays.items():
            slots[slot] = array
        slots[SCOPE_SLOT] = None  # folded ops write nothing to the scope
        run_checked(steps, slots)
        for result in op.results:
            slot = builder.slot_of.get(result)
            meta = builder.meta_of.get(result)
            if slot is None or meta is None:
                continue
            array = arrays[slot] = folded[result] = slots[slot]
            if not isinstance(array, list) and has_unknown_dims(meta):
                # planned when it ran: its dims are known now, so its readers plan ahead
                builder.meta_of[result] = builder.meta(array, meta.dtype)
    return folded
