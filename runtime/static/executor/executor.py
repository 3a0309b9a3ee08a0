"""Executor: runs a static program with kernels selected ahead of time (DESIGN.md §6).

``Executor.run(program, feed, fetch_list, scope)`` compiles the program's top-level block once
per *feed signature* (the shapes of the fed arrays and the fetch targets; a plan also remembers
the shapes and dtypes of the parameters it was made for, and is made anew when they change):
every operation is planned with its op's dispatcher (``plan`` from runtime/dispatch/dispatcher.py:
kernel, data transforms, concrete output metas), attributes that PaddlePaddle passes as tensors
from constant ops (``full_int_array``, ``full``) are folded into the plan, and each operation
becomes one *step*, a closure over the planned kernel, its attributes and the slots its inputs and
outputs live in. The first run of a plan also checks every kernel's
result against its planned metas (``check_outputs``), once; later runs only call the steps.

Values live in a list of slots; a slot is emptied right after the last step that reads it (a
fetched value is kept until the end). An in-place op (``sgd_``, ``batch_norm_``, ``relu_``)
writes its output into its input's slot, and where that input is a scope variable (a parameter,
a persistable ``data``) the step also stores the new array in the scope, as PaddlePaddle does.
"""

from __future__ import annotations

import time
import weakref
from typing import Any, Callable, Sequence

import numpy as np

from phiops.runtime import runtime_flags
from phiops.runtime.common import Backend, CPUPlace, DataLayout, DataType, Place, to_place
from phiops.runtime.common.data_type import from_numpy_dtype
from phiops.runtime.core.dense_tensor import DenseTensorMeta
from phiops.runtime.core.tensor import wrap_array
from phiops.runtime.device import check_place_available, module_of, to_backend
from phiops.runtime.dispatch.dispatcher import check_outputs, execute
from phiops.runtime.dispatch.op_def import OP_DEFS, OpDef
from phiops.runtime.errors import (
    InvalidArgumentError,
    NotFoundError,
    PhiError,
    PreconditionNotMetError,
    UnimplementedError,
)
from phiops.runtime.ir.core import Block, Operation, Program, Value
from phiops.runtime.ir.dialect import get_dialect
from phiops.runtime.ir.types import DenseTensorType, NullType, VectorType
from phiops.runtime.static.executor.arrays import array_meta, meta_of_array, to_numpy
from phiops.runtime.static.executor.attributes import (
    NORMALISERS,
    TENSOR_ATTRIBUTE_TYPES,
    Computed,
    attribute_value,
    default,
    scalar_of,
)
from phiops.runtime.static.executor.feeds import feed_arrays, scope_arrays
from phiops.runtime.static.executor.metas import (
    check_fits,
    dtype_of,
    extents_unknown,
    has_unknown_dims,
    rank_only,
)
from phiops.runtime.static.executor.program_info import ProgramInfo
from phiops.runtime.static.pd_op_names import PdOpNames, pd_op_names, result_positions
from phiops.runtime.static.scope import Scope, global_scope

__all__ = ["Executor", "clear_executor_plans"]

_PLAN_LIMIT = 64  # plans kept per program (one per feed signature); more clears them
_PROGRAM_LIMIT = 64  # programs an executor keeps plans for; more clears them
# every executor, so a dispatch flag change (kernel fallback, ...) drops their plans
_EXECUTORS: weakref.WeakSet[Executor] = weakref.WeakSet()


def clear_executor_plans() -> None:
    """Forget every compiled plan (after a flag that changes dispatch was set)."""
    for executor in list(_EXECUTORS):
        for _, plans in executor._programs.values():
            plans.clear()


runtime_flags.on_dispatch_flag_change(clear_executor_plans)
_SCOPE_SLOT = 0  # slot 0 holds the scope of the current run, for the steps that write to it


class Executor:
    """Runs programs on ``place`` (CPU when None). ``run`` plans a program once per feed
    signature and caches the plan; see the module docstring."""

    def __init__(self, place: Place | str | None = None) -> None:
        self.place = CPUPlace() if place is None else to_place(place, "Executor(place)")
        check_place_available(self.place, "Executor")
        # id of the program's module op -> what the executor knows of it and its plans per
        # feed signature; an entry keeps its program alive (its plans refer to the program's
        # values), so the count is bounded
        self._programs: dict[int, tuple[ProgramInfo, dict[tuple, _Plan]]] = {}
        self._profile: list[tuple[str, str, float]] | None = None
        _EXECUTORS.add(self)

    def run_profiled(
        self,
        program: Program,
        feed: dict[str, Any] | None = None,
        fetch_list: Sequence[Value | str] | Value | str | None = None,
        scope: Scope | None = None,
    ) -> tuple[list[Any], list[tuple[str, str, float]]]:
        """``run`` (numpy results) timing each step of the plan: returns the fetched arrays and,
        per step, (the op, as errors name it; the kernel it selected ahead of time, or "" for
        a builtin step; seconds). On the first run for a feed signature the times include
        checking each result against its planned meta."""
        self._profile = []
        try:
            results = self.run(program, feed, fetch_list, scope)
            return results, self._profile
        finally:
            self._profile = None

    def run(
        self,
        program: Program,
        feed: dict[str, Any] | None = None,
        fetch_list: Sequence[Value | str] | Value | str | None = None,
        scope: Scope | None = None,
        return_numpy: bool = True,
    ) -> list[Any]:
        """Run ``program`` with the arrays of ``feed`` (data name -> array, Tensor or nested
        list) and return the arrays of ``fetch_list`` (Values of the program, or names: a
        ``pd_op.fetch`` name, a ``shadow_output`` name, a ``data`` name or a parameter name), as
        numpy arrays or, with ``return_numpy=False``, Tensors. Without ``fetch_list`` the
        program's own ``pd_op.fetch`` ops are fetched. Parameters are read from and written to
        ``scope`` (the global scope when None)."""
        if not isinstance(program, Program):
            raise InvalidArgumentError(
                f"Executor.run(): program must be a Program, got {type(program).__name__}"
            )
        if scope is None:
            scope = global_scope()
        elif not isinstance(scope, Scope):
            raise InvalidArgumentError(
                f"Executor.run(): scope must be a Scope, got {type(scope).__name__}"
            )
        if feed is None:
            feed = {}
        elif not isinstance(feed, dict):
            raise InvalidArgumentError(
                f"Executor.run(): feed must be a dict of data name -> array, got "
                f"{type(feed).__name__}"
            )
        module = program.module
        known = self._programs.get(id(module))
        if (
            known is None
            or known[0].module is not module
            or len(known[0].block.ops) != known[0].num_ops
        ):
            if len(self._programs) >= _PROGRAM_LIMIT:
                self._programs.clear()
            known = self._programs[id(module)] = (ProgramInfo(program), {})
        info, plans = known
        if fetch_list is None:
            fetch_key: tuple = ()
        elif isinstance(fetch_list, (Value, str)):
            fetch_key = (fetch_list,)
        else:
            fetch_key = tuple(fetch_list)
        fed, feed_key = feed_arrays(info.feeds, info.feed_names, feed, self.place, scope)
        param_arrays = scope_arrays(info.params, scope, self.place)
        key = (feed_key, fetch_key)
        plan = plans.get(key)
        if plan is None or not plan.fits(param_arrays):
            if len(plans) >= _PLAN_LIMIT:
                plans.clear()
            plan = plans[key] = _compile(info, self.place, fed, param_arrays, fetch_key)
        if self._profile is not None:
            results, timings = plan.run_profiled(scope, fed, param_arrays)
            self._profile.extend(timings)
        else:
            results = plan.run(scope, fed, param_arrays)
        if return_numpy:
            return [r if type(r) is np.ndarray else to_numpy(r) for r in results]
        return [
            wrap_array(r, meta if r.shape == meta.dims else meta_of_array(r, meta))
            for r, meta in zip(results, plan.fetch_metas)
        ]


