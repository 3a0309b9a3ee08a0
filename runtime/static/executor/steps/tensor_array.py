"""TensorArray steps: `pd_op.create_array`, `create_array_like`, `array_length`, `array_read`,
`array_write_`, `array_to_tensor` and `array_pop`, run by the kernels of
runtime/kernels/impl/tensor_array_kernels.py.

A `pd_op.tensor_array<...>` value's slot holds a TensorArray. `array_write_` and `array_pop`
change their array in place (their array result shares its operand's slot, so a later reader
of the operand, as PaddlePaddle's programs read it after a `pd_op.while` whose body wrote it,
sees the writes). An item's extents are known only when the program runs, so the results of
`array_read`, `array_to_tensor` and `array_pop` are planned with the extents their declared
types give (-1 where they do not know one) and the ops reading them are planned when they run.
"""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.backends import array_module
from phiops.runtime.common import DataLayout
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.ir.core import Operation, Value
from phiops.runtime.ir.types import TensorArrayType
from phiops.runtime.kernels.impl import tensor_array_kernels as kernels
from phiops.runtime.static.executor.builder import PlanBuilder
from phiops.runtime.static.executor.metas import dtype_of
from phiops.runtime.static.executor.steps.step import OpStep, named
from phiops.runtime.tensor.sparse import TensorArrayMeta

__all__ = ["TENSOR_ARRAY_STEPS"]


def _array_meta(builder: PlanBuilder, value: Value, where: str) -> TensorArrayMeta:
    type_ = value.type
    if not isinstance(type_, TensorArrayType):
        raise PreconditionNotMetError(f"{where}: expects a pd_op.tensor_array, got {type_}")
    return TensorArrayMeta.get(
        dtype_of(type_.element, where), (-1,), DataLayout.NCHW, builder.place
    )


def _operand_array(builder: PlanBuilder, op: Operation, where: str) -> Value:
    array = op.operands[0]
    if not isinstance(array.type, TensorArrayType):
        raise InvalidArgumentError(
            f"{where}: operand 0 must be a pd_op.tensor_array, got {array.type}"
        )
    return array


def compile_create_array(builder: PlanBuilder, op: Operation, where: str) -> None:
    value = op.results[0]
    meta = builder.meta_of[value] = _array_meta(builder, value, where)
    dtype = dtype_of(op.attributes["dtype"].value, where)
    if dtype is not meta.dtype:
        raise PreconditionNotMetError(
            f"{where}: dtype {dtype.name.lower()} but the result is declared {value.type}"
        )
    target = builder.new_slot(value)

    def run(s: list) -> None:
        s[target] = kernels.create_array_kernel(None, dtype)

    builder.ops.append(OpStep(named(where, run)))


def compile_create_array_like(builder: PlanBuilder, op: Operation, where: str) -> None:
    source = _operand_array(builder, op, where)
    value = op.results[0]
    builder.meta_of[value] = _array_meta(builder, value, where)
    fill = float(op.attributes["val"].value)
    source_slot, target = builder.slot_of[source], builder.new_slot(value)
    xp = array_module(builder.place.backend)

    def run(s: list) -> None:
        s[target] = kernels.create_array_like_kernel(xp, s[source_slot], fill)

    builder.ops.append(OpStep(named(where, run)))


def compile_array_length(builder: PlanBuilder, op: Operation, where: str) -> None:
    source = _operand_array(builder, op, where)
    value = op.results[0]
    builder.meta_of[value] = builder.declared_meta(value, where)
    source_slot, target = builder.slot_of[source], builder.new_slot(value)
    xp = array_module(builder.place.backend)

    def run(s: list) -> None:
        s[target] = kernels.array_length_kernel(xp, s[source_slot])

    builder.ops.append(OpStep(named(where, run)))


def compile_array_read(builder: PlanBuilder, op: Operation, where: str) -> None:
    source = _operand_array(builder, op, where)
    value = op.results[0]
    builder.meta_of[value] = _unknown_extents(builder.declared_meta(value, where))
    source_slot, index_slot = builder.slot_of[source], builder.slot_of[op.operands[1]]
    target = builder.new_slot(value)
    xp = array_module(builder.place.backend)

    def run(s: list) -> None:
        s[target] = kernels.array_read_kernel(xp, s[source_slot], s[index_slot])

    builder.ops.append(OpStep(named(where, run)))


def compile_array_write(builder: PlanBuilder, op: Operation, where: str) -> None:
    source = _operand_array(builder, op, where)
    value = op.results[0]
    builder.meta_of[value] = _array_meta(builder, value, where)
    x, index = op.operands[1], op.operands[2]
    builder.share_slot(value, source)
    array_slot, x_slot, index_slot = (
        builder.slot_of[source],
        builder.slot_of[x],
        builder.slot_of[index],
    )
    xp = array_module(builder.place.backend)

    def run(s: list) -> None:
        kernels.array_write_kernel(xp, s[array_slot], s[x_slot], s[index_slot])

    builder.ops.append(OpStep(named(where, run)))


