"""Bias and activation fusion: a convolution or matmul and, in their order, the adds after it
(of constants: its bias, a folded batch_norm's; or of a value computed before it: a residual
connection) and the one-input activations after it (relu, relu6, sigmoid, gelu, swish,
hardswish, leaky_relu...: every op with one tensor input and output and
``UnchangedInferMeta``) run as one step. The adds write into the producer's output in place
(``xp.add(y, bias, out=y)``, the add kernel's own ufunc), the activations run their planned
kernels on it (which allocate their result: kernels take no output array), and every value of the chain lives in the producer's slot: no extra slot, and
exactly the numbers of the unfused steps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from phiops.runtime import runtime_flags
from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.ir.types import DenseTensorType
from phiops.runtime.kernels.native import native_function
from phiops.runtime.static.executor.steps.step import OpStep, run_checked
from phiops.runtime.static.passes.patterns import (
    Uses,
    broadcasts_into,
    declared_numpy_dtype,
    producer_of,
)

__all__ = [
    "FusedStep",
    "Fusion",
    "Stage",
    "in_place_add",
    "in_place_add_value",
    "in_place_bias_activation",
    "in_place_relu",
    "activation_in_place",
    "match_fusions",
    "relu_runs_in_place",
]


@dataclass(frozen=True)
class Stage:
    """One op absorbed into a fused step: an add of a constant (``constant``) or of a value
    computed before the producer (``operand``), or a one-input op (neither)."""

    index: int
    constant: Any = None
    operand: Value | None = None


@dataclass
class Fusion:
    """Op ``producer`` and what runs on its result in its slot, in order (``stages``);
    ``values`` are the results of the absorbed ops (they share the producer's slot)."""

    producer: int
    stages: list[Stage] = field(default_factory=list)
    values: list[Value] = field(default_factory=list)


def match_fusions(
    block: Block,
    uses: Uses,
    constants: dict[Value, Any],
    start: dict[int, Value],
    heads: frozenset[int] = frozenset(),
) -> list[Fusion]:
    """The fusions after each producer, and after the ops ``heads`` (batch norms run as affine
    steps, whose result is a new array as a producer's is); ``start`` gives, for a producer
    whose batch_norm was folded, the value its chain continues from (the batch_norm's
    result)."""
    fusions = []
    for index, op in enumerate(block.ops):
        if index in uses.dead or (index not in heads and producer_of(op, constants) is None):
            continue
        fusion = Fusion(index)
        value = start.get(index, op.results[0])
        while True:
            reader = uses.only_reader(value)
            if reader is None:
                break
            reader_index, reader_op = reader
            stage = _add_stage(reader_index, reader_op, value, constants, uses, index)
            if stage is None and is_unary(reader_op, value):
                stage = Stage(reader_index)
            if stage is None:
                break
            fusion.stages.append(stage)
            value = reader_op.results[0]
            fusion.values.append(value)
        if fusion.values:
            fusions.append(fusion)
    return fusions


def _add_stage(
    index: int,
    op: Operation,
    value: Value,
    constants: dict[Value, Any],
    uses: Uses,
    producer: int,
) -> Stage | None:
    """The stage of an ``add`` of ``value`` and a constant broadcasting into it, or of a value
    of its dtype and dims computed before the producer (a residual connection); else None."""
    if op.name != "pd_op.add" or len(op.operands) != 2 or len(op.results) != 1:
        return None
    other = [operand for operand in op.operands if operand is not value]
    if len(other) != 1:
        return None
    (operand,) = other
    if operand in constants:
        array = constants[operand]
        if (
            hasattr(array, "dtype")
            and array.dtype == declared_numpy_dtype(value)
            and broadcasts_into(value, array)
        ):
            return Stage(index, constant=array)
        return None
    defined = operand.define_op
    if defined is None or uses.index_of.get(defined, producer) >= producer:
        return None
    if not isinstance(operand.type, DenseTensorType) or not isinstance(value.type, DenseTensorType):
        return None
    if operand.type.dims != value.type.dims or operand.type.element != value.type.element:
        return None
    return Stage(index, operand=operand)


def is_unary(op: Operation, value: Value) -> bool:
    """Whether ``op`` maps ``value`` alone to one result of its meta, with no effect (its
    in-place form included): an activation."""
    if len(op.operands) != 1 or op.operands[0] is not value or len(op.results) != 1:
        return False
    short = op.name.partition(".")[2]
    op_def = OP_DEFS.get(short)
    if op_def is None and short.endswith("_"):
        op_def = OP_DEFS.get(short[:-1])
    if op_def is None or not op.name.startswith("pd_op.") or op.regions:
        return False
    info = op_def.info
    return (
        len(info.inputs) == 1
        and len(info.outputs) == 1
        and info.infer_meta == "UnchangedInferMeta"
        and "seed" not in info.attr_names
    )


def in_place_add(slot: int, constant: Any, on_cpu: bool) -> Callable[[list], None]:
    """The step adding ``constant`` to the array in ``slot``, in place where it may be written
    (a CPU array that is no read-only view), else into a new array."""
    if not on_cpu:
        from phiops.runtime.device import module_of

        add = module_of(constant).add

        def added(s: list) -> None:
            s[slot] = add(s[slot], constant)

        return added

    def added_in_place(s: list) -> None:
        y = s[slot]
        if y.flags.writeable:
            np.add(y, constant, out=y)
        else:
            s[slot] = np.add(y, constant)

    return added_in_place


def in_place_add_value(slot: int, other: int, on_cpu: bool) -> Callable[[list], None]:
    """The step adding the array in slot ``other`` to the array in ``slot``: in place where it
    may be written and ``other`` has its shape and dtype, else into a new array (as the add
    kernel computes it)."""
    if not on_cpu:

        def added(s: list) -> None:
            s[slot] = s[slot] + s[other]

        return added

    def added_in_place(s: list) -> None:
        y, z = s[slot], s[other]
        if y.flags.writeable and z.shape == y.shape and z.dtype == y.dtype:
            np.add(y, z, out=y)
        else:
            s[slot] = np.add(y, z)

    return added_in_place


def in_place_relu(slot: int, planned: OpStep) -> OpStep:
    """``planned``, the relu step of a chain, computing in place where the array in ``slot`` may
    be written: the relu kernel's own ufuncs (``fmax(y, 0)`` then ``+ 0``, which makes nan and
    -0.0 +0.0) with ``out=y``, so the same numbers without a new array; else its kernel."""
    run = planned.core
    zero = planned.check[1].out_metas.dtype.numpy_dtype.type(0)

    def relu_in_place(s: list) -> None:
        y = s[slot]
        if type(y) is np.ndarray and y.flags.writeable:
            np.fmax(y, zero, out=y)
            np.add(y, zero, out=y)
        else:
            run(s)

    step = OpStep(relu_in_place, planned.out_slots, planned.many, planned.check, planned.writes)
    step.label = f"{planned.label} [in place]"
    return step


def relu_runs_in_place(op: Operation, steps: list[OpStep]) -> bool:
    """Whether a chain's one-input ``op``, compiled into ``steps``, is a relu whose planned
    kernel runs on a float array of its own dtype (no cast around it): it may run in place
    (not while FLAGS_check_nan_inf has each kernel step check its output)."""
    if op.name not in ("pd_op.relu", "pd_op.relu_") or len(steps) != 1:
        return False
    if runtime_flags.SWITCHES.check_nan_inf:
        return False
    check = steps[0].check
    if check is None or steps[0].writes:
        return False
    kernel_plan = check[1]
    return (
        not kernel_plan.transforms
        and kernel_plan.fallback_from is None
        and kernel_plan.kernel.fn.__name__ == "relu_kernel"
        and kernel_plan.out_metas.dtype.numpy_dtype.kind == "f"
    )


# the activations a bias add and its activation run as in one compiled pass, by the code
# runtime/kernels/csrc/channel_affine.h's bias_act knows them by
_NATIVE_ACTIVATIONS = {"relu": 1, "relu6": 2}


def activation_in_place(op: Operation, steps: list[OpStep]) -> str | None:
    """ "relu" or "relu6" where a chain's one-input ``op``, compiled into ``steps``, is that
    activation planned on a float array of its own dtype (no cast around it, not while
    FLAGS_check_nan_inf checks each kernel's output): its bias add may run with it in one
    pass; else None."""
    if relu_runs_in_place(op, steps):
        return "relu"
    if op.name not in ("pd_op.relu6", "pd_op.relu6_") or len(steps) != 1:
        return None
    if runtime_flags.SWITCHES.check_nan_inf or steps[0].check is None or steps[0].writes:
        return None
    kernel_plan = steps[0].check[1]
    if (
        not kernel_plan.transforms
        and kernel_plan.fallback_from is None
        and kernel_plan.kernel.fn.__name__ == "relu6_kernel"
        and kernel_plan.out_metas.dtype.numpy_dtype.kind == "f"
    ):
        return "relu6"
    return None


def channel_vector(constant: Any, rank: int) -> tuple[Any, bool] | None:
    """A constant of a chain's adds as one number per channel: (the vector, whether the
    channels are the last axis), when it broadcasts along axis 1 alone (channels first, rank
    above 2) or along the last axis alone; else None."""
    if type(constant) is not np.ndarray or constant.ndim == 0 or constant.ndim > rank:
        return None
    shape = (1,) * (rank - constant.ndim) + constant.shape
    wide = [axis for axis, extent in enumerate(shape) if extent != 1]
    if len(wide) != 1:
        return None
    vector = np.ascontiguousarray(constant.reshape(-1))
    if wide[0] == rank - 1:
        return vector, True
    if wide[0] == 1 and rank > 2:
        return vector, False
    return None


def in_place_bias_activation(
    slot: int, vector: Any, columns: bool, kind: str, add: OpStep, activation: OpStep
) -> OpStep:
    """``add`` (a per-channel constant's in-place add, ``vector`` its numbers, channels last
    when ``columns``) and ``activation`` (the relu or relu6 after it) as one step: one
    compiled pass over the array in ``slot`` (`bias_activation`) where it is a writable,
    contiguous numpy array of the vector's dtype and the extension runs; else the two steps.
    The same bits either way."""
    act = _NATIVE_ACTIVATIONS[kind]
    run_add, run_activation = add.core, activation.core
    channels = vector.shape[0]

    def bias_activation(s: list) -> None:
        y = s[slot]
        native = native_function(y, "bias_activation")
        if (
            native is not None
            and y.flags.writeable
            and y.flags.c_contiguous
            and y.dtype == vector.dtype
            and y.shape[-1 if columns else 1] == channels
        ):
            n = channels if columns else y.size // (y.shape[0] * channels)
            native(y, vector, y.size // n, n, channels, columns, act, 0, y.size // n)
        else:
            run_add(s)
            run_activation(s)

    step = OpStep(
        bias_activation, activation.out_slots, activation.many, activation.check, activation.writes
    )
    step.label = f"{add.label} + {activation.label}"
    return step


class FusedStep(OpStep):
    """Several steps run as one: ``members`` in order, the first run checked member by member,
    later runs one closure calling each member's closure."""

    __slots__ = ("members",)

    def __init__(self, members: list[OpStep]) -> None:
        super().__init__(self._run_checked, members[-1].out_slots, members[-1].many)
        self.members = members
        self.label = " + ".join(member.label for member in members)

    def _run_checked(self, slots: list) -> None:
        run_checked(self.members, slots)

    def fast(self) -> Callable[[list], None]:
        steps = tuple(member.fast() for member in self.members)
        releases = self.releases
        if len(steps) == 2 and not releases:
            first, second = steps

            def fused_two(s: list) -> None:
                first(s)
                second(s)

            return fused_two
        if len(steps) == 3 and not releases:
            first, second, third = steps

            def fused_three(s: list) -> None:
                first(s)
                second(s)
                third(s)

            return fused_three

        def fused(s: list) -> None:
            for step in steps:
                step(s)
            for slot in releases:
                s[slot] = None

        return fused