class _OpStep:
    """One op of a compiled program: ``core`` moves arrays between slots (runs the kernel);
    ``writes`` are (slot, name) pairs stored in the scope after it; ``releases`` the slots
    emptied after it; ``check`` is (where, KernelPlan, OpInfo) for a kernel op, whose first
    result is checked against the plan's metas."""

    __slots__ = ("core", "out_slots", "many", "check", "writes", "releases", "kernel", "label")

    def __init__(
        self,
        core: Callable[[list], None],
        out_slots: tuple[int, ...] = (),
        many: bool = False,
        check: tuple | None = None,
        writes: tuple[tuple[int, str], ...] = (),
        kernel: tuple | None = None,
    ) -> None:
        self.core = core
        self.out_slots = out_slots
        self.many = many
        self.check = check
        self.writes = writes
        self.releases: tuple[int, ...] = ()
        # (run, args) of a kernel op, from which ``fast`` builds one closure with its release
        self.kernel = kernel
        self.label = ""  # the op it runs, as errors name it (set by _Compiler.compile_op)

    def fast(self) -> Callable[[list], None]:
        """``core``, its scope writes and its releases as one closure."""
        if self.kernel is not None and not self.writes and self.releases:
            run, args = self.kernel
            fused = _kernel_step(run, args, self.out_slots, self.many, self.releases)
            if fused is not None:
                return fused
        step = self.core
        if self.writes:
            step = _with_scope_writes(step, self.writes)
        if self.releases:
            step = _with_release(step, self.releases)
        return step


class _Plan:
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
    )

    def __init__(self) -> None:
        self.num_slots = 1
        self.feed_slots: list[int] = []
        self.param_slots: list[int] = []
        self.ops: list[_OpStep] = []
        self.steps: tuple[Callable[[list], None], ...] | None = None
        self.fetch_slots: list[int] = []
        self.fetch_metas: list[DenseTensorMeta] = []
        self.fetch_copies: list[bool] = []
        self.param_metas: list[tuple[tuple[int, ...], np.dtype]] = []

    def fits(self, param_arrays: list) -> bool:
        """Whether the parameters have the shapes and dtypes this plan was made for (else the
        executor plans anew, for the parameters the scope holds now)."""
        for array, (shape, dtype) in zip(param_arrays, self.param_metas):
            if array.shape != shape or array.dtype is not dtype and array.dtype != dtype:
                return False
        return True

    def run(self, scope: Scope, feed_arrays: list, param_arrays: list) -> list:
        slots: list[Any] = [None] * self.num_slots
        slots[_SCOPE_SLOT] = scope
        for slot, array in zip(self.feed_slots, feed_arrays):
            slots[slot] = array
        for slot, array in zip(self.param_slots, param_arrays):
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
        slots[_SCOPE_SLOT] = scope
        for slot, array in zip(self.feed_slots, feed_arrays):
            slots[slot] = array
        for slot, array in zip(self.param_slots, param_arrays):
            slots[slot] = array
        timings: list[tuple[str, str, float]] = []
        if self.steps is None:
            self._run_checked(slots, timings)
        else:
            clock = time.perf_counter
            for op, step in zip(self.ops, self.steps):
                start = clock()
                step(slots)
                timings.append((op.label, _kernel_text(op), clock() - start))
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
        _run_checked(self.ops, slots, timings)
        self.steps = tuple(op.fast() for op in self.ops)


def _run_checked(
    ops: list[_OpStep], slots: list, timings: list[tuple[str, str, float]] | None = None
) -> None:
    """Run ``ops`` checking each kernel's result against its planned metas."""
    for op in ops:
        if timings is None:
            op.core(slots)
        else:
            start = time.perf_counter()
            op.core(slots)
            timings.append((op.label, _kernel_text(op), time.perf_counter() - start))
        if op.check is not None:
            where, kernel_plan, op_info = op.check
            result = (
                tuple(slots[slot] for slot in op.out_slots) if op.many else slots[op.out_slots[0]]
            )
            try:
                check_outputs(kernel_plan, result, op_info)
            except PhiError as error:
                raise type(error)(f"{where}: {error}") from None
        scope = slots[_SCOPE_SLOT]
        for slot, name in op.writes:
            scope.var(name).array = slots[slot]
        for slot in op.releases:
            slots[slot] = None


class _RegionSteps:
    """The steps of a block of `pd_op.if` / `pd_op.while`, planned with the program: its first
    run checks each kernel's result, as a plan's first run does; later runs only call steps."""

    __slots__ = ("ops", "steps")

    def __init__(self, ops: list[_OpStep]) -> None:
        self.ops = ops
        self.steps: tuple[Callable[[list], None], ...] | None = None

    def run(self, slots: list) -> None:
        steps = self.steps
        if steps is None:
            _run_checked(self.ops, slots)
            self.steps = tuple(op.fast() for op in self.ops)
        else:
            for step in steps:
                step(slots)


def _kernel_text(op: _OpStep) -> str:
    if op.check is None:
        return ""
    kernel = op.check[1].kernel
    key = kernel.key
    return (
        f"{kernel.fn.__module__}.{kernel.fn.__qualname__} "
        f"[{key.backend.name}, {key.layout.name}, {key.dtype.name}]"
    )


def _compile(
    info: ProgramInfo, place: Place, feed_arrays: list, param_arrays: list, fetch_key: tuple
) -> _Plan:
    return _Compiler(info, place).compile(feed_arrays, param_arrays, fetch_key)