def compile_array_to_tensor(builder: PlanBuilder, op: Operation, where: str) -> None:
    source = _operand_array(builder, op, where)
    out, out_index = op.results[0], op.results[1]
    builder.meta_of[out] = _unknown_extents(builder.declared_meta(out, where))
    builder.meta_of[out_index] = _unknown_extents(builder.declared_meta(out_index, where))
    axis = int(op.attributes["axis"].value)
    use_stack = bool(op.attributes["use_stack"].value)
    source_slot = builder.slot_of[source]
    out_slot, index_slot = builder.new_slot(out), builder.new_slot(out_index)
    xp = array_module(builder.place.backend)

    def run(s: list) -> None:
        s[out_slot], s[index_slot] = kernels.array_to_tensor_kernel(
            xp, s[source_slot], axis, use_stack
        )

    builder.ops.append(OpStep(named(where, run)))


def compile_array_pop(builder: PlanBuilder, op: Operation, where: str) -> None:
    source = _operand_array(builder, op, where)
    array_out, out = op.results[0], op.results[1]
    builder.meta_of[array_out] = _array_meta(builder, array_out, where)
    builder.meta_of[out] = _unknown_extents(builder.declared_meta(out, where))
    index = int(op.attributes["index"].value)
    builder.share_slot(array_out, source)
    array_slot, out_slot = builder.slot_of[source], builder.new_slot(out)
    xp = array_module(builder.place.backend)

    def run(s: list) -> None:
        s[out_slot] = kernels.array_pop_kernel(xp, s[array_slot], index)[1]

    builder.ops.append(OpStep(named(where, run)))


def compile_slice_array(builder: PlanBuilder, op: Operation, where: str) -> None:
    source = _operand_array(builder, op, where)
    value = op.results[0]
    builder.meta_of[value] = _array_meta(builder, value, where)
    source_slot = builder.slot_of[source]
    starts_slot, ends_slot = builder.slot_of[op.operands[1]], builder.slot_of[op.operands[2]]
    target = builder.new_slot(value)
    xp = array_module(builder.place.backend)

    def run(s: list) -> None:
        s[target] = kernels.slice_array_kernel(xp, s[source_slot], s[starts_slot], s[ends_slot])

    builder.ops.append(OpStep(named(where, run)))


def compile_slice_array_dense(builder: PlanBuilder, op: Operation, where: str) -> None:
    source = _operand_array(builder, op, where)
    value = op.results[0]
    builder.meta_of[value] = _unknown_extents(builder.declared_meta(value, where))
    source_slot, starts_slot = builder.slot_of[source], builder.slot_of[op.operands[1]]
    target = builder.new_slot(value)
    xp = array_module(builder.place.backend)

    def run(s: list) -> None:
        s[target] = kernels.slice_array_dense_kernel(xp, s[source_slot], s[starts_slot])

    builder.ops.append(OpStep(named(where, run)))


def compile_tensor_to_array(builder: PlanBuilder, op: Operation, where: str) -> None:
    source = _operand_array(builder, op, where)
    value = op.results[0]
    builder.meta_of[value] = _array_meta(builder, value, where)
    axis = int(op.attributes["axis"].value)
    use_stack = bool(op.attributes["use_stack"].value)
    source_slot, grad_slot = builder.slot_of[source], builder.slot_of[op.operands[1]]
    target = builder.new_slot(value)
    xp = array_module(builder.place.backend)

    def run(s: list) -> None:
        s[target] = kernels.tensor_to_array_kernel(
            xp, s[source_slot], s[grad_slot], axis, use_stack
        )

    builder.ops.append(OpStep(named(where, run)))


def _unknown_extents(meta: Any) -> Any:
    """``meta`` with every extent unknown: an item's extents are the data's."""
    return type(meta).get(meta.dtype, tuple(-1 for _ in meta.dims), meta.layout, meta.place)


# op name -> the function appending its steps
TENSOR_ARRAY_STEPS: dict[str, Callable[[PlanBuilder, Operation, str], None]] = {
    "pd_op.create_array": compile_create_array,
    "pd_op.create_array_like": compile_create_array_like,
    "pd_op.array_length": compile_array_length,
    "pd_op.array_read": compile_array_read,
    "pd_op.array_write_": compile_array_write,
    "pd_op.array_to_tensor": compile_array_to_tensor,
    "pd_op.array_pop": compile_array_pop,
    "pd_op.slice_array": compile_slice_array,
    "pd_op.slice_array_dense": compile_slice_array_dense,
    "pd_op.tensor_to_array": compile_tensor_to_array,
}
