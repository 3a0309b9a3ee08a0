"""Plans: a program compiled for one feed signature (``compile_plan``: every op of its top-level
block becomes steps, its values get slots and lifetimes), and how a plan runs (``Plan``)."""

from __future__ import annotations

import operator

import time
from typing import Any, Callable

import numpy as np

from phiops.runtime.dispatch.op_packages import is_op_package_dialect
from phiops.runtime.common import Place
from phiops.runtime.common.data_type import from_numpy_dtype
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.errors import (
    InvalidArgumentError,
    NotFoundError,
    PreconditionNotMetError,
    UnimplementedError,
)
from phiops.runtime.formats.program_verify import verify_program
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.ir.verify import ProgramVerifyError
from phiops.runtime.static.executor.builder import PlanBuilder, value_numbering
from phiops.runtime.static.executor.liveness import Lifetimes
from phiops.runtime.static.executor.program_info import ProgramInfo
from phiops.runtime.static.executor.steps.builtin import BUILTIN_STEPS
from phiops.runtime.static.executor.steps.control_flow import CONTROL_FLOW_STEPS
from phiops.runtime.static.executor.steps.kernel import compile_kernel_op
from phiops.runtime.static.executor.steps.sparse import (
    compile_sparse_op,
    is_sparse_op,
    is_sparse_value,
)
from phiops.runtime.static.executor.steps.tensor_array import TENSOR_ARRAY_STEPS
from phiops.runtime.static.executor.steps.step import SCOPE_SLOT, OpStep, kernel_text, run_checked
from phiops.runtime.static.passes.config import passes_key
from phiops.runtime.static.passes.layout_plan import choose_layout, layout_applies
from phiops.runtime.static.passes.memory_planning import memory_report
from phiops.runtime.static.passes.pipeline import InferenceRewrite, PassReport, inference_rewrite
from phiops.runtime.static.scope import Scope

__all__ = ["Plan", "compile_plan"]


class Plan:
    """A compiled program: where feeds and parameters go, the steps, what is fetched."""

    __slots__ = (
        "num_slots",
        "feed_slots",
        "param_slots",
        "ops",
        "steps",
        "fetch_slots",
        "fetch_metas",
        "fetch_copies",
        "param_metas",
        "constant_slots",
        "constant_arrays",
        "passes_flag",
        "consumed_params",
        "report",
        "fitted",
    )

    def __init__(self) -> None:
        self.num_slots = SCOPE_SLOT + 1
        self.feed_slots: list[int] = []
        self.param_slots: list[int] = []
        self.ops: list[OpStep] = []
        self.steps: tuple[Callable[[list], None], ...] | None = None
        self.fetch_slots: list[int] = []
        self.fetch_metas: list[DenseTensorMeta] = []
        self.fetch_copies: list[bool] = []
        self.param_metas: list[tuple[tuple[int, ...], np.dtype]] = []
        # the inference passes (runtime/static/passes): constants folded when compiling, placed
        # like parameters before each run; the passes_key() they ran under (None: the program is
        # not marked for them); the parameters (position, array) the constants were made from
        self.constant_slots: list[int] = []
        self.constant_arrays: list[Any] = []
        self.passes_flag: tuple[str, str] | None = None
        self.consumed_params: tuple[tuple[int, Any], ...] = ()
        self.report: PassReport | None = None
        # the parameter arrays fits() last accepted
        self.fitted: list | None = None

    def fits(self, param_arrays: list) -> bool:
        """Whether the parameters have the shapes and dtypes this plan was made for (else the
        executor plans anew, for the parameters the scope holds now). The very arrays it last
        fitted fit again while the passes' flag is unchanged (one identity test per array)."""
        last = self.fitted
        if (
            last is not None
            and len(last) == len(param_arrays)
            and all(map(operator.is_, param_arrays, last))
            and (self.passes_flag is None or self.passes_flag == passes_key())
        ):
            return True
        if not self._fits(param_arrays):
            return False
        self.fitted = list(param_arrays)
        return True

    def _fits(self, param_arrays: list) -> bool:
        for array, (shape, dtype) in zip(param_arrays, self.param_metas):
            if array.shape != shape or array.dtype is not dtype and array.dtype != dtype:
                return False
        if self.passes_flag is not None:
            # constants folded from parameters are made anew when a parameter is replaced,
            # and the plan is compiled anew when the passes the flag names change
            if self.passes_flag != passes_key():
                return False
            for position, array in self.consumed_params:
                if param_arrays[position] is not array:
                    return False
        return True

    def run(self, scope: Scope, feed_arrays: list, param_arrays: list) -> list:
        slots: list[Any] = [None] * self.num_slots
        slots[SCOPE_SLOT] = scope
        for slot, array in zip(self.feed_slots, feed_arrays):
            slots[slot] = array
        for slot, array in zip(self.param_slots, param_arrays):
            slots[slot] = array
        for slot, array in zip(self.constant_slots, self.constant_arrays):
            slots[slot] = array
        steps = self.steps
        if steps is None:
            self._run_checked(slots)
        else:
            for step in steps:
                step(slots)
        return [
            slots[slot].copy() if copy else slots[slot]
            for slot, copy in zip(self.fetch_slots, self.fetch_copies)
        ]

    def run_profiled(
        self, scope: Scope, feed_arrays: list, param_arrays: list
    ) -> tuple[list, list[tuple[str, str, float]]]:
        """``run``, timing each step: the fetched arrays and, per step, (the op it runs, its
        kernel as ``module.function [backend, layout, dtype]`` or "" for a builtin step,
        seconds). The first run of a plan times its checked steps."""
        slots: list[Any] = [None] * self.num_slots
        slots[SCOPE_SLOT] = scope
        for slot, array in zip(self.feed_slots, feed_arrays):
            slots[slot] = array
        for slot, array in zip(self.param_slots, param_arrays):
            slots[slot] = array
        for slot, array in zip(self.constant_slots, self.constant_arrays):
            slots[slot] = array
        timings: list[tuple[str, str, float]] = []
        if self.steps is None:
            self._run_checked(slots, timings)
        else:
            clock = time.perf_counter
            for op, step in zip(self.ops, self.steps):
                start = clock()
                step(slots)
                timings.append((op.label, kernel_text(op), clock() - start))
        results = [
            slots[slot].copy() if copy else slots[slot]
            for slot, copy in zip(self.fetch_slots, self.fetch_copies)
        ]
        return results, timings

    def _run_checked(
        self, slots: list, timings: list[tuple[str, str, float]] | None = None
    ) -> None:
        """The first run: each kernel's result is checked against the metas it was planned with
        (as the eager dispatcher checks the first call of a new plan); then the fast steps are
        built for later runs. With ``timings``, each op's kernel time is appended to it."""
        run_checked(self.ops, slots, timings)
        self.steps = tuple(op.fast() for op in self.ops)