class _Compiler:
    """Plans every operation of one program for one feed signature and builds its steps."""

    def __init__(self, info: ProgramInfo, place: Place) -> None:
        self.info = info
        self.place = place
        self.plan = _Plan()
        self.slot_of: dict[Value, int] = {}
        self.meta_of: dict[Value, Any] = {}
        self.constant_of: dict[Value, Any] = {}
        self.scope_name_of: dict[Value, str] = {}
        self.numbering: dict[Value, str] = {}
        self.last_use: dict[Value, int] = {}
        self.slot_last: dict[int, int] = {}
        # slot of a cf stack -> the metas of what its tuple_push pushes (for its tuple_pop)
        self.pushed: dict[int, list] = {}
        # > 0 while planning the body of a while loop that carries values of changing extents:
        # PaddlePaddle types the body's ops before it knows the extents change, so the declared
        # extents of ops planned when they run are not checked there (dtype and rank are)
        self.loose_extents = 0

    # -- slots and lifetimes -----------------------------------------------------------------
    def new_slot(self, value: Value) -> int:
        slot = self.slot_of[value] = self.plan.num_slots
        self.plan.num_slots += 1
        self.slot_last[slot] = self.last_use.get(value, -1)
        return slot

    def share_slot(self, value: Value, source: Value) -> None:
        """``value`` lives in ``source``'s slot (an in-place output, a fetch); the slot is kept
        until the last reader of either."""
        slot = self.slot_of[value] = self.slot_of[source]
        self.slot_last[slot] = max(self.slot_last[slot], self.last_use.get(value, -1))

    def compile(self, feed_arrays: list, param_arrays: list, fetch_key: tuple) -> _Plan:
        info, plan = self.info, self.plan
        block = info.block
        self.number_values(block)
        fetched = [self.fetch_target(target) for target in fetch_key] or list(info.fetch_ops)
        self.last_use = self.last_uses(block, fetched)
        for feed, array in zip(info.feeds, feed_arrays):
            self.meta_of[feed.value] = self.meta(array, feed.dtype)
            plan.feed_slots.append(self.new_slot(feed.value))
            if feed.persistable:
                self.scope_name_of[feed.value] = feed.name
        for (name, value), array in zip(info.params, param_arrays):
            self.meta_of[value] = self.meta(array, from_numpy_dtype(array.dtype))
            self.check_declared(value, self.meta_of[value], f"parameter '{name}'")
            plan.param_slots.append(self.new_slot(value))
            plan.param_metas.append((array.shape, array.dtype))
            self.scope_name_of[value] = name
        for index, op in enumerate(block.ops):
            self.compile_op(index, op)
            self.release(index, op)
        for value in fetched:
            if value not in self.slot_of:
                raise PreconditionNotMetError(
                    f"Executor.run(): fetch target {self.numbering.get(value, value)} is not "
                    "computed by the program's top-level block"
                )
            if self.meta_of[value] is None:
                raise InvalidArgumentError(
                    f"Executor.run(): fetch target {self.numbering.get(value, value)} holds no "
                    f"array: {value.define_op.name} leaves that optional output unset"
                )
            plan.fetch_slots.append(self.slot_of[value])
            plan.fetch_metas.append(self.meta_of[value])
            plan.fetch_copies.append(value in self.scope_name_of)
        return plan

    def fetch_target(self, target: Any) -> Value:
        if isinstance(target, str):
            found = self.info.names.get(target)
            if found is None:
                raise NotFoundError(
                    f"Executor.run(): fetch name '{target}' names no fetch, shadow_output, data "
                    f"or parameter of the program; names: {sorted(self.info.names)}"
                )
            return found
        if isinstance(target, Value):
            return target
        raise InvalidArgumentError(
            f"Executor.run(): fetch_list items must be Values or names, got "
            f"{type(target).__name__} {target!r}"
        )

    def last_uses(self, block: Block, fetched: list[Value]) -> dict[Value, int]:
        """For each value, the index of the last top-level op that reads it (-1: none); fetched
        values are never released."""
        last: dict[Value, int] = {}
        for index, op in enumerate(block.ops):
            for operand in _operands_within(op):
                last[operand] = index
        for value in fetched:
            last[value] = len(block.ops)
        return last

    def release(self, index: int, op: Operation) -> None:
        """Empty the slots whose last reader is op ``index`` (or, for results nobody reads, op
        ``index`` itself), by appending the releases to the last step so far."""
        slots = set()
        for value in [*_operands_within(op), *op.results]:
            slot = self.slot_of.get(value)
            if slot is not None and slot != _SCOPE_SLOT and self.slot_last[slot] <= index:
                slots.add(slot)
        if slots and self.plan.ops:
            last = self.plan.ops[-1]
            last.releases = tuple(sorted(set(last.releases) | slots))

    # -- metas -------------------------------------------------------------------------------
    def meta(self, array: Any, dtype: DataType) -> DenseTensorMeta:
        return DenseTensorMeta.get(dtype, tuple(array.shape), DataLayout.NCHW, self.place)

    def number_values(self, block: Block) -> None:
        from phiops.runtime.ir.printer import Namer

        namer = Namer()
        namer.name_block(block)
        self.numbering = dict(namer.names)

    def where(self, index: int, op: Operation) -> str:
        results = ", ".join(self.numbering.get(v, "?") for v in op.results)
        return f"{op.name} (op {index}{', ' + results if results else ''})"

    def check_declared(self, value: Value, meta: Any, where: str) -> None:
        """PreconditionNotMetError unless ``meta`` fits the value's declared type."""
        check_fits(meta, value.type, where)

    def declared_meta(self, value: Value, where: str) -> Any:
        """The meta a value's declared type gives (-1 where it does not know a dim), for the
        results of an op planned when it runs; None for an absent (null) result."""
        declared = value.type
        if isinstance(declared, VectorType):
            return tuple(self.declared_meta_of_type(t, where) for t in declared.types)
        return self.declared_meta_of_type(declared, where)

    def declared_meta_of_type(self, declared: Any, where: str) -> Any:
        if isinstance(declared, NullType):
            return None
        if not isinstance(declared, DenseTensorType):
            raise UnimplementedError(
                f"{where}: the executor cannot hold a value of type {declared}"
            )
        dtype = dtype_of(declared.element, where)
        return DenseTensorMeta.get(dtype, tuple(declared.dims), DataLayout.NCHW, self.place)

    # -- one operation -----------------------------------------------------------------------
    def compile_op(self, index: int, op: Operation) -> None:
        first = len(self.plan.ops)
        where = self.where(index, op)
        self.compile_op_steps(op, where)
        for step in self.plan.ops[first:]:
            step.label = where

    def compile_op_steps(self, op: Operation, where: str) -> None:
        name = op.name
        control_flow = _CONTROL_FLOW_STEPS.get(name)
        if control_flow is not None:
            control_flow(self, op, where)
            return
        if op.regions:
            raise UnimplementedError(
                f"Executor: {where}: the executor runs the regions of pd_op.if and pd_op.while "
                "only"
            )
        builtin = _BUILTIN_STEPS.get(name)
        if builtin is not None:
            builtin(self, op, where)
            return
        if not name.startswith("pd_op."):
            raise UnimplementedError(
                f"Executor: {where}: the executor cannot run dialect " f"'{op.dialect}' ops"
            )
        self.compile_kernel_op(op, where)

    def compile_kernel_op(self, op: Operation, where: str) -> None:
        op_def, inplace = _op_def_for(op.name, where)
        info = op_def.info
        row = get_dialect("pd_op").lookup(op.name)
        names = pd_op_names(info.name)
        operand_index = (
            {names.phiops_name(o.name): i for i, o in enumerate(row.operands)} if row else {}
        )
        if row is not None:
            _check_pd_op_only(op, row, names, where)
        inputs: list[Value | None] = []
        metas = []
        for spec in info.inputs:
            position = operand_index.get(spec.name)
            value = op.operands[position] if position is not None else None
            if value is None and not spec.optional:
                raise InvalidArgumentError(f"{where}: input '{spec.name}' is missing")
            inputs.append(value)
            metas.append(None if value is None else self.meta_of[value])
        attrs = tuple(
            self.attribute(op, op_def, spec, operand_index, names, where) for spec in info.attrs
        )
        output_names = [output.name for output in info.outputs]
        if row is not None and not row.variadic_results and len(row.results) == len(op.results):
            results = [op.results[i] for i in result_positions(info.name, row, output_names)]
        elif len(op.results) == len(info.outputs):
            results = list(op.results)
        else:
            raise PreconditionNotMetError(
                f"{where}: the op has {len(op.results)} results, phiops' op '{info.name}' has "
                f"{len(info.outputs)} outputs"
            )
        late = any(has_unknown_dims(m) for m in metas) or any(
            isinstance(a, Computed) for a in attrs
        )
        if late:
            # planned when it runs: its input dims or attributes depend on the data
            kernel_plan = None
            out_metas = tuple(self.declared_meta(value, where) for value in results)
            if self.loose_extents:
                out_metas = tuple(extents_unknown(meta) for meta in out_metas)
        else:
            try:
                kernel_plan = op_def.dispatcher.plan(tuple(metas), attrs)
            except PhiError as error:
                raise type(error)(f"{where}: {error}") from None
            out_metas = kernel_plan.out_metas if len(info.outputs) > 1 else (kernel_plan.out_metas,)
        for value, meta in zip(results, out_metas):
            self.check_declared(value, meta, where)
            self.meta_of[value] = meta
        # in-place: the output takes its input's slot (later readers of the input see it)
        writes_scope: list[tuple[int, str]] = []
        output_index = {o.name: i for i, o in enumerate(info.outputs)}
        input_index = {i.name: k for k, i in enumerate(info.inputs)}
        for in_name, out_name in inplace:
            source = inputs[input_index[in_name]]
            target = results[output_index[out_name]]
            if source is None or isinstance(target.type, NullType):
                continue
            self.share_slot(target, source)
            scope_name = self.scope_name_of.get(source)
            if scope_name is not None:
                self.scope_name_of[target] = scope_name
                writes_scope.append((self.slot_of[target], scope_name))
        out_slots = tuple(
            self.slot_of[v] if v in self.slot_of else self.new_slot(v) for v in results
        )
        many = len(info.outputs) > 1
        if kernel_plan is None:
            input_slots = tuple(None if v is None else self.slot_of[v] for v in inputs)
            declared = [r.type for r in results]
            if self.loose_extents:
                declared = [rank_only(t) for t in declared]
            step = _late_step(op_def, where, input_slots, attrs, out_slots, many, declared)
            if runtime_flags.SWITCHES.check_nan_inf:
                step = _checking_nan_inf(step, out_slots, info, where)
            self.plan.ops.append(_OpStep(step, out_slots, many, None, tuple(writes_scope)))
            return
        args = []
        for is_input, position in kernel_plan.arguments:
            if is_input:
                value = inputs[position]
                args.append((True, None if value is None else self.slot_of[value]))
            else:
                args.append((False, attrs[position]))
        step = _kernel_step(kernel_plan.run, tuple(args), out_slots, many)
        fusable: tuple | None = (kernel_plan.run, tuple(args))
        if runtime_flags.SWITCHES.check_nan_inf:
            step = _checking_nan_inf(step, out_slots, info, where)
            fusable = None
        self.plan.ops.append(
            _OpStep(step, out_slots, many, (where, kernel_plan, info), tuple(writes_scope), fusable)
        )
        self.constant_fold(op, attrs, info)

    def constant_fold(self, op: Operation, attrs: tuple, info: Any) -> None:
        """Remember the value of ``full``/``full_int_array`` results: other ops read them as
        IntArray or Scalar attributes."""
        if op.name == "pd_op.full_int_array":
            self.constant_of[op.results[0]] = list(attrs[info.attr_names.index("value")])
        elif op.name == "pd_op.full":
            shape = attrs[info.attr_names.index("shape")]
            value = attrs[info.attr_names.index("value")]
            dtype = attrs[info.attr_names.index("dtype")]
            kind = dtype.numpy_dtype.kind
            number: Any = bool(value) if kind == "b" else int(value) if kind in "iu" else value
            count = 1
            for extent in shape:
                count *= extent
            self.constant_of[op.results[0]] = [number] * count if shape else number

    def attribute(
        self,
        op: Operation,
        op_def: OpDef,
        spec: Any,
        operand_index: dict,
        names: PdOpNames,
        where: str,
    ) -> Any:
        """The normalised value of attribute ``spec``: from the op's attributes, from a constant
        operand, or the op's default."""
        name = spec.name
        position = operand_index.get(name)
        if position is not None and position < len(op.operands):
            value = op.operands[position]
            if value is None:
                raw = default(op_def, name, where)
            elif value in self.constant_of:
                raw = self.constant_of[value]
                if spec.type.startswith("Scalar") and not spec.type.endswith("[]"):
                    raw = scalar_of(raw)
            else:
                normalise = NORMALISERS.get(spec.type)
                if normalise is None or spec.type not in TENSOR_ATTRIBUTE_TYPES:
                    raise UnimplementedError(
                        f"{where}: attribute '{name}' of type {spec.type} comes from a tensor"
                    )
                return Computed(self.slot_of[value], spec.type, normalise, op_def.name, name)
        elif names.pd_op_name(name) in op.attributes:
            attribute = op.attributes[names.pd_op_name(name)]
            raw = attribute_value(attribute, spec.type, self.place, where)
        elif name in names.phiops_only:
            raw = names.phiops_only[name]
        else:
            raw = default(op_def, name, where)
        normalise = NORMALISERS.get(spec.type)
        if normalise is None:
            raise UnimplementedError(
                f"{where}: attribute '{name}' has type {spec.type}, which "
                "the executor cannot normalise"
            )
        try:
            value = normalise(raw, op_def.name, name)
        except PhiError as error:
            raise type(error)(f"{where}: {error}") from None
        if spec.type == "Place" and not value.is_defined:
            return self.place
        return value

    # -- control flow ------------------------------------------------------------------------
    def compile_region(self, block: Block, outer: str) -> tuple[_RegionSteps, list[Value]]:
        """The steps of a region's block and the values its `cf.yield` yields (none without
        one); its ops are named in errors as ``op (results) in <the op holding the region>``."""
        saved = self.plan.ops
        self.plan.ops = []
        yielded: list[Value] = []
        try:
            for position, op in enumerate(block.ops):
                if op.name == "cf.yield":
                    if position != len(block.ops) - 1:
                        raise InvalidArgumentError(
                            f"{outer}: cf.yield is not the last op of its block"
                        )
                    yielded = list(op.operands)
                    continue
                results = ", ".join(self.numbering.get(v, "?") for v in op.results)
                where = f"{op.name} ({results}) in {outer}" if results else f"{op.name} in {outer}"
                first = len(self.plan.ops)
                self.compile_op_steps(op, where)
                for step in self.plan.ops[first:]:
                    step.label = where
            return _RegionSteps(self.plan.ops), yielded
        finally:
            self.plan.ops = saved

    def check_predicate(self, value: Value, where: str, what: str) -> None:
        """A condition is a bool tensor of one element (0-d, [1], [1, 1] ...)."""
        meta = self.meta_of[value]
        count = 1
        for extent in meta.dims if isinstance(meta, DenseTensorMeta) else ():
            count *= extent
        if (
            not isinstance(meta, DenseTensorMeta)
            or meta.dtype is not DataType.BOOL
            or count not in (1, -1)
        ):
            got = (
                f"{meta.dtype.name.lower()} {list(meta.dims)}"
                if isinstance(meta, DenseTensorMeta)
                else str(value.type)
            )
            raise InvalidArgumentError(
                f"{where}: {what} {self.numbering.get(value, '?')} must be a bool tensor of one "
                f"element, got {got}"
            )

    def compile_if(self, op: Operation, where: str) -> None:
        """`pd_op.if`: both branches are planned now; running, the step runs the branch the
        condition selects and its yielded arrays become the results."""
        pred = op.operands[0]
        self.check_predicate(pred, where, "the condition")
        start = self.plan.num_slots
        true_steps, true_values = self.compile_region(op.regions[0].blocks[0], where)
        false_steps, false_values = self.compile_region(op.regions[1].blocks[0], where)
        nested = tuple(range(start, self.plan.num_slots))
        for branch, values in (("true", true_values), ("false", false_values)):
            if len(values) != len(op.results):
                raise InvalidArgumentError(
                    f"{where}: the {branch} branch yields {len(values)} value(s), the op has "
                    f"{len(op.results)} result(s)"
                )
        for index, (value, on_true, on_false) in enumerate(
            zip(op.results, true_values, false_values)
        ):
            meta = _joined_meta(self.meta_of[on_true], self.meta_of[on_false], where, index)
            self.check_declared(value, meta, where)
            self.meta_of[value] = meta
        out_slots = tuple(self.new_slot(v) for v in op.results)
        step = _if_step(
            self.slot_of[pred],
            (true_steps, tuple(self.slot_of[v] for v in true_values)),
            (false_steps, tuple(self.slot_of[v] for v in false_values)),
            out_slots,
            nested,
            where,
        )
        self.plan.ops.append(_OpStep(step, out_slots))

    def compile_while(self, op: Operation, where: str) -> None:
        """`pd_op.while`: the body is planned once, for the inputs' metas (-1 where the body's
        arguments declare an extent unknown); a value the body yields must fit its argument's
        meta, else the carried value would change between iterations, which is an error naming
        it. Running, the step copies the inputs into the arguments and runs the body while the
        condition holds."""
        cond, inputs = op.operands[0], op.operands[1:]
        body = op.regions[0].blocks[0]
        if not len(body.args) == len(inputs) == len(op.results):
            raise InvalidArgumentError(
                f"{where}: {len(inputs)} input(s), {len(body.args)} block argument(s) and "
                f"{len(op.results)} result(s) must be as many"
            )
        self.check_predicate(cond, where, "the condition")
        start = self.plan.num_slots
        loose = False
        for arg, value in zip(body.args, inputs):
            self.meta_of[arg] = _with_unknown_dims(self.meta_of[value], arg.type)
            loose = loose or self.meta_of[arg] != self.meta_of[value]
            self.check_declared(arg, self.meta_of[arg], where)
            self.new_slot(arg)
        self.loose_extents += loose
        try:
            steps, yielded = self.compile_region(body, where)
        finally:
            self.loose_extents -= loose
        nested = tuple(range(start, self.plan.num_slots))
        if len(yielded) != len(inputs) + 1:
            raise InvalidArgumentError(
                f"{where}: the body yields {len(yielded)} value(s), it must yield the next "
                f"condition and {len(inputs)} loop value(s)"
            )
        self.check_predicate(yielded[0], where, "the next condition")
        runtime_checks = []
        for k, (arg, value) in enumerate(zip(body.args, yielded[1:])):
            entry, meta = self.meta_of[arg], self.meta_of[value]
            if not _carried_fits(meta, entry):
                raise InvalidArgumentError(
                    f"{where}: loop value {k} ({self.numbering.get(arg, '?')}) is "
                    f"{_meta_text(entry)} on entry, but the body yields {_meta_text(meta)} for "
                    f"it ({self.numbering.get(value, '?')}): a carried value keeps its dtype and "
                    "shape between iterations, unless the program declares an extent unknown (-1)"
                )
            if has_unknown_dims(meta) and not has_unknown_dims(entry):
                runtime_checks.append((k, tuple(entry.dims), self.numbering.get(arg, "?")))
        for value, arg in zip(op.results, body.args):
            self.check_declared(value, self.meta_of[arg], where)
            self.meta_of[value] = self.meta_of[arg]
        out_slots = tuple(self.new_slot(v) for v in op.results)
        step = _while_step(
            self.slot_of[cond],
            tuple(self.slot_of[v] for v in inputs),
            tuple(self.slot_of[a] for a in body.args),
            steps,
            tuple(self.slot_of[v] for v in yielded),
            out_slots,
            nested,
            tuple(runtime_checks),
            where,
        )
        self.plan.ops.append(_OpStep(step, out_slots))

    def compile_stack_create(self, op: Operation, where: str) -> None:
        """`cf.stack_create`: its stack, inlet and outlet are one list in one slot."""
        stack, inlet, outlet = op.results
        slot = self.new_slot(stack)
        for value in op.results:
            self.meta_of[value] = None
        self.share_slot(inlet, stack)
        self.share_slot(outlet, stack)
        self.plan.ops.append(_OpStep(_new_stack_step(slot), (slot,)))

    def compile_tuple_push(self, op: Operation, where: str) -> None:
        inlet, values = op.operands[0], op.operands[1:]
        slot = self.slot_of[inlet]
        self.pushed[slot] = [self.meta_of[v] for v in values]
        sources = tuple(self.slot_of[v] for v in values)
        self.plan.ops.append(_OpStep(_push_step(slot, sources)))

    def compile_tuple_pop(self, op: Operation, where: str) -> None:
        slot = self.slot_of[op.operands[0]]
        pushed = self.pushed.get(slot)
        if pushed is None or len(pushed) != len(op.results):
            raise InvalidArgumentError(
                f"{where}: pops {len(op.results)} value(s) from a stack that "
                + ("nothing pushes to before it" if pushed is None else f"gets {len(pushed)}")
            )
        for value, meta in zip(op.results, pushed):
            self.check_declared(value, meta, where)
            self.meta_of[value] = meta
        targets = tuple(self.new_slot(v) for v in op.results)
        self.plan.ops.append(_OpStep(_pop_step(slot, targets, where), targets))

    def compile_has_elements(self, op: Operation, where: str) -> None:
        value = op.results[0]
        self.meta_of[value] = DenseTensorMeta.get(DataType.BOOL, (1,), DataLayout.NCHW, self.place)
        self.check_declared(value, self.meta_of[value], where)
        target = self.new_slot(value)
        self.plan.ops.append(
            _OpStep(_has_elements_step(self.slot_of[op.operands[0]], target, self.place), (target,))
        )

    # -- builtin and framework ops -----------------------------------------------------------
    def compile_placed(self, op: Operation, where: str) -> None:
        """pd_op.data, builtin.parameter: no step; their arrays are placed in their slots
        (made by ``compile``) before the steps run."""

    def compile_set_parameter(self, op: Operation, where: str) -> None:
        self.compile_scope_write(op, op.attributes["parameter_name"].value)

    def compile_shadow_output(self, op: Operation, where: str) -> None:
        self.compile_scope_write(op, op.attributes["output_name"].value)

    def compile_scope_write(self, op: Operation, name: str) -> None:
        self.plan.ops.append(_OpStep(_nothing, writes=((self.slot_of[op.operands[0]], name),)))

    def compile_alias(self, op: Operation, where: str) -> None:
        """pd_op.fetch: its result is its operand's array."""
        source = op.operands[0]
        self.meta_of[op.results[0]] = self.meta_of[source]
        self.share_slot(op.results[0], source)
        if source in self.scope_name_of:
            self.scope_name_of[op.results[0]] = self.scope_name_of[source]

    def compile_combine(self, op: Operation, where: str) -> None:
        sources = tuple(self.slot_of[v] for v in op.operands)
        value = op.results[0]
        self.meta_of[value] = tuple(self.meta_of[v] for v in op.operands)
        if all(v in self.constant_of for v in op.operands):
            self.constant_of[value] = [scalar_of(self.constant_of[v]) for v in op.operands]
        self.plan.ops.append(_OpStep(_combine_step(sources, self.new_slot(value))))

    def compile_split(self, op: Operation, where: str) -> None:
        source = op.operands[0]
        metas = self.meta_of[source]
        if len(metas) != len(op.results):
            raise PreconditionNotMetError(
                f"{where}: splits a list of {len(metas)} tensors into {len(op.results)} results"
            )
        for value, meta in zip(op.results, metas):
            self.check_declared(value, meta, where)
            self.meta_of[value] = meta
        targets = tuple(self.new_slot(v) for v in op.results)
        self.plan.ops.append(_OpStep(_split_step(self.slot_of[source], targets)))

    def compile_slice(self, op: Operation, where: str) -> None:
        source = op.operands[0]
        index = op.attributes["index"].value
        value = op.results[0]
        self.meta_of[value] = self.meta_of[source][index]
        self.plan.ops.append(
            _OpStep(_slice_step(self.slot_of[source], index, self.new_slot(value)))
        )

    def compile_assign_value(self, op: Operation, where: str) -> None:
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
        constant = to_backend(constant, self.place)
        value = op.results[0]
        self.meta_of[value] = self.meta(constant, dtype)
        self.check_declared(value, self.meta_of[value], where)
        self.constant_of[value] = values if shape else values[0]
        # in place: the operand's value is the assigned array from here on, as in PaddlePaddle
        operand = op.operands[0] if op.operands else None
        if operand is not None:
            self.share_slot(value, operand)
            self.meta_of[operand] = self.meta_of[value]
        target = self.slot_of[value] if value in self.slot_of else self.new_slot(value)
        self.plan.ops.append(_OpStep(_constant_step(constant, target)))

    def compile_full_with_tensor(self, op: Operation, where: str) -> None:
        """pd_op.full_with_tensor(value, shape) {dtype}: a tensor of the extents that
        ``shape``'s array holds, filled with ``value``'s one element in ``dtype`` (both read
        each run)."""
        value_slot, shape_slot = (self.slot_of[v] for v in op.operands)
        dtype = dtype_of(op.attributes["dtype"].value, where)
        result = op.results[0]
        self.meta_of[result] = self.declared_meta(result, where)
        target = self.new_slot(result)
        place = self.place

        def step(s: list) -> None:
            number = to_numpy(s[value_slot]).reshape(-1)
            extents = [int(e) for e in to_numpy(s[shape_slot]).reshape(-1).tolist()]
            if number.size != 1 or any(e < 0 for e in extents):
                raise InvalidArgumentError(
                    f"{where}: needs a 1-element value and sizes >= 0, got {number.size} "
                    f"elements and shape {extents}"
                )
            filled = np.full(extents, number[0]).astype(dtype.numpy_dtype)
            s[target] = to_backend(filled, place)

        self.plan.ops.append(_OpStep(step))


