"""Checks of an operation against its op definition, shared by the parser and `verify`.

`verify` is what every path that runs or loads a program calls first (the `.json` and legacy
loaders, the text parser, the Executor's planning): a program it refuses never reaches a kernel,
where an extra operand would be silently dropped or a missing value surface as a `KeyError`.
"""

from __future__ import annotations

from typing import Callable, Collection, Sequence

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.core import Block, BlockArgument, Operation, OpResult, Program, Value
from phiops.runtime.ir.dialect import OpDef, get_dialect
from phiops.runtime.ir.types import NullType, TensorArrayType, Type, VectorType

__all__ = [
    "ProgramVerifyError",
    "operand_problems",
    "result_problems",
    "verify",
    "verify_block",
]


class ProgramVerifyError(InvalidArgumentError):
    """A program `verify` refuses. ``op`` is the operation at fault and ``operand`` the index
    of its operand at fault (None when the op as a whole is), so that a caller holding the
    program's source (the text parser) can point at the place."""

    def __init__(self, message: str, op: Operation, operand: int | None = None) -> None:
        super().__init__(message)
        self.op = op
        self.operand = operand


def operand_problems(
    opdef: OpDef, operands: Sequence[Value | None], vector_too: Collection[str] = ()
) -> list[tuple[int, str]]:
    """(operand index, message) for each way ``operands`` break ``opdef``; empty when fine.
    The operands named in ``vector_too`` may be a vec[...] where the definition says tensor."""
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
        if spec.name in vector_too and isinstance(value.type, VectorType):
            continue
        problem = _kind_problem(spec.kind, value.type)
        if problem:
            problems.append((index, f"operand '{spec.name}' of '{name}' {problem}"))
    return problems


def result_problems(opdef: OpDef, types: Sequence[Type]) -> list[tuple[int, str]]:
    """(result index, message) for each way results of ``types`` break ``opdef``."""
    name = opdef.name
    if opdef.variadic_results:
        return []
    if len(types) != len(opdef.results):
        names = ", ".join(r.name for r in opdef.results)
        return [
            (
                max(len(types) - 1, 0),
                f"'{name}' has {len(opdef.results)} result(s) ({names}), got {len(types)}",
            )
        ]
    problems = []
    for index, (type_, spec) in enumerate(zip(types, opdef.results)):
        if isinstance(type_, NullType):
            continue  # an optional output left unset (PaddlePaddle prints it <<NULL TYPE>>)
        # a "tensor" result is not checked: op tables do not mark every vector result (the
        # row of builtin.combine says "out"), and some programs give data ops vector types
        if spec.kind == "vector":
            problem = _kind_problem(spec.kind, type_)
            if problem:
                problems.append((index, f"result '{spec.name}' of '{name}' {problem}"))
    return problems


def _kind_problem(kind: str, type_: Type) -> str:
    if kind == "tensor" and isinstance(type_, VectorType):
        return f"must be a tensor, got {type_}"
    if kind == "vector" and not isinstance(type_, (VectorType, TensorArrayType)):
        return f"must be a vec[...] of tensors, got {type_}"
    return ""


# op name -> the names of its operands that may be a vec[...] although its definition says
# tensor: the IntArray operands, which PaddlePaddle's ops take as a tensor or as a vec of
# scalar tensors (`builtin.combine`); the ir layer's op tables do not say which those are
VectorOperands = Callable[[str], Collection[str]]


def verify(
    program: Program,
    *,
    allow_unregistered: bool = False,
    vector_operands: VectorOperands | None = None,
) -> None:
    """Check every op of ``program``: a registered op (unless ``allow_unregistered``), operand
    and result counts and kinds against its definition, each operand defined before its use in
    its own block or an enclosing one (an op's regions cannot read its own results, a value
    defined in a region is not visible outside it). `ProgramVerifyError` names the op by its
    position (``op 3 'pd_op.if', region 0, op 1 'pd_op.scale'``), its id when it has one, and
    what is wrong."""
    verify_block(
        program.block, allow_unregistered=allow_unregistered, vector_operands=vector_operands
    )


def verify_block(
    block: Block,
    *,
    allow_unregistered: bool = False,
    vector_operands: VectorOperands | None = None,
) -> None:
    """`verify` for the ops of ``block`` (a program's top-level block, with what it encloses)."""
    _Verifier(allow_unregistered, vector_operands).block(block, "")


class _Verifier:
    def __init__(self, allow_unregistered: bool, vector_operands: VectorOperands | None) -> None:
        self.allow_unregistered = allow_unregistered
        self.vector_operands = vector_operands
        self.visible: set[Value] = set()
        # ops whose regions are being verified (their results are not defined yet) and the
        # blocks that enclose the op being verified, innermost last
        self.enclosing: list[Operation] = []
        self.blocks: list[Block] = []

    def block(self, block: Block, prefix: str) -> None:
        added = [*block.args, *block.kwargs.values()]
        self.visible.update(added)
        self.blocks.append(block)
        for position, op in enumerate(block.ops):
            where = f"{prefix}op {position} '{op.name}'"
            if op.id is not None:
                where += f" [id:{op.id}]"
            self.op(op, where)
            added.extend(op.results)
            self.visible.update(op.results)
        self.visible.difference_update(added)
        self.blocks.pop()

    def op(self, op: Operation, where: str) -> None:
        for index, value in enumerate(op.operands):
            if value is not None and value not in self.visible:
                raise ProgramVerifyError(
                    f"{where}: operand {index} {self.unseen(value)}", op, index
                )
        dialect = get_dialect(op.dialect)
        opdef = dialect.lookup(op.name) if dialect is not None else None
        if opdef is None and not self.allow_unregistered:
            raise ProgramVerifyError(f"{where}: no registered dialect defines this op", op)
        if opdef is not None:
            vector_too = self.vector_operands(op.name) if self.vector_operands else ()
            for index, message in operand_problems(opdef, op.operands, vector_too):
                raise ProgramVerifyError(f"{where}: {message}", op, index)
            for _, message in result_problems(opdef, [r.type for r in op.results]):
                raise ProgramVerifyError(f"{where}: {message}", op)
        if op.regions:
            self.enclosing.append(op)
            for r, region in enumerate(op.regions):
                for b, inner in enumerate(region.blocks):
                    inside = f"region {r}" if len(region.blocks) == 1 else f"region {r} block {b}"
                    self.block(inner, f"{where}, {inside}, ")
            self.enclosing.pop()

    def unseen(self, value: Value) -> str:
        """Why ``value``, not visible at its use, is not: the end of the message."""
        if isinstance(value, OpResult) and value.owner in self.enclosing:
            return (
                f"reads result {value.index} of its enclosing '{value.owner.name}', which "
                "that op's own regions cannot use (it is defined when they have run)"
            )
        block = value.owner if isinstance(value, BlockArgument) else value.owner.parent
        if block is not None and block in self.blocks:
            return "is used before its definition"
        return (
            "is not visible here: it is defined in another block (inside a region) or in no block"
        )
