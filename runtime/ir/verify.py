"""Checks of an operation against its op definition, shared by the parser and `verify`."""

from __future__ import annotations

from typing import Sequence

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.core import Operation, Program, Value
from phiops.runtime.ir.dialect import OpDef, get_dialect
from phiops.runtime.ir.types import NullType, TensorArrayType, VectorType

__all__ = ["operand_problems", "verify"]


def operand_problems(opdef: OpDef, operands: Sequence[Value | None]) -> list[tuple[int, str]]:
    """(operand index, message) for each way ``operands`` break ``opdef``; empty when fine."""
    name = opdef.name
    if opdef.variadic_operands:
        return []
    if len(operands) != len(opdef.operands):
        names = ", ".join(o.name for o in opdef.operands)
        return [
            (
                max(len(operands) - 1, 0),
                f"'{name}' takes {len(opdef.operands)} operand(s) ({names}), got {len(operands)}",
            )
        ]
    problems = []
    for index, (value, spec) in enumerate(zip(operands, opdef.operands)):
        if value is None or isinstance(value.type, NullType):
            if not spec.optional:
                problems.append(
                    (
                        index,
                        f"operand '{spec.name}' of '{name}' is not optional but is <<NULL VALUE>>",
                    )
                )
            continue
        is_vector = isinstance(value.type, (VectorType, TensorArrayType))
        if spec.kind == "tensor" and isinstance(value.type, VectorType):
            problems.append(
                (index, f"operand '{spec.name}' of '{name}' must be a tensor, got {value.type}")
            )
        elif spec.kind == "vector" and not is_vector:
            problems.append(
                (
                    index,
                    f"operand '{spec.name}' of '{name}' must be a vec[...] of tensors, "
                    f"got {value.type}",
                )
            )
    return problems


def verify(program: Program) -> None:
    """Check every op of a built program: known op, operand count and kinds, result count, each
    operand defined before use in an enclosing block; InvalidArgumentError naming the op."""
    _verify_block(program.block, set())


def _verify_block(block, visible: set) -> None:
    visible = set(visible)
    visible.update(block.args)
    visible.update(block.kwargs.values())
    for position, op in enumerate(block.ops):
        where = f"op {position} '{op.name}'"
        dialect = get_dialect(op.dialect)
        opdef = dialect.lookup(op.name) if dialect is not None else None
        if opdef is None:
            raise InvalidArgumentError(f"{where}: no registered dialect defines this op")
        for index, value in enumerate(op.operands):
            if value is not None and value not in visible:
                raise InvalidArgumentError(
                    f"{where}: operand {index} is used before its definition"
                )
        problems = operand_problems(opdef, op.operands)
        if problems:
            raise InvalidArgumentError(f"{where}: {problems[0][1]}")
        if not opdef.variadic_results and len(op.results) != len(opdef.results):
            raise InvalidArgumentError(
                f"{where}: has {len(op.results)} result(s), its definition {len(opdef.results)}"
            )
        for region in op.regions:
            for inner in region.blocks:
                _verify_block(inner, visible)
        visible.update(op.results)