_CONTROL_FLOW_STEPS: dict[str, Callable[[_Compiler, Operation, str], None]] = {
    "pd_op.if": _Compiler.compile_if,
    "pd_op.while": _Compiler.compile_while,
    "cf.stack_create": _Compiler.compile_stack_create,
    "cf.tuple_push": _Compiler.compile_tuple_push,
    "cf.tuple_pop": _Compiler.compile_tuple_pop,
    "cf.has_elements": _Compiler.compile_has_elements,
}

_BUILTIN_STEPS: dict[str, Callable[[_Compiler, Operation, str], None]] = {
    "pd_op.data": _Compiler.compile_placed,
    "pd_op.feed": _Compiler.compile_placed,
    "builtin.parameter": _Compiler.compile_placed,
    "builtin.set_parameter": _Compiler.compile_set_parameter,
    "builtin.shadow_output": _Compiler.compile_shadow_output,
    "pd_op.fetch": _Compiler.compile_alias,
    "builtin.combine": _Compiler.compile_combine,
    "builtin.split": _Compiler.compile_split,
    "builtin.slice": _Compiler.compile_slice,
    "pd_op.assign_value_": _Compiler.compile_assign_value,
    "pd_op.full_with_tensor": _Compiler.compile_full_with_tensor,
}


def _op_def_for(name: str, where: str) -> tuple[OpDef, tuple[tuple[str, str], ...]]:
    """The OpDef that runs pd_op ``name`` and its in-place pairs: the op's own OpDef, or for an
    in-place variant ``x_`` without one, ``x``'s OpDef and its declared in-place pairs."""
    short = name[len("pd_op.") :]
    op_def = OP_DEFS.get(short)
    inplace: tuple[tuple[str, str], ...] = ()
    if op_def is not None:
        inplace = op_def.info.inplace if short.endswith("_") else ()
    elif short.endswith("_") and short[:-1] in OP_DEFS:
        op_def = OP_DEFS[short[:-1]]
        inplace = op_def.info.inplace
        if not inplace:
            raise UnimplementedError(
                f"Executor: {where}: op '{short[:-1]}' declares no in-place form"
            )
    if op_def is None or op_def.dispatcher is None:
        raise UnimplementedError(f"Executor: {where}: phiops has no op '{short}' with a kernel")
    return op_def, inplace


