"""Legacy inference models (``PREFIX.pdmodel`` + ``PREFIX.pdiparams``) on phiops' plan/execute
path: the ProgramDesc is translated to PIR (runtime/compat/translate.py, PaddlePaddle's own
translation), then run by the same Executor as PIR programs.

The parameters file holds every persistable variable of the desc, sorted by name, as
PaddlePaddle's ``save_inference_model`` writes it in legacy mode. The ``feed``/``fetch`` ops give
the feed names and fetch targets in ``col`` order, as PaddlePaddle's ``GetFeedTargetNames``.
"""

from __future__ import annotations

import os

import numpy as np

from runtime.compat.program_desc import ProgramDesc, read_program_desc
from runtime.compat.translate import translate_program_desc
from runtime.errors import NotFoundError
from runtime.ir.attributes import Attribute
from runtime.ir.core import Operation, Program, Value
from runtime.ir.types import DenseTensorType

__all__ = [
    "read_legacy_inference_model",
    "persistable_names",
    "lower_for_execution",
    "lowerings",
]

_NOT_SAVED = ("feed", "fetch")


def persistable_names(desc: ProgramDesc) -> list[str]:
    """The variables a legacy ``.pdiparams`` holds, in its order: the persistable tensors."""
    return sorted(
        var.name
        for block in desc.blocks
        for var in block.vars.values()
        if var.persistable and var.kind == "DENSE_TENSOR" and var.name not in _NOT_SAVED
    )


def lower_for_execution(program: Program) -> Program:
    """Rewrite, in place, the ops of a translated program that phiops runs as other ops:
    `full_with_tensor(value, shape)` (no phiops kernel) is `expand(value, shape)`, with a `cast`
    when the value's dtype is not the op's."""
    lowerings(program)
    return program


def lowerings(program: Program) -> dict[Operation, list[Operation]]:
    """`lower_for_execution`, returning each replaced op with the ops that replaced it."""
    replaced: dict[Operation, list[Operation]] = {}
    block = program.block
    for index in range(len(block.ops) - 1, -1, -1):
        op = block.ops[index]
        if op.name != "pd_op.full_with_tensor":
            continue
        value, shape = op.operands
        out_type = op.results[0].type
        flags = {
            k: op.attributes[k] for k in ("persistable", "stop_gradient") if k in op.attributes
        }
        replacement: list[Operation] = []
        source: Value = value
        dtype = op.attributes["dtype"].value
        if isinstance(value.type, DenseTensorType) and value.type.dtype != dtype:
            cast_type = DenseTensorType(value.type.dims, out_type.element)
            cast = Operation(
                "pd_op.cast", [value], [cast_type], {"dtype": Attribute("dtype", dtype)}
            )
            replacement.append(cast)
            source = cast.results[0]
        expand = Operation("pd_op.expand", [source, shape], [out_type], dict(flags))
        replacement.append(expand)
        op.results[0].replace_all_uses_with(expand.results[0])
        for operand in op.operands:
            operand.uses = [(user, i) for user, i in operand.uses if user is not op]
        block.ops.pop(index)
        for offset, new in enumerate(replacement):
            block.insert(index + offset, new)
        replaced[op] = replacement
    return replaced


def read_legacy_inference_model(
    prefix: str,
) -> tuple[Program, list[str], list[Value], dict[str, np.ndarray]]:
    """``(program, feed_names, fetch_targets, parameters)`` of ``PREFIX.pdmodel`` (translated
    and lowered for the Executor) and ``PREFIX.pdiparams``."""
    from runtime.serialization.tensor_stream import load_combine

    model_path, params_path = prefix + ".pdmodel", prefix + ".pdiparams"
    desc = read_program_desc(model_path)
    program = lower_for_execution(translate_program_desc(desc))
    names = persistable_names(desc)
    params: dict[str, np.ndarray] = {}
    if names:
        if not os.path.isfile(params_path):
            raise NotFoundError(
                f"load_inference_model: {model_path} has {len(names)} persistable variable(s) "
                f"but there is no {params_path}"
            )
        params = load_combine(params_path, names)
    feeds: dict[int, str] = {}
    fetches: dict[int, Value] = {}
    for op in program.block.ops:
        if op.name == "pd_op.feed":
            feeds[op.attributes["col"].value] = op.attributes["name"].value
        elif op.name == "pd_op.fetch":
            fetches[op.attributes["col"].value] = op.operands[0]
    feed_names = [feeds[col] for col in sorted(feeds)]
    fetch_targets = [fetches[col] for col in sorted(fetches)]
    return program, feed_names, fetch_targets, params
