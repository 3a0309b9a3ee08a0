"""Builtin steps: the framework ops that run no kernel. ``pd_op.data`` and ``builtin.parameter``
are placed in their slots before the steps run, ``pd_op.fetch`` shares its operand's slot,
``builtin.combine``/``split``/``slice`` build and take apart lists, ``set_parameter`` and
``shadow_output`` store into the scope and ``assign_value_`` writes its constant
(``full_with_tensor`` is an op with a kernel, planned as others)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from phiops.runtime.device import to_backend
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.ir.core import Operation
from phiops.runtime.static.executor.arrays import to_numpy
from phiops.runtime.static.executor.attributes import scalar_of
from phiops.runtime.static.executor.builder import PlanBuilder
from phiops.runtime.static.executor.metas import dtype_of
from phiops.runtime.static.executor.steps.step import OpStep

__all__ = ["BUILTIN_STEPS"]


def compile_placed(builder: PlanBuilder, op: Operation, where: str) -> None:
    """pd_op.data, builtin.parameter: no step; their arrays are placed in their slots
    (made by the plan's compilation) before the steps run."""


def compile_set_parameter(builder: PlanBuilder, op: Operation, where: str) -> None:
    _compile_scope_write(builder, op, op.attributes["parameter_name"].value)


def compile_shadow_output(builder: PlanBuilder, op: Operation, where: str) -> None:
    _compile_scope_write(builder, op, op.attributes["output_name"].value)


def _compile_scope_write(builder: PlanBuilder, op: Operation, name: str) -> None:
    builder.ops.append(OpStep(_nothing, writes=((builder.slot_of[op.operands[0]], name),)))


def compile_alias(builder: PlanBuilder, op: Operation, where: str) -> None:
    """pd_op.fetch: its result is its operand's array."""
    source = op.operands[0]
    builder.meta_of[op.results[0]] = builder.meta_of[source]
    builder.share_slot(op.results[0], source)
    if source in builder.scope_name_of:
        builder.scope_name_of[op.results[0]] = builder.scope_name_of[source]


def compile_combine(builder: PlanBuilder, op: Operation, where: str) -> None:
    sources = tuple(builder.slot_of[v] for v in op.operands)
    value = op.results[0]
    builder.meta_of[value] = tuple(builder.meta_of[v] for v in op.operands)
    # a list of 1-element constants may be an IntArray; constant weights (an rnn op's
    # weight_list, all parameters) are not, and stay arrays only
    if all(v in builder.constant_of for v in op.operands) and all(
        not isinstance(c, list) or len(c) == 1
        for c in (builder.constant_of[v] for v in op.operands)
    ):
        builder.constant_of[value] = [scalar_of(builder.constant_of[v]) for v in op.operands]
    builder.ops.append(OpStep(_combine_step(sources, builder.new_slot(value))))


def compile_split(builder: PlanBuilder, op: Operation, where: str) -> None:
    source = op.operands[0]
    metas = builder.meta_of[source]
    if len(metas) != len(op.results):
        raise PreconditionNotMetError(
            f"{where}: splits a list of {len(metas)} tensors into {len(op.results)} results"
        )
    for value, meta in zip(op.results, metas):
        builder.check_declared(value, meta, where)
        builder.meta_of[value] = meta
    targets = tuple(builder.new_slot(v) for v in op.results)
    builder.ops.append(OpStep(_split_step(builder.slot_of[source], targets)))


def compile_slice(builder: PlanBuilder, op: Operation, where: str) -> None:
    source = op.operands[0]
    index = op.attributes["index"].value
    value = op.results[0]
    builder.meta_of[value] = builder.meta_of[source][index]
    builder.ops.append(OpStep(_slice_step(builder.slot_of[source], index, builder.new_slot(value))))


def compile_assign_value(builder: PlanBuilder, op: Operation, where: str) -> None:
    """pd_op.assign_value_: writes the constant array of its ``values``, ``shape`` and
    ``dtype`` attributes into its operand, in place."""
    attrs = op.attributes
    dtype = dtype_of(attrs["dtype"].value, where)
    shape = tuple(
        attrs["shape"].value
        if attrs["shape"].kind == "intarray"
        else (a.value for a in attrs["shape"].value)
    )
    values = [a.value for a in attrs["values"].value]
    try:
        constant = np.asarray(values, dtype=dtype.numpy_dtype).reshape(shape)
    except ValueError as error:
        raise InvalidArgumentError(
            f"{where}: values do not fit shape {list(shape)}: {error}"
        ) from None
    constant = to_backend(constant, builder.place)
    value = op.results[0]
    builder.meta_of[value] = builder.meta(constant, dtype)
    builder.check_declared(value, builder.meta_of[value], where)
    builder.constant_of[value] = values if shape else values[0]
    # in place: the operand's value is the assigned array from here on, as in PaddlePaddle
    operand = op.operands[0] if op.operands else None
    if operand is not None:
        builder.share_slot(value, operand)
        builder.meta_of[operand] = builder.meta_of[value]
    target = builder.slot_of[value] if value in builder.slot_of else builder.new_slot(value)
    builder.ops.append(OpStep(_constant_step(constant, target)))


# op name -> the function appending its steps (none for the ops placed before the steps run)
BUILTIN_STEPS: dict[str, Callable[[PlanBuilder, Operation, str], None]] = {
    "pd_op.data": compile_placed,
    "pd_op.feed": compile_placed,
    "builtin.parameter": compile_placed,
    "builtin.set_parameter": compile_set_parameter,
    "builtin.shadow_output": compile_shadow_output,
    "pd_op.fetch": compile_alias,
    "builtin.combine": compile_combine,
    "builtin.split": compile_split,
    "builtin.slice": compile_slice,
    "pd_op.assign_value_": compile_assign_value,
}


# -- the closures over slots -------------------------------------------------------------------


def _combine_step(sources: tuple[int, ...], target: int) -> Callable[[list], None]:
    def step(s: list) -> None:
        s[target] = [s[slot] for slot in sources]

    return step


def _split_step(source: int, targets: tuple[int, ...]) -> Callable[[list], None]:
    def step(s: list) -> None:
        for slot, array in zip(targets, s[source]):
            s[slot] = array

    return step


def _slice_step(source: int, index: int, target: int) -> Callable[[list], None]:
    def step(s: list) -> None:
        s[target] = s[source][index]

    return step


def _constant_step(constant: Any, target: int) -> Callable[[list], None]:
    def step(s: list) -> None:
        s[target] = constant.copy()

    return step


def _nothing(s: list) -> None:
    return None