def _check_pd_op_only(op: Operation, row: Any, names: PdOpNames, where: str) -> None:
    """An argument of the pd_op that phiops' op lacks must have the one value phiops computes."""
    operands = {o.name: i for i, o in enumerate(row.operands)}
    for key, expected in names.pd_op_only.items():
        if key in operands and operands[key] < len(op.operands):
            value = op.operands[operands[key]]
            if value is not None and expected is None:
                raise UnimplementedError(
                    f"Executor: {where}: operand '{key}' is given; phiops' op runs without it only"
                )
        elif key in op.attributes and op.attributes[key].value != expected:
            raise UnimplementedError(
                f"Executor: {where}: {key}={op.attributes[key].value!r} is not implemented; "
                f"phiops' op computes {key}={expected!r} only"
            )


def _late_step(
    op_def: OpDef,
    where: str,
    input_slots: tuple[int | None, ...],
    attrs: tuple,
    out_slots: tuple[int, ...],
    many: bool,
    declared: list[Any],
) -> Callable[[list], None]:
    """The step of an op planned when it runs (its input dims or attributes depend on the data):
    it plans for the actual input metas and attribute values, once per distinct set of them,
    checks the first result of each plan against the ``declared`` result types, then executes."""
    dispatcher = op_def.dispatcher
    info = op_def.info
    plans: dict[tuple, Any] = {}
    computed = any(isinstance(a, Computed) for a in attrs)

    def step(s: list) -> None:
        arrays = tuple(None if slot is None else s[slot] for slot in input_slots)
        values = (
            tuple(a.value(s) if isinstance(a, Computed) else a for a in attrs)
            if computed
            else attrs
        )
        metas = tuple(array_meta(array) for array in arrays)
        key = (metas, values)
        kernel_plan = plans.get(key)
        try:
            if kernel_plan is None:
                kernel_plan = dispatcher.plan(metas, values)
                result = execute(kernel_plan, arrays, values)
                check_outputs(kernel_plan, result, info)
                _check_late_result(kernel_plan, declared, many, "the result")
                if len(plans) >= _PLAN_LIMIT:
                    plans.clear()
                plans[key] = kernel_plan
            else:
                result = execute(kernel_plan, arrays, values)
        except PhiError as error:
            raise type(error)(f"{where}: {error}") from None
        if many:
            for slot, array in zip(out_slots, result):
                s[slot] = array
        else:
            s[out_slots[0]] = result

    return step