def compile_plan(
    info: ProgramInfo,
    place: Place,
    feed_arrays: list,
    param_arrays: list,
    fetch_key: tuple,
) -> Plan:
    """Plan every operation of ``info``'s program for these feed and parameter arrays (their
    shapes select the plan) and the fetch targets ``fetch_key`` (the program's own fetch ops
    when empty). The block is verified first (`verify_program`): a program the verifier refuses
    never reaches a kernel. Where the layout_choice pass runs, the plan may be that of a copy of
    the block with some convolution chains channels last (`choose_layout`)."""
    try:
        verify_program(info.block)
    except ProgramVerifyError as error:
        raise InvalidArgumentError(
            f"Executor.run(): the program does not verify: {error}"
        ) from None
    block = info.block
    numbering = value_numbering(block)
    fetched = [_fetch_target(info, target) for target in fetch_key] or list(info.fetch_ops)
    plan, compiled = _compile_block(
        info, block, None, numbering, place, feed_arrays, param_arrays, fetched
    )
    if compiled is not None and layout_applies(compiled[0], block, place):

        def compile_copy(copy: Block, values: dict, names: dict) -> tuple:
            return _compile_block(
                info, copy, values, names, place, feed_arrays, param_arrays, fetched
            )

        plan = choose_layout(
            compile_copy, block, feed_arrays, param_arrays, fetched, numbering, plan, compiled
        )
    return plan


