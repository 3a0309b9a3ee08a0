"""Legacy programs on phiops' plan/execute path: a ProgramDesc translated to PIR
(translate.py, PaddlePaddle's own translation) has a few ops phiops runs as others; this module
rewrites them, so that the same Executor as for PIR programs runs it. Reading the files of a
legacy inference model is `phiops.runtime.formats.inference_model`'s.
"""

from __future__ import annotations

from typing import Callable

from phiops.runtime.errors import UnimplementedError
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.core import Block, Operation, Program, Value
from phiops.runtime.ir.types import DenseTensorType

__all__ = ["lower_for_execution", "lowerings"]


def lower_for_execution(program: Program) -> Program:
    """Rewrite, in place, the ops of a translated program (its nested blocks too) that phiops
    runs as other ops:

    - `full_with_tensor(value, shape)` (no phiops kernel) is `expand(value, shape)`, with a
      `cast` when the value's dtype is not the op's;
    - `increment(x)` / `increment_(x)` {value} is `scale(x, full 1.0)` {bias: value};
    - `assign_out_(x, output)` is `assign(x)`: the translation reads its result, never
      ``output``, after it (PaddlePaddle writes ``output`` in place);
    - `select_input(mask, x0, x1)` is a `pd_op.if` on ``mask`` cast to bool yielding ``x1``,
      else ``x0``;
    - a `pd_op.while`'s loop values (input, block argument, yielded value, result) keep their
      rank but not their extents: a legacy loop variable's VarDesc holds the extents the body
      last inferred for it (``while_loop`` writes them back), not those it starts with, so the
      loop is planned for the extents it meets;
    - an `embedding` translated from ``lookup_table`` (v1) and the `squeeze` after it take the
      types they compute (PaddlePaddle's translation gives them the legacy ``Out``'s and one
      rank fewer).
    """
    lowerings(program)
    return program


def lowerings(program: Program) -> dict[Operation, list[Operation]]:
    """`lower_for_execution`, returning each replaced op with the ops that replaced it."""
    replaced: dict[Operation, list[Operation]] = {}
    _lower_block(program.block, replaced)
    return replaced


def _flags(op: Operation) -> dict[str, Attribute]:
    return {k: op.attributes[k] for k in ("persistable", "stop_gradient") if k in op.attributes}


def _lower_block(block: Block, replaced: dict[Operation, list[Operation]]) -> None:
    for index in range(len(block.ops) - 1, -1, -1):
        op = block.ops[index]
        for region in op.regions:
            for inner in region.blocks:
                _lower_block(inner, replaced)
        if op.name == "pd_op.while":
            _loosen_loop_values(op)
            continue
        if op.name == "pd_op.embedding":
            _embedding_result_types(op)
            continue
        lowering = _LOWERINGS.get(op.name)
        if lowering is None:
            continue
        replacement = lowering(op)
        op.results[0].replace_all_uses_with(replacement[-1].results[0])
        for operand in op.operands:
            if operand is not None:
                operand.uses = [(user, i) for user, i in operand.uses if user is not op]
        block.ops.pop(index)
        for offset, new in enumerate(replacement):
            block.insert(index + offset, new)
        replaced[op] = replacement


def _embedding_result_types(op: Operation) -> None:
    """A legacy ``lookup_table`` (v1) is `embedding` then `squeeze` of axis -2, the embedding's
    result typed as the legacy ``Out`` (a rank too few) and the squeeze's one rank fewer still,
    as PaddlePaddle prints them: the types become what the ops compute, ids' dims and the
    table's width, and that without its second-last axis."""
    ids, weight = op.operands[0], op.operands[1]
    result = op.results[0]
    if not all(isinstance(v.type, DenseTensorType) for v in (ids, weight, result)):
        return
    if len(result.type.dims) == len(ids.type.dims) + 1:
        return
    dims = (*ids.type.dims, weight.type.dims[-1])
    result.type = DenseTensorType(dims, result.type.element)
    for user, _ in result.uses:
        if user.name == "pd_op.squeeze" and isinstance(user.results[0].type, DenseTensorType):
            squeezed = user.results[0]
            squeezed.type = DenseTensorType((*dims[:-2], dims[-1]), squeezed.type.element)


def _loosen_loop_values(op: Operation) -> None:
    body = op.regions[0].blocks[0]
    yielded = body.ops[-1].operands[1:] if body.ops and body.ops[-1].name == "cf.yield" else []
    for values in zip(op.operands[1:], body.args, yielded, op.results):
        for value in values:
            if isinstance(value.type, DenseTensorType):
                value.type = DenseTensorType((-1,) * len(value.type.dims), value.type.element)


def _full_with_tensor(op: Operation) -> list[Operation]:
    value, shape = op.operands
    out_type = op.results[0].type
    replacement: list[Operation] = []
    source: Value = value
    dtype = op.attributes["dtype"].value
    if isinstance(value.type, DenseTensorType) and value.type.dtype != dtype:
        cast_type = DenseTensorType(value.type.dims, out_type.element)
        cast = Operation("pd_op.cast", [value], [cast_type], {"dtype": Attribute("dtype", dtype)})
        replacement.append(cast)
        source = cast.results[0]
    replacement.append(Operation("pd_op.expand", [source, shape], [out_type], _flags(op)))
    return replacement


def _increment(op: Operation) -> list[Operation]:
    one = Operation(
        "pd_op.full",
        [],
        [DenseTensorType((1,), "f32")],
        {
            "dtype": Attribute("dtype", "float32"),
            "place": Attribute("place", "cpu"),
            "shape": Attribute("intarray", (1,)),
            "value": Attribute("double", 1.0),
        },
    )
    attributes = {
        "bias": Attribute("float", op.attributes["value"].value),
        "bias_after_scale": Attribute("bool", True),
        **_flags(op),
    }
    scale = Operation(
        "pd_op.scale", [op.operands[0], one.results[0]], [op.results[0].type], attributes
    )
    return [one, scale]


def _assign_out(op: Operation) -> list[Operation]:
    return [Operation("pd_op.assign", [op.operands[0]], [op.results[0].type], _flags(op))]


def _select_input(op: Operation) -> list[Operation]:
    mask, *choices = op.operands
    if len(choices) != 2:
        raise UnimplementedError(
            f"select_input of {len(choices)} values: phiops runs it for two (a cond's) only"
        )
    mask_type = mask.type
    dims = mask_type.dims if isinstance(mask_type, DenseTensorType) else ()
    cond = Operation(
        "pd_op.cast", [mask], [DenseTensorType(dims, "b")], {"dtype": Attribute("dtype", "bool")}
    )
    choose = Operation("pd_op.if", [cond.results[0]], [op.results[0].type], _flags(op), 2)
    for region, value in zip(choose.regions, (choices[1], choices[0])):
        region.add_block().append(Operation("cf.yield", [value], []))
    return [cond, choose]


_LOWERINGS: dict[str, Callable[[Operation], list[Operation]]] = {
    "pd_op.full_with_tensor": _full_with_tensor,
    "pd_op.increment": _increment,
    "pd_op.increment_": _increment,
    "pd_op.assign_out_": _assign_out,
    "pd_op.select_input": _select_input,
}