def _check_late_result(kernel_plan: Any, declared: list, many: bool, where: str) -> None:
    metas = kernel_plan.out_metas if many else (kernel_plan.out_metas,)
    for meta, declared_type in zip(metas, declared):
        check_fits(meta, declared_type, where)


# -- steps: closures over slots ----------------------------------------------------------------


def _kernel_step(
    run: Callable[..., Any],
    args: tuple[tuple[bool, Any], ...],
    out_slots: tuple[int, ...],
    many: bool,
    releases: tuple[int, ...] = (),
) -> Any:
    """The step calling a planned kernel: tensor arguments from slots (None for an absent
    optional one), attributes bound; results into ``out_slots``; then the ``releases`` slots
    emptied. Single-output ops whose one or two tensors come before their attributes (most ops)
    get a closure of their own, the cheapest call; for other ops, given ``releases``, this
    returns None (the caller wraps the general step)."""
    count = 0
    while count < len(args) and args[count][0] and args[count][1] is not None:
        count += 1
    constants = tuple(value for _, value in args[count:])
    if not many and count in (1, 2) and not any(is_tensor for is_tensor, _ in args[count:]):
        if constants:
            run = _with_trailing(run, count, constants)
        return _simple_step(run, tuple(slot for _, slot in args[:count]), out_slots[0], releases)
    if releases:
        return None
    getters = tuple(
        (slot, None) if is_tensor and slot is not None else (None, None if is_tensor else slot)
        for is_tensor, slot in args
    )
    if not many:
        (out,) = out_slots

        def step(s: list) -> None:
            s[out] = run(*[s[i] if i is not None else c for i, c in getters])

        return step

    def step_many(s: list) -> None:
        for slot, array in zip(out_slots, run(*[s[i] if i is not None else c for i, c in getters])):
            s[slot] = array

    return step_many