def _compile_block(
    info: ProgramInfo,
    block: Block,
    values: dict[Value, Value] | None,
    numbering: dict[Value, str],
    place: Place,
    feed_arrays: list,
    param_arrays: list,
    fetched: list[Value],
) -> tuple[Plan, tuple[InferenceRewrite, PlanBuilder] | None]:
    """The plan of ``block``: the program's own, or (``values``: the program's values -> the
    block's) the layout pass's copy of it, named by ``numbering``; with the passes' rewrite and
    the builder when the inference passes ran."""

    def mapped(value: Value) -> Value:
        return value if values is None else values.get(value, value)

    plan = Plan()
    fetched = [mapped(value) for value in fetched]
    parameters = {mapped(value): array for (_, value), array in zip(info.params, param_arrays)}
    rewrite = inference_rewrite(info.module, block, fetched, set(parameters))
    passes = rewrite if isinstance(rewrite, InferenceRewrite) else None
    if rewrite is not None:
        plan.passes_flag = passes_key()
        plan.report = rewrite if isinstance(rewrite, PassReport) else rewrite.report
    lifetimes = Lifetimes(block, fetched, passes.dead if passes else frozenset())
    builder = PlanBuilder(place, numbering, lifetimes, _compile_op_steps)
    for feed, array in zip(info.feeds, feed_arrays):
        value = mapped(feed.value)
        builder.meta_of[value] = builder.meta(array, feed.dtype)
        plan.feed_slots.append(builder.new_slot(value))
        if feed.persistable:
            builder.scope_name_of[value] = feed.name
    for (name, original), array in zip(info.params, param_arrays):
        value = mapped(original)
        builder.meta_of[value] = builder.meta(array, from_numpy_dtype(array.dtype))
        builder.check_declared(value, builder.meta_of[value], f"parameter '{name}'")
        plan.param_slots.append(builder.new_slot(value))
        plan.param_metas.append((array.shape, array.dtype))
        builder.scope_name_of[value] = name
    if passes is not None:
        passes.prepare(builder, parameters, _compile_op)
        if passes.plans_memory:
            builder.free_slots = []
    for index, op in enumerate(block.ops):
        if passes is not None and passes.compile(builder, index, op, _compile_op):
            continue
        _compile_op(builder, index, op)
        builder.release(index, op)
    for value in fetched:
        if value not in builder.slot_of:
            raise PreconditionNotMetError(
                f"Executor.run(): fetch target {numbering.get(value, value)} is not "
                "computed by the program's top-level block"
            )
        if builder.meta_of[value] is None:
            raise InvalidArgumentError(
                f"Executor.run(): fetch target {numbering.get(value, value)} holds no "
                f"array: {value.define_op.name} leaves that optional output unset"
            )
        plan.fetch_slots.append(builder.slot_of[value])
        plan.fetch_metas.append(builder.meta_of[value])
        plan.fetch_copies.append(value in builder.scope_name_of)
    plan.num_slots = builder.num_slots
    plan.ops = builder.ops
    if passes is None:
        return plan, None
    for slot, array in passes.constant_slots:
        plan.constant_slots.append(slot)
        plan.constant_arrays.append(array)
    plan.consumed_params = tuple(
        (position, array)
        for position, ((_, value), array) in enumerate(zip(info.params, param_arrays))
        if mapped(value) in passes.consumed
    )
    resident = {
        *(mapped(feed.value) for feed in info.feeds),
        *parameters,
        *passes.folded_values,
    }
    passes.report.memory = memory_report(
        block, builder.slot_of, builder.meta_of, lifetimes.last_use, resident
    )
    return plan, (passes, builder)


def _fetch_target(info: ProgramInfo, target: Any) -> Value:
    if isinstance(target, str):
        found = info.names.get(target)
        if found is None:
            raise NotFoundError(
                f"Executor.run(): fetch name '{target}' names no fetch, shadow_output, data "
                f"or parameter of the program; names: {sorted(info.names)}"
            )
        return found
    if isinstance(target, Value):
        if is_sparse_value(target):
            raise InvalidArgumentError(
                f"Executor.run(): fetch_list item of type {target.type} is a sparse tensor; "
                "fetch a dense Value (its to_dense(), values() or indices()), as PaddlePaddle "
                "3.3.1 fetches dense tensors only"
            )
        return target
    raise InvalidArgumentError(
        f"Executor.run(): fetch_list items must be Values or names, got "
        f"{type(target).__name__} {target!r}"
    )


def _compile_op(builder: PlanBuilder, index: int, op: Operation) -> None:
    first = len(builder.ops)
    where = builder.where(index, op)
    builder.compile_op_steps(op, where)
    for step in builder.ops[first:]:
        step.label = where


def _compile_op_steps(builder: PlanBuilder, op: Operation, where: str) -> None:
    """Append the steps of ``op``: control flow, a builtin op, or a ``pd_op`` kernel."""
    name = op.name
    control_flow = CONTROL_FLOW_STEPS.get(name)
    if control_flow is not None:
        control_flow(builder, op, where)
        return
    if op.regions:
        raise UnimplementedError(
            f"Executor: {where}: the executor runs the regions of pd_op.if and pd_op.while " "only"
        )
    builtin = BUILTIN_STEPS.get(name) or TENSOR_ARRAY_STEPS.get(name)
    if builtin is not None:
        builtin(builder, op, where)
        return
    if is_sparse_op(name):
        compile_sparse_op(builder, op, where)
        return
    if not name.startswith("pd_op.") and not is_op_package_dialect(op.dialect):
        raise UnimplementedError(
            f"Executor: {where}: the executor cannot run dialect " f"'{op.dialect}' ops"
        )
    compile_kernel_op(builder, op, where)