def _with_trailing(run: Callable[..., Any], count: int, constants: tuple) -> Callable[..., Any]:
    """``run`` with its attributes bound after its ``count`` tensor arguments."""
    if count == 1:
        return lambda x: run(x, *constants)
    return lambda x, y: run(x, y, *constants)


def _simple_step(
    run: Callable[..., Any],
    tensors: tuple[int, ...],
    out: int,
    releases: tuple[int, ...],
) -> Callable[[list], None]:
    """``s[out] = run(s[a][, s[b]])``, then the released slots emptied."""
    if len(tensors) == 1:
        (a,) = tensors
        if not releases:

            def step1(s: list) -> None:
                s[out] = run(s[a])

            return step1
        if len(releases) == 1:
            (r,) = releases

            def step1_release(s: list) -> None:
                s[out] = run(s[a])
                s[r] = None

            return step1_release

        def step1_releases(s: list) -> None:
            s[out] = run(s[a])
            for slot in releases:
                s[slot] = None

        return step1_releases
    a, b = tensors
    if not releases:

        def step2(s: list) -> None:
            s[out] = run(s[a], s[b])

        return step2
    if len(releases) == 1:
        (r,) = releases

        def step2_release(s: list) -> None:
            s[out] = run(s[a], s[b])
            s[r] = None

        return step2_release

    def step2_releases(s: list) -> None:
        s[out] = run(s[a], s[b])
        for slot in releases:
            s[slot] = None

    return step2_releases


def _checking_nan_inf(
    step: Callable[[list], None], out_slots: tuple[int, ...], info: Any, where: str
) -> Callable[[list], None]:
    """``step``, then InvalidArgumentError naming the op and output when a floating output holds
    NaN or Inf (FLAGS_check_nan_inf, which eager calls honour too)."""
    names = [o.name for o in info.outputs]

    def checked(s: list) -> None:
        step(s)
        for name, slot in zip(names, out_slots):
            for array in s[slot] if isinstance(s[slot], list) else (s[slot],):
                if array is None or array.dtype.kind not in "fc" or array.size == 0:
                    continue
                xp = module_of(array)
                bad_nan = bool(xp.isnan(array).any())
                if bad_nan or bool(xp.isinf(array).any()):
                    raise InvalidArgumentError(
                        f"{where}: output '{name}' contains {'NaN' if bad_nan else 'Inf'} "
                        "(FLAGS_check_nan_inf is on)"
                    )

    return checked


def _with_release(step: Callable[[list], None], slots: tuple[int, ...]) -> Callable[[list], None]:
    if len(slots) == 1:
        (only,) = slots

        def released_one(s: list) -> None:
            step(s)
            s[only] = None

        return released_one

    def released(s: list) -> None:
        step(s)
        for slot in slots:
            s[slot] = None

    return released


def _with_scope_writes(
    step: Callable[[list], None], writes: tuple[tuple[int, str], ...]
) -> Callable[[list], None]:
    def written(s: list) -> None:
        step(s)
        scope = s[_SCOPE_SLOT]
        for slot, name in writes:
            scope.var(name).array = s[slot]

    return written


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


# -- control flow ------------------------------------------------------------------------------


def _operands_within(op: Operation) -> list[Value]:
    """The operands of ``op`` and of every op in its regions (the values it reads)."""
    found = [v for v in op.operands if v is not None]
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                found.extend(_operands_within(inner))
    return found


def _meta_text(meta: Any) -> str:
    if isinstance(meta, DenseTensorMeta):
        return f"{meta.dtype.name.lower()} {list(meta.dims)}"
    return repr(meta)


def _joined_meta(first: Any, second: Any, where: str, index: int) -> Any:
    """The meta of result ``index`` of an if whose branches yield ``first`` and ``second``:
    their dtype and rank must agree; an extent they disagree on is unknown (-1)."""
    if first == second:
        return first
    if (
        not isinstance(first, DenseTensorMeta)
        or not isinstance(second, DenseTensorMeta)
        or first.dtype is not second.dtype
        or len(first.dims) != len(second.dims)
    ):
        raise InvalidArgumentError(
            f"{where}: result {index} is {_meta_text(first)} in the true branch but "
            f"{_meta_text(second)} in the false branch: the branches must yield the same dtype "
            "and rank"
        )
    dims = tuple(a if a == b else -1 for a, b in zip(first.dims, second.dims))
    return DenseTensorMeta.get(first.dtype, dims, first.layout, first.place)


def _with_unknown_dims(meta: Any, declared: Any) -> Any:
    """``meta`` with -1 where ``declared`` (a block argument's type) leaves an extent unknown."""
    if (
        not isinstance(meta, DenseTensorMeta)
        or not isinstance(declared, DenseTensorType)
        or -1 not in declared.dims
        or len(declared.dims) != len(meta.dims)
    ):
        return meta
    dims = tuple(-1 if d == -1 else m for m, d in zip(meta.dims, declared.dims))
    return DenseTensorMeta.get(meta.dtype, dims, meta.layout, meta.place)


def _carried_fits(meta: Any, entry: Any) -> bool:
    """Whether a yielded meta can be carried in a loop argument of meta ``entry``: same dtype and
    rank, and each extent the argument knows is the yielded one (or unknown until run time)."""
    if not isinstance(meta, DenseTensorMeta) or not isinstance(entry, DenseTensorMeta):
        return meta == entry
    return (
        meta.dtype is entry.dtype
        and len(meta.dims) == len(entry.dims)
        and all(e == -1 or m == -1 or m == e for m, e in zip(meta.dims, entry.dims))
    )


def _truth(array: Any, where: str, what: str) -> bool:
    if array.size != 1:
        raise InvalidArgumentError(
            f"{where}: {what} must hold one element, got shape {list(array.shape)}"
        )
    return bool(array.reshape(()).item())


def _if_step(
    pred: int,
    true_branch: tuple[_RegionSteps, tuple[int, ...]],
    false_branch: tuple[_RegionSteps, tuple[int, ...]],
    out_slots: tuple[int, ...],
    nested: tuple[int, ...],
    where: str,
) -> Callable[[list], None]:
    def step(s: list) -> None:
        steps, sources = true_branch if _truth(s[pred], where, "the condition") else false_branch
        steps.run(s)
        for target, source in zip(out_slots, sources):
            s[target] = s[source]
        for slot in nested:
            s[slot] = None

    return step


def _while_step(
    cond: int,
    inputs: tuple[int, ...],
    args: tuple[int, ...],
    body: _RegionSteps,
    yielded: tuple[int, ...],
    out_slots: tuple[int, ...],
    nested: tuple[int, ...],
    checks: tuple[tuple[int, tuple[int, ...], str], ...],
    where: str,
) -> Callable[[list], None]:
    next_cond, next_values = yielded[0], yielded[1:]

    def step(s: list) -> None:
        for arg, source in zip(args, inputs):
            s[arg] = s[source]
        flag = s[cond]
        while _truth(flag, where, "the condition"):
            body.run(s)
            flag = s[next_cond]
            values = [s[slot] for slot in next_values]
            for k, dims, name in checks:
                if tuple(values[k].shape) != dims:
                    raise InvalidArgumentError(
                        f"{where}: loop value {k} ({name}) has shape {list(dims)} on entry, but "
                        f"an iteration yields shape {list(values[k].shape)}: a carried value "
                        "keeps its shape between iterations, unless the program declares an "
                        "extent unknown (-1)"
                    )
            for arg, array in zip(args, values):
                s[arg] = array
        for target, arg in zip(out_slots, args):
            s[target] = s[arg]
        for slot in nested:
            s[slot] = None

    return step


def _new_stack_step(slot: int) -> Callable[[list], None]:
    def step(s: list) -> None:
        s[slot] = []

    return step


def _push_step(stack: int, sources: tuple[int, ...]) -> Callable[[list], None]:
    def step(s: list) -> None:
        s[stack].append(tuple(s[slot] for slot in sources))

    return step


def _pop_step(stack: int, targets: tuple[int, ...], where: str) -> Callable[[list], None]:
    def step(s: list) -> None:
        entries = s[stack]
        if not entries:
            raise PreconditionNotMetError(f"{where}: pops from an empty stack")
        for slot, array in zip(targets, entries.pop()):
            s[slot] = array

    return step


def _has_elements_step(stack: int, target: int, place: Place) -> Callable[[list], None]:
    on_cpu = place.backend is Backend.CPU

    def step(s: list) -> None:
        flag = np.array([len(s[stack]) > 0])
        s[target] = flag if on_cpu else to_backend(flag, place)

    return step
